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

    #[test]
    fn scripted_dice_pick_by_weight_and_run_out() {
        let dice = Dice::scripted([0, 1, 6, 7]);
        let outcomes = vec![("a".to_string(), 1), ("b".to_string(), 6)];
        let picks: Vec<String> = (0..4).filter_map(|_| dice.pick(&outcomes).ok()).collect();
        assert_eq!(picks, ["a", "b", "b", "a"]);
        assert!(dice.pick(&outcomes).is_err());
    }
}
