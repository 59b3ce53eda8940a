//! Benchmark of animated replays (issue 19): for each game, the first 100 actions of seeded
//! random games (fewer when a game ends sooner), animated as a GIF and as an APNG; time per frame
//! (everything: drawing each position, the palette, the changed rectangles, encoding) and file
//! size. Run with `cargo bench -p tabula-render --bench replay [game ...]`; prints a Markdown
//! table for `docs/benchmarks.md`.

use std::time::Instant;

use tabula_core::{AnyGame, GameId};
use tabula_render::replay::{Format, animate, steps};

#[path = "../tests/suite/common/games.rs"]
mod games;

fn main() {
    let wanted: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    println!(
        "| game | format | frames | size (px) | median ms per frame | max ms per frame | KB |"
    );
    println!("|---|---|---|---|---|---|---|");
    for &id in GameId::ALL {
        if !wanted.is_empty() && !wanted.iter().any(|w| w == id.as_str()) {
            continue;
        }
        // Konane on its largest board, so that a random game lasts 100 moves.
        let options: &[&str] = if id == GameId::Konane {
            &["size=12"]
        } else {
            &[]
        };
        let actions = games::random_actions(id, options, 0x9e37_79b9_7f4a_7c15, 100);
        let refs: Vec<&str> = actions.iter().map(String::as_str).collect();
        let start = AnyGame::start(id, options, None).expect("start");
        let steps = steps(&start, &refs).expect("replays");
        // The share of drawing the positions alone (the same for both formats).
        let started = Instant::now();
        for (state, last) in &steps {
            tabula_render::raster::rasterise(&tabula_render::scene_with_header(
                state,
                last.as_ref(),
                id.name(),
                "Alice against Bob",
            ))
            .expect("drawn");
        }
        let drawing = started.elapsed().as_secs_f64() * 1000.0 / steps.len() as f64;
        for (format, name) in [(Format::Gif, "GIF"), (Format::Apng, "APNG")] {
            // Warm the renderer's caches (static board, sprites, glyphs) once.
            let header = (id.name(), "Alice against Bob");
            animate(&steps[..2.min(steps.len())], format, header, |_, _| {}).expect("warm-up");
            let mut per_frame = Vec::new();
            let mut bytes = 0;
            let mut size = (0, 0);
            for _ in 0..5 {
                let started = Instant::now();
                let replay = animate(&steps, format, header, |_, _| {}).expect("a replay");
                per_frame.push(started.elapsed().as_secs_f64() * 1000.0 / replay.frames as f64);
                bytes = replay.bytes.len();
                size = replay.size;
            }
            per_frame.sort_by(f64::total_cmp);
            // A single board (the start alone), as lichess measures its GIF export.
            let started = Instant::now();
            let single = animate(&steps[..1], format, header, |_, _| {}).expect("one frame");
            let single_ms = started.elapsed().as_secs_f64() * 1000.0;
            println!(
                "| {id} | {name} | {} | {}x{} | {:.2} | {:.2} | {drawing:.2} | {:.1} | {:.1} KB, {single_ms:.1} ms |",
                steps.len(),
                size.0,
                size.1,
                per_frame[per_frame.len() / 2],
                per_frame[per_frame.len() - 1],
                bytes as f64 / 1024.0,
                single.bytes.len() as f64 / 1024.0
            );
        }
    }
}
