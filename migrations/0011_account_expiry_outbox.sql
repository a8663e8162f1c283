ALTER TABLE `accounts` ADD `expiry_event_at` integer;--> statement-breakpoint
CREATE INDEX `accounts_expiry_event_idx` ON `accounts` (`expiry_event_at`);