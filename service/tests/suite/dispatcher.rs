//! The outbox dispatcher over a real store (a SQLite file, and PostgreSQL when asked for) with a
//! fake platform: rows of different chats are delivered concurrently, a failing chat is
//! retried after its back-off without holding back the others, and a chat that is gone is
//! marked inactive.

use crate::common;

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tabula_service::dispatch::{
    Cause, Deliver, Delivered, DeliveryError, DispatchSettings, Dispatcher, Report,
};
use tabula_service::store::{
    Chat, DatabaseUrl, NewOutbox, OutboxId, OutboxKind, OutboxRow, Platform, Store, Timestamp,
};

/// A platform whose chats can be made to fail, or to be gone.
#[derive(Debug, Default)]
struct FakePlatform {
    failing: Mutex<HashSet<String>>,
    gone: Mutex<HashSet<String>>,
    /// (chat, payload) of every message it accepted, in order.
    sent: Mutex<Vec<(String, String)>>,
    /// How many attempts each chat saw.
    attempts: Mutex<HashMap<String, usize>>,
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Deliver for FakePlatform {
    async fn deliver(&self, row: &OutboxRow) -> Result<Delivered, DeliveryError> {
        let chat = row.platform_chat_id.clone();
        *lock(&self.attempts).entry(chat.clone()).or_default() += 1;
        if lock(&self.gone).contains(&chat) {
            return Err(DeliveryError::Gone {
                reason: "bot was kicked".into(),
            });
        }
        if lock(&self.failing).contains(&chat) {
            return Err(DeliveryError::Retry {
                after: None,
                reason: "502 bad gateway".into(),
                cause: Cause::Server,
            });
        }
        if row.payload == "stale" {
            return Err(DeliveryError::Drop {
                reason: "turn already played".into(),
            });
        }
        let mut sent = lock(&self.sent);
        sent.push((chat, row.payload.clone()));
        Ok(Delivered {
            message_id: Some(format!("m{}", sent.len())),
        })
    }
}

fn settings() -> DispatchSettings {
    DispatchSettings {
        lease: Duration::from_secs(10),
        batch: 8,
        poll: Duration::from_millis(20),
        pace: HashMap::new(),
        default_pace: Duration::ZERO,
        backoff_first: Duration::from_millis(200),
        backoff_max: Duration::from_secs(1),
    }
}

async fn enqueue(store: &Store, chat: &Chat, payload: &str) -> OutboxId {
    store
        .enqueue_outbox(&NewOutbox {
            platform: chat.platform,
            chat: chat.id,
            game: None,
            kind: OutboxKind::Text,
            payload,
            now: Timestamp::now(),
            held: None,
        })
        .await
        .expect("enqueue")
}

/// Waits (up to ten seconds) until the condition (an expression that may `.await`) holds.
macro_rules! until {
    ($what:expr, $done:expr) => {{
        let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
        while !$done {
            assert!(
                tokio::time::Instant::now() < deadline,
                "timed out waiting: {}",
                $what
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }};
}

/// Whether every row of the chat is done with: sent, or dropped.
async fn all_sent(store: &Store, chat: &Chat) -> bool {
    store
        .outbox_rows(chat.id)
        .await
        .expect("rows")
        .iter()
        .all(|row| row.sent_at.is_some() || row.dropped_at.is_some())
}

async fn one_failing_chat_does_not_hold_back_the_others(url: DatabaseUrl) {
    let store = common::connect(&url).await;
    let mut chats = Vec::new();
    for name in ["ok1", "slow", "ok2", "kicked"] {
        chats.push(
            store
                .upsert_chat(Platform::Telegram, name, name, None)
                .await
                .expect("chat"),
        );
    }
    let [ok1, slow, ok2, kicked] = [&chats[0], &chats[1], &chats[2], &chats[3]];
    for chat in [ok1, slow, ok2] {
        for index in 0..3 {
            enqueue(&store, chat, &format!("{}-{index}", chat.platform_chat_id)).await;
        }
    }
    let stale = enqueue(&store, ok2, "stale").await;
    enqueue(&store, ok2, "ok2-after-stale").await;
    let first_kicked = enqueue(&store, kicked, "kicked-0").await;
    enqueue(&store, kicked, "kicked-1").await;

    let platform = Arc::new(FakePlatform::default());
    lock(&platform.failing).insert("slow".into());
    lock(&platform.gone).insert("kicked".into());
    let dispatcher = Dispatcher::builder()
        .deliver(Platform::Telegram, Arc::clone(&platform))
        .settings(settings())
        .build(store.clone());
    assert!(dispatcher.owner().starts_with("tabula-"));
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let running = {
        let dispatcher = dispatcher.clone();
        tokio::spawn(async move {
            dispatcher
                .run(async move {
                    let _ = stopped.await;
                })
                .await
        })
    };

    until!("the healthy chats are delivered", {
        all_sent(&store, ok1).await && all_sent(&store, ok2).await
    });
    let slow_rows = store.outbox_rows(slow.id).await.expect("rows");
    assert!(slow_rows.iter().all(|row| row.sent_at.is_none()));
    assert!(slow_rows[0].attempts >= 1);
    assert_eq!(slow_rows[0].last_error.as_deref(), Some("502 bad gateway"));
    assert!(
        slow_rows[1..].iter().all(|row| row.attempts == 0),
        "the rows behind a failing one wait: {slow_rows:?}"
    );
    let dropped = store.outbox_row(stale).await.expect("row").expect("row");
    assert!(dropped.dropped_at.is_some() && dropped.sent_at.is_none());

    until!("the kicked chat is marked inactive", {
        store
            .chat(kicked.id)
            .await
            .expect("chat")
            .is_some_and(|chat| chat.inactive_at.is_some())
    });
    let kicked_rows = store.outbox_rows(kicked.id).await.expect("rows");
    assert_eq!(kicked_rows[0].id, first_kicked);
    assert!(kicked_rows[0].dropped_at.is_some());
    assert_eq!(
        (kicked_rows[1].attempts, kicked_rows[1].dropped_at),
        (0, None),
        "the rest waits for the chat to come back"
    );

    // The platform recovers: the failing chat's rows go out after the back-off, in order.
    lock(&platform.failing).clear();
    until!("the failing chat is delivered", {
        all_sent(&store, slow).await
    });
    let slow_rows = store.outbox_rows(slow.id).await.expect("rows");
    assert!(slow_rows[0].attempts >= 2, "retried: {slow_rows:?}");
    assert!(slow_rows.iter().all(|row| row.message_id.is_some()));
    let sent = lock(&platform.sent).clone();
    let order = |chat: &str| -> Vec<String> {
        sent.iter()
            .filter(|(to, _)| to == chat)
            .map(|(_, payload)| payload.clone())
            .collect()
    };
    assert_eq!(order("slow"), vec!["slow-0", "slow-1", "slow-2"]);
    assert_eq!(order("ok1"), vec!["ok1-0", "ok1-1", "ok1-2"]);
    assert_eq!(
        order("ok2"),
        vec!["ok2-0", "ok2-1", "ok2-2", "ok2-after-stale"]
    );
    assert!(order("kicked").is_empty());
    assert!(
        lock(&platform.attempts)["slow"] >= 4,
        "three rows and at least one failure"
    );

    // Someone writes in the kicked chat again: its waiting row goes out.
    lock(&platform.gone).clear();
    store
        .upsert_chat(Platform::Telegram, "kicked", "kicked", None)
        .await
        .expect("chat");
    until!("the returning chat is delivered", {
        store.outbox_rows(kicked.id).await.expect("rows")[1]
            .sent_at
            .is_some()
    });

    let _ = stop.send(());
    let report: Report = running.await.expect("dispatcher");
    assert_eq!(report.sent, 3 + 3 + 4 + 1);
    assert_eq!((report.dropped, report.gone, report.lost), (1, 1, 0));
    assert!(report.retried >= 1);
    store.close().await;
}

/// A row claimed by a dispatcher that died is delivered by another once the lease expires.
async fn a_dead_dispatchers_rows_are_delivered_by_another(url: DatabaseUrl) {
    let store = common::connect(&url).await;
    let chat = store
        .upsert_chat(Platform::Discord, "c", "c", None)
        .await
        .expect("chat");
    let row = enqueue(&store, &chat, "hello").await;
    // The dead one claimed it with a short lease and never came back.
    let claimed = store
        .claim_outbox("dead", Timestamp::now(), 200, 10)
        .await
        .expect("claim");
    assert_eq!(claimed.len(), 1);
    let platform = Arc::new(FakePlatform::default());
    let dispatcher = Dispatcher::builder()
        .deliver(Platform::Discord, Arc::clone(&platform))
        .settings(settings())
        .owner("alive")
        .build(store.clone());
    assert_eq!(
        dispatcher.dispatch_once().await.expect("pass"),
        Report::default()
    );
    tokio::time::sleep(Duration::from_millis(250)).await;
    let report = dispatcher.dispatch_once().await.expect("pass");
    assert_eq!(report.sent, 1);
    let row = store.outbox_row(row).await.expect("row").expect("row");
    assert_eq!((row.attempts, row.message_id.as_deref()), (2, Some("m1")));
    assert!(
        !store
            .outbox_sent(row.id, "dead", None, Timestamp::now(), 0)
            .await
            .expect("late")
    );
    store.close().await;
}

/// Four dispatchers (four bot processes, in effect) share one database: every row of twelve
/// chats is delivered exactly once, and the rows of each chat in order.
async fn four_dispatchers_deliver_every_row_once(url: DatabaseUrl) {
    let store = common::connect(&url).await;
    let mut chats = Vec::new();
    for index in 0..12 {
        let chat = store
            .upsert_chat(Platform::Discord, &format!("four-{index}"), "c", None)
            .await
            .expect("chat");
        for row in 0..8 {
            enqueue(&store, &chat, &format!("{index}:{row}")).await;
        }
        chats.push(chat);
    }
    let platform = Arc::new(FakePlatform::default());
    let shutdown = tokio_util::sync::CancellationToken::new();
    let mut running = Vec::new();
    for owner in ["one", "two", "three", "four"] {
        let dispatcher = Dispatcher::builder()
            .deliver(Platform::Discord, Arc::clone(&platform))
            .settings(settings())
            .owner(owner)
            .build(store.clone());
        let shutdown = shutdown.clone();
        running.push(tokio::spawn(async move {
            dispatcher.run(shutdown.cancelled()).await
        }));
    }
    for chat in &chats {
        until!("every row sent", all_sent(&store, chat).await);
    }
    shutdown.cancel();
    let mut reports = Vec::new();
    for handle in running {
        reports.push(handle.await.expect("a dispatcher"));
    }
    let sent = lock(&platform.sent).clone();
    assert_eq!(sent.len(), 12 * 8, "each row once: {sent:?}");
    for index in 0..12 {
        let rows: Vec<&str> = sent
            .iter()
            .filter(|(chat, _)| *chat == format!("four-{index}"))
            .map(|(_, payload)| payload.as_str())
            .collect();
        let expected: Vec<String> = (0..8).map(|row| format!("{index}:{row}")).collect();
        assert_eq!(rows, expected, "chat {index} in order");
    }
    assert!(
        reports.iter().filter(|r| r.sent > 0).count() >= 2,
        "the work was shared: {reports:?}"
    );
    store.close().await;
}

on_both_databases! {
    one_failing_chat_does_not_hold_back_the_others => one_failing_chat_does_not_hold_back_the_others;
    a_dead_dispatchers_rows_are_delivered_by_another => a_dead_dispatchers_rows_are_delivered_by_another;
    four_dispatchers_deliver_every_row_once => four_dispatchers_deliver_every_row_once;
}

#[test]
fn backoff_doubles_up_to_its_cap_and_honours_the_platform() {
    let settings = DispatchSettings::default();
    let seconds = |attempts| settings.backoff(attempts, None).as_secs();
    assert_eq!(
        [
            seconds(1),
            seconds(2),
            seconds(3),
            seconds(8),
            seconds(9),
            seconds(1000)
        ],
        [2, 4, 8, 256, 300, 300]
    );
    assert_eq!(
        settings.backoff(3, Some(Duration::from_secs(42))),
        Duration::from_secs(42)
    );
    assert_eq!(
        settings.pace_for(Platform::Telegram),
        Duration::from_secs(3)
    );
}
