//! The [`Store`]'s operations on games: creating them, loading them with their action log,
//! appending actions by compare-and-set, ending them, and the message id of their latest board.

use crate::store::*;

impl Store {
    /// Creates an active game with its seats, and accepts its challenge, in one transaction.
    ///
    /// # Errors
    /// With [`NewGame::accepting`]: the conflicts of [`Store::settle_challenge`] (and then
    /// nothing is written). A database failure.
    pub async fn create_game(&self, game: &NewGame<'_>) -> Result<GameRecord, StoreError> {
        dispatch!(self, store => store.create_game(game, None, None).await.map(|(game, _)| game))
    }

    /// [`Store::create_game`], recording `request` in the same transaction, so that a
    /// re-delivered acceptance starts no second game.
    ///
    /// # Errors
    /// [`Conflict::Duplicate`] (checked first), the conflicts of [`Store::create_game`]; then
    /// nothing is written. A database failure.
    pub async fn create_game_once(
        &self,
        game: &NewGame<'_>,
        request: &RequestKey,
    ) -> Result<GameRecord, StoreError> {
        dispatch!(self, store => store.create_game(game, Some(request), None).await.map(|(game, _)| game))
    }

    /// [`Store::create_game_once`], writing `announce` in the same transaction: the game's
    /// record, and the outbox row written.
    ///
    /// # Errors
    /// Those of [`Store::create_game_once`]; then nothing is written.
    pub async fn create_game_announced(
        &self,
        game: &NewGame<'_>,
        request: &RequestKey,
        announce: &Announce<'_>,
    ) -> Result<(GameRecord, OutboxId), StoreError> {
        let (record, announced) =
            dispatch!(self, store => store.create_game(game, Some(request), Some(announce)).await)?;
        Ok((
            record,
            announced.ok_or_else(|| StoreError::Corrupt("no announcement".into()))?,
        ))
    }

    /// A game with its seats, without its actions.
    ///
    /// # Errors
    /// A database failure.
    pub async fn game(&self, id: GameNo) -> Result<Option<GameRecord>, StoreError> {
        dispatch!(self, store => store.game(id).await)
    }

    /// A game with its seats and actions (all, or those after the snapshot).
    ///
    /// # Errors
    /// A database failure.
    pub async fn load_game(
        &self,
        id: GameNo,
        history: History,
    ) -> Result<Option<LoadedGame>, StoreError> {
        dispatch!(self, store => store.load_game(id, history).await)
    }

    /// The active games of a chat, oldest first.
    ///
    /// # Errors
    /// A database failure.
    pub async fn active_games_in_chat(&self, chat: ChatId) -> Result<Vec<GameRecord>, StoreError> {
        dispatch!(self, store => store.active_games_in_chat(chat).await)
    }

    /// The newest game of `chat` in which `user` holds a seat, whatever its status (so that a
    /// finished game can still be shown).
    ///
    /// # Errors
    /// A database failure.
    pub async fn latest_game_of_user_in_chat(
        &self,
        chat: ChatId,
        user: UserId,
    ) -> Result<Option<GameNo>, StoreError> {
        dispatch!(self, store => store.latest_game_of_user_in_chat(chat, user).await)
    }

    /// The active games in which `user` holds a seat (in one chat, or anywhere), oldest first.
    ///
    /// # Errors
    /// A database failure.
    pub async fn active_games_of_user(
        &self,
        user: UserId,
        chat: Option<ChatId>,
    ) -> Result<Vec<GameRecord>, StoreError> {
        dispatch!(self, store => store.active_games_of_user(user, chat).await)
    }

    /// Appends actions to an active game's log, atomically, only if its `seq` is still
    /// `append.expected_seq` and the request key is new; updates `seq`, the status and result
    /// (with [`Append::finish`]) and the snapshot in the same transaction. Returns the new `seq`.
    ///
    /// # Errors
    /// [`Conflict::Duplicate`] (checked first), [`Conflict::NoSuchGame`],
    /// [`Conflict::GameOver`], [`Conflict::StaleSeq`]; then nothing is written. A database
    /// failure.
    pub async fn append_actions(
        &self,
        game: GameNo,
        append: &Append<'_>,
    ) -> Result<Appended, StoreError> {
        dispatch!(self, store => store.append_actions(game, append, None).await)
    }

    /// [`Store::append_actions`], writing `announce` in the same transaction ([`Announce`]):
    /// the move is announced even if the process dies right after ([`Appended::announced`]).
    ///
    /// # Errors
    /// Those of [`Store::append_actions`]; then nothing is written.
    pub async fn append_actions_announced(
        &self,
        game: GameNo,
        append: &Append<'_>,
        announce: &Announce<'_>,
    ) -> Result<Appended, StoreError> {
        dispatch!(self, store => store.append_actions(game, append, Some(announce)).await)
    }

    /// Up to `limit` active games whose turn is the computer's, those waiting longest first.
    ///
    /// # Errors
    /// A database failure.
    pub async fn computer_turns(&self, limit: i64) -> Result<Vec<GameNo>, StoreError> {
        dispatch!(self, store => store.computer_turns(limit).await)
    }

    /// Ends an active game (a resignation, a claim on time, an abort) with a result or
    /// reason, and settles its pot as [`Ending::payout`] says, in one transaction. A game's pot
    /// is settled once, whatever happens after.
    ///
    /// # Errors
    /// [`Conflict::NoSuchGame`], [`Conflict::GameOver`], [`Conflict::StaleSeq`] (with
    /// [`Ending::expected_seq`]), [`Conflict::NotYetDue`] (with [`Ending::deadline_passed`]),
    /// or a database failure.
    pub async fn end_game(
        &self,
        game: GameNo,
        ending: &Ending<'_>,
    ) -> Result<GameRecord, StoreError> {
        dispatch!(self, store => store.end_game(game, ending, None, None).await.map(|(game, _)| game))
    }

    /// [`Store::end_game`], recording `request` in the same transaction, so that a re-delivered
    /// resignation is applied once.
    ///
    /// # Errors
    /// [`Conflict::Duplicate`] (checked first), the conflicts of [`Store::end_game`]; then
    /// nothing is written. A database failure.
    pub async fn end_game_once(
        &self,
        game: GameNo,
        ending: &Ending<'_>,
        request: &RequestKey,
    ) -> Result<GameRecord, StoreError> {
        dispatch!(self, store => store.end_game(game, ending, Some(request), None).await.map(|(game, _)| game))
    }

    /// [`Store::end_game_once`], writing `announce` in the same transaction: the game's
    /// record, as ended, and the outbox row written.
    ///
    /// # Errors
    /// Those of [`Store::end_game_once`]; then nothing is written.
    pub async fn end_game_announced(
        &self,
        game: GameNo,
        ending: &Ending<'_>,
        request: &RequestKey,
        announce: &Announce<'_>,
    ) -> Result<(GameRecord, OutboxId), StoreError> {
        let (record, announced) = dispatch!(self, store => store.end_game(game, ending, Some(request), Some(announce)).await)?;
        Ok((
            record,
            announced.ok_or_else(|| StoreError::Corrupt("no announcement".into()))?,
        ))
    }
}
