-- Tabula storage, version 14 (sqlite). Keep in step with migrations/postgres/0014_private_pings.sql.
-- Private pings (issue 38). Where a person is told it is their move (/notify chat, private,
-- both): 'chat' (the mention on the board, as always), 'private' (a private message instead)
-- or 'both'. A private ping goes to the person's private chat with the bot (private_chat_id:
-- on Telegram the private chat, on Discord the direct-message channel). When the platform
-- refuses it (the person never started the bot, or closed direct messages), unreachable_at
-- records it: the group is told how to turn pings on once, not again.
ALTER TABLE notify_settings ADD COLUMN place TEXT NOT NULL DEFAULT 'chat';
ALTER TABLE notify_settings ADD COLUMN private_chat_id INTEGER REFERENCES chats (id);
ALTER TABLE notify_settings ADD COLUMN unreachable_at INTEGER;
-- When the scheduler claimed the private ping of the turn being played (NULL: not yet); kept
-- while the same person moves again.
ALTER TABLE games ADD COLUMN pinged_at INTEGER;
-- Moderators may turn private pings off for their server or group (/config pings=off).
ALTER TABLE community_settings ADD COLUMN private_pings INTEGER NOT NULL DEFAULT 1;
-- When each person last ended their turn in each game (moved, and the turn passed to someone
-- else), by the service's clock: a person who did so within the last minute is looking at the
-- game, and the turn that comes back to them is not pinged privately.
CREATE TABLE turn_ends (
    game_id  INTEGER NOT NULL REFERENCES games (id),
    user_id  INTEGER NOT NULL REFERENCES users (id),
    ended_at INTEGER NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
-- Quiet hours (/notify quiet 22:00-08:00 Europe/Sofia): from quiet_start to quiet_end, in
-- minutes after midnight in the IANA time zone quiet_zone, nothing is sent privately; what
-- was due goes out when they end, in one message. NULL: none.
ALTER TABLE notify_settings ADD COLUMN quiet_start INTEGER;
ALTER TABLE notify_settings ADD COLUMN quiet_end INTEGER;
ALTER TABLE notify_settings ADD COLUMN quiet_zone TEXT;
-- The daily digest (/notify digest 08:00 Europe/Sofia; place 'digest'): once a day at
-- digest_minute (after midnight, in digest_zone), one private message lists the games waiting
-- for the person's move; digest_day is the local date of the last one claimed.
ALTER TABLE notify_settings ADD COLUMN digest_minute INTEGER;
ALTER TABLE notify_settings ADD COLUMN digest_zone TEXT;
ALTER TABLE notify_settings ADD COLUMN digest_day TEXT;
