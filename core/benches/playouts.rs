//! Benchmark of the rules engine: complete random playouts per second from the start position,
//! and legal-move generations per second over positions sampled from playouts, for every game,
//! on one thread. Run with `cargo bench -p tabula-core --bench playouts`; set
//! `TABULA_BENCH_SECS` to change the time per measurement (default 3) and pass game ids as
//! arguments to measure only those. Prints a Markdown table for `docs/benchmarks.md`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use tabula_core::playout::{Buffers, random_playout, random_step};
use tabula_core::{Game, GameId, Status, script, with_game_type};

/// xorshift64*: fast enough not to count in the figures.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u32) -> u32 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let x = self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 32;
        ((x * u64::from(n)) >> 32) as u32
    }
}

struct Figures {
    playouts_per_sec: f64,
    actions_per_playout: f64,
    movegen_per_sec: f64,
    moves_per_position: f64,
}

fn measure<G: Game>(options: &[&str], secs: f64) -> Figures {
    let options = script::options::<G>(options).expect("benchmark options");
    let start = G::new(&options);
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut buffers = Buffers::<G>::default();
    let budget = Duration::from_secs_f64(secs);

    // Warm up, and sample decision positions for the move-generation measurement.
    let mut sample = Vec::new();
    for _ in 0..200 {
        let mut game = start.clone();
        while let Status::Decision(_) | Status::Chance = game.status() {
            if matches!(game.status(), Status::Decision(_)) && rng.below(4) == 0 {
                sample.push(game.clone());
            }
            random_step(&mut game, &mut |n| rng.below(n), &mut buffers);
        }
    }

    let mut playouts = 0u64;
    let mut actions = 0u64;
    let began = Instant::now();
    while began.elapsed() < budget {
        for _ in 0..64 {
            let mut game = start.clone();
            actions +=
                random_playout(&mut game, &mut |n| rng.below(n), &mut buffers, usize::MAX) as u64;
            black_box(&game);
            playouts += 1;
        }
    }
    let playout_secs = began.elapsed().as_secs_f64();

    let mut generations = 0u64;
    let mut generated = 0u64;
    let began = Instant::now();
    while began.elapsed() < budget {
        for game in &sample {
            buffers.moves.clear();
            game.legal_moves(&mut buffers.moves);
            generated += buffers.moves.len() as u64;
            generations += 1;
        }
        black_box(&buffers.moves);
    }
    let movegen_secs = began.elapsed().as_secs_f64();

    Figures {
        playouts_per_sec: playouts as f64 / playout_secs,
        actions_per_playout: actions as f64 / playouts as f64,
        movegen_per_sec: generations as f64 / movegen_secs,
        moves_per_position: generated as f64 / generations.max(1) as f64,
    }
}

fn main() {
    let secs: f64 = std::env::var("TABULA_BENCH_SECS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3.0);
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
        "| game | options | playouts/s | actions/playout | move generations/s | moves/position |"
    );
    println!("| --- | --- | ---: | ---: | ---: | ---: |");
    for (id, options) in cases {
        if !wanted.is_empty() && !wanted.iter().any(|w| w == id.as_str()) {
            continue;
        }
        let f = with_game_type!(id, G => measure::<G>(&options, secs));
        println!(
            "| {} | {} | {:.0} | {:.1} | {:.0} | {:.1} |",
            id.as_str(),
            if options.is_empty() {
                "default".to_string()
            } else {
                options.join(" ")
            },
            f.playouts_per_sec,
            f.actions_per_playout,
            f.movegen_per_sec,
            f.moves_per_position
        );
    }
}
