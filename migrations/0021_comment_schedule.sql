-- Comments (with the analytics read they share) follow a post's age: the cron refreshes a row every 15
-- minutes in its first day, then daily until it is 30 days old, then no more (`sync_due_at` null; an
-- on-demand sync or a platform's push still reads it). A virtual column's expression cannot be altered:
-- its index goes, the column is dropped and added again, and the index is rebuilt. A platform's push
-- names an account by its platform id alone: `accounts_platform_user_idx` finds it in any tenant.
DROP INDEX `post_platforms_sync_idx`;--> statement-breakpoint
ALTER TABLE `post_platforms` DROP COLUMN `sync_due_at`;--> statement-breakpoint
ALTER TABLE `post_platforms` ADD `sync_due_at` integer GENERATED ALWAYS AS ((CASE WHEN status <> 'PUBLISHED' OR platform_post_id IS NULL THEN NULL WHEN analytics_synced_at IS NULL AND sync_skipped_at IS NULL THEN 0 WHEN (max(coalesce(analytics_synced_at, 0), coalesce(sync_skipped_at, 0)) + 900001) < coalesce(json_extract(posted_on, '$[#-1]'), updated_at) + 86400000 THEN (max(coalesce(analytics_synced_at, 0), coalesce(sync_skipped_at, 0)) + 900001) WHEN max(coalesce(json_extract(posted_on, '$[#-1]'), updated_at) + 86400000, max(coalesce(analytics_synced_at, 0), coalesce(sync_skipped_at, 0)) + 86400001) < coalesce(json_extract(posted_on, '$[#-1]'), updated_at) + 2592000000 THEN max(coalesce(json_extract(posted_on, '$[#-1]'), updated_at) + 86400000, max(coalesce(analytics_synced_at, 0), coalesce(sync_skipped_at, 0)) + 86400001) ELSE NULL END)) VIRTUAL;--> statement-breakpoint
CREATE INDEX `post_platforms_sync_idx` ON `post_platforms` (`sync_due_at`);--> statement-breakpoint
CREATE INDEX `accounts_platform_user_idx` ON `accounts` (`platform`,`platform_user_id`);