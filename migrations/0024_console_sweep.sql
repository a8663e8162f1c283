CREATE INDEX `console_sessions_last_used_at_idx` ON `console_sessions` (`last_used_at`);--> statement-breakpoint
CREATE INDEX `console_sessions_created_at_idx` ON `console_sessions` (`created_at`);--> statement-breakpoint
CREATE INDEX `sign_in_links_expires_at_idx` ON `sign_in_links` (`expires_at`);