-- The outbox of post settlements for webhooks (src/webhooks/outbox.ts): written with the settlement,
-- deleted once its event is queued, swept by the cron when a crash came between.
CREATE TABLE `webhook_outbox` (
	`post_id` integer NOT NULL,
	`at` integer NOT NULL,
	`status` text NOT NULL,
	PRIMARY KEY(`post_id`, `at`),
	FOREIGN KEY (`post_id`) REFERENCES `posts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `webhook_outbox_at_idx` ON `webhook_outbox` (`at`);