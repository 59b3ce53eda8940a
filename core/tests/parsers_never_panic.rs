//! Property tests: the move interpreter, the canonical parsers and the position parser never
//! panic, whatever the input, for every game; and whatever they accept is sound (an interpreted
//! move is legal, a parsed position prints as a position that parses again).

use proptest::prelude::*;
use tabula_core::{Action, Game, script};

/// Arbitrary text, and text made of the characters the notations use.
fn inputs() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        "[a-lA-L0-9 =,+xXvh:&./-]{0,24}",
        "(remove |enter|roll:)?[a-s]{1,2}[0-9]{1,3}([-x+&: ][a-s]?[0-9]{1,4}){0,4}",
    ]
}

fn positions() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        "((size|turn|black|white|quiet|dice|phase|throws|entered|S|E|N|W|white-oct|black-sq|white-home)=[a-zA-Z0-9,x]{0,12} ?){0,6}",
    ]
}

/// Positions to interpret input in: the start and a few positions along a fixed playout.
fn sample<G: Game>(options: &[&str]) -> Vec<G> {
    let options = script::options::<G>(options).expect("options");
    let mut game = G::new(&options);
    let mut out = vec![game.clone()];
    let mut buffers = tabula_core::playout::Buffers::<G>::default();
    let mut x = 7u32;
    for i in 0..60 {
        let mut pick = |n: u32| {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            (x >> 8) % n
        };
        if !tabula_core::playout::random_step(&mut game, &mut pick, &mut buffers) {
            break;
        }
        if i % 7 == 0 {
            out.push(game.clone());
        }
    }
    out
}

fn check_input<G: Game>(games: &[G], text: &str) {
    let _ = text.parse::<G::Move>();
    let _ = text.parse::<Action<G::Move, G::Roll>>();
    for game in games {
        if let Ok(mv) = game.interpret(text) {
            assert!(game.moves().contains(&mv), "{text} gave the illegal {mv}");
        }
        let mut copy = game.clone();
        if copy.apply_text(text).is_err() {
            assert_eq!(&copy, game, "a refused {text} changed the state");
        }
    }
}

fn check_position<G: Game>(options: &[&str], text: &str) {
    let options = script::options::<G>(options).expect("options");
    if let Ok(game) = G::from_position(&options, text) {
        let printed = game.position();
        let again = G::from_position(&options, &printed)
            .unwrap_or_else(|e| panic!("{text} printed as {printed}, which fails: {e}"));
        assert_eq!(again.position(), printed);
    }
}

macro_rules! never_panic {
    ($name:ident, $game:ty, $options:expr) => {
        mod $name {
            use super::*;
            proptest! {
                #![proptest_config(ProptestConfig::with_cases(400))]
                #[test]
                fn interpreter_and_notation(text in inputs()) {
                    thread_local!(static GAMES: Vec<$game> = sample::<$game>($options));
                    GAMES.with(|games| check_input(games, &text));
                }
                #[test]
                fn position_parser(text in positions()) {
                    check_position::<$game>($options, &text);
                }
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
