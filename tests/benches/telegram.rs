//! Benchmark: moves through the Telegram adapter. The real `tabula run` (the release build:
//! `cargo build --release -p tabula-bot` first) long-polls the fake Bot API on 127.0.0.1;
//! `TABULA_BENCH_GAMES` games of Konane (default 32) are played at once, each in its own
//! group, by pressing the board's buttons. For every move it measures the time from the press
//! to the new board being sent, and the moves per second over all games.
//!
//! Run: `cargo bench -p tabula-tests --bench telegram`. Telegram's message limits are raised
//! (the fake's and the bot's), so that the adapter and the service are measured, not the
//! limits; teloxide's `Throttle` still releases queued messages on its 250 ms tick.

use std::time::{Duration, Instant};

use tabula_tests::telegram_table::{Lcg, Table, callbacks, is_photo};

const MOVES_PER_GAME: usize = 12;

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let games: usize = std::env::var("TABULA_BENCH_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(32);
    let mut table = Table::new("bench").await;
    table.start().await;
    let table = std::sync::Arc::new(table);
    let mut boards = Vec::new();
    for i in 0..games {
        let fake = &table.fake;
        let group = fake.group(&format!("Bench {i}"));
        let alice = fake
            .user(&format!("Alice{i}"))
            .username(&format!("alice_{i}"));
        let bob = fake.user(&format!("Bob{i}")).username(&format!("bob_{i}"));
        fake.user_writes(&group, &alice, &format!("/play konane @bob_{i}"));
        let offer = table
            .wait_new(&group, 0, "challenge", |m| {
                callbacks(m).iter().any(|(_, d)| d.starts_with('a'))
            })
            .await;
        let accept = callbacks(&offer)
            .into_iter()
            .find(|(_, d)| d.starts_with('a'))
            .map(|(_, d)| d)
            .unwrap_or_default();
        fake.press(&group, &bob, offer.message_id, &accept)
            .expect("accept");
        let board = table
            .wait_new(&group, offer.message_id, "board", is_photo)
            .await;
        boards.push((
            group,
            vec![(alice, format!("alice_{i}")), (bob, format!("bob_{i}"))],
            board,
        ));
    }
    let started = Instant::now();
    let mut tasks = tokio::task::JoinSet::new();
    for (i, (group, players, mut board)) in boards.into_iter().enumerate() {
        let table = std::sync::Arc::clone(&table);
        tasks.spawn(async move {
            let mut lcg = Lcg(i as u64 + 1);
            let mut times = Vec::new();
            for _ in 0..MOVES_PER_GAME {
                let Some((actor, _)) = players
                    .iter()
                    .find(|(_, name)| board.text().contains(&format!("@{name}")))
                else {
                    break;
                };
                let moves: Vec<_> = callbacks(&board)
                    .into_iter()
                    .filter(|(_, d)| d.starts_with('m'))
                    .collect();
                if moves.is_empty() {
                    break;
                }
                let (_, data) = moves[lcg.below(moves.len())].clone();
                let pressed = Instant::now();
                let last = board.message_id;
                table
                    .fake
                    .press(&group, actor, board.message_id, &data)
                    .expect("press");
                board = table.wait_new(&group, last, "board", is_photo).await;
                times.push(pressed.elapsed());
            }
            times
        });
    }
    let mut times = Vec::new();
    while let Some(done) = tasks.join_next().await {
        times.extend(done.unwrap_or_default());
    }
    let elapsed = started.elapsed();
    times.sort();
    let at = |q: f64| {
        let index = ((times.len() as f64 - 1.0) * q).round() as usize;
        times.get(index).copied().unwrap_or(Duration::ZERO)
    };
    println!(
        "telegram: {games} games at once, {} moves in {:.1} s: {:.1} moves/s; press to board: \
         median {:.0} ms, p99 {:.0} ms, max {:.0} ms",
        times.len(),
        elapsed.as_secs_f64(),
        times.len() as f64 / elapsed.as_secs_f64(),
        at(0.5).as_secs_f64() * 1000.0,
        at(0.99).as_secs_f64() * 1000.0,
        at(1.0).as_secs_f64() * 1000.0,
    );
    if let Ok(mut table) = std::sync::Arc::try_unwrap(table) {
        table.stop().await;
    }
}
