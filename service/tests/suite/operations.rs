//! What an operator does to the database (issue 40): upgrading one made by the first
//! migrations with a game in progress; refusing one a newer Tabula wrote, untouched; the
//! manual migration mode; and a SQLite backup taken while games are played, restored into a
//! working bot with every move acknowledged before it began.

use crate::common;

use std::path::{Path, PathBuf};

use common::table::{CHAT, Table, start};
use tabula_core::{AnyGame, GameId};
use tabula_service::store::{Backend, DatabaseUrl, MigrateOnStart, Store, StoreError};

/// A folder holding only the first migration of `backend`.
fn first_migration_only(backend: Backend) -> PathBuf {
    let folder = match backend {
        Backend::Sqlite => "sqlite",
        Backend::Postgres => "postgres",
    };
    let source = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../migrations")
        .join(folder)
        .join("0001_initial.sql");
    let dir = std::env::temp_dir().join(common::unique_name("tabula_first_migration"));
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    std::fs::copy(&source, dir.join("0001_initial.sql")).expect("the first migration copied");
    dir
}

/// Runs the first migration alone, then `statements`.
async fn oldest_database(url: &DatabaseUrl, statements: &[String]) {
    let dir = first_migration_only(url.backend().expect("a known backend"));
    let migrator = sqlx::migrate::Migrator::new(dir.as_path())
        .await
        .expect("the first migration reads");
    execute(url, Some(&migrator), statements).await;
    let _ = std::fs::remove_dir_all(dir);
}

/// Runs `migrator` if given and then `statements`, with the backend's own driver.
async fn execute(
    url: &DatabaseUrl,
    migrator: Option<&sqlx::migrate::Migrator>,
    statements: &[String],
) {
    match url.backend().expect("a known backend") {
        Backend::Sqlite => {
            use std::str::FromStr;
            let options = sqlx::sqlite::SqliteConnectOptions::from_str(url.expose_secret())
                .expect("a SQLite URL")
                .create_if_missing(true);
            let pool = sqlx::SqlitePool::connect_with(options)
                .await
                .expect("the file opens");
            if let Some(migrator) = migrator {
                migrator.run(&pool).await.expect("the first migration runs");
            }
            for statement in statements {
                sqlx::query(sqlx::AssertSqlSafe(statement.clone()))
                    .execute(&pool)
                    .await
                    .unwrap_or_else(|error| panic!("{statement}: {error}"));
            }
            pool.close().await;
        }
        Backend::Postgres => {
            let pool = sqlx::PgPool::connect(url.expose_secret())
                .await
                .expect("the server answers");
            if let Some(migrator) = migrator {
                migrator.run(&pool).await.expect("the first migration runs");
            }
            for statement in statements {
                sqlx::query(sqlx::AssertSqlSafe(statement.clone()))
                    .execute(&pool)
                    .await
                    .unwrap_or_else(|error| panic!("{statement}: {error}"));
            }
            pool.close().await;
        }
    }
}

/// `user` in `seat` of the one game.
fn seat(seat: u32, user: &str) -> String {
    format!(
        "INSERT INTO seats (game_id, seat, user_id) SELECT g.id, {seat}, u.id FROM games g, \
         users u WHERE u.platform_user_id = '{user}'"
    )
}

/// A Konane game between alice and bob in the table's chat, two moves in, as the first
/// migrations stored it.
fn game_in_progress() -> (Vec<String>, AnyGame) {
    let mut state = AnyGame::start(GameId::Konane, &[], None).expect("Konane starts");
    let at = 1_700_000_000_000_i64;
    let mut statements = vec![
        format!(
            "INSERT INTO users (platform, platform_user_id, display_name, created_at, \
             updated_at) VALUES ('local', 'alice', 'ALICE', {at}, {at})"
        ),
        format!(
            "INSERT INTO users (platform, platform_user_id, display_name, created_at, \
             updated_at) VALUES ('local', 'bob', 'BOB', {at}, {at})"
        ),
        format!(
            "INSERT INTO chats (platform, platform_chat_id, title, created_at, updated_at) \
             VALUES ('local', '{}', '{}', {at}, {at})",
            CHAT.0, CHAT.1
        ),
        format!(
            "INSERT INTO games (chat_id, game, options, status, seq, created_at, updated_at) \
             SELECT id, 'konane', '', 'active', 2, {at}, {at} FROM chats"
        ),
        seat(0, "alice"),
        seat(1, "bob"),
    ];
    for (seq, actor) in [(1, "alice"), (2, "bob")] {
        let line = state.legal_lines()[0].clone();
        state.apply_text(&line).expect("a legal opening move");
        statements.push(format!(
            "INSERT INTO actions (game_id, seq, action, actor_id, created_at) \
             SELECT g.id, {seq}, '{line}', u.id, {at} FROM games g, users u \
             WHERE u.platform_user_id = '{actor}'"
        ));
    }
    (statements, state)
}

async fn upgraded_from_the_first_migrations(url: DatabaseUrl) {
    let (statements, expected) = game_in_progress();
    oldest_database(&url, &statements).await;
    // Manual mode: pending migrations keep the bot from starting, and nothing is applied.
    match Store::connect_with(&url, MigrateOnStart::Manual).await {
        Err(StoreError::Pending { versions }) => assert!(versions.len() >= 17, "{versions:?}"),
        other => panic!("manual mode started with pending migrations: {other:?}"),
    }
    let store = Store::open(&url).await.expect("the database opens");
    let status = store.migration_status().await.expect("its migrations");
    assert_eq!(status.applied, vec![1]);
    assert!(status.unknown.is_empty());
    let applied = store.migrate().await.expect("the upgrade applies");
    assert_eq!(
        applied.len(),
        status.pending.len(),
        "every pending migration applied"
    );
    assert!(
        store
            .migration_status()
            .await
            .expect("its migrations")
            .pending
            .is_empty()
    );
    // The game goes on: its position is the one stored, and the player to move moves.
    let table = Table::system_clock(store.clone(), 40);
    let games = table.active_games().await;
    assert_eq!(games.len(), 1, "the game in progress survived");
    let game = games[0].id;
    let (state, actor) = table.state(game).await;
    assert_eq!(state.position(), expected.position());
    let actor = actor.expect("someone to move");
    assert_eq!(actor, "alice");
    let line = state.legal_lines()[0].clone();
    let moved = table.cmd(&actor, &format!("/move #{game} {line}")).await;
    assert!(moved.is_done(), "{:?}", moved.kind);
    assert_eq!(table.record(game).await.seq, 3);
    store.close().await;
}

async fn a_newer_database_is_refused_untouched(url: DatabaseUrl) {
    let store = Store::connect(&url).await.expect("a fresh database");
    let known = store.migration_status().await.expect("status").known_latest;
    store.close().await;
    // A migration this binary does not know, as a newer Tabula would have recorded it.
    let newer = known + 1;
    execute(
        &url,
        None,
        &[format!(
            "INSERT INTO _sqlx_migrations (version, description, success, checksum, \
             execution_time) VALUES ({newer}, 'from the future', TRUE, x'00', 1)"
        )
        .replace(
            "x'00'",
            if url.backend().ok() == Some(Backend::Postgres) {
                "'\\x00'::bytea"
            } else {
                "x'00'"
            },
        )],
    )
    .await;
    for on_start in [MigrateOnStart::Apply, MigrateOnStart::Manual] {
        match Store::connect_with(&url, on_start).await {
            Err(StoreError::Newer { versions, known: k }) => {
                assert_eq!(versions, vec![newer]);
                assert_eq!(k, known);
            }
            other => panic!("a newer database was used ({on_start:?}): {other:?}"),
        }
    }
    let store = Store::open(&url).await.expect("it opens");
    assert!(matches!(
        store.migrate().await,
        Err(StoreError::Newer { .. })
    ));
    let status = store.migration_status().await.expect("status");
    assert!(status.pending.is_empty() && status.unknown == vec![newer]);
    store.close().await;
}

on_both_databases! {
    a_database_of_the_first_migrations_is_upgraded_with_its_game => upgraded_from_the_first_migrations;
    a_database_of_a_newer_tabula_is_refused_untouched => a_newer_database_is_refused_untouched;
}

/// Plays the first legal move of whoever is to move in `game`; the seq it acknowledged.
async fn play_one(table: &Table, game: tabula_service::store::GameNo) -> Option<u32> {
    let (state, actor) = table.state(game).await;
    let actor = actor?;
    let line = state.legal_lines().first()?.clone();
    let reply = table.cmd(&actor, &format!("/move #{game} {line}")).await;
    reply.is_done().then_some(())?;
    Some(table.record(game).await.seq)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backup_taken_while_games_are_played_restores_every_acknowledged_move() {
    let file = common::SqliteFile::new();
    let store = Store::connect(&file.url()).await.expect("the database");
    let table = std::sync::Arc::new(Table::system_clock(store.clone(), 41));
    let first = start(&table, "alice", "bob", "konane").await;
    let second = start(&table, "carol", "dave", "konane").await;
    // Moves go on in both games while the copy is written.
    let (moved, mut moves) = tokio::sync::watch::channel(0_usize);
    let playing = {
        let table = std::sync::Arc::clone(&table);
        tokio::spawn(async move {
            let mut acknowledged = Vec::new();
            for _ in 0..20 {
                for game in [first, second] {
                    if let Some(seq) = play_one(&table, game).await {
                        acknowledged.push((game, seq, std::time::Instant::now()));
                        let _ = moved.send(acknowledged.len());
                    }
                }
            }
            acknowledged
        })
    };
    // The backup begins once a few moves are in, and the players go on meanwhile.
    moves
        .wait_for(|count| *count >= 3)
        .await
        .expect("the players move");
    let began = std::time::Instant::now();
    let copy = std::env::temp_dir().join(format!("{}.db", common::unique_name("tabula_backup")));
    let status = store.backup_sqlite(&copy).await.expect("the backup");
    assert!(status.pending.is_empty() && status.unknown.is_empty());
    let acknowledged = playing.await.expect("the players");
    let before: Vec<_> = acknowledged
        .iter()
        .filter(|(_, _, at)| *at < began)
        .collect();
    assert!(
        !before.is_empty(),
        "moves were acknowledged before the backup"
    );
    assert!(
        acknowledged.len() > before.len(),
        "moves went on while the backup ran"
    );
    // One self-contained file: no WAL beside it.
    let mut wal = copy.clone().into_os_string();
    wal.push("-wal");
    assert!(!Path::new(&wal).exists(), "the copy needs no -wal file");
    // A second backup to the same file is refused, and the copy is kept.
    assert!(matches!(
        store.backup_sqlite(&copy).await,
        Err(StoreError::Backup { .. })
    ));
    store.close().await;
    // Restored: a bot on the copy has every move acknowledged before the backup, and plays on.
    let restored = Store::connect(&DatabaseUrl::new(format!("sqlite://{}", copy.display())))
        .await
        .expect("the copy opens");
    let table = Table::system_clock(restored.clone(), 42);
    for game in [first, second] {
        let acked = before
            .iter()
            .filter(|(g, _, _)| *g == game)
            .map(|(_, seq, _)| *seq)
            .max()
            .unwrap_or(0);
        let seq = table.record(game).await.seq;
        assert!(
            seq >= acked,
            "game {game}: {seq} in the copy, {acked} acknowledged before"
        );
        let (state, _) = table.state(game).await;
        assert!(state.legal_lines().len() <= 1_000, "game {game} replays");
    }
    assert!(play_one(&table, first).await.is_some() || play_one(&table, second).await.is_some());
    restored.close().await;
    for suffix in ["", "-wal", "-shm"] {
        let mut path = copy.clone().into_os_string();
        path.push(suffix);
        let _ = std::fs::remove_file(path);
    }
}
