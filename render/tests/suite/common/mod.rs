//! Helpers for picture tests: scene snapshots (text, reviewed by eye once) and PNG goldens
//! compared with a tolerance. Regenerate both on purpose with
//! `TABULA_BLESS=1 cargo test -p tabula-render`.
#![allow(dead_code)]

pub mod games;

use std::path::PathBuf;

use tabula_core::{AnyApplied, AnyGame, GameId};

fn bless() -> bool {
    std::env::var_os("TABULA_BLESS").is_some()
}

fn dir(sub: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join(sub)
}

/// A game set up from options, a position and moves, with the last move applied.
pub fn position(
    game: &str,
    options: &[&str],
    position: Option<&str>,
    moves: &str,
) -> (AnyGame, Option<AnyApplied>) {
    let id: GameId = game.parse().expect("game");
    let mut g = AnyGame::start(id, options, position).expect("start");
    let last = g.apply_actions(moves).expect("moves");
    (g, last)
}

/// Compares the scene of a position with `tests/snapshots/<name>.txt`.
pub fn snapshot(name: &str, game: &str, options: &[&str], at: Option<&str>, moves: &str) {
    let (g, last) = position(game, options, at, moves);
    let text = tabula_render::scene(&g, last.as_ref()).to_string();
    let path = dir("snapshots").join(format!("{name}.txt"));
    if bless() {
        std::fs::write(&path, &text).expect("write snapshot");
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|_| panic!("{name}: no snapshot at {}", path.display()));
    if expected != text {
        let line = expected
            .lines()
            .zip(text.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(0);
        panic!(
            "{name}: scene differs from {} at line {}:\n  expected {}\n  got      {}",
            path.display(),
            line + 1,
            expected.lines().nth(line).unwrap_or(""),
            text.lines().nth(line).unwrap_or("")
        );
    }
}

/// Compares the PNG of a position with `tests/goldens/<name>.png`, pixel by pixel with a
/// tolerance.
pub fn golden(name: &str, game: &str, options: &[&str], at: Option<&str>, moves: &str) {
    let (g, last) = position(game, options, at, moves);
    let png = tabula_render::render(&g, last.as_ref()).expect("render");
    let path = dir("goldens").join(format!("{name}.png"));
    if bless() {
        std::fs::write(&path, &png).expect("write golden");
        return;
    }
    let expected = image::load_from_memory(&std::fs::read(&path).expect("golden"))
        .expect("decode golden")
        .to_rgb8();
    let got = image::load_from_memory(&png).expect("decode").to_rgb8();
    assert_eq!(got.dimensions(), expected.dimensions(), "{name}: size");
    // Tolerance: rasteriser and compressor updates may move anti-aliased edges by a level or
    // two; a changed piece or label moves hundreds of pixels by far more.
    let differing = got
        .pixels()
        .zip(expected.pixels())
        .filter(|(a, b)| a.0.iter().zip(b.0).any(|(x, y)| x.abs_diff(y) > 24))
        .count();
    let total = (got.width() * got.height()) as usize;
    assert!(
        differing * 1000 < total,
        "{name}: {differing} of {total} pixels differ from {}",
        path.display()
    );
}
