-- The storage quota, exact under concurrency (src/media/quota.ts): the bytes a workspace holds are kept
-- on the workspace by triggers (backfilled here), uploads reserve bytes in `media_reservations` before
-- storing any, and each check and its write is one statement. Also an index to look an item up by id
-- within the caller's workspaces (src/db/tenancy.ts), so another tenant's item costs what an absent one does.
CREATE TABLE `media_reservations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`workspace_id` integer NOT NULL,
	`bytes` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `media_reservations_workspace_idx` ON `media_reservations` (`workspace_id`,`expires_at`);--> statement-breakpoint
ALTER TABLE `workspaces` ADD `media_bytes` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `media_workspace_item_idx` ON `media` (`workspace_id`,`id`);--> statement-breakpoint
UPDATE `workspaces` SET `media_bytes` = (SELECT coalesce(sum(`size`), 0) FROM `media` WHERE `media`.`workspace_id` = `workspaces`.`id` AND `media`.`state` != 'failed');--> statement-breakpoint
CREATE TRIGGER `media_bytes_insert` AFTER INSERT ON `media` WHEN NEW.`state` != 'failed' BEGIN UPDATE `workspaces` SET `media_bytes` = `media_bytes` + NEW.`size` WHERE `id` = NEW.`workspace_id`; END;--> statement-breakpoint
CREATE TRIGGER `media_bytes_delete` AFTER DELETE ON `media` WHEN OLD.`state` != 'failed' BEGIN UPDATE `workspaces` SET `media_bytes` = `media_bytes` - OLD.`size` WHERE `id` = OLD.`workspace_id`; END;--> statement-breakpoint
CREATE TRIGGER `media_bytes_update` AFTER UPDATE OF `size`, `state`, `workspace_id` ON `media` WHEN OLD.`size` IS NOT NEW.`size` OR OLD.`state` IS NOT NEW.`state` OR OLD.`workspace_id` IS NOT NEW.`workspace_id` BEGIN UPDATE `workspaces` SET `media_bytes` = `media_bytes` - (CASE WHEN OLD.`state` != 'failed' THEN OLD.`size` ELSE 0 END) WHERE `id` = OLD.`workspace_id`; UPDATE `workspaces` SET `media_bytes` = `media_bytes` + (CASE WHEN NEW.`state` != 'failed' THEN NEW.`size` ELSE 0 END) WHERE `id` = NEW.`workspace_id`; END;
