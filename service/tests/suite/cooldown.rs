//! The per-person cooldown against flooding a chat through the bot (issue 14, item 22): after
//! five refusals within a minute, further refusals to that person get no answer (`None`; an
//! adapter acknowledges a button press silently) for two minutes; others are answered as
//! always, and so are the person's requests that succeed.

use crate::common;

use common::SqliteFile;
use common::connect;
use common::table::{T0, Table, scripted_dice, text};
use tabula_service::service::{Clock, Cooldown, Kind, Service};

fn table(store: tabula_service::store::Store) -> Table {
    let clock = Clock::manual(T0);
    Table::with_service(
        Service::new(store, scripted_dice(41))
            .with_pictures(false)
            .with_cooldown(Some(Cooldown::default()))
            .with_clock(clock.clone()),
        clock,
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_refusals_goes_quiet_for_a_while() {
    let file = SqliteFile::new();
    let store = connect(&file.url()).await;
    let table = table(store.clone());

    // Five refusals within a minute are answered, to the person alone.
    for i in 0..5 {
        let reply = table.send_maybe(&table.command("mallory", "/accept")).await;
        let Some(reply) = reply else {
            panic!("refusal {i} should be answered");
        };
        assert!(matches!(reply.kind, Kind::Refused(_)), "{:?}", reply.kind);
        table.clock.advance(5_000);
    }
    // The sixth gets no answer, typed or pressed; nor do more, for a while.
    assert!(
        table
            .send_maybe(&table.command("mallory", "/accept"))
            .await
            .is_none()
    );
    assert!(
        table
            .send_maybe(&table.button("mallory", "zz"))
            .await
            .is_none()
    );
    table.clock.advance(60_000);
    assert!(
        table
            .send_maybe(&table.command("mallory", "/move a1"))
            .await
            .is_none()
    );

    // Someone else is answered as always.
    let reply = table.send_maybe(&table.command("carol", "/accept")).await;
    assert!(matches!(reply.map(|r| r.kind), Some(Kind::Refused(_))));
    // What succeeds is answered even while quiet.
    let reply = table.cmd("mallory", "/play konane").await;
    assert!(reply.is_done(), "{:?}: {}", reply.kind, text(&reply));
    let reply = table.cmd("mallory", "/wallet").await;
    assert!(reply.is_done());

    // Two minutes after going quiet, refusals are answered again.
    table.clock.advance(61_000);
    let reply = table.send_maybe(&table.command("mallory", "/accept")).await;
    assert!(
        matches!(reply.as_ref().map(|r| &r.kind), Some(Kind::Refused(_))),
        "{reply:?}"
    );
    store.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refusals_spread_over_time_are_all_answered() {
    let file = SqliteFile::new();
    let store = connect(&file.url()).await;
    let table = table(store.clone());
    for i in 0..20 {
        let reply = table.send_maybe(&table.command("mallory", "/accept")).await;
        assert!(reply.is_some(), "refusal {i} should be answered");
        table.clock.advance(15_000);
    }
    store.close().await;
}
