//! The durable outbox through the service (issue 13): what the scheduler claims is written to
//! the outbox with its claim; a process that took a row and died before sending it leaves it to
//! be delivered once its lease ends, exactly once; a reminder whose turn was played meanwhile
//! is dropped; replies of the outbox carry their address, game and the people to notify.

use crate::common;

use std::time::Duration;

use common::connect;
use common::table::{HOUR, T0, Table, start};
use tabula_service::service::{Clock, Kind};
use tabula_service::store::DatabaseUrl;

on_both_databases! {
    a_message_taken_by_a_dead_process_is_delivered_after_its_lease => taken_by_the_dead;
    a_reminder_for_a_turn_already_played_is_dropped => stale_reminder;
}

async fn taken_by_the_dead(url: DatabaseUrl) {
    let store = connect(&url).await;
    let table = Table::with_clock(store.clone(), 7, Clock::manual(T0));
    let game = start(&table, "alice", "bob", "konane time=2d").await;
    let (_, to_move) = table.state(game).await;
    let to_move = to_move.expect("someone to move");

    table.clock.advance(25 * HOUR);
    let written = table.service.schedule().await.expect("schedule");
    assert_eq!(written, 1, "one reminder written with its claim");
    // Scheduling again writes nothing more.
    assert_eq!(table.service.schedule().await.expect("schedule"), 0);

    // A process takes the row and dies before sending it.
    let taken = table
        .service
        .take_outbox("dead-process", Duration::from_secs(60), 10)
        .await
        .expect("take");
    assert_eq!(taken.len(), 1);
    assert!(taken[0].1.is_some(), "the reminder still applies");
    // While its lease runs, nobody else delivers it.
    assert!(table.tick().await.is_empty());

    table.clock.advance(61_000);
    let replies = table.tick().await;
    assert_eq!(replies.len(), 1, "delivered after the lease");
    let reply = &replies[0];
    assert_eq!(reply.kind, Kind::Done);
    assert_eq!(reply.game, Some(game));
    assert_eq!(reply.address.chat, "chat1");
    assert_eq!(reply.notify, vec![to_move.clone()]);
    // Exactly once.
    assert!(table.tick().await.is_empty());
    let late = table
        .service
        .take_outbox("dead-process", Duration::from_secs(60), 10)
        .await
        .expect("take");
    assert!(late.is_empty());
    store.close().await;
}

async fn stale_reminder(url: DatabaseUrl) {
    let store = connect(&url).await;
    let table = Table::with_clock(store.clone(), 8, Clock::manual(T0));
    let game = start(&table, "alice", "bob", "konane time=2d").await;
    table.clock.advance(25 * HOUR);
    assert_eq!(table.service.schedule().await.expect("schedule"), 1);
    // The player moves before the reminder is delivered.
    let mut lcg = common::table::Lcg(3);
    assert!(table.random_move(game, &mut lcg).await.is_some());
    assert!(
        table.tick().await.is_empty(),
        "a reminder for a turn already played is not sent"
    );
    store.close().await;
}
