-- Accounts that stay connected and keep their history.
-- 1. Disconnecting an account detaches it (src/accounts/queries.ts): `accounts.disconnected_at`, and
--    post_platforms no longer cascades from accounts, so a disconnected account's published rows keep
--    their history.
-- 2. Deleting a media item keeps the links of posts that published it (src/media/queries.ts): post_media
--    has no foreign key to media any more, and keeps a deleted item's summary (name, mime_type, size).
-- SQLite cannot alter a foreign key in place: both tables are rebuilt as drizzle-kit generates them (every
-- row copied, post_platforms with its ids; the new summary columns start NULL), then their indexes and
-- the account_metrics triggers of 0006 on post_platforms (dropped with the old table; the sums in
-- account_metrics stay right, the rows are the same) are created again.
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_post_media` (
	`post_id` integer NOT NULL,
	`item_index` integer NOT NULL,
	`position` integer NOT NULL,
	`media_id` integer NOT NULL,
	`name` text,
	`mime_type` text,
	`size` integer,
	PRIMARY KEY(`post_id`, `item_index`, `position`),
	FOREIGN KEY (`post_id`) REFERENCES `posts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_post_media`("post_id", "item_index", "position", "media_id", "name", "mime_type", "size") SELECT "post_id", "item_index", "position", "media_id", NULL, NULL, NULL FROM `post_media`;--> statement-breakpoint
DROP TABLE `post_media`;--> statement-breakpoint
ALTER TABLE `__new_post_media` RENAME TO `post_media`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `post_media_media_id_idx` ON `post_media` (`media_id`);--> statement-breakpoint
CREATE TABLE `__new_post_platforms` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`post_id` integer NOT NULL,
	`account_id` integer NOT NULL,
	`platform` text NOT NULL,
	`status` text DEFAULT 'DRAFT' NOT NULL,
	`settings` text NOT NULL,
	`analytics` text NOT NULL,
	`platform_post_id` text,
	`post_url` text,
	`posted_on` text NOT NULL,
	`error` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`attempt_id` text,
	`attempt_started_at` integer,
	`analytics_synced_at` integer,
	`plugged_at` integer,
	`plug_post_id` text,
	`plug_error` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`post_id`) REFERENCES `posts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
INSERT INTO `__new_post_platforms`("id", "post_id", "account_id", "platform", "status", "settings", "analytics", "platform_post_id", "post_url", "posted_on", "error", "attempts", "attempt_id", "attempt_started_at", "analytics_synced_at", "plugged_at", "plug_post_id", "plug_error", "created_at", "updated_at") SELECT "id", "post_id", "account_id", "platform", "status", "settings", "analytics", "platform_post_id", "post_url", "posted_on", "error", "attempts", "attempt_id", "attempt_started_at", "analytics_synced_at", "plugged_at", "plug_post_id", "plug_error", "created_at", "updated_at" FROM `post_platforms`;--> statement-breakpoint
DROP TABLE `post_platforms`;--> statement-breakpoint
ALTER TABLE `__new_post_platforms` RENAME TO `post_platforms`;--> statement-breakpoint
CREATE INDEX `post_platforms_post_id_idx` ON `post_platforms` (`post_id`);--> statement-breakpoint
CREATE INDEX `post_platforms_account_id_idx` ON `post_platforms` (`account_id`,`platform_post_id`);--> statement-breakpoint
CREATE INDEX `post_platforms_account_order_idx` ON `post_platforms` (`account_id`,length(platform_post_id),`platform_post_id`,`id`);--> statement-breakpoint
CREATE INDEX `post_platforms_sync_idx` ON `post_platforms` (`status`,`analytics_synced_at`);--> statement-breakpoint
ALTER TABLE `accounts` ADD `disconnected_at` integer;--> statement-breakpoint
CREATE TRIGGER `post_platforms_metrics_insert` AFTER INSERT ON `post_platforms` WHEN NEW.`status` = 'PUBLISHED' BEGIN UPDATE `account_metrics` SET `comments` = `comments` + coalesce(json_extract(NEW.`analytics`, '$.comments'), 0), `likes` = `likes` + coalesce(json_extract(NEW.`analytics`, '$.likes'), 0), `shares` = `shares` + coalesce(json_extract(NEW.`analytics`, '$.shares'), 0), `impressions` = `impressions` + coalesce(json_extract(NEW.`analytics`, '$.impressions'), 0), `quotes` = `quotes` + coalesce(json_extract(NEW.`analytics`, '$.quotes'), 0), `saves` = `saves` + coalesce(json_extract(NEW.`analytics`, '$.saves'), 0), `rate_weighted` = `rate_weighted` + coalesce(json_extract(NEW.`analytics`, '$.engagement_rate'), 0) * 1.0 * coalesce(json_extract(NEW.`analytics`, '$.impressions'), 0), `rate_nonzero_sum` = `rate_nonzero_sum` + coalesce(nullif(json_extract(NEW.`analytics`, '$.engagement_rate'), 0), 0), `rate_nonzero_count` = `rate_nonzero_count` + (nullif(json_extract(NEW.`analytics`, '$.engagement_rate'), 0) IS NOT NULL) WHERE `account_id` = NEW.`account_id`; END;--> statement-breakpoint
CREATE TRIGGER `post_platforms_metrics_delete` AFTER DELETE ON `post_platforms` WHEN OLD.`status` = 'PUBLISHED' BEGIN UPDATE `account_metrics` SET `comments` = `comments` - coalesce(json_extract(OLD.`analytics`, '$.comments'), 0), `likes` = `likes` - coalesce(json_extract(OLD.`analytics`, '$.likes'), 0), `shares` = `shares` - coalesce(json_extract(OLD.`analytics`, '$.shares'), 0), `impressions` = `impressions` - coalesce(json_extract(OLD.`analytics`, '$.impressions'), 0), `quotes` = `quotes` - coalesce(json_extract(OLD.`analytics`, '$.quotes'), 0), `saves` = `saves` - coalesce(json_extract(OLD.`analytics`, '$.saves'), 0), `rate_weighted` = `rate_weighted` - coalesce(json_extract(OLD.`analytics`, '$.engagement_rate'), 0) * 1.0 * coalesce(json_extract(OLD.`analytics`, '$.impressions'), 0), `rate_nonzero_sum` = `rate_nonzero_sum` - coalesce(nullif(json_extract(OLD.`analytics`, '$.engagement_rate'), 0), 0), `rate_nonzero_count` = `rate_nonzero_count` - (nullif(json_extract(OLD.`analytics`, '$.engagement_rate'), 0) IS NOT NULL) WHERE `account_id` = OLD.`account_id`; END;--> statement-breakpoint
CREATE TRIGGER `post_platforms_metrics_update` AFTER UPDATE OF `status`, `analytics`, `account_id` ON `post_platforms` WHEN (OLD.`status` = 'PUBLISHED' OR NEW.`status` = 'PUBLISHED') AND (OLD.`status` IS NOT NEW.`status` OR OLD.`analytics` IS NOT NEW.`analytics` OR OLD.`account_id` IS NOT NEW.`account_id`) BEGIN UPDATE `account_metrics` SET `comments` = `comments` - coalesce(json_extract(OLD.`analytics`, '$.comments'), 0), `likes` = `likes` - coalesce(json_extract(OLD.`analytics`, '$.likes'), 0), `shares` = `shares` - coalesce(json_extract(OLD.`analytics`, '$.shares'), 0), `impressions` = `impressions` - coalesce(json_extract(OLD.`analytics`, '$.impressions'), 0), `quotes` = `quotes` - coalesce(json_extract(OLD.`analytics`, '$.quotes'), 0), `saves` = `saves` - coalesce(json_extract(OLD.`analytics`, '$.saves'), 0), `rate_weighted` = `rate_weighted` - coalesce(json_extract(OLD.`analytics`, '$.engagement_rate'), 0) * 1.0 * coalesce(json_extract(OLD.`analytics`, '$.impressions'), 0), `rate_nonzero_sum` = `rate_nonzero_sum` - coalesce(nullif(json_extract(OLD.`analytics`, '$.engagement_rate'), 0), 0), `rate_nonzero_count` = `rate_nonzero_count` - (nullif(json_extract(OLD.`analytics`, '$.engagement_rate'), 0) IS NOT NULL) WHERE `account_id` = OLD.`account_id` AND OLD.`status` = 'PUBLISHED'; UPDATE `account_metrics` SET `comments` = `comments` + coalesce(json_extract(NEW.`analytics`, '$.comments'), 0), `likes` = `likes` + coalesce(json_extract(NEW.`analytics`, '$.likes'), 0), `shares` = `shares` + coalesce(json_extract(NEW.`analytics`, '$.shares'), 0), `impressions` = `impressions` + coalesce(json_extract(NEW.`analytics`, '$.impressions'), 0), `quotes` = `quotes` + coalesce(json_extract(NEW.`analytics`, '$.quotes'), 0), `saves` = `saves` + coalesce(json_extract(NEW.`analytics`, '$.saves'), 0), `rate_weighted` = `rate_weighted` + coalesce(json_extract(NEW.`analytics`, '$.engagement_rate'), 0) * 1.0 * coalesce(json_extract(NEW.`analytics`, '$.impressions'), 0), `rate_nonzero_sum` = `rate_nonzero_sum` + coalesce(nullif(json_extract(NEW.`analytics`, '$.engagement_rate'), 0), 0), `rate_nonzero_count` = `rate_nonzero_count` + (nullif(json_extract(NEW.`analytics`, '$.engagement_rate'), 0) IS NOT NULL) WHERE `account_id` = NEW.`account_id` AND NEW.`status` = 'PUBLISHED'; END;
