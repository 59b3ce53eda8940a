-- Tabula storage, version 18 (postgres). Keep in step with migrations/sqlite/0018_offers.sql.
-- Whether a challenge's game is rated (issue 39): `rated=no` makes it casual. A game takes
-- its challenge's choice when it starts (games.rated, version 17).
ALTER TABLE challenges ADD COLUMN rated BIGINT NOT NULL DEFAULT 1;
-- A player's standing offer in a game (issue 39): a draw ('draw') or a takeback
-- ('takeback'), one of each kind per game. `seq` is the game's sequence number when it was
-- made: a draw offer lapses when its maker moves after it, a takeback when anyone does.
CREATE TABLE game_offers (
    game_id    BIGINT NOT NULL REFERENCES games (id),
    kind       TEXT    NOT NULL,
    user_id    BIGINT NOT NULL REFERENCES users (id),
    seq        BIGINT NOT NULL,
    offered_at BIGINT NOT NULL,
    PRIMARY KEY (game_id, kind)
);
-- The deviation after each rated game, for the rating-history chart (`/rating @person game`);
-- null for the games rated before this version.
ALTER TABLE rating_changes ADD COLUMN deviation_after DOUBLE PRECISION;
-- Who is on a game's rating leaderboard (issue 39), as moderators set it: a settled rating
-- and at least `leaderboard_games` rated games in the last `leaderboard_months` months.
ALTER TABLE community_settings ADD COLUMN leaderboard_games BIGINT NOT NULL DEFAULT 5;
ALTER TABLE community_settings ADD COLUMN leaderboard_months BIGINT NOT NULL DEFAULT 6;
-- A moderator's reset of a person's rating in one game (issue 39): the rating it had, kept.
CREATE TABLE rating_resets (
    community_id BIGINT NOT NULL REFERENCES communities (id),
    game         TEXT    NOT NULL,
    user_id      BIGINT NOT NULL REFERENCES users (id),
    reset_by     BIGINT NOT NULL REFERENCES users (id),
    rating       DOUBLE PRECISION NOT NULL,
    deviation    DOUBLE PRECISION NOT NULL,
    volatility   DOUBLE PRECISION NOT NULL,
    games        BIGINT NOT NULL,
    reset_at     BIGINT NOT NULL
);
-- Takebacks (issue 39): the actions a player took back with the opponent's consent, undone
-- from the log (which keeps `seq` of them), recorded here for /history and the record.
CREATE TABLE takebacks (
    game_id     BIGINT NOT NULL REFERENCES games (id),
    seq         BIGINT NOT NULL,
    undone      TEXT    NOT NULL,
    user_id     BIGINT NOT NULL REFERENCES users (id),
    accepted_by BIGINT NOT NULL REFERENCES users (id),
    taken_at    BIGINT NOT NULL
);
-- Round-robin seasons (issue 39): a moderator opens one in a chat for a two-player game;
-- people join until it begins ('open'); then every pair plays one game ('running'); it is
-- 'over' when its games are or its days have passed.
CREATE TABLE seasons (
    id           BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    chat_id      BIGINT NOT NULL REFERENCES chats (id),
    community_id BIGINT NOT NULL REFERENCES communities (id),
    game         TEXT    NOT NULL,
    size         BIGINT NOT NULL,
    days         BIGINT NOT NULL,
    move_millis  BIGINT NOT NULL,
    status       TEXT    NOT NULL,
    created_by   BIGINT NOT NULL REFERENCES users (id),
    created_at   BIGINT NOT NULL,
    started_at   BIGINT,
    ends_at      BIGINT
);
CREATE TABLE season_players (
    season_id BIGINT NOT NULL REFERENCES seasons (id),
    user_id   BIGINT NOT NULL REFERENCES users (id),
    joined_at BIGINT NOT NULL,
    PRIMARY KEY (season_id, user_id)
);
CREATE TABLE season_games (
    season_id BIGINT NOT NULL REFERENCES seasons (id),
    game_id   BIGINT NOT NULL PRIMARY KEY REFERENCES games (id)
);
