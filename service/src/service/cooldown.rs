//! A per-person cooldown against flooding a chat through the bot: every refused request gets
//! an answer, so someone sending mistakes on purpose would make the bot post for them. After
//! [`Cooldown::limit`] refusals to one person within [`Cooldown::window`], further refusals to
//! them are not answered for [`Cooldown::quiet`] (the service returns `None`; an adapter still
//! acknowledges a button press silently, see `contract.rs`). Requests that succeed are
//! answered as always, and are not counted.
//!
//! Kept in memory, per process: it is not game state, nothing depends on it surviving a
//! restart, and several instances each keep their own (a flood then needs a few more
//! refusals before it goes quiet). The map forgets people whose refusals are all older than
//! the window, and starts afresh beyond [`COOLDOWN_CAPACITY`] people.

use std::collections::HashMap;
use std::sync::Mutex;

use crate::store::{Platform, Timestamp};

/// Beyond this many people the map starts afresh.
const COOLDOWN_CAPACITY: usize = 50_000;

/// How a person is kept quiet after too many refusals.
#[derive(Debug)]
pub struct Cooldown {
    /// How many refusals within the window are answered.
    pub limit: usize,
    /// The window refusals are counted in, in milliseconds.
    pub window: i64,
    /// How long refusals then go unanswered, in milliseconds.
    pub quiet: i64,
    people: Mutex<HashMap<(Platform, String), Refusals>>,
}

/// One person's recent refusals.
#[derive(Debug, Default)]
struct Refusals {
    /// When each answered refusal within the window was made.
    at: Vec<Timestamp>,
    /// Until when refusals are not answered.
    quiet_until: Option<Timestamp>,
}

impl Default for Cooldown {
    /// Five refusals within a minute, then two minutes without answers to refusals.
    fn default() -> Cooldown {
        Cooldown::new(5, 60_000, 120_000)
    }
}

impl Cooldown {
    /// A cooldown that answers `limit` refusals within `window` milliseconds and then none
    /// for `quiet` milliseconds.
    pub fn new(limit: usize, window: i64, quiet: i64) -> Cooldown {
        Cooldown {
            limit,
            window,
            quiet,
            people: Mutex::new(HashMap::new()),
        }
    }

    /// Counts a refusal to `person` at `now`; whether it is to be answered.
    pub(super) fn answer_refusal(&self, person: (Platform, &str), now: Timestamp) -> bool {
        let Ok(mut people) = self.people.lock() else {
            // A poisoned lock: answer, as without a cooldown.
            return true;
        };
        if people.len() >= COOLDOWN_CAPACITY {
            let window = self.window;
            people.retain(|_, refusals| {
                refusals.quiet_until.is_some_and(|until| until > now)
                    || refusals.at.last().is_some_and(|at| now.0 - at.0 < window)
            });
            if people.len() >= COOLDOWN_CAPACITY {
                people.clear();
            }
        }
        let refusals = people.entry((person.0, person.1.to_string())).or_default();
        if let Some(until) = refusals.quiet_until {
            if now < until {
                return false;
            }
            refusals.quiet_until = None;
            refusals.at.clear();
        }
        refusals.at.retain(|at| now.0 - at.0 < self.window);
        if refusals.at.len() >= self.limit {
            refusals.quiet_until = Some(now.plus_millis(self.quiet));
            refusals.at.clear();
            return false;
        }
        refusals.at.push(now);
        true
    }
}
