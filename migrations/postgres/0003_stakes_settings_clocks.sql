-- Tabula storage, version 3 (PostgreSQL). Keep in step with
-- migrations/sqlite/0003_stakes_settings_clocks.sql. Communities with their settings, wallets and
-- the ledger, stakes and clocks of games, vacations.

-- A Discord server or a Telegram group: where settings and wallets live. A chat outside any
-- server (a Telegram group, a direct chat, tabula local) is its own community, with the chat's
-- platform id.
CREATE TABLE communities (
    id                    BIGINT  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    platform              TEXT    NOT NULL,
    platform_community_id TEXT    NOT NULL,
    title                 TEXT    NOT NULL,
    created_at            BIGINT  NOT NULL,
    updated_at            BIGINT  NOT NULL,
    UNIQUE (platform, platform_community_id)
);

-- Chats seen before version 3 stand alone.
INSERT INTO communities (platform, platform_community_id, title, created_at, updated_at)
SELECT platform, platform_chat_id, title, created_at, updated_at FROM chats;
ALTER TABLE chats ADD COLUMN community_id BIGINT REFERENCES communities (id);
UPDATE chats SET community_id = (
    SELECT c.id FROM communities c
    WHERE c.platform = chats.platform AND c.platform_community_id = chats.platform_chat_id);

-- What the moderators chose; no row: the defaults. Times in milliseconds; flags 0 or 1.
CREATE TABLE community_settings (
    community_id        BIGINT  PRIMARY KEY REFERENCES communities (id),
    enabled_games       TEXT    NOT NULL,
    default_stake       BIGINT  NOT NULL CHECK (default_stake >= 0),
    max_stake           BIGINT  NOT NULL CHECK (max_stake >= default_stake),
    starting_grant      BIGINT  NOT NULL CHECK (starting_grant >= 0),
    default_move_millis BIGINT  NOT NULL CHECK (default_move_millis > 0),
    max_move_millis     BIGINT  NOT NULL CHECK (max_move_millis >= default_move_millis),
    reminders           BIGINT  NOT NULL CHECK (reminders IN (0, 1)),
    staked_games        TEXT    NOT NULL CHECK (staked_games IN ('everyone', 'moderators')),
    vacation_days       BIGINT  NOT NULL CHECK (vacation_days >= 0),
    updated_by          BIGINT  REFERENCES users (id),
    updated_at          BIGINT  NOT NULL
);

-- Stakes and clocks of games. The clock runs for turn_user_id: reminded once at remind_at,
-- out of time at deadline_at (both null when no clock runs). settled_at: when the pot was paid
-- out or refunded, which happens once.
ALTER TABLE games ADD COLUMN community_id BIGINT REFERENCES communities (id);
UPDATE games SET community_id = (SELECT c.community_id FROM chats c WHERE c.id = games.chat_id);
ALTER TABLE games ADD COLUMN stake BIGINT NOT NULL DEFAULT 0 CHECK (stake >= 0);
ALTER TABLE games ADD COLUMN move_millis BIGINT NOT NULL DEFAULT 259200000 CHECK (move_millis > 0);
ALTER TABLE games ADD COLUMN turn_user_id BIGINT REFERENCES users (id);
ALTER TABLE games ADD COLUMN turn_started_at BIGINT;
ALTER TABLE games ADD COLUMN remind_at BIGINT;
ALTER TABLE games ADD COLUMN deadline_at BIGINT;
ALTER TABLE games ADD COLUMN reminded_at BIGINT;
ALTER TABLE games ADD COLUMN timeout_announced_at BIGINT;
ALTER TABLE games ADD COLUMN settled_at BIGINT;
CREATE INDEX games_due_reminder ON games (remind_at) WHERE status = 'active' AND reminded_at IS NULL;
CREATE INDEX games_due_timeout ON games (deadline_at)
    WHERE status = 'active' AND timeout_announced_at IS NULL;
CREATE INDEX games_by_turn_user ON games (turn_user_id) WHERE status = 'active';

ALTER TABLE challenges ADD COLUMN stake BIGINT NOT NULL DEFAULT 0 CHECK (stake >= 0);
ALTER TABLE challenges ADD COLUMN move_millis BIGINT NOT NULL DEFAULT 259200000
    CHECK (move_millis > 0);

-- Where money is: a community's bank (the source of grants; its balance is minus all the money
-- given out), a person's wallet in a community, a game's pot. A balance changes only together
-- with a ledger row, in one transaction.
CREATE TABLE accounts (
    id           BIGINT  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    community_id BIGINT  NOT NULL REFERENCES communities (id),
    kind         TEXT    NOT NULL CHECK (kind IN ('bank', 'wallet', 'pot')),
    user_id      BIGINT  REFERENCES users (id),
    game_id      BIGINT  REFERENCES games (id),
    balance      BIGINT  NOT NULL,
    created_at   BIGINT  NOT NULL,
    CHECK ((kind = 'wallet') = (user_id IS NOT NULL)),
    CHECK ((kind = 'pot') = (game_id IS NOT NULL))
);
CREATE UNIQUE INDEX accounts_one_bank ON accounts (community_id) WHERE kind = 'bank';
CREATE UNIQUE INDEX accounts_one_wallet ON accounts (community_id, user_id) WHERE kind = 'wallet';
CREATE UNIQUE INDEX accounts_one_pot ON accounts (game_id) WHERE kind = 'pot';

-- The double-entry ledger: every movement of money, from one account to another. Never updated.
CREATE TABLE ledger (
    id           BIGINT  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    community_id BIGINT  NOT NULL REFERENCES communities (id),
    kind         TEXT    NOT NULL
        CHECK (kind IN ('grant', 'stake', 'fine', 'payout', 'refund', 'adjustment')),
    from_account BIGINT  NOT NULL REFERENCES accounts (id),
    to_account   BIGINT  NOT NULL REFERENCES accounts (id),
    amount       BIGINT  NOT NULL CHECK (amount > 0),
    game_id      BIGINT  REFERENCES games (id),
    actor_id     BIGINT  REFERENCES users (id),
    reason       TEXT    NOT NULL,
    created_at   BIGINT  NOT NULL,
    CHECK (from_account <> to_account)
);
CREATE INDEX ledger_by_community ON ledger (community_id, id);
CREATE INDEX ledger_by_game ON ledger (game_id) WHERE game_id IS NOT NULL;

-- Days off: while one runs, the person's clocks stand still.
CREATE TABLE vacations (
    id           BIGINT  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    community_id BIGINT  NOT NULL REFERENCES communities (id),
    user_id      BIGINT  NOT NULL REFERENCES users (id),
    starts_at    BIGINT  NOT NULL,
    ends_at      BIGINT  NOT NULL CHECK (ends_at > starts_at),
    days         BIGINT  NOT NULL CHECK (days > 0),
    created_at   BIGINT  NOT NULL
);
CREATE INDEX vacations_by_user ON vacations (community_id, user_id, ends_at);
