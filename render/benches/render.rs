//! Benchmark of board pictures: render-plus-encode time and PNG size per picture, for typical
//! mid-game positions of every game (positions sampled from seeded random playouts between a
//! quarter and three quarters of the way through, each with its last action highlighted).
//! Run with `cargo bench -p tabula-render --bench render [game ...]`. Prints a Markdown table
//! for `docs/benchmarks.md`.

use std::time::Instant;

use tabula_core::GameId;

mod common;

use common::positions;

fn main() {
    let wanted: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    println!("| game | size (px) | median ms | p90 ms | mean KB | max KB |");
    println!("| --- | --- | ---: | ---: | ---: | ---: |");
    for id in GameId::ALL.iter().copied() {
        if !wanted.is_empty() && !wanted.iter().any(|w| w == id.as_str()) {
            continue;
        }
        let sample = positions(id, 60);
        // Warm the board and sprite caches, as a running bot would have them.
        for (game, last) in &sample {
            tabula_render::render(game, Some(last)).expect("render");
        }
        let mut times = Vec::new();
        let mut sizes = Vec::new();
        for _ in 0..5 {
            for (game, last) in &sample {
                let began = Instant::now();
                let png = tabula_render::render(game, Some(last)).expect("render");
                times.push(began.elapsed().as_secs_f64() * 1000.0);
                sizes.push(png.len());
            }
        }
        times.sort_by(f64::total_cmp);
        let scene = tabula_render::scene(&sample[0].0, Some(&sample[0].1));
        println!(
            "| {} | {}×{} | {:.2} | {:.2} | {:.1} | {:.1} |",
            id.as_str(),
            scene.width,
            scene.height,
            times[times.len() / 2],
            times[times.len() * 9 / 10],
            sizes.iter().sum::<usize>() as f64 / sizes.len() as f64 / 1024.0,
            *sizes.iter().max().unwrap_or(&0) as f64 / 1024.0
        );
    }
}
