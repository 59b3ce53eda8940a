-- Tabula storage, version 9 (sqlite). Keep in step with migrations/postgres/0009_board_messages.sql.
-- Board bookkeeping in the database (issue 35): every message of a game that carried buttons
-- (its boards, and a pressed message such as the challenge an Accept came from), and whether
-- it still shows them. When a board is posted, the store decides in one transaction which of
-- them lose their buttons (all but the newest board), so that each is stripped once, whichever
-- process posted it. `ordinal` is the message id as a number where it is one (both platforms'
-- ids grow with time); `seq` how many actions a board shows (NULL: not a board).
CREATE TABLE board_messages (
    game_id    INTEGER NOT NULL REFERENCES games (id),
    message_id TEXT    NOT NULL,
    ordinal    INTEGER,
    seq        INTEGER,
    buttons    INTEGER NOT NULL,
    posted_at  INTEGER NOT NULL,
    PRIMARY KEY (game_id, message_id)
);
-- The boards recorded until now, one per game in `games.board_message_id` as `~812@14`
-- (`~`: without buttons; `@14`: showing 14 actions), which is no longer written.
INSERT INTO board_messages (game_id, message_id, ordinal, seq, buttons, posted_at)
SELECT id, bare,
       CASE WHEN bare <> '' AND bare NOT GLOB '*[^0-9]*' AND length(bare) <= 18
            THEN CAST(bare AS INTEGER) END,
       seq, buttons, created_at
FROM (
    SELECT id, created_at,
           CASE WHEN instr(board_message_id, '@') > 0
                THEN substr(ltrim(board_message_id, '~'), 1, instr(ltrim(board_message_id, '~'), '@') - 1)
                ELSE ltrim(board_message_id, '~') END AS bare,
           CASE WHEN instr(board_message_id, '@') > 0
                THEN CAST(substr(board_message_id, instr(board_message_id, '@') + 1) AS INTEGER) END AS seq,
           CASE WHEN board_message_id LIKE '~%' THEN 0 ELSE 1 END AS buttons
    FROM games WHERE board_message_id IS NOT NULL);
ALTER TABLE games DROP COLUMN board_message_id;
-- Callback queries (Telegram's button presses) answered, so that none is answered twice, not
-- even when a process dies after answering one and the platform delivers the press again.
CREATE TABLE answered_callbacks (
    platform    TEXT    NOT NULL,
    callback_id TEXT    NOT NULL,
    answered_at INTEGER NOT NULL,
    PRIMARY KEY (platform, callback_id)
);
