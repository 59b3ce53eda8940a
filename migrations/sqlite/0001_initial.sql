-- Tabula storage, version 1 (SQLite). Keep in step with migrations/postgres/0001_initial.sql:
-- the same tables, columns, keys and checks. Times are UTC Unix milliseconds.

-- A person on one platform; the display name is refreshed on every request.
CREATE TABLE users (
    id               INTEGER PRIMARY KEY,
    platform         TEXT    NOT NULL,
    platform_user_id TEXT    NOT NULL,
    display_name     TEXT    NOT NULL,
    created_at       INTEGER NOT NULL,
    updated_at       INTEGER NOT NULL,
    UNIQUE (platform, platform_user_id)
);

-- A channel, group or conversation on one platform.
CREATE TABLE chats (
    id               INTEGER PRIMARY KEY,
    platform         TEXT    NOT NULL,
    platform_chat_id TEXT    NOT NULL,
    title            TEXT    NOT NULL,
    created_at       INTEGER NOT NULL,
    updated_at       INTEGER NOT NULL,
    UNIQUE (platform, platform_chat_id)
);

-- An invitation to play; it leaves 'pending' once (compare-and-set on status).
CREATE TABLE challenges (
    id            INTEGER PRIMARY KEY,
    chat_id       INTEGER NOT NULL REFERENCES chats (id),
    game          TEXT    NOT NULL,
    options       TEXT    NOT NULL,
    challenger_id INTEGER NOT NULL REFERENCES users (id),
    status        TEXT    NOT NULL
        CHECK (status IN ('pending', 'accepted', 'declined', 'cancelled', 'expired')),
    created_at    INTEGER NOT NULL,
    expires_at    INTEGER NOT NULL,
    settled_by    INTEGER REFERENCES users (id),
    settled_at    INTEGER
);
CREATE INDEX challenges_by_chat ON challenges (chat_id, status);
CREATE INDEX challenges_by_expiry ON challenges (expires_at) WHERE status = 'pending';

-- The invited users of a challenge, in order; none: an open challenge.
CREATE TABLE challenge_invitees (
    challenge_id INTEGER NOT NULL REFERENCES challenges (id),
    position     INTEGER NOT NULL CHECK (position >= 0),
    user_id      INTEGER NOT NULL REFERENCES users (id),
    PRIMARY KEY (challenge_id, position),
    UNIQUE (challenge_id, user_id)
);

-- A game being played or played out. seq is the number of actions in its log, the version
-- that appends compare-and-set; the snapshot is the position after action snapshot_seq.
CREATE TABLE games (
    id                INTEGER PRIMARY KEY,
    chat_id           INTEGER NOT NULL REFERENCES chats (id),
    challenge_id      INTEGER UNIQUE REFERENCES challenges (id),
    game              TEXT    NOT NULL,
    options           TEXT    NOT NULL,
    start_position    TEXT,
    status            TEXT    NOT NULL CHECK (status IN ('active', 'finished', 'aborted')),
    result            TEXT,
    seq               INTEGER NOT NULL CHECK (seq >= 0),
    snapshot_position TEXT,
    snapshot_seq      INTEGER,
    created_at        INTEGER NOT NULL,
    updated_at        INTEGER NOT NULL,
    CHECK ((snapshot_position IS NULL) = (snapshot_seq IS NULL)),
    CHECK (snapshot_seq IS NULL OR snapshot_seq BETWEEN 1 AND seq)
);
CREATE INDEX games_by_chat ON games (chat_id, status);

-- Who holds each seat; one user may hold several.
CREATE TABLE seats (
    game_id INTEGER NOT NULL REFERENCES games (id),
    seat    INTEGER NOT NULL CHECK (seat >= 0),
    user_id INTEGER NOT NULL REFERENCES users (id),
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX seats_by_user ON seats (user_id);

-- The append-only log: one row per action, in canonical notation; actor null for rolls.
CREATE TABLE actions (
    game_id    INTEGER NOT NULL REFERENCES games (id),
    seq        INTEGER NOT NULL CHECK (seq >= 1),
    action     TEXT    NOT NULL,
    actor_id   INTEGER REFERENCES users (id),
    created_at INTEGER NOT NULL,
    PRIMARY KEY (game_id, seq)
);

-- Requests already applied (an update id, an interaction id), so a re-delivery is applied once.
CREATE TABLE processed_requests (
    platform     TEXT    NOT NULL,
    request_key  TEXT    NOT NULL,
    game_id      INTEGER REFERENCES games (id),
    processed_at INTEGER NOT NULL,
    PRIMARY KEY (platform, request_key)
);
