//! Glicko-2 ratings per game and per community (issue 39), updated in the transaction of a
//! rated game's result ([`rate_game`]), from both sides' ratings before it
//! ([`crate::ratings`]). Kept at full precision.
//!
//! A game is rated when it finished (not aborted) with a result, between people only (no
//! seat held by the computer), not made casual (`games.rated`), and each side made a move.
//! Two sides of two (Pachisi) are rated each person against the other side as one: its mean
//! rating and the root mean square of its deviations (see `docs/ratings.md`).

use tabula_core::{Game, GameId, Seat};

use super::executor::{Tx, query, query_as, query_scalar};
use super::rows::parse_game_id;
use super::{CommunityId, GameNo, Payout, Store, StoreError, Timestamp, UserId, db};
use crate::ratings::{Rating, Score};

/// A day, in milliseconds.
const DAY: f64 = 86_400_000.0;

/// The game's community, kind and whether it is rated.
const GAME: &str = "SELECT community_id, game, rated FROM games WHERE id = $1";

/// The game's seats: seat, person, their platform.
const SEATS: &str = "\
SELECT s.seat, s.user_id, u.platform FROM seats s JOIN users u ON u.id = s.user_id
WHERE s.game_id = $1 ORDER BY s.seat";

/// The people who made a move in the game.
const MOVERS: &str = "\
SELECT DISTINCT actor_id FROM actions WHERE game_id = $1 AND actor_id IS NOT NULL";

/// A person's rating in a game of a community, and when it was last rated.
const RATING: &str = "\
SELECT rating, deviation, volatility, rated_at FROM ratings
WHERE community_id = $1 AND game = $2 AND user_id = $3";

/// Sets a person's rating after a game.
const SET_RATING: &str = "\
INSERT INTO ratings (community_id, game, user_id, rating, deviation, volatility, games, rated_at)
VALUES ($1, $2, $3, $4, $5, $6, 1, $7)
ON CONFLICT (community_id, game, user_id) DO UPDATE SET rating = excluded.rating,
    deviation = excluded.deviation, volatility = excluded.volatility,
    games = ratings.games + 1, rated_at = excluded.rated_at";

/// What a game changed of a person's rating.
const CHANGE: &str = "\
INSERT INTO rating_changes (game_id, user_id, rating_before, rating_after, deviation_after)
VALUES ($1, $2, $3, $4, $5)";

/// A person's rating in one game of a community, as shown: the rating and deviation now (the
/// deviation grown with the time since their last rated game), and how many rated games.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RatingShown {
    /// The rating now.
    pub rating: Rating,
    /// Rated games played.
    pub games: i64,
}

/// The side of a seat in a game of `id`.
fn team_of(id: GameId, seat: u8) -> u8 {
    tabula_core::with_game_type!(id, G => G::team_of(Seat(seat)).0)
}

/// A person's rating before a game at `now`: their last one with the deviation grown for the
/// days since, or a new player's.
async fn rating_before(
    tx: &mut Tx,
    community: i64,
    game: &str,
    user: i64,
    now: Timestamp,
    operation: &'static str,
) -> Result<Rating, StoreError> {
    let row: Option<(f64, f64, f64, i64)> = query_as(RATING)
        .bind(community)
        .bind(game)
        .bind(user)
        .fetch_optional(&mut *tx)
        .await
        .map_err(db(operation))?;
    Ok(
        row.map_or_else(Rating::default, |(rating, deviation, volatility, at)| {
            as_of((rating, deviation, volatility), Timestamp(at), now)
        }),
    )
}

/// A stored rating (rating, deviation, volatility), last rated `at`, as it stands at `now`:
/// its deviation grown for the days between.
fn as_of(
    (rating, deviation, volatility): (f64, f64, f64),
    at: Timestamp,
    now: Timestamp,
) -> Rating {
    #[allow(clippy::cast_precision_loss)]
    let days = (now.0 - at.0).max(0) as f64 / DAY;
    Rating {
        rating,
        deviation,
        volatility,
    }
    .after_days_away(days)
}

/// The one opponent a side is rated against: its rating when it is one person; for several,
/// their mean rating, the root mean square of their deviations and their mean volatility.
fn as_one(side: &[Rating]) -> Rating {
    if let [one] = side {
        return *one;
    }
    #[allow(clippy::cast_precision_loss)]
    let n = side.len().max(1) as f64;
    Rating {
        rating: side.iter().map(|r| r.rating).sum::<f64>() / n,
        deviation: (side.iter().map(|r| r.deviation * r.deviation).sum::<f64>() / n).sqrt(),
        volatility: side.iter().map(|r| r.volatility).sum::<f64>() / n,
    }
}

/// Rates game `game`, which just finished with `payout`, in the transaction: each person's
/// new rating from both sides' ratings before it (see the module). Nothing for a game that is
/// not rated.
pub(super) async fn rate_game(
    tx: &mut Tx,
    game: GameNo,
    payout: &Payout,
    now: Timestamp,
    operation: &'static str,
) -> Result<(), StoreError> {
    let (community, kind, rated): (i64, String, i64) = query_as(GAME)
        .bind(game.0)
        .fetch_one(&mut *tx)
        .await
        .map_err(db(operation))?;
    if rated == 0 {
        return Ok(());
    }
    let id = parse_game_id(&kind)?;
    let seats: Vec<(i64, i64, String)> = query_as(SEATS)
        .bind(game.0)
        .fetch_all(&mut *tx)
        .await
        .map_err(db(operation))?;
    if seats.iter().any(|(_, _, platform)| platform == "computer") {
        return Ok(());
    }
    let movers: Vec<i64> = query_scalar(MOVERS)
        .bind(game.0)
        .fetch_all(&mut *tx)
        .await
        .map_err(db(operation))?;
    // Each side's people, each once.
    let mut sides: [Vec<i64>; 2] = [Vec::new(), Vec::new()];
    for (seat, user, _) in &seats {
        let team = usize::from(team_of(id, u8::try_from(*seat).unwrap_or(0)).min(1));
        if !sides[team].contains(user) {
            sides[team].push(*user);
        }
    }
    if sides
        .iter()
        .any(|side| side.is_empty() || !side.iter().any(|user| movers.contains(user)))
        || sides[0].iter().any(|user| sides[1].contains(user))
    {
        return Ok(());
    }
    let scores = match payout {
        Payout::Winners(winners) => {
            let won = |side: &[i64]| side.iter().any(|user| winners.contains(&UserId(*user)));
            match (won(&sides[0]), won(&sides[1])) {
                (true, false) => [Score::Win, Score::Loss],
                (false, true) => [Score::Loss, Score::Win],
                _ => return Ok(()),
            }
        }
        Payout::Refund => [Score::Draw, Score::Draw],
    };
    let mut before: [Vec<Rating>; 2] = [Vec::new(), Vec::new()];
    for (side, users) in sides.iter().enumerate() {
        for user in users {
            before[side].push(rating_before(tx, community, &kind, *user, now, operation).await?);
        }
    }
    for side in 0..2 {
        let opponent = as_one(&before[1 - side]);
        for (user, rating) in sides[side].iter().zip(&before[side]) {
            let after = rating.after_game(opponent, scores[side]);
            query(SET_RATING)
                .bind(community)
                .bind(&kind)
                .bind(*user)
                .bind(after.rating)
                .bind(after.deviation)
                .bind(after.volatility)
                .bind(now.0)
                .execute(&mut *tx)
                .await
                .map_err(db(operation))?;
            query(CHANGE)
                .bind(game.0)
                .bind(*user)
                .bind(rating.rating)
                .bind(after.rating)
                .bind(after.deviation)
                .execute(&mut *tx)
                .await
                .map_err(db(operation))?;
        }
    }
    Ok(())
}

/// The ratings of a game in a community, each with how many rated games its person finished
/// there since `$3`.
const TABLE: &str = "\
SELECT r.user_id, r.rating, r.deviation, r.volatility, r.rated_at,
       (SELECT COUNT(*) FROM rating_changes c JOIN games g ON g.id = c.game_id
        WHERE c.user_id = r.user_id AND g.community_id = r.community_id AND g.game = r.game
          AND g.updated_at >= $3)
FROM ratings r WHERE r.community_id = $1 AND r.game = $2";

impl Store {
    /// The rating leaderboard of `game` in `community`: those whose rating is settled (not
    /// provisional, as of now) and who finished at least `games` rated games since `since`,
    /// the highest first, at most `limit`.
    ///
    /// # Errors
    /// A database failure.
    pub async fn rating_leaderboard(
        &self,
        community: CommunityId,
        game: GameId,
        since: Timestamp,
        games: i64,
        limit: usize,
    ) -> Result<Vec<(UserId, Rating)>, StoreError> {
        let now = Timestamp::now();
        let rows: Vec<(i64, f64, f64, f64, i64, i64)> = query_as(TABLE)
            .bind(community.0)
            .bind(game.as_str())
            .bind(since.0)
            .fetch_all(self)
            .await
            .map_err(db("rating_leaderboard"))?;
        let mut table: Vec<(UserId, Rating)> = rows
            .into_iter()
            .filter(|row| row.5 >= games)
            .map(|(user, rating, deviation, volatility, at, _)| {
                (
                    UserId(user),
                    as_of((rating, deviation, volatility), Timestamp(at), now),
                )
            })
            .filter(|(_, rating)| !rating.provisional())
            .collect();
        table.sort_by(|a, b| b.1.rating.total_cmp(&a.1.rating).then(a.0.0.cmp(&b.0.0)));
        table.truncate(limit);
        Ok(table)
    }

    /// `user`'s ratings in `community`, per game they played rated, as of now (by the
    /// store's clock, which rated them).
    ///
    /// # Errors
    /// A database failure.
    pub async fn ratings_of(
        &self,
        community: CommunityId,
        user: UserId,
    ) -> Result<Vec<(GameId, RatingShown)>, StoreError> {
        self.ratings_as_of(community, user, Timestamp::now()).await
    }

    /// [`Store::ratings_of`] as of `now`, by the caller's clock (the deviations grown with the
    /// time away until then).
    ///
    /// # Errors
    /// A database failure.
    pub async fn ratings_as_of(
        &self,
        community: CommunityId,
        user: UserId,
        now: Timestamp,
    ) -> Result<Vec<(GameId, RatingShown)>, StoreError> {
        let rows: Vec<(String, f64, f64, f64, i64, i64)> = query_as(
            "SELECT game, rating, deviation, volatility, games, rated_at FROM ratings \
             WHERE community_id = $1 AND user_id = $2 ORDER BY game",
        )
        .bind(community.0)
        .bind(user.0)
        .fetch_all(self)
        .await
        .map_err(db("ratings_of"))?;
        let mut shown = Vec::with_capacity(rows.len());
        for (game, rating, deviation, volatility, games, at) in rows {
            let rating = as_of((rating, deviation, volatility), Timestamp(at), now);
            shown.push((parse_game_id(&game)?, RatingShown { rating, games }));
        }
        Ok(shown)
    }

    /// What game `game` changed of each person's rating: (person, before, after).
    ///
    /// # Errors
    /// A database failure.
    pub async fn rating_changes(
        &self,
        game: GameNo,
    ) -> Result<Vec<(UserId, f64, f64)>, StoreError> {
        let rows: Vec<(i64, f64, f64)> = query_as(
            "SELECT user_id, rating_before, rating_after FROM rating_changes \
             WHERE game_id = $1 ORDER BY user_id",
        )
        .bind(game.0)
        .fetch_all(self)
        .await
        .map_err(db("rating_changes"))?;
        Ok(rows
            .into_iter()
            .map(|(user, before, after)| (UserId(user), before, after))
            .collect())
    }

    /// `user`'s rating after each rated game of `game` in `community` since a moderator last
    /// reset it, oldest first: when the game ended, the rating and the deviation (0 for games
    /// rated before deviations were kept with the history).
    ///
    /// # Errors
    /// A database failure.
    pub async fn rating_history(
        &self,
        community: CommunityId,
        game: GameId,
        user: UserId,
    ) -> Result<Vec<(Timestamp, f64, f64)>, StoreError> {
        let rows: Vec<(i64, f64, Option<f64>)> = query_as(
            "SELECT g.updated_at, c.rating_after, c.deviation_after FROM rating_changes c \
             JOIN games g ON g.id = c.game_id \
             WHERE g.community_id = $1 AND g.game = $2 AND c.user_id = $3 \
               AND g.updated_at > COALESCE((SELECT MAX(r.reset_at) FROM rating_resets r \
                   WHERE r.community_id = $1 AND r.game = $2 AND r.user_id = $3), -1) \
             ORDER BY g.updated_at, g.id",
        )
        .bind(community.0)
        .bind(game.as_str())
        .bind(user.0)
        .fetch_all(self)
        .await
        .map_err(db("rating_history"))?;
        Ok(rows
            .into_iter()
            .map(|(at, rating, deviation)| (Timestamp(at), rating, deviation.unwrap_or(0.0)))
            .collect())
    }
}

/// A finished game, as `/stats` counts it: its game, stored result, when it ended, and who
/// held each seat (seat, person, whether the computer).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FinishedGame {
    /// Its number.
    pub id: GameNo,
    /// The game.
    pub game: GameId,
    /// The stored result (`winner White (resigned)`, `draw`, `draw (agreed)`).
    pub result: String,
    /// When it ended.
    pub ended_at: Timestamp,
    /// The seats: seat, person, and whether the person is the computer.
    pub seats: Vec<(u8, UserId, bool)>,
}

/// The finished games of community `$1` in which `$2` holds a seat, in the order they ended.
const FINISHED_OF: &str = "\
SELECT g.id, g.game, g.result, g.updated_at FROM games g
WHERE g.community_id = $1 AND g.status = 'finished'
  AND EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.user_id = $2)
ORDER BY g.updated_at, g.id";

/// The seats of [`FINISHED_OF`]'s games.
const FINISHED_SEATS_OF: &str = "\
SELECT s.game_id, s.seat, s.user_id, u.platform FROM seats s JOIN users u ON u.id = s.user_id
WHERE s.game_id IN (SELECT g.id FROM games g
                    WHERE g.community_id = $1 AND g.status = 'finished'
                      AND EXISTS (SELECT 1 FROM seats t WHERE t.game_id = g.id
                                  AND t.user_id = $2))
ORDER BY s.game_id, s.seat";

impl Store {
    /// The finished games (not aborted ones) of `community` in which `user` holds a seat,
    /// oldest first, read in one snapshot.
    ///
    /// # Errors
    /// A database failure.
    pub async fn finished_games_of(
        &self,
        community: CommunityId,
        user: UserId,
    ) -> Result<Vec<FinishedGame>, StoreError> {
        const OPERATION: &str = "finished_games_of";
        let mut tx = self.begin_read(OPERATION).await?;
        let games: Vec<(i64, String, Option<String>, i64)> = query_as(FINISHED_OF)
            .bind(community.0)
            .bind(user.0)
            .fetch_all(&mut tx)
            .await
            .map_err(db(OPERATION))?;
        let seats: Vec<(i64, i64, i64, String)> = query_as(FINISHED_SEATS_OF)
            .bind(community.0)
            .bind(user.0)
            .fetch_all(&mut tx)
            .await
            .map_err(db(OPERATION))?;
        tx.commit().await.map_err(db(OPERATION))?;
        let mut finished = Vec::with_capacity(games.len());
        for (id, game, result, ended_at) in games {
            finished.push(FinishedGame {
                id: GameNo(id),
                game: parse_game_id(&game)?,
                result: result.unwrap_or_default(),
                ended_at: Timestamp(ended_at),
                seats: seats
                    .iter()
                    .filter(|(game, ..)| *game == id)
                    .map(|(_, seat, user, platform)| {
                        (
                            u8::try_from(*seat).unwrap_or(u8::MAX),
                            UserId(*user),
                            platform == "computer",
                        )
                    })
                    .collect(),
            });
        }
        Ok(finished)
    }
}

/// `$1` community, `$2` game, `$3` person: their rating row.
const RATING_ROW: &str = "\
SELECT rating, deviation, volatility, games FROM ratings
WHERE community_id = $1 AND game = $2 AND user_id = $3";

/// Forgets the rating of [`RATING_ROW`]'s person.
const DELETE_RATING: &str =
    "DELETE FROM ratings WHERE community_id = $1 AND game = $2 AND user_id = $3";

/// Records a reset: community, game, person, by whom, the rating, deviation, volatility and
/// rated games it had, when.
const INSERT_RESET: &str = "\
INSERT INTO rating_resets (community_id, game, user_id, reset_by, rating, deviation, volatility,
                           games, reset_at)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)";

/// A moderator's reset of a person's rating in one game of a community.
#[derive(Debug, Clone, Copy)]
pub struct RatingReset<'a> {
    /// The community.
    pub community: CommunityId,
    /// The game.
    pub game: GameId,
    /// Whose rating.
    pub user: UserId,
    /// The moderator.
    pub by: UserId,
    /// The request that asked, applied once.
    pub request: &'a super::RequestKey,
}

impl Store {
    /// Resets a person's rating in one game of a community: the next rated game starts them
    /// again as a newcomer. The rating it had is recorded (`rating_resets`) with who reset it,
    /// in the same transaction, with `announce` when given. `None`: they had no rating (then
    /// nothing is written).
    ///
    /// # Errors
    /// [`super::Conflict::Duplicate`] for a request already applied; a database failure.
    pub async fn reset_rating(
        &self,
        reset: &RatingReset<'_>,
        announce: Option<(super::ChatId, &super::Announce<'_>)>,
    ) -> Result<Option<(Rating, Option<super::OutboxId>)>, StoreError> {
        const OPERATION: &str = "reset_rating";
        let now = Timestamp::now();
        let mut tx = self.begin_write(OPERATION).await?;
        super::requests::record_request(&mut tx, Some(reset.request), None, now, OPERATION).await?;
        let row: Option<(f64, f64, f64, i64)> = query_as(RATING_ROW)
            .bind(reset.community.0)
            .bind(reset.game.as_str())
            .bind(reset.user.0)
            .fetch_optional(&mut tx)
            .await
            .map_err(db(OPERATION))?;
        let Some((rating, deviation, volatility, games)) = row else {
            return Ok(None);
        };
        query(DELETE_RATING)
            .bind(reset.community.0)
            .bind(reset.game.as_str())
            .bind(reset.user.0)
            .execute(&mut tx)
            .await
            .map_err(db(OPERATION))?;
        query(INSERT_RESET)
            .bind(reset.community.0)
            .bind(reset.game.as_str())
            .bind(reset.user.0)
            .bind(reset.by.0)
            .bind(rating)
            .bind(deviation)
            .bind(volatility)
            .bind(games)
            .bind(now.0)
            .execute(&mut tx)
            .await
            .map_err(db(OPERATION))?;
        let announced = super::outbox::announce_if_any(&mut tx, announce, now, OPERATION).await?;
        tx.commit().await.map_err(db(OPERATION))?;
        Ok(Some((
            Rating {
                rating,
                deviation,
                volatility,
            },
            announced,
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A settled rating, rated at `T0`, read as of later moments (the store's reads and the
    /// rating before a game both go through `as_of`): the deviation grows with the days away
    /// as lichess's 0.21436 rating periods a day give it, the rating stays, and a long absence
    /// makes it provisional again.
    #[test]
    fn a_rating_read_later_has_grown_its_deviation_with_the_days_away() {
        const T0: Timestamp = Timestamp(1_799_582_400_000);
        let stored = (1700.0, 60.0, 0.06);
        let now = as_of(stored, T0, T0);
        assert_eq!((now.rating, now.deviation), (1700.0, 60.0));
        assert!(!now.provisional());
        let day = 86_400_000;
        let month = as_of(stored, T0, Timestamp(T0.0 + 30 * day));
        let scale: f64 = 173.7178;
        let phi = 60.0 / scale;
        let grown = (phi * phi + 30.0 * 0.21436 * 0.06 * 0.06).sqrt() * scale;
        assert!((month.deviation - grown).abs() < 1e-6, "{month:?} {grown}");
        assert_eq!(month.rating, 1700.0);
        let years = as_of(stored, T0, Timestamp(T0.0 + 5 * 365 * day));
        assert!(years.provisional(), "{years:?}");
        assert!(years.deviation <= crate::ratings::MAX_DEVIATION);
        // A clock that went back reads no growth.
        assert_eq!(as_of(stored, T0, Timestamp(T0.0 - day)).deviation, 60.0);
    }
}
