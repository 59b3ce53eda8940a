//! The computer at the table (issue 18).
//!
//! - `/play <game> computer [level=1-4]` (Discord: the `computer` option of `/play`) starts a
//!   game at once against the computer, level 2 by default: the person and the computer take
//!   the seats by lot; in Pachisi the computer holds the three other seats (its partner and
//!   both opponents). A Pachisi challenge can fill its empty seats with the computer (see
//!   `challenges.rs`). A game with a computer seat is never staked: `stake=` is refused.
//! - The computer's seats are held by a user of [`Platform::Computer`] whose platform id names
//!   its level (`level-2`) and whose name says what it is ("Computer (level 2)"). It is never
//!   mentioned as a person nor notified, and its boards carry no buttons.
//! - [`Service::computer_moves`] plays every computer move that is due: it finds the games
//!   whose turn is the computer's in the database (no game state is kept in memory), thinks
//!   off the async runtime (`spawn_blocking`) with `tabula-ai`, and appends the move together
//!   with a board for the outbox in one transaction. A crash while it thinks loses nothing: the
//!   turn is still the computer's after the restart, and the same seed (the game's number and
//!   its `seq`) gives the same move, unless [`THINKING_CAP`] cut the search short.
//! - The board in the outbox tells everything the computer played since the last person's move
//!   (several computer seats in a row in Pachisi): an older board still waiting is superseded.
//!   A person's move pressed on a board posts no board of its own (the presser's toast says it
//!   was played): the computer's board tells it too, from the newest board shown, so that a
//!   move and its answer are one board.

use std::time::{Duration, Instant};

use serde_json::json;
use tabula_core::{AnyGame, GameId, Status};

use super::{
    Change, Ctx, Failure, Handled, Loaded, Played, Reply, Service, ServiceError, UserError, holder,
    played_spans,
};
use crate::commands::ParsedCommand;
use crate::l10n::Span;
use crate::store::{
    Announce, Conflict, GameDice, GameNo, GameStatus, History, LoadedGame, NewGame, Platform,
    StoreError, TurnStart, User, UserId,
};

/// The longest the computer thinks about one move. The levels are defined by their number of
/// playouts; this cap only guards against a slow machine (a level-4 Pachisi move takes about a
/// second on one core).
pub const THINKING_CAP: Duration = Duration::from_secs(10);

/// How many games the computer takes in one pass.
const BATCH: i64 = 32;

/// The most passes of [`Service::computer_moves`] in one call (a pass plays one move in each
/// game due); the worker calls it again at once when it did anything.
const MAX_PASSES: usize = 200;

/// The level of a user of the computer platform (`level-3`: 3); `None` for a person.
pub(super) fn computer_level(user: &User) -> Option<u8> {
    if user.platform != Platform::Computer {
        return None;
    }
    user.platform_user_id
        .strip_prefix("level-")
        .and_then(|level| level.parse().ok())
}

/// Whether a user is the computer.
pub(super) fn is_computer(user: &User) -> bool {
    user.platform == Platform::Computer
}

/// The computer's seed for the position after `seq` actions of `game`: the same position gets
/// the same move, after a restart too.
fn seed(game: GameNo, seq: u32) -> u64 {
    u64::try_from(game.0)
        .unwrap_or(0)
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(u64::from(seq))
}

impl Service {
    /// The user holding the computer's seats at `level`.
    pub(super) async fn computer_user(&self, level: u8) -> Result<User, ServiceError> {
        Ok(self
            .store
            .upsert_user(
                Platform::Computer,
                &format!("level-{level}"),
                &format!("Computer (level {level})"),
            )
            .await?)
    }

    /// `/play <game> computer …`: a game against the computer, started at once. `options` are
    /// the game's options, already checked.
    pub(super) async fn play_computer(
        &self,
        ctx: &Ctx,
        command: &ParsedCommand,
        id: GameId,
        options: &str,
        level: i64,
    ) -> Handled<Reply> {
        let level = super::challenges::computer_level_of(level);
        // A friendly game whatever the community's default stake.
        let terms = self.terms(ctx, id, Some(0), command.time_millis).await?;
        let computer = self.computer_user(level).await?;
        let seat_count = id.seats().len();
        let mine = self.dice.draw(seat_count)?;
        let seats: Vec<UserId> = (0..seat_count)
            .map(|seat| {
                if seat == mine {
                    ctx.user.id
                } else {
                    computer.id
                }
            })
            .collect();
        let option_list: Vec<&str> = options.split_whitespace().collect();
        let state = AnyGame::start(id, &option_list, None).map_err(UserError::Setup)?;
        let turn = match state.status() {
            Status::Decision(seat) => seats.get(usize::from(seat.0)).map(|user| TurnStart {
                user: *user,
                at: ctx.now,
            }),
            _ => None,
        };
        let new = NewGame {
            chat: ctx.chat.id,
            game: id,
            options,
            start_position: None,
            seats: &seats,
            accepting: None,
            community: ctx.chat.community,
            stake: 0,
            move_millis: terms.move_millis,
            turn,
            // Against the computer the game starts at once: its seed is committed in
            // the start message, and nothing unpredictable salts it.
            dice: self
                .fresh_seed(id)?
                .map(|seed| GameDice { seed, nonce: None }),
        };
        let pending = self.pending_announcement(Change::Start, ctx.pressed.as_deref());
        let (record, announced) = match &pending {
            Some(pending) => {
                let (record, row) = self
                    .store
                    .create_game_announced(&new, &ctx.key, &pending.as_announce())
                    .await?;
                (record, Some(row))
            }
            None => (self.store.create_game_once(&new, &ctx.key).await?, None),
        };
        let mut reply = self.game_started(record, state, ctx.now).await?;
        reply.announced = announced;
        if self.wants_thread(ctx).await? {
            return self.start_in_thread(ctx, &reply, None, None).await;
        }
        Ok(reply)
    }

    /// Waits until a board shows the computer to move (or returns at once if one did since the
    /// last wait). The running bot's computer worker waits on it between its rounds.
    pub async fn computer_woken(&self) {
        self.computer_wake.notified().await;
    }

    /// Wakes the computer worker: the computer is to move somewhere.
    pub(super) fn wake_computer(&self) {
        self.computer_wake.notify_one();
    }

    /// Plays every computer move that is due, each appended with its board for the outbox in
    /// one transaction; a game where the computer moves several times in a row (Pachisi) is
    /// played until a person is to move. Returns how many moves were played. A move the
    /// computer cannot make is logged and left for the next call.
    ///
    /// # Errors
    /// Internal failures (the database).
    pub async fn computer_moves(&self) -> Result<usize, ServiceError> {
        let mut played = 0;
        for _ in 0..MAX_PASSES {
            let games = self.store.computer_turns(BATCH).await?;
            let mut moved = 0;
            for game in games {
                if self.computer_move(game).await? {
                    moved += 1;
                }
            }
            played += moved;
            if moved == 0 {
                break;
            }
        }
        Ok(played)
    }

    /// The computer's move in `game`, if it is to move there; whether one was appended.
    async fn computer_move(&self, game: GameNo) -> Result<bool, ServiceError> {
        // The whole log: committed dice count the rolls before.
        let Some(stored) = self.store.load_game(game, History::Full).await? else {
            return Ok(false);
        };
        let rolls = super::play::rolls_in(&stored.actions);
        if stored.record.status != GameStatus::Active {
            return Ok(false);
        }
        let mut state = stored
            .replay()
            .map_err(|e| ServiceError::Corrupt(e.to_string()))?;
        let mut record = stored.record;
        let Status::Decision(seat) = state.status() else {
            return Ok(false);
        };
        let Some(computer) = holder(&record, seat).filter(|user| is_computer(user)) else {
            return Ok(false);
        };
        let computer_id = computer.id;
        let level = computer_level(computer).unwrap_or(2);
        let level = tabula_ai::Level::from_number(level).unwrap_or(tabula_ai::Level::Casual);
        let position = state.clone();
        let seed = seed(game, record.seq);
        let started = Instant::now();
        let chosen = tokio::task::spawn_blocking(move || {
            tabula_ai::choose(&position, level, seed, Some(THINKING_CAP))
        })
        .await
        .map_err(ServiceError::from)?;
        let chosen = match chosen {
            Ok(chosen) => chosen,
            Err(error) => {
                tracing::error!(game = game.0, %error, "the computer cannot move");
                return Ok(false);
            }
        };
        crate::metrics::metrics().computer_move(record.game.as_str(), started.elapsed());
        tracing::info!(
            game = game.0,
            level = level as u8,
            thought_ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
            "the computer moves"
        );
        let applied = state
            .apply_text(&chosen)
            .map_err(|e| ServiceError::Corrupt(format!("the computer's move {chosen}: {e}")))?;
        let mut played = Played::default();
        played.push(applied, Some(computer_id), Some(seat));
        self.resolve_chance(&record, rolls, &mut state, &mut played)?;
        let seq = record.seq + u32::try_from(played.actions.len()).unwrap_or(u32::MAX);
        let payload = json!({"game": game.0, "seq": seq}).to_string();
        let announce = Announce {
            payload: &payload,
            held: None,
        };
        match self
            .append_played(
                &mut record,
                &state,
                &played,
                None,
                Some(&announce),
                self.clock.now(),
            )
            .await
        {
            Ok(_) => Ok(true),
            // Someone else played first (another instance's computer, a resignation).
            Err(StoreError::Conflict(Conflict::StaleSeq { .. } | Conflict::GameOver { .. })) => {
                Ok(false)
            }
            Err(other) => Err(other.into()),
        }
    }

    /// The board the outbox posts after the computer played in `game`: what it played since
    /// the last person's move (and the rolls after it), and the position after action `seq`;
    /// `None` when the game has moved on since.
    ///
    /// # Errors
    /// Internal failures (the database, a log that does not replay).
    pub(super) async fn computer_board(
        &self,
        game: GameNo,
        seq: i64,
    ) -> Result<Option<Reply>, ServiceError> {
        let Some(stored) = self.store.load_game(game, History::Full).await? else {
            return Ok(None);
        };
        if i64::from(stored.record.seq) != seq {
            return Ok(None);
        }
        let record = &stored.record;
        let by_computer = |actor: UserId| {
            record
                .seats
                .iter()
                .any(|holder| holder.user.id == actor && is_computer(&holder.user))
        };
        let actions = &stored.actions;
        let mut from = 0;
        for (i, action) in actions.iter().enumerate() {
            if action.actor.is_some_and(|actor| !by_computer(actor)) {
                from = i + 1;
            }
        }
        while actions
            .get(from)
            .is_some_and(|action| action.actor.is_none())
        {
            from += 1;
        }
        // A person's move pressed without a board of its own (see `Service::apply`) is told
        // here too: everything after the newest board shown.
        if let Some(shown) = self.store.newest_board_seq(game).await? {
            from = from.min(usize::try_from(shown).unwrap_or(0));
        }
        self.replayed_board(stored, from, Vec::new())
            .await
            .map(Some)
    }

    /// The board of an announcement ([`super::announce`]) of `game` posted by the dispatcher
    /// (the process that made the change died before it posted it): the game as it stands,
    /// telling the actions after the first `from` (and, for a game that `start`s, its seats,
    /// terms and dice); `None` when a board showing as much was posted already (unless the
    /// game's `end` is told, which adds no action).
    ///
    /// # Errors
    /// Internal failures (the database, a log that does not replay).
    pub(super) async fn announced_board(
        &self,
        game: GameNo,
        from: i64,
        start: bool,
        end: bool,
        pressed: Option<String>,
    ) -> Result<Option<Reply>, ServiceError> {
        let Some(stored) = self.store.load_game(game, History::Full).await? else {
            return Ok(None);
        };
        // A board showing as many actions tells a move or a start; an ending adds no action,
        // and is told whatever was shown.
        let shown = self.store.newest_board_seq(game).await?;
        if !end && shown.is_some_and(|shown| shown >= i64::from(stored.record.seq)) {
            return Ok(None);
        }
        let header = if start {
            let tags = self.game_rating_tags(&stored.record).await?;
            super::challenges::begins_spans(&stored.record, &tags)
        } else {
            Vec::new()
        };
        let from = usize::try_from(from).unwrap_or(0);
        let mut reply = self.replayed_board(stored, from, header).await?;
        reply.pressed = pressed;
        Ok(Some(reply))
    }

    /// The board of a stored game, after `header`, telling its actions from index `from` on.
    pub(super) async fn replayed_board(
        &self,
        stored: LoadedGame,
        from: usize,
        header: Vec<Span>,
    ) -> Result<Reply, ServiceError> {
        let record = stored.record;
        let actions = &stored.actions;
        let corrupt = |seq: u32, e: &dyn std::fmt::Display| {
            ServiceError::Corrupt(format!("game {} action {seq}: {e}", record.id))
        };
        let options = record.option_list();
        let mut state = AnyGame::start(record.game, &options, record.start_position.as_deref())
            .map_err(|e| ServiceError::Corrupt(format!("game {}: {e}", record.id)))?;
        let mut played = Played::default();
        let mut recent = Vec::new();
        let mut rolls = 0;
        for (i, action) in actions.iter().enumerate() {
            let seat = match state.status() {
                Status::Decision(seat) => Some(seat),
                _ => None,
            };
            let applied = state
                .apply_text(&action.action)
                .map_err(|e| corrupt(action.seq, &e))?;
            if action.action.starts_with("roll:") {
                rolls += 1;
            }
            if i >= from {
                // A roll is for the seat that acts next, as when it was played.
                let seat = seat.or(match state.status() {
                    Status::Decision(seat) => Some(seat),
                    _ => None,
                });
                played.push(applied, action.actor, seat);
            } else {
                super::follow(&mut recent, applied);
            }
        }
        let told = played_spans(&record, &played, None);
        let mut spans = header;
        if !spans.is_empty() && !told.is_empty() {
            spans.push(Span::Text(" ".into()));
        }
        spans.extend(told);
        if !spans.is_empty() {
            spans.push(Span::Text("\n".into()));
        }
        let loaded = Loaded {
            record,
            state,
            recent: super::followed(recent, std::mem::take(&mut played.recent)),
            moved: true,
            rolls,
        };
        match self.board_reply(&loaded, spans).await {
            Ok(reply) => Ok(reply),
            Err(Failure::Internal(error)) => Err(error),
            Err(Failure::User(error)) => Err(ServiceError::Corrupt(error.to_string())),
        }
    }
}
