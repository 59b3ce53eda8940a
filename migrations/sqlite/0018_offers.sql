-- Tabula storage, version 18 (sqlite). Keep in step with migrations/postgres/0018_offers.sql.
-- Whether a challenge's game is rated (issue 39): `rated=no` makes it casual. A game takes
-- its challenge's choice when it starts (games.rated, version 17).
ALTER TABLE challenges ADD COLUMN rated INTEGER NOT NULL DEFAULT 1;
-- A player's standing offer in a game (issue 39): a draw ('draw') or a takeback
-- ('takeback'), one of each kind per game. `seq` is the game's sequence number when it was
-- made: a draw offer lapses when its maker moves after it, a takeback when anyone does.
CREATE TABLE game_offers (
    game_id    INTEGER NOT NULL REFERENCES games (id),
    kind       TEXT    NOT NULL,
    user_id    INTEGER NOT NULL REFERENCES users (id),
    seq        INTEGER NOT NULL,
    offered_at INTEGER NOT NULL,
    PRIMARY KEY (game_id, kind)
);
-- The deviation after each rated game, for the rating-history chart (`/rating @person game`);
-- null for the games rated before this version.
ALTER TABLE rating_changes ADD COLUMN deviation_after REAL;
-- Who is on a game's rating leaderboard (issue 39), as moderators set it: a settled rating
-- and at least `leaderboard_games` rated games in the last `leaderboard_months` months.
ALTER TABLE community_settings ADD COLUMN leaderboard_games INTEGER NOT NULL DEFAULT 5;
ALTER TABLE community_settings ADD COLUMN leaderboard_months INTEGER NOT NULL DEFAULT 6;
-- A moderator's reset of a person's rating in one game (issue 39): the rating it had, kept.
CREATE TABLE rating_resets (
    community_id INTEGER NOT NULL REFERENCES communities (id),
    game         TEXT    NOT NULL,
    user_id      INTEGER NOT NULL REFERENCES users (id),
    reset_by     INTEGER NOT NULL REFERENCES users (id),
    rating       REAL NOT NULL,
    deviation    REAL NOT NULL,
    volatility   REAL NOT NULL,
    games        INTEGER NOT NULL,
    reset_at     INTEGER NOT NULL
);
-- Takebacks (issue 39): the actions a player took back with the opponent's consent, undone
-- from the log (which keeps `seq` of them), recorded here for /history and the record.
CREATE TABLE takebacks (
    game_id     INTEGER NOT NULL REFERENCES games (id),
    seq         INTEGER NOT NULL,
    undone      TEXT    NOT NULL,
    user_id     INTEGER NOT NULL REFERENCES users (id),
    accepted_by INTEGER NOT NULL REFERENCES users (id),
    taken_at    INTEGER NOT NULL
);
-- Round-robin seasons (issue 39): a moderator opens one in a chat for a two-player game;
-- people join until it begins ('open'); then every pair plays one game ('running'); it is
-- 'over' when its games are or its days have passed.
CREATE TABLE seasons (
    id           INTEGER PRIMARY KEY,
    chat_id      INTEGER NOT NULL REFERENCES chats (id),
    community_id INTEGER NOT NULL REFERENCES communities (id),
    game         TEXT    NOT NULL,
    size         INTEGER NOT NULL,
    days         INTEGER NOT NULL,
    move_millis  INTEGER NOT NULL,
    status       TEXT    NOT NULL,
    created_by   INTEGER NOT NULL REFERENCES users (id),
    created_at   INTEGER NOT NULL,
    started_at   INTEGER,
    ends_at      INTEGER
);
CREATE TABLE season_players (
    season_id INTEGER NOT NULL REFERENCES seasons (id),
    user_id   INTEGER NOT NULL REFERENCES users (id),
    joined_at INTEGER NOT NULL,
    PRIMARY KEY (season_id, user_id)
);
CREATE TABLE season_games (
    season_id INTEGER NOT NULL REFERENCES seasons (id),
    game_id   INTEGER NOT NULL PRIMARY KEY REFERENCES games (id)
);
