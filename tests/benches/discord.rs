//! Benchmark: time to the first response through Discord's HTTP interactions endpoint. The
//! real `tabula run` (built in release by the harness) receives signed interactions from the
//! fake Discord on 127.0.0.1; `TABULA_BENCH_GAMES` games of Konane (default 32) are played at
//! once, each in its own channel, by slash commands and button presses. For every interaction
//! it measures the time from the fake sending it to the bot's first response (the body of the
//! HTTP answer, or a callback), and reports the median, the 99th percentile and the maximum,
//! for commands and for presses.
//!
//! Run: `cargo bench -p tabula-tests --bench discord`.

use std::sync::Arc;
use std::time::{Duration, Instant};

use tabula_tests::discord_table::{Mode, Table, many_games};

/// Moves in every game after the challenge and its acceptance.
const MOVES_PER_GAME: usize = 12;

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

fn report(what: &str, mut times: Vec<Duration>) {
    times.sort();
    println!(
        "{what:>10}: {:>5} interactions, median {:>7.1} ms, p99 {:>7.1} ms, max {:>7.1} ms",
        times.len(),
        percentile(&times, 50.0).as_secs_f64() * 1e3,
        percentile(&times, 99.0).as_secs_f64() * 1e3,
        times.last().copied().unwrap_or_default().as_secs_f64() * 1e3,
    );
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let games: usize = std::env::var("TABULA_BENCH_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(32);
    let mut table = Table::new("bench-discord", Mode::Http).await;
    table.start().await;
    let table = Arc::new(table);
    let started = Instant::now();
    many_games(&table, games, MOVES_PER_GAME, 1).await;
    let elapsed = started.elapsed();
    let mut table = Arc::try_unwrap(table).expect("the games are over");
    table.stop().await;
    table.assert_clean();
    let interactions = table.fake.interactions();
    let first = |kind: u8| -> Vec<Duration> {
        interactions
            .iter()
            .filter(|i| i.kind == kind)
            .filter_map(|i| i.initial.map(|(_, after, _, _)| after))
            .collect()
    };
    println!(
        "{games} games of Konane at once, {MOVES_PER_GAME} moves each, through the HTTP \
         interactions endpoint, in {:.1} s",
        elapsed.as_secs_f64()
    );
    report("commands", first(2));
    report("presses", first(3));
    let mut all = first(2);
    all.extend(first(3));
    report("all", all);
    // The slowest, to see where the tail comes from: when (from the first interaction), what
    // kind, and how it was answered.
    let origin = interactions.iter().map(|i| i.sent_at).min();
    let mut slow: Vec<_> = interactions
        .iter()
        .filter_map(|i| i.initial.as_ref().map(|initial| (initial.1, i)))
        .collect();
    slow.sort_by_key(|(after, _)| std::cmp::Reverse(*after));
    for (after, i) in slow.iter().take(8) {
        println!(
            "    slow: {:>6.1} ms, type {}, sent at +{:.2} s, answered by type {}",
            after.as_secs_f64() * 1e3,
            i.kind,
            origin.map_or(0.0, |o| i.sent_at.duration_since(o).as_secs_f64()),
            i.initial.as_ref().map_or(0, |initial| initial.0),
        );
    }
    let requests = table.fake.requests();
    let limited = requests.iter().filter(|r| r.status == 429).count();
    println!(
        "{} REST requests, {limited} answered 429 (each tried again after a pause)",
        requests.len()
    );
}
