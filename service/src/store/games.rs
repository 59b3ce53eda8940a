//! Games: creating them (with their seats, stakes and first clock), loading them with their
//! action log, appending actions by compare-and-set, ending them, and the announcement of a
//! change written with it. The statements and the operations that run them.

#[cfg(doc)]
use super::Conflict;
use super::challenges::settle_in;
use super::executor::{Tx, Value, insert_values, query, query_as, query_scalar};
use super::ledger::{pay_fines, settle_pot, take_stakes};
use super::ratings::rate_game;
use super::requests::record_request;
use super::{
    ActionRecord, ActionRow, Announce, Append, Appended, ChatId, ClockRow, Ending, GameNo,
    GameRecord, GameRow, GameStateRow, GameStatus, History, LoadedGame, NewGame, NewOutbox,
    OutboxId, OutboxKind, Payout, Platform, RequestKey, SeatRow, Settlement, Store, StoreError,
    Timestamp, UserId, assemble_games, db, end_refusal, game_refusal, outbox, seq_to_i64,
};

const INSERT_GAME: &str = "\
INSERT INTO games (chat_id, challenge_id, game, options, start_position, status, seq,
                   created_at, updated_at, community_id, stake, move_millis, dice_seed,
                   dice_nonce, rated)
VALUES ($1, $2, $3, $4, $5, 'active', 0, $6, $6, $7, $8, $9, $10, $11,
        COALESCE((SELECT rated FROM challenges WHERE id = $2), 1))
RETURNING id";

const INSERT_SEAT: &str = "INSERT INTO seats (game_id, seat, user_id) VALUES ($1, $2, $3)";

/// Starts (or with a null `$2`, stops) the clock of game `$1` for user `$2` from `$3`, and
/// returns it. A clock starts at `$3`, or at the end of the user's vacation in the game's
/// community if one runs then; the reminder is due halfway to the deadline. The turn's private
/// ping (`pinged_at`) is kept while the same person moves again, counted as sent when the
/// person to move ended a turn of theirs in this game within the last minute (they are
/// looking: [`END_TURN`]), else due.
const SET_CLOCK: &str = "\
UPDATE games SET turn_user_id = $2,
       turn_started_at = CASE WHEN $2 IS NULL THEN NULL ELSE
           (SELECT CASE WHEN MAX(v.ends_at) > $3 THEN MAX(v.ends_at) ELSE $3 END
            FROM vacations v WHERE v.user_id = $2 AND v.community_id = games.community_id) END,
       remind_at = CASE WHEN $2 IS NULL THEN NULL ELSE
           (SELECT CASE WHEN MAX(v.ends_at) > $3 THEN MAX(v.ends_at) ELSE $3 END
            FROM vacations v WHERE v.user_id = $2 AND v.community_id = games.community_id)
           + move_millis / 2 END,
       deadline_at = CASE WHEN $2 IS NULL THEN NULL ELSE
           (SELECT CASE WHEN MAX(v.ends_at) > $3 THEN MAX(v.ends_at) ELSE $3 END
            FROM vacations v WHERE v.user_id = $2 AND v.community_id = games.community_id)
           + move_millis END,
       reminded_at = NULL, timeout_announced_at = NULL, lastcalled_at = NULL,
       pinged_at = CASE WHEN turn_user_id = $2 THEN pinged_at
           WHEN EXISTS (SELECT 1 FROM turn_ends t WHERE t.game_id = games.id
                        AND t.user_id = $2 AND t.ended_at > $3 - 60000) THEN $3
           ELSE NULL END
WHERE id = $1
RETURNING turn_user_id, turn_started_at, remind_at, deadline_at";

/// The person whose turn it is (`turn_user_id`) ends it at `$3`, the turn passing to `$2`
/// (another person, or none: the game stops): remembered per game and person.
const END_TURN: &str = "\
INSERT INTO turn_ends (game_id, user_id, ended_at)
SELECT id, turn_user_id, $3 FROM games
WHERE id = $1 AND turn_user_id IS NOT NULL AND ($2 IS NULL OR turn_user_id <> $2)
ON CONFLICT (game_id, user_id) DO UPDATE SET ended_at = excluded.ended_at";

/// The person who accepted game `$1`'s challenge (`$2`) acted in it at `$3`.
const ACCEPTED_TURN_END: &str = "\
INSERT INTO turn_ends (game_id, user_id, ended_at) VALUES ($1, $2, $3)
ON CONFLICT (game_id, user_id) DO UPDATE SET ended_at = excluded.ended_at";

pub(super) const GAME_COMMUNITY: &str = "SELECT community_id FROM games WHERE id = $1";

/// Game `$1`.
const GAME: &str = "\
SELECT id, chat_id, challenge_id, game, options, start_position, status, result, seq,
       snapshot_position, snapshot_seq, created_at, updated_at, community_id, stake,
       move_millis, turn_user_id, turn_started_at, remind_at, deadline_at, reminded_at,
       timeout_announced_at, settled_at, dice_seed, dice_nonce, rated
FROM games WHERE id = $1";

/// The seats of game `$1`, in order.
const SEATS: &str = "\
SELECT s.game_id, s.seat, u.id, u.platform, u.platform_user_id, u.display_name,
       u.created_at, u.updated_at, u.username
FROM seats s JOIN users u ON u.id = s.user_id
WHERE s.game_id = $1 ORDER BY s.seat";

/// The active games of chat `$1`, oldest first.
const ACTIVE_GAMES_IN_CHAT: &str = "\
SELECT id, chat_id, challenge_id, game, options, start_position, status, result, seq,
       snapshot_position, snapshot_seq, created_at, updated_at, community_id, stake,
       move_millis, turn_user_id, turn_started_at, remind_at, deadline_at, reminded_at,
       timeout_announced_at, settled_at, dice_seed, dice_nonce, rated
FROM games WHERE chat_id = $1 AND status = 'active' ORDER BY id";

/// The seats of the active games of chat `$1`.
const SEATS_OF_ACTIVE_GAMES_IN_CHAT: &str = "\
SELECT s.game_id, s.seat, u.id, u.platform, u.platform_user_id, u.display_name,
       u.created_at, u.updated_at, u.username
FROM seats s JOIN users u ON u.id = s.user_id
WHERE s.game_id IN (SELECT id FROM games WHERE chat_id = $1 AND status = 'active')
ORDER BY s.game_id, s.seat";

/// `$1` chat, `$2` user: the newest game of the chat in which the user holds a seat, whatever
/// its status.
const LATEST_GAME_OF_USER_IN_CHAT: &str = "\
SELECT g.id FROM games g WHERE g.chat_id = $1
  AND EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.user_id = $2)
ORDER BY g.id DESC LIMIT 1";

/// The active games of user `$1` in chat `$2`, or in any chat if `$2` is null.
const ACTIVE_GAMES_OF_USER: &str = "\
SELECT id, chat_id, challenge_id, game, options, start_position, status, result, seq,
       snapshot_position, snapshot_seq, created_at, updated_at, community_id, stake,
       move_millis, turn_user_id, turn_started_at, remind_at, deadline_at, reminded_at,
       timeout_announced_at, settled_at, dice_seed, dice_nonce, rated
FROM games WHERE status = 'active' AND ($2 IS NULL OR chat_id = $2)
  AND id IN (SELECT game_id FROM seats WHERE user_id = $1)
ORDER BY id";

/// The seats of the games of [`ACTIVE_GAMES_OF_USER`].
const SEATS_OF_ACTIVE_GAMES_OF_USER: &str = "\
SELECT s.game_id, s.seat, u.id, u.platform, u.platform_user_id, u.display_name,
       u.created_at, u.updated_at, u.username
FROM seats s JOIN users u ON u.id = s.user_id
WHERE s.game_id IN (
    SELECT id FROM games WHERE status = 'active' AND ($2 IS NULL OR chat_id = $2)
      AND id IN (SELECT game_id FROM seats WHERE user_id = $1))
ORDER BY s.game_id, s.seat";

/// The actions after `$2` (0 for all, or a snapshot's seq) up to `$3` (the game's seq as read).
const ACTIONS_BETWEEN: &str = "\
SELECT seq, action, actor_id, created_at FROM actions
WHERE game_id = $1 AND seq > $2 AND seq <= $3 ORDER BY seq";

/// Active games whose turn is the computer's (its turn user is of the computer platform),
/// those waiting longest first.
const COMPUTER_TURNS: &str = "\
SELECT g.id FROM games g JOIN users u ON u.id = g.turn_user_id
WHERE g.status = 'active' AND u.platform = 'computer'
ORDER BY g.updated_at, g.id LIMIT $1";

/// Compare-and-set on `seq`: `$2` expected seq, `$3` new seq, `$4` new status, `$5` result or
/// null, `$6` snapshot position or null (taken at `$3`), `$7` now. The clock is set next
/// ([`SET_CLOCK`]).
const ADVANCE_GAME: &str = "\
UPDATE games SET seq = $3, status = $4, result = COALESCE($5, result),
       snapshot_position = COALESCE($6, snapshot_position),
       snapshot_seq = CASE WHEN $6 IS NULL THEN snapshot_seq ELSE $3 END,
       updated_at = $7
WHERE id = $1 AND seq = $2 AND status = 'active'
RETURNING id";

pub(super) const GAME_STATE: &str = "SELECT status, seq FROM games WHERE id = $1";

/// Followed by one `(game, seq, action, actor, now)` tuple per action.
const INSERT_ACTIONS: &str = "INSERT INTO actions (game_id, seq, action, actor_id, created_at) ";

/// `$2` status, `$3` result, `$4` now; only if `$5` (when not null) is still the `seq` and
/// the clock ran out at or before `$6` (when not null). Stops the clock.
const END_GAME: &str = "\
UPDATE games SET status = $2, result = $3, updated_at = $4, turn_user_id = NULL,
       turn_started_at = NULL, remind_at = NULL, deadline_at = NULL
WHERE id = $1 AND status = 'active' AND ($5 IS NULL OR seq = $5)
  AND ($6 IS NULL OR deadline_at <= $6)";

/// In a writing transaction: starts (`Some`) or stops the clock of `game` for a turn of
/// `user` from `at`; the clock as stored.
pub(super) async fn set_clock(
    tx: &mut Tx,
    game: GameNo,
    user: Option<UserId>,
    at: Timestamp,
    operation: &'static str,
) -> Result<ClockRow, StoreError> {
    query(END_TURN)
        .bind(game.0)
        .bind(user.map(|user| user.0))
        .bind(at.0)
        .execute(&mut *tx)
        .await
        .map_err(db(operation))?;
    query_as::<ClockRow>(SET_CLOCK)
        .bind(game.0)
        .bind(user.map(|user| user.0))
        .bind(at.0)
        .fetch_one(&mut *tx)
        .await
        .map_err(db(operation))
}

/// Writes `announce` in the transaction: an outbox row of kind `board` for game `game`'s chat
/// (an older board of the game still waiting is superseded).
async fn announce_in(
    tx: &mut Tx,
    game: GameNo,
    announce: &Announce<'_>,
    now: Timestamp,
    operation: &'static str,
) -> Result<OutboxId, StoreError> {
    let target = query_as::<outbox::GameForOutbox>(outbox::GAME_FOR_OUTBOX)
        .bind(game.0)
        .fetch_one(&mut *tx)
        .await
        .map_err(db(operation))?;
    outbox::insert_outbox(
        tx,
        &NewOutbox {
            platform: Platform::parse(&target.platform)?,
            chat: ChatId(target.chat_id),
            game: Some(game),
            kind: OutboxKind::Board,
            payload: announce.payload,
            now,
            held: announce.held,
        },
        operation,
    )
    .await
}

/// [`announce_in`] when there is something to announce.
pub(super) async fn announce_if(
    tx: &mut Tx,
    game: GameNo,
    announce: Option<&Announce<'_>>,
    now: Timestamp,
    operation: &'static str,
) -> Result<Option<OutboxId>, StoreError> {
    match announce {
        Some(announce) => Ok(Some(announce_in(tx, game, announce, now, operation).await?)),
        None => Ok(None),
    }
}

/// In a writing transaction: settles the accepted challenge (compare-and-set), writes the
/// game, its seats, stakes and clock. The game's id.
pub(super) async fn create_game_in(
    tx: &mut Tx,
    new: &NewGame<'_>,
    now: Timestamp,
    operation: &'static str,
) -> Result<GameNo, StoreError> {
    if let Some(acceptance) = new.accepting {
        settle_in(
            tx,
            acceptance.challenge,
            Settlement::Accept,
            acceptance.by,
            acceptance.now,
            operation,
        )
        .await?;
    }
    let id: i64 = query_scalar(INSERT_GAME)
        .bind(new.chat.0)
        .bind(new.accepting.map(|acceptance| acceptance.challenge.0))
        .bind(new.game.as_str())
        .bind(new.options)
        .bind(new.start_position)
        .bind(now.0)
        .bind(new.community.0)
        .bind(new.stake)
        .bind(new.move_millis)
        .bind(new.dice.as_ref().map(|dice| dice.seed.as_str()))
        .bind(new.dice.as_ref().and_then(|dice| dice.nonce.as_deref()))
        .fetch_one(&mut *tx)
        .await
        .map_err(db(operation))?;
    for (seat, user) in (0_i64..).zip(new.seats) {
        query(INSERT_SEAT)
            .bind(id)
            .bind(seat)
            .bind(user.0)
            .execute(&mut *tx)
            .await
            .map_err(db(operation))?;
    }
    // The person who accepts has just acted in the game: when the first turn is theirs, they
    // are looking (no private ping).
    if let Some(acceptance) = new.accepting {
        query(ACCEPTED_TURN_END)
            .bind(id)
            .bind(acceptance.by.0)
            .bind(acceptance.now.0)
            .execute(&mut *tx)
            .await
            .map_err(db(operation))?;
    }
    if new.stake > 0 {
        take_stakes(
            tx,
            id,
            new.community.0,
            new.seats,
            new.stake,
            now,
            operation,
        )
        .await?;
    }
    if let Some(turn) = new.turn {
        set_clock(tx, GameNo(id), Some(turn.user), turn.at, operation).await?;
    }
    Ok(GameNo(id))
}

impl Store {
    /// Creates an active game with its seats, and accepts its challenge, in one transaction.
    ///
    /// # Errors
    /// With [`NewGame::accepting`]: the conflicts of [`Store::settle_challenge`] (and then
    /// nothing is written). A database failure.
    pub async fn create_game(&self, game: &NewGame<'_>) -> Result<GameRecord, StoreError> {
        let (record, _) = self.create_game_recorded(game, None, None).await?;
        Ok(record)
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
        let (record, _) = self.create_game_recorded(game, Some(request), None).await?;
        Ok(record)
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
        let (record, announced) = self
            .create_game_recorded(game, Some(request), Some(announce))
            .await?;
        Ok((record, announced.ok_or_else(no_announcement)?))
    }

    async fn create_game_recorded(
        &self,
        new: &NewGame<'_>,
        request: Option<&RequestKey>,
        announce: Option<&Announce<'_>>,
    ) -> Result<(GameRecord, Option<OutboxId>), StoreError> {
        const OPERATION: &str = "create_game";
        let now = Timestamp::now();
        let mut tx = self.begin_write(OPERATION).await?;
        record_request(&mut tx, request, None, now, OPERATION).await?;
        let id = create_game_in(&mut tx, new, now, OPERATION).await?;
        let announced = announce_if(&mut tx, id, announce, now, OPERATION).await?;
        tx.commit().await.map_err(db(OPERATION))?;
        Ok((self.existing_game(id).await?, announced))
    }

    /// A game known to exist.
    pub(super) async fn existing_game(&self, id: GameNo) -> Result<GameRecord, StoreError> {
        self.game(id)
            .await?
            .ok_or_else(|| StoreError::Corrupt(format!("game {id} vanished")))
    }

    /// A game with its seats, without its actions.
    ///
    /// # Errors
    /// A database failure.
    pub async fn game(&self, id: GameNo) -> Result<Option<GameRecord>, StoreError> {
        const OPERATION: &str = "game";
        let Some(row) = query_as::<GameRow>(GAME)
            .bind(id.0)
            .fetch_optional(self)
            .await
            .map_err(db(OPERATION))?
        else {
            return Ok(None);
        };
        let seats = query_as::<SeatRow>(SEATS)
            .bind(id.0)
            .fetch_all(self)
            .await
            .map_err(db(OPERATION))?;
        assemble_games(vec![row], seats).map(|mut games| games.pop())
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
        // No transaction: the log is append-only and a game's `seq` only grows, so the actions
        // up to the `seq` read with the record are the log of that moment.
        const OPERATION: &str = "load_game";
        let Some(record) = self.game(id).await? else {
            return Ok(None);
        };
        let from_snapshot = match history {
            History::Full => None,
            History::SinceSnapshot => record.snapshot.clone(),
        };
        let after = from_snapshot.as_ref().map_or(0, |snapshot| snapshot.seq);
        let actions = query_as::<ActionRow>(ACTIONS_BETWEEN)
            .bind(id.0)
            .bind(seq_to_i64(after))
            .bind(seq_to_i64(record.seq))
            .fetch_all(self)
            .await
            .map_err(db(OPERATION))?
            .into_iter()
            .map(ActionRecord::try_from)
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Some(LoadedGame {
            record,
            from_snapshot,
            actions,
        }))
    }

    /// The active games of a chat, oldest first.
    ///
    /// # Errors
    /// A database failure.
    pub async fn active_games_in_chat(&self, chat: ChatId) -> Result<Vec<GameRecord>, StoreError> {
        const OPERATION: &str = "active_games_in_chat";
        let mut tx = self.begin_read(OPERATION).await?;
        let games = query_as::<GameRow>(ACTIVE_GAMES_IN_CHAT)
            .bind(chat.0)
            .fetch_all(&mut tx)
            .await
            .map_err(db(OPERATION))?;
        let seats = query_as::<SeatRow>(SEATS_OF_ACTIVE_GAMES_IN_CHAT)
            .bind(chat.0)
            .fetch_all(&mut tx)
            .await
            .map_err(db(OPERATION))?;
        tx.commit().await.map_err(db(OPERATION))?;
        assemble_games(games, seats)
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
        let game: Option<i64> = query_scalar(LATEST_GAME_OF_USER_IN_CHAT)
            .bind(chat.0)
            .bind(user.0)
            .fetch_optional(self)
            .await
            .map_err(db("latest_game_of_user_in_chat"))?;
        Ok(game.map(GameNo))
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
        const OPERATION: &str = "active_games_of_user";
        let chat = chat.map(|chat| chat.0);
        let mut tx = self.begin_read(OPERATION).await?;
        let games = query_as::<GameRow>(ACTIVE_GAMES_OF_USER)
            .bind(user.0)
            .bind(chat)
            .fetch_all(&mut tx)
            .await
            .map_err(db(OPERATION))?;
        let seats = query_as::<SeatRow>(SEATS_OF_ACTIVE_GAMES_OF_USER)
            .bind(user.0)
            .bind(chat)
            .fetch_all(&mut tx)
            .await
            .map_err(db(OPERATION))?;
        tx.commit().await.map_err(db(OPERATION))?;
        assemble_games(games, seats)
    }

    /// Up to `limit` active games whose turn is the computer's, those waiting longest first.
    ///
    /// # Errors
    /// A database failure.
    pub async fn computer_turns(&self, limit: i64) -> Result<Vec<GameNo>, StoreError> {
        let ids: Vec<i64> = query_scalar(COMPUTER_TURNS)
            .bind(limit)
            .fetch_all(self)
            .await
            .map_err(db("computer_turns"))?;
        Ok(ids.into_iter().map(GameNo).collect())
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
        self.append_actions_in(game, append, None).await
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
        self.append_actions_in(game, append, Some(announce)).await
    }

    async fn append_actions_in(
        &self,
        game: GameNo,
        append: &Append<'_>,
        announce: Option<&Announce<'_>>,
    ) -> Result<Appended, StoreError> {
        const OPERATION: &str = "append_actions";
        let new_seq = append
            .expected_seq
            .checked_add(u32::try_from(append.actions.len()).unwrap_or(u32::MAX))
            .ok_or_else(|| StoreError::Corrupt("sequence number overflow".to_string()))?;
        let now = Timestamp::now();
        let mut tx = self.begin_write(OPERATION).await?;
        record_request(&mut tx, append.request, Some(game.0), now, OPERATION).await?;
        let status = if append.finish.is_some() {
            GameStatus::Finished
        } else {
            GameStatus::Active
        };
        let advanced: Option<i64> = query_scalar(ADVANCE_GAME)
            .bind(game.0)
            .bind(seq_to_i64(append.expected_seq))
            .bind(seq_to_i64(new_seq))
            .bind(status.as_str())
            .bind(append.finish)
            .bind(append.snapshot)
            .bind(now.0)
            .fetch_optional(&mut tx)
            .await
            .map_err(db(OPERATION))?;
        if advanced.is_none() {
            let state = query_as::<GameStateRow>(GAME_STATE)
                .bind(game.0)
                .fetch_optional(&mut tx)
                .await
                .map_err(db(OPERATION))?;
            return Err(game_refusal(game, state)?.into());
        }
        let turn = append.turn.filter(|_| append.finish.is_none());
        let clock = set_clock(
            &mut tx,
            game,
            turn.map(|turn| turn.user),
            turn.map_or(now, |turn| turn.at),
            OPERATION,
        )
        .await?;
        // All the new actions in one statement (a move and the rolls after it).
        if !append.actions.is_empty() {
            let rows = (append.expected_seq + 1..).zip(append.actions).map(
                |(seq, action)| -> [Value<'_>; 5] {
                    [
                        game.0.into(),
                        seq_to_i64(seq).into(),
                        action.action.as_str().into(),
                        action.actor.map(|user| user.0).into(),
                        now.0.into(),
                    ]
                },
            );
            insert_values(INSERT_ACTIONS, rows)
                .execute(&mut tx)
                .await
                .map_err(db(OPERATION))?;
        }
        pay_fines(&mut tx, game.0, append.fines, now, OPERATION).await?;
        if append.finish.is_some() {
            let payout = append.payout.cloned().unwrap_or(Payout::Refund);
            let actor = append.actions.iter().rev().find_map(|action| action.actor);
            settle_pot(&mut tx, game.0, &payout, actor, now, OPERATION).await?;
            let rated_at = append.rated_at.unwrap_or(now);
            rate_game(&mut tx, game, &payout, rated_at, OPERATION).await?;
        }
        let announced = announce_if(&mut tx, game, announce, now, OPERATION).await?;
        tx.commit().await.map_err(db(OPERATION))?;
        Ok(Appended {
            seq: new_seq,
            clock: clock.into_clock(),
            announced,
            at: now,
        })
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
        let (record, _) = self.end_game_recorded(game, ending, None, None).await?;
        Ok(record)
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
        let (record, _) = self
            .end_game_recorded(game, ending, Some(request), None)
            .await?;
        Ok(record)
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
        let (record, announced) = self
            .end_game_recorded(game, ending, Some(request), Some(announce))
            .await?;
        Ok((record, announced.ok_or_else(no_announcement)?))
    }

    async fn end_game_recorded(
        &self,
        game: GameNo,
        ending: &Ending<'_>,
        request: Option<&RequestKey>,
        announce: Option<&Announce<'_>>,
    ) -> Result<(GameRecord, Option<OutboxId>), StoreError> {
        const OPERATION: &str = "end_game";
        let now = Timestamp::now();
        let mut tx = self.begin_write(OPERATION).await?;
        record_request(&mut tx, request, Some(game.0), now, OPERATION).await?;
        let ended = query(END_GAME)
            .bind(game.0)
            .bind(ending.end.status().as_str())
            .bind(ending.result)
            .bind(now.0)
            .bind(ending.expected_seq.map(seq_to_i64))
            .bind(ending.deadline_passed.map(|at| at.0))
            .execute(&mut tx)
            .await
            .map_err(db(OPERATION))?
            .rows_affected();
        if ended == 0 {
            let state = query_as::<GameStateRow>(GAME_STATE)
                .bind(game.0)
                .fetch_optional(&mut tx)
                .await
                .map_err(db(OPERATION))?;
            return Err(end_refusal(game, ending, state)?.into());
        }
        settle_pot(
            &mut tx,
            game.0,
            &ending.payout,
            ending.actor,
            now,
            OPERATION,
        )
        .await?;
        if ending.end == super::GameEnd::Finished {
            let rated_at = ending.rated_at.unwrap_or(now);
            rate_game(&mut tx, game, &ending.payout, rated_at, OPERATION).await?;
        }
        let announced = announce_if(&mut tx, game, announce, now, OPERATION).await?;
        tx.commit().await.map_err(db(OPERATION))?;
        Ok((self.existing_game(game).await?, announced))
    }
}

/// An announced change whose outbox row is missing.
fn no_announcement() -> StoreError {
    StoreError::Corrupt("no announcement".into())
}
