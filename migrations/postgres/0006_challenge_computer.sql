-- Tabula storage, version 6 (PostgreSQL). Keep in step with migrations/sqlite/0006_challenge_computer.sql.
-- The computer's level when a challenge fills its empty seats with the computer (Pachisi:
-- `/play pachisi @bob computer`); NULL when only people play.
ALTER TABLE challenges ADD COLUMN computer_level BIGINT;
