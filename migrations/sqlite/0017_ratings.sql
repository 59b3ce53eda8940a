-- Tabula storage, version 17 (sqlite). Keep in step with migrations/postgres/0017_ratings.sql.
-- Glicko-2 ratings per game and per community (issue 39), at full precision, updated in the
-- transaction of a rated game's result: each person's rating, deviation and volatility, how
-- many rated games they played, and when they were last rated (the deviation grows with the
-- time away since).
CREATE TABLE ratings (
    community_id INTEGER NOT NULL REFERENCES communities (id),
    game         TEXT    NOT NULL,
    user_id      INTEGER NOT NULL REFERENCES users (id),
    rating       REAL    NOT NULL,
    deviation    REAL    NOT NULL,
    volatility   REAL    NOT NULL,
    games        INTEGER NOT NULL,
    rated_at     INTEGER NOT NULL,
    PRIMARY KEY (community_id, game, user_id)
);
-- What each rated game changed: each person's rating before and after it.
CREATE TABLE rating_changes (
    game_id   INTEGER NOT NULL REFERENCES games (id),
    user_id   INTEGER NOT NULL REFERENCES users (id),
    rating_before REAL    NOT NULL,
    rating_after  REAL    NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
-- Whether the game is rated (a challenge's rated=no makes it casual). Games with the computer,
-- aborted games and games that end before each side moved are never rated.
ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 1;
