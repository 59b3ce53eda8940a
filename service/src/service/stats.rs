//! `/stats [@person] [@other]` (issue 39): a person's results in this server or group, per
//! game (games, wins, losses, draws), their current streak, and with a second person named,
//! the head-to-head between the two. Finished games between people count, rated or casual;
//! aborted games and games with the computer do not. Shown to the person who asked.

use tabula_core::GameId;

use super::people::Named;
use super::{Ctx, Handled, Reply, Service, UserError, spans_reply, team_named, team_of};
use crate::l10n::{Msg, Span, game_msg};
use crate::store::{FinishedGame, User, UserId};

/// How a finished game went for one of its people.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Result3 {
    /// Won.
    Win,
    /// Lost.
    Loss,
    /// Drawn.
    Draw,
}

/// Counts of results.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Tally {
    /// Games.
    pub(super) games: usize,
    /// Won.
    pub(super) wins: usize,
    /// Lost.
    pub(super) losses: usize,
    /// Drawn.
    pub(super) draws: usize,
}

impl Tally {
    fn add(&mut self, result: Result3) {
        self.games += 1;
        match result {
            Result3::Win => self.wins += 1,
            Result3::Loss => self.losses += 1,
            Result3::Draw => self.draws += 1,
        }
    }

    fn msg(self, id: &'static str) -> Msg {
        Msg::new(id)
            .count("games", self.games)
            .count("wins", self.wins)
            .count("losses", self.losses)
            .count("draws", self.draws)
    }
}

/// The team of `user` in `game`, if they hold a seat.
fn team_in(game: &FinishedGame, user: UserId) -> Option<u8> {
    game.seats
        .iter()
        .find(|(_, holder, _)| *holder == user)
        .map(|(seat, ..)| team_of(game.game, *seat))
}

/// How `game` went for `user`: `None` for a game with the computer, one they did not play,
/// or a result that names no side.
pub(super) fn result_for(game: &FinishedGame, user: UserId) -> Option<Result3> {
    if game.seats.iter().any(|(.., computer)| *computer) {
        return None;
    }
    let team = team_in(game, user)?;
    if game.result == "draw" || game.result.starts_with("draw ") {
        return Some(Result3::Draw);
    }
    let winner = game.result.strip_prefix("winner ")?.split(' ').next()?;
    let winner = team_named(game.game, winner)?;
    Some(if winner == team {
        Result3::Win
    } else {
        Result3::Loss
    })
}

/// What `/stats` counts of one person: see [`tally`].
type Counted = (Vec<(GameId, Tally)>, Option<(Result3, usize)>, Tally);

/// Per game, in the games' order, the tallies of `user`'s results; their current streak
/// (the last result and how many in a row); and, against `other`, the head-to-head tally
/// (games where the two were on opposite sides).
pub(super) fn tally(games: &[FinishedGame], user: UserId, other: Option<UserId>) -> Counted {
    let mut per_game: Vec<(GameId, Tally)> = Vec::new();
    let mut streak: Option<(Result3, usize)> = None;
    let mut against = Tally::default();
    for game in games {
        let Some(result) = result_for(game, user) else {
            continue;
        };
        match per_game.iter_mut().find(|(id, _)| *id == game.game) {
            Some((_, tally)) => tally.add(result),
            None => {
                let mut tally = Tally::default();
                tally.add(result);
                per_game.push((game.game, tally));
            }
        }
        streak = match streak {
            Some((last, n)) if last == result => Some((last, n + 1)),
            _ => Some((result, 1)),
        };
        if let Some(other) = other
            && let (Some(mine), Some(theirs)) = (team_in(game, user), team_in(game, other))
            && mine != theirs
        {
            against.add(result);
        }
    }
    per_game.sort_by_key(|(id, _)| GameId::ALL.iter().position(|g| g == id));
    (per_game, streak, against)
}

impl Service {
    /// `/stats [@person] [@other]`.
    pub(super) async fn stats(&self, ctx: &Ctx) -> Handled<Reply> {
        let mut people = Vec::new();
        for named in self.mentioned(ctx).await? {
            match named {
                Named::User(user) => people.push(user),
                Named::Username(username) => {
                    return Err(UserError::UnknownPerson(crate::l10n::quote(&username)).into());
                }
            }
        }
        let mut people = people.into_iter();
        let person = people.next().unwrap_or_else(|| ctx.user.clone());
        let other: Option<User> = people.next();
        if other.as_ref().is_some_and(|other| other.id == person.id) {
            return Err(UserError::RepeatedPlayer.into());
        }
        let games = self
            .store
            .finished_games_of(ctx.chat.community, person.id)
            .await?;
        let (per_game, streak, against) = tally(&games, person.id, other.as_ref().map(|u| u.id));
        let name = |user: &User| Msg::new("person").msg("person", super::narration::name_msg(user));
        if per_game.is_empty() {
            return Ok(spans_reply(vec![Span::Msg(
                Msg::new("stats-none").msg("person", name(&person)),
            )])
            .to_actor());
        }
        let mut spans = vec![Span::Msg(
            Msg::new("stats-header")
                .msg("person", name(&person))
                .text("community", ctx.chat.community_title.clone()),
        )];
        for (game, tally) in &per_game {
            spans.push(Span::Text("\n".into()));
            spans.push(Span::Msg(
                tally.msg("stats-game").msg("name", game_msg(*game)),
            ));
        }
        if let Some((result, count)) = streak {
            spans.push(Span::Text("\n".into()));
            spans.push(Span::Msg(
                Msg::new("stats-streak")
                    .text(
                        "result",
                        match result {
                            Result3::Win => "win",
                            Result3::Loss => "loss",
                            Result3::Draw => "draw",
                        },
                    )
                    .count("count", count),
            ));
        }
        if let Some(other) = &other {
            spans.push(Span::Text("\n".into()));
            spans.push(Span::Msg(
                against
                    .msg("stats-against")
                    .msg("person", name(&person))
                    .msg("other", name(other)),
            ));
        }
        Ok(spans_reply(spans).to_actor())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{GameNo, Timestamp};

    fn game(id: GameId, result: &str, seats: &[(u8, i64)], computer: bool) -> FinishedGame {
        FinishedGame {
            id: GameNo(1),
            game: id,
            result: result.into(),
            ended_at: Timestamp(0),
            seats: seats
                .iter()
                .map(|(seat, user)| (*seat, UserId(*user), computer && *user == 9))
                .collect(),
        }
    }

    #[test]
    fn results_are_read_for_each_side() {
        // Konane: seat 0 is Black, seat 1 White.
        let won = game(
            GameId::Konane,
            "winner black (resigned)",
            &[(0, 1), (1, 2)],
            false,
        );
        assert_eq!(result_for(&won, UserId(1)), Some(Result3::Win));
        assert_eq!(result_for(&won, UserId(2)), Some(Result3::Loss));
        assert_eq!(result_for(&won, UserId(3)), None);
        let drawn = game(GameId::Koan, "draw (agreed)", &[(0, 1), (1, 2)], false);
        assert_eq!(result_for(&drawn, UserId(2)), Some(Result3::Draw));
        let computer = game(GameId::Koan, "winner white", &[(0, 1), (1, 9)], true);
        assert_eq!(result_for(&computer, UserId(1)), None);
    }

    #[test]
    fn tallies_streaks_and_head_to_head() {
        let games = [
            game(GameId::Konane, "winner black", &[(0, 1), (1, 2)], false),
            game(GameId::Konane, "winner white", &[(0, 1), (1, 3)], false),
            game(GameId::Koan, "draw", &[(0, 2), (1, 1)], false),
            game(GameId::Konane, "winner white", &[(0, 2), (1, 1)], false),
            game(GameId::Konane, "winner black", &[(0, 3), (1, 1)], false),
        ];
        let (per_game, streak, against) = tally(&games, UserId(1), Some(UserId(2)));
        let konane = Tally {
            games: 4,
            wins: 2,
            losses: 2,
            draws: 0,
        };
        let koan = Tally {
            games: 1,
            wins: 0,
            losses: 0,
            draws: 1,
        };
        assert_eq!(
            per_game,
            vec![(GameId::Konane, konane), (GameId::Koan, koan)]
        );
        assert_eq!(streak, Some((Result3::Loss, 1)));
        assert_eq!(
            against,
            Tally {
                games: 3,
                wins: 2,
                losses: 0,
                draws: 1
            }
        );
    }
}
