ALTER TABLE `accounts` ADD `grant_user_id` text;--> statement-breakpoint
CREATE INDEX `accounts_grant_idx` ON `accounts` (`platform`,`grant_user_id`);--> statement-breakpoint
-- Backfill (src/accounts/grant.ts): where the account is the signed-in user, the grant is theirs; a
-- LinkedIn profile (urn:li:person:<member>) is its member's. Facebook Pages, LinkedIn organisations and
-- YouTube channels stay unknown: disconnecting one of a grant with an unknown account revokes nothing.
UPDATE `accounts` SET `grant_user_id` = `platform_user_id` WHERE `platform` NOT IN ('facebook', 'linkedin', 'youtube');--> statement-breakpoint
UPDATE `accounts` SET `grant_user_id` = substr(`platform_user_id`, 15) WHERE `platform` = 'linkedin' AND `platform_user_id` LIKE 'urn:li:person:%';
