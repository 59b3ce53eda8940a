//! Play: which game a command means, loading and replaying it, moves typed or pressed, dice,
//! appending what was played with its consequences, resigning, and the list of games.

use tabula_core::{AnyGame, GameId, Outcome, Seat, Status};

use super::{
    Audience, Change, Consequences, Ctx, Did, Failure, Handled, Kind, Loaded, Placement, Played,
    Reply, Service, ServiceError, UserError, Verdict, brief_to, game_msg, holder, is_computer,
    move_button, move_msg, piece_groups, played_spans, rows, said_button, seat_label, seat_msg,
    team_cause, team_label, team_name, team_of, team_users,
};
use crate::l10n::{Msg, Span};
use crate::store::{
    Announce, Append, Conflict, Ending, Fine, GameNo, GameRecord, GameStatus, History, OutboxId,
    Payout, RequestKey, StoreError, Timestamp, TurnStart, User, UserId,
};

impl Service {
    /// Which game a command means: the one named, else the caller's only game (preferring the
    /// games where the caller is to move when `acting`), else the chat's only game.
    /// The game a look (`/board`, `/moves`, `/history`) is about: as [`Service::pick_game`],
    /// and when nothing is being played in the chat, the caller's latest game here, finished
    /// or not.
    pub(super) async fn pick_game_to_look(
        &self,
        ctx: &Ctx,
        number: Option<GameNo>,
    ) -> Handled<GameNo> {
        match self.pick_game(ctx, number, false).await {
            Err(Failure::User(UserError::NoGame)) => self
                .store
                .latest_game_of_user_in_chat(ctx.chat.id, ctx.user.id)
                .await?
                .ok_or_else(|| UserError::NoGame.into()),
            picked => picked,
        }
    }

    pub(super) async fn pick_game(
        &self,
        ctx: &Ctx,
        number: Option<GameNo>,
        acting: bool,
    ) -> Handled<GameNo> {
        if let Some(game) = number {
            // Checked to be in this chat when it is loaded.
            return Ok(game);
        }
        let candidates = self.candidate_games(ctx).await?;
        let candidates: Vec<&GameRecord> = candidates.iter().collect();
        if candidates.len() > 1 && acting {
            let mut to_move = Vec::new();
            for game in &candidates {
                let loaded = self.load(ctx, game.id).await?;
                if let Status::Decision(seat) = loaded.state.status()
                    && holder(&loaded.record, seat).is_some_and(|u| u.id == ctx.user.id)
                {
                    to_move.push(game.id);
                }
            }
            if let [one] = to_move.as_slice() {
                return Ok(*one);
            }
        }
        match candidates.as_slice() {
            [] => Err(UserError::NoGame.into()),
            [one] => Ok(one.id),
            [first, ..] => {
                let list: Vec<String> = candidates
                    .iter()
                    .map(|g| format!("#{} {}", g.id, g.game.name()))
                    .collect();
                Err(
                    UserError::WhichGame(list.join(", "), ctx.with_number(first.id.0, "/board"))
                        .into(),
                )
            }
        }
    }

    /// The games a command without a number may be about: the person's active games in this
    /// chat, or, when they play none, every active game of the chat.
    pub(super) async fn candidate_games(&self, ctx: &Ctx) -> Handled<Vec<GameRecord>> {
        let all = self.store.active_games_in_chat(ctx.chat.id).await?;
        let mine: Vec<GameRecord> = all
            .iter()
            .filter(|g| g.is_seated(ctx.user.id))
            .cloned()
            .collect();
        Ok(if mine.is_empty() { all } else { mine })
    }

    /// Loads and replays a game of this chat (a game of another chat is "no such game").
    pub(super) async fn load(&self, ctx: &Ctx, game: GameNo) -> Handled<Loaded> {
        let Some(loaded) = self
            .store
            .load_game(game, History::Full)
            .await?
            .filter(|loaded| loaded.record.chat == ctx.chat.id)
        else {
            return Err(UserError::NoSuchGame(game).into());
        };
        let mut loaded = self.loaded(&loaded)?;
        if loaded.record.status == GameStatus::Active && loaded.state.status() == Status::Chance {
            self.heal(ctx, &mut loaded).await?;
        }
        Ok(loaded)
    }

    /// A game loaded with its whole log, replayed.
    pub(super) fn loaded(&self, full: &crate::store::LoadedGame) -> Handled<Loaded> {
        let record = full.record.clone();
        let options = record.option_list();
        let mut state = AnyGame::start(record.game, &options, record.start_position.as_deref())
            .map_err(|e| ServiceError::Corrupt(format!("game {}: {e}", record.id)))?;
        let mut recent = Vec::new();
        for action in &full.actions {
            let applied = state.apply_text(&action.action).map_err(|e| {
                ServiceError::Corrupt(format!("game {} action {}: {e}", record.id, action.seq))
            })?;
            super::follow(&mut recent, applied);
        }
        // Any action counts, the dice included: after a roll-off a staked game can no longer
        // be aborted by a player for free (issue 14).
        let moved = !full.actions.is_empty();
        let rolls = rolls_in(&full.actions);
        Ok(Loaded {
            record,
            state,
            recent,
            moved,
            rolls,
        })
    }

    /// A game stored at rest on a chance node (its rolls were never written, e.g. a crash
    /// between creating a game and storing its opening roll-off): rolls now. If another
    /// request healed it first, its rolls are read back instead.
    pub(super) async fn heal(&self, ctx: &Ctx, loaded: &mut Loaded) -> Handled<()> {
        let mut state = loaded.state.clone();
        let mut played = Played::default();
        self.resolve_chance(&loaded.record, loaded.rolls, &mut state, &mut played)?;
        let mut record = loaded.record.clone();
        let appended = self
            .append_played(&mut record, &state, &played, None, None, ctx.now)
            .await;
        match appended {
            Ok(_) => {
                loaded.record = record;
                loaded.state = state;
                loaded.rolls += played.rolls();
                loaded.recent = super::followed(std::mem::take(&mut loaded.recent), played.recent);
                Ok(())
            }
            Err(StoreError::Conflict(Conflict::StaleSeq { .. } | Conflict::GameOver { .. })) => {
                let Some(fresh) = self
                    .store
                    .load_game(loaded.record.id, History::Full)
                    .await?
                else {
                    return Err(UserError::NoSuchGame(loaded.record.id).into());
                };
                let state = fresh
                    .replay()
                    .map_err(|e| ServiceError::Corrupt(e.to_string()))?;
                loaded.record = fresh.record;
                loaded.state = state;
                loaded.recent = Vec::new();
                Ok(())
            }
            Err(other) => Err(other.into()),
        }
    }

    pub(super) async fn press_move(
        &self,
        ctx: &Ctx,
        game: GameNo,
        seq: u32,
        choice: usize,
    ) -> Handled<Reply> {
        let loaded = self.load(ctx, game).await?;
        let fresh = loaded.record.seq == seq && self.check_turn(ctx, &loaded).is_ok();
        if let Some(reply) = self.repeated(ctx, &loaded, fresh).await? {
            return Ok(reply);
        }
        if loaded.record.status != GameStatus::Active {
            return Err(UserError::GameOver(game).into());
        }
        if loaded.record.seq != seq {
            return Self::stale(&loaded);
        }
        let lines = loaded.state.legal_lines();
        let Some(line) = lines.get(choice) else {
            return Err(UserError::NoSuchChoice.into());
        };
        let line = line.clone();
        self.apply(ctx, loaded, &line).await
    }

    pub(super) async fn press_piece(
        &self,
        ctx: &Ctx,
        game: GameNo,
        seq: u32,
        group: usize,
    ) -> Handled<Reply> {
        let loaded = self.load(ctx, game).await?;
        if loaded.record.seq != seq {
            return Self::stale(&loaded);
        }
        self.check_turn(ctx, &loaded)?;
        let lines = loaded.state.legal_lines();
        let groups = piece_groups(&lines);
        let Some((piece, members)) = groups.get(group) else {
            return Err(UserError::NoSuchChoice.into());
        };
        let (id, seq) = (loaded.record.id, loaded.record.seq);
        // As many of the piece's moves as the platforms show, keeping room for All moves (the
        // rest are typed, as the note under them says).
        let room = super::limits::MAX_ROWS * super::limits::MAX_ROW - 1;
        let mut buttons = members
            .iter()
            .take(room)
            .map(|&i| move_button(loaded.record.game, &lines[i], format!("m{id}.{seq}.{i}")))
            .collect::<Vec<_>>();
        buttons.push(said_button(
            Msg::new("button-all-moves"),
            format!("u{id}.{seq}"),
        ));
        // The board itself shows the piece's moves (issue 37): edited in place, in the chat's
        // language, so that the game keeps one message with move buttons.
        let mut spans = Vec::new();
        spans.push(Span::Msg(
            Msg::new("moves-of-piece")
                .text("game", format!("#{id}"))
                .text("piece", piece.clone()),
        ));
        spans.push(Span::Text("\n".into()));
        if members.len() > room {
            spans.push(Span::Msg(
                Msg::new("more-buttons").count("count", members.len() - room),
            ));
            spans.push(Span::Text("\n".into()));
        }
        let mut board = self.board_in_place(&loaded, spans).await?;
        board.buttons = rows(buttons);
        Ok(board)
    }

    /// The All moves button under a piece's moves (`u<game>.<seq>`): the board shows every
    /// move again, edited in place.
    pub(super) async fn press_all_moves(
        &self,
        ctx: &Ctx,
        game: GameNo,
        seq: u32,
    ) -> Handled<Reply> {
        let loaded = self.load(ctx, game).await?;
        if loaded.record.seq != seq {
            return Self::stale(&loaded);
        }
        self.check_turn(ctx, &loaded)?;
        self.board_in_place(&loaded, Vec::new()).await
    }

    /// The game's board as an edit of the pressed board: its text (after `spans`) and buttons,
    /// the picture left as it is, notifying nobody, recorded as no new board.
    async fn board_in_place(&self, loaded: &Loaded, spans: Vec<Span>) -> Handled<Reply> {
        let board = self.board_reply(loaded, spans).await?;
        Ok(Reply {
            placement: Placement::UpdatePressed,
            picture: None,
            board_seq: None,
            notify: Vec::new(),
            ..board
        })
    }

    pub(super) async fn make_move(&self, ctx: &Ctx, game: GameNo, text: &str) -> Handled<Reply> {
        let loaded = self.load(ctx, game).await?;
        let fresh = self.check_turn(ctx, &loaded).is_ok();
        if let Some(reply) = self.repeated(ctx, &loaded, fresh).await? {
            return Ok(reply);
        }
        self.apply(ctx, loaded, text).await
    }

    /// The answer to a move request that was already applied: the current board. A `fresh`
    /// request (its sender is to move on the board it was made for) is not looked up: if it
    /// was a repeat after all, the append refuses its key in the same transaction, and
    /// [`Service::apply`] answers the same way. Every other request is looked up before it is
    /// refused, so that a re-delivered move is not answered "not your turn".
    pub(super) async fn repeated(
        &self,
        ctx: &Ctx,
        current: &Loaded,
        fresh: bool,
    ) -> Handled<Option<Reply>> {
        if fresh || !self.store.request_handled(&ctx.key).await? {
            return Ok(None);
        }
        let spans = vec![
            Span::Msg(Msg::new("already-handled")),
            Span::Text("\n".into()),
        ];
        self.board_reply(current, spans)
            .await
            .map(|reply| Some(reply.as_note().of_kind(Kind::AlreadyHandled).to_actor()))
    }

    pub(super) fn check_turn(&self, ctx: &Ctx, loaded: &Loaded) -> Handled<()> {
        let game = loaded.record.id;
        if loaded.record.status != GameStatus::Active {
            return Err(UserError::GameOver(game).into());
        }
        let seat = match loaded.state.status() {
            Status::Decision(seat) => seat,
            Status::Done(_) => return Err(UserError::GameOver(game).into()),
            Status::Chance => return Err(UserError::NoMoveNow(game).into()),
        };
        if !loaded.record.is_seated(ctx.user.id) {
            return Err(UserError::NotAPlayer(game).into());
        }
        match holder(&loaded.record, seat) {
            Some(user) if user.id == ctx.user.id => Ok(()),
            Some(user) => Err(UserError::NotYourTurn {
                game,
                name: (!is_computer(user)).then(|| user.display_name.clone()),
                seat: seat_label(loaded.record.game, seat.0),
            }
            .into()),
            None => {
                Err(ServiceError::Corrupt(format!("game {game}: seat {} empty", seat.0)).into())
            }
        }
    }

    pub(super) async fn apply(&self, ctx: &Ctx, loaded: Loaded, text: &str) -> Handled<Reply> {
        self.check_turn(ctx, &loaded)?;
        let mut state = loaded.state.clone();
        let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
        if text.starts_with("roll:") {
            return Err(UserError::NoRolling.into());
        }
        let seat = match state.status() {
            Status::Decision(seat) => Some(seat),
            _ => None,
        };
        let applied = state.apply_text(&text).map_err(UserError::Illegal)?;
        let mut played = Played::default();
        played.push(applied, Some(ctx.user.id), seat);
        self.resolve_chance(&loaded.record, loaded.rolls, &mut state, &mut played)?;
        let mut record = loaded.record.clone();
        let seq = record.seq + u32::try_from(played.actions.len()).unwrap_or(u32::MAX);
        let change = Change::Move {
            game: record.id,
            from: record.seq,
            seq,
        };
        // A press that hands the turn to the computer posts no board of its own: the
        // computer's board tells this move with its answer, one board for both (issue 37);
        // the presser's toast says so. Nothing to announce either: after a crash the computer
        // moves and tells both all the same.
        let computer_next = matches!(
            state.status(),
            Status::Decision(next) if holder(&record, next).is_some_and(is_computer)
        );
        let deferred = computer_next && ctx.typed.is_none();
        let pending = if deferred {
            None
        } else {
            self.pending_announcement(change, ctx.pressed.as_deref())
        };
        let announce = pending.as_ref().map(|pending| pending.as_announce());
        let appended = self
            .append_played(
                &mut record,
                &state,
                &played,
                Some(&ctx.key),
                announce.as_ref(),
                ctx.now,
            )
            .await;
        match appended {
            Ok((_, _)) if deferred => {
                self.wake_computer();
                Ok(Reply {
                    audience: Audience::Actor,
                    game: Some(record.id),
                    spans: vec![Span::Msg(
                        Msg::new("toast-played-computer")
                            .msg("move", move_msg(record.game, &text))
                            .text("game", format!("#{}", record.id)),
                    )],
                    ..Reply::default()
                })
            }
            Ok((consequences, announced)) => {
                // One sentence per event, the mover's first, then the rolls after it.
                let mut spans = played_spans(&record, &played, Some(&consequences));
                spans.extend(self.debt_spans(&record, &consequences).await?);
                spans.push(Span::Text("\n".into()));
                let new = Loaded {
                    record,
                    state,
                    rolls: loaded.rolls + played.rolls(),
                    recent: super::followed(loaded.recent.clone(), played.recent),
                    moved: true,
                };
                let mut reply = self.board_reply(&new, spans).await?;
                reply.announced = announced;
                // Who acts again is looking already (a Pachisi throw, then its move; a throw
                // again after a grace): their turn pings them once, when it begins.
                if let Status::Decision(next) = new.state.status()
                    && holder(&new.record, next).is_some_and(|user| user.id == ctx.user.id)
                {
                    reply
                        .notify
                        .retain(|person| *person != ctx.user.platform_user_id);
                }
                if ctx.pressed.is_some()
                    && let Some(seat) = seat
                {
                    reply.pressed_then = vec![Span::Msg(super::announce::board_then(
                        &new.record,
                        &ctx.user,
                        seat.0,
                        &text,
                    ))];
                }
                reply.toast = vec![Span::Msg(
                    Msg::new("toast-played")
                        .msg("move", move_msg(new.record.game, &text))
                        .text("game", format!("#{}", new.record.id)),
                )];
                Ok(reply)
            }
            Err(StoreError::Conflict(Conflict::Duplicate)) => {
                let current = self.load(ctx, loaded.record.id).await?;
                let spans = vec![
                    Span::Msg(Msg::new("already-handled")),
                    Span::Text("\n".into()),
                ];
                self.board_reply(&current, spans)
                    .await
                    .map(|reply| reply.as_note().of_kind(Kind::AlreadyHandled).to_actor())
            }
            Err(StoreError::Conflict(Conflict::StaleSeq { .. })) => {
                let current = self.load(ctx, loaded.record.id).await?;
                Self::stale(&current)
            }
            Err(StoreError::Conflict(Conflict::GameOver { game, .. })) => {
                Err(UserError::GameOver(game).into())
            }
            Err(other) => Err(other.into()),
        }
    }

    /// Rolls while the state is at a chance node, adding the rolls to `played`: derived from
    /// the game's committed seed when it has one (`rolls` is how many rolls its log already
    /// holds), else drawn.
    pub(super) fn resolve_chance(
        &self,
        record: &GameRecord,
        rolls: u64,
        state: &mut AnyGame,
        played: &mut Played,
    ) -> Result<(), ServiceError> {
        let mut k = rolls;
        while state.status() == Status::Chance {
            let outcomes: Vec<(String, u64)> = state
                .chance_outcomes()
                .into_iter()
                .map(|(roll, weight)| (roll, u64::from(weight)))
                .collect();
            let roll = match &record.dice {
                Some(dice) => committed_roll(dice, record.id, k, &outcomes)?,
                None => self.dice.pick(&outcomes)?,
            };
            k += 1;
            let applied = state
                .apply_text(&roll)
                .map_err(|e| ServiceError::Corrupt(format!("roll {roll}: {e}")))?;
            // The roll is for the seat that acts next (Coan Ki's thrower).
            let seat = match state.status() {
                Status::Decision(seat) => Some(seat),
                _ => None,
            };
            played.push(applied, None, seat);
        }
        Ok(())
    }

    /// Appends what was played (compare-and-set on the record's `seq`) with its consequences:
    /// the result, the next player's clock, fines, and the settlement of the pot. On success
    /// the record is brought up to date.
    pub(super) async fn append_played(
        &self,
        record: &mut GameRecord,
        state: &AnyGame,
        played: &Played,
        request: Option<&RequestKey>,
        announce: Option<&Announce<'_>>,
        now: Timestamp,
    ) -> Result<(Consequences, Option<OutboxId>), StoreError> {
        let consequences = consequences(record, state, &played.penalties, now);
        let append = Append {
            expected_seq: record.seq,
            actions: &played.actions,
            request,
            finish: consequences.finish.as_deref(),
            snapshot: None,
            turn: consequences.turn,
            fines: &consequences.fines,
            payout: consequences.payout.as_ref(),
            // The ratings, when it ends, as of the service's clock.
            rated_at: Some(now),
        };
        let appended = match announce {
            Some(announce) => {
                self.store
                    .append_actions_announced(record.id, &append, announce)
                    .await?
            }
            None => self.store.append_actions(record.id, &append).await?,
        };
        crate::metrics::metrics().moves(
            record.game.as_str(),
            u64::try_from(played.actions.len()).unwrap_or(u64::MAX),
        );
        record.seq = appended.seq;
        record.clock = appended.clock;
        record.updated_at = appended.at;
        if consequences.finish.is_some() {
            record.status = GameStatus::Finished;
            record.result.clone_from(&consequences.finish);
            record.settled_at = Some(now);
        }
        Ok((consequences, appended.announced))
    }

    /// The answer to a press on an old board of `current`: how far the game is, for the presser
    /// alone and without buttons (Telegram's toast), so that nothing is posted in the chat.
    pub(super) fn stale(current: &Loaded) -> Handled<Reply> {
        let record = &current.record;
        let game = format!("#{}", record.id);
        let holder = match current.state.status() {
            Status::Decision(seat) => holder(record, seat),
            _ => None,
        };
        let msg = match holder {
            Some(user) => Msg::new("board-old")
                .text("game", game)
                .msg("name", super::narration::name_msg(user)),
            None => Msg::new("board-old-moved").text("game", game),
        };
        Ok(Reply {
            audience: Audience::Actor,
            kind: Kind::Stale,
            game: Some(record.id),
            spans: vec![Span::Msg(msg)],
            ..Reply::default()
        })
    }

    /// Resigns the actor's side of `loaded` (its question confirmed: `confirm.rs`).
    pub(super) async fn resign(&self, ctx: &Ctx, loaded: Loaded) -> Handled<Reply> {
        let game = loaded.record.id;
        if loaded.record.status != GameStatus::Active {
            return Err(UserError::GameOver(game).into());
        }
        let id = loaded.record.game;
        let Some(mine) = loaded
            .record
            .seats
            .iter()
            .find(|h| h.user.id == ctx.user.id)
        else {
            return Err(UserError::NotAPlayer(game).into());
        };
        let my_team = team_of(id, mine.seat);
        let winner = loaded
            .record
            .seats
            .iter()
            .map(|h| team_of(id, h.seat))
            .find(|&t| t != my_team)
            .unwrap_or(my_team);
        let result = format!("winner {} (resigned)", team_name(id, winner));
        let winners = team_users(&loaded.record, winner);
        let (record, announced) = self
            .end_game_announcing(
                ctx,
                &loaded.record,
                &Ending::win(&result, winners.clone(), ctx.user.id),
            )
            .await?;
        let cause = team_cause(&record, my_team, Did::Resigned);
        self.ended_board(loaded, &record, Verdict::Winner(winner), cause, announced)
            .await
    }

    /// Ends a game for the request of `ctx` ([`Store::end_game_once`]), writing its
    /// announcement in the same transaction when the service writes them.
    pub(super) async fn end_game_announcing(
        &self,
        ctx: &Ctx,
        record: &GameRecord,
        ending: &Ending<'_>,
    ) -> Result<(GameRecord, Option<OutboxId>), StoreError> {
        let pressed = ctx.pressed.as_deref();
        // Its ratings, if it is rated, as of the service's clock.
        let ending = &Ending {
            rated_at: ending.rated_at.or(Some(ctx.now)),
            ..ending.clone()
        };
        let change = Change::End {
            game: record.id,
            seq: record.seq,
        };
        match self.pending_announcement(change, pressed) {
            Some(pending) => {
                let (record, row) = self
                    .store
                    .end_game_announced(record.id, ending, &ctx.key, &pending.as_announce())
                    .await?;
                Ok((record, Some(row)))
            }
            None => Ok((
                self.store
                    .end_game_once(record.id, ending, &ctx.key)
                    .await?,
                None,
            )),
        }
    }

    pub(super) async fn games(&self, ctx: &Ctx) -> Handled<Reply> {
        let all = self.store.active_games_in_chat(ctx.chat.id).await?;
        if all.is_empty() {
            return Err(UserError::NoGame.into());
        }
        let (mut mine, others): (Vec<GameRecord>, Vec<GameRecord>) =
            all.into_iter().partition(|g| g.is_seated(ctx.user.id));
        mine.extend(others);
        let mut spans = vec![Span::Msg(Msg::new("games-here"))];
        let mut buttons = Vec::new();
        for record in mine {
            let id = record.game;
            // Each side is a team with its people ("Bob and Dana (South and North)"), written
            // plainly: a list should not call everyone in it.
            let names = |users: &[UserId], max: usize| -> Msg {
                let names = users
                    .iter()
                    .filter_map(|user| super::seated(&record, *user))
                    .map(|user| Msg::new("person").msg("person", short_name(user, max)))
                    .collect();
                Msg::list(names, "people-and", "people-and")
            };
            let sides = (0..2u8).map(|team| {
                Msg::new("games-side")
                    .msg("name", names(&team_users(&record, team), 40))
                    .msg("seats", seat_msg(team_label(id, team)))
            });
            let sides_msg = Msg::list(sides.collect(), "games-versus", "games-versus");
            let turn = match self.load(ctx, record.id).await {
                Ok(loaded) => match loaded.state.status() {
                    Status::Decision(seat) => Msg::new("games-to-move").msg(
                        "who",
                        holder(&loaded.record, seat).map_or_else(
                            || seat_msg(seat_label(id, seat.0)),
                            |user| Msg::new("person").msg("person", short_name(user, 40)),
                        ),
                    ),
                    Status::Chance => Msg::new("games-rolling"),
                    Status::Done(_) => Msg::new("games-over"),
                },
                Err(_) => Msg::new("games-unreadable"),
            };
            spans.push(Span::Text("\n".into()));
            spans.push(Span::Msg(
                Msg::new("games-line")
                    .text("game", format!("#{}", record.id))
                    .msg("name", game_msg(id))
                    .msg("sides", sides_msg)
                    .msg("turn", turn),
            ));
            // The button names the game and, for the caller's own games, the opponents, and the
            // partners where a side has several people ("with Alice, against Bob and Dana").
            let mine = record
                .seats
                .iter()
                .find(|holder| holder.user.id == ctx.user.id)
                .map(|holder| team_of(id, holder.seat));
            let label = match mine {
                Some(team) => {
                    let partners: Vec<UserId> = team_users(&record, team)
                        .into_iter()
                        .filter(|user| *user != ctx.user.id)
                        .collect();
                    let others = team_users(&record, 1 - team);
                    if partners.is_empty() {
                        Msg::new("games-button-mine").msg("others", names(&others, 16))
                    } else {
                        Msg::new("games-button-team")
                            .msg("partners", names(&partners, 16))
                            .msg("others", names(&others, 16))
                    }
                }
                None => Msg::new("games-button").msg(
                    "others",
                    Msg::list(
                        (0..2u8)
                            .map(|team| names(&team_users(&record, team), 16))
                            .collect(),
                        "games-versus",
                        "games-versus",
                    ),
                ),
            }
            .text("game", format!("#{}", record.id))
            .msg("name", game_msg(id));
            buttons.push(said_button(label, format!("b{}", record.id)));
        }
        Ok(Reply {
            spans,
            buttons: rows(buttons),
            ..Reply::default()
        })
    }
}

/// A player's name in a list, at most `max` characters (the computer's in the chat's
/// language).
fn short_name(user: &User, max: usize) -> Msg {
    if is_computer(user) {
        Msg::new("computer-name")
    } else {
        Msg::new("verbatim").text("text", brief_to(&user.display_name, max))
    }
}

/// The consequences of reaching `state` by actions whose rules imposed `penalties`.
pub(super) fn consequences(
    record: &GameRecord,
    state: &AnyGame,
    penalties: &[(Seat, Seat)],
    now: Timestamp,
) -> Consequences {
    let finish = finish_text(state);
    let turn = match state.status() {
        Status::Decision(seat) => holder(record, seat).map(|user| TurnStart {
            user: user.id,
            at: now,
        }),
        _ => None,
    };
    // Coan Ki's double one: 10% of the stake to the opponent (coan-ki.md section 13).
    let fine = if record.game == GameId::CoanKi {
        record.stake / 10
    } else {
        0
    };
    let fines = if fine > 0 {
        penalties
            .iter()
            .filter_map(|&(payer, payee)| {
                let (payer, payee) = (holder(record, payer)?, holder(record, payee)?);
                (payer.id != payee.id).then_some(Fine {
                    payer: payer.id,
                    payee: payee.id,
                    amount: fine,
                })
            })
            .collect()
    } else {
        Vec::new()
    };
    let payout = match state.status() {
        Status::Done(Outcome::Winner(team)) => Some(Payout::Winners(team_users(record, team.0))),
        Status::Done(Outcome::Draw) => Some(Payout::Refund),
        _ => None,
    };
    Consequences {
        finish,
        turn,
        fines,
        payout,
    }
}

pub(super) fn finish_text(state: &AnyGame) -> Option<String> {
    matches!(state.status(), Status::Done(_)).then(|| state.status_line())
}

/// The k-th roll of a game with committed dice: derived from its seed ([`crate::export`]).
fn committed_roll(
    dice: &crate::store::GameDice,
    game: GameNo,
    k: u64,
    outcomes: &[(String, u64)],
) -> Result<String, ServiceError> {
    let seed = crate::export::Seed::from_hex(&dice.seed)
        .ok_or_else(|| ServiceError::Corrupt(format!("game {game}: its dice seed is not hex")))?;
    let weights: Vec<u64> = outcomes.iter().map(|(_, weight)| *weight).collect();
    crate::export::derive_roll(&seed, &dice.salt(game), k, &weights)
        .and_then(|index| outcomes.get(index))
        .map(|(roll, _)| roll.clone())
        .ok_or_else(|| ServiceError::Dice("weights do not add up".into()))
}

/// How many rolls a log holds.
pub(super) fn rolls_in(actions: &[crate::store::ActionRecord]) -> u64 {
    actions
        .iter()
        .filter(|action| action.action.starts_with("roll:"))
        .count() as u64
}
