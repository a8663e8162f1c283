-- The comment inbox: comments carry their tenant and account (backfilled from their post and the post's
-- platform row on that platform), their parent, their state, and when they were first stored. SQLite
-- cannot add a NOT NULL column with a foreign key in place: the table is rebuilt.
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_comments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`workspace_id` integer NOT NULL,
	`account_id` integer NOT NULL,
	`post_id` integer NOT NULL,
	`platform` text NOT NULL,
	`platform_comment_id` text,
	`platform_parent_id` text,
	`parent_id` integer,
	`content` text NOT NULL,
	`author_name` text NOT NULL,
	`contact` text,
	`url` text,
	`is_own` integer DEFAULT false NOT NULL,
	`hidden` integer DEFAULT false NOT NULL,
	`replied_at` integer,
	`received_at` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`post_id`) REFERENCES `posts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_comments`("id", "workspace_id", "account_id", "post_id", "platform", "platform_comment_id", "content", "author_name", "contact", "received_at", "created_at") SELECT * FROM (SELECT c."id", p."workspace_id", (SELECT pp."account_id" FROM `post_platforms` pp WHERE pp."post_id" = c."post_id" AND pp."platform" = c."platform" ORDER BY pp."id" LIMIT 1) AS account_id, c."post_id", c."platform", c."platform_comment_id", c."content", c."author_name", c."contact", c."created_at", c."created_at" FROM `comments` c JOIN `posts` p ON p."id" = c."post_id") WHERE account_id IS NOT NULL;--> statement-breakpoint
-- The id sequence carries over (a shard's range starts at k × 2^40: src/db/shards.ts), even with no rows.
INSERT INTO sqlite_sequence (name, seq) SELECT '__new_comments', 0 WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = '__new_comments');--> statement-breakpoint
UPDATE sqlite_sequence SET seq = max(seq, coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'comments'), 0)) WHERE name = '__new_comments';--> statement-breakpoint
DROP TABLE `comments`;--> statement-breakpoint
ALTER TABLE `__new_comments` RENAME TO `comments`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `comments_post_id_idx` ON `comments` (`post_id`,`id`);--> statement-breakpoint
CREATE INDEX `comments_workspace_id_idx` ON `comments` (`workspace_id`,`id`);--> statement-breakpoint
CREATE INDEX `comments_account_id_idx` ON `comments` (`account_id`,`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `comments_platform_comment_unique` ON `comments` (`post_id`,`platform`,`platform_comment_id`);
