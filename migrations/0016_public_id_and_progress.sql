-- A row published before the platform gives its public id (TikTok before moderation) is marked
-- `awaiting_public_id` until a follow-up read fills the id and URL in; `progress` keeps what the platform
-- handed out before a publication's final call (media ids, containers, upload sessions, publish ids) so a
-- later attempt resumes it. Both are new columns with defaults: existing rows are unchanged.
ALTER TABLE `post_platforms` ADD `progress` text;--> statement-breakpoint
ALTER TABLE `post_platforms` ADD `awaiting_public_id` integer DEFAULT false NOT NULL;