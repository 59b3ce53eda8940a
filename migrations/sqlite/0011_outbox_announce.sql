-- Tabula storage, version 11 (sqlite). Keep in step with migrations/postgres/0011_outbox_announce.sql.
-- The reply to a request that changed something in public other than a game or a new challenge
-- (a moderator's grant or take) is announced through the outbox too (issue 36): written with the
-- change, held by the process that answers, delivered by the dispatcher if it dies first.
-- SQLite cannot change a CHECK constraint: the table is rebuilt as it was, with the kind
-- 'announce' allowed.
CREATE TABLE outbox_new (
    id              INTEGER PRIMARY KEY,
    platform        TEXT    NOT NULL,
    chat_id         INTEGER NOT NULL REFERENCES chats (id),
    game_id         INTEGER REFERENCES games (id),
    kind            TEXT    NOT NULL
        CHECK (kind IN ('reminder', 'timeout', 'expired', 'board', 'text', 'challenge', 'announce')),
    payload         TEXT    NOT NULL,
    created_at      INTEGER NOT NULL,
    next_attempt_at INTEGER NOT NULL,
    attempts        INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    lease_owner     TEXT,
    lease_until     INTEGER,
    sent_at         INTEGER,
    message_id      TEXT,
    dropped_at      INTEGER,
    last_error      TEXT,
    CHECK ((lease_owner IS NULL) = (lease_until IS NULL)),
    CHECK (sent_at IS NULL OR dropped_at IS NULL)
);
INSERT INTO outbox_new (id, platform, chat_id, game_id, kind, payload, created_at,
                        next_attempt_at, attempts, lease_owner, lease_until, sent_at,
                        message_id, dropped_at, last_error)
SELECT id, platform, chat_id, game_id, kind, payload, created_at, next_attempt_at, attempts,
       lease_owner, lease_until, sent_at, message_id, dropped_at, last_error
FROM outbox;
DROP TABLE outbox;
ALTER TABLE outbox_new RENAME TO outbox;
CREATE INDEX outbox_waiting_by_chat ON outbox (chat_id, id)
    WHERE sent_at IS NULL AND dropped_at IS NULL;
CREATE INDEX outbox_waiting_by_due ON outbox (next_attempt_at)
    WHERE sent_at IS NULL AND dropped_at IS NULL;
CREATE INDEX outbox_by_game ON outbox (game_id) WHERE game_id IS NOT NULL;
