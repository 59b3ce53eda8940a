-- Tabula storage, version 11 (postgres). Keep in step with migrations/sqlite/0011_outbox_announce.sql.
-- The reply to a request that changed something in public other than a game or a new challenge
-- (a moderator's grant or take) is announced through the outbox too (issue 36): written with the
-- change, held by the process that answers, delivered by the dispatcher if it dies first.
ALTER TABLE outbox DROP CONSTRAINT outbox_kind_check;
ALTER TABLE outbox ADD CONSTRAINT outbox_kind_check
    CHECK (kind IN ('reminder', 'timeout', 'expired', 'board', 'text', 'challenge', 'announce'));
