-- Tabula storage, version 4 (PostgreSQL). Keep in step with
-- migrations/sqlite/0004_outbox_usernames.sql. The durable outbox of what the bot says on its
-- own, what the chat adapters need to know of chats and games, usernames, and invitees known
-- only by a typed @username.

-- Everything the bot says on its own, written in the same transaction as its cause, delivered
-- at least once, in order per chat. A row is waiting while sent_at and dropped_at are null; a
-- dispatcher holds it while lease_until is in the future. payload: JSON written by the caller.
CREATE TABLE outbox (
    id              BIGINT  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    platform        TEXT    NOT NULL,
    chat_id         BIGINT  NOT NULL REFERENCES chats (id),
    game_id         BIGINT  REFERENCES games (id),
    kind            TEXT    NOT NULL
        CHECK (kind IN ('reminder', 'timeout', 'expired', 'board', 'text')),
    payload         TEXT    NOT NULL,
    created_at      BIGINT  NOT NULL,
    next_attempt_at BIGINT  NOT NULL,
    attempts        BIGINT  NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    lease_owner     TEXT,
    lease_until     BIGINT,
    sent_at         BIGINT,
    message_id      TEXT,
    dropped_at      BIGINT,
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
ALTER TABLE chats ADD COLUMN inactive_at BIGINT;
ALTER TABLE chats ADD COLUMN outbox_next_at BIGINT;

-- The platform's id of the latest board posted for the game.
ALTER TABLE games ADD COLUMN board_message_id TEXT;

-- The platform's username, without '@', where the platform has one. Looked up without regard
-- to case (ASCII: Telegram's usernames are ASCII).
ALTER TABLE users ADD COLUMN username TEXT;
CREATE INDEX users_by_username ON users (platform, lower(username)) WHERE username IS NOT NULL;

-- An invitee is a user, or only a typed @username until someone of that name takes the seat:
-- exactly one of user_id and username is set.
ALTER TABLE challenge_invitees ALTER COLUMN user_id DROP NOT NULL;
ALTER TABLE challenge_invitees ADD COLUMN username TEXT;
ALTER TABLE challenge_invitees ADD CHECK ((user_id IS NULL) <> (username IS NULL));
ALTER TABLE challenge_invitees ADD CHECK (accepted_at IS NULL OR user_id IS NOT NULL);
CREATE UNIQUE INDEX challenge_invitees_by_username ON challenge_invitees (challenge_id, lower(username))
    WHERE username IS NOT NULL;
