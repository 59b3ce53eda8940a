-- Tabula storage, version 17 (postgres). Keep in step with migrations/sqlite/0017_ratings.sql.
-- Glicko-2 ratings per game and per community (issue 39), at full precision, updated in the
-- transaction of a rated game's result: each person's rating, deviation and volatility, how
-- many rated games they played, and when they were last rated (the deviation grows with the
-- time away since).
CREATE TABLE ratings (
    community_id BIGINT NOT NULL REFERENCES communities (id),
    game         TEXT    NOT NULL,
    user_id      BIGINT NOT NULL REFERENCES users (id),
    rating       DOUBLE PRECISION NOT NULL,
    deviation    DOUBLE PRECISION NOT NULL,
    volatility   DOUBLE PRECISION NOT NULL,
    games        BIGINT NOT NULL,
    rated_at     BIGINT NOT NULL,
    PRIMARY KEY (community_id, game, user_id)
);
-- What each rated game changed: each person's rating before and after it.
CREATE TABLE rating_changes (
    game_id   BIGINT NOT NULL REFERENCES games (id),
    user_id   BIGINT NOT NULL REFERENCES users (id),
    rating_before DOUBLE PRECISION NOT NULL,
    rating_after  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
-- Whether the game is rated (a challenge's rated=no makes it casual). Games with the computer,
-- aborted games and games that end before each side moved are never rated.
ALTER TABLE games ADD COLUMN rated BIGINT NOT NULL DEFAULT 1;
