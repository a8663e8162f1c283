-- One outbox for every event (src/events/): written in the batch of the change, deleted once the
-- webhooks have recorded its event (src/webhooks/outbox.ts), swept by the cron when a crash came between.
CREATE TABLE `outbox` (
	`type` text NOT NULL,
	`record_id` integer NOT NULL,
	`version` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`type`, `record_id`, `version`)
);
--> statement-breakpoint
CREATE INDEX `outbox_created_at_idx` ON `outbox` (`created_at`);
--> statement-breakpoint
-- Nothing pending is lost: the post settlements not yet told (FAILED is post.failed, any other status
-- post.published, as the emission read them) and the expiries not yet told (version: expired_at in ms,
-- the event id's) move over, with the time of their change, before their old places go.
INSERT INTO `outbox` (`type`, `record_id`, `version`, `created_at`)
	SELECT CASE WHEN `status` = 'FAILED' THEN 'post.failed' ELSE 'post.published' END, `post_id`, CAST(`at` AS TEXT), `at`
	FROM `webhook_outbox`;
--> statement-breakpoint
INSERT INTO `outbox` (`type`, `record_id`, `version`, `created_at`)
	SELECT 'account.expired', `id`, CAST(`expired_at` AS TEXT), `expiry_event_at`
	FROM `accounts` WHERE `expiry_event_at` IS NOT NULL AND `expired_at` IS NOT NULL;
--> statement-breakpoint
DROP TABLE `webhook_outbox`;--> statement-breakpoint
DROP INDEX `accounts_expiry_event_idx`;--> statement-breakpoint
ALTER TABLE `accounts` DROP COLUMN `expiry_event_at`;
