-- Tabula storage, version 15 (sqlite). Keep in step with migrations/postgres/0015_links.sql.
-- One person on both platforms (issue 38): /link on one platform gives a one-time code, valid
-- for ten minutes; /link <code> on the other joins the two identities. A link is two rows, one
-- each way; a person has at most one identity linked to theirs. /unlink deletes both rows.
CREATE TABLE user_links (
    user_id    INTEGER PRIMARY KEY REFERENCES users (id),
    partner_id INTEGER NOT NULL UNIQUE REFERENCES users (id),
    linked_at  INTEGER NOT NULL,
    CHECK (user_id <> partner_id)
);
-- The open codes: at most one per person (a new /link replaces it), with the private chat of
-- the person who asked for it (where their mirrored private pings go) and when it lapses.
CREATE TABLE link_codes (
    code            TEXT    PRIMARY KEY,
    user_id         INTEGER NOT NULL UNIQUE REFERENCES users (id),
    private_chat_id INTEGER REFERENCES chats (id),
    expires_at      INTEGER NOT NULL
);
