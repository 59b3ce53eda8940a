//! Time limits (issue 6) with a clock moved by hand: one reminder at half time, a claim refused
//! before the deadline and accepted after it, vacations that pause the clock, nothing lost
//! over restarts, and one reminder per turn however many schedulers run. On SQLite and
//! PostgreSQL.

use crate::common;

use std::sync::Arc;

use common::connect;
use common::table::{DAY, HOUR, Lcg, T0, Table, start, text};
use tabula_service::service::{Clock, Reply, UserError, rfc3339};
use tabula_service::store::{DatabaseUrl, GameNo, GameStatus};

on_both_databases! {
    a_player_is_reminded_once_and_the_opponent_claims_after_the_deadline => reminder_and_claim;
    a_late_move_still_counts_and_restarts_the_clock => late_move;
    a_vacation_pauses_the_clock => vacation;
    a_restart_loses_no_reminder_and_repeats_none => restarts;
    reminders_can_be_switched_off => reminders_off;
    several_schedulers_send_each_reminder_once => several_schedulers;
    the_running_scheduler_posts_what_is_due => running_scheduler;
}

const MINUTE: i64 = 60 * 1000;

/// Who is to move in a game, and the other player.
async fn sides(table: &Table, game: GameNo) -> (String, String) {
    let (_, actor) = table.state(game).await;
    let actor = actor.expect("someone to move");
    let other = if actor == "alice" { "bob" } else { "alice" };
    (actor, other.to_string())
}

type Check = fn(&UserError) -> bool;

/// Asserts that a reply refuses as `check` says.
fn refused(reply: &Reply, check: Check) {
    assert!(
        reply.refusal().is_some_and(check),
        "{:?}: {}",
        reply.kind,
        text(reply)
    );
}

fn texts(replies: &[Reply]) -> Vec<String> {
    replies.iter().map(text).collect()
}

async fn reminder_and_claim(url: DatabaseUrl) {
    let store = connect(&url).await;
    let table = Table::new(store.clone(), 1);
    let game = start(&table, "alice", "bob", "konane time=1d stake=100").await;
    let (late, waiting) = sides(&table, game).await;
    let board = text(&table.cmd("carol", &format!("/board #{game}")).await);
    assert!(
        board.contains("1 day left (until January 11, 2027 at 12:00\u{202f}PM UTC)"),
        "{board}"
    );
    assert!(table.tick().await.is_empty());
    table.clock.advance(11 * HOUR);
    assert!(table.tick().await.is_empty(), "not half time yet");
    table.clock.advance(2 * HOUR);
    let replies = table.tick().await;
    assert_eq!(
        texts(&replies),
        [format!(
            "@{}, a reminder: it is your turn in game #{game} (Konane). 11 hours left, until \
             January 11, 2027 at 12:00\u{202f}PM UTC.",
            late.to_uppercase()
        )]
    );
    assert_eq!(replies[0].address.chat, "chat1");
    assert_eq!(replies[0].buttons[0][0].data, format!("b{game}"));
    assert!(table.tick().await.is_empty(), "reminded once");

    let reply = table.cmd(&waiting, &format!("/claim #{game}")).await;
    assert!(
        matches!(
            reply.refusal(),
            Some(UserError::TooEarly { game: g, name, left, until })
                if *g == game
                    && *name == late.to_uppercase()
                    && *left == 11 * HOUR
                    && rfc3339(*until) == "2027-01-11T12:00:00Z"
        ),
        "{:?}",
        reply.kind
    );
    table.clock.advance(11 * HOUR - MINUTE);
    assert!(table.tick().await.is_empty(), "a minute is left");
    table.clock.advance(MINUTE);
    let replies = table.tick().await;
    assert_eq!(
        texts(&replies),
        [format!(
            "@{} has run out of time in game #{game} (Konane) at January 11, 2027 at 12:00\u{202f}PM UTC. @{} may \
             /claim #{game} to win; a move made before that still counts.",
            late.to_uppercase(),
            waiting.to_uppercase()
        )]
    );
    assert!(table.tick().await.is_empty(), "said once");
    let board = text(&table.cmd("carol", &format!("/board #{game}")).await);
    assert!(
        board.contains(
            "Out of time since January 11, 2027 at 12:00\u{202f}PM UTC: the opponent may /claim."
        ),
        "{board}"
    );
    let reply = table.cmd(&late, &format!("/claim #{game}")).await;
    refused(&reply, |e| matches!(e, UserError::OwnTurn(_)));
    let reply = table.cmd(&waiting, &format!("/claim #{game}")).await;
    assert!(
        text(&reply).contains(&format!(
            "Game #{game} (Konane) is over: @{} (",
            late.to_uppercase()
        )) && text(&reply).contains(&format!(
            ") ran out of time, so @{} (",
            waiting.to_uppercase()
        )),
        "{}",
        text(&reply)
    );
    assert!(
        text(&reply).contains("takes the pot of 200 coins"),
        "{}",
        text(&reply)
    );
    let record = table.record(game).await;
    assert_eq!(record.status, GameStatus::Finished);
    assert!(
        record
            .result
            .as_deref()
            .is_some_and(|r| r.ends_with("(time)")),
        "{:?}",
        record.result
    );
    assert_eq!(record.clock, None);
    assert_eq!(table.balance(&waiting).await, 1100);
    assert_eq!(table.balance(&late).await, 900);
    let reply = table.cmd(&waiting, &format!("/claim #{game}")).await;
    refused(&reply, |e| matches!(e, UserError::GameOver(_)));
    table.assert_money_adds_up().await;
    store.close().await;
}

async fn late_move(url: DatabaseUrl) {
    let store = connect(&url).await;
    let table = Table::new(store.clone(), 2);
    let game = start(&table, "alice", "bob", "koan time=1d").await;
    let (late, waiting) = sides(&table, game).await;
    table.clock.advance(DAY + HOUR);
    // Half time and the deadline passed together: only the time-out is said.
    let replies = table.tick().await;
    assert_eq!(replies.len(), 1, "{:?}", texts(&replies));
    assert!(texts(&replies)[0].contains("has run out of time"));
    // The late player moves before anyone claims: the move counts.
    let mut lcg = Lcg(3);
    let (mover, reply) = table.random_move(game, &mut lcg).await.expect("a move");
    assert_eq!(mover, late);
    assert!(
        text(&reply).contains("1 day left (until January 12, 2027 at 1:00\u{202f}PM UTC)"),
        "{}",
        text(&reply)
    );
    let reply = table.cmd(&waiting, &format!("/claim #{game}")).await;
    refused(&reply, |e| matches!(e, UserError::OwnTurn(_)));
    let reply = table.cmd(&late, &format!("/claim #{game}")).await;
    assert!(
        text(&reply).contains(&format!(
            "{} still has 1 day in game #{game}",
            waiting.to_uppercase()
        )),
        "{}",
        text(&reply)
    );
    // The new turn has its own reminder and time-out.
    table.clock.advance(12 * HOUR + MINUTE);
    let replies = table.tick().await;
    assert_eq!(replies.len(), 1);
    assert!(
        texts(&replies)[0].starts_with(&format!("@{}, a reminder", waiting.to_uppercase())),
        "{:?}",
        texts(&replies)
    );
    table.clock.advance(12 * HOUR);
    let replies = table.tick().await;
    assert_eq!(replies.len(), 1);
    assert!(texts(&replies)[0].contains("has run out of time"));
    let reply = table.cmd(&late, &format!("/claim #{game}")).await;
    assert!(
        reply.is_done() && reply.game == Some(game),
        "{}",
        text(&reply)
    );
    assert_eq!(table.record(game).await.status, GameStatus::Finished);
    store.close().await;
}

async fn vacation(url: DatabaseUrl) {
    let store = connect(&url).await;
    let table = Table::new(store.clone(), 4);
    let game = start(&table, "alice", "bob", "kolowis time=1d").await;
    let (late, waiting) = sides(&table, game).await;
    table.clock.advance(HOUR);
    let reply = table.cmd(&late, "/vacation 2").await;
    assert_eq!(
        text(&reply),
        format!(
            "@{} is on vacation from January 10, 2027 at 1:00\u{202f}PM UTC until January 12, 2027 at 1:00\u{202f}PM UTC: clocks \
             stand still for 2 days (2 of this month's 5 vacation days).",
            late.to_uppercase()
        )
    );
    let board = text(&table.cmd(&waiting, &format!("/board #{game}")).await);
    assert!(
        board.contains("2 days 23 hours left (until January 13, 2027 at 12:00\u{202f}PM UTC)"),
        "{board}"
    );
    // The old deadline passes: nothing is due, no claim.
    table.clock.advance(DAY + HOUR);
    assert!(table.tick().await.is_empty());
    let reply = table.cmd(&waiting, &format!("/claim #{game}")).await;
    assert!(
        matches!(
            reply.refusal(),
            Some(UserError::TooEarly { until, .. }) if rfc3339(*until) == "2027-01-13T12:00:00Z"
        ),
        "the vacation moved the deadline: {:?}",
        reply.kind
    );
    // Half time, moved on by the vacation: 2027-01-13 00:00.
    table.clock.advance(DAY + 9 * HOUR);
    assert!(table.tick().await.is_empty());
    table.clock.advance(HOUR + MINUTE);
    let replies = table.tick().await;
    assert_eq!(replies.len(), 1);
    assert!(texts(&replies)[0].contains("a reminder"));

    // Vacation days are counted per month.
    let cases: [(&str, Check); 4] = [
        ("/vacation 4", |e| {
            matches!(e, UserError::VacationQuota { used: 2, quota: 5 })
        }),
        // Out of every month's bounds: the catalogue refuses it.
        ("/vacation 0", |e| {
            matches!(e, UserError::BadArguments { .. })
        }),
        ("/vacation 6", |e| {
            matches!(e, UserError::BadVacation { quota: 5 })
        }),
        ("/vacation soon", |e| {
            matches!(e, UserError::BadArguments { .. })
        }),
    ];
    for (args, check) in cases {
        let reply = table.cmd(&late, args).await;
        assert!(
            reply.refusal().is_some_and(check),
            "{args}: {:?}",
            reply.kind
        );
    }
    let reply = table.cmd(&late, "/vacation").await;
    assert!(
        text(&reply).contains("has taken 2 of 5 vacation days this month"),
        "{}",
        text(&reply)
    );

    // The late player moves; the waiting one is on vacation, so their clock starts when it
    // ends.
    let now_text = text(&table.cmd(&waiting, "/vacation 1").await);
    assert!(
        now_text.contains("until January 14, 2027 at 12:01\u{202f}AM UTC"),
        "{now_text}"
    );
    let mut lcg = Lcg(5);
    let (_, reply) = table.random_move(game, &mut lcg).await.expect("a move");
    assert!(
        text(&reply)
            .contains("On vacation: the clock starts at January 14, 2027 at 12:01\u{202f}AM UTC, then 1 day to move."),
        "{}",
        text(&reply)
    );
    let record = table.record(game).await;
    let clock = record.clock.expect("a clock");
    assert_eq!(clock.started_at.0, T0.0 + 3 * DAY + 12 * HOUR + MINUTE);
    assert_eq!(clock.deadline_at.0, clock.started_at.0 + DAY);

    // A new month brings new days.
    table.clock.advance(22 * DAY);
    let reply = table.cmd(&late, "/vacation 5").await;
    assert!(
        text(&reply).contains("(5 of this month's 5 vacation days)"),
        "{}",
        text(&reply)
    );
    store.close().await;
}

/// The service is dropped and rebuilt on the same database between every step.
async fn restarts(url: DatabaseUrl) {
    let clock = Clock::manual(T0);
    let game = {
        let store = connect(&url).await;
        let table = Table::with_clock(store.clone(), 5, clock.clone());
        let game = start(&table, "alice", "bob", "konane time=1d stake=50").await;
        store.close().await;
        game
    };
    clock.advance(13 * HOUR);
    let reminded = {
        let store = connect(&url).await;
        let table = Table::with_clock(store.clone(), 6, clock.clone());
        let replies = texts(&table.tick().await);
        store.close().await;
        replies
    };
    assert_eq!(reminded.len(), 1, "{reminded:?}");
    assert!(reminded[0].contains("a reminder"));
    let store = connect(&url).await;
    let table = Table::with_clock(store.clone(), 7, clock.clone());
    assert!(table.tick().await.is_empty(), "not reminded again");
    let (late, waiting) = sides(&table, game).await;
    store.close().await;
    clock.advance(12 * HOUR);
    let store = connect(&url).await;
    let table = Table::with_clock(store.clone(), 8, clock.clone());
    let replies = texts(&table.tick().await);
    assert_eq!(replies.len(), 1, "{replies:?}");
    assert!(replies[0].contains("has run out of time"));
    store.close().await;
    let store = connect(&url).await;
    let table = Table::with_clock(store.clone(), 9, clock.clone());
    assert!(table.tick().await.is_empty(), "not announced again");
    let reply = table.cmd(&waiting, &format!("/claim #{game}")).await;
    assert!(
        text(&reply).contains("takes the pot of 100 coins"),
        "{}",
        text(&reply)
    );
    assert_eq!(table.balance(&waiting).await, 1050);
    assert_eq!(table.balance(&late).await, 950);
    table.assert_money_adds_up().await;
    store.close().await;
}

async fn reminders_off(url: DatabaseUrl) {
    let store = connect(&url).await;
    let table = Table::new(store.clone(), 10);
    table.cmd("mod", "/config reminders=off").await;
    let game = start(&table, "alice", "bob", "konane time=2h").await;
    table.clock.advance(HOUR + MINUTE);
    assert!(table.tick().await.is_empty(), "no reminders here");
    table.clock.advance(HOUR);
    let replies = texts(&table.tick().await);
    assert_eq!(replies.len(), 1, "{replies:?}");
    assert!(replies[0].contains(&format!("has run out of time in game #{game}")));
    store.close().await;
}

/// Four services on one database tick at once, as four bot instances would: every due
/// reminder is sent by exactly one of them.
async fn several_schedulers(url: DatabaseUrl) {
    let clock = Clock::manual(T0);
    let store = connect(&url).await;
    let table = Table::with_clock(store.clone(), 11, clock.clone());
    let players = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"];
    let mut games = Vec::new();
    for pair in players.chunks(2) {
        games.push(start(&table, pair[0], pair[1], "konane time=1d").await);
    }
    clock.advance(13 * HOUR);
    // Every instance is connected first, then all tick together: the barrier lets none start
    // before the others are ready, so the ticks overlap.
    let mut instances = Vec::new();
    for seed in 0..4 {
        instances.push(Table::with_clock(
            connect(&url).await,
            100 + seed,
            clock.clone(),
        ));
    }
    let barrier = Arc::new(tokio::sync::Barrier::new(instances.len()));
    let mut tasks = Vec::new();
    for instance in instances {
        let barrier = Arc::clone(&barrier);
        tasks.push(tokio::spawn(async move {
            barrier.wait().await;
            let replies = texts(&instance.tick().await);
            instance.store().close().await;
            replies
        }));
    }
    let mut all = Vec::new();
    for task in tasks {
        all.extend(task.await.expect("scheduler task"));
    }
    all.sort();
    let mut expected: Vec<String> = Vec::new();
    for game in &games {
        let (actor, _) = sides(&table, *game).await;
        expected.push(format!(
            "@{}, a reminder: it is your turn in game #{game} (Konane). 11 hours left, until \
             January 11, 2027 at 12:00\u{202f}PM UTC.",
            actor.to_uppercase()
        ));
    }
    expected.sort();
    assert_eq!(all, expected);
    assert!(table.tick().await.is_empty());
    store.close().await;
}

/// The scheduler task of a running bot: it ticks on its own and hands each reply over.
async fn running_scheduler(url: DatabaseUrl) {
    let clock = Clock::manual(T0);
    let store = connect(&url).await;
    let table = Table::with_clock(store.clone(), 12, clock.clone());
    let game = start(&table, "alice", "bob", "konane time=1d").await;
    let (late, _) = sides(&table, game).await;
    let service = Arc::new(table.service);
    let (sender, mut receiver) = tokio::sync::mpsc::channel(16);
    let task = tabula_service::service::spawn_scheduler(
        Arc::clone(&service),
        std::time::Duration::from_millis(5),
        sender,
    );
    clock.advance(13 * HOUR);
    let reply = tokio::time::timeout(std::time::Duration::from_secs(30), receiver.recv())
        .await
        .expect("the scheduler posts the reminder")
        .expect("a reply");
    assert!(
        text(&reply).starts_with(&format!("@{}, a reminder", late.to_uppercase())),
        "{}",
        text(&reply)
    );
    drop(receiver);
    tokio::time::timeout(std::time::Duration::from_secs(30), task)
        .await
        .expect("the scheduler stops when nobody listens")
        .expect("the scheduler task");
    store.close().await;
}
