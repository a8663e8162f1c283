DROP INDEX `workspace_members_user_id_idx`;--> statement-breakpoint
ALTER TABLE `workspace_members` ADD `mode` text DEFAULT 'live' NOT NULL;--> statement-breakpoint
CREATE INDEX `workspace_members_user_mode_idx` ON `workspace_members` (`user_id`,`mode`,`workspace_id`);--> statement-breakpoint
ALTER TABLE `accounts` ADD `mode` text DEFAULT 'live' NOT NULL;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `mode` text DEFAULT 'live' NOT NULL;--> statement-breakpoint
ALTER TABLE `workspaces` ADD `mode` text DEFAULT 'live' NOT NULL;--> statement-breakpoint
-- A membership and an account take their workspace's mode, whoever inserts them: the tenant scope and
-- the adapter choice rely on the copies.
CREATE TRIGGER `workspace_members_mode` AFTER INSERT ON `workspace_members` BEGIN UPDATE `workspace_members` SET `mode` = (SELECT `mode` FROM `workspaces` WHERE `id` = NEW.`workspace_id`) WHERE `workspace_id` = NEW.`workspace_id` AND `user_id` = NEW.`user_id`; END;--> statement-breakpoint
CREATE TRIGGER `accounts_mode` AFTER INSERT ON `accounts` BEGIN UPDATE `accounts` SET `mode` = (SELECT `mode` FROM `workspaces` WHERE `id` = NEW.`workspace_id`) WHERE `id` = NEW.`id`; END;--> statement-breakpoint
-- A workspace's mode is fixed at creation: live data never becomes test data, nor the other way; an
-- account never moves to another workspace.
CREATE TRIGGER `workspaces_mode_fixed` BEFORE UPDATE OF `mode` ON `workspaces` WHEN NEW.`mode` IS NOT OLD.`mode` BEGIN SELECT RAISE(ABORT, 'a workspace''s mode is fixed at creation'); END;
