-- Tabula storage, version 19 (postgres). Keep in step with migrations/sqlite/0019_pages.sql.
-- A web page per game (issue 41): the page's address carries an unguessable token, kept with
-- the game; it is looked up by its SHA-256 (hex), so that a lookup's time says nothing of the
-- tokens that exist. Moderators turn pages off for their community (/config pages=off).
ALTER TABLE games ADD COLUMN page_token TEXT;
ALTER TABLE games ADD COLUMN page_token_hash TEXT;
CREATE UNIQUE INDEX games_by_page_token_hash ON games (page_token_hash)
    WHERE page_token_hash IS NOT NULL;
ALTER TABLE community_settings ADD COLUMN pages BIGINT NOT NULL DEFAULT 1;
