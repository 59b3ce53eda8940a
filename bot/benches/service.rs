//! Moves handled end to end by the game service (load, replay, apply, store, render) on SQLite
//! (a temporary file) and PostgreSQL (`TABULA_TEST_POSTGRES_URL`, default
//! `postgres://postgres@127.0.0.1:5432/test`, in a fresh schema; skipped with a printed line
//! when unreachable).
//!
//! `cargo bench -p tabula-bot --bench service`. `TABULA_BENCH_SECS` (default 10) is the length
//! of the parallel run, `TABULA_BENCH_GAMES` (default 32) the number of games played at once,
//! `TABULA_BENCH_PICTURES=0` leaves out the board pictures (to see what rendering costs).
//!
//! Parallel run: every game has its own chat and two players; one task per game plays as the
//! seat to act, typing `/move #<game> <move>` with a legal move chosen at random. Only the
//! `/move` requests are timed. To know who acts and what is legal, the task reads the game back
//! from the store before each move (not timed, but it is load on the same database, so the
//! throughput is a conservative figure). A finished game is replaced by a new one of its kind.
//!
//! Long history: one Pachisi game played on and on; at several history lengths, the latency of
//! a `/move`, and separately the time to load the whole action log and to replay it.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use tabula_bot::service::{Dice, Input, Request, Service};
use tabula_bot::store::{DatabaseUrl, GameNo, GameStatus, History, Platform, Store};
use tabula_core::{GameId, Status};

const POSTGRES_URL_VAR: &str = "TABULA_TEST_POSTGRES_URL";
const DEFAULT_POSTGRES_URL: &str = "postgres://postgres@127.0.0.1:5432/test";
const GAMES: [GameId; 5] = [
    GameId::Konane,
    GameId::Koan,
    GameId::Kolowis,
    GameId::CoanKi,
    GameId::Pachisi,
];
/// History lengths (stored actions) at which the long Pachisi game is measured.
const CHECKPOINTS: [u32; 5] = [10, 100, 250, 500, 1000];
/// Moves timed at each checkpoint.
const SAMPLES: usize = 15;

type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// A small deterministic generator for the choice of moves.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }

    fn below(&mut self, bound: usize) -> usize {
        usize::try_from(self.next()).unwrap_or(0) % bound.max(1)
    }
}

static NEXT_KEY: AtomicU64 = AtomicU64::new(1);

fn request(chat: &str, user: &str, text: &str) -> Request {
    Request {
        platform: Platform::Local,
        chat: (chat.into(), format!("Bench {chat}")),
        user: (user.into(), user.to_uppercase()),
        request_key: format!("b{}", NEXT_KEY.fetch_add(1, Ordering::Relaxed)),
        input: Input::Command(text.into()),
    }
}

/// Sends a command; internal failures abort the benchmark.
async fn send(service: &Service, chat: &str, user: &str, text: &str) -> Result<String, BoxError> {
    let reply = service.handle(&request(chat, user, text)).await?;
    Ok(reply.plain_text())
}

/// Starts a game of `id` in `chat` between two players and returns its number.
async fn start(service: &Service, chat: &str, id: GameId) -> Result<GameNo, BoxError> {
    let (alice, bob) = (format!("{chat}a"), format!("{chat}b"));
    send(service, chat, &alice, &format!("/play {id} @{bob}")).await?;
    let body = send(service, chat, &bob, "/accept").await?;
    if !body.contains("begins") {
        return Err(format!("{id} did not start in {chat}: {body}").into());
    }
    let chat_id = service
        .store()
        .upsert_chat(Platform::Local, chat, &format!("Bench {chat}"))
        .await?
        .id;
    let games = service.store().active_games_in_chat(chat_id).await?;
    games
        .iter()
        .map(|game| game.id)
        .max()
        .ok_or_else(|| format!("no game started in {chat}").into())
}

/// What the driver needs before a move: who acts and a legal move, or `None` when the game is
/// over. Also the stored history length.
struct Turn {
    actor: String,
    lines: Vec<String>,
    seq: u32,
}

async fn turn(store: &Store, game: GameNo) -> Result<Option<Turn>, BoxError> {
    let loaded = store
        .load_game(game, History::Full)
        .await?
        .ok_or_else(|| format!("game {game} vanished"))?;
    if loaded.record.status != GameStatus::Active {
        return Ok(None);
    }
    let state = loaded.replay()?;
    let Status::Decision(seat) = state.status() else {
        return Err(format!("active game {game} with nobody to move").into());
    };
    let actor = loaded
        .record
        .seats
        .iter()
        .find(|holder| holder.seat == seat.0)
        .map(|holder| holder.user.platform_user_id.clone())
        .ok_or_else(|| format!("game {game}: no holder of seat {}", seat.0))?;
    Ok(Some(Turn {
        actor,
        lines: state.legal_lines(),
        seq: loaded.record.seq,
    }))
}

/// Sends one `/move` and returns its latency.
async fn timed_move(
    service: &Service,
    chat: &str,
    game: GameNo,
    turn: &Turn,
    lcg: &mut Lcg,
) -> Result<Duration, BoxError> {
    let line = &turn.lines[lcg.below(turn.lines.len())];
    let started = Instant::now();
    let body = send(service, chat, &turn.actor, &format!("/move #{game} {line}")).await?;
    let elapsed = started.elapsed();
    if !body.contains(" played ") || body.starts_with("Sorry") {
        return Err(format!("move {line} in game {game} refused: {body}").into());
    }
    Ok(elapsed)
}

/// Latencies of one game kind in the parallel run.
#[derive(Default)]
struct Samples {
    latencies: Vec<Duration>,
    finished: usize,
}

/// One task: plays games of `id` in its own chat until `deadline`.
async fn player(
    service: Arc<Service>,
    index: usize,
    id: GameId,
    deadline: Instant,
) -> Result<Samples, BoxError> {
    let chat = format!("c{index}");
    let mut lcg = Lcg(0x5eed + index as u64);
    let mut samples = Samples::default();
    let mut game = start(&service, &chat, id).await?;
    while Instant::now() < deadline {
        let Some(turn) = turn(service.store(), game).await? else {
            samples.finished += 1;
            game = start(&service, &chat, id).await?;
            continue;
        };
        samples
            .latencies
            .push(timed_move(&service, &chat, game, &turn, &mut lcg).await?);
    }
    Ok(samples)
}

fn quantile(sorted: &[Duration], q: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    #[allow(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        clippy::cast_precision_loss
    )]
    let index = ((sorted.len() - 1) as f64 * q).round() as usize;
    sorted[index].as_secs_f64() * 1000.0
}

/// Runs `games` games at once for `secs` and prints one table row per game kind and a total.
async fn parallel(
    backend: &str,
    service: &Arc<Service>,
    games: usize,
    secs: f64,
) -> Result<(), BoxError> {
    let deadline = Instant::now() + Duration::from_secs_f64(secs);
    let started = Instant::now();
    let mut tasks = Vec::new();
    for index in 0..games {
        let id = GAMES[index % GAMES.len()];
        tasks.push((
            id,
            tokio::spawn(player(Arc::clone(service), index, id, deadline)),
        ));
    }
    let mut per_game: Vec<(GameId, Samples)> =
        GAMES.iter().map(|id| (*id, Samples::default())).collect();
    for (id, task) in tasks {
        let samples = task.await??;
        if let Some((_, total)) = per_game.iter_mut().find(|(kind, _)| *kind == id) {
            total.latencies.extend(samples.latencies);
            total.finished += samples.finished;
        }
    }
    let wall = started.elapsed().as_secs_f64();
    let mut all: Vec<Duration> = Vec::new();
    let mut finished = 0;
    for (id, samples) in &mut per_game {
        samples.latencies.sort();
        all.extend(&samples.latencies);
        finished += samples.finished;
        #[allow(clippy::cast_precision_loss)]
        let rate = samples.latencies.len() as f64 / wall;
        println!(
            "| {backend} | {} | {} | {} | {rate:.0} | {:.2} | {:.2} | {:.2} |",
            id.name(),
            samples.latencies.len(),
            samples.finished,
            quantile(&samples.latencies, 0.5),
            quantile(&samples.latencies, 0.99),
            quantile(&samples.latencies, 1.0),
        );
    }
    all.sort();
    #[allow(clippy::cast_precision_loss)]
    let rate = all.len() as f64 / wall;
    println!(
        "| {backend} | **all {games} games, {wall:.1} s** | {} | {finished} | **{rate:.0}** | {:.2} | **{:.2}** | {:.2} |",
        all.len(),
        quantile(&all, 0.5),
        quantile(&all, 0.99),
        quantile(&all, 1.0),
    );
    Ok(())
}

fn median_ms(mut values: Vec<Duration>) -> f64 {
    values.sort();
    quantile(&values, 0.5)
}

/// One Pachisi game played on; at each checkpoint, the `/move` latency and the time to load and
/// to replay the whole log.
async fn long_history(backend: &str, service: &Service) -> Result<(), BoxError> {
    let chat = "long";
    let mut lcg = Lcg(7);
    let game = start(service, chat, GameId::Pachisi).await?;
    let store = service.store();
    let mut games = 1;
    let mut game = game;
    for checkpoint in CHECKPOINTS {
        let mut moves = Vec::new();
        let mut loads = Vec::new();
        let mut replays = Vec::new();
        let mut seq = 0;
        while moves.len() < SAMPLES {
            let Some(current) = turn(store, game).await? else {
                // Random Pachisi rarely ends this early; if it does, play on in a new game.
                games += 1;
                game = start(service, chat, GameId::Pachisi).await?;
                continue;
            };
            if current.seq < checkpoint {
                timed_move(service, chat, game, &current, &mut lcg).await?;
                continue;
            }
            seq = current.seq;
            let started = Instant::now();
            let loaded = store
                .load_game(game, History::Full)
                .await?
                .ok_or("game vanished")?;
            loads.push(started.elapsed());
            let started = Instant::now();
            std::hint::black_box(loaded.replay()?);
            replays.push(started.elapsed());
            moves.push(timed_move(service, chat, game, &current, &mut lcg).await?);
        }
        println!(
            "| {backend} | {seq} | {:.2} | {:.2} | {:.3} |",
            median_ms(moves),
            median_ms(loads),
            median_ms(replays),
        );
    }
    if games > 1 {
        println!("({backend}: the long Pachisi game ended early; {games} games were played)");
    }
    Ok(())
}

/// A fresh schema on the PostgreSQL server, or `None` (with a printed line) when unreachable.
async fn postgres_schema() -> Option<(String, String)> {
    use sqlx::postgres::PgConnectOptions;
    use sqlx::{ConnectOptions, Executor};
    use std::str::FromStr;

    let base = std::env::var(POSTGRES_URL_VAR).unwrap_or_else(|_| DEFAULT_POSTGRES_URL.to_string());
    let options = match PgConnectOptions::from_str(&base) {
        Ok(options) => options,
        Err(error) => {
            println!("PostgreSQL skipped: {POSTGRES_URL_VAR} is not a PostgreSQL URL: {error}");
            return None;
        }
    };
    let mut connection = match options.connect().await {
        Ok(connection) => connection,
        Err(error)
            if error
                .as_database_error()
                .and_then(|error| error.code())
                .is_some_and(|code| code == "3D000") =>
        {
            let database = options.get_database().unwrap_or("postgres").to_string();
            let created = async {
                let mut server = options.clone().database("postgres").connect().await?;
                server
                    .execute(sqlx::AssertSqlSafe(format!(
                        "CREATE DATABASE \"{database}\""
                    )))
                    .await?;
                options.connect().await
            }
            .await;
            match created {
                Ok(connection) => connection,
                Err(error) => {
                    println!("PostgreSQL skipped: cannot create database {database}: {error}");
                    return None;
                }
            }
        }
        Err(error) => {
            println!("PostgreSQL skipped: {base} is unreachable: {error}");
            return None;
        }
    };
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.subsec_nanos());
    let name = format!("bench_{}_{nanos}", std::process::id());
    if let Err(error) = connection
        .execute(sqlx::AssertSqlSafe(format!("CREATE SCHEMA {name}")))
        .await
    {
        println!("PostgreSQL skipped: cannot create a schema: {error}");
        return None;
    }
    Some((base, name))
}

async fn drop_schema(base: &str, name: &str) {
    use sqlx::postgres::PgConnectOptions;
    use sqlx::{ConnectOptions, Executor};
    use std::str::FromStr;

    if let Ok(options) = PgConnectOptions::from_str(base)
        && let Ok(mut connection) = options.connect().await
    {
        let _ = connection
            .execute(sqlx::AssertSqlSafe(format!("DROP SCHEMA {name} CASCADE")))
            .await;
    }
}

fn env_number(name: &str, default: f64) -> f64 {
    std::env::var(name)
        .ok()
        .and_then(|value| value.parse().ok())
        .unwrap_or(default)
}

async fn bench(backend: &str, url: &DatabaseUrl, games: usize, secs: f64) -> Result<(), BoxError> {
    let store = Store::connect(url).await?;
    let pictures = std::env::var("TABULA_BENCH_PICTURES").map_or(true, |value| value != "0");
    let service = Arc::new(Service::new(store.clone(), Dice::Os).with_pictures(pictures));
    println!();
    println!("Parallel games ({backend}):");
    println!();
    println!("| backend | game | moves | games finished | moves/s | median ms | p99 ms | max ms |");
    println!("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |");
    parallel(backend, &service, games, secs).await?;
    println!();
    println!("Long Pachisi history ({backend}, one game, medians of {SAMPLES}):");
    println!();
    println!("| backend | stored actions | /move ms | load log ms | replay ms |");
    println!("| --- | ---: | ---: | ---: | ---: |");
    long_history(backend, &service).await?;
    store.close().await;
    Ok(())
}

fn main() -> Result<(), BoxError> {
    let secs = env_number("TABULA_BENCH_SECS", 10.0);
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let games = env_number("TABULA_BENCH_GAMES", 32.0).max(1.0) as usize;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let pictures = std::env::var("TABULA_BENCH_PICTURES").map_or("on", |value| {
            if value == "0" { "off" } else { "on" }
        });
        println!(
            "Game service, moves end to end: {games} games at once for {secs} s, pictures {pictures}"
        );
        let path = std::env::temp_dir().join(format!("tabula_bench_{}.db", std::process::id()));
        let url = DatabaseUrl::new(format!("sqlite://{}", path.display()));
        let outcome = bench("SQLite", &url, games, secs).await;
        for suffix in ["", "-wal", "-shm"] {
            let mut file = path.clone().into_os_string();
            file.push(suffix);
            let _ = std::fs::remove_file(file);
        }
        outcome?;
        if let Some((base, name)) = postgres_schema().await {
            let separator = if base.contains('?') { '&' } else { '?' };
            let url = DatabaseUrl::new(format!(
                "{base}{separator}options=-c%20search_path%3D{name}"
            ));
            let outcome = bench("PostgreSQL", &url, games, secs).await;
            drop_schema(&base, &name).await;
            outcome?;
        }
        Ok(())
    })
}
