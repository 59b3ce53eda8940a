-- Tabula storage, version 16 (postgres). Keep in step with migrations/sqlite/0016_threads.sql.
-- A thread or topic per game (issue 38), when moderators turn it on (/config threads=on): each
-- new game started in the channel itself (not in a thread) gets a thread (Discord) or forum
-- topic (Telegram) of its own, where its boards go; the channel gets one line when it starts
-- and one when it ends.
ALTER TABLE community_settings ADD COLUMN threads BIGINT NOT NULL DEFAULT 0;
-- NULL: the game is played where it started. 'wanted': its thread is to be opened with its
-- first board. 'open': played in its thread (chat_id), started in home_chat_id. 'closed': it
-- ended, the channel was told and the thread closed. 'refused': the platform refused the
-- thread (a missing permission), and the game is played in the channel.
ALTER TABLE games ADD COLUMN thread_state TEXT
    CHECK (thread_state IN ('wanted', 'open', 'closed', 'refused'));
ALTER TABLE games ADD COLUMN home_chat_id BIGINT REFERENCES chats (id);
CREATE INDEX games_thread_open ON games (id) WHERE thread_state = 'open';
