-- Tabula storage, version 4 (SQLite). Keep in step with
-- migrations/postgres/0004_outbox_usernames.sql. The durable outbox of what the bot says on its
-- own, what the chat adapters need to know of chats and games, usernames, and invitees known
-- only by a typed @username.

-- Everything the bot says on its own, written in the same transaction as its cause, delivered
-- at least once, in order per chat. A row is waiting while sent_at and dropped_at are null; a
-- dispatcher holds it while lease_until is in the future. payload: JSON written by the caller.
CREATE TABLE outbox (
    id              INTEGER PRIMARY KEY,
    platform        TEXT    NOT NULL,
    chat_id         INTEGER NOT NULL REFERENCES chats (id),
    game_id         INTEGER REFERENCES games (id),
    kind            TEXT    NOT NULL
        CHECK (kind IN ('reminder', 'timeout', 'expired', 'board', 'text')),
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
-- The head of each chat's queue, and the waiting rows by due time (the claim).
CREATE INDEX outbox_waiting_by_chat ON outbox (chat_id, id)
    WHERE sent_at IS NULL AND dropped_at IS NULL;
CREATE INDEX outbox_waiting_by_due ON outbox (next_attempt_at)
    WHERE sent_at IS NULL AND dropped_at IS NULL;
CREATE INDEX outbox_by_game ON outbox (game_id) WHERE game_id IS NOT NULL;

-- inactive_at: when the platform said the bot was removed or blocked (null: active; cleared
-- when someone writes in the chat again). outbox_next_at: the earliest moment the chat's next
-- outbox message may be sent (per-chat pacing).
ALTER TABLE chats ADD COLUMN inactive_at INTEGER;
ALTER TABLE chats ADD COLUMN outbox_next_at INTEGER;

-- The platform's id of the latest board posted for the game.
ALTER TABLE games ADD COLUMN board_message_id TEXT;

-- The platform's username, without '@', where the platform has one. Looked up without regard
-- to case (ASCII: Telegram's usernames are ASCII).
ALTER TABLE users ADD COLUMN username TEXT;
CREATE INDEX users_by_username ON users (platform, lower(username)) WHERE username IS NOT NULL;

-- An invitee is a user, or only a typed @username until someone of that name takes the seat:
-- exactly one of user_id and username is set. SQLite cannot drop NOT NULL: rebuild the table,
-- keeping its rows.
CREATE TABLE challenge_invitees_v4 (
    challenge_id INTEGER NOT NULL REFERENCES challenges (id),
    position     INTEGER NOT NULL CHECK (position >= 0),
    user_id      INTEGER REFERENCES users (id),
    username     TEXT,
    accepted_at  INTEGER,
    PRIMARY KEY (challenge_id, position),
    UNIQUE (challenge_id, user_id),
    CHECK ((user_id IS NULL) <> (username IS NULL)),
    CHECK (accepted_at IS NULL OR user_id IS NOT NULL)
);
INSERT INTO challenge_invitees_v4 (challenge_id, position, user_id, username, accepted_at)
SELECT challenge_id, position, user_id, NULL, accepted_at FROM challenge_invitees;
DROP TABLE challenge_invitees;
ALTER TABLE challenge_invitees_v4 RENAME TO challenge_invitees;
CREATE UNIQUE INDEX challenge_invitees_by_username ON challenge_invitees (challenge_id, lower(username))
    WHERE username IS NOT NULL;
