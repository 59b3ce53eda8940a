-- Tabula storage, version 13 (postgres). Keep in step with migrations/sqlite/0013_notify.sql.
-- How each person is reminded that it is their move (issue 38), set by /notify: the reminder at
-- half time (on unless they turn it off) and a last call when a tenth of the time is left (off
-- unless they turn it on). No row: those defaults.
CREATE TABLE notify_settings (
    user_id    BIGINT  PRIMARY KEY REFERENCES users (id),
    halftime   BIGINT  NOT NULL CHECK (halftime IN (0, 1)),
    lastcall   BIGINT  NOT NULL CHECK (lastcall IN (0, 1)),
    updated_at BIGINT  NOT NULL
);
-- When the scheduler claimed the last call of the turn being played (NULL: not yet); it is
-- due when a tenth of the turn's time is left (deadline_at - move_millis / 10).
ALTER TABLE games ADD COLUMN lastcalled_at BIGINT;
CREATE INDEX games_lastcall ON games (deadline_at) WHERE status = 'active' AND lastcalled_at IS NULL;
