//! Property tests: the move interpreter, the canonical parsers and the position parser never
//! panic, whatever the input, for every game; and whatever they accept is sound (an interpreted
//! move is legal, a parsed position prints as a position that parses again).
//!
//! The inputs are the legal moves and position strings of states sampled from seeded random
//! playouts, edited (a character dropped, swapped, re-cased, inserted or replaced, the text cut
//! short, a token written twice), plus fully random strings (see `common::fuzz`). Each test
//! counts how often each branch was reached and fails if one was reached in under 5 % of the
//! cases; `cargo test -p tabula-core --test suite -- parsers_never_panic:: --nocapture` prints
//! the counts.

use crate::common;

use common::fuzz::{interpreter, material, positions};

/// Cases per property test and game.
const CASES: u32 = 3_000;

macro_rules! never_panic {
    ($name:ident, $game:ty, $options:expr) => {
        mod $name {
            use super::*;
            #[test]
            fn interpreter_and_notation() {
                let m = material::<$game>($options, 12, 2, |_| true);
                interpreter(stringify!($name), &m, CASES);
            }
            #[test]
            fn position_parser() {
                let m = material::<$game>($options, 12, 2, |_| true);
                positions(stringify!($name), $options, &m, CASES);
            }
        }
    };
}

never_panic!(konane, tabula_core::konane::Konane, &["size=8"]);
never_panic!(konane_12, tabula_core::konane::Konane, &["size=12"]);
never_panic!(koan, tabula_core::koan::Koan, &[]);
never_panic!(kolowis, tabula_core::kolowis::Kolowis, &[]);
never_panic!(coan_ki, tabula_core::coan_ki::CoanKi, &[]);
never_panic!(pachisi, tabula_core::pachisi::Pachisi, &[]);
