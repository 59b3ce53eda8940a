//! Where the service's random numbers come from: the operating system's cryptographically secure
//! generator, or a script of numbers for tests.

use std::collections::VecDeque;
use std::sync::Mutex;

use rand::TryRngCore;
use rand::rngs::OsRng;

use super::ServiceError;

/// The source of dice rolls and lots.
#[derive(Debug)]
pub enum Dice {
    /// The operating system's generator (cryptographically secure).
    Os,
    /// Numbers taken in order: each draw uses the next number modulo the total weight. Running
    /// out is an internal error.
    Scripted(Mutex<VecDeque<u64>>),
}

impl Dice {
    /// Scripted dice from a list of numbers.
    pub fn scripted(numbers: impl IntoIterator<Item = u64>) -> Dice {
        Dice::Scripted(Mutex::new(numbers.into_iter().collect()))
    }

    /// A number in `0..bound` (`bound` > 0), uniformly.
    fn below(&self, bound: u64) -> Result<u64, ServiceError> {
        if bound == 0 {
            return Err(ServiceError::Dice("nothing to choose from".into()));
        }
        match self {
            Dice::Os => {
                // Rejection sampling: no modulo bias.
                let zone = u64::MAX - (u64::MAX % bound);
                loop {
                    let value = OsRng
                        .try_next_u64()
                        .map_err(|error| ServiceError::Dice(error.to_string()))?;
                    if value < zone {
                        return Ok(value % bound);
                    }
                }
            }
            Dice::Scripted(numbers) => {
                let mut numbers = numbers
                    .lock()
                    .map_err(|_| ServiceError::Dice("scripted dice poisoned".into()))?;
                numbers
                    .pop_front()
                    .map(|value| value % bound)
                    .ok_or_else(|| ServiceError::Dice("scripted dice ran out".into()))
            }
        }
    }

    /// An index in `0..count`, uniformly (used for lots).
    ///
    /// # Errors
    /// The random source failed, or `count` is zero.
    pub fn draw(&self, count: usize) -> Result<usize, ServiceError> {
        let bound = u64::try_from(count).map_err(|_| ServiceError::Dice("too many".into()))?;
        let value = self.below(bound)?;
        usize::try_from(value).map_err(|_| ServiceError::Dice("out of range".into()))
    }

    /// One of the outcomes, chosen by weight.
    ///
    /// # Errors
    /// The random source failed, or the weights sum to zero.
    pub fn pick(&self, outcomes: &[(String, u64)]) -> Result<String, ServiceError> {
        let total: u64 = outcomes.iter().map(|(_, weight)| weight).sum();
        let mut value = self.below(total)?;
        for (outcome, weight) in outcomes {
            if value < *weight {
                return Ok(outcome.clone());
            }
            value -= weight;
        }
        Err(ServiceError::Dice("weights do not add up".into()))
    }
}

#[cfg(test)]
mod tests {
    use super::Dice;

    #[test]
    fn os_dice_stay_in_range_and_follow_the_weights() {
        let dice = Dice::Os;
        for bound in [1, 2, 6, 36] {
            for _ in 0..200 {
                assert!(dice.draw(bound).is_ok_and(|value| value < bound));
            }
        }
        let outcomes = vec![
            ("roll:never".to_string(), 0),
            ("roll:always".to_string(), 5),
        ];
        for _ in 0..100 {
            assert!(dice.pick(&outcomes).is_ok_and(|roll| roll == "roll:always"));
        }
    }

    /// Pachisi's cowries, written from `shared/rules/pachisi.md` rule 5.1 (never from the
    /// engine): values 25, 10, 2, 3, 4, 5, 6 of weights 1, 6, 15, 20, 15, 6, 1 of 64.
    fn cowries() -> Vec<(String, u64)> {
        [(25, 1), (10, 6), (2, 15), (3, 20), (4, 15), (5, 6), (6, 1)]
            .into_iter()
            .map(|(value, weight)| (format!("roll:{value}"), weight))
            .collect()
    }

    /// Coan Ki's throws of two dice, written from `shared/rules/coan-ki.md` rule 5.3: a double
    /// has weight 1 and any other pair 2, of 36.
    fn throws() -> Vec<(String, u64)> {
        let mut throws = Vec::new();
        for lo in 1..=6 {
            for hi in lo..=6 {
                throws.push((format!("roll:{lo}-{hi}"), if lo == hi { 1 } else { 2 }));
            }
        }
        throws
    }

    /// How often each outcome was picked in `draws` picks.
    fn counts(dice: &Dice, outcomes: &[(String, u64)], draws: usize) -> Vec<u64> {
        let mut counts = vec![0u64; outcomes.len()];
        for _ in 0..draws {
            let picked = dice.pick(outcomes).expect("a pick");
            let at = outcomes
                .iter()
                .position(|(outcome, _)| *outcome == picked)
                .expect("a listed outcome");
            counts[at] += 1;
        }
        counts
    }

    #[test]
    fn every_number_below_the_total_picks_by_the_reference_weights() {
        // Each number below the total weight once: the picks are exactly the weights.
        for outcomes in [cowries(), throws()] {
            let total: u64 = outcomes.iter().map(|(_, w)| w).sum();
            let dice = Dice::scripted(0..total);
            let picked = counts(&dice, &outcomes, usize::try_from(total).expect("small"));
            let weights: Vec<u64> = outcomes.iter().map(|(_, w)| *w).collect();
            assert_eq!(picked, weights);
        }
    }

    /// χ² of `observed` against `outcomes`' weights.
    fn chi_square(observed: &[u64], outcomes: &[(String, u64)]) -> f64 {
        let total: u64 = outcomes.iter().map(|(_, w)| w).sum();
        let n: u64 = observed.iter().sum();
        observed
            .iter()
            .zip(outcomes)
            .map(|(o, (_, w))| {
                let expected = n as f64 * *w as f64 / total as f64;
                (*o as f64 - expected).powi(2) / expected
            })
            .sum()
    }

    #[test]
    fn os_dice_follow_the_reference_weights() {
        // A χ² goodness-of-fit test of the operating system's dice against the rules
        // reference, rejecting above the 1 − 10⁻⁶ quantile (38.26 for Pachisi's 6 degrees of
        // freedom, 65.42 for Coan Ki's 20): a correct generator fails once in a million runs.
        // Power: one way of 64 (or 36) moved between neighbouring outcomes would give on
        // average N·Σ(Δp)²/p, checked to be at least ten times the critical value.
        const DRAWS: usize = 256_000;
        let dice = Dice::Os;
        for (outcomes, critical) in [(cowries(), 38.26), (throws(), 65.42)] {
            let total: f64 = outcomes.iter().map(|(_, w)| *w as f64).sum();
            let moved = (0..outcomes.len() - 1)
                .map(|i| {
                    let (a, b) = (outcomes[i].1 as f64, outcomes[i + 1].1 as f64);
                    DRAWS as f64 * (1.0 / total).powi(2) * (total / a + total / b)
                })
                .fold(f64::INFINITY, f64::min);
            assert!(moved >= 10.0 * critical, "too weak: {moved}");
            let statistic = chi_square(&counts(&dice, &outcomes, DRAWS), &outcomes);
            assert!(statistic < critical, "χ² {statistic} ≥ {critical}");
        }
        // The same test rejects dice that favour one outcome by a single way.
        let mut biased = cowries();
        biased[2].1 += 1;
        biased[3].1 -= 1;
        let statistic = chi_square(&counts(&dice, &biased, DRAWS), &cowries());
        assert!(
            statistic > 38.26,
            "a bias of one way in 64 went unseen: {statistic}"
        );
    }

    #[test]
    fn scripted_dice_pick_by_weight_and_run_out() {
        let dice = Dice::scripted([0, 1, 6, 7]);
        let outcomes = vec![("a".to_string(), 1), ("b".to_string(), 6)];
        let picks: Vec<String> = (0..4).filter_map(|_| dice.pick(&outcomes).ok()).collect();
        assert_eq!(picks, ["a", "b", "b", "a"]);
        assert!(dice.pick(&outcomes).is_err());
    }
}
