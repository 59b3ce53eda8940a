//! Routing: a request is checked, its user and chat are looked up, and its command or button
//! goes to the concern that handles it.

use tracing::Instrument;

use super::confirm::{Answer, Asked};
use super::{
    Address, Audience, Button, Ctx, Failure, Handled, Input, Kind, Placement, Reply, Request,
    Service, ServiceError, UserError, error_chain, limits, said_button, sorry, spans_reply, text,
};
use crate::commands::{self, CommandId, Parse, ParsedCommand};
use crate::l10n::{Lang, Msg, Person, Span};
use crate::metrics::Outcome;
use crate::store::{
    ChallengeNo, Chat, Conflict, GameNo, MovedChat, Platform, RequestKey, Settlement, Timestamp,
    User, UserId,
};

impl Service {
    /// Handles one request. `None`: the request gets no answer and nothing changed: it is not
    /// for the bot (ordinary chat text, a command addressed to another bot), or it was refused
    /// while its sender is cooling down after too many refusals (see [`Cooldown`]). An adapter
    /// still acknowledges a button press silently (see `contract.rs`).
    ///
    /// # Errors
    /// Internal failures only; everything a user did wrong is answered in the reply.
    pub async fn handle(&self, request: &Request) -> Result<Option<Reply>, ServiceError> {
        let span = tracing::info_span!(
            "request",
            platform = %request.platform,
            chat = %request.chat.0,
            user = %request.actor.id,
            key = %request.request_key,
        );
        let started = std::time::Instant::now();
        // Commands are read by the one catalogue: what is not for us gets no answer.
        let parsed = match &request.input {
            Input::Command(text) => match commands::parse(text, request.bot_username.as_deref()) {
                Parse::NotForUs => return Ok(None),
                parsed => Some(parsed),
            },
            Input::Button(_) => None,
        };
        let command = match &parsed {
            None => "button",
            Some(Parse::Command(command)) => command.spec.name,
            Some(Parse::Invalid { command, .. }) => command.name,
            Some(Parse::Unknown { .. } | Parse::NotForUs) => "unknown",
        };
        let result = self
            .handle_inner(request, parsed)
            .instrument(span.clone())
            .await;
        let outcome = match &result {
            Err(error) => {
                let _entered = span.enter();
                tracing::error!(error = %error_chain(error), "internal failure");
                Some(Outcome::failed)
            }
            Ok(None) => None,
            Ok(Some(reply)) => Some(match reply.kind {
                Kind::Refused(_) | Kind::AlreadyHandled | Kind::Stale => Outcome::refused,
                Kind::Done => Outcome::done,
            }),
        };
        if let Some(outcome) = outcome {
            crate::metrics::metrics().request(
                request.platform.as_str(),
                command,
                outcome,
                started.elapsed(),
            );
        }
        result
    }

    async fn handle_inner(
        &self,
        request: &Request,
        parsed: Option<Parse>,
    ) -> Result<Option<Reply>, ServiceError> {
        let ctx = self.ctx_of(request).await?;
        let result = match (&request.input, parsed) {
            (Input::Command(_), Some(parsed)) => self.command(&ctx, parsed).await,
            (Input::Button(data), _) => self.button(&ctx, data).await,
            (Input::Command(_), None) => return Ok(None),
        };
        let address = Address {
            platform: request.platform,
            chat: request.chat.0.clone(),
            thread: request.thread.clone(),
        };
        match result {
            Ok(mut reply) => {
                reply.address = address;
                if reply.placement == Placement::NewBoard && reply.pressed.is_none() {
                    reply.pressed.clone_from(&request.pressed);
                }
                if let Some(row) = reply.announced {
                    self.keep_holding(row);
                }
                let lang = ctx.lang_for(reply.audience);
                reply.localize(lang);
                limits::fit(&mut reply, lang);
                Ok(Some(reply))
            }
            Err(Failure::User(UserError::Conflict(Conflict::Duplicate))) => {
                let mut reply = Reply {
                    address,
                    audience: Audience::Actor,
                    kind: Kind::AlreadyHandled,
                    spans: vec![Span::Msg(Msg::new("already-handled"))],
                    ..Reply::default()
                };
                reply.localize(ctx.lang);
                Ok(Some(reply))
            }
            Err(Failure::User(error)) => {
                // A flood of mistakes goes quiet (see `cooldown.rs`).
                if let Some(cooldown) = &self.cooldown
                    && !cooldown.answer_refusal((request.platform, &request.actor.id), ctx.now)
                {
                    tracing::debug!(refusal = %error, "not answered: cooling down");
                    return Ok(None);
                }
                let mut reply = Reply {
                    address,
                    audience: Audience::Actor,
                    spans: vec![Span::Msg(sorry(&error))],
                    kind: Kind::Refused(error),
                    ..Reply::default()
                };
                reply.localize(ctx.lang);
                limits::fit(&mut reply, ctx.lang);
                Ok(Some(reply))
            }
            Err(Failure::Internal(error)) => Err(error),
        }
    }

    /// Who sent a request, where and when: its chat and user, looked up (and made on first
    /// sight).
    pub(super) async fn ctx_of(&self, request: &Request) -> Result<Ctx, ServiceError> {
        let chat = self.chat_of(request).await?;
        let user = self.user_of(request.platform, &request.actor).await?;
        let (own, community) = self.store.languages(user.id, chat.community).await?;
        // A direct chat with the bot (Telegram's private chat has the person's id) is
        // private: it speaks the person's language unless the community chose one.
        let chat_lang = if community.is_none() && request.chat.0 == request.actor.id {
            Lang::choose(own.as_deref(), request.locale.as_deref(), None)
        } else {
            Lang::choose(community.as_deref(), request.chat_locale.as_deref(), None)
        };
        if let Ok(mut langs) = self.chat_langs.lock() {
            if langs.len() >= CHAT_LANGS {
                langs.clear();
            }
            langs.insert(chat.id, chat_lang);
        }
        Ok(Ctx {
            lang: Lang::choose(
                own.as_deref(),
                request.locale.as_deref(),
                community.as_deref(),
            ),
            chat_lang,
            locale: request.locale.clone(),
            community_language: community,
            chat,
            user,
            key: RequestKey {
                platform: request.platform,
                key: request.request_key.clone(),
            },
            nonce: request.nonce.clone(),
            private_chat: request.private_chat.clone(),
            threads: request.threads,
            thread: request.thread.clone(),
            pressed: request.pressed.clone(),
            moderator: request.moderator,
            group: request.group,
            mentions: request.mentions.clone(),
            now: self.clock.now(),
            typed: match &request.input {
                Input::Command(text) => Some(text.clone()),
                Input::Button(_) => None,
            },
        })
    }

    /// A chat's platform id changed (Telegram: a group became a supergroup, and the update
    /// says `migrate_to_chat_id`): the chat `old`, its topics (`old:<thread>`) and its
    /// community take the id `new`, with everything in them (see [`Store::move_chat`]). The
    /// adapter calls this once per migration; a repeated call finds nothing to move.
    ///
    /// # Errors
    /// Internal failures (the database); then nothing is moved.
    pub async fn chat_moved(
        &self,
        platform: Platform,
        old: &str,
        new: &str,
    ) -> Result<MovedChat, ServiceError> {
        let moved = self.store.move_chat(platform, old, new).await?;
        self.seen.forget_chats(platform, &[old, new]);
        tracing::info!(
            %platform,
            chats = moved.chats.len(),
            merged_chats = moved.merged_chats,
            merged_community = moved.merged_community,
            "chat moved"
        );
        Ok(moved)
    }

    /// The chat of a request, from the cache of recently seen chats or the store.
    async fn chat_of(&self, request: &Request) -> Result<Chat, ServiceError> {
        // Freshness of the remembered rows is judged by the store's clock, which wrote them.
        let seen_now = Timestamp::now();
        let chat_key = (request.platform, request.chat.0.clone());
        let community = request
            .community
            .as_ref()
            .map(|(id, name)| (id.as_str(), name.as_str()));
        if let Some(chat) = self
            .seen
            .chat(&chat_key, &request.chat.1, community, seen_now)
        {
            return Ok(chat);
        }
        let chat = self
            .store
            .upsert_chat(
                request.platform,
                &request.chat.0,
                &request.chat.1,
                community,
            )
            .await?;
        self.seen.remember_chat(chat_key, &chat);
        Ok(chat)
    }

    /// The user row of a person the platform identified, from the cache or the store.
    pub(super) async fn user_of(
        &self,
        platform: Platform,
        person: &Person,
    ) -> Result<User, ServiceError> {
        let seen_now = Timestamp::now();
        let user_key = (platform, person.id.clone());
        // Display names and usernames are capped: a name is shown, never a wall of text.
        let name = cap(&person.name, MAX_NAME_CHARS);
        let username = person.username.as_deref().map(|u| cap(u, MAX_NAME_CHARS));
        if let Some(user) = self
            .seen
            .user(&user_key, &name, username.as_deref(), seen_now)
        {
            return Ok(user);
        }
        let user = self
            .store
            .upsert_user_with_username(platform, &person.id, &name, username.as_deref())
            .await?;
        self.seen.remember_user(user_key, &user);
        Ok(user)
    }

    /// A typed command, as the catalogue read it: its arguments have been checked and typed
    /// by the catalogue (mentions, numbers, durations, repeated options, the game's name), and
    /// each concern reads the typed values it needs.
    pub(super) async fn command(&self, ctx: &Ctx, parsed: Parse) -> Handled<Reply> {
        let command = match parsed {
            Parse::Command(command) => command,
            Parse::Unknown { name } => {
                return Err(UserError::UnknownCommand(crate::l10n::quote(&name)).into());
            }
            Parse::Invalid { command, error } => {
                return Err(UserError::BadArguments {
                    command: command.id,
                    error,
                }
                .into());
            }
            Parse::NotForUs => return Err(UserError::NotACommand.into()),
        };
        let id = command.id();
        let result = self.command_of(ctx, command).await;
        // A command about a game that does not say which, in a chat of several: a button per
        // game, each running the command for its game.
        if let Err(Failure::User(UserError::WhichGame(..))) = &result
            && let Some(index) = PICKABLE.iter().position(|c| *c == id)
        {
            return self.which_game(ctx, index).await;
        }
        result
    }

    /// The reply to "which game?" for the command [`PICKABLE`]`[index]`: one button per
    /// candidate game.
    async fn which_game(&self, ctx: &Ctx, index: usize) -> Handled<Reply> {
        let games = self.candidate_games(ctx).await?;
        let name = commands::spec(PICKABLE[index]).name;
        let example = games
            .first()
            .map(|g| ctx.with_number(g.id.0, &format!("/{name}")))
            .unwrap_or_default();
        let buttons = games
            .iter()
            .map(|g| {
                said_button(
                    Msg::new("button-game")
                        .text("game", format!("#{}", g.id))
                        .msg("name", super::game_msg(g.game)),
                    format!("g{}.{index}", g.id),
                )
            })
            .collect::<Vec<_>>()
            .chunks(2)
            .map(<[Button]>::to_vec)
            .collect();
        Ok(Reply {
            spans: vec![Span::Msg(
                Msg::new("which-game-pick")
                    .text("command", format!("/{name}"))
                    .text("example", example),
            )],
            buttons,
            ..Reply::default()
        }
        .to_actor())
    }

    /// A press of a game's button under "which game?": the command for that game, as if typed
    /// with its number.
    async fn picked_game(&self, ctx: &Ctx, game: i64, index: i64) -> Handled<Reply> {
        let command = usize::try_from(index)
            .ok()
            .and_then(|index| PICKABLE.get(index))
            .ok_or(UserError::BadButton)?;
        let text = format!("/{} #{game}", commands::spec(*command).name);
        let Parse::Command(parsed) = commands::parse(&text, None) else {
            return Err(UserError::BadButton.into());
        };
        let mut reply = self.command_of(ctx, parsed).await?;
        // The question is answered: the picker loses its buttons once the answer is shown.
        if reply.placement == Placement::New && reply.pressed.is_none() {
            reply.pressed.clone_from(&ctx.pressed);
        }
        Ok(reply)
    }

    /// Runs a parsed command.
    async fn command_of(&self, ctx: &Ctx, command: ParsedCommand) -> Handled<Reply> {
        let number = command.game_number.map(GameNo);
        let challenge = command.game_number.map(ChallengeNo);
        match command.id() {
            CommandId::Play => self.play(ctx, &command).await,
            CommandId::Accept => self.settle(ctx, challenge, Settlement::Accept).await,
            CommandId::Decline => self.settle(ctx, challenge, Settlement::Decline).await,
            CommandId::Cancel => self.settle(ctx, challenge, Settlement::Cancel).await,
            CommandId::Move => {
                let game = self.pick_game(ctx, number, true).await?;
                match command.text.as_deref().filter(|text| !text.is_empty()) {
                    Some(text) => self.make_move(ctx, game, text).await,
                    // `/move` alone: the legal moves, and the board again with a button for
                    // each.
                    None => {
                        let loaded = self.load(ctx, game).await?;
                        let mut spans = text::moves(&loaded.record, &loaded.state);
                        spans.push(Span::Text("\n".into()));
                        self.board_reply(&loaded, spans).await.map(Reply::as_look)
                    }
                }
            }
            CommandId::Board => {
                let game = self.pick_game_to_look(ctx, number).await?;
                let loaded = self.load(ctx, game).await?;
                self.board_reply(&loaded, Vec::new())
                    .await
                    .map(Reply::as_look)
            }
            CommandId::Moves => {
                let game = self.pick_game_to_look(ctx, number).await?;
                let loaded = self.load(ctx, game).await?;
                Ok(spans_reply(text::moves(&loaded.record, &loaded.state))
                    .about(game)
                    .to_actor())
            }
            CommandId::History => {
                let game = self.pick_game_to_look(ctx, number).await?;
                Ok(self.history_page(ctx, game, None).await?.to_actor())
            }
            CommandId::Export => {
                let game = self.pick_game_to_look(ctx, number).await?;
                self.export(ctx, game).await
            }
            CommandId::Replay => {
                let game = self.pick_game_to_look(ctx, number).await?;
                self.replay(ctx, game).await
            }
            CommandId::Resign => {
                // Asked first (see `confirm.rs`); the press resigns. Never guessed among
                // several games, not even the one where the person is to move: which one is
                // asked with a button per game.
                self.not_repeated(ctx).await?;
                let game = self.pick_game(ctx, number, false).await?;
                self.ask_resign(ctx, game).await
            }
            CommandId::Draw => {
                // Never guessed among several games: which one is asked with a button each.
                let game = self.pick_game(ctx, number, false).await?;
                self.offer_draw(ctx, game).await
            }
            CommandId::Takeback => {
                let game = self.pick_game(ctx, number, false).await?;
                self.ask_takeback(ctx, game).await
            }
            CommandId::Games => self.games(ctx).await,
            CommandId::Wallet => self.wallet(ctx).await,
            CommandId::Leaderboard => match command.game {
                // By rating in one game; without one, the richest.
                Some(game) => self.rating_leaderboard(ctx, game).await,
                None => self.leaderboard(ctx).await,
            },
            CommandId::Grant => self.adjust(ctx, &command, false).await,
            CommandId::Take => self.adjust(ctx, &command, true).await,
            CommandId::Config => self.config(ctx, &command.settings).await,
            CommandId::Abort => {
                self.not_repeated(ctx).await?;
                let game = self.pick_game(ctx, number, false).await?;
                // A player is asked first (see `confirm.rs`); a moderator aborting a game
                // they do not play in is not.
                let seated = self
                    .store
                    .game(game)
                    .await?
                    .is_some_and(|record| record.is_seated(ctx.user.id));
                if seated {
                    self.ask_abort(ctx, game).await
                } else {
                    self.abort(ctx, game, command.text.as_deref().unwrap_or_default())
                        .await
                }
            }
            CommandId::Claim => {
                self.not_repeated(ctx).await?;
                let game = self.pick_game(ctx, number, false).await?;
                self.claim(ctx, game).await
            }
            CommandId::Vacation => self.vacation(ctx, command.integer("days")).await,
            CommandId::Language => self.language(ctx, command.text.as_deref()).await,
            CommandId::Notify => self.notify(ctx, command.text.as_deref()).await,
            CommandId::MyGames => self.my_games(ctx, 0).await,
            CommandId::Link => self.link(ctx, command.text.as_deref()).await,
            CommandId::Unlink => self.unlink(ctx).await,
            CommandId::Rating => self.rating(ctx, command.game).await,
            CommandId::Stats => self.stats(ctx).await,
            CommandId::ResetRating => self.reset_rating(ctx, command.game).await,
            CommandId::Season => self.season_command(ctx, &command).await,
            CommandId::Rules => match command.game {
                None => Err(UserError::Usage(CommandId::Rules).into()),
                Some(id) => Ok(spans_reply(vec![Span::Msg(text::rules(id))]).to_actor()),
            },
            CommandId::Help => {
                // Discord registers the commands' names only, not their aliases.
                let aliases = ctx.chat.platform != Platform::Discord;
                let help = command
                    .topic
                    .and_then(|topic| commands::help_for(topic.name, aliases))
                    .unwrap_or_else(|| commands::help(aliases));
                if command.greeting {
                    return Ok(spans_reply(vec![
                        Span::Msg(text::greeting(ctx.group)),
                        Span::Text("\n\n".to_string()),
                        Span::Msg(help),
                    ])
                    .to_actor());
                }
                Ok(spans_reply(vec![Span::Msg(help)]).to_actor())
            }
        }
    }

    pub(super) async fn button(&self, ctx: &Ctx, data: &str) -> Handled<Reply> {
        let mut chars = data.chars();
        let kind = chars.next().ok_or(UserError::BadButton)?;
        let fields: Vec<i64> = chars
            .as_str()
            .split('.')
            .map(str::parse)
            .collect::<Result<_, _>>()
            .map_err(|_| UserError::BadButton)?;
        match (kind, fields.as_slice()) {
            ('m' | 'p', &[game, seq, choice]) => {
                let game = GameNo(game);
                let seq = u32::try_from(seq).map_err(|_| UserError::BadButton)?;
                let choice = usize::try_from(choice).map_err(|_| UserError::BadButton)?;
                if kind == 'm' {
                    self.press_move(ctx, game, seq, choice).await
                } else {
                    self.press_piece(ctx, game, seq, choice).await
                }
            }
            ('u', &[game, seq]) => {
                let seq = u32::try_from(seq).map_err(|_| UserError::BadButton)?;
                self.press_all_moves(ctx, GameNo(game), seq).await
            }
            ('b', &[game]) => {
                let game = GameNo(game);
                let loaded = self.load(ctx, game).await?;
                self.board_reply(&loaded, Vec::new())
                    .await
                    .map(Reply::as_look)
            }
            ('a', &[no]) => {
                self.settle(ctx, Some(ChallengeNo(no)), Settlement::Accept)
                    .await
            }
            ('d', &[no]) => {
                self.settle(ctx, Some(ChallengeNo(no)), Settlement::Decline)
                    .await
            }
            ('h', &[game, before]) => {
                let before = u32::try_from(before).map_err(|_| UserError::BadButton)?;
                Ok(self
                    .history_page(ctx, GameNo(game), Some(before))
                    .await?
                    .to_actor())
            }
            ('w', &[game]) => {
                // A time-out's Claim button: `/claim #game`.
                self.not_repeated(ctx).await?;
                self.claim(ctx, GameNo(game)).await
            }
            // Under a result (or under the file a press of one posted, `.<mask>` telling which
            // buttons that message carries): its replay, its record, a rematch.
            ('v' | 'e', &[game]) => {
                self.under_result(ctx, kind, GameNo(game), super::narration::RESULT_BUTTONS)
                    .await
            }
            ('v' | 'e', &[game, mask]) => self.under_result(ctx, kind, GameNo(game), mask).await,
            ('n', &[game] | &[game, _]) => self.rematch(ctx, GameNo(game)).await,
            ('s', &[no]) => self.start_early(ctx, ChallengeNo(no)).await,
            ('c', &[no]) => self.fill_with_computers(ctx, ChallengeNo(no)).await,
            ('x', &[no]) => {
                self.settle(ctx, Some(ChallengeNo(no)), Settlement::Cancel)
                    .await
            }
            ('r' | 'q', &[game, seq, asker, until]) => {
                let asked = if kind == 'r' {
                    Asked::Resign
                } else {
                    Asked::Abort
                };
                let answer = Answer {
                    asked,
                    game: GameNo(game),
                    seq,
                    asker: UserId(asker),
                    until,
                };
                self.answer(ctx, answer).await
            }
            // Accept or Decline under a draw offer made by `offerer`.
            ('i' | 'j', &[game, offerer]) => {
                self.answer_draw(ctx, GameNo(game), UserId(offerer), kind == 'i')
                    .await
            }
            // Accept or Decline under a takeback asked when the game had `seq` actions.
            ('t' | 'z', &[game, seq]) => {
                let seq = u32::try_from(seq).map_err(|_| UserError::BadButton)?;
                self.answer_takeback(ctx, GameNo(game), seq, kind == 't')
                    .await
            }
            // A season's Join and Begin.
            ('J', &[season]) => self.join_season(ctx, season).await,
            ('B', &[season]) => self.begin_pressed(ctx, season).await,
            ('k', &[game, asker]) => self.keep_playing(ctx, GameNo(game), UserId(asker)).await,
            ('g', &[game, index]) => self.picked_game(ctx, game, index).await,
            ('o', &[owner, code]) => self.notify_pressed(ctx, owner, code).await,
            // `/mygames`' next page, in place of the page shown.
            ('y', &[page]) => {
                let page = usize::try_from(page).map_err(|_| UserError::BadButton)?;
                let mut reply = self.my_games(ctx, page).await?;
                reply.placement = Placement::UpdatePressed;
                Ok(reply)
            }
            _ => Err(UserError::BadButton.into()),
        }
    }
}

/// The commands about one game that ask "which game?" with a button per game when a person
/// has several and does not say which (`g<game>.<index>`: the command at `index` for `game`).
/// `/move` is not among them: its move is not kept on a button.
const PICKABLE: [CommandId; 10] = [
    CommandId::Board,
    CommandId::Moves,
    CommandId::History,
    CommandId::Export,
    CommandId::Replay,
    CommandId::Resign,
    CommandId::Abort,
    CommandId::Claim,
    CommandId::Draw,
    CommandId::Takeback,
];

impl Service {
    /// One page of `/history` of `game` (see [`text::history`]): the latest actions before
    /// `before`, with an Earlier button for the page before when there is one.
    async fn history_page(&self, ctx: &Ctx, game: GameNo, before: Option<u32>) -> Handled<Reply> {
        let full = self.whole_log(ctx, game).await?;
        let (mut page, earlier) = text::history(&full.record, &full.actions, before);
        // The latest page tells the takebacks the players agreed.
        if before.is_none() {
            for taken in self.store.takebacks(game).await? {
                let name = |user| {
                    super::seated(&full.record, user)
                        .map_or_else(|| Msg::new("someone"), super::narration::name_msg)
                };
                page.push(Span::Text("\n".into()));
                page.push(Span::Msg(
                    Msg::new("history-takeback")
                        .num("seq", i64::from(taken.seq))
                        .span("moves", Span::Code(taken.undone.replace(' ', ", ")))
                        .msg("asker", name(taken.by))
                        .msg("accepter", name(taken.accepted_by)),
                ));
            }
        }
        let mut reply = spans_reply(page).about(game);
        if let Some(first) = earlier {
            reply.buttons = vec![vec![said_button(
                Msg::new("button-earlier"),
                format!("h{game}.{first}"),
            )]];
        }
        Ok(reply)
    }
}

/// A whole number in `min..=max`, as typed (digits only).
pub(super) fn parse_amount(text: &str, min: i64, max: i64) -> Option<i64> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse::<i64>()
        .ok()
        .filter(|amount| (min..=max).contains(amount))
}

/// The longest display name or username kept.
const MAX_NAME_CHARS: usize = 64;

/// The most chats whose language is remembered for pictures (then forgotten at once).
const CHAT_LANGS: usize = 10_000;

/// `text` cut to `max` characters, with an ellipsis when cut.
pub(super) fn cap(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_string(),
    }
}
