//! Challenges wait as long as the games do (issue 37, item 4), on SQLite and PostgreSQL: a
//! challenge naming people waits as long as its time per move, a day at least; an open one
//! as long as the community's `open_wait` (a day unless moderators change it); the operator
//! may shorten both (`TABULA_CHALLENGE_SECONDS`); the message says until when.

use crate::common;

use common::connect;
use common::said::{moment, said};
use common::table::{T0, Table, challenge_no, text};
use tabula_service::service::{Clock, Reply, Service, UserError};
use tabula_service::store::{ChallengeNo, DatabaseUrl};

on_both_databases! {
    a_challenge_waits_as_long_as_its_time_per_move_and_an_open_one_as_moderators_say => waits;
}

const HOUR: i64 = 3_600_000;
const DAY: i64 = 24 * HOUR;

/// When the challenge a reply made expires, as stored and as its message says.
async fn expiry(table: &Table, reply: &Reply) -> i64 {
    let no = challenge_no(reply);
    let stored = table
        .store()
        .challenge(ChallengeNo(no))
        .await
        .expect("store")
        .expect("a challenge")
        .expires_at;
    assert_eq!(
        moment(said(reply, "challenge-until"), "until"),
        stored.0,
        "the message says until when: {}",
        text(reply)
    );
    stored.0
}

async fn waits(url: DatabaseUrl) {
    let store = connect(&url).await;
    let clock = Clock::manual(T0);
    let table = Table::with_clock(store.clone(), 12, clock.clone());
    let now = T0.0;

    // Named: its time per move, the community's default (3 days) or its own, a day at least.
    let named = table.cmd("alice", "/play konane @bob").await;
    assert_eq!(expiry(&table, &named).await, now + 3 * DAY);
    let week = table.cmd("alice", "/play koan @bob time=7d").await;
    assert_eq!(expiry(&table, &week).await, now + 7 * DAY);
    let short = table.cmd("alice", "/play kolowis @bob time=2h").await;
    assert_eq!(expiry(&table, &short).await, now + DAY, "a day at least");

    // Open: a day, until moderators choose otherwise.
    let open = table.cmd("carol", "/play konane").await;
    assert_eq!(expiry(&table, &open).await, now + DAY);
    let refused = table.cmd("carol", "/config open_wait=2h").await;
    assert_eq!(
        refused.refusal().map(std::mem::discriminant),
        Some(std::mem::discriminant(&UserError::NotModerator(
            tabula_service::service::ModeratorAction::ChangeSettings
        )))
    );
    let bad = table.cmd("mod", "/config open_wait=soon").await;
    assert!(
        matches!(bad.refusal(), Some(UserError::BadSetting(_))),
        "{}",
        text(&bad)
    );
    let set = table.cmd("mod", "/config open_wait=2h").await;
    assert!(set.is_done(), "{}", text(&set));
    assert!(
        text(&set).contains("open_wait=2h"),
        "/config shows it: {}",
        text(&set)
    );
    let open = table.cmd("dave", "/play koan").await;
    assert_eq!(expiry(&table, &open).await, now + 2 * HOUR);

    // It expires then: the challenger is told, and it can no longer be accepted.
    clock.advance(2 * HOUR + 1);
    let ticked = table.tick().await;
    assert!(
        ticked.iter().any(|r| r.says("challenge-expired").is_some()),
        "{:?}",
        ticked.iter().map(text).collect::<Vec<_>>()
    );

    // The operator's limit shortens every wait.
    let capped = Table::with_service(
        Service::new(store.clone(), common::table::scripted_dice(13))
            .with_pictures(false)
            .with_cooldown(None)
            .with_clock(clock.clone())
            .with_challenge_ttl(std::time::Duration::from_secs(600)),
        clock.clone(),
    );
    let later = clock.now().0;
    let named = capped.cmd("erin", "/play konane @frank").await;
    assert_eq!(expiry(&capped, &named).await, later + 600_000);
    store.close().await;
}
