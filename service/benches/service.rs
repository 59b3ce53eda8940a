//! Moves handled end to end by the game service (load, replay, apply, store, render) on SQLite
//! (a temporary file) and PostgreSQL (`TABULA_TEST_POSTGRES_URL`, default
//! `postgres://postgres@127.0.0.1:5432/test`, in a fresh schema; skipped with a printed line
//! when unreachable).
//!
//! `cargo bench -p tabula-service --bench service`. `TABULA_BENCH_SECS` (default 10) is the length
//! of each parallel run, `TABULA_BENCH_GAMES` (default `4,8,16,32`) the numbers of games played
//! at once (one run each), `TABULA_BENCH_PICTURES=0` leaves out the board pictures (to see what
//! rendering costs), `TABULA_BENCH_BACKENDS` (default `sqlite,postgres`) which databases.
//!
//! Parallel runs: every game has its own chat and two players; one task per game plays it the
//! way people do, from the bot's replies alone: the last board names whose turn it is, and that
//! player presses one of its move buttons at random (when the moves come in two steps, first a
//! piece button, then one of the moves it offers). Only the presses that make a move are timed;
//! the piece presses are load like any other. A finished game is replaced by a new one of its
//! kind.
//!
//! Long history: one Pachisi game played on and on; at several history lengths, the latency of
//! a `/move`, and separately the time to load the whole action log and to replay it, and what a
//! game's web page does for each live update (its view and its board as SVG, issue 41).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use tabula_core::{GameId, Status};
use tabula_service::service::typed_mentions;
use tabula_service::service::{Button, Dice, Input, Person, Reply, Request, Service, Span};
use tabula_service::store::{DatabaseUrl, GameNo, GameStatus, History, Platform, Store};
use tabula_testkit::Lcg;

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

static NEXT_KEY: AtomicU64 = AtomicU64::new(1);

fn request(chat: &str, user: &str, text: &str) -> Request {
    let mut request = Request::new(
        Platform::Local,
        (chat.to_string(), format!("Bench {chat}")),
        Person::new(user, user.to_uppercase()).with_username(user),
        format!("b{}", NEXT_KEY.fetch_add(1, Ordering::Relaxed)),
        Input::Command(text.into()),
    );
    request.mentions = typed_mentions(text);
    request
}

/// Sends a command; internal failures abort the benchmark.
async fn send(service: &Service, chat: &str, user: &str, text: &str) -> Result<String, BoxError> {
    let reply = service.handle(&request(chat, user, text)).await?;
    Ok(reply.map(|reply| reply.plain_text()).unwrap_or_default())
}

/// Sends a button press; internal failures abort the benchmark.
async fn press(service: &Service, chat: &str, user: &str, data: &str) -> Result<Reply, BoxError> {
    let mut request = request(chat, user, "");
    request.input = Input::Button(data.into());
    service
        .handle(&request)
        .await?
        .ok_or_else(|| "no answer to a button".into())
}

/// Starts a game of `id` in `chat` between two players: its number and its first board.
async fn start(service: &Service, chat: &str, id: GameId) -> Result<(GameNo, Reply), BoxError> {
    let (alice, bob) = (format!("{chat}a"), format!("{chat}b"));
    send(service, chat, &alice, &format!("/play {id} @{bob}")).await?;
    let board = service
        .handle(&request(chat, &bob, "/accept"))
        .await?
        .ok_or("no answer to /accept")?;
    let body = board.plain_text();
    let number = body
        .strip_prefix("Game #")
        .and_then(|rest| rest.split_once(' '))
        .and_then(|(number, _)| number.parse().ok())
        .ok_or_else(|| format!("{id} did not start in {chat}: {body}"))?;
    Ok((GameNo(number), board))
}

/// Who is to act on a board reply: the one person it notifies, else the last it names; `None`
/// when the game is over.
fn to_move(board: &Reply) -> Result<Option<String>, BoxError> {
    // "Game #2 (Konane) is over: ..."
    if board.plain_text().contains(") is over") {
        return Ok(None);
    }
    if let [one] = board.notify.as_slice() {
        return Ok(Some(one.clone()));
    }
    // A player whose turn goes on is not notified again: the last line, whose turn it is,
    // names them last.
    board
        .spans
        .iter()
        .rev()
        .find_map(|span| match span {
            Span::Mention(person) => Some(Some(person.id.clone())),
            _ => None,
        })
        .ok_or_else(|| format!("a board with nobody to move: {}", board.plain_text()).into())
}

/// One move as a person makes it from `board`: a random button, and when that is a piece, a
/// random move of the piece. Returns the new board and the latency of the press that moved.
async fn press_a_move(
    service: &Service,
    chat: &str,
    actor: &str,
    board: &Reply,
    lcg: &mut Lcg,
) -> Result<(Reply, Duration), BoxError> {
    let buttons: Vec<&Button> = board.all_buttons().collect();
    if buttons.is_empty() {
        return Err(format!("a board without buttons: {}", board.plain_text()).into());
    }
    let mut choice = buttons[lcg.below(buttons.len())].data.clone();
    // A move may take several presses (a piece, then where it goes): each press that does not
    // make the next board offers the next choice.
    for _ in 0..4 {
        let started = Instant::now();
        let reply = press(service, chat, actor, &choice).await?;
        let elapsed = started.elapsed();
        if !reply.is_done() {
            return Err(format!("button {choice} refused: {}", reply.plain_text()).into());
        }
        if reply.placement == tabula_service::service::Placement::NewBoard {
            return Ok((reply, elapsed));
        }
        // Not "All moves" (back to the pieces).
        let buttons: Vec<&Button> = reply
            .all_buttons()
            .filter(|b| !b.data.starts_with('u'))
            .collect();
        if buttons.is_empty() {
            return Err(format!("a choice without moves: {}", reply.plain_text()).into());
        }
        choice = buttons[lcg.below(buttons.len())].data.clone();
    }
    Err(format!("no move after four presses from {}", board.plain_text()).into())
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
    let reply = service
        .handle(&request(
            chat,
            &turn.actor,
            &format!("/move #{game} {line}"),
        ))
        .await?
        .ok_or("no answer to /move")?;
    let elapsed = started.elapsed();
    if !reply.is_done() {
        return Err(format!("move {line} in game {game} refused: {}", reply.plain_text()).into());
    }
    Ok(elapsed)
}

/// Latencies of one game kind in the parallel run.
#[derive(Default)]
struct Samples {
    latencies: Vec<Duration>,
    finished: usize,
}

/// One task: plays games of `id` in its own chat until `deadline`, from the replies alone.
async fn player(
    service: Arc<Service>,
    chat: String,
    seed: u64,
    id: GameId,
    deadline: Instant,
) -> Result<Samples, BoxError> {
    let mut lcg = Lcg(0x5eed + seed);
    let mut samples = Samples::default();
    let (_, mut board) = start(&service, &chat, id).await?;
    while Instant::now() < deadline {
        let Some(actor) = to_move(&board)? else {
            samples.finished += 1;
            board = start(&service, &chat, id).await?.1;
            continue;
        };
        let (next, latency) = press_a_move(&service, &chat, &actor, &board, &mut lcg).await?;
        samples.latencies.push(latency);
        board = next;
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
    run: usize,
) -> Result<(), BoxError> {
    let deadline = Instant::now() + Duration::from_secs_f64(secs);
    let started = Instant::now();
    let mut tasks = Vec::new();
    for index in 0..games {
        let id = GAMES[index % GAMES.len()];
        tasks.push((
            id,
            tokio::spawn(player(
                Arc::clone(service),
                format!("r{run}c{index}"),
                (run * 1000 + index) as u64,
                id,
                deadline,
            )),
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
            "| {backend} | {games} | {} | {} | {} | {rate:.0} | {:.2} | {:.2} | {:.2} |",
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
        "| {backend} | {games} | **all, {wall:.1} s** | {} | {finished} | **{rate:.0}** | {:.2} | **{:.2}** | {:.2} |",
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
    let (game, _) = start(service, chat, GameId::Pachisi).await?;
    let store = service.store();
    let mut games = 1;
    let mut game = game;
    for checkpoint in CHECKPOINTS {
        let mut moves = Vec::new();
        let mut loads = Vec::new();
        let mut replays = Vec::new();
        let mut pages = Vec::new();
        let mut seq = 0;
        while moves.len() < SAMPLES {
            let Some(current) = turn(store, game).await? else {
                // Random Pachisi rarely ends this early; if it does, play on in a new game.
                games += 1;
                game = start(service, chat, GameId::Pachisi).await?.0;
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
            // What a game's web page does for its live state: the view and its board as SVG.
            let started = Instant::now();
            let (view, scene) = service.page_now(game, None).await?.ok_or("no page")?;
            std::hint::black_box((view, tabula_render::svg(&scene)?));
            pages.push(started.elapsed());
            moves.push(timed_move(service, chat, game, &current, &mut lcg).await?);
        }
        println!(
            "| {backend} | {seq} | {:.2} | {:.2} | {:.3} | {:.2} |",
            median_ms(moves),
            median_ms(loads),
            median_ms(replays),
            median_ms(pages),
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

async fn bench(
    backend: &str,
    url: &DatabaseUrl,
    levels: &[usize],
    secs: f64,
) -> Result<(), BoxError> {
    let store = Store::connect(url).await?;
    let pictures = std::env::var("TABULA_BENCH_PICTURES").map_or(true, |value| value != "0");
    let service = Arc::new(Service::new(store.clone(), Dice::Os).with_pictures(pictures));
    println!();
    println!("Parallel games ({backend}):");
    println!();
    println!(
        "| backend | games at once | game | moves | games finished | moves/s | median ms | p99 ms | max ms |"
    );
    println!("| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |");
    for (run, &games) in levels.iter().enumerate() {
        parallel(backend, &service, games, secs, run).await?;
    }
    println!();
    println!("Long Pachisi history ({backend}, one game, medians of {SAMPLES}):");
    println!();
    println!("| backend | stored actions | /move ms | load log ms | replay ms | web page ms |");
    println!("| --- | ---: | ---: | ---: | ---: | ---: |");
    long_history(backend, &service).await?;
    store.close().await;
    Ok(())
}

fn main() -> Result<(), BoxError> {
    let secs = env_number("TABULA_BENCH_SECS", 10.0);
    let levels: Vec<usize> = std::env::var("TABULA_BENCH_GAMES")
        .unwrap_or_else(|_| "4,8,16,32".into())
        .split(',')
        .map(|level| level.trim().parse::<usize>().map(|n| n.max(1)))
        .collect::<Result<_, _>>()
        .map_err(|_| "TABULA_BENCH_GAMES: numbers separated by commas, e.g. 4,8,16,32")?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let pictures = std::env::var("TABULA_BENCH_PICTURES").map_or("on", |value| {
            if value == "0" { "off" } else { "on" }
        });
        println!(
            "Game service, moves end to end: {levels:?} games at once, {secs} s each, pictures {pictures}"
        );
        let backends = std::env::var("TABULA_BENCH_BACKENDS")
            .unwrap_or_else(|_| "sqlite,postgres".into())
            .to_lowercase();
        if backends.contains("sqlite") {
            let path =
                std::env::temp_dir().join(format!("tabula_bench_{}.db", std::process::id()));
            let url = DatabaseUrl::new(format!("sqlite://{}", path.display()));
            let outcome = bench("SQLite", &url, &levels, secs).await;
            for suffix in ["", "-wal", "-shm"] {
                let mut file = path.clone().into_os_string();
                file.push(suffix);
                let _ = std::fs::remove_file(file);
            }
            outcome?;
        }
        if backends.contains("postgres")
            && let Some((base, name)) = postgres_schema().await
        {
            let separator = if base.contains('?') { '&' } else { '?' };
            let url = DatabaseUrl::new(format!(
                "{base}{separator}options=-c%20search_path%3D{name}"
            ));
            let outcome = bench("PostgreSQL", &url, &levels, secs).await;
            drop_schema(&base, &name).await;
            outcome?;
        }
        Ok(())
    })
}
