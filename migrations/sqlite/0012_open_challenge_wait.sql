-- Tabula storage, version 12 (sqlite). Keep in step with migrations/postgres/0012_open_challenge_wait.sql.
-- How long an open challenge (one naming nobody) waits for people to accept, in milliseconds
-- (issue 37): moderators choose it with /config open_wait=; a day unless they do. A challenge
-- naming people waits as long as its time per move, a day at least.
ALTER TABLE community_settings ADD COLUMN open_wait_millis INTEGER NOT NULL DEFAULT 86400000;
