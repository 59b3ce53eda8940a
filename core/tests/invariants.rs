//! The generic invariant suite (DESIGN.md, "House habits"), run over many seeded random
//! playouts of every game in the enum:
//! - legal moves are non-empty exactly at decision nodes, outcomes exactly at chance nodes, with
//!   positive weights summing to the game's total;
//! - every legal move plays, and its canonical text parses (strictly and leniently) back to it;
//! - an illegal move leaves the state equal to before;
//! - every position string round-trips;
//! - replaying the action list (as text) gives the same state;
//! - every playout ends within a bound.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tabula_core::{Action, Game, Status, script};

struct Check<'a, G: Game> {
    options: &'a [&'a str],
    playouts: u64,
    max_actions: usize,
    /// The sum of the weights at every chance node, for games with chance.
    chance_total: Option<u32>,
    /// Whether a re-parsed position must be `==` to the state (false where the state keeps a
    /// history the position string does not show, as Kolowis's repetition count).
    reparse_equal: bool,
    /// States whose status depends on history the position string does not hold (a Kolowis
    /// game drawn by third repetition): only their position string must round-trip.
    history_decides: fn(&G) -> bool,
    marker: std::marker::PhantomData<G>,
}

impl<G: Game> Check<'_, G> {
    fn run(&self) {
        let options = script::options::<G>(self.options).expect("options");
        let mut lengths = Vec::new();
        for seed in 0..self.playouts {
            lengths.push(self.playout(&options, seed));
        }
        let mean = lengths.iter().sum::<usize>() as f64 / lengths.len() as f64;
        eprintln!(
            "{} {:?}: {} playouts, mean {mean:.1} actions, longest {}",
            G::ID,
            self.options,
            lengths.len(),
            lengths.iter().max().unwrap_or(&0)
        );
    }

    fn playout(&self, options: &G::Options, seed: u64) -> usize {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut game = G::new(options);
        let mut history: Vec<Action<G::Move, G::Roll>> = Vec::new();
        let mut seen_moves: Vec<G::Move> = Vec::new();
        loop {
            let at = format!("{} seed {seed} after {} actions", G::ID, history.len());
            let moves = game.moves();
            let outcomes = game.outcomes();
            self.check_position(options, &game, &moves, &at);
            match game.status() {
                Status::Done(_) => {
                    assert!(
                        moves.is_empty() && outcomes.is_empty(),
                        "{at}: done but actions"
                    );
                    break;
                }
                Status::Decision(_) => {
                    assert!(!moves.is_empty(), "{at}: decision without moves");
                    assert!(outcomes.is_empty(), "{at}: decision with outcomes");
                    self.check_moves(&game, &moves, &seen_moves, &at);
                    let mv = moves[rng.random_range(0..moves.len())].clone();
                    game.play(&mv)
                        .unwrap_or_else(|e| panic!("{at}: {mv} failed: {e}"));
                    seen_moves.extend(moves);
                    seen_moves.truncate(200);
                    history.push(Action::Move(mv));
                }
                Status::Chance => {
                    assert!(moves.is_empty(), "{at}: chance node with moves");
                    assert!(!outcomes.is_empty(), "{at}: chance node without outcomes");
                    assert!(outcomes.iter().all(|(_, w)| *w > 0), "{at}: zero weight");
                    let total: u32 = outcomes.iter().map(|(_, w)| w).sum();
                    if let Some(expected) = self.chance_total {
                        assert_eq!(total, expected, "{at}: weights");
                    }
                    for (roll, _) in &outcomes {
                        let text = format!("roll:{roll}");
                        let back: Action<G::Move, G::Roll> =
                            text.parse().unwrap_or_else(|e| panic!("{at}: {text}: {e}"));
                        assert_eq!(back, Action::Roll(roll.clone()), "{at}: {text}");
                    }
                    let mut r = rng.random_range(0..total);
                    let roll = outcomes
                        .iter()
                        .find(|(_, w)| {
                            let hit = r < *w;
                            r = r.saturating_sub(*w);
                            hit
                        })
                        .map(|(roll, _)| roll.clone())
                        .expect("an outcome");
                    game.roll(&roll)
                        .unwrap_or_else(|e| panic!("{at}: {roll} failed: {e}"));
                    history.push(Action::Roll(roll));
                }
            }
            assert!(
                history.len() <= self.max_actions,
                "{at}: the playout did not end within {} actions",
                self.max_actions
            );
        }
        // Replay the history from its text form.
        let mut replay = G::new(options);
        for action in &history {
            let parsed: Action<G::Move, G::Roll> = action.to_string().parse().expect("parse");
            replay.apply(&parsed).expect("replay");
        }
        assert_eq!(replay, game, "{} seed {seed}: replay differs", G::ID);
        history.len()
    }

    fn check_position(&self, options: &G::Options, game: &G, moves: &[G::Move], at: &str) {
        let text = game.position();
        let parsed = G::from_position(options, &text)
            .unwrap_or_else(|e| panic!("{at}: position {text} does not parse: {e}"));
        assert_eq!(parsed.position(), text, "{at}: position string round trip");
        if (self.history_decides)(game) {
            return;
        }
        assert_eq!(
            parsed.status(),
            game.status(),
            "{at}: status after re-parse of {text}"
        );
        assert_eq!(
            parsed.moves(),
            moves,
            "{at}: legal moves after re-parse of {text}"
        );
        if self.reparse_equal {
            assert_eq!(&parsed, game, "{at}: state after re-parse of {text}");
        }
    }

    fn check_moves(&self, game: &G, moves: &[G::Move], seen: &[G::Move], at: &str) {
        for (i, mv) in moves.iter().enumerate() {
            assert!(!moves[..i].contains(mv), "{at}: {mv} listed twice");
            let text = mv.to_string();
            let parsed: G::Move = text
                .parse()
                .unwrap_or_else(|e| panic!("{at}: {text} does not parse: {e}"));
            assert_eq!(&parsed, mv, "{at}: {text} round trip");
            assert_eq!(
                game.interpret(&text).as_ref(),
                Ok(mv),
                "{at}: interpret {text}"
            );
            let mut next = game.clone();
            next.play(mv)
                .unwrap_or_else(|e| panic!("{at}: legal {text} refused: {e}"));
        }
        // Moves legal elsewhere but not here must be refused without changing anything.
        for mv in seen.iter().filter(|m| !moves.contains(m)).take(5) {
            let mut copy = game.clone();
            assert!(copy.play(mv).is_err(), "{at}: illegal {mv} accepted");
            assert_eq!(&copy, game, "{at}: illegal {mv} changed the state");
            // Lenient reading may map the text to another, legal move (Koan does not check the
            // separator: `C1-C3` means the capture `C1xC3` when an enemy stands there).
            if let Ok(other) = copy.interpret(&mv.to_string()) {
                assert!(
                    other != *mv && moves.contains(&other),
                    "{at}: interpret {mv}"
                );
            }
        }
        let mut copy = game.clone();
        assert!(copy.apply_text("roll:zz").is_err());
        assert!(copy.apply_text("zz9").is_err());
        assert_eq!(&copy, game, "{at}: bad input changed the state");
    }
}

fn check<'a, G: Game>(options: &'a [&'a str], playouts: u64, max_actions: usize) -> Check<'a, G> {
    Check {
        options,
        playouts,
        max_actions,
        chance_total: None,
        reparse_equal: true,
        history_decides: |_| false,
        marker: std::marker::PhantomData,
    }
}

#[test]
fn konane_invariants() {
    use tabula_core::konane::Konane;
    for size in ["size=6", "size=8", "size=10", "size=12"] {
        // Every jump removes a stone: at most n² − 2 jumps after the two removals.
        check::<Konane>(&[size], 60, 150).run();
    }
}

#[test]
fn koan_invariants() {
    // Every move takes a piece at least one row forwards: at most 22 pieces × 10 rows.
    check::<tabula_core::koan::Koan>(&[], 300, 220).run();
}

#[test]
fn kolowis_invariants() {
    use tabula_core::kolowis::{Kolowis, Stall};
    let mut c = check::<Kolowis>(&[], 150, 2_000);
    c.reparse_equal = false;
    c.history_decides = |g| g.stall_ending() == Some(Stall::Repetition);
    c.run();
    // Without the stall rule random games can run long; the bound catches a game that never
    // ends for lack of captures.
    let mut c = check::<Kolowis>(&["stall=0"], 20, 20_000);
    c.reparse_equal = false;
    c.run();
    let mut c = check::<Kolowis>(&["stall=8"], 60, 2_000);
    c.reparse_equal = false;
    c.history_decides = |g| g.stall_ending() == Some(Stall::Repetition);
    c.run();
}

#[test]
fn coan_ki_invariants() {
    use tabula_core::coan_ki::CoanKi;
    // Zone finishing can lose many throws near the end; 20,000 actions is far beyond any game
    // seen (the mean is under 200) and still catches a game that never ends.
    for options in [&[][..], &["finish=overshoot"], &["block8=on"]] {
        let mut c = check::<CoanKi>(options, 120, 20_000);
        c.chance_total = Some(36);
        c.run();
    }
}

#[test]
fn pachisi_invariants() {
    use tabula_core::pachisi::Pachisi;
    // Random play skips and gives up values, so games are long; the bound still catches a game
    // that never ends.
    let mut c = check::<Pachisi>(&[], 40, 200_000);
    c.chance_total = Some(64);
    c.run();
}
