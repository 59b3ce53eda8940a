//! Random games for the picture tests and the replay benchmark (`#[path]`-included there).

use tabula_core::{AnyGame, GameId};

/// At most `limit` actions of a game played at random (seeded) from the start with `options`:
/// real moves before Pachisi's `skip` and `done`, so that games end within a few thousand
/// actions. Fewer when the game ends first.
pub fn random_actions(id: GameId, options: &[&str], seed: u64, limit: usize) -> Vec<String> {
    let mut x = seed | 1;
    let mut next = |n: usize| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % n as u64) as usize
    };
    let mut game = AnyGame::start(id, options, None).expect("start");
    let mut actions = Vec::new();
    while actions.len() < limit {
        let lines = game.legal_lines();
        if lines.is_empty() {
            break;
        }
        let keen: Vec<&String> = lines
            .iter()
            .filter(|l| !matches!(l.as_str(), "skip" | "done"))
            .collect();
        let choice = if keen.is_empty() {
            &lines[next(lines.len())]
        } else {
            keen[next(keen.len())]
        };
        let action = choice.split(' ').next().unwrap_or_default().to_string();
        game.apply_text(&action).expect("legal");
        actions.push(action);
    }
    actions
}
