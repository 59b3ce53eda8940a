//! `/rating [@person] [game]` (issue 39): a person's Glicko-2 ratings in this server or group,
//! per game, each right after the game's name and marked `?` while provisional
//! ([`crate::ratings`]); shown to the person who asked.

use tabula_core::GameId;

use super::narration::RatingTags;
use super::people::Named;
use super::{Ctx, Handled, ModeratorAction, Reply, Service, ServiceError, UserError, spans_reply};
use crate::commands::CommandId;
use crate::l10n::{Msg, Span, game_msg};
use crate::ratings::Rating;
use crate::store::{CommunityId, DAY_MILLIS, GameRecord, RatingReset, User, UserId};
use tabula_render::chart::{ChartLabels, ChartPoint, rating_chart};

/// A rating as shown beside a name: rounded, with `?` while provisional (`1620?`).
pub(super) fn rating_tag(rating: Rating) -> String {
    #[allow(clippy::cast_possible_truncation)]
    let rounded = rating.rating.round() as i64;
    if rating.provisional() {
        format!("{rounded}?")
    } else {
        rounded.to_string()
    }
}

/// The most people on a rating leaderboard.
const LEADERBOARD_SIZE: usize = 10;

impl Service {
    /// `/leaderboard <game>`: the highest settled ratings in `game` here, of people who
    /// played at least the community's `leaderboard_games` rated games of it in its last
    /// `leaderboard_months` months (5 in 6 unless moderators changed them).
    pub(super) async fn rating_leaderboard(&self, ctx: &Ctx, game: GameId) -> Handled<Reply> {
        let settings = self.store.settings(ctx.chat.community).await?;
        // A month of the leaderboard's is a twelfth of a year.
        let since = crate::store::Timestamp::now()
            .plus_millis(-settings.leaderboard_months * 365 * DAY_MILLIS / 12);
        let table = self
            .store
            .rating_leaderboard(
                ctx.chat.community,
                game,
                since,
                settings.leaderboard_games,
                LEADERBOARD_SIZE,
            )
            .await?;
        if table.is_empty() {
            return Ok(spans_reply(vec![Span::Msg(
                Msg::new("leaderboard-rating-none")
                    .msg("name", game_msg(game))
                    .text("community", ctx.chat.community_title.clone())
                    .num("games", settings.leaderboard_games)
                    .num("months", settings.leaderboard_months),
            )]));
        }
        let mut spans = vec![Span::Msg(
            Msg::new("leaderboard-rating")
                .msg("name", game_msg(game))
                .text("community", ctx.chat.community_title.clone()),
        )];
        for (rank, (user, rating)) in table.iter().enumerate() {
            let name = match self.store.user(*user).await? {
                Some(user) => user.display_name,
                None => continue,
            };
            #[allow(clippy::cast_possible_truncation)]
            let rounded = rating.rating.round() as i64;
            spans.push(Span::Text(format!("\n{}. {name}: ", rank + 1)));
            spans.push(Span::Msg(
                Msg::new("leaderboard-rating-line").num("rating", rounded),
            ));
        }
        Ok(spans_reply(spans))
    }

    /// `/rating`: the ratings of the person named (or the asker's), in `game` or in every game.
    pub(super) async fn rating(&self, ctx: &Ctx, game: Option<GameId>) -> Handled<Reply> {
        let person = match self.mentioned(ctx).await?.into_iter().next() {
            Some(Named::User(user)) => user,
            Some(Named::Username(username)) => {
                return Err(UserError::UnknownPerson(crate::l10n::quote(&username)).into());
            }
            None => ctx.user.clone(),
        };
        let ratings: Vec<Msg> = self
            .store
            .ratings_as_of(ctx.chat.community, person.id, ctx.now)
            .await?
            .into_iter()
            .filter(|(id, _)| game.is_none_or(|game| game == *id))
            .map(|(id, shown)| {
                #[allow(clippy::cast_possible_truncation)]
                let rounded = shown.rating.rating.round() as i64;
                Msg::new("rating-entry")
                    .msg("name", game_msg(id))
                    .num("rating", rounded)
                    .text(
                        "provisional",
                        if shown.rating.provisional() {
                            "yes"
                        } else {
                            "no"
                        },
                    )
                    .num("games", shown.games)
            })
            .collect();
        let name = Msg::new("person").msg("person", super::narration::name_msg(&person));
        let said = if ratings.is_empty() {
            Msg::new("rating-none").msg("person", name)
        } else {
            Msg::new("rating-line")
                .msg("person", name)
                .msg("ratings", Msg::list(ratings, "rating-list", "rating-list"))
        };
        let mut reply = spans_reply(vec![Span::Msg(said)]).to_actor();
        // One game asked about: the history of the rating in it, drawn.
        if let Some(game) = game {
            reply.picture = self.rating_chart(ctx, &person, game).await?;
        }
        Ok(reply)
    }

    /// The chart of `person`'s rating in `game` here after each rated game, with its
    /// deviation as a band (when pictures are on and they played one).
    async fn rating_chart(
        &self,
        ctx: &Ctx,
        person: &User,
        game: GameId,
    ) -> Handled<Option<Vec<u8>>> {
        if !self.pictures {
            return Ok(None);
        }
        let history = self
            .store
            .rating_history(ctx.chat.community, game, person.id)
            .await?;
        let Some(&(_, last, deviation)) = history.last() else {
            return Ok(None);
        };
        let lang = ctx.lang_for(super::Audience::Actor);
        let now = Rating {
            rating: last,
            deviation,
            ..Rating::default()
        };
        let labels = ChartLabels {
            title: Msg::new("rating-chart-title")
                .text("person", person.display_name.clone())
                .msg("name", game_msg(game))
                .to_text(lang),
            subtitle: Msg::new("rating-chart-subtitle")
                .text("rating", rating_tag(now))
                .count("games", history.len())
                .to_text(lang),
            // ISO dates, UTC: the same in every language.
            date: |millis| {
                let (year, month, day) =
                    crate::time::civil_from_days(millis.div_euclid(DAY_MILLIS));
                format!("{year:04}-{month:02}-{day:02}")
            },
        };
        let points: Vec<ChartPoint> = history
            .iter()
            .map(|(at, rating, deviation)| ChartPoint {
                at_millis: at.0,
                rating: *rating,
                deviation: *deviation,
            })
            .collect();
        let png = tokio::task::spawn_blocking(move || rating_chart(&points, &labels))
            .await
            .map_err(ServiceError::from)?
            .map_err(ServiceError::from)?;
        Ok(Some(png))
    }
}

impl Service {
    /// The ratings in `game` of `people` in this community, as shown beside their names
    /// (`1620?`; a person without a rated game of it shows a newcomer's `1500?`). The
    /// computer has none.
    ///
    /// # Errors
    /// Internal failures (the database).
    pub(super) async fn rating_tags(
        &self,
        community: CommunityId,
        game: GameId,
        people: &[&User],
    ) -> Result<RatingTags, ServiceError> {
        let mut tags = RatingTags::new();
        for person in people {
            if super::is_computer(person) || tags.contains_key(&person.id) {
                continue;
            }
            let rating = self
                .store
                .ratings_as_of(community, person.id, self.clock.now())
                .await?
                .into_iter()
                .find(|(id, _)| *id == game)
                .map(|(_, shown)| shown.rating)
                .unwrap_or_default();
            tags.insert(person.id, rating_tag(rating));
        }
        Ok(tags)
    }

    /// The ratings of a game's people in its game, as shown beside their names; none in a
    /// game with the computer.
    ///
    /// # Errors
    /// Internal failures (the database).
    pub(super) async fn game_rating_tags(
        &self,
        record: &GameRecord,
    ) -> Result<RatingTags, ServiceError> {
        let people: Vec<&User> = record.seats.iter().map(|holder| &holder.user).collect();
        if people.iter().any(|user| super::is_computer(user)) {
            return Ok(RatingTags::new());
        }
        self.rating_tags(record.community, record.game, &people)
            .await
    }

    /// What a rated game that ended changed of its people's ratings, said after its result:
    /// "Ratings: Alice 1662 (+162), Bob 1338 (−162)." Nothing for a game that was not rated.
    ///
    /// # Errors
    /// Internal failures (the database).
    pub(super) async fn rating_change_spans(
        &self,
        record: &GameRecord,
    ) -> Result<Vec<Span>, ServiceError> {
        let changes = self.store.rating_changes(record.id).await?;
        if changes.is_empty() {
            return Ok(Vec::new());
        }
        let entries = changes
            .into_iter()
            .filter_map(|(user, before, after)| {
                let person = super::seated(record, user)?;
                #[allow(clippy::cast_possible_truncation)]
                let (now, delta) = (
                    after.round() as i64,
                    (after.round() - before.round()) as i64,
                );
                let sign = if delta < 0 { "\u{2212}" } else { "+" };
                Some(
                    Msg::new("rating-change")
                        .msg(
                            "person",
                            Msg::new("person").msg("person", super::narration::name_msg(person)),
                        )
                        .num("rating", now)
                        .text("change", format!("{sign}{}", delta.abs())),
                )
            })
            .collect();
        Ok(vec![
            Span::Text(" ".into()),
            Span::Msg(
                Msg::new("rating-changes")
                    .msg("changes", Msg::list(entries, "rating-list", "rating-list")),
            ),
        ])
    }
}

impl Service {
    /// `/resetrating @person <game>` (moderators): the person's rating in `game` here starts
    /// again, as a newcomer's; the rating it had is recorded with who reset it. Said in the
    /// chat, announced with the change.
    pub(super) async fn reset_rating(&self, ctx: &Ctx, game: Option<GameId>) -> Handled<Reply> {
        if !ctx.moderator {
            return Err(UserError::NotModerator(ModeratorAction::ResetRating).into());
        }
        self.not_repeated(ctx).await?;
        let Some(game) = game else {
            return Err(UserError::Usage(CommandId::ResetRating).into());
        };
        let person = self.known_person(ctx, CommandId::ResetRating).await?;
        let reset = RatingReset {
            community: ctx.chat.community,
            game,
            user: person.id,
            by: ctx.user.id,
            request: &ctx.key,
        };
        let payload = serde_json::json!({
            "rating_reset": person.id.0,
            "by": ctx.user.id.0,
            "game": game.as_str(),
        });
        let pending = self.pending_payload(payload, None);
        let announce = pending
            .as_ref()
            .map(|pending| (ctx.chat.id, pending.as_announce()));
        let Some((was, announced)) = self
            .store
            .reset_rating(&reset, announce.as_ref().map(|(chat, a)| (*chat, a)))
            .await?
        else {
            return Err(UserError::NoRatingToReset {
                name: person.display_name.clone(),
                game,
            }
            .into());
        };
        let mut reply = reset_reply(&ctx.user, &person, game, Some(was));
        reply.announced = announced;
        Ok(reply)
    }

    /// The reply to a reset whose process died before posting it, from its announcement's
    /// payload (`rating_reset`: whose, `by`, `game`).
    pub(super) async fn reset_post_of(
        &self,
        payload: &serde_json::Value,
    ) -> Result<Option<Reply>, ServiceError> {
        let number = |key: &str| payload.get(key).and_then(serde_json::Value::as_i64);
        let game = payload
            .get("game")
            .and_then(serde_json::Value::as_str)
            .and_then(|name| crate::commands::parse_game(name).ok());
        let (Some(whose), Some(by), Some(game)) = (number("rating_reset"), number("by"), game)
        else {
            return Ok(None);
        };
        let (Some(person), Some(moderator)) = (
            self.store.user(UserId(whose)).await?,
            self.store.user(UserId(by)).await?,
        ) else {
            return Ok(None);
        };
        Ok(Some(reset_reply(&moderator, &person, game, None)))
    }
}

/// "@mod reset @bob's Konane rating (it was 1620): the next rated game starts it again from
/// 1500?." `was`: the rating before, when known.
fn reset_reply(by: &User, person: &User, game: GameId, was: Option<Rating>) -> Reply {
    let mut msg = Msg::new("rating-reset")
        .span("moderator", super::mention(by))
        .span("person", super::mention(person))
        .msg("name", game_msg(game))
        .text("start", rating_tag(Rating::default()));
    msg = match was {
        Some(was) => msg.text("was", rating_tag(was)),
        None => msg.text("was", "none"),
    };
    spans_reply(vec![Span::Msg(msg)])
}
