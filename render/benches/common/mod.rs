//! What the picture benchmarks share: typical mid-game positions of every game.

use tabula_core::{AnyApplied, AnyGame, GameId};

/// Mid-game positions of a game, each with the action that led to it.
pub fn positions(id: GameId, count: usize) -> Vec<(AnyGame, AnyApplied)> {
    let mut out = Vec::new();
    let mut x = 0x2545_f491_4f6c_dd1du64;
    let mut next = |n: usize| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % n as u64) as usize
    };
    while out.len() < count {
        let mut game = AnyGame::start(id, &[], None).expect("start");
        let mut history = Vec::new();
        loop {
            let lines = game.legal_lines();
            if lines.is_empty() {
                break;
            }
            // Pachisi: prefer real moves over skip/done so positions look like real games.
            let choice = lines
                .iter()
                .filter(|l| !matches!(l.as_str(), "skip" | "done"))
                .nth(next(lines.len()))
                .unwrap_or(&lines[0]);
            let action = choice.split(' ').next().unwrap_or_default().to_string();
            let applied = game.apply_text(&action).expect("legal");
            history.push((game.clone(), applied));
        }
        let n = history.len();
        if n >= 4 {
            let i = n / 4 + next(n / 2);
            out.push(history.swap_remove(i));
        }
    }
    out
}
