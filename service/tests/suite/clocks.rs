//! Time limits (issue 6) with a clock moved by hand: one reminder at half time, a claim refused
//! before the deadline and accepted after it, vacations that pause the clock, nothing lost
//! over restarts, and one reminder per turn however many schedulers run. On SQLite and
//! PostgreSQL.

use crate::common;

use std::sync::Arc;

use common::connect;
use common::said::{coins, game_no, is_duration, moment, num, people, said, sub};
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

/// The reminder a reply says: whom it reminds, in which game, whether `left` is the time it
/// says they have left, and the deadline it names.
fn reminder(reply: &Reply, left: i64) -> (Vec<String>, GameNo, bool, i64) {
    let msg = said(reply, "reminder");
    (
        people(msg, "player"),
        game_no(msg, "game"),
        is_duration(msg, "left", left),
        moment(msg, "until"),
    )
}

/// The time-out a reply says: who ran out of time, in which game, when, and who may claim.
fn timed_out(reply: &Reply) -> (Vec<String>, GameNo, i64, Vec<String>) {
    let msg = said(reply, "timed-out");
    (
        people(msg, "player"),
        game_no(msg, "game"),
        moment(msg, "at"),
        people(msg, "claimant"),
    )
}

/// The clock a board or a move's reply shows: whether `left` is the time it says is left,
/// and the deadline.
fn clock_left(reply: &Reply, left: i64) -> (bool, i64) {
    let msg = said(reply, "clock-left");
    (is_duration(msg, "left", left), moment(msg, "until"))
}

async fn reminder_and_claim(url: DatabaseUrl) {
    let store = connect(&url).await;
    let table = Table::new(store.clone(), 1);
    let game = start(&table, "alice", "bob", "konane time=1d stake=100").await;
    let (late, waiting) = sides(&table, game).await;
    let board = table.cmd("carol", &format!("/board #{game}")).await;
    assert_eq!(
        clock_left(&board, DAY),
        (true, T0.0 + DAY),
        "1 day left, until January 11 at noon"
    );
    assert!(table.tick().await.is_empty());
    table.clock.advance(11 * HOUR);
    assert!(table.tick().await.is_empty(), "not half time yet");
    table.clock.advance(2 * HOUR);
    let replies = table.tick().await;
    assert_eq!(replies.len(), 1, "{:?}", texts(&replies));
    assert_eq!(
        reminder(&replies[0], 11 * HOUR),
        (vec![late.clone()], game, true, T0.0 + DAY),
        "the player to move is reminded: 11 hours left, until January 11 at noon"
    );
    assert_eq!(sub(said(&replies[0], "reminder"), "name").id, "game-konane");
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
    assert_eq!(replies.len(), 1, "{:?}", texts(&replies));
    assert_eq!(
        timed_out(&replies[0]),
        (vec![late.clone()], game, T0.0 + DAY, vec![waiting.clone()]),
        "the late player ran out of time at noon on January 11; the other may claim"
    );
    assert!(table.tick().await.is_empty(), "said once");
    let board = table.cmd("carol", &format!("/board #{game}")).await;
    assert_eq!(moment(said(&board, "clock-out"), "since"), T0.0 + DAY);
    let reply = table.cmd(&late, &format!("/claim #{game}")).await;
    refused(&reply, |e| matches!(e, UserError::OwnTurn(_)));
    let reply = table.cmd(&waiting, &format!("/claim #{game}")).await;
    let result = said(&reply, "result-because");
    let (cause, verdict) = (sub(result, "cause"), sub(result, "verdict"));
    assert_eq!(
        (game_no(result, "game"), cause.id, people(cause, "people")),
        (game, "cause-time", vec![late.clone()]),
        "the late player ran out of time"
    );
    assert_eq!(
        (verdict.id, people(verdict, "people")),
        ("verdict-winner", vec![waiting.clone()]),
        "so the other wins"
    );
    let pot = said(&reply, "pot-taken");
    assert_eq!(
        (people(pot, "people"), coins(pot, "pot")),
        (vec![waiting.clone()], 200)
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
    assert_eq!(timed_out(&replies[0]).0, [late.as_str()]);
    // The late player moves before anyone claims: the move counts.
    let mut lcg = Lcg(3);
    let (mover, reply) = table.random_move(game, &mut lcg).await.expect("a move");
    assert_eq!(mover, late);
    assert_eq!(
        clock_left(&reply, DAY),
        (true, T0.0 + 2 * DAY + HOUR),
        "the other's clock: 1 day left, until January 12 at 1 PM"
    );
    let reply = table.cmd(&waiting, &format!("/claim #{game}")).await;
    refused(&reply, |e| matches!(e, UserError::OwnTurn(_)));
    let reply = table.cmd(&late, &format!("/claim #{game}")).await;
    assert!(
        matches!(
            reply.refusal(),
            Some(UserError::TooEarly { game: g, name, left, .. })
                if *g == game && *name == waiting.to_uppercase() && *left == DAY
        ),
        "the other still has 1 day: {:?}",
        reply.kind
    );
    // The new turn has its own reminder and time-out.
    table.clock.advance(12 * HOUR + MINUTE);
    let replies = table.tick().await;
    assert_eq!(replies.len(), 1);
    assert_eq!(
        reminder(&replies[0], 12 * HOUR - MINUTE).0,
        [waiting.as_str()]
    );
    table.clock.advance(12 * HOUR);
    let replies = table.tick().await;
    assert_eq!(replies.len(), 1);
    assert_eq!(timed_out(&replies[0]).0, [waiting.as_str()]);
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
    let taken = said(&reply, "vacation-taken");
    assert_eq!(
        (
            people(taken, "person"),
            moment(taken, "from"),
            moment(taken, "until"),
            is_duration(taken, "time", 2 * DAY),
        ),
        (vec![late.clone()], T0.0 + HOUR, T0.0 + 2 * DAY + HOUR, true),
        "on vacation from now for 2 days"
    );
    assert_eq!((num(taken, "days"), num(taken, "quota")), (2, 5));
    let board = table.cmd(&waiting, &format!("/board #{game}")).await;
    assert_eq!(
        clock_left(&board, 2 * DAY + 23 * HOUR),
        (true, T0.0 + 3 * DAY),
        "2 days 23 hours left, until January 13 at noon"
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
    assert_eq!(reminder(&replies[0], 12 * HOUR - MINUTE).0, [late.as_str()]);

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
    let status = said(&reply, "vacation-status");
    assert_eq!(
        (
            people(status, "person"),
            num(status, "used"),
            num(status, "quota")
        ),
        (vec![late.clone()], 2, 5),
        "2 of 5 vacation days taken this month"
    );

    // The late player moves; the waiting one is on vacation, so their clock starts when it
    // ends.
    // Now is January 13, 12:01 AM: the vacation lasts until January 14, 12:01 AM.
    let vacation_end = T0.0 + 3 * DAY + 12 * HOUR + MINUTE;
    let reply = table.cmd(&waiting, "/vacation 1").await;
    assert_eq!(
        moment(said(&reply, "vacation-taken"), "until"),
        vacation_end
    );
    let mut lcg = Lcg(5);
    let (_, reply) = table.random_move(game, &mut lcg).await.expect("a move");
    let starts = said(&reply, "clock-vacation");
    assert_eq!(
        (moment(starts, "start"), is_duration(starts, "time", DAY)),
        (vacation_end, true),
        "the clock starts when the vacation ends, then 1 day to move"
    );
    let record = table.record(game).await;
    let clock = record.clock.expect("a clock");
    assert_eq!(clock.started_at.0, T0.0 + 3 * DAY + 12 * HOUR + MINUTE);
    assert_eq!(clock.deadline_at.0, clock.started_at.0 + DAY);

    // A new month brings new days.
    table.clock.advance(22 * DAY);
    let reply = table.cmd(&late, "/vacation 5").await;
    let taken = said(&reply, "vacation-taken");
    assert_eq!((num(taken, "days"), num(taken, "quota")), (5, 5));
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
        let replies = table.tick().await;
        store.close().await;
        replies
    };
    assert_eq!(reminded.len(), 1, "{:?}", texts(&reminded));
    assert_eq!(reminder(&reminded[0], 11 * HOUR).1, game);
    let store = connect(&url).await;
    let table = Table::with_clock(store.clone(), 7, clock.clone());
    assert!(table.tick().await.is_empty(), "not reminded again");
    let (late, waiting) = sides(&table, game).await;
    store.close().await;
    clock.advance(12 * HOUR);
    let store = connect(&url).await;
    let table = Table::with_clock(store.clone(), 8, clock.clone());
    let replies = table.tick().await;
    assert_eq!(replies.len(), 1, "{:?}", texts(&replies));
    assert_eq!(timed_out(&replies[0]).0, [late.as_str()]);
    store.close().await;
    let store = connect(&url).await;
    let table = Table::with_clock(store.clone(), 9, clock.clone());
    assert!(table.tick().await.is_empty(), "not announced again");
    let reply = table.cmd(&waiting, &format!("/claim #{game}")).await;
    let pot = said(&reply, "pot-taken");
    assert_eq!(
        (people(pot, "people"), coins(pot, "pot")),
        (vec![waiting.clone()], 100)
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
    let replies = table.tick().await;
    assert_eq!(replies.len(), 1, "{:?}", texts(&replies));
    assert_eq!(timed_out(&replies[0]).1, game);
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
            let replies: Vec<_> = instance
                .tick()
                .await
                .iter()
                .map(|reply| reminder(reply, 11 * HOUR))
                .collect();
            instance.store().close().await;
            replies
        }));
    }
    let mut all = Vec::new();
    for task in tasks {
        all.extend(task.await.expect("scheduler task"));
    }
    all.sort();
    let mut expected = Vec::new();
    for game in &games {
        let (actor, _) = sides(&table, *game).await;
        expected.push((vec![actor], *game, true, T0.0 + DAY));
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
    assert_eq!(reminder(&reply, 11 * HOUR).0, [late]);
    drop(receiver);
    tokio::time::timeout(std::time::Duration::from_secs(30), task)
        .await
        .expect("the scheduler stops when nobody listens")
        .expect("the scheduler task");
    store.close().await;
}
