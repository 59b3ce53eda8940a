//! Glicko-2 ratings as lichess keeps them (issue 39), on `skillratings`' Glicko-2: a new
//! player starts at 1500 with deviation 500 and volatility 0.09; τ = 0.75; each game is its own
//! rating period (the rating changes right after the game); the deviation never goes below 45,
//! and grows again with time away (0.21436 rating periods a day, as lichess), up to 500; a
//! rating is provisional (shown with `?`) while its deviation is 110 or more.
//!
//! Pure: the store keeps the numbers at full precision and the service says them. Not yet
//! wired to the end of games (issue 39 is under way): this is its arithmetic, checked against
//! an independent reference computation written from Glickman's paper (the tests).

use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2_rating_period};

/// A new player's rating.
pub const START_RATING: f64 = 1500.0;
/// A new player's deviation.
pub const START_DEVIATION: f64 = 500.0;
/// A new player's volatility.
pub const START_VOLATILITY: f64 = 0.09;
/// The system constant τ, which bounds how fast volatility changes.
pub const TAU: f64 = 0.75;
/// The smallest deviation.
pub const MIN_DEVIATION: f64 = 45.0;
/// The largest deviation (a new player's).
pub const MAX_DEVIATION: f64 = START_DEVIATION;
/// Rating periods per day away, by which the deviation grows.
pub const PERIODS_PER_DAY: f64 = 0.21436;
/// From this deviation up, a rating is provisional.
pub const PROVISIONAL_DEVIATION: f64 = 110.0;
/// The Glicko-2 scale factor (400 / ln 10).
const SCALE: f64 = 173.7178;
/// How closely the volatility's iteration converges.
const TOLERANCE: f64 = 0.000_001;

/// A person's rating in one game of one community.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rating {
    /// The rating (1500 to start).
    pub rating: f64,
    /// Its deviation: how unsure it is.
    pub deviation: f64,
    /// Its volatility: how erratic the person's results are.
    pub volatility: f64,
}

impl Default for Rating {
    fn default() -> Rating {
        Rating {
            rating: START_RATING,
            deviation: START_DEVIATION,
            volatility: START_VOLATILITY,
        }
    }
}

/// A game's result for one side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Score {
    /// Won.
    Win,
    /// Drawn.
    Draw,
    /// Lost.
    Loss,
}

impl Rating {
    /// Whether the rating is still provisional (shown with `?`).
    pub fn provisional(self) -> bool {
        self.deviation >= PROVISIONAL_DEVIATION
    }

    /// The rating after `days` without a rated game: the deviation grows as over that many
    /// days' rating periods with no game (`φ' = √(φ² + n·σ²)`), up to [`MAX_DEVIATION`].
    #[must_use]
    pub fn after_days_away(self, days: f64) -> Rating {
        if days <= 0.0 {
            return self;
        }
        let periods = days * PERIODS_PER_DAY;
        let phi = self.deviation / SCALE;
        let grown = (phi * phi + periods * self.volatility * self.volatility).sqrt() * SCALE;
        Rating {
            deviation: grown.clamp(MIN_DEVIATION, MAX_DEVIATION),
            ..self
        }
    }

    /// The rating after one game against `opponent` (as they were before it) with `score`:
    /// the game is its own rating period.
    #[must_use]
    pub fn after_game(self, opponent: Rating, score: Score) -> Rating {
        let outcome = match score {
            Score::Win => Outcomes::WIN,
            Score::Draw => Outcomes::DRAW,
            Score::Loss => Outcomes::LOSS,
        };
        let config = Glicko2Config {
            tau: TAU,
            convergence_tolerance: TOLERANCE,
        };
        let rated = glicko2_rating_period(&self.into(), &[(opponent.into(), outcome)], &config);
        Rating {
            rating: rated.rating,
            deviation: rated.deviation.clamp(MIN_DEVIATION, MAX_DEVIATION),
            volatility: rated.volatility,
        }
    }
}

impl From<Rating> for Glicko2Rating {
    fn from(rating: Rating) -> Glicko2Rating {
        Glicko2Rating {
            rating: rating.rating,
            deviation: rating.deviation,
            volatility: rating.volatility,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Glickman's Glicko-2 as "Example of the Glicko-2 system" (2013) writes it, step by step,
    /// for one player against several opponents in one rating period; written here from the
    /// paper, independently of the crate.
    fn reference(
        player: (f64, f64, f64),
        games: &[((f64, f64), f64)],
        tau: f64,
    ) -> (f64, f64, f64) {
        let (r, rd, sigma) = player;
        // Step 2: to the Glicko-2 scale.
        let mu = (r - 1500.0) / SCALE;
        let phi = rd / SCALE;
        let g =
            |phi_j: f64| 1.0 / (1.0 + 3.0 * phi_j * phi_j / (std::f64::consts::PI.powi(2))).sqrt();
        let e = |mu_j: f64, phi_j: f64| 1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp());
        // Step 3: the estimated variance v; step 4: the improvement Δ.
        let mut v_inv = 0.0;
        let mut sum = 0.0;
        for &((r_j, rd_j), s) in games {
            let (mu_j, phi_j) = ((r_j - 1500.0) / SCALE, rd_j / SCALE);
            let (gj, ej) = (g(phi_j), e(mu_j, phi_j));
            v_inv += gj * gj * ej * (1.0 - ej);
            sum += gj * (s - ej);
        }
        let v = 1.0 / v_inv;
        let delta = v * sum;
        // Step 5: the new volatility, by the Illinois algorithm.
        let a = (sigma * sigma).ln();
        let f = |x: f64| {
            let ex = x.exp();
            ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex).powi(2))
                - (x - a) / (tau * tau)
        };
        let mut big_a = a;
        let mut big_b = if delta * delta > phi * phi + v {
            (delta * delta - phi * phi - v).ln()
        } else {
            let mut k = 1.0;
            while f(a - k * tau) < 0.0 {
                k += 1.0;
            }
            a - k * tau
        };
        let (mut f_a, mut f_b) = (f(big_a), f(big_b));
        while (big_b - big_a).abs() > 0.000_001 {
            let big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
            let f_c = f(big_c);
            if f_c * f_b <= 0.0 {
                big_a = big_b;
                f_a = f_b;
            } else {
                f_a /= 2.0;
            }
            big_b = big_c;
            f_b = f_c;
        }
        let sigma_new = (big_a / 2.0).exp();
        // Steps 6 to 8.
        let phi_star = (phi * phi + sigma_new * sigma_new).sqrt();
        let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
        let mu_new = mu + phi_new * phi_new * sum;
        (mu_new * SCALE + 1500.0, phi_new * SCALE, sigma_new)
    }

    #[test]
    fn the_reference_gives_the_papers_worked_example() {
        // The paper's example: 1500/200/0.06 against 1400/30 (won), 1550/100 (lost) and
        // 1700/300 (lost), τ = 0.5: about 1464.06, 151.52 and 0.05999.
        let (r, rd, sigma) = reference(
            (1500.0, 200.0, 0.06),
            &[
                ((1400.0, 30.0), 1.0),
                ((1550.0, 100.0), 0.0),
                ((1700.0, 300.0), 0.0),
            ],
            0.5,
        );
        assert!((r - 1464.06).abs() < 0.01, "{r}");
        assert!((rd - 151.52).abs() < 0.01, "{rd}");
        assert!((sigma - 0.05999).abs() < 0.00001, "{sigma}");
    }

    #[test]
    fn one_game_as_the_reference_computes_it() {
        // A fixed list of games between four people, each its own rating period.
        let mut people = [Rating::default(); 4];
        let games = [
            (0, 1, Score::Win),
            (2, 3, Score::Draw),
            (0, 2, Score::Loss),
            (1, 3, Score::Win),
            (3, 0, Score::Win),
            (1, 2, Score::Draw),
            (0, 1, Score::Win),
            (2, 0, Score::Loss),
        ];
        for (a, b, score) in games {
            let (before_a, before_b) = (people[a], people[b]);
            let points = |score: Score| match score {
                Score::Win => 1.0,
                Score::Draw => 0.5,
                Score::Loss => 0.0,
            };
            let other = match score {
                Score::Win => Score::Loss,
                Score::Draw => Score::Draw,
                Score::Loss => Score::Win,
            };
            for (me, them, mine) in [(a, before_b, score), (b, before_a, other)] {
                let before = people[me];
                let rated = before.after_game(them, mine);
                let expected = reference(
                    (before.rating, before.deviation, before.volatility),
                    &[((them.rating, them.deviation), points(mine))],
                    TAU,
                );
                assert!(
                    (rated.rating - expected.0).abs() < 0.01,
                    "{rated:?} {expected:?}"
                );
                assert!(
                    (rated.deviation - expected.1.max(MIN_DEVIATION)).abs() < 0.01,
                    "{rated:?} {expected:?}"
                );
                assert!((rated.volatility - expected.2).abs() < 0.0001, "{rated:?}");
                people[me] = rated;
            }
        }
        // Both are updated from their ratings before the game: the winner gains, the loser
        // loses, about as much when they were alike.
        let (winner, loser) = (
            Rating::default().after_game(Rating::default(), Score::Win),
            Rating::default().after_game(Rating::default(), Score::Loss),
        );
        assert!((winner.rating - 1500.0 - (1500.0 - loser.rating)).abs() < 1e-9);
        assert!(winner.rating > 1500.0);
    }

    #[test]
    fn deviation_grows_with_time_away_and_settles_to_its_floor() {
        let settled = Rating {
            rating: 1700.0,
            deviation: 60.0,
            volatility: 0.06,
        };
        assert!(!settled.provisional());
        let later = settled.after_days_away(365.0);
        // φ' = √(φ² + n σ²) with n = 365 × 0.21436.
        let phi = 60.0 / SCALE;
        let expected = (phi * phi + 365.0 * PERIODS_PER_DAY * 0.06 * 0.06).sqrt() * SCALE;
        assert!((later.deviation - expected).abs() < 1e-9);
        assert!(later.deviation > settled.deviation && later.rating == settled.rating);
        assert!(settled.after_days_away(100_000.0).deviation <= MAX_DEVIATION);
        assert_eq!(settled.after_days_away(0.0), settled);
        // A new player is provisional; many games against a settled opponent settle them, and
        // the deviation never goes below its floor.
        let mut me = Rating::default();
        assert!(me.provisional());
        for n in 0..200 {
            let score = if n % 2 == 0 { Score::Win } else { Score::Loss };
            me = me.after_game(settled, score);
            assert!(me.deviation >= MIN_DEVIATION);
        }
        assert!(!me.provisional(), "{me:?}");
    }
}
