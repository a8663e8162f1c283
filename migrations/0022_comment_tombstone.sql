-- The comment inbox's tombstone: a comment the account deleted through the service stays, marked, so a
-- later sync of a stale read neither brings it back nor fires comment.received again.
ALTER TABLE `comments` ADD `deleted_at` integer;
