//! Telegram on PostgreSQL: `tabula run` in webhook mode (the mode for several instances on one
//! database) plays a whole game of Konane on a PostgreSQL database, stopped by SIGTERM in the
//! middle and started again. Ignored unless `TABULA_TEST_POSTGRES_URL` names a server and
//! `--include-ignored` is given (.ci/run does both); then it fails loudly without the server.

use sqlx::{ConnectOptions, Executor};
use tabula_tests::bot_process::free_port;
use tabula_tests::telegram_table::{Table, challenge, play_to_end};

/// A fresh schema on the test server, and the database URL that uses it.
pub(crate) async fn fresh_schema(base: &str, name: &str) -> (sqlx::PgConnection, String) {
    let options: sqlx::postgres::PgConnectOptions = base
        .parse()
        .unwrap_or_else(|error| panic!("TABULA_TEST_POSTGRES_URL: {error}"));
    let mut admin = options.connect().await.unwrap_or_else(|error| {
        panic!("TABULA_TEST_POSTGRES_URL is set but the server is unreachable: {error}")
    });
    admin
        .execute(sqlx::AssertSqlSafe(format!(
            "DROP SCHEMA IF EXISTS {name} CASCADE; CREATE SCHEMA {name}"
        )))
        .await
        .expect("a fresh schema");
    let separator = if base.contains('?') { '&' } else { '?' };
    (
        admin,
        format!("{base}{separator}options=-c%20search_path%3D{name}"),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: set TABULA_TEST_POSTGRES_URL and pass --include-ignored (.ci/run does)"]
async fn a_whole_game_by_webhook_on_postgresql() {
    let base = std::env::var("TABULA_TEST_POSTGRES_URL")
        .expect("TABULA_TEST_POSTGRES_URL must name the PostgreSQL test server");
    let schema = format!("e2e_telegram_{}", std::process::id());
    let (mut admin, url) = fresh_schema(&base, &schema).await;
    let mut table = Table::new("postgres").await;
    let port = free_port();
    table.set("DATABASE_URL", url);
    table.set("TELEGRAM_WEBHOOK_URL", "https://bot.example.test/tg");
    table.set("TELEGRAM_WEBHOOK_SECRET", "pg-secret");
    table.set("TABULA_LISTEN", format!("127.0.0.1:{port}"));
    table.fake.route_webhook(
        "https://bot.example.test",
        &format!("http://127.0.0.1:{port}"),
    );
    table.start().await;
    assert!(
        table.log().contains("database PostgreSQL"),
        "{}",
        table.log()
    );
    assert!(
        !table.log().contains("search_path"),
        "the URL is logged: {}",
        table.log()
    );
    let (group, players, board) = challenge(&table, "konane").await;
    let moves = play_to_end(&mut table, &group, &players, board, 21, 5).await;
    assert!(moves > 5);
    table.stop().await;
    table.assert_clean();
    admin
        .execute(sqlx::AssertSqlSafe(format!("DROP SCHEMA {schema} CASCADE")))
        .await
        .expect("drop the schema");
}
