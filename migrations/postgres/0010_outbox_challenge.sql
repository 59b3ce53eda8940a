-- Tabula storage, version 10 (postgres). Keep in step with migrations/sqlite/0010_outbox_challenge.sql.
-- A challenge's post is announced through the outbox like a board (issue 36): written with the
-- challenge, held by the process that answers, delivered by the dispatcher if that process dies
-- before posting it.
ALTER TABLE outbox DROP CONSTRAINT outbox_kind_check;
ALTER TABLE outbox ADD CONSTRAINT outbox_kind_check
    CHECK (kind IN ('reminder', 'timeout', 'expired', 'board', 'text', 'challenge'));
