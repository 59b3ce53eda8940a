//! Glicko-2 ratings as lichess keeps them (issue 39), on `skillratings`' Glicko-2: a new
//! player starts at 1500 with deviation 500 and volatility 0.09; τ = 0.75; each game is its own
//! rating period (the rating changes right after the game); the deviation never goes below 45,
//! and grows again with time away (0.21436 rating periods a day, as lichess), up to 500; a
//! rating is provisional (shown with `?`) while its deviation is 110 or more.
//!
//! Pure: the store keeps the numbers at full precision (updating both sides of a rated game in
//! its result's transaction) and the service says them. Checked against an independent
//! reference computation written from Glickman's paper, in the service's test suite
//! (`tests/suite/ratings.rs`), both directly and with results replayed through the service.

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
