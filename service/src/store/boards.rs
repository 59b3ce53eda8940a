//! Board bookkeeping: which messages of a game carry buttons, and which lose them when a board
//! is posted, decided here in one transaction, so that each old board is stripped once however
//! many processes share the database and whichever of them posted it. Also the callback
//! queries already answered, so that none is answered twice.
//!
//! A game's messages with buttons are its boards (each showing `seq` actions) and the
//! messages pressed for it that are not boards (a challenge's Accept; a reminder's button).
//! When a board is posted, the newest board of the game (most actions shown, then the greatest
//! message id: both platforms number messages in the order they were sent) keeps its buttons
//! and every other message of the game still showing them is handed back, once, as a message
//! whose buttons the adapter takes off. So that a process dying before it takes them off
//! cannot leave them on, the same transaction writes an announcement of the strip (an outbox
//! row, kind `announce`, payload `{"strip": <game>, "messages": [ids]}`) held by the posting
//! process: it marks the row sent once the buttons are off; if it dies first, a dispatcher
//! takes them off when the hold ends (issue 36).

use super::executor::{Tx, query, query_as};
use super::{
    ChatId, GameNo, NewOutbox, OutboxId, OutboxKind, Platform, Store, StoreError, Timestamp, db,
    outbox,
};
use crate::values::DAY_MILLIS;

/// Locks game `$1`'s row until the transaction ends (PostgreSQL; SQLite's one writer
/// serializes the transactions anyway), so that two boards of one game are recorded one
/// after the other and each sees the other.
pub(super) const LOCK_GAME_POSTGRES: &str = "SELECT id FROM games WHERE id = $1 FOR UPDATE";

/// A message of game `$1` (`$2` its id, `$3` as a number, `$4` the actions it shows or null,
/// `$5` 1 if it shows buttons, `$6` now); kept as it is when already recorded.
const INSERT_MESSAGE: &str = "\
INSERT INTO board_messages (game_id, message_id, ordinal, seq, buttons, posted_at)
VALUES ($1, $2, $3, $4, $5, $6)
ON CONFLICT (game_id, message_id) DO NOTHING";

/// The newest board of game `$1`: the most actions shown, then the latest message.
const NEWEST_BOARD: &str = "\
SELECT message_id FROM board_messages WHERE game_id = $1 AND seq IS NOT NULL
ORDER BY seq DESC, COALESCE(ordinal, -1) DESC, posted_at DESC, message_id DESC LIMIT 1";

/// The boards of game `$1`: each message and how many actions it shows, newest first (in
/// [`NEWEST_BOARD`]'s order).
const BOARD_SEQS: &str = "\
SELECT message_id, seq FROM board_messages WHERE game_id = $1 AND seq IS NOT NULL
ORDER BY seq DESC, COALESCE(ordinal, -1) DESC, posted_at DESC, message_id DESC";

/// How many actions the newest board of game `$1` shows.
const NEWEST_SEQ: &str = "SELECT MAX(seq) FROM board_messages WHERE game_id = $1";

/// Takes the buttons off every message of game `$1` but `$2` in the records: the messages
/// whose buttons the adapter takes off.
const STRIP_ALL_BUT: &str = "\
UPDATE board_messages SET buttons = 0
WHERE game_id = $1 AND buttons = 1 AND message_id <> $2
RETURNING message_id";

/// The chat of game `$1`, and its platform.
const GAME_CHAT: &str = "\
SELECT g.chat_id, c.platform FROM games g JOIN chats c ON c.id = g.chat_id WHERE g.id = $1";

/// Message `$2` of game `$1` shows its buttons again (taking them off failed).
const RESTORE_BUTTONS: &str =
    "UPDATE board_messages SET buttons = 1 WHERE game_id = $1 AND message_id = $2";

/// The messages of game `$1` that show buttons, oldest first.
const WITH_BUTTONS: &str = "\
SELECT message_id FROM board_messages WHERE game_id = $1 AND buttons = 1
ORDER BY COALESCE(ordinal, -1), posted_at, message_id";

/// The newest board of game `$1` (in [`NEWEST_BOARD`]'s order), how many actions it shows, and
/// whether it shows its buttons.
const NEWEST_BOARD_BUTTONS: &str = "\
SELECT message_id, seq, buttons FROM board_messages WHERE game_id = $1 AND seq IS NOT NULL
ORDER BY seq DESC, COALESCE(ordinal, -1) DESC, posted_at DESC, message_id DESC LIMIT 1";

/// The games of community `$1` with a board that shows its buttons, newest game first, at most
/// [`RELINKED_GAMES`], with their chat and its platform: the boards whose page link comes or
/// goes with the community's pages.
const GAMES_WITH_LIVE_BOARDS: &str = "\
SELECT g.id, g.chat_id, c.platform FROM games g JOIN chats c ON c.id = g.chat_id
WHERE g.community_id = $1 AND EXISTS (
    SELECT 1 FROM board_messages b WHERE b.game_id = g.id AND b.buttons = 1 AND b.seq IS NOT NULL)
ORDER BY g.id DESC LIMIT $2";

/// How many games' boards at most are edited when a community's pages are turned on or off:
/// the newest; older boards keep the link (their page answers 404 while pages are off).
pub const RELINKED_GAMES: i64 = 200;

/// Callback `$2` of platform `$1` answered at `$3`, unless it was.
const ANSWER_CALLBACK: &str = "\
INSERT INTO answered_callbacks (platform, callback_id, answered_at) VALUES ($1, $2, $3)
ON CONFLICT (platform, callback_id) DO NOTHING";

/// Forgets the callbacks answered before `$1`: a platform delivers an update again within a
/// day at most.
const FORGET_CALLBACKS: &str = "DELETE FROM answered_callbacks WHERE answered_at < $1";

/// A board an adapter posted, to record ([`Store::board_posted`]).
#[derive(Debug, Clone, Copy)]
pub struct PostedBoard<'a> {
    /// Its game.
    pub game: GameNo,
    /// The platform's id of the message.
    pub message_id: &'a str,
    /// Whether it was posted with buttons.
    pub buttons: bool,
    /// How many actions of the game it shows.
    pub seq: u32,
    /// The message whose button was pressed to make it, if any: it showed buttons of the game
    /// (a challenge's Accept, an older board, a reminder), which it loses unless it is the
    /// newest board.
    pub pressed: Option<&'a str>,
    /// The outbox row announcing it, held by `owner`, which this post delivered: marked sent.
    pub announcement: Option<(OutboxId, &'a str)>,
    /// Who holds the announcement of the strip it causes, and until when (see the module
    /// doc); `None`: none is written (a process without a dispatcher).
    pub strip_hold: Option<(&'a str, Timestamp)>,
    /// Now.
    pub now: Timestamp,
}

/// What [`Store::board_posted`] decided.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BoardPosted {
    /// The messages whose buttons the adapter takes off now, oldest first.
    pub stripped: Vec<String>,
    /// The held announcement of that strip, to mark sent once done
    /// ([`Store::announcement_posted`] without a message), if one was written.
    pub strip_row: Option<OutboxId>,
}

/// The message id as a number, where it is one (for ordering).
fn ordinal(message_id: &str) -> Option<i64> {
    message_id.parse::<i64>().ok()
}

/// Records a message of a game in the transaction (kept as it is if known).
async fn insert_message(
    tx: &mut Tx,
    game: GameNo,
    message_id: &str,
    seq: Option<u32>,
    buttons: bool,
    now: Timestamp,
    operation: &'static str,
) -> Result<(), StoreError> {
    query(INSERT_MESSAGE)
        .bind(game.0)
        .bind(message_id)
        .bind(ordinal(message_id))
        .bind(seq.map(i64::from))
        .bind(i64::from(buttons))
        .bind(now.0)
        .execute(&mut *tx)
        .await
        .map_err(db(operation))?;
    Ok(())
}

impl Store {
    /// Records a board an adapter posted (and the pressed message it answers), and returns
    /// the messages of its game whose buttons the adapter takes off now: every one still
    /// showing them but the newest board (which is this one unless a board showing more was
    /// posted first; then this one is returned if it has buttons). Each message is returned
    /// once, by one call, however many run at once. A held announcement it delivered is marked
    /// sent in the same transaction.
    ///
    /// # Errors
    /// A database failure.
    pub async fn board_posted(&self, posted: &PostedBoard<'_>) -> Result<BoardPosted, StoreError> {
        const OPERATION: &str = "board_posted";
        let mut tx = self.begin_write(OPERATION).await?;
        if tx.is_postgres() {
            query(LOCK_GAME_POSTGRES)
                .bind(posted.game.0)
                .execute(&mut tx)
                .await
                .map_err(db(OPERATION))?;
        }
        if let Some(pressed) = posted
            .pressed
            .filter(|pressed| *pressed != posted.message_id)
        {
            insert_message(
                &mut tx,
                posted.game,
                pressed,
                None,
                true,
                posted.now,
                OPERATION,
            )
            .await?;
        }
        insert_message(
            &mut tx,
            posted.game,
            posted.message_id,
            Some(posted.seq),
            posted.buttons,
            posted.now,
            OPERATION,
        )
        .await?;
        let newest = query_as::<(String,)>(NEWEST_BOARD)
            .bind(posted.game.0)
            .fetch_one(&mut tx)
            .await
            .map_err(db(OPERATION))?
            .0;
        let stripped = query_as::<(String,)>(STRIP_ALL_BUT)
            .bind(posted.game.0)
            .bind(newest)
            .fetch_all(&mut tx)
            .await
            .map_err(db(OPERATION))?;
        if let Some((row, owner)) = posted.announcement {
            outbox::mark_sent(
                &mut tx,
                row,
                owner,
                Some(posted.message_id),
                posted.now,
                OPERATION,
            )
            .await?;
        }
        let mut stripped: Vec<String> = stripped.into_iter().map(|(id,)| id).collect();
        stripped.sort_by_key(|id| (ordinal(id), id.clone()));
        let mut strip_row = None;
        if let (false, Some(held)) = (stripped.is_empty(), posted.strip_hold) {
            let (chat, platform): (i64, String) = query_as(GAME_CHAT)
                .bind(posted.game.0)
                .fetch_one(&mut tx)
                .await
                .map_err(db(OPERATION))?;
            let payload = serde_json::json!({"strip": posted.game.0, "messages": stripped});
            strip_row = Some(
                outbox::insert_outbox(
                    &mut tx,
                    &NewOutbox {
                        platform: Platform::parse(&platform)?,
                        chat: ChatId(chat),
                        game: Some(posted.game),
                        kind: OutboxKind::Announce,
                        payload: &payload.to_string(),
                        now: posted.now,
                        held: Some(held),
                    },
                    OPERATION,
                )
                .await?,
            );
        }
        tx.commit().await.map_err(db(OPERATION))?;
        Ok(BoardPosted {
            stripped,
            strip_row,
        })
    }

    /// Records message `message_id`, a question about game `game` that shows buttons (confirm
    /// a resignation, an abort), with the game's messages: the game's next board takes its
    /// buttons off ([`Store::board_posted`]).
    ///
    /// # Errors
    /// A database failure.
    pub async fn question_posted(
        &self,
        game: GameNo,
        message_id: &str,
        now: Timestamp,
    ) -> Result<(), StoreError> {
        const OPERATION: &str = "question_posted";
        let mut tx = self.begin_write(OPERATION).await?;
        insert_message(&mut tx, game, message_id, None, true, now, OPERATION).await?;
        tx.commit().await.map_err(db(OPERATION))
    }

    /// A message handed back by [`Store::board_posted`] whose buttons could not be taken off
    /// (a passing failure): it shows them again in the records, so that the game's next board
    /// hands it back again.
    ///
    /// # Errors
    /// A database failure.
    pub async fn restore_buttons(&self, game: GameNo, message_id: &str) -> Result<(), StoreError> {
        query(RESTORE_BUTTONS)
            .bind(game.0)
            .bind(message_id)
            .execute(self)
            .await
            .map_err(db("restore_buttons"))?;
        Ok(())
    }

    /// The newest board of a game (the one that keeps its buttons) and how many actions it
    /// shows, when it shows its buttons.
    ///
    /// # Errors
    /// A database failure.
    pub async fn live_board(&self, game: GameNo) -> Result<Option<(String, u32)>, StoreError> {
        let row = query_as::<(String, i64, i64)>(NEWEST_BOARD_BUTTONS)
            .bind(game.0)
            .fetch_optional(self)
            .await
            .map_err(db("live_board"))?;
        Ok(row.and_then(|(message, seq, buttons)| {
            (buttons == 1).then(|| (message, u32::try_from(seq).unwrap_or(0)))
        }))
    }

    /// How many actions the newest board posted of a game shows, if one was.
    ///
    /// # Errors
    /// A database failure.
    pub async fn newest_board_seq(&self, game: GameNo) -> Result<Option<i64>, StoreError> {
        let (seq,) = query_as::<(Option<i64>,)>(NEWEST_SEQ)
            .bind(game.0)
            .fetch_one(self)
            .await
            .map_err(db("newest_board_seq"))?;
        Ok(seq)
    }

    /// The boards of a game as recorded: each message's id and how many actions it shows,
    /// newest first (the board that keeps its buttons when one is posted).
    ///
    /// # Errors
    /// A database failure.
    pub async fn board_seqs(&self, game: GameNo) -> Result<Vec<(String, u32)>, StoreError> {
        let rows = query_as::<(String, i64)>(BOARD_SEQS)
            .bind(game.0)
            .fetch_all(self)
            .await
            .map_err(db("board_seqs"))?;
        Ok(rows
            .into_iter()
            .map(|(id, seq)| (id, u32::try_from(seq).unwrap_or(0)))
            .collect())
    }

    /// The messages of a game that show buttons, as recorded, oldest first.
    ///
    /// # Errors
    /// A database failure.
    pub async fn messages_with_buttons(&self, game: GameNo) -> Result<Vec<String>, StoreError> {
        let rows = query_as::<(String,)>(WITH_BUTTONS)
            .bind(game.0)
            .fetch_all(self)
            .await
            .map_err(db("messages_with_buttons"))?;
        Ok(rows.into_iter().map(|(id,)| id).collect())
    }

    /// Claims the answer of a callback query (a button press): true the first time for a
    /// callback, false ever after (it was answered, maybe by a process that died since), so
    /// that none is answered twice. Callbacks claimed over a day ago are forgotten.
    ///
    /// # Errors
    /// A database failure.
    pub async fn claim_callback(
        &self,
        platform: Platform,
        callback_id: &str,
        now: Timestamp,
    ) -> Result<bool, StoreError> {
        const OPERATION: &str = "claim_callback";
        let mut tx = self.begin_write(OPERATION).await?;
        query(FORGET_CALLBACKS)
            .bind(now.0 - DAY_MILLIS)
            .execute(&mut tx)
            .await
            .map_err(db(OPERATION))?;
        let done = query(ANSWER_CALLBACK)
            .bind(platform.as_str())
            .bind(callback_id)
            .bind(now.0)
            .execute(&mut tx)
            .await
            .map_err(db(OPERATION))?;
        tx.commit().await.map_err(db(OPERATION))?;
        Ok(done.rows_affected() == 1)
    }
}

/// Writes in the transaction, for each game of `community` whose newest board shows its
/// buttons (the newest [`RELINKED_GAMES`]), an announcement (kind `announce`, payload
/// `{"relink": <game>}`) that edits that board's buttons as they are when it is delivered:
/// its page link comes or goes with the community's pages (issue 41).
pub(super) async fn relink_boards(
    tx: &mut Tx,
    community: super::CommunityId,
    now: Timestamp,
    operation: &'static str,
) -> Result<usize, StoreError> {
    let games = query_as::<(i64, i64, String)>(GAMES_WITH_LIVE_BOARDS)
        .bind(community.0)
        .bind(RELINKED_GAMES)
        .fetch_all(&mut *tx)
        .await
        .map_err(db(operation))?;
    for (game, chat, platform) in &games {
        let payload = serde_json::json!({ "relink": game }).to_string();
        let platform = Platform::parse(platform)?;
        outbox::insert_outbox(
            tx,
            &NewOutbox {
                platform,
                chat: ChatId(*chat),
                game: Some(GameNo(*game)),
                kind: OutboxKind::Announce,
                payload: &payload,
                now,
                held: None,
            },
            operation,
        )
        .await?;
    }
    Ok(games.len())
}
