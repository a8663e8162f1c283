-- An account's health (GET /api/v1/accounts/{id}, src/accounts/tokens.ts): when its token was last
-- refreshed, and the last refresh failure `{code, message}` (JSON), cleared by a successful refresh or a
-- reconnect. Numbered 0015: 0014 is taken by the disconnect migration of a parallel branch.
ALTER TABLE `accounts` ADD `last_refreshed_at` integer;--> statement-breakpoint
ALTER TABLE `accounts` ADD `last_error` text;
