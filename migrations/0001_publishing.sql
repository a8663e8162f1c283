ALTER TABLE `post_platforms` ADD `attempt_id` text;--> statement-breakpoint
ALTER TABLE `post_platforms` ADD `attempt_started_at` integer;--> statement-breakpoint
ALTER TABLE `post_platforms` ADD `plugged_at` integer;--> statement-breakpoint
ALTER TABLE `post_platforms` ADD `plug_post_id` text;--> statement-breakpoint
CREATE INDEX `post_platforms_sync_idx` ON `post_platforms` (`status`,`analytics_synced_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `comments_platform_comment_unique` ON `comments` (`post_id`,`platform`,`platform_comment_id`);--> statement-breakpoint
CREATE INDEX `posts_status_updated_idx` ON `posts` (`status`,`updated_at`);