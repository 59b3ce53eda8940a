//! A thread or topic per game (`/config threads=on`, issue 38). A game started in a channel of
//! a community that wants them is marked `wanted`; its first board, delivered through the
//! outbox, asks the adapter to open the thread (Discord) or forum topic (Telegram), and the
//! adapter reports it ([`Store::thread_opened`]): the game moves to the thread's chat, keeps its
//! channel as its home, and the channel's line about it is written to the outbox in the same
//! transaction. When the game ends, [`Store::claim_thread_endings`] tells the channel and
//! closes the thread, once, however many processes run. A platform that refuses the thread
//! leaves the game in the channel ([`Store::thread_refused`]).

use super::executor::{query, query_as, query_scalar};
use super::notify::announce_to;
use super::{ChatId, GameNo, Store, StoreError, Timestamp, db};

/// Where a game stands with its thread.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ThreadState {
    /// Its thread is to be opened with its first board.
    Wanted,
    /// Played in its thread; started in the channel `home`.
    Open {
        /// The channel it started in.
        home: ChatId,
    },
    /// It ended: the channel was told and the thread closed.
    Closed {
        /// The channel it started in.
        home: ChatId,
    },
    /// The platform refused the thread: played in the channel.
    Refused,
}

/// `$1` game wants a thread (if it has no thread state yet).
const WANT: &str =
    "UPDATE games SET thread_state = 'wanted' WHERE id = $1 AND thread_state IS NULL";

/// A game's thread state and home channel.
const STATE: &str = "SELECT thread_state, home_chat_id FROM games WHERE id = $1";

/// Game `$1` moves to thread chat `$2`, its home being the chat it was in.
const OPEN: &str = "\
UPDATE games SET home_chat_id = chat_id, chat_id = $2, thread_state = 'open'
WHERE id = $1 AND thread_state = 'wanted'";

/// Game `$1`'s thread was refused.
const REFUSE: &str =
    "UPDATE games SET thread_state = 'refused' WHERE id = $1 AND thread_state = 'wanted'";

/// The games whose thread is open though they ended, at most `$1`.
const ENDED: &str = "\
SELECT id FROM games WHERE thread_state = 'open' AND status <> 'active' ORDER BY id LIMIT $1";

/// Claims the ending of game `$1`'s thread: its thread chat, its home chat, their platform.
const CLOSE: &str = "\
UPDATE games SET thread_state = 'closed'
WHERE id = $1 AND thread_state = 'open' AND status <> 'active'
RETURNING chat_id, home_chat_id, (SELECT platform FROM chats WHERE chats.id = games.chat_id)";

impl Store {
    /// Marks `game` as wanting a thread of its own (it has none yet).
    ///
    /// # Errors
    /// A database failure.
    pub async fn want_thread(&self, game: GameNo) -> Result<(), StoreError> {
        query(WANT)
            .bind(game.0)
            .execute(self)
            .await
            .map_err(db("want_thread"))?;
        Ok(())
    }

    /// Where `game` stands with a thread of its own (`None`: it has none, and wants none).
    ///
    /// # Errors
    /// A database failure.
    pub async fn thread_state(&self, game: GameNo) -> Result<Option<ThreadState>, StoreError> {
        let row: Option<(Option<String>, Option<i64>)> = query_as(STATE)
            .bind(game.0)
            .fetch_optional(self)
            .await
            .map_err(db("thread_state"))?;
        Ok(row.and_then(|(state, home)| {
            let home = home.map(ChatId);
            match (state.as_deref()?, home) {
                ("wanted", _) => Some(ThreadState::Wanted),
                ("open", Some(home)) => Some(ThreadState::Open { home }),
                ("closed", Some(home)) => Some(ThreadState::Closed { home }),
                ("refused", _) => Some(ThreadState::Refused),
                _ => None,
            }
        }))
    }

    /// The platform opened `game`'s thread, the chat `thread` (recorded already, in the
    /// game's community): the game moves there, and the line its channel gets (payload
    /// `{"thread_start": game}`) is written to the outbox in the same transaction. Whether it
    /// moved (`false`: its thread was opened already, or refused).
    ///
    /// # Errors
    /// A database failure.
    pub async fn thread_opened(
        &self,
        game: GameNo,
        thread: ChatId,
        now: Timestamp,
    ) -> Result<bool, StoreError> {
        const OPERATION: &str = "thread_opened";
        let mut tx = self.begin_write(OPERATION).await?;
        let moved = query(OPEN)
            .bind(game.0)
            .bind(thread.0)
            .execute(&mut tx)
            .await
            .map_err(db(OPERATION))?
            .rows_affected()
            == 1;
        if moved {
            let (home, platform): (i64, String) = query_as(
                "SELECT g.home_chat_id, c.platform FROM games g \
                 JOIN chats c ON c.id = g.home_chat_id WHERE g.id = $1",
            )
            .bind(game.0)
            .fetch_one(&mut tx)
            .await
            .map_err(db(OPERATION))?;
            let payload = format!(r#"{{"thread_start":{}}}"#, game.0);
            announce_to(
                &mut tx,
                &platform,
                home,
                Some(game.0),
                &payload,
                now,
                OPERATION,
            )
            .await?;
        }
        tx.commit().await.map_err(db(OPERATION))?;
        Ok(moved)
    }

    /// The platform refused `game`'s thread: it is played in its channel. Whether this call
    /// marked it.
    ///
    /// # Errors
    /// A database failure.
    pub async fn thread_refused(&self, game: GameNo) -> Result<bool, StoreError> {
        let done = query(REFUSE)
            .bind(game.0)
            .execute(self)
            .await
            .map_err(db("thread_refused"))?;
        Ok(done.rows_affected() == 1)
    }

    /// Claims up to `limit` games that ended in their open threads and writes, for each, the
    /// line their channel gets (payload `{"thread_end": game}`) and the closing of their thread
    /// (`{"close_thread": game}`, in the thread's chat, after its last board) to the outbox, in
    /// one transaction each: once per game however many processes claim. Returns how many.
    ///
    /// # Errors
    /// A database failure.
    pub async fn claim_thread_endings(
        &self,
        now: Timestamp,
        limit: i64,
    ) -> Result<usize, StoreError> {
        const OPERATION: &str = "claim_thread_endings";
        let ended: Vec<i64> = query_scalar(ENDED)
            .bind(limit)
            .fetch_all(self)
            .await
            .map_err(db(OPERATION))?;
        let mut claimed = 0;
        for game in ended {
            let mut tx = self.begin_write(OPERATION).await?;
            let row: Option<(i64, i64, String)> = query_as(CLOSE)
                .bind(game)
                .fetch_optional(&mut tx)
                .await
                .map_err(db(OPERATION))?;
            let Some((thread, home, platform)) = row else {
                continue;
            };
            for (chat, payload) in [
                (home, format!(r#"{{"thread_end":{game}}}"#)),
                (thread, format!(r#"{{"close_thread":{game}}}"#)),
            ] {
                announce_to(
                    &mut tx,
                    &platform,
                    chat,
                    Some(game),
                    &payload,
                    now,
                    OPERATION,
                )
                .await?;
            }
            tx.commit().await.map_err(db(OPERATION))?;
            claimed += 1;
        }
        Ok(claimed)
    }
}
