//! Statistics over many seeded simulated games of the two chance games: the distribution of
//! Coan Ki throw classes and of Pachisi cowrie values matches the exact probabilities, every game
//! ends, and the average game length is reported.
//!
//! Tolerance: a category of probability p seen in N independent throws has a count with mean
//! N·p and standard deviation σ = √(N·p·(1−p)). Each count must lie within 5σ of its mean: for a
//! correct engine a 5σ deviation has probability below 6·10⁻⁷ per category (normal
//! approximation; N·p ≥ 1000 here, so it holds well). A wrong weight of even one part in 36 or
//! 64 moves a count by far more than 5σ at these sample sizes (checked in each test).

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tabula_core::coan_ki::CoanKi;
use tabula_core::pachisi::Pachisi;
use tabula_core::playout::{Buffers, random_step};
use tabula_core::{Game, Status};

/// Plays `games` seeded random games, calling `seen` with the text of every roll; returns the
/// number of actions of each game. Panics if a game does not end within `limit` actions.
fn simulate<G: Game>(games: u64, limit: usize, mut seen: impl FnMut(&G, &str)) -> Vec<usize> {
    let mut lengths = Vec::new();
    for seed in 0..games {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut game = G::new(&G::Options::default());
        let mut buffers = Buffers::<G>::default();
        let mut actions = 0;
        loop {
            if game.status() == Status::Chance {
                // Draw by weight here, so the test knows exactly which outcome was drawn.
                let outcomes = game.outcomes();
                let total: u32 = outcomes.iter().map(|(_, w)| w).sum();
                let mut r = rng.random_range(0..total);
                let (roll, _) = outcomes
                    .iter()
                    .find(|(_, w)| {
                        let hit = r < *w;
                        r = r.saturating_sub(*w);
                        hit
                    })
                    .expect("an outcome");
                seen(&game, &roll.to_string());
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

/// Asserts that `count` of `n` lies within 5σ of `n·p`; returns the deviation in σ.
fn within_five_sigma(label: &str, count: u64, n: u64, p: f64) -> f64 {
    let mean = n as f64 * p;
    let sigma = (n as f64 * p * (1.0 - p)).sqrt();
    let z = (count as f64 - mean) / sigma;
    assert!(
        z.abs() <= 5.0,
        "{label}: {count} of {n}, expected {mean:.0} ± {:.0} (5σ), z = {z:.2}",
        5.0 * sigma
    );
    z
}

#[test]
fn coan_ki_throw_classes_match_their_probabilities() {
    // double one 1/36, doubles 5/36, consecutive 10/36, other 20/36 (rule 3).
    let mut classes = [0u64; 4];
    let lengths = simulate::<CoanKi>(2_000, 20_000, |_, roll| {
        let Some((lo, hi)) = roll.split_once('-') else {
            return; // the roll-off (`4v6`) is not a throw of this kind
        };
        let (lo, hi): (u8, u8) = (lo.parse().expect("die"), hi.parse().expect("die"));
        let class = match (lo, hi) {
            (1, 1) => 0,
            _ if lo == hi => 1,
            _ if hi == lo + 1 => 2,
            _ => 3,
        };
        classes[class] += 1;
    });
    let n: u64 = classes.iter().sum();
    assert!(n > 100_000, "only {n} throws");
    for (label, count, ways) in [
        ("double one", classes[0], 1.0),
        ("double", classes[1], 5.0),
        ("consecutive", classes[2], 10.0),
        ("other", classes[3], 20.0),
    ] {
        let z = within_five_sigma(label, count, n, ways / 36.0);
        eprintln!("coan-ki {label}: {count} of {n} (z = {z:+.2})");
    }
    // Power: one way in 36 more or less for doubles would be 1/36·n ≈ n/36 away, many σ.
    let sigma = (n as f64 * 5.0 / 36.0 * 31.0 / 36.0).sqrt();
    assert!(
        n as f64 / 36.0 > 10.0 * sigma,
        "sample too small to detect a one-way error"
    );
    report("coan-ki", &lengths);
}

#[test]
fn pachisi_cowrie_values_match_their_probabilities() {
    // 25, 10, 2, 3, 4, 5, 6 with weights 1, 6, 15, 20, 15, 6, 1 of 64 (rule 1).
    let values = ["25", "10", "2", "3", "4", "5", "6"];
    let weights = [1.0, 6.0, 15.0, 20.0, 15.0, 6.0, 1.0];
    let mut counts = [0u64; 7];
    let lengths = simulate::<Pachisi>(200, 400_000, |_, roll| {
        let i = values
            .iter()
            .position(|v| *v == roll)
            .expect("a cowrie value");
        counts[i] += 1;
    });
    let n: u64 = counts.iter().sum();
    assert!(n > 50_000, "only {n} throws");
    for i in 0..7 {
        let z = within_five_sigma(values[i], counts[i], n, weights[i] / 64.0);
        eprintln!("pachisi {}: {} of {n} (z = {z:+.2})", values[i], counts[i]);
    }
    // Power: moving one way in 64 from 25 to 10 shifts the 25 count by n/64, many σ.
    let sigma = (n as f64 / 64.0 * 63.0 / 64.0).sqrt();
    assert!(
        n as f64 / 64.0 > 10.0 * sigma,
        "sample too small to detect a one-way error"
    );
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
