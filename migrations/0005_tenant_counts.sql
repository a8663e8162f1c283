-- Exact totals for the posts and media lists without counting rows per request: counters on the
-- workspace (and the folder, for media), backfilled here and kept by triggers on every insert, delete
-- and folder move, whatever writes them (the API, background work, a cascade).
ALTER TABLE `folders` ADD `media_count` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `workspaces` ADD `post_count` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `workspaces` ADD `media_count` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE `workspaces` SET `post_count` = (SELECT count(*) FROM `posts` WHERE `posts`.`workspace_id` = `workspaces`.`id`), `media_count` = (SELECT count(*) FROM `media` WHERE `media`.`workspace_id` = `workspaces`.`id`);--> statement-breakpoint
UPDATE `folders` SET `media_count` = (SELECT count(*) FROM `media` WHERE `media`.`folder_id` = `folders`.`id`);--> statement-breakpoint
CREATE TRIGGER `posts_count_insert` AFTER INSERT ON `posts` BEGIN UPDATE `workspaces` SET `post_count` = `post_count` + 1 WHERE `id` = NEW.`workspace_id`; END;--> statement-breakpoint
CREATE TRIGGER `posts_count_delete` AFTER DELETE ON `posts` BEGIN UPDATE `workspaces` SET `post_count` = `post_count` - 1 WHERE `id` = OLD.`workspace_id`; END;--> statement-breakpoint
CREATE TRIGGER `media_count_insert` AFTER INSERT ON `media` BEGIN UPDATE `workspaces` SET `media_count` = `media_count` + 1 WHERE `id` = NEW.`workspace_id`; UPDATE `folders` SET `media_count` = `media_count` + 1 WHERE `id` = NEW.`folder_id`; END;--> statement-breakpoint
CREATE TRIGGER `media_count_delete` AFTER DELETE ON `media` BEGIN UPDATE `workspaces` SET `media_count` = `media_count` - 1 WHERE `id` = OLD.`workspace_id`; UPDATE `folders` SET `media_count` = `media_count` - 1 WHERE `id` = OLD.`folder_id`; END;--> statement-breakpoint
CREATE TRIGGER `media_count_move` AFTER UPDATE OF `folder_id` ON `media` WHEN OLD.`folder_id` IS NOT NEW.`folder_id` BEGIN UPDATE `folders` SET `media_count` = `media_count` - 1 WHERE `id` = OLD.`folder_id`; UPDATE `folders` SET `media_count` = `media_count` + 1 WHERE `id` = NEW.`folder_id`; END;
