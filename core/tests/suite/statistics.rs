//! Statistics over many seeded simulated games of the two chance games: the dice of Coan Ki and
//! the cowries of Pachisi follow the rules reference, every game ends, and the average game
//! length is reported.
//!
//! The expected numbers are written here from the rules reference, never taken from the engine:
//! - Coan Ki (`shared/rules/coan-ki.md`, rule 5.3 and section 8): a throw `roll:<lo>-<hi>` has
//!   weight 1 for a double and 2 otherwise, of 36; the classes double one, double, consecutive
//!   and other have 1, 5, 10 and 20 ways of 36; the roll-off `roll:<w>v<b>` has 36 outcomes of
//!   weight 1.
//! - Pachisi (`shared/rules/pachisi.md`, rule 5.1): the values 25, 10, 2, 3, 4, 5, 6 have
//!   weights 1, 6, 15, 20, 15, 6, 1 of 64.
//!
//! Two checks at every chance node met in the simulated games:
//! 1. The engine's listed outcomes and weights equal the reference table exactly.
//! 2. A chi-square goodness-of-fit test. The test's own sampler (`SmallRng` with a fixed seed)
//!    draws a number uniformly below the total weight, and the engine's outcome list resolves it
//!    by cumulative weight to the outcome that is applied. The counts of what was applied are
//!    compared with N·p for the reference p. The same sampler run directly over the reference
//!    table must pass the same test, which shows the sampler and the statistic are sound.
//!
//! Critical values: the statistic Σ (O − E)² / E of k categories follows χ² with k − 1 degrees of
//! freedom for a correct engine. We reject above the 0.999 quantile (significance 0.001):
//! 16.27 for 3 degrees of freedom (Coan Ki's four classes), 45.31 for 20 (its 21 throws) and
//! 22.46 for 6 (Pachisi's seven values). The seeds are fixed, so the test is deterministic; 0.001
//! is the chance that a correct engine would have failed with a seed picked at random. Every
//! expected count is far above 5, so the χ² approximation holds. Power: each test also computes
//! the statistic a single way of 36 or 64 moved from one outcome to another would produce on
//! average, N·Σ (Δp)² / p, and asserts it is at least ten times the critical value.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tabula_core::coan_ki::CoanKi;
use tabula_core::pachisi::Pachisi;
use tabula_core::playout::{Buffers, random_step};
use tabula_core::{Game, Status};

/// χ² quantiles at 0.999 for 3, 6 and 20 degrees of freedom (standard tables).
const CHI2_999_DF3: f64 = 16.266;
const CHI2_999_DF6: f64 = 22.458;
const CHI2_999_DF20: f64 = 45.315;

/// Picks the outcome whose cumulative weight range holds `r` (`r` below the total weight).
fn resolve<T>(table: &[(T, u32)], mut r: u32) -> &T {
    for (outcome, weight) in table {
        if r < *weight {
            return outcome;
        }
        r -= weight;
    }
    panic!("{r} beyond the total weight")
}

/// Plays `games` seeded random games. At each chance node `check` is called with the listed
/// outcomes (as text with weights) and must return the expected total; the test's sampler then
/// draws below that total, the engine's list resolves it, and `seen` gets the outcome applied.
/// Returns the number of actions of each game. Panics if a game does not end within `limit`.
fn simulate<G: Game>(
    games: u64,
    limit: usize,
    mut check: impl FnMut(&[(String, u32)]) -> u32,
    mut seen: impl FnMut(&str),
) -> Vec<usize> {
    let mut sampler = SmallRng::seed_from_u64(0x7ab0_1a00);
    let mut lengths = Vec::new();
    for seed in 0..games {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut game = G::new(&G::Options::default());
        let mut buffers = Buffers::<G>::default();
        let mut actions = 0;
        loop {
            if game.status() == Status::Chance {
                let outcomes = game.outcomes();
                let listed: Vec<(String, u32)> =
                    outcomes.iter().map(|(r, w)| (r.to_string(), *w)).collect();
                let total = check(&listed);
                let roll = resolve(&outcomes, sampler.random_range(0..total));
                seen(&roll.to_string());
                game.roll(roll).expect("a listed outcome applies");
            } else if !random_step(&mut game, &mut |n| rng.random_range(0..n), &mut buffers) {
                break;
            }
            actions += 1;
            assert!(
                actions <= limit,
                "seed {seed}: no end after {limit} actions"
            );
        }
        lengths.push(actions);
    }
    lengths
}

/// The χ² statistic of `counts` against the probabilities `weights / total`.
fn chi_square(counts: &[u64], weights: &[u32]) -> f64 {
    let n: u64 = counts.iter().sum();
    let total: u32 = weights.iter().sum();
    counts
        .iter()
        .zip(weights)
        .map(|(&o, &w)| {
            let e = n as f64 * f64::from(w) / f64::from(total);
            (o as f64 - e).powi(2) / e
        })
        .sum()
}

/// The least mean χ² of `n` draws if one unit of weight moved from one category to another.
fn power(n: u64, weights: &[u32]) -> f64 {
    let total = f64::from(weights.iter().sum::<u32>());
    let mut least = f64::INFINITY;
    for from in 0..weights.len() {
        for to in 0..weights.len() {
            if from == to || weights[from] == 0 {
                continue;
            }
            let d = 1.0 / total;
            let p = |i: usize| f64::from(weights[i]) / total;
            let stat = n as f64 * (d * d / p(from) + d * d / p(to));
            least = least.min(stat);
        }
    }
    least
}

/// Checks `counts` against the reference `weights` at `critical`, checks that the test's own
/// sampler over the reference table passes at the same level, and that the test has power.
fn goodness_of_fit(label: &str, names: &[&str], counts: &[u64], weights: &[u32], critical: f64) {
    let n: u64 = counts.iter().sum();
    let stat = chi_square(counts, weights);
    let total: u32 = weights.iter().sum();
    for ((name, count), w) in names.iter().zip(counts).zip(weights) {
        eprintln!(
            "{label} {name}: {count} of {n} (expected {:.0})",
            n as f64 * f64::from(*w) / f64::from(total)
        );
    }
    eprintln!("{label}: chi-square {stat:.2}, critical value {critical} (p = 0.001)");
    assert!(
        stat <= critical,
        "{label}: chi-square {stat:.2} above {critical}: the outcomes do not follow the rules"
    );
    // The same sampler over the reference table itself.
    let table: Vec<(usize, u32)> = weights.iter().copied().enumerate().collect();
    let mut sampler = SmallRng::seed_from_u64(0x7ab0_1a00);
    let mut reference = vec![0u64; weights.len()];
    for _ in 0..n {
        reference[*resolve(&table, sampler.random_range(0..total))] += 1;
    }
    let control = chi_square(&reference, weights);
    assert!(
        control <= critical,
        "{label}: the sampler fails: {control:.2}"
    );
    let power = power(n, weights);
    assert!(
        power >= 10.0 * critical,
        "{label}: {n} draws are too few to detect one unit of weight moved ({power:.1})"
    );
}

/// Coan Ki, rule 5.3 and section 8: the weight of the throw `lo-hi`, of 36.
fn coan_ki_throw_weight(lo: u8, hi: u8) -> u32 {
    if lo == hi { 1 } else { 2 }
}

/// Coan Ki, rule 5.3: the class of a throw (double one, double, consecutive, other).
fn coan_ki_class(lo: u8, hi: u8) -> usize {
    match (lo, hi) {
        (1, 1) => 0,
        _ if lo == hi => 1,
        _ if hi == lo + 1 => 2,
        _ => 3,
    }
}

#[test]
fn coan_ki_dice_follow_the_rules_reference() {
    // The reference tables, written from the rules (not from the engine).
    let mut throws: Vec<(String, u32)> = Vec::new();
    for lo in 1..=6u8 {
        for hi in lo..=6 {
            throws.push((format!("{lo}-{hi}"), coan_ki_throw_weight(lo, hi)));
        }
    }
    let roll_offs: Vec<(String, u32)> = (1..=6)
        .flat_map(|w| (1..=6).map(move |b| (format!("{w}v{b}"), 1)))
        .collect();
    // Rule 5.3's classes: 1, 5, 10 and 20 ways of 36.
    let class_ways = [1u32, 5, 10, 20];
    let mut from_table = [0u32; 4];
    for lo in 1..=6u8 {
        for hi in lo..=6 {
            from_table[coan_ki_class(lo, hi)] += coan_ki_throw_weight(lo, hi);
        }
    }
    assert_eq!(from_table, class_ways, "the two tables of the rules agree");

    let mut classes = [0u64; 4];
    let mut each = vec![0u64; throws.len()];
    let (mut roll_off_nodes, mut throw_nodes) = (0u64, 0u64);
    let lengths = simulate::<CoanKi>(
        2_000,
        20_000,
        |listed| {
            if listed[0].0.contains('v') {
                assert_eq!(listed, roll_offs, "roll-off outcomes and weights");
                roll_off_nodes += 1;
            } else {
                assert_eq!(listed, throws, "throw outcomes and weights");
                throw_nodes += 1;
            }
            36
        },
        |roll| {
            let Some((lo, hi)) = roll.split_once('-') else {
                return; // a roll-off (`4v6`)
            };
            let (lo, hi): (u8, u8) = (lo.parse().expect("die"), hi.parse().expect("die"));
            classes[coan_ki_class(lo, hi)] += 1;
            let i = throws
                .iter()
                .position(|(t, _)| *t == roll)
                .expect("a listed throw");
            each[i] += 1;
        },
    );
    eprintln!("coan-ki: {roll_off_nodes} roll-off nodes and {throw_nodes} throw nodes checked");
    assert!(roll_off_nodes >= 2_000 && throw_nodes > 100_000);
    goodness_of_fit(
        "coan-ki classes",
        &["double one", "double", "consecutive", "other"],
        &classes,
        &class_ways,
        CHI2_999_DF3,
    );
    let names: Vec<&str> = throws.iter().map(|(t, _)| t.as_str()).collect();
    let weights: Vec<u32> = throws.iter().map(|(_, w)| *w).collect();
    goodness_of_fit("coan-ki throws", &names, &each, &weights, CHI2_999_DF20);
    report("coan-ki", &lengths);
}

#[test]
fn pachisi_cowries_follow_the_rules_reference() {
    // Rule 5.1: mouths up 0..6 give 25, 10, 2, 3, 4, 5, 6 with weights 1, 6, 15, 20, 15, 6, 1
    // of 64 (six fair cowries: the binomial coefficients of 6).
    let reference: Vec<(String, u32)> = [
        ("25", 1),
        ("10", 6),
        ("2", 15),
        ("3", 20),
        ("4", 15),
        ("5", 6),
        ("6", 1),
    ]
    .iter()
    .map(|(v, w)| ((*v).to_string(), *w))
    .collect();
    let binomial: Vec<u32> = (0..=6u32)
        .map(|k| (1..=k).fold(1, |c, i| c * (7 - i) / i))
        .collect();
    let weights: Vec<u32> = reference.iter().map(|(_, w)| *w).collect();
    assert_eq!(
        weights, binomial,
        "rule 5.1's weights are the fair cowries'"
    );

    let mut counts = vec![0u64; reference.len()];
    let mut nodes = 0u64;
    let mut sorted_reference = reference.clone();
    sorted_reference.sort();
    let lengths = simulate::<Pachisi>(
        200,
        400_000,
        |listed| {
            let mut listed = listed.to_vec();
            listed.sort();
            assert_eq!(listed, sorted_reference, "cowrie outcomes and weights");
            nodes += 1;
            64
        },
        |roll| {
            let i = reference
                .iter()
                .position(|(v, _)| *v == roll)
                .expect("a cowrie value");
            counts[i] += 1;
        },
    );
    eprintln!("pachisi: {nodes} throw nodes checked");
    assert!(nodes > 50_000, "only {nodes} throws");
    let names: Vec<&str> = reference.iter().map(|(v, _)| v.as_str()).collect();
    goodness_of_fit("pachisi cowries", &names, &counts, &weights, CHI2_999_DF6);
    report("pachisi", &lengths);
}

fn report(game: &str, lengths: &[usize]) {
    let mean = lengths.iter().sum::<usize>() as f64 / lengths.len() as f64;
    let max = lengths.iter().max().copied().unwrap_or(0);
    eprintln!(
        "{game}: {} random games all ended; mean length {mean:.1} actions, longest {max}",
        lengths.len()
    );
}
