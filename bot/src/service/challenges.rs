//! Challenges: `/play`, `/accept`, `/decline`, `/cancel`, and the start of a game.

use super::*;

impl Service {
    pub(super) async fn play(&self, ctx: &Ctx, args: &str) -> Outcome2<Reply> {
        self.not_repeated(ctx).await?;
        let mut words = args.split_whitespace();
        let Some(name) = words.next() else {
            return Err(UserError::Usage(
                "/play <game> [@user ...] [option=value ...], e.g. /play konane @bob size=10",
            )
            .into());
        };
        let id = parse_game(name)?;
        // The people invited are the request's mentions, as the platform resolved them.
        let named_people = self.mentioned(ctx).await?;
        let mut options = Vec::new();
        let (mut stake, mut time) = (None, None);
        for word in words {
            if word.starts_with('@') || word.starts_with("<@") {
                continue;
            } else if let Some(value) = word.strip_prefix("stake=") {
                stake = Some(value);
            } else if let Some(value) = word.strip_prefix("time=") {
                time = Some(value);
            } else {
                options.push(word);
            }
        }
        AnyGame::start(id, &options, None).map_err(UserError::Setup)?;
        let terms = self.terms(ctx, id, stake, time).await?;
        let named = named_people.len() + 1;
        let seats = id.seats().len();
        let (ok, allowed) = if seats == 4 {
            (
                named_people.is_empty() || named == 2 || named == 4,
                "2 or 4 players",
            )
        } else {
            (named_people.is_empty() || named == 2, "2 players")
        };
        if !ok {
            return Err(UserError::Players {
                game: id.name(),
                allowed,
                named,
            }
            .into());
        }
        let mut invited: Vec<User> = Vec::new();
        let mut usernames: Vec<&str> = Vec::new();
        for named in &named_people {
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
        let invited_ids: Vec<UserId> = invited.iter().map(|u| u.id).collect();
        let options_text = options.join(" ");
        let ttl = i64::try_from(self.challenge_ttl.as_millis()).unwrap_or(i64::MAX);
        let challenge = self
            .store
            .create_challenge_with_invitees(
                &NewChallenge {
                    chat: ctx.chat.id,
                    game: id,
                    options: &options_text,
                    challenger: ctx.user.id,
                    invited: &invited_ids,
                    expires_at: ctx.now.plus_millis(ttl),
                    stake: terms.stake,
                    move_millis: terms.move_millis,
                },
                &invitees(&named_people),
                Some(&ctx.key),
            )
            .await?;
        let mut spans = vec![mention(&ctx.user)];
        if named_people.is_empty() {
            spans.push(Span::Text(format!(
                " offers a game of {}{} to anyone here (challenge #{}), {}. /accept to take it.",
                id.name(),
                options_suffix(&options_text),
                challenge.id,
                terms.describe()
            )));
        } else {
            spans.push(Span::Text(" challenges ".into()));
            for (i, named) in named_people.iter().enumerate() {
                if i > 0 {
                    spans.push(Span::Text(", ".into()));
                }
                match named {
                    Named::User(user) => spans.push(mention(user)),
                    // Someone the bot has not seen yet: the platform notifies a typed
                    // @username by itself where it can.
                    Named::Username(username) => spans.push(Span::Text(format!("@{username}"))),
                }
            }
            spans.push(Span::Text(format!(
                " to {}{} (challenge #{}), {}. /accept or /decline.",
                id.name(),
                options_suffix(&options_text),
                challenge.id,
                terms.describe()
            )));
        }
        let no = challenge.id;
        Ok(Reply {
            // The invited must act; an open offer calls nobody.
            notify: invited.iter().map(|u| u.platform_user_id.clone()).collect(),
            spans,
            buttons: challenge_buttons(no),
            ..Reply::default()
        })
    }

    /// Refuses a request already applied, before anything else is looked at (the change itself
    /// records the request key in its transaction, which settles races between re-deliveries).
    pub(super) async fn not_repeated(&self, ctx: &Ctx) -> Outcome2<()> {
        if self.store.request_handled(&ctx.key).await? {
            return Err(UserError::Conflict(Conflict::Duplicate).into());
        }
        Ok(())
    }

    pub(super) async fn settle(
        &self,
        ctx: &Ctx,
        args: &str,
        settlement: Settlement,
    ) -> Outcome2<Reply> {
        self.not_repeated(ctx).await?;
        let now = ctx.now;
        self.store.expire_challenges(now).await?;
        let number = game_number(args).0.map(|GameNo(n)| ChallengeNo(n));
        let challenge = match number {
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
                        return Err(UserError::WhichChallenge(list.join(", "), first.id).into());
                    }
                }
            }
        };
        // A seat kept for the actor's @username becomes theirs before anything else.
        let challenge = if settlement == Settlement::Cancel {
            challenge
        } else {
            self.bind_seat(ctx, challenge).await?
        };
        let no = challenge.id;
        match settlement {
            Settlement::Decline if challenge.is_open() => {
                return Err(UserError::DeclineOpen(no).into());
            }
            Settlement::Cancel if challenge.challenger != ctx.user.id => {
                return Err(UserError::NotChallenger(no).into());
            }
            Settlement::Accept | Settlement::Decline if challenge.challenger == ctx.user.id => {
                return Err(UserError::OwnChallenge(no).into());
            }
            Settlement::Accept | Settlement::Decline
                if !challenge.is_open()
                    && !challenge.invited.contains(&ctx.user.id)
                    && !awaits(&challenge, &ctx.user) =>
            {
                return Err(UserError::NotInvited(no).into());
            }
            _ => {}
        }
        if settlement != Settlement::Accept {
            self.store
                .settle_challenge_once(no, settlement, ctx.user.id, now, &ctx.key)
                .await?;
            let verb = if settlement == Settlement::Cancel {
                "withdrew"
            } else {
                "declined"
            };
            return Ok(Reply {
                placement: Placement::UpdatePressed,
                spans: vec![
                    mention(&ctx.user),
                    Span::Text(format!(
                        " {verb} challenge #{no} ({}).",
                        challenge.game.name()
                    )),
                ],
                ..Reply::default()
            });
        }
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
        if challenge.invitees.len() > 1 {
            return self.accept_invitation(ctx, &challenge, now).await;
        }
        self.start_game(ctx, &challenge, now, Some(&ctx.key)).await
    }

    /// One invitee of a challenge to several people accepts: the game starts when nobody is
    /// left to accept; until then the reply says who is.
    pub(super) async fn accept_invitation(
        &self,
        ctx: &Ctx,
        challenge: &Challenge,
        now: Timestamp,
    ) -> Outcome2<Reply> {
        let no = challenge.id;
        let invitation = self
            .store
            .accept_invitation(no, ctx.user.id, now, Some(&ctx.key))
            .await?;
        if invitation.complete() {
            // The request key is recorded with the acceptance; the game's creation is settled
            // by the challenge's compare-and-set.
            return self.start_game(ctx, &invitation.challenge, now, None).await;
        }
        let verb = if invitation.newly {
            " accepted"
        } else {
            " has already accepted"
        };
        let mut spans = vec![
            mention(&ctx.user),
            Span::Text(format!(
                "{verb} challenge #{no} ({}). Still to accept: ",
                challenge.game.name()
            )),
        ];
        let mut notify = Vec::new();
        for (i, id) in invitation.waiting.iter().enumerate() {
            if i > 0 {
                spans.push(Span::Text(", ".into()));
            }
            match self.store.user(*id).await? {
                Some(user) => {
                    notify.push(user.platform_user_id.clone());
                    spans.push(mention(&user));
                }
                None => spans.push(Span::Text(format!("user {id}"))),
            }
        }
        for (i, username) in invitation.waiting_usernames.iter().enumerate() {
            if i > 0 || !invitation.waiting.is_empty() {
                spans.push(Span::Text(", ".into()));
            }
            spans.push(Span::Text(format!("@{username}")));
        }
        spans.push(Span::Text(".".into()));
        Ok(Reply {
            placement: Placement::UpdatePressed,
            notify,
            spans,
            buttons: challenge_buttons(no),
            ..Reply::default()
        })
    }

    pub(super) async fn start_game(
        &self,
        ctx: &Ctx,
        challenge: &Challenge,
        now: Timestamp,
        request: Option<&RequestKey>,
    ) -> Outcome2<Reply> {
        let id = challenge.game;
        let mut people = vec![challenge.challenger];
        if challenge.is_open() {
            people.push(ctx.user.id);
        } else {
            people.extend(challenge.invited.iter().copied());
        }
        // Seats by lot.
        let seat_count = id.seats().len();
        let mut seats: Vec<UserId> = Vec::with_capacity(seat_count);
        if people.len() == seat_count {
            let mut pool = people.clone();
            while !pool.is_empty() {
                let pick = self.dice.draw(pool.len())?;
                seats.push(pool.remove(pick));
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
        let mut state = AnyGame::start(id, &options, None).map_err(UserError::Setup)?;
        let community = ctx.chat.community;
        if challenge.stake > 0 {
            // New players get their starting grant before their stake is taken.
            for person in &people {
                self.store.open_wallet(community, *person).await?;
            }
        }
        let turn = match state.status() {
            Status::Decision(seat) => seats.get(usize::from(seat.0)).map(|user| TurnStart {
                user: *user,
                at: now,
            }),
            _ => None,
        };
        let new = NewGame {
            chat: ctx.chat.id,
            game: id,
            options: &challenge.options,
            start_position: None,
            seats: &seats,
            accepting: Some(Acceptance {
                challenge: challenge.id,
                by: ctx.user.id,
                now,
            }),
            community,
            stake: challenge.stake,
            move_millis: challenge.move_millis,
            turn,
        };
        let created = match request {
            Some(request) => self.store.create_game_once(&new, request).await,
            None => self.store.create_game(&new).await,
        };
        let mut record = match created {
            Ok(record) => record,
            Err(StoreError::Conflict(Conflict::InsufficientFunds { user, balance, .. })) => {
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
        };
        // Opening rolls (a roll-off), stored before anyone moves.
        let mut played = Played::default();
        self.resolve_chance(&mut state, &mut played)?;
        let mut consequences = None;
        if !played.actions.is_empty() {
            consequences = Some(
                self.append_played(&mut record, &state, &played, None, now)
                    .await?,
            );
        }
        let mut spans = vec![Span::Text(format!(
            "Game #{} of {} begins. Seats by lot: ",
            record.id,
            id.name()
        ))];
        for (i, holder) in record.seats.iter().enumerate() {
            if i > 0 {
                spans.push(Span::Text(", ".into()));
            }
            spans.push(Span::Text(format!("{} ", seat_name(id, holder.seat))));
            spans.push(mention(&holder.user));
        }
        spans.push(Span::Text(format!(
            ". {}.",
            Terms::of(&record).describe_sentence()
        )));
        for line in played.narration {
            spans.push(Span::Text(format!(" {line}.")));
        }
        if let Some(consequences) = &consequences {
            spans.extend(money_spans(&record, consequences));
        }
        spans.push(Span::Text("\n".into()));
        let loaded = Loaded {
            record,
            state,
            last: played.last,
            moved: false,
        };
        self.board_reply(&loaded, spans).await
    }
}

/// The Accept, Decline and Cancel buttons of a challenge.
pub(super) fn challenge_buttons(no: impl std::fmt::Display) -> Vec<Vec<Button>> {
    vec![vec![
        button("Accept", format!("a{no}")),
        button("Decline", format!("d{no}")),
        button("Cancel", format!("x{no}")),
    ]]
}

pub(super) fn options_suffix(options: &str) -> String {
    if options.is_empty() {
        String::new()
    } else {
        format!(" ({options})")
    }
}
