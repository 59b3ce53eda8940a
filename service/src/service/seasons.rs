//! Round-robin seasons (issue 39). A moderator opens one in a chat with `/season <game>
//! [days=30] [size=8] [time=2d]` (typed `/season start konane …` reads the same), for a
//! two-player game; people join with the Join button until every place is taken, or a
//! moderator presses Begin (three players at least). Then every pair plays one game (one, not
//! two: seats, and so who moves first, are drawn by lot for each), all created at once with
//! the season's terms (friendly, rated like any other game), told in one message rather than a
//! board each, so that a chat is not flooded: each game's board comes with `/board #n` or its
//! first reminder. `/season` shows the standings: a point for a win, half for a draw; ties
//! broken by the points the tied players took from each other, then by Sonneborn–Berger. The
//! season is over when its games are, or its days pass: a game still running then is scored
//! as its clock says (the player whose time ran out loses it; otherwise it counts as a draw).

use tabula_core::{AnyGame, GameId, Status};

use super::stats::{Result3, result_for};
use super::{
    Ctx, Handled, ModeratorAction, Placement, Played, Reply, Service, ServiceError, UserError,
    said_button, spans_reply,
};
use crate::commands::ParsedCommand;
use crate::l10n::{Msg, Span, game_msg};
use crate::store::{
    FinishedGame, GameDice, GameRecord, GameStatus, NewGame, NewSeason, Season, SeasonStatus,
    Timestamp, TurnStart, User, UserId,
};
use crate::values::DAY_MILLIS;
use tabula_render::table::{TableRow, TableWords, standings_table};

/// The days of a season when `/season` names none.
pub(super) const DEFAULT_DAYS: i64 = 30;
/// The places of a season when `/season` names none.
pub(super) const DEFAULT_SIZE: i64 = 8;
/// The fewest players a season begins with.
pub(super) const MIN_PLAYERS: usize = 3;

/// One person's line of the standings: points are counted in halves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Standing {
    /// Who.
    pub(super) user: UserId,
    /// Games scored.
    pub(super) played: usize,
    /// Won.
    pub(super) wins: usize,
    /// Drawn.
    pub(super) draws: usize,
    /// Lost.
    pub(super) losses: usize,
    /// Points, in halves.
    pub(super) halves: i64,
    /// Sonneborn–Berger, in quarters (points of the beaten, half the points of the drawn).
    pub(super) sb_quarters: i64,
}

/// One scored game of a season: its two people and how it went for the first.
pub(super) type Scored = (UserId, UserId, Result3);

/// The standings of `players` from their `scored` games, best first: points, then the points
/// the tied players took from each other, then Sonneborn–Berger, then the order they joined.
pub(super) fn standings(players: &[UserId], scored: &[Scored]) -> Vec<Standing> {
    let halves_of = |result: Result3| match result {
        Result3::Win => 2,
        Result3::Draw => 1,
        Result3::Loss => 0,
    };
    let flip = |result: Result3| match result {
        Result3::Win => Result3::Loss,
        Result3::Loss => Result3::Win,
        Result3::Draw => Result3::Draw,
    };
    // Each person's results against each opponent.
    let results = |user: UserId| -> Vec<(UserId, Result3)> {
        scored
            .iter()
            .filter_map(|&(a, b, result)| {
                if a == user {
                    Some((b, result))
                } else if b == user {
                    Some((a, flip(result)))
                } else {
                    None
                }
            })
            .collect()
    };
    let points = |user: UserId| -> i64 { results(user).iter().map(|(_, r)| halves_of(*r)).sum() };
    let mut table: Vec<Standing> = players
        .iter()
        .map(|&user| {
            let mine = results(user);
            let count = |wanted: Result3| mine.iter().filter(|(_, r)| *r == wanted).count();
            Standing {
                user,
                played: mine.len(),
                wins: count(Result3::Win),
                draws: count(Result3::Draw),
                losses: count(Result3::Loss),
                halves: points(user),
                sb_quarters: mine
                    .iter()
                    .map(|(opponent, result)| points(*opponent) * halves_of(*result))
                    .sum(),
            }
        })
        .collect();
    let order = |user: UserId| {
        players
            .iter()
            .position(|p| *p == user)
            .unwrap_or(usize::MAX)
    };
    // Head-to-head among those level on points.
    let between = |user: UserId, group: &[UserId]| -> i64 {
        results(user)
            .iter()
            .filter(|(opponent, _)| group.contains(opponent))
            .map(|(_, r)| halves_of(*r))
            .sum()
    };
    let level: Vec<(UserId, i64)> = table.iter().map(|s| (s.user, s.halves)).collect();
    table.sort_by(|a, b| {
        let group = |points: i64| -> Vec<UserId> {
            level
                .iter()
                .filter(|(_, p)| *p == points)
                .map(|(u, _)| *u)
                .collect()
        };
        b.halves
            .cmp(&a.halves)
            .then_with(|| {
                let tied = group(a.halves);
                between(b.user, &tied).cmp(&between(a.user, &tied))
            })
            .then(b.sb_quarters.cmp(&a.sb_quarters))
            .then(order(a.user).cmp(&order(b.user)))
    });
    table
}

/// How `record` scores for its two people, if it does: a finished game by its result; once
/// the season is over (`ended`), a game still running as its clock says.
fn score(record: &GameRecord, ended: Option<Timestamp>) -> Option<Scored> {
    let mut people = record.seats.iter().map(|holder| holder.user.id);
    let (a, b) = (people.next()?, people.next()?);
    match record.status {
        GameStatus::Finished => {
            let finished = FinishedGame {
                id: record.id,
                game: record.game,
                result: record.result.clone().unwrap_or_default(),
                ended_at: record.updated_at,
                seats: record
                    .seats
                    .iter()
                    .map(|holder| (holder.seat, holder.user.id, false))
                    .collect(),
            };
            Some((a, b, result_for(&finished, a)?))
        }
        GameStatus::Aborted => None,
        GameStatus::Active => {
            let ended = ended?;
            match &record.clock {
                Some(clock) if clock.deadline_at <= ended => Some(if clock.user == a {
                    (a, b, Result3::Loss)
                } else {
                    (a, b, Result3::Win)
                }),
                _ => Some((a, b, Result3::Draw)),
            }
        }
    }
}

impl Service {
    /// `/season`: with a game, opens a season (moderators); without, shows this chat's.
    pub(super) async fn season_command(
        &self,
        ctx: &Ctx,
        command: &ParsedCommand,
    ) -> Handled<Reply> {
        match command.game {
            Some(game) => self.open_season(ctx, command, game).await,
            None => {
                let season = self
                    .store
                    .season_of_chat(ctx.chat.id)
                    .await?
                    .ok_or(UserError::NoSeason)?;
                match season.status {
                    SeasonStatus::Open => Ok(self.season_post(&season).await?.to_actor()),
                    _ => Ok(self.standings_reply(&season, ctx.now).await?.to_actor()),
                }
            }
        }
    }

    async fn open_season(
        &self,
        ctx: &Ctx,
        command: &ParsedCommand,
        game: GameId,
    ) -> Handled<Reply> {
        if !ctx.moderator {
            return Err(UserError::NotModerator(ModeratorAction::Seasons).into());
        }
        self.not_repeated(ctx).await?;
        if game.seats().len() != 2 {
            return Err(UserError::SeasonTwoPlayers(game).into());
        }
        // The game enabled here, and the time within the community's bounds.
        let terms = self.terms(ctx, game, Some(0), command.time_millis).await?;
        let new = NewSeason {
            chat: ctx.chat.id,
            community: ctx.chat.community,
            game,
            size: command.integer("size").unwrap_or(DEFAULT_SIZE),
            days: command.integer("days").unwrap_or(DEFAULT_DAYS),
            move_millis: terms.move_millis,
            by: ctx.user.id,
            now: ctx.now,
        };
        let (season, opened) = self.store.open_season(&new).await?;
        if !opened {
            return Err(UserError::SeasonRunning(season.id).into());
        }
        self.season_post(&season).await.map_err(Into::into)
    }

    /// The post of an open season: its terms, who joined, Join and Begin.
    async fn season_post(&self, season: &Season) -> Result<Reply, ServiceError> {
        let people = self.people_of(&season.players).await?;
        let names = people
            .iter()
            .map(|user| Msg::new("person").msg("person", super::narration::name_msg(user)))
            .collect();
        let id = season.id;
        Ok(Reply {
            spans: vec![Span::Msg(
                Msg::new("season-open")
                    .text("season", format!("#{id}"))
                    .msg("name", game_msg(season.game))
                    .num("size", season.size)
                    .num("days", season.days)
                    .msg("time", crate::l10n::duration_msg(season.move_millis))
                    .num("min", i64::try_from(MIN_PLAYERS).unwrap_or(3))
                    .count("count", season.players.len())
                    .msg("people", super::challenges::list_msg(names)),
            )],
            buttons: vec![vec![
                said_button(Msg::new("button-join-season"), format!("J{id}")),
                said_button(Msg::new("button-begin-season"), format!("B{id}")),
            ]],
            ..Reply::default()
        })
    }

    async fn people_of(&self, users: &[UserId]) -> Result<Vec<User>, ServiceError> {
        let mut people = Vec::with_capacity(users.len());
        for user in users {
            if let Some(user) = self.store.user(*user).await? {
                people.push(user);
            }
        }
        Ok(people)
    }

    /// The season `id` of this chat.
    async fn season_here(&self, ctx: &Ctx, id: i64) -> Handled<Season> {
        Ok(self
            .store
            .season(id)
            .await?
            .filter(|season| season.chat == ctx.chat.id)
            .ok_or(UserError::BadButton)?)
    }

    /// The Join button (`J<season>`).
    pub(super) async fn join_season(&self, ctx: &Ctx, id: i64) -> Handled<Reply> {
        self.not_repeated(ctx).await?;
        let season = self.season_here(ctx, id).await?;
        if season.status != SeasonStatus::Open {
            return Err(UserError::SeasonNotOpen(id).into());
        }
        if season.players.contains(&ctx.user.id) {
            return Err(UserError::SeasonJoined(id).into());
        }
        let (season, added) = self.store.join_season(id, ctx.user.id, ctx.now).await?;
        if !added {
            return Err(UserError::SeasonFull(id).into());
        }
        if usize::try_from(season.size).is_ok_and(|size| season.players.len() >= size) {
            return self.begin_season(ctx, season).await;
        }
        let mut reply = self.season_post(&season).await?;
        reply.placement = Placement::UpdatePressed;
        Ok(reply)
    }

    /// The Begin button (`B<season>`): a moderator begins it with the players who joined.
    pub(super) async fn begin_pressed(&self, ctx: &Ctx, id: i64) -> Handled<Reply> {
        if !ctx.moderator {
            return Err(UserError::NotModerator(ModeratorAction::Seasons).into());
        }
        self.not_repeated(ctx).await?;
        let season = self.season_here(ctx, id).await?;
        if season.status != SeasonStatus::Open {
            return Err(UserError::SeasonNotOpen(id).into());
        }
        if season.players.len() < MIN_PLAYERS {
            return Err(UserError::SeasonTooFew {
                season: id,
                count: season.players.len(),
            }
            .into());
        }
        self.begin_season(ctx, season).await
    }

    /// Creates every pair's game, seats by lot, and marks the season running, in one
    /// transaction; the games with opening rolls have them rolled.
    async fn begin_season(&self, ctx: &Ctx, season: Season) -> Handled<Reply> {
        let id = season.game;
        let start = AnyGame::start(id, &[], None).map_err(UserError::Setup)?;
        let mut pairs = Vec::new();
        for (i, &a) in season.players.iter().enumerate() {
            for &b in &season.players[i + 1..] {
                pairs.push(if self.dice.draw(2)? == 0 {
                    vec![a, b]
                } else {
                    vec![b, a]
                });
            }
        }
        let mut dice = Vec::with_capacity(pairs.len());
        for _ in &pairs {
            dice.push(
                self.fresh_seed(id)?
                    .map(|seed| GameDice { seed, nonce: None }),
            );
        }
        let games: Vec<NewGame<'_>> = pairs
            .iter()
            .zip(dice)
            .map(|(seats, dice)| NewGame {
                chat: season.chat,
                game: id,
                options: "",
                start_position: None,
                seats,
                accepting: None,
                community: season.community,
                stake: 0,
                move_millis: season.move_millis,
                turn: match start.status() {
                    Status::Decision(seat) => {
                        seats.get(usize::from(seat.0)).map(|user| TurnStart {
                            user: *user,
                            at: ctx.now,
                        })
                    }
                    _ => None,
                },
                dice,
            })
            .collect();
        let ends_at = ctx.now.plus_millis(season.days.saturating_mul(DAY_MILLIS));
        let payload = serde_json::json!({ "season_begun": season.id });
        let pending = self.pending_payload(payload, ctx.pressed.as_deref());
        let announce = pending.as_ref().map(|p| (season.chat, p.as_announce()));
        let Some((created, announced)) = self
            .store
            .begin_season(
                season.id,
                &games,
                ctx.now,
                ends_at,
                announce.as_ref().map(|(chat, a)| (*chat, a)),
            )
            .await?
        else {
            return Err(UserError::SeasonNotOpen(season.id).into());
        };
        // Opening rolls, where the game starts with chance (as a challenge's start does).
        for game in &created {
            if let Some(mut record) = self.store.game(*game).await? {
                let mut state = start.clone();
                let mut played = Played::default();
                self.resolve_chance(&record, 0, &mut state, &mut played)?;
                if !played.actions.is_empty() {
                    self.append_played(&mut record, &state, &played, None, None, ctx.now)
                        .await?;
                }
            }
        }
        let season = self
            .store
            .season(season.id)
            .await?
            .ok_or_else(|| ServiceError::Corrupt("the season vanished".into()))?;
        let mut reply = self.begun_post(&season).await?;
        reply.announced = announced;
        reply.placement = Placement::UpdatePressed;
        Ok(reply)
    }

    /// The post of a season that began: its games, its players notified.
    async fn begun_post(&self, season: &Season) -> Result<Reply, ServiceError> {
        let people = self.people_of(&season.players).await?;
        let mut lines = Vec::new();
        for game in &season.games {
            if let Some(record) = self.store.game(*game).await? {
                let mut names = record
                    .seats
                    .iter()
                    .map(|holder| super::narration::name_msg(&holder.user));
                if let (Some(first), Some(second)) = (names.next(), names.next()) {
                    lines.push(Span::Text("\n".into()));
                    lines.push(Span::Msg(
                        Msg::new("season-pairing")
                            .text("game", format!("#{game}"))
                            .msg("first", first)
                            .msg("second", second),
                    ));
                }
            }
        }
        Ok(Reply {
            spans: vec![Span::Msg(
                Msg::new("season-begun")
                    .text("season", format!("#{}", season.id))
                    .msg("name", game_msg(season.game))
                    .count("games", season.games.len())
                    .moment("until", season.ends_at.map_or(0, |at| at.0))
                    .msg("people", super::narration::mentions_msg(&people)),
            )]
            .into_iter()
            .chain(lines)
            .collect(),
            notify: people.iter().map(|u| u.platform_user_id.clone()).collect(),
            ..Reply::default()
        })
    }

    /// The standings of `season` at `now`, as text and a table picture.
    async fn standings_reply(
        &self,
        season: &Season,
        now: Timestamp,
    ) -> Result<Reply, ServiceError> {
        let over =
            season.status == SeasonStatus::Over || season.ends_at.is_some_and(|at| at <= now);
        let ended = if over {
            season.ends_at.or(Some(now))
        } else {
            None
        };
        let mut scored = Vec::new();
        let mut left = 0;
        for game in &season.games {
            if let Some(record) = self.store.game(*game).await? {
                if record.status == GameStatus::Active {
                    left += 1;
                }
                scored.extend(score(&record, ended));
            }
        }
        let table = standings(&season.players, &scored);
        let people = self.people_of(&season.players).await?;
        let name_of = |user: UserId| {
            people
                .iter()
                .find(|p| p.id == user)
                .map_or_else(String::new, |p| p.display_name.clone())
        };
        let state = if over {
            Msg::new("season-state-over")
        } else {
            Msg::new("season-state-running")
                .count("left", left)
                .moment("until", season.ends_at.map_or(0, |at| at.0))
        };
        let mut spans = vec![Span::Msg(
            Msg::new("season-standings")
                .text("season", format!("#{}", season.id))
                .msg("name", game_msg(season.game))
                .msg("state", state.clone()),
        )];
        if over && let Some(first) = table.first() {
            spans.push(Span::Text(" ".into()));
            spans.push(Span::Msg(Msg::new("season-winner").msg(
                "person",
                Msg::new("verbatim").text("text", name_of(first.user)),
            )));
        }
        let mut reply_picture = None;
        if self.pictures {
            let lang = self
                .chat_lang(season.chat)
                .await
                .map_err(|failure| match failure {
                    super::Failure::Internal(error) => error,
                    super::Failure::User(error) => ServiceError::Corrupt(error.to_string()),
                })?;
            let words = TableWords {
                title: Msg::new("season-table-title")
                    .text("season", format!("#{}", season.id))
                    .msg("name", game_msg(season.game))
                    .to_text(lang),
                subtitle: Msg::new("season-standings")
                    .text("season", format!("#{}", season.id))
                    .msg("name", game_msg(season.game))
                    .msg("state", state.clone())
                    .to_text(lang)
                    .trim_end_matches(':')
                    .to_string(),
                header: Msg::new("season-table-header")
                    .to_text(lang)
                    .split('|')
                    .map(|word| word.trim().to_string())
                    .collect(),
            };
            let rows: Vec<TableRow> = table
                .iter()
                .enumerate()
                .map(|(rank, line)| TableRow {
                    cells: vec![
                        (rank + 1).to_string(),
                        name_of(line.user),
                        line.played.to_string(),
                        line.wins.to_string(),
                        line.draws.to_string(),
                        line.losses.to_string(),
                        halves(line.halves).to_text(lang),
                        quarters(line.sb_quarters).to_text(lang),
                    ],
                    highlight: rank == 0 && line.halves > 0,
                })
                .collect();
            reply_picture = Some(
                tokio::task::spawn_blocking(move || standings_table(&words, &rows))
                    .await
                    .map_err(ServiceError::from)?
                    .map_err(ServiceError::from)?,
            );
        }
        for (rank, line) in table.iter().enumerate() {
            spans.push(Span::Text(format!(
                "\n{}. {} ",
                rank + 1,
                name_of(line.user)
            )));
            spans.push(Span::Msg(
                Msg::new("season-line")
                    .msg("points", halves(line.halves))
                    .count("played", line.played)
                    .count("wins", line.wins)
                    .count("draws", line.draws)
                    .count("losses", line.losses)
                    .msg("sb", quarters(line.sb_quarters)),
            ));
        }
        let mut reply = spans_reply(spans);
        reply.picture = reply_picture;
        Ok(reply)
    }

    /// The season's announcement after a crash: begun (`season_begun`) or over
    /// (`season_over`), told from the season as it is.
    pub(super) async fn season_post_of(
        &self,
        payload: &serde_json::Value,
    ) -> Result<Option<Reply>, ServiceError> {
        let number = |key: &str| payload.get(key).and_then(serde_json::Value::as_i64);
        if let Some(id) = number("season_begun") {
            return match self.store.season(id).await? {
                Some(season) => self.begun_post(&season).await.map(Some),
                None => Ok(None),
            };
        }
        if let Some(id) = number("season_over") {
            return match self.store.season(id).await? {
                Some(season) => self
                    .standings_reply(&season, Timestamp::now())
                    .await
                    .map(Some),
                None => Ok(None),
            };
        }
        Ok(None)
    }

    /// Claims the seasons that ended (their announcements written with the claim).
    pub(super) async fn end_seasons(&self, now: Timestamp) -> Result<usize, ServiceError> {
        Ok(self.store.claim_ended_seasons(now, 16).await?.len())
    }
}

/// Points counted in halves, as said: `2`, `2.5` (`2,5` in Russian and Bulgarian).
fn halves(halves: i64) -> Msg {
    decimal(halves / 2, if halves % 2 == 0 { "none" } else { "5" })
}

/// Quarters as said: `4`, `4.25`, `4.5`, `4.75`.
fn quarters(quarters: i64) -> Msg {
    let fraction = match quarters % 4 {
        0 => "none",
        1 => "25",
        2 => "5",
        _ => "75",
    };
    decimal(quarters / 4, fraction)
}

/// A number with a fraction (`none`, or its digits), with the language's decimal sign.
fn decimal(whole: i64, fraction: &str) -> Msg {
    Msg::new("decimal")
        .num("whole", whole)
        .text("fraction", fraction)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_then_head_to_head_then_sonneborn_berger() {
        let (a, b, c, d) = (UserId(1), UserId(2), UserId(3), UserId(4));
        // A beats B, B beats C, C beats A (a cycle); A and B beat D, who draws with C.
        let scored = [
            (a, b, Result3::Win),
            (b, c, Result3::Win),
            (c, a, Result3::Win),
            (a, d, Result3::Win),
            (b, d, Result3::Win),
            (d, c, Result3::Draw),
        ];
        let table = standings(&[a, b, c, d], &scored);
        let order: Vec<UserId> = table.iter().map(|s| s.user).collect();
        // A and B have 2 points, C 1.5, D 0.5. Between A and B, A beat B.
        assert_eq!(order, vec![a, b, c, d]);
        assert_eq!(table[0].halves, 4);
        assert_eq!(table[2].halves, 3);
        assert_eq!(table[3].halves, 1);
        // Sonneborn–Berger of A: beat B (2 points) and D (0.5): 2.5 = 10 quarters.
        assert_eq!(table[0].sb_quarters, 10);
        assert_eq!((table[2].wins, table[2].draws, table[2].losses), (1, 1, 1));
    }

    #[test]
    fn level_head_to_head_falls_to_sonneborn_berger() {
        let (a, b, c) = (UserId(1), UserId(2), UserId(3));
        // A and B drew, and each beat C: level on points, between them and on
        // Sonneborn–Berger.
        let scored = [
            (a, b, Result3::Draw),
            (a, c, Result3::Win),
            (c, b, Result3::Loss),
        ];
        let table = standings(&[b, a, c], &scored);
        assert_eq!(table[0].halves, table[1].halves);
        assert_eq!(table[0].sb_quarters, table[1].sb_quarters);
        // Fully level: the order they joined.
        assert_eq!(table[0].user, b);
        assert_eq!(table[2].user, c);
    }

    #[test]
    fn halves_and_quarters_are_said_with_the_languages_decimal_sign() {
        let english = crate::l10n::Lang::ENGLISH;
        let russian = crate::l10n::Lang::parse("ru").expect("ru");
        assert_eq!(halves(5).to_text(english), "2.5");
        assert_eq!(halves(5).to_text(russian), "2,5");
        assert_eq!(halves(4).to_text(english), "2");
        assert_eq!(quarters(9).to_text(english), "2.25");
        assert_eq!(quarters(10).to_text(russian), "2,5");
        assert_eq!(quarters(8).to_text(english), "2");
    }
}
