-- Tabula storage, version 7 (sqlite). Keep in step with migrations/postgres/0007_committed_dice.sql.
-- Committed dice (issue 19): a challenge to a game with chance holds a secret seed (64 hex
-- digits) from its making, whose SHA-256 it shows; the game started from it takes the seed, and
-- the platform's id of the action that started it when the bot cannot predict that id (NULL:
-- the salt says `none`). Rolls are derived from the seed; NULL seeds: rolls drawn as before.
ALTER TABLE challenges ADD COLUMN dice_seed TEXT;
ALTER TABLE games ADD COLUMN dice_seed TEXT;
ALTER TABLE games ADD COLUMN dice_nonce TEXT;
