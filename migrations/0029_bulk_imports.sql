CREATE TABLE `import_posts` (
	`import_id` text NOT NULL,
	`row` integer NOT NULL,
	`post_id` integer NOT NULL,
	PRIMARY KEY(`import_id`, `row`),
	FOREIGN KEY (`import_id`) REFERENCES `imports`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `imports` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`mode` text NOT NULL,
	`workspace_id` integer NOT NULL,
	`status` text DEFAULT 'validated' NOT NULL,
	`format` text NOT NULL,
	`rows` text NOT NULL,
	`claimed_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `imports_created_at_idx` ON `imports` (`created_at`);