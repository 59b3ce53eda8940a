//! Speed of the computer opponent on one core: level-4 decisions per second (over mid-game
//! positions from seeded random games) and default-policy playouts per second (from the start
//! position), per game. Run with `cargo bench -p tabula-ai --bench speed [game ...]`; set
//! `TABULA_BENCH_DECISIONS` to change the number of decisions timed per game (default 20).
//! Prints a Markdown table for `docs/benchmarks.md`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use tabula_ai::rng::Rng;
use tabula_ai::{Knowledge, Level, choose_move, search};
use tabula_core::playout::{Buffers, random_step};
use tabula_core::{GameId, Status, script, with_game_type};

struct Figures {
    decisions_per_sec: f64,
    slowest_decision: Duration,
    playouts_per_sec: f64,
    actions_per_playout: f64,
}

fn measure<G: Knowledge>(options: &[&str], decisions: usize) -> Figures {
    let options = script::options::<G>(options).expect("benchmark options");
    let start = G::new(&options);
    let mut rng = Rng::new(7);
    let mut buffers = Buffers::<G>::default();

    // Decision positions with at least two moves, a few from each of several random games.
    let mut sample = Vec::new();
    while sample.len() < decisions {
        let mut game = start.clone();
        while let Status::Decision(_) | Status::Chance = game.status() {
            if matches!(game.status(), Status::Decision(_))
                && game.moves().len() > 1
                && rng.below(8) == 0
                && sample.len() < decisions
            {
                sample.push(game.clone());
            }
            random_step(&mut game, &mut |n| rng.below(n), &mut buffers);
        }
    }
    let settings = Level::Strongest.settings();
    let mut slowest = Duration::ZERO;
    let began = Instant::now();
    for (i, game) in sample.iter().enumerate() {
        let one = Instant::now();
        black_box(choose_move(game, &settings, i as u64, None).expect("a decision"));
        slowest = slowest.max(one.elapsed());
    }
    let decision_secs = began.elapsed().as_secs_f64();

    let mut moves = Vec::new();
    let mut playouts = 0u64;
    let mut actions = 0u64;
    let began = Instant::now();
    while began.elapsed() < Duration::from_secs(2) {
        for _ in 0..16 {
            let mut game = start.clone();
            let (score, played) = search::playout(&mut game, &mut rng, &mut moves);
            black_box(score);
            actions += played as u64;
            playouts += 1;
        }
    }
    let playout_secs = began.elapsed().as_secs_f64();
    Figures {
        decisions_per_sec: sample.len() as f64 / decision_secs,
        slowest_decision: slowest,
        playouts_per_sec: playouts as f64 / playout_secs,
        actions_per_playout: actions as f64 / playouts as f64,
    }
}

fn main() {
    let decisions: usize = std::env::var("TABULA_BENCH_DECISIONS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20);
    let wanted: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let mut cases: Vec<(GameId, Vec<&str>)> = Vec::new();
    for id in GameId::ALL.iter().copied() {
        if id == GameId::Konane {
            for size in ["size=6", "size=8", "size=10", "size=12"] {
                cases.push((id, vec![size]));
            }
        } else {
            cases.push((id, Vec::new()));
        }
    }
    println!(
        "| game | options | level-4 decisions/s | slowest decision ms | policy playouts/s | actions/playout |"
    );
    println!("| --- | --- | ---: | ---: | ---: | ---: |");
    for (id, options) in cases {
        if !wanted.is_empty() && !wanted.iter().any(|w| w == id.as_str()) {
            continue;
        }
        let f = with_game_type!(id, G => measure::<G>(&options, decisions));
        println!(
            "| {} | {} | {:.2} | {:.0} | {:.0} | {:.1} |",
            id.as_str(),
            if options.is_empty() {
                "default".to_string()
            } else {
                options.join(" ")
            },
            f.decisions_per_sec,
            f.slowest_decision.as_secs_f64() * 1000.0,
            f.playouts_per_sec,
            f.actions_per_playout,
        );
    }
}
