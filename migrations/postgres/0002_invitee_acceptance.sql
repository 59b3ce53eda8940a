-- Tabula storage, version 2 (PostgreSQL). Keep in step with migrations/sqlite/0002_invitee_acceptance.sql.
-- When each invited user accepted a challenge with several invitees (four-person Pachisi);
-- null: not yet. The game starts when no invitee's acceptance is missing.
ALTER TABLE challenge_invitees ADD COLUMN accepted_at BIGINT;
