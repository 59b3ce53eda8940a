//! Benchmark of the games' web pages' boards (issue 41): time to draw a scene as SVG and the
//! SVG's size, for the same mid-game positions as the `render` benchmark (seeded random
//! playouts, between a quarter and three quarters of the way through, each with its last
//! action highlighted). Run with `cargo bench -p tabula-render --bench svg [game ...]`. Prints a
//! Markdown table for `docs/benchmarks.md`.

use std::time::Instant;

use tabula_core::GameId;

mod common;

use common::positions;

fn main() {
    let wanted: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    println!("| game | median ms | p90 ms | mean KB | max KB |");
    println!("| --- | ---: | ---: | ---: | ---: |");
    for id in GameId::ALL.iter().copied() {
        if !wanted.is_empty() && !wanted.iter().any(|w| w == id.as_str()) {
            continue;
        }
        let sample = positions(id, 60);
        let scenes: Vec<_> = sample
            .iter()
            .map(|(game, last)| tabula_render::scene(game, Some(last)))
            .collect();
        // Warm the caches (the board layer, the glyph outlines), as a running bot has them.
        for scene in &scenes {
            tabula_render::svg(scene).expect("svg");
        }
        let mut times = Vec::new();
        let mut sizes = Vec::new();
        for _ in 0..5 {
            for scene in &scenes {
                let began = Instant::now();
                let svg = tabula_render::svg(scene).expect("svg");
                times.push(began.elapsed().as_secs_f64() * 1000.0);
                sizes.push(svg.len());
            }
        }
        times.sort_by(f64::total_cmp);
        println!(
            "| {} | {:.2} | {:.2} | {:.1} | {:.1} |",
            id.as_str(),
            times[times.len() / 2],
            times[times.len() * 9 / 10],
            sizes.iter().sum::<usize>() as f64 / sizes.len() as f64 / 1024.0,
            *sizes.iter().max().unwrap_or(&0) as f64 / 1024.0
        );
    }
}
