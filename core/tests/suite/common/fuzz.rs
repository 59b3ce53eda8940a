//! Property tests that reach their point: inputs are made from real material (the legal moves and
//! position strings of states sampled from seeded random playouts), mutated a little, plus some
//! fully random strings. Each test counts how often it reached each branch (parsed or rejected,
//! interpreted-and-legal or refused) and fails when a branch was reached too seldom to have
//! been tested.

use std::cell::Cell;

use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use tabula_core::playout::{Buffers, random_step};
use tabula_core::{Action, Game, Status, script};

/// States sampled from seeded random playouts, with their legal moves and position strings.
pub struct Material<G: Game> {
    /// Decision states, where typed input is interpreted.
    pub states: Vec<G>,
    /// The legal moves of each state, in canonical notation.
    pub moves: Vec<Vec<String>>,
    /// The position strings of every sampled state (decisions, chance nodes, ends).
    pub positions: Vec<String>,
}

/// Samples every `every`-th state of `playouts` seeded random playouts (a fixed LCG), keeping
/// the decision states for which `keep` holds.
pub fn material<G: Game>(
    options: &[&str],
    playouts: u32,
    every: usize,
    keep: fn(&G) -> bool,
) -> Material<G> {
    let options = script::options::<G>(options).expect("options");
    let mut out = Material {
        states: Vec::new(),
        moves: Vec::new(),
        positions: Vec::new(),
    };
    let mut buffers = Buffers::<G>::default();
    for seed in 0..playouts {
        let mut x = seed.wrapping_mul(2_654_435_761).wrapping_add(7);
        let mut pick = |n: u32| {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            (x >> 8) % n
        };
        let mut game = G::new(&options);
        for i in 0..5_000 {
            if i % every == 0 {
                out.positions.push(game.position());
                if matches!(game.status(), Status::Decision(_)) && keep(&game) {
                    out.moves
                        .push(game.moves().iter().map(ToString::to_string).collect());
                    out.states.push(game.clone());
                }
            }
            if !random_step(&mut game, &mut pick, &mut buffers) {
                out.positions.push(game.position());
                break;
            }
        }
    }
    assert!(!out.states.is_empty(), "no states sampled");
    out
}

/// One small edit of a string.
#[derive(Debug, Clone, Copy)]
pub enum Edit {
    /// Drop the character at the index.
    Drop(Index),
    /// Swap the characters at the index and the next one.
    Swap(Index),
    /// Change the case of the character at the index.
    Case(Index),
    /// Insert a character at the index.
    Noise(Index, char),
    /// Cut the string at the index.
    Truncate(Index),
    /// Write the token at the index (tokens are separated by spaces) twice.
    Duplicate(Index),
    /// Replace the character at the index.
    Replace(Index, char),
}

/// Characters of the notations, and a few others.
const NOISE: &[char] = &[
    ' ', '-', 'x', 'X', '+', '&', ',', '=', ':', 'h', 'v', '0', '1', '2', '3', '4', '5', '6', '9',
    'a', 'B', 'é', '\t',
];

fn edit() -> impl Strategy<Value = Edit> {
    let noise = prop_oneof![
        3 => proptest::sample::select(NOISE),
        1 => any::<char>(),
    ];
    prop_oneof![
        any::<Index>().prop_map(Edit::Drop),
        any::<Index>().prop_map(Edit::Swap),
        any::<Index>().prop_map(Edit::Case),
        (any::<Index>(), noise.clone()).prop_map(|(i, c)| Edit::Noise(i, c)),
        any::<Index>().prop_map(Edit::Truncate),
        any::<Index>().prop_map(Edit::Duplicate),
        (any::<Index>(), noise).prop_map(|(i, c)| Edit::Replace(i, c)),
    ]
}

/// Applies the edits in order.
pub fn mutate(text: &str, edits: &[Edit]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for e in edits {
        let n = chars.len();
        match *e {
            Edit::Drop(i) if n > 0 => {
                chars.remove(i.index(n));
            }
            Edit::Swap(i) if n > 1 => {
                let i = i.index(n - 1);
                chars.swap(i, i + 1);
            }
            Edit::Case(i) if n > 0 => {
                let i = i.index(n);
                let c = chars[i];
                let flipped: Vec<char> = if c.is_uppercase() {
                    c.to_lowercase().collect()
                } else {
                    c.to_uppercase().collect()
                };
                chars.splice(i..=i, flipped);
            }
            Edit::Noise(i, c) => chars.insert(i.index(n + 1), c),
            Edit::Truncate(i) => chars.truncate(i.index(n + 1)),
            Edit::Duplicate(i) => {
                let s: String = chars.iter().collect();
                let mut tokens: Vec<&str> = s.split(' ').collect();
                let k = i.index(tokens.len());
                tokens.insert(k, tokens[k]);
                chars = tokens.join(" ").chars().collect();
            }
            Edit::Replace(i, c) if n > 0 => chars[i.index(n)] = c,
            _ => {}
        }
    }
    chars.into_iter().collect()
}

/// Where a test input comes from.
#[derive(Debug, Clone)]
pub enum Source {
    /// A string of the material for this state (a legal move, a position string), edited.
    Own(Index, Vec<Edit>),
    /// A string of the material for a state up to 4 samples later or earlier in the same
    /// playout (a move legal nearby, but perhaps not here), edited.
    Nearby(i8, Index, Vec<Edit>),
    /// Any string at all.
    Random(String),
}

/// A state index and a source: mostly the state's own material, edited by up to three edits
/// (none in about a quarter of the cases), sometimes another state's, sometimes random text.
pub fn case() -> impl Strategy<Value = (Index, Source)> {
    let edits = || proptest::collection::vec(edit(), 0..4);
    let source = prop_oneof![
        6 => (any::<Index>(), edits()).prop_map(|(i, e)| Source::Own(i, e)),
        3 => (-4i8..=4, any::<Index>(), edits())
            .prop_map(|(d, i, e)| Source::Nearby(d, i, e)),
        1 => any::<String>().prop_map(Source::Random),
    ];
    (any::<Index>(), source)
}

/// The text of a source, from `pool[state]` (a list of strings per state).
pub fn text(pool: &[Vec<String>], state: usize, source: &Source) -> String {
    let pick = |strings: &[String], i: &Index| {
        if strings.is_empty() {
            String::new()
        } else {
            strings[i.index(strings.len())].clone()
        }
    };
    match source {
        Source::Own(i, edits) => mutate(&pick(&pool[state], i), edits),
        Source::Nearby(d, i, edits) => {
            let other = state
                .saturating_add_signed(isize::from(*d))
                .min(pool.len() - 1);
            mutate(&pick(&pool[other], i), edits)
        }
        Source::Random(text) => text.clone(),
    }
}

/// A deterministic runner of `cases` cases (the same inputs on every run).
pub fn runner(cases: u32) -> TestRunner {
    let config = Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    };
    TestRunner::new_with_rng(config, TestRng::deterministic_rng(RngAlgorithm::ChaCha))
}

/// Counts of the branches a property test reached, by name.
#[derive(Debug, Default)]
pub struct Branches {
    counts: Vec<(&'static str, Cell<u32>)>,
}

impl Branches {
    /// Branches with these names, all at 0.
    pub fn new(names: &[&'static str]) -> Self {
        Self {
            counts: names.iter().map(|n| (*n, Cell::new(0))).collect(),
        }
    }

    /// Counts one pass through the branch `name`.
    pub fn hit(&self, name: &str) {
        let (_, c) = self
            .counts
            .iter()
            .find(|(n, _)| *n == name)
            .expect("a known branch");
        c.set(c.get() + 1);
    }

    /// Prints the counts and asserts that each branch was reached in at least `percent` % of
    /// the cases.
    pub fn check(&self, label: &str, percent: u32) {
        let total: u32 = self.counts.iter().map(|(_, c)| c.get()).sum();
        let report: Vec<String> = self
            .counts
            .iter()
            .map(|(n, c)| format!("{n} {}", c.get()))
            .collect();
        eprintln!("{label}: {} of {total} cases", report.join(", "));
        for (name, c) in &self.counts {
            assert!(
                c.get() * 100 >= total * percent,
                "{label}: branch `{name}` reached {} times of {total}, under {percent} %",
                c.get()
            );
        }
    }
}

/// The interpreter on material of `options`: whatever it accepts is a legal move of the state,
/// a refusal leaves the state as it was, and the canonical parsers do not panic. Both branches,
/// interpreted-and-legal and refused, must be reached in at least 5 % of `cases`.
pub fn interpreter<G: Game>(label: &str, material: &Material<G>, cases: u32) {
    let branches = Branches::new(&["interpreted and legal", "refused"]);
    runner(cases)
        .run(&case(), |(state, source)| {
            let state = state.index(material.states.len());
            let game = &material.states[state];
            let text = text(&material.moves, state, &source);
            let _ = text.parse::<G::Move>();
            let _ = text.parse::<Action<G::Move, G::Roll>>();
            match game.interpret(&text) {
                Ok(mv) => {
                    prop_assert!(
                        game.moves().contains(&mv),
                        "{text} gave the illegal {mv} in {}",
                        game.position()
                    );
                    branches.hit("interpreted and legal");
                }
                Err(_) => branches.hit("refused"),
            }
            let mut copy = game.clone();
            if copy.apply_text(&text).is_err() {
                prop_assert_eq!(&copy, game, "a refused {} changed the state", text);
            }
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{label}: {e}"));
    branches.check(&format!("{label} interpreter"), 5);
}

/// The position parser on material of `options`: whatever it reads prints as a position that
/// reads again and prints the same. Both branches, parsed and rejected, must be reached in at
/// least 5 % of `cases`.
pub fn positions<G: Game>(label: &str, options: &[&str], material: &Material<G>, cases: u32) {
    let options = script::options::<G>(options).expect("options");
    let pool: Vec<Vec<String>> = material.positions.iter().map(|p| vec![p.clone()]).collect();
    let branches = Branches::new(&["parsed", "rejected"]);
    runner(cases)
        .run(&case(), |(state, source)| {
            let text = text(&pool, state.index(pool.len()), &source);
            match G::from_position(&options, &text) {
                Ok(game) => {
                    let printed = game.position();
                    let again = G::from_position(&options, &printed);
                    prop_assert!(again.is_ok(), "{text} printed as {printed}, which fails");
                    prop_assert_eq!(again.map(|g| g.position()), Ok(printed));
                    branches.hit("parsed");
                }
                Err(_) => branches.hit("rejected"),
            }
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{label}: {e}"));
    branches.check(&format!("{label} positions"), 5);
}
