//! The generic invariant suite (DESIGN.md, "House habits"), run over many seeded random
//! playouts of every game in the enum:
//! - legal moves are non-empty exactly at decision nodes, outcomes exactly at chance nodes, with
//!   positive weights summing to the game's total;
//! - every legal move plays, and its canonical text parses (strictly and leniently) back to it;
//! - an illegal move leaves the state equal to before (moves legal elsewhere in the same game,
//!   a reservoir sample over the whole game so far, not only its opening);
//! - every position string round-trips;
//! - replaying the action list (as text) gives the same state;
//! - every playout ends within a bound;
//! - for Kolowis's repetition rule, the test's own count of (placement, side to move) since the
//!   last capture agrees with the engine: a game ends by repetition exactly at a third
//!   occurrence.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tabula_core::{Action, Game, Status, script};

struct Check<'a, G: Game> {
    options: &'a [&'a str],
    /// The position string the playouts start from; the start position if `None`.
    start: Option<&'a str>,
    playouts: u64,
    max_actions: usize,
    /// The sum of the weights at every chance node, for games with chance.
    chance_total: Option<u32>,
    /// Whether a re-parsed position must be `==` to the state (false where the state keeps a
    /// history the position string does not show, as Kolowis's repetition count).
    reparse_equal: bool,
    /// States whose status depends on history the position string does not hold (a Kolowis
    /// game drawn by third repetition): their position string must round-trip, and read
    /// afresh (with no history) it is a position in play.
    history_decides: fn(&G) -> bool,
    /// An independent repetition count, for games with a repetition rule.
    repetition: Option<Repetition<G>>,
    marker: std::marker::PhantomData<G>,
}

/// The test's own model of a repetition rule: states with the same key are the same position;
/// a state where `resets` holds makes every earlier one unrepeatable; `ended` says whether the
/// engine ended the game by repetition. A game must end by repetition exactly when a key occurs
/// the third time.
struct Repetition<G> {
    key: fn(&G) -> String,
    resets: fn(&G) -> bool,
    ended: fn(&G) -> bool,
}

/// How many moves seen earlier in a playout are kept to be tried as illegal moves later.
const RESERVOIR: usize = 200;

impl<G: Game> Check<'_, G> {
    /// Runs the playouts; returns how many ended by repetition.
    fn run(&self) -> usize {
        let options = script::options::<G>(self.options).expect("options");
        let mut lengths = Vec::new();
        let mut repetitions = 0;
        for seed in 0..self.playouts {
            let (length, repeated) = self.playout(&options, seed);
            lengths.push(length);
            repetitions += usize::from(repeated);
        }
        let mean = lengths.iter().sum::<usize>() as f64 / lengths.len() as f64;
        let ended = if self.repetition.is_some() {
            format!(", {repetitions} ended by repetition")
        } else {
            String::new()
        };
        eprintln!(
            "{} {:?} from {}: {} playouts, mean {mean:.1} actions, longest {}{ended}",
            G::ID,
            self.options,
            self.start.unwrap_or("the start"),
            lengths.len(),
            lengths.iter().max().unwrap_or(&0)
        );
        repetitions
    }

    fn start(&self, options: &G::Options) -> G {
        match self.start {
            Some(text) => G::from_position(options, text).expect("start position"),
            None => G::new(options),
        }
    }

    /// One seeded playout; returns its length and whether it ended by repetition.
    fn playout(&self, options: &G::Options, seed: u64) -> (usize, bool) {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut game = self.start(options);
        let mut history: Vec<Action<G::Move, G::Roll>> = Vec::new();
        // A separate generator for the samples, so the playouts stay those of the seed.
        let mut sampler = SmallRng::seed_from_u64(seed ^ 0x5a3c_96e1);
        // A uniform sample (reservoir sampling, Algorithm R) of every legal move seen so far.
        let mut seen_moves: Vec<G::Move> = Vec::with_capacity(RESERVOIR);
        let mut seen_count = 0usize;
        let mut keys: Vec<String> = Vec::new();
        loop {
            let at = format!("{} seed {seed} after {} actions", G::ID, history.len());
            let moves = game.moves();
            let outcomes = game.outcomes();
            self.check_position(options, &game, &moves, &at);
            if let Some(rep) = &self.repetition {
                if (rep.resets)(&game) {
                    keys.clear();
                }
                let key = (rep.key)(&game);
                keys.push(key.clone());
                let occurrences = keys.iter().filter(|k| **k == key).count();
                if (rep.ended)(&game) {
                    assert_eq!(occurrences, 3, "{at}: ended by repetition of {key}");
                } else if matches!(game.status(), Status::Decision(_)) {
                    assert!(occurrences < 3, "{at}: {key} occurred {occurrences} times");
                }
            }
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
                    let offset = sampler.random_range(0..seen_moves.len().max(1));
                    self.check_moves(&game, &moves, &seen_moves, offset, &at);
                    let mv = moves[rng.random_range(0..moves.len())].clone();
                    game.play(&mv)
                        .unwrap_or_else(|e| panic!("{at}: {mv} failed: {e}"));
                    for m in moves {
                        seen_count += 1;
                        if seen_moves.len() < RESERVOIR {
                            seen_moves.push(m);
                        } else {
                            let j = sampler.random_range(0..seen_count);
                            if j < RESERVOIR {
                                seen_moves[j] = m;
                            }
                        }
                    }
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
        let mut replay = self.start(options);
        for action in &history {
            let parsed: Action<G::Move, G::Roll> = action.to_string().parse().expect("parse");
            replay.apply(&parsed).expect("replay");
        }
        assert_eq!(replay, game, "{} seed {seed}: replay differs", G::ID);
        let repeated = self.repetition.as_ref().is_some_and(|r| (r.ended)(&game));
        (history.len(), repeated)
    }

    fn check_position(&self, options: &G::Options, game: &G, moves: &[G::Move], at: &str) {
        let text = game.position();
        let parsed = G::from_position(options, &text)
            .unwrap_or_else(|e| panic!("{at}: position {text} does not parse: {e}"));
        assert_eq!(parsed.position(), text, "{at}: position string round trip");
        if (self.history_decides)(game) {
            // Read afresh, the position has no history to repeat: the game goes on, with the
            // same side to move.
            assert!(
                matches!(parsed.status(), Status::Decision(_)),
                "{at}: {text} read afresh is {:?}",
                parsed.status()
            );
            assert!(!parsed.moves().is_empty(), "{at}: {text} read afresh");
            assert!(
                text.contains(&parsed.status_line().replace(' ', "=")),
                "{at}: side to move of {text}"
            );
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

    fn check_moves(&self, game: &G, moves: &[G::Move], seen: &[G::Move], offset: usize, at: &str) {
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
        let (late, early) = seen.split_at(offset.min(seen.len()));
        for mv in early
            .iter()
            .chain(late)
            .filter(|m| !moves.contains(m))
            .take(5)
        {
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
        start: None,
        playouts,
        max_actions,
        chance_total: None,
        reparse_equal: true,
        history_decides: |_| false,
        repetition: None,
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
    // The key: the position string without the ply counter (placement and side to move);
    // the count starts again at the start and after every capture (quiet=0).
    let repetition = || Repetition::<Kolowis> {
        key: |g| {
            g.position()
                .split(' ')
                .filter(|t| !t.starts_with("quiet="))
                .collect::<Vec<_>>()
                .join(" ")
        },
        resets: |g| g.quiet() == 0,
        ended: |g| g.stall_ending() == Some(Stall::Repetition),
    };
    let mut c = check::<Kolowis>(&[], 150, 2_000);
    c.reparse_equal = false;
    c.history_decides = |g| g.stall_ending() == Some(Stall::Repetition);
    c.repetition = Some(repetition());
    c.run();
    // Without the stall rule random games can run long; the bound catches a game that never
    // ends for lack of captures.
    let mut c = check::<Kolowis>(&["stall=0"], 20, 20_000);
    c.reparse_equal = false;
    c.run();
    let mut c = check::<Kolowis>(&["stall=8"], 60, 2_000);
    c.reparse_equal = false;
    c.history_decides = |g| g.stall_ending() == Some(Stall::Repetition);
    c.repetition = Some(repetition());
    c.run();
    // From the opening, random play seldom repeats a position three times: a few pieces
    // wandering over the board do, often with the other side to move in between (a piece that
    // goes round a triangle of lines loses a tempo). These playouts must end by repetition
    // often enough that the count above is really tested.
    let mut repetitions = 0;
    for start in [
        "turn=white white=C1 black=A16",
        "turn=black white=B9 black=A1",
        "turn=white white=C1,C16 black=A1,A16",
        "turn=white white=B2,C8 black=A8,B16",
    ] {
        let mut c = check::<Kolowis>(&[], 100, 2_000);
        c.start = Some(start);
        c.reparse_equal = false;
        c.history_decides = |g| g.stall_ending() == Some(Stall::Repetition);
        c.repetition = Some(repetition());
        repetitions += c.run();
    }
    assert!(
        repetitions >= 40,
        "only {repetitions} of 400 ended by repetition"
    );
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
