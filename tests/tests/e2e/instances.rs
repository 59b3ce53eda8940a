//! Several instances (issue 40): three `tabula run` processes on one PostgreSQL database, in
//! Telegram's webhook mode and Discord's HTTP-interactions mode, behind a round-robin proxy
//! the test runs. A Telegram game is played across all three and one of them is killed with
//! SIGKILL in the middle; a Discord game goes on through the same proxy; a reminder falls due
//! while three schedulers look for it. Every acknowledged move is kept, every board posted
//! once, and the reminder sent once. Ignored unless `TABULA_TEST_POSTGRES_URL` is set.

use std::time::Duration;

use tabula_tests::bot_process::{BotProcess, free_port};
use tabula_tests::discord_table::{self, Mode};
use tabula_tests::proxy::RoundRobin;
use tabula_tests::said;
use tabula_tests::table::{self, Lcg, Platform as _};
use tabula_tests::telegram::FakeMessage;
use tabula_tests::telegram_table::{self, ANSWER, Table, callbacks, is_photo};

use crate::telegram_postgres::fresh_schema;

/// The game number and seq a board's first move button carries (`m<game>.<seq>.<choice>`).
fn game_and_seq(message: &FakeMessage) -> Option<(i64, u32)> {
    callbacks(message).into_iter().find_map(|(_, data)| {
        let mut parts = data.strip_prefix('m')?.split('.');
        Some((parts.next()?.parse().ok()?, parts.next()?.parse().ok()?))
    })
}

async fn actions(db: &mut sqlx::PgConnection, game: i64) -> i64 {
    sqlx::query_scalar("SELECT COUNT(*) FROM actions WHERE game_id = $1")
        .bind(game)
        .fetch_one(db)
        .await
        .expect("the game's actions")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: set TABULA_TEST_POSTGRES_URL and pass --include-ignored (.ci/run does)"]
async fn three_instances_behind_a_proxy_lose_nothing_when_one_is_killed() {
    let base = std::env::var("TABULA_TEST_POSTGRES_URL")
        .expect("TABULA_TEST_POSTGRES_URL must name the PostgreSQL test server");
    let schema = format!("e2e_instances_{}", std::process::id());
    let (mut db, url) = fresh_schema(&base, &schema).await;
    {
        use sqlx::Executor;
        db.execute(sqlx::AssertSqlSafe(format!("SET search_path TO {schema}")))
            .await
            .expect("the test's schema");
    }

    // The platforms: Telegram's webhook and Discord's interactions both go to the proxy.
    let mut telegram = Table::new("instances").await;
    let discord = discord_table::Table::new("instances-discord", Mode::Http).await;
    let ports = [free_port(), free_port(), free_port()];
    let proxy = RoundRobin::start(
        ports
            .iter()
            .map(|port| format!("http://127.0.0.1:{port}"))
            .collect(),
    )
    .await;
    telegram
        .fake
        .route_webhook("https://bot.example.test", &proxy.url);
    discord
        .fake
        .deliver_over_http(&format!("{}/discord/interactions", proxy.url));
    telegram.set("DATABASE_URL", url);
    telegram.set("TELEGRAM_WEBHOOK_URL", "https://bot.example.test/tg");
    telegram.set("TELEGRAM_WEBHOOK_SECRET", "instances-secret");
    telegram.set("TABULA_SCHEDULER_SECONDS", "1");
    telegram.set("TABULA_OUTBOX_LEASE_SECONDS", "3");
    let mut env = telegram.env.clone();
    for (name, value) in &discord.env {
        if name.starts_with("DISCORD_") {
            env.push((name, value.clone()));
        }
    }
    let mut bots = Vec::new();
    for (index, port) in ports.into_iter().enumerate() {
        let mut process_env = env.clone();
        process_env.push(("TABULA_LISTEN", format!("127.0.0.1:{port}")));
        // The last at the most verbose level: no secret in its log either.
        if index == 2 {
            process_env.retain(|(name, _)| *name != "TABULA_LOG");
            process_env.push(("TABULA_LOG", "trace".to_string()));
        }
        let mut bot = BotProcess::start(&telegram.dir, &["run"], &process_env);
        bot.wait_for_log("tabula run:", Duration::from_secs(60))
            .await;
        bots.push(bot);
    }

    // Telegram: a game played across the three, the first killed after six moves.
    let (group, players, mut board) = telegram_table::challenge(&telegram, "konane size=6").await;
    let (game, _) = game_and_seq(&board).expect("the first board's buttons");
    let mut lcg = Lcg(40);
    let mut moves = 0_i64;
    let mut killed = false;
    while game_and_seq(&board).is_some() {
        if moves == 6 {
            bots[0].kill9().await;
            killed = true;
        }
        board = table::one_move(
            &telegram,
            &group,
            &players,
            &board,
            &mut lcg,
            moves % 3 == 2,
        )
        .await;
        moves += 1;
        assert!(moves < 200, "the 6×6 game ends");
    }
    assert!(killed && moves > 6, "{moves} moves, the kill among them");
    // Every acknowledged move kept: each move's next board came, and all are stored.
    assert_eq!(actions(&mut db, game).await, moves);
    // Every board posted once: one per position, the first included.
    let boards: Vec<FakeMessage> = telegram
        .fake
        .bot_messages(&group)
        .into_iter()
        .filter(|m| is_photo(m) && m.reply_to.is_none())
        .collect();
    // The seq each board showed when it was posted (its buttons are taken off later).
    let shown = |m: &FakeMessage| {
        m.first_content()
            .buttons()
            .into_iter()
            .flatten()
            .filter_map(|b| b.callback_data)
            .find_map(|data| {
                let mut parts = data.strip_prefix('m')?.split('.');
                parts.next()?;
                parts.next()?.parse::<u32>().ok()
            })
    };
    let mut seqs: Vec<u32> = boards.iter().filter_map(shown).collect();
    seqs.sort_unstable();
    let once: Vec<u32> = (0..u32::try_from(moves).unwrap_or(0)).collect();
    assert_eq!(seqs, once, "one board with buttons per position");
    assert_eq!(
        boards.len(),
        once.len() + 1,
        "and one final board: {:?}",
        boards.iter().map(|m| m.message_id).collect::<Vec<_>>()
    );
    let answered = proxy.answered();
    assert!(
        answered.iter().all(|n| *n > 0),
        "all three answered: {answered:?}"
    );

    // A reminder falls due (as if half the time per move had passed) while two schedulers
    // look every second: it is sent once.
    let quiet = telegram.fake.group("Quiet club");
    let carol = telegram.person("Carol");
    let dave = telegram.person("Dave");
    telegram.fake.add_member(&quiet, &carol);
    telegram.fake.add_member(&quiet, &dave);
    telegram
        .fake
        .user_writes(&quiet, &carol, "/play konane @dave_tg");
    let waiting = table::accept_challenge(
        &telegram,
        &quiet,
        &(dave.clone(), telegram_table::username("Dave")),
        0,
    )
    .await;
    let (waiting_game, _) = game_and_seq(&waiting).expect("its buttons");
    sqlx::query("UPDATE games SET remind_at = 0 WHERE id = $1")
        .bind(waiting_game)
        .execute(&mut db)
        .await
        .expect("the reminder falls due");
    let reminders = |fake: &tabula_tests::telegram::FakeTelegram| {
        fake.bot_messages(&quiet)
            .into_iter()
            .filter(|m| said::says(m.text(), "reminder"))
            .count()
    };
    let reminded = telegram
        .fake
        .wait_for(|f| Some(reminders(f)).filter(|n| *n > 0), ANSWER)
        .await;
    assert!(reminded.is_ok(), "the reminder comes");
    tokio::time::sleep(Duration::from_secs(4)).await;
    assert_eq!(reminders(&telegram.fake), 1, "the reminder is sent once");

    // Discord: a game through the same proxy, on the two processes left.
    let (dc_players, mut dc_board) = discord_table::challenge(&discord, "konane").await;
    let mut dc_lcg = Lcg(41);
    for step in 0..4 {
        dc_board = table::one_move(
            &discord,
            &discord.platform.channel,
            &dc_players,
            &dc_board,
            &mut dc_lcg,
            step % 2 == 1,
        )
        .await;
    }
    let dc_game: i64 = sqlx::query_scalar(
        "SELECT g.id FROM games g JOIN chats c ON c.id = g.chat_id WHERE c.platform = 'discord'",
    )
    .fetch_one(&mut db)
    .await
    .expect("the Discord game");
    assert_eq!(
        actions(&mut db, dc_game).await,
        4,
        "every Discord move kept"
    );

    for bot in bots.iter_mut().skip(1) {
        let stopped = bot.terminate(Duration::from_secs(20)).await;
        assert!(stopped.success(), "{stopped}: {}", bot.log());
    }
    assert!(
        bots[2].log().contains("TRACE"),
        "the most verbose level was on"
    );
    let token = telegram_table::TOKEN.split(':').nth(1).unwrap_or_default();
    for bot in &bots {
        let log = bot.log();
        for secret in [token, "instances-secret", discord.fake.token()] {
            assert!(!log.contains(secret), "a secret reached the log");
        }
    }
    tabula_tests::telegram_table::Telegram::assert_clean(&telegram.fake);
    tabula_tests::discord_table::Discord::assert_clean(&discord.fake);
    drop(db);
}
