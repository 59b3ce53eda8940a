-- Tabula storage, version 8 (sqlite). Keep in step with migrations/postgres/0008_languages.sql.
-- Languages (issue 17): a person's own choice (/language ru) and a community's default
-- (/config language=bg), as locale codes of the message catalogue. No row, NULL: no choice
-- (the platform's locale for the person, then English, decide).
CREATE TABLE user_languages (
    user_id    INTEGER PRIMARY KEY REFERENCES users (id),
    language   TEXT    NOT NULL,
    updated_at INTEGER NOT NULL
);
ALTER TABLE community_settings ADD COLUMN language TEXT;
