//! Challenges: `/play`, `/accept`, `/decline`, `/cancel`, and the start of a game.
//!
//! An open challenge (one that names nobody) gathers the people its game needs: each
//! `/accept` or Accept press by someone else joins it (the challenge message, updated in
//! place, shows who has joined), and the game starts when it is full. For a game of more than
//! two seats (Pachisi), the challenger may start earlier, with the Start button or `/accept`,
//! once at least one person has joined: two people hold a team each (as a two-person game
//! always did); of three, one person, by lot, holds both seats of a team. Every player's stake
//! is taken when the game starts, all or nothing.
//!
//! The computer can take the seats people leave (issue 18): a Pachisi challenge naming one or
//! two people with `computer` keeps its level, and when everyone named has accepted, each
//! person holds one seat and the computer the others, by lot; the challenger of an open
//! Pachisi challenge may press Start with computers (`c<no>`) to start at once with the
//! computer (level 2) in the seats nobody joined. Such games are never staked.

use tabula_core::{AnyGame, GameId, Status};

use super::narration::{RatingTags, rated_person};
use super::{
    Button, Change, Ctx, Failure, Handled, Loaded, Named, Placement, Played, Reply, Service,
    ServiceError, Terms, UserError, awaits, game_msg, invitees, is_computer, mention, played_spans,
    players, said_button, team_of,
};
use crate::commands::{CommandId, DEFAULT_COMPUTER_LEVEL, ParsedCommand};
use crate::l10n::{Msg, Span};
use crate::store::{
    Acceptance, Accepted, Challenge, ChallengeNo, ChallengeStatus, Conflict, GameDice, GameNo,
    GameRecord, GameStatus, Invitation, Invitee, Joined, NewChallenge, NewGame, OutboxId,
    Settlement, StoreError, ThreadState, Timestamp, TurnStart, User, UserId,
};

impl Service {
    pub(super) async fn play(&self, ctx: &Ctx, command: &ParsedCommand) -> Handled<Reply> {
        self.not_repeated(ctx).await?;
        // The people invited are the request's mentions, as the platform resolved them.
        let named_people = self.mentioned(ctx).await?;
        self.challenge(ctx, command, named_people).await
    }

    /// The Rematch button under a result (`n<game>`): the same challenge to the same people,
    /// made by the player who pressed it: the game with its options, stake and time per move,
    /// the other people of the game invited, and the computer at its level when it played.
    /// Everything a typed `/play` checks is checked again (the game still enabled, the stake
    /// still allowed, the same challenge not already waiting).
    pub(super) async fn rematch(&self, ctx: &Ctx, game: GameNo) -> Handled<Reply> {
        self.not_repeated(ctx).await?;
        let record = self
            .store
            .game(game)
            .await?
            .filter(|record| record.chat == ctx.chat.id)
            .ok_or(UserError::NoSuchGame(game))?;
        if record.status == GameStatus::Active {
            return Err(UserError::BadButton.into());
        }
        if !record.is_seated(ctx.user.id) {
            return Err(UserError::NotAPlayer(game).into());
        }
        let level = record
            .seats
            .iter()
            .find_map(|holder| super::computer::computer_level(&holder.user));
        let others = players(&record)
            .into_iter()
            .filter(|user| user.id != ctx.user.id && !is_computer(user))
            .map(|user| Named::User(user.clone()))
            .collect();
        let options: Vec<(String, String)> = record
            .options
            .split_whitespace()
            .filter_map(|option| option.split_once('='))
            .map(|(key, value)| (key.to_string(), value.to_string()))
            .collect();
        let mut command = ParsedCommand::play(
            record.game,
            options,
            record.stake,
            record.move_millis,
            level.map(i64::from),
        );
        if !record.rated {
            command.integers.push(("rated", 0));
        }
        // A game played in a thread of its own: the rematch is offered in its channel (the
        // thread is closed), posted there through the outbox, and the presser told so.
        if let Some(ThreadState::Open { home } | ThreadState::Closed { home }) =
            self.store.thread_state(game).await?
            && let Some(chat) = self.store.chat(home).await?
        {
            let title = chat.title.clone();
            let mut there = ctx.clone();
            there.chat = chat;
            there.thread = None;
            there.pressed = None;
            let offer = self.challenge(&there, &command, others).await?;
            self.board_not_posted(&offer).await?;
            return Ok(super::spans_reply(vec![Span::Msg(
                Msg::new(super::threads::word(
                    ctx.chat.platform,
                    "rematch-in-channel",
                    "rematch-in-group",
                ))
                .text("chat", title),
            )])
            .to_actor());
        }
        self.challenge(ctx, &command, others).await
    }

    /// A challenge of `command` to `named_people` (none: an open challenge, or a game against
    /// the computer when it names a level).
    async fn challenge(
        &self,
        ctx: &Ctx,
        command: &ParsedCommand,
        named_people: Vec<Named>,
    ) -> Handled<Reply> {
        let Some(id) = command.game else {
            return Err(UserError::Usage(CommandId::Play).into());
        };
        let options: Vec<String> = command
            .options
            .iter()
            .map(|(key, value)| format!("{key}={value}"))
            .collect();
        let options: Vec<&str> = options.iter().map(String::as_str).collect();
        AnyGame::start(id, &options, None).map_err(UserError::Setup)?;
        // The computer: alone against it, the game starts at once; beside people (Pachisi),
        // it takes the seats nobody takes when the game starts.
        let computer = command.integer("computer");
        if let Some(level) = computer {
            if command.integer("stake").is_some_and(|stake| stake != 0) {
                return Err(UserError::ComputerStake.into());
            }
            if named_people.is_empty() {
                return self
                    .play_computer(ctx, command, id, &options.join(" "), level)
                    .await;
            }
            computer_beside(id, named_people.len())?;
        }
        let computer = computer.map(computer_level_of);
        // A game with the computer is friendly whatever the community's default stake.
        let stake = if computer.is_some() {
            Some(0)
        } else {
            command.integer("stake")
        };
        let terms = self.terms(ctx, id, stake, command.time_millis).await?;
        players_allowed(id, named_people.len() + 1, computer.is_some())?;
        let (invited, usernames) = distinct_invitees(ctx, &named_people)?;
        let invited_ids: Vec<UserId> = invited.iter().map(|u| u.id).collect();
        let options_text = options.join(" ");
        let asked = Asked {
            game: id,
            options: &options_text,
            stake: terms.stake,
            move_millis: terms.move_millis,
            computer,
            invited: &invited_ids,
            usernames: &usernames,
            rated: command.integer("rated") != Some(0),
        };
        self.refuse_same_challenge(ctx, &asked).await?;
        let wait = if named_people.is_empty() {
            self.store
                .settings(ctx.chat.community)
                .await?
                .open_wait_millis
        } else {
            // The people named answer when they look at the chat: as long as a move may take.
            terms.move_millis.max(crate::values::DAY_MILLIS)
        };
        let ttl = self.challenge_ttl.map_or(wait, |cap| {
            wait.min(i64::try_from(cap.as_millis()).unwrap_or(i64::MAX))
        });
        let dice_seed = self.fresh_seed(id)?;
        let new = NewChallenge {
            chat: ctx.chat.id,
            game: id,
            options: &options_text,
            challenger: ctx.user.id,
            invited: &invited_ids,
            expires_at: ctx.now.plus_millis(ttl),
            stake: terms.stake,
            move_millis: terms.move_millis,
            computer,
            dice_seed,
            rated: asked.rated,
        };
        let more = invitees(&named_people);
        let mut people = vec![&ctx.user];
        people.extend(named_people.iter().filter_map(|named| match named {
            Named::User(user) => Some(user),
            Named::Username(_) => None,
        }));
        let tags = if computer.is_some() {
            RatingTags::new()
        } else {
            self.rating_tags(ctx.chat.community, id, &people).await?
        };
        let (challenge, announced) = self.create_challenge(ctx, &new, &more).await?;
        let mut reply = challenge_post(&challenge, &ctx.user, &named_people, &tags);
        reply.announced = announced;
        Ok(reply)
    }

    /// Refuses a challenge the same as one of the challenger's still waiting (same game,
    /// options, people, stake and time): the invited person's plain `/accept` would be
    /// ambiguous. The refusal points at the first.
    async fn refuse_same_challenge(&self, ctx: &Ctx, asked: &Asked<'_>) -> Handled<()> {
        let mut people: Vec<UserId> = asked.invited.to_vec();
        people.sort_unstable();
        let mut names: Vec<String> = asked
            .usernames
            .iter()
            .map(|u| u.to_ascii_lowercase())
            .collect();
        names.sort();
        for waiting in self.store.pending_challenges(ctx.chat.id).await? {
            let mut waiting_people: Vec<UserId> = waiting.invited.clone();
            waiting_people.sort_unstable();
            let mut waiting_names: Vec<String> = waiting
                .unbound_usernames()
                .iter()
                .map(|u| u.to_ascii_lowercase())
                .collect();
            waiting_names.sort();
            if waiting.challenger == ctx.user.id
                && waiting.game == asked.game
                && waiting.expires_at > ctx.now
                && waiting.options == asked.options
                && waiting.stake == asked.stake
                && waiting.move_millis == asked.move_millis
                && waiting.computer == asked.computer
                && waiting.rated == asked.rated
                && waiting_people == people
                && waiting_names == names
            {
                return Err(UserError::SameChallenge(waiting.id).into());
            }
        }
        Ok(())
    }

    /// Stores a new challenge with the request that made it, and its post's announcement
    /// when this process announces (see `announce.rs`).
    async fn create_challenge(
        &self,
        ctx: &Ctx,
        new: &NewChallenge<'_>,
        more: &[Invitee],
    ) -> Handled<(Challenge, Option<OutboxId>)> {
        Ok(match self.announcement_hold() {
            Some((owner, until)) => {
                let (challenge, row) = self
                    .store
                    .create_challenge_announced(new, more, &ctx.key, (&owner, until))
                    .await?;
                (challenge, Some(row))
            }
            None => (
                self.store
                    .create_challenge_with_invitees(new, more, Some(&ctx.key))
                    .await?,
                None,
            ),
        })
    }

    /// The post of challenge `no`, as its challenger's `/play` made it, while it waits (for
    /// its announcement, delivered by the dispatcher when the process that answered the
    /// `/play` died before posting it).
    pub(super) async fn challenge_post_of(
        &self,
        no: ChallengeNo,
    ) -> Result<Option<Reply>, ServiceError> {
        let Some(challenge) = self.store.challenge(no).await? else {
            return Ok(None);
        };
        if challenge.status != ChallengeStatus::Pending {
            return Ok(None);
        }
        let Some(challenger) = self.store.user(challenge.challenger).await? else {
            return Ok(None);
        };
        let mut named = Vec::with_capacity(challenge.invitees.len());
        for invitee in &challenge.invitees {
            named.push(match &invitee.invitee {
                Invitee::User(id) => match self.store.user(*id).await? {
                    Some(user) => Named::User(user),
                    None => return Ok(None),
                },
                Invitee::Username(name) => Named::Username(name.clone()),
            });
        }
        let tags = match self.store.chat(challenge.chat).await? {
            Some(chat) if challenge.computer.is_none() => {
                let mut people = vec![&challenger];
                people.extend(named.iter().filter_map(|named| match named {
                    Named::User(user) => Some(user),
                    Named::Username(_) => None,
                }));
                self.rating_tags(chat.community, challenge.game, &people)
                    .await?
            }
            _ => RatingTags::new(),
        };
        Ok(Some(challenge_post(&challenge, &challenger, &named, &tags)))
    }

    /// The Start button of an open challenge: only its challenger may press it, and then it
    /// is their `/accept`.
    pub(super) async fn start_early(&self, ctx: &Ctx, no: ChallengeNo) -> Handled<Reply> {
        self.not_repeated(ctx).await?;
        match self.store.challenge(no).await? {
            Some(challenge) if challenge.chat == ctx.chat.id => {
                if challenge.challenger != ctx.user.id {
                    return Err(UserError::NotChallengerStart(no).into());
                }
                self.settle(ctx, Some(no), Settlement::Accept).await
            }
            _ => Err(UserError::Conflict(Conflict::NoSuchChallenge(no)).into()),
        }
    }

    /// The Start with computers button of an open challenge: its challenger starts the game
    /// at once, the computer (level [`DEFAULT_COMPUTER_LEVEL`]) taking the seats nobody took.
    pub(super) async fn fill_with_computers(&self, ctx: &Ctx, no: ChallengeNo) -> Handled<Reply> {
        self.not_repeated(ctx).await?;
        self.store.expire_challenges(ctx.now).await?;
        let challenge = match self.store.challenge(no).await? {
            Some(challenge) if challenge.chat == ctx.chat.id && challenge.is_open() => challenge,
            _ => return Err(UserError::Conflict(Conflict::NoSuchChallenge(no)).into()),
        };
        if challenge.challenger != ctx.user.id {
            return Err(UserError::NotChallengerFill(no).into());
        }
        // A game with the computer is friendly: a stake that is only the community's default
        // is dropped (issue 37); one the challenger chose is not, and the computer cannot
        // take the seats.
        let mut challenge = challenge;
        if challenge.stake != 0 {
            let settings = self.store.settings(ctx.chat.community).await?;
            if challenge.stake != settings.default_stake {
                return Err(UserError::ComputerStake.into());
            }
            challenge.stake = 0;
        }
        let level = computer_level_of(DEFAULT_COMPUTER_LEVEL);
        self.accept(ctx, challenge, ctx.now, Some(level)).await
    }

    /// Refuses a request already applied, before anything else is looked at (the change itself
    /// records the request key in its transaction, which settles races between re-deliveries).
    pub(super) async fn not_repeated(&self, ctx: &Ctx) -> Handled<()> {
        if self.store.request_handled(&ctx.key).await? {
            return Err(UserError::Conflict(Conflict::Duplicate).into());
        }
        Ok(())
    }

    pub(super) async fn settle(
        &self,
        ctx: &Ctx,
        number: Option<ChallengeNo>,
        settlement: Settlement,
    ) -> Handled<Reply> {
        self.not_repeated(ctx).await?;
        let now = ctx.now;
        self.store.expire_challenges(now).await?;
        let challenge = self.challenge_to_settle(ctx, number, settlement).await?;
        // A seat kept for the actor's @username becomes theirs before anything else.
        let challenge = if settlement == Settlement::Cancel {
            challenge
        } else {
            self.bind_seat(ctx, challenge).await?
        };
        may_settle(ctx, &challenge, settlement)?;
        if settlement != Settlement::Accept {
            return self.withdraw_or_decline(ctx, &challenge, settlement).await;
        }
        let no = challenge.id;
        // A seat kept for a username that could not be bound (the challenge is no longer
        // waiting): say why, as the store would.
        if !challenge.unbound_usernames().is_empty() && challenge.invitees.len() == 1 {
            let conflict = match challenge.status {
                ChallengeStatus::Pending => Conflict::ChallengeExpired(no),
                status => Conflict::ChallengeSettled {
                    challenge: no,
                    status,
                },
            };
            return Err(UserError::Conflict(conflict).into());
        }
        if challenge.is_open() {
            return self.join(ctx, challenge, now).await;
        }
        self.accept(ctx, challenge, now, None).await
    }

    /// The challenge a `/accept`, `/decline` or `/cancel` (or its button) is about: the one
    /// numbered, or else the only one of the chat's waiting challenges it could mean; more
    /// than one is refused with their list.
    async fn challenge_to_settle(
        &self,
        ctx: &Ctx,
        number: Option<ChallengeNo>,
        settlement: Settlement,
    ) -> Handled<Challenge> {
        Ok(match number {
            Some(no) => match self.store.challenge(no).await? {
                Some(challenge) if challenge.chat == ctx.chat.id => challenge,
                _ => {
                    return Err(UserError::Conflict(Conflict::NoSuchChallenge(no)).into());
                }
            },
            None => {
                let pending = self.store.pending_challenges(ctx.chat.id).await?;
                let fits: Vec<Challenge> = pending
                    .into_iter()
                    .filter(|c| match settlement {
                        Settlement::Cancel => c.challenger == ctx.user.id,
                        // The challenger starts their open challenge once someone joined;
                        // one already joined is not asked about again.
                        Settlement::Accept if c.is_open() => {
                            if c.challenger == ctx.user.id {
                                !c.joined.is_empty()
                            } else {
                                !c.joined.contains(&ctx.user.id)
                            }
                        }
                        _ => {
                            c.challenger != ctx.user.id
                                && (c.is_open()
                                    || c.invited.contains(&ctx.user.id)
                                    || awaits(c, &ctx.user))
                        }
                    })
                    .collect();
                match fits.as_slice() {
                    [] => return Err(UserError::NoChallenge.into()),
                    [one] => one.clone(),
                    [first, ..] => {
                        let list: Vec<String> = fits
                            .iter()
                            .map(|c| format!("#{} {}", c.id, c.game.name()))
                            .collect();
                        let fallback = match settlement {
                            Settlement::Accept => "/accept",
                            Settlement::Decline => "/decline",
                            Settlement::Cancel => "/cancel",
                        };
                        let hint = ctx.with_number(first.id.0, fallback);
                        return Err(UserError::WhichChallenge(list.join(", "), hint).into());
                    }
                }
            }
        })
    }

    /// Withdraws (`/cancel`) or declines a challenge, updating its post in place.
    async fn withdraw_or_decline(
        &self,
        ctx: &Ctx,
        challenge: &Challenge,
        settlement: Settlement,
    ) -> Handled<Reply> {
        let no = challenge.id;
        let update = if settlement == Settlement::Cancel {
            Update::Withdrawn
        } else {
            Update::Declined
        };
        // A typed command has no pressed message: the challenge's own post (when the bot
        // recorded it) loses its buttons and says what became of it (issue 37, item 3).
        let typed_over = match &ctx.pressed {
            Some(_) => None,
            None => self.store.challenge_message(no).await?,
        };
        let pressed = ctx.pressed.as_deref().or(typed_over.as_deref());
        // Announced with the settlement (see `announce.rs`): told again from the payload if
        // this process dies before the reply is posted.
        let pending = self.pending_payload(update.payload(no, ctx.user.id), pressed);
        let announced = match &pending {
            Some(pending) => Some(
                self.store
                    .settle_challenge_announced(
                        no,
                        settlement,
                        ctx.user.id,
                        ctx.now,
                        &ctx.key,
                        &pending.as_announce(),
                    )
                    .await?
                    .1,
            ),
            None => {
                self.store
                    .settle_challenge_once(no, settlement, ctx.user.id, ctx.now, &ctx.key)
                    .await?;
                None
            }
        };
        let mut reply = settled_reply(update, &ctx.user, challenge);
        reply.placement = Placement::UpdatePressed;
        reply.announced = announced;
        if let Some(post) = typed_over {
            reply.placement = Placement::New;
            reply.pressed = Some(post);
            reply.pressed_then.clone_from(&reply.spans);
            reply.pressed_is_text = true;
        }
        Ok(reply)
    }

    /// The post of an update of a challenge (withdrawn, declined, joined, accepted by some of
    /// its invitees) whose process died before posting it, from its announcement's payload
    /// (`challenge`, `update`, `by`, `pressed`): a new message, the pressed one losing its
    /// buttons. A join or an acceptance is told as the challenge stands now, and not at all
    /// once it is no longer pending.
    pub(super) async fn challenge_update_of(
        &self,
        payload: &serde_json::Value,
    ) -> Result<Option<Reply>, ServiceError> {
        let number = |name: &str| payload.get(name).and_then(serde_json::Value::as_i64);
        let (Some(no), Some(by), Some(update)) = (
            number("challenge"),
            number("by"),
            payload
                .get("update")
                .and_then(serde_json::Value::as_str)
                .and_then(Update::parse),
        ) else {
            return Ok(None);
        };
        let (Some(challenge), Some(user)) = (
            self.store.challenge(ChallengeNo(no)).await?,
            self.store.user(UserId(by)).await?,
        ) else {
            return Ok(None);
        };
        let mut reply = match update {
            Update::Withdrawn | Update::Declined => {
                let mut reply = settled_reply(update, &user, &challenge);
                reply.pressed_then.clone_from(&reply.spans);
                reply.pressed_is_text = true;
                reply
            }
            Update::Joined => {
                if challenge.status != ChallengeStatus::Pending {
                    return Ok(None);
                }
                let joined = Joined {
                    newly: true,
                    challenge,
                };
                match self.gathering_post(&user, &joined).await {
                    Ok(reply) => reply,
                    Err(Failure::Internal(error)) => return Err(error),
                    Err(Failure::User(_)) => return Ok(None),
                }
            }
            Update::Accepted => {
                if challenge.status != ChallengeStatus::Pending {
                    return Ok(None);
                }
                let invitation = waiting_on(challenge);
                match self.still_waiting(&user, &invitation).await {
                    Ok(reply) => reply,
                    Err(Failure::Internal(error)) => return Err(error),
                    Err(Failure::User(_)) => return Ok(None),
                }
            }
        };
        reply.placement = Placement::New;
        reply.pressed = payload
            .get("pressed")
            .and_then(serde_json::Value::as_str)
            .map(str::to_owned);
        Ok(Some(reply))
    }

    /// Someone accepts an open challenge: they join it, or, when that fills it (or they are
    /// the challenger, starting it early), its game starts. A join that finds the challenge
    /// filled meanwhile reads it again, once, and starts it.
    async fn join(&self, ctx: &Ctx, challenge: Challenge, now: Timestamp) -> Handled<Reply> {
        // A second press of Join changes nothing: a word to the presser (a toast), the lobby
        // left as it is (issue 37).
        if challenge.joined.contains(&ctx.user.id) {
            let no = challenge.id;
            return Ok(Reply {
                challenge: Some(no),
                spans: vec![Span::Msg(
                    Msg::new("already-joined").text("challenge", format!("#{no}")),
                )],
                ..Reply::default()
            }
            .to_actor());
        }
        let mut challenge = challenge;
        let mut read_again = false;
        loop {
            let seats = challenge.game.seats().len();
            let starting = challenge.challenger == ctx.user.id;
            if starting && challenge.joined.is_empty() {
                return Err(UserError::NobodyJoined(challenge.id).into());
            }
            if starting || open_players(&challenge, ctx.user.id).len() >= seats {
                return self.accept(ctx, challenge, now, None).await;
            }
            let room = seats.saturating_sub(2);
            let pending = self.pending_payload(
                Update::Joined.payload(challenge.id, ctx.user.id),
                ctx.pressed.as_deref(),
            );
            let joined = match &pending {
                Some(pending) => self
                    .store
                    .join_open_challenge_announced(
                        challenge.id,
                        ctx.user.id,
                        now,
                        room,
                        &ctx.key,
                        &pending.as_announce(),
                    )
                    .await
                    .map(|(joined, row)| (joined, Some(row))),
                None => self
                    .store
                    .join_open_challenge(challenge.id, ctx.user.id, now, room, Some(&ctx.key))
                    .await
                    .map(|joined| (joined, None)),
            };
            match joined {
                Ok((joined, announced)) => {
                    let mut reply = self.gathering_post(&ctx.user, &joined).await?;
                    reply.announced = announced;
                    return Ok(reply);
                }
                Err(StoreError::Conflict(Conflict::PlayersChanged(no))) if !read_again => {
                    read_again = true;
                    challenge = self
                        .store
                        .challenge(no)
                        .await?
                        .ok_or(UserError::Conflict(Conflict::NoSuchChallenge(no)))?;
                }
                Err(other) => return Err(other.into()),
            }
        }
    }

    /// The challenge message of an open challenge still gathering people, as `user` has just
    /// joined it (updated in place): who has joined, how many more it takes, and that the
    /// challenger may start.
    async fn gathering_post(&self, user: &User, joined: &Joined) -> Handled<Reply> {
        let challenge = &joined.challenge;
        let no = challenge.id;
        let seats = challenge.game.seats().len();
        let players = open_players(challenge, challenge.challenger);
        let mut challenger = None;
        let mut listed = Vec::new();
        for id in &players {
            listed.push(match self.store.user(*id).await? {
                Some(user) => {
                    let person = Msg::new("person").span("person", mention(&user));
                    if *id == challenge.challenger {
                        challenger = Some(user);
                    }
                    person
                }
                None => Msg::new("someone"),
            });
        }
        let mut notify = Vec::new();
        let starter = match challenger {
            Some(user) => {
                notify.push(user.platform_user_id.clone());
                Msg::new("person").span("person", mention(&user))
            }
            None => Msg::new("the-challenger"),
        };
        let mut spans = vec![Span::Msg(
            Msg::new("challenge-joined")
                .span("person", mention(user))
                .text("again", if joined.newly { "no" } else { "yes" })
                .text("challenge", format!("#{no}"))
                .msg("name", game_msg(challenge.game))
                .msg("players", list_msg(listed))
                .count("count", players.len())
                .count("seats", seats)
                .msg("starter", starter),
        )];
        spans.extend(commitment_spans(challenge.dice_seed.as_deref()));
        Ok(Reply {
            placement: Placement::UpdatePressed,
            challenge: Some(no),
            notify,
            spans,
            buttons: gathering_buttons(no),
            ..Reply::default()
        })
    }

    /// Accepts a challenge: the acceptance and, when it is the last one missing, the game are
    /// written in one transaction ([`Store::accept_and_create_game`]), so a crash cannot leave
    /// an acceptance without its game. Seats are drawn by lot (and wallets opened) only when
    /// the challenge as read shows this acceptance to be the last; if another invitee accepted
    /// or took a username's seat since, the store refuses the seats
    /// ([`Conflict::PlayersChanged`]) and the challenge is read again, once. `fill` puts the
    /// computer at that level in the seats nobody takes, as the challenge's own level does.
    async fn accept(
        &self,
        ctx: &Ctx,
        challenge: Challenge,
        now: Timestamp,
        fill: Option<u8>,
    ) -> Handled<Reply> {
        let mut challenge = challenge;
        let mut read_again = false;
        loop {
            let start = if last_to_accept(&challenge, ctx.user.id) {
                let computer = challenge.computer.or(fill);
                Some(self.prepare_start(ctx, &challenge, computer).await?)
            } else {
                None
            };
            let new = NewGame {
                chat: ctx.chat.id,
                game: challenge.game,
                options: &challenge.options,
                start_position: None,
                seats: start.as_ref().map_or(&[], |start| start.seats.as_slice()),
                accepting: Some(Acceptance {
                    challenge: challenge.id,
                    by: ctx.user.id,
                    now,
                    computer: start.as_ref().and_then(|start| start.computer),
                }),
                community: ctx.chat.community,
                stake: challenge.stake,
                move_millis: challenge.move_millis,
                turn: start.as_ref().and_then(|start| start.turn(now)),
                // The seed shown with the challenge, salted with the platform's id of this
                // acceptance when the bot could not have predicted it.
                dice: challenge.dice_seed.clone().map(|seed| GameDice {
                    seed,
                    nonce: ctx.nonce.clone(),
                }),
            };
            let pending = self.pending_announcement(Change::Start, ctx.pressed.as_deref());
            let waiting = self.pending_payload(
                Update::Accepted.payload(challenge.id, ctx.user.id),
                ctx.pressed.as_deref(),
            );
            let accepted = match (&pending, &waiting) {
                (Some(pending), Some(waiting)) => {
                    self.store
                        .accept_and_create_game_announced(
                            &new,
                            &ctx.key,
                            &pending.as_announce(),
                            &waiting.as_announce(),
                        )
                        .await
                }
                _ => self
                    .store
                    .accept_and_create_game(&new, Some(&ctx.key))
                    .await
                    .map(|accepted| (accepted, None)),
            };
            match accepted {
                Ok((Accepted::Waiting(invitation), announced)) => {
                    let mut reply = self.still_waiting(&ctx.user, &invitation).await?;
                    reply.announced = announced;
                    return Ok(reply);
                }
                Ok((Accepted::Started(record), announced)) => {
                    let Some(start) = start else {
                        return Err(ServiceError::Corrupt(format!(
                            "challenge {} started a game without seats",
                            challenge.id
                        ))
                        .into());
                    };
                    // The challenge's message (pressed, or the one the bot posted for it when
                    // the acceptance was typed) says what became of it, the game and its
                    // people (issue 37, item 3), as it loses its buttons; a challenge to a
                    // game with dice keeps its fingerprint.
                    let message = match &ctx.pressed {
                        Some(pressed) => Some(pressed.clone()),
                        None => self.store.challenge_message(challenge.id).await?,
                    };
                    let said = message.as_ref().map(|_| {
                        let mut said = vec![Span::Msg(challenge_started(&record, challenge.id))];
                        said.extend(commitment_spans(challenge.dice_seed.as_deref()));
                        said
                    });
                    let mut reply = self.game_started(record, start.state, now).await?;
                    reply.announced = announced;
                    if self.wants_thread(ctx).await? {
                        return self.start_in_thread(ctx, &reply, said, message).await;
                    }
                    if let Some(said) = said {
                        reply.pressed = message;
                        reply.pressed_then = said;
                        reply.pressed_is_text = true;
                    }
                    return Ok(reply);
                }
                Err(StoreError::Conflict(Conflict::PlayersChanged(no))) if !read_again => {
                    read_again = true;
                    challenge = self
                        .store
                        .challenge(no)
                        .await?
                        .ok_or(UserError::Conflict(Conflict::NoSuchChallenge(no)))?;
                }
                Err(StoreError::Conflict(Conflict::InsufficientFunds {
                    user, balance, ..
                })) => {
                    let name = self
                        .store
                        .user(user)
                        .await?
                        .map_or_else(|| format!("user {user}"), |user| user.display_name);
                    return Err(UserError::CannotAfford {
                        name,
                        balance,
                        stake: challenge.stake,
                        challenge: challenge.id,
                    }
                    .into());
                }
                Err(other) => return Err(other.into()),
            }
        }
    }

    /// The reply to an acceptance that others have still to follow: who they are.
    async fn still_waiting(&self, user: &User, invitation: &Invitation) -> Handled<Reply> {
        let challenge = &invitation.challenge;
        let no = challenge.id;
        let mut notify = Vec::new();
        let mut waiting = Vec::new();
        for id in &invitation.waiting {
            waiting.push(match self.store.user(*id).await? {
                Some(user) => {
                    notify.push(user.platform_user_id.clone());
                    Msg::new("person").span("person", mention(&user))
                }
                None => Msg::new("someone"),
            });
        }
        for username in &invitation.waiting_usernames {
            waiting.push(Msg::new("person").text("person", format!("@{username}")));
        }
        let mut spans = vec![Span::Msg(
            Msg::new("challenge-accepted")
                .span("person", mention(user))
                .text("again", if invitation.newly { "no" } else { "yes" })
                .text("challenge", format!("#{no}"))
                .msg("name", game_msg(challenge.game))
                .msg("waiting", list_msg(waiting)),
        )];
        spans.extend(commitment_spans(challenge.dice_seed.as_deref()));
        Ok(Reply {
            placement: Placement::UpdatePressed,
            challenge: Some(no),
            notify,
            spans,
            buttons: challenge_buttons(no),
            ..Reply::default()
        })
    }

    /// What a game started from `challenge` begins with: seats by lot among the challenger and
    /// the invitees (or, for an open challenge, who accepts), and the start position; the
    /// wallets of a staked game are opened, so new players get their starting grant before
    /// their stake is taken. With `computer`, each person holds one seat and the computer at
    /// that level the others, all by lot.
    async fn prepare_start(
        &self,
        ctx: &Ctx,
        challenge: &Challenge,
        computer: Option<u8>,
    ) -> Handled<Start> {
        let id = challenge.game;
        let people = if challenge.is_open() {
            open_players(challenge, ctx.user.id)
        } else {
            let mut people = vec![challenge.challenger];
            people.extend(challenge.invited.iter().copied());
            people
        };
        // Seats by lot.
        let seat_count = id.seats().len();
        let mut seats: Vec<UserId> = Vec::with_capacity(seat_count);
        let mut pool = people.clone();
        let mut computer_id = None;
        if let Some(level) = computer.filter(|_| people.len() < seat_count) {
            let computer = self.computer_user(level).await?.id;
            computer_id = Some(computer);
            pool.resize(seat_count, computer);
        }
        if pool.len() == seat_count {
            while !pool.is_empty() {
                let pick = self.dice.draw(pool.len())?;
                seats.push(pool.remove(pick));
            }
        } else if let &[first, second, third] = people.as_slice() {
            // Three people at four seats: one, by lot, holds both seats of a team, and the
            // other two hold a seat each of the other team.
            let mut pool = vec![first, second, third];
            let alone = pool.remove(self.dice.draw(3)?);
            let alone_team = u8::try_from(self.dice.draw(2)?).unwrap_or(0);
            let mut pairs = pool.into_iter();
            for seat in 0..seat_count {
                let seat = u8::try_from(seat).unwrap_or(0);
                if team_of(id, seat) == alone_team {
                    seats.push(alone);
                } else {
                    seats.push(pairs.next().unwrap_or(alone));
                }
            }
        } else {
            // Two people share four seats: each holds both seats of one team.
            let &[first, second] = people.as_slice() else {
                return Err(ServiceError::Corrupt(format!(
                    "challenge {} has {} players for {seat_count} seats",
                    challenge.id,
                    people.len()
                ))
                .into());
            };
            let (a, b) = if self.dice.draw(2)? == 0 {
                (first, second)
            } else {
                (second, first)
            };
            for seat in 0..seat_count {
                let seat = u8::try_from(seat).unwrap_or(0);
                seats.push(if team_of(id, seat) == 0 { a } else { b });
            }
        }
        let options: Vec<&str> = challenge.options.split_whitespace().collect();
        let state = AnyGame::start(id, &options, None).map_err(UserError::Setup)?;
        if challenge.stake > 0 {
            for person in &people {
                self.store.open_wallet(ctx.chat.community, *person).await?;
            }
        }
        Ok(Start {
            seats,
            state,
            computer: computer_id,
        })
    }

    /// The reply to a game's start: its opening rolls (a roll-off, stored before anyone
    /// moves), the seats and the terms, and the board.
    pub(super) async fn game_started(
        &self,
        mut record: GameRecord,
        mut state: AnyGame,
        now: Timestamp,
    ) -> Handled<Reply> {
        let mut played = Played::default();
        self.resolve_chance(&record, 0, &mut state, &mut played)?;
        let mut consequences = None;
        if !played.actions.is_empty() {
            consequences = Some(
                self.append_played(&mut record, &state, &played, None, None, now)
                    .await?
                    .0,
            );
        }
        let tags = self.game_rating_tags(&record).await?;
        let mut spans = begins_spans(&record, &tags);
        let told = played_spans(&record, &played, consequences.as_ref());
        if !told.is_empty() {
            spans.push(Span::Text(" ".into()));
            spans.extend(told);
        }
        spans.push(Span::Text("\n".into()));
        let loaded = Loaded {
            rolls: played.rolls(),
            record,
            state,
            recent: played.recent,
            moved: false,
        };
        self.board_reply(&loaded, spans).await
    }
}

/// "Challenge #2 (Konane) by @alice expired: nobody accepted it in time."
pub(super) fn expired_msg(challenge: &Challenge, challenger: Option<&User>) -> Span {
    let by = match challenger {
        Some(user) => mention(user),
        None => Span::Msg(Msg::new("someone")),
    };
    Span::Msg(
        Msg::new("challenge-expired")
            .text("challenge", format!("#{}", challenge.id))
            .msg("name", game_msg(challenge.game))
            .span("person", by),
    )
}

/// What challenge `no` says once accepted, in place of its offer: "Challenge #2 was accepted:
/// game #3 (Konane) begins below, @alice (White) against @bob (Black)."
fn challenge_started(record: &GameRecord, no: ChallengeNo) -> Msg {
    Msg::new("challenge-started")
        .text("challenge", format!("#{no}"))
        .text("game", format!("#{}", record.id))
        .msg("name", game_msg(record.game))
        .msg("sides", super::narration::sides_msg(record))
}

/// The first sentence of a game: its sides (each team's people and seats: "@bob and @dana
/// (South and North) against @carol and Computer (East and West)"), its terms, the computer's
/// level when it plays, and the commitment of its dice.
pub(super) fn begins_spans(record: &GameRecord, tags: &RatingTags) -> Vec<Span> {
    let id = record.game;
    let mut spans = vec![Span::Msg(
        Msg::new("game-begins")
            .text("game", format!("#{}", record.id))
            .msg("name", game_msg(id))
            .msg("seats", super::narration::sides_msg_rated(record, tags))
            .msg("terms", Terms::of(record).describe_sentence()),
    )];
    if let Some(level) = record
        .seats
        .iter()
        .find_map(|holder| super::computer::computer_level(&holder.user))
    {
        spans.push(Span::Text(" ".into()));
        spans.push(Span::Msg(
            Msg::new("game-begins-computer").num("level", i64::from(level)),
        ));
    }
    if !record.rated && !record.seats.iter().any(|h| is_computer(&h.user)) {
        spans.push(Span::Text(" ".into()));
        spans.push(Span::Msg(Msg::new("game-begins-casual")));
    }
    if let Some(dice) = &record.dice {
        spans.push(Span::Text(" ".into()));
        spans.push(Span::Msg(
            Msg::new("game-begins-dice")
                .span("commitment", fingerprint(&dice.seed))
                .text("game", format!("#{}", record.id)),
        ));
    }
    spans
}

/// The seats and start position of a game about to start.
struct Start {
    seats: Vec<UserId>,
    state: AnyGame,
    /// The computer's user, when it holds the seats nobody took.
    computer: Option<UserId>,
}

impl Start {
    /// The first turn, when someone is to move at once (not when dice decide first).
    fn turn(&self, now: Timestamp) -> Option<TurnStart> {
        match self.state.status() {
            Status::Decision(seat) => self.seats.get(usize::from(seat.0)).map(|user| TurnStart {
                user: *user,
                at: now,
            }),
            _ => None,
        }
    }
}

/// Whether `actor` accepting `challenge` (as read) leaves nobody else to accept: an open
/// challenge, or one whose other invitees are all known and have accepted.
fn last_to_accept(challenge: &Challenge, actor: UserId) -> bool {
    challenge
        .invitees
        .iter()
        .all(|invitee| match invitee.invitee {
            Invitee::User(user) => user == actor || invitee.accepted_at.is_some(),
            Invitee::Username(_) => false,
        })
}

/// The players of open challenge `challenge` if `actor` accepts it now: the challenger, who
/// joined, and the actor (once).
fn open_players(challenge: &Challenge, actor: UserId) -> Vec<UserId> {
    let mut people = vec![challenge.challenger];
    people.extend(challenge.joined.iter().copied());
    if !people.contains(&actor) {
        people.push(actor);
    }
    people
}

/// The Join, Start and Cancel buttons of an open challenge gathering more than two people,
/// and Start with computers under them.
fn gathering_buttons(no: ChallengeNo) -> Vec<Vec<Button>> {
    vec![
        vec![
            said_button(Msg::new("button-join"), format!("a{no}")),
            said_button(Msg::new("button-start"), format!("s{no}")),
            said_button(Msg::new("button-cancel"), format!("x{no}")),
        ],
        vec![said_button(
            Msg::new("button-start-computers"),
            format!("c{no}"),
        )],
    ]
}

/// A level asked for (the parser keeps it within 1–4).
pub(super) fn computer_level_of(level: i64) -> u8 {
    u8::try_from(level.clamp(1, 4)).unwrap_or(2)
}

/// Refuses a settlement the actor may not make: declining an open challenge, withdrawing
/// another's, starting an open challenge nobody joined, accepting or declining one's own,
/// answering a challenge one is not invited to.
fn may_settle(ctx: &Ctx, challenge: &Challenge, settlement: Settlement) -> Handled<()> {
    let no = challenge.id;
    match settlement {
        Settlement::Decline if challenge.is_open() => Err(UserError::DeclineOpen(no).into()),
        Settlement::Cancel if challenge.challenger != ctx.user.id => {
            Err(UserError::NotChallenger(no).into())
        }
        Settlement::Accept
            if challenge.is_open()
                && challenge.challenger == ctx.user.id
                && challenge.joined.is_empty() =>
        {
            Err(UserError::NobodyJoined(no).into())
        }
        Settlement::Accept if challenge.is_open() && challenge.challenger == ctx.user.id => Ok(()),
        Settlement::Accept | Settlement::Decline if challenge.challenger == ctx.user.id => {
            Err(UserError::OwnChallenge(no).into())
        }
        Settlement::Accept | Settlement::Decline
            if !challenge.is_open()
                && !challenge.invited.contains(&ctx.user.id)
                && !awaits(challenge, &ctx.user) =>
        {
            Err(UserError::NotInvited(no).into())
        }
        _ => Ok(()),
    }
}

/// What a new challenge asks for, compared with the challenges already waiting.
struct Asked<'a> {
    game: GameId,
    options: &'a str,
    stake: i64,
    move_millis: i64,
    computer: Option<u8>,
    invited: &'a [UserId],
    usernames: &'a [&'a str],
    /// Rated (`rated=no`: casual).
    rated: bool,
}

/// Refuses a challenge naming a number of players (the challenger included) the game does
/// not seat: two, or in a game of four, two or four people, or two or three beside the
/// computer. Nobody named is an open challenge.
fn players_allowed(id: GameId, named: usize, computer: bool) -> Handled<()> {
    let seats = id.seats().len();
    let nobody = named == 1;
    let (ok, allowed) = if seats == 4 && computer {
        (
            (2..4).contains(&named),
            "2 or 3 players beside the computer",
        )
    } else if seats == 4 {
        (nobody || named == 2 || named == 4, "2 or 4 players")
    } else {
        (nobody || named == 2, "2 players")
    };
    if !ok {
        return Err(UserError::Players {
            game: id,
            allowed,
            named,
        }
        .into());
    }
    Ok(())
}

/// The people a `/play` names, known users and `@usernames` apart; naming oneself or anyone
/// twice is refused.
fn distinct_invitees<'a>(
    ctx: &Ctx,
    named_people: &'a [Named],
) -> Handled<(Vec<User>, Vec<&'a str>)> {
    let mut invited: Vec<User> = Vec::new();
    let mut usernames: Vec<&str> = Vec::new();
    for named in named_people {
        match named {
            Named::User(user) => {
                if user.id == ctx.user.id || invited.iter().any(|u| u.id == user.id) {
                    return Err(UserError::RepeatedPlayer.into());
                }
                invited.push(user.clone());
            }
            Named::Username(username) => {
                let own = ctx
                    .user
                    .username
                    .as_deref()
                    .is_some_and(|own| own.eq_ignore_ascii_case(username));
                if own || usernames.iter().any(|u| u.eq_ignore_ascii_case(username)) {
                    return Err(UserError::RepeatedPlayer.into());
                }
                usernames.push(username);
            }
        }
    }
    Ok((invited, usernames))
}

/// Refuses the computer beside `named` people when it cannot sit there: in a game of two
/// seats, and at a table the people fill.
fn computer_beside(id: GameId, named: usize) -> Handled<()> {
    let seats = id.seats().len();
    if seats == 2 {
        return Err(UserError::ComputerAndPeople {
            game: id,
            slug: id.as_str(),
        }
        .into());
    }
    if named + 1 >= seats {
        return Err(UserError::ComputerNoSeat { game: id, seats }.into());
    }
    Ok(())
}

/// The Accept, Decline and Cancel buttons of a challenge.
pub(super) fn challenge_buttons(no: impl std::fmt::Display) -> Vec<Vec<Button>> {
    vec![vec![
        said_button(Msg::new("button-accept"), format!("a{no}")),
        said_button(Msg::new("button-decline"), format!("d{no}")),
        said_button(Msg::new("button-cancel"), format!("x{no}")),
    ]]
}

pub(super) fn options_suffix(options: &str) -> String {
    if options.is_empty() {
        String::new()
    } else {
        format!(" ({options})")
    }
}

/// The commitment line of a challenge to a game with chance: the SHA-256 of its seed, shown
/// before anyone accepts.
fn commitment_spans(seed: Option<&str>) -> Vec<Span> {
    let Some(seed) = seed else {
        return Vec::new();
    };
    vec![
        Span::Text("\n".into()),
        Span::Msg(Msg::new("challenge-dice").span("commitment", fingerprint(seed))),
    ]
}

/// How many hex digits of a commitment a chat is shown: its fingerprint (issue 37, item 5).
/// Sixty-four bits are as hard to match by another seed as the whole; the record and
/// `/export` carry all 64 digits.
pub const FINGERPRINT_DIGITS: usize = 16;

/// The first [`FINGERPRINT_DIGITS`] of the commitment to `seed`, as code.
fn fingerprint(seed: &str) -> Span {
    let mut commitment = crate::export::commitment_of_hex(seed);
    commitment.truncate(FINGERPRINT_DIGITS);
    Span::Code(commitment)
}

/// Items joined by commas (`@bob, @carol`).
pub(super) fn list_msg(items: Vec<Msg>) -> Msg {
    Msg::list(items, "list-comma", "list-comma")
}

/// A challenge's post: who challenges whom to what, on which terms, with the dice committed
/// and the buttons to answer; the people invited (`named`, in order) are notified.
fn challenge_post(
    challenge: &Challenge,
    challenger: &User,
    named: &[Named],
    tags: &RatingTags,
) -> Reply {
    let id = challenge.game;
    let seats = id.seats().len();
    let terms = Terms {
        stake: challenge.stake,
        move_millis: challenge.move_millis,
    };
    let said = |message: &'static str| {
        Msg::new(message)
            .msg("challenger", rated_person(challenger, tags))
            .msg("name", game_msg(id))
            .text("options", options_suffix(&challenge.options))
            .text("challenge", format!("#{}", challenge.id))
            .msg("terms", terms.describe())
    };
    let message = if named.is_empty() && seats > 2 {
        said("challenge-gathering").count("seats", seats)
    } else if named.is_empty() {
        said("challenge-open")
    } else {
        let people = named
            .iter()
            .map(|named| match named {
                Named::User(user) => rated_person(user, tags),
                // Someone the bot has not seen yet: the platform notifies a typed @username
                // by itself where it can.
                Named::Username(username) => {
                    Msg::new("person").text("person", format!("@{username}"))
                }
            })
            .collect();
        let message = said("challenge-named").msg("people", list_msg(people));
        match challenge.computer {
            Some(level) => message.msg(
                "beside",
                Msg::new("challenge-computer-beside").num("level", level),
            ),
            None => message.text("beside", ""),
        }
    };
    let mut spans = vec![
        Span::Msg(message),
        Span::Text(" ".into()),
        Span::Msg(Msg::new("challenge-until").moment("until", challenge.expires_at.0)),
    ];
    spans.extend(commitment_spans(challenge.dice_seed.as_deref()));
    if !challenge.rated && challenge.computer.is_none() {
        spans.push(Span::Text("\n".into()));
        spans.push(Span::Msg(Msg::new("challenge-casual")));
    }
    let no = challenge.id;
    Reply {
        challenge: Some(no),
        // The invited must act; an open offer calls nobody.
        notify: named
            .iter()
            .filter_map(|named| match named {
                Named::User(user) => Some(user.platform_user_id.clone()),
                Named::Username(_) => None,
            })
            .collect(),
        spans,
        buttons: if named.is_empty() && seats > 2 {
            gathering_buttons(no)
        } else {
            challenge_buttons(no)
        },
        ..Reply::default()
    }
}

/// What became of a challenge, as its announcement tells it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Update {
    /// Its challenger withdrew it (`/cancel`).
    Withdrawn,
    /// An invitee declined it.
    Declined,
    /// Someone joined an open challenge still gathering people.
    Joined,
    /// An invitee accepted; others have still to.
    Accepted,
}

impl Update {
    const ALL: [Update; 4] = [
        Update::Withdrawn,
        Update::Declined,
        Update::Joined,
        Update::Accepted,
    ];

    fn as_str(self) -> &'static str {
        match self {
            Update::Withdrawn => "withdrawn",
            Update::Declined => "declined",
            Update::Joined => "joined",
            Update::Accepted => "accepted",
        }
    }

    fn parse(text: &str) -> Option<Update> {
        Update::ALL
            .into_iter()
            .find(|update| update.as_str() == text)
    }

    /// The announcement's payload: `{"challenge":3,"update":"declined","by":7}`.
    fn payload(self, challenge: ChallengeNo, by: UserId) -> serde_json::Value {
        serde_json::json!({"challenge": challenge.0, "update": self.as_str(), "by": by.0})
    }
}

/// Challenge `challenge` as an acceptance sees it: who has still to accept.
fn waiting_on(challenge: Challenge) -> Invitation {
    let mut waiting = Vec::new();
    let mut waiting_usernames = Vec::new();
    for invitee in &challenge.invitees {
        match &invitee.invitee {
            Invitee::User(id) if invitee.accepted_at.is_none() => waiting.push(*id),
            Invitee::User(_) => {}
            Invitee::Username(name) => waiting_usernames.push(name.clone()),
        }
    }
    Invitation {
        challenge,
        newly: true,
        waiting,
        waiting_usernames,
    }
}

/// "@bob declined challenge #3 (Koan)", or withdrew it.
fn settled_reply(update: Update, by: &User, challenge: &Challenge) -> Reply {
    let message = if update == Update::Withdrawn {
        "challenge-withdrawn"
    } else {
        "challenge-declined"
    };
    let no = challenge.id;
    Reply {
        challenge: Some(no),
        spans: vec![Span::Msg(
            Msg::new(message)
                .span("person", mention(by))
                .text("challenge", format!("#{no}"))
                .msg("name", game_msg(challenge.game)),
        )],
        ..Reply::default()
    }
}
