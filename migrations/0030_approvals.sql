CREATE TABLE `post_reviews` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`post_id` integer NOT NULL,
	`action` text NOT NULL,
	`version` integer NOT NULL,
	`note` text,
	`by_type` text NOT NULL,
	`by_name` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`post_id`) REFERENCES `posts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `post_reviews_post_id_idx` ON `post_reviews` (`post_id`,`id`);--> statement-breakpoint
ALTER TABLE `posts` ADD `version` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `workspaces` ADD `approval` text DEFAULT 'none' NOT NULL;