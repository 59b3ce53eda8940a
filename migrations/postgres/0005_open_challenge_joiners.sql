-- Tabula storage, version 5 (PostgreSQL). Keep in step with migrations/sqlite/0005_open_challenge_joiners.sql.
-- Who joined an open challenge (one without invitees), in the order they joined. An open
-- challenge gathers the seats its game needs (Pachisi: up to four people); its game starts
-- when it is full or when the challenger starts it, with the challenger and these people.
CREATE TABLE challenge_joiners (
    challenge_id BIGINT NOT NULL REFERENCES challenges (id),
    user_id      BIGINT NOT NULL REFERENCES users (id),
    joined_at    BIGINT NOT NULL,
    PRIMARY KEY (challenge_id, user_id)
);
