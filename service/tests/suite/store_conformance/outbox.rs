//! The outbox: rows written with the claims that cause them, claims per chat with pacing and
//! leases, retries, board messages, and racing dispatchers delivering each row once.

use super::fixtures::*;

async fn claim_ids(store: &Store, owner: &str, now: Timestamp, limit: i64) -> Vec<OutboxId> {
    store
        .claim_outbox(owner, now, MINUTE, limit)
        .await
        .expect("claim outbox")
        .into_iter()
        .map(|row| row.id)
        .collect()
}

async fn outbox_row(store: &Store, id: OutboxId) -> OutboxRow {
    store
        .outbox_row(id)
        .await
        .expect("outbox row")
        .expect("row exists")
}

pub async fn due_claims_write_their_outbox_rows(store: &Store) {
    let (room, [ann, bob]) = chat_with(store, "room", ["ann", "bob"]).await;
    let seats = [ann.id, bob.id];
    let game = create(
        store,
        &NewGame {
            turn: Some(TurnStart {
                user: ann.id,
                at: T0,
            }),
            ..game_in(&room, &seats)
        },
    )
    .await;
    let half = T0.plus_millis(DAY / 2);
    let deadline = T0.plus_millis(DAY);
    let claim = |due: Due, now: Timestamp| async move {
        store
            .claim_due_to_outbox(due, now, 10, &|_| None)
            .await
            .expect("claim")
    };
    assert_eq!(claim(Due::Reminder, half.plus_millis(-1)).await, vec![]);
    assert!(store.outbox_rows(room.id).await.expect("rows").is_empty());
    assert_eq!(claim(Due::Reminder, half).await, vec![game.id]);
    assert_eq!(claim(Due::Reminder, half).await, vec![], "claimed once");
    let rows = store.outbox_rows(room.id).await.expect("rows");
    assert_eq!(rows.len(), 1, "one row per claim: {rows:?}");
    let reminder = &rows[0];
    assert_eq!(
        (
            reminder.kind,
            reminder.platform,
            reminder.chat,
            reminder.game,
            reminder.platform_chat_id.as_str()
        ),
        (
            OutboxKind::Reminder,
            Platform::Local,
            room.id,
            Some(game.id),
            "room"
        )
    );
    assert_eq!(
        reminder.payload,
        format!(
            r#"{{"game":{},"seq":0,"user":{},"deadline":{}}}"#,
            game.id, ann.id, deadline.0
        )
    );
    assert_eq!(
        (
            reminder.created_at,
            reminder.next_attempt_at,
            reminder.attempts
        ),
        (half, half, 0)
    );
    assert_eq!(
        (
            reminder.sent_at,
            reminder.dropped_at,
            reminder.lease_owner.as_deref()
        ),
        (None, None, None)
    );
    // The plain claim still works and writes nothing to the outbox.
    assert_eq!(
        store
            .claim_due(Due::Timeout, deadline, 10)
            .await
            .expect("claim"),
        vec![game.id]
    );
    assert_eq!(store.outbox_rows(room.id).await.expect("rows").len(), 1);
    assert_eq!(claim(Due::Timeout, deadline).await, vec![]);

    // A time-out of another game, and an expired challenge, each write one row.
    let other = create(
        store,
        &NewGame {
            turn: Some(TurnStart {
                user: bob.id,
                at: T0,
            }),
            ..game_in(&room, &seats)
        },
    )
    .await;
    assert_eq!(claim(Due::Timeout, deadline).await, vec![other.id]);
    assert_eq!(claim(Due::Timeout, deadline).await, vec![]);
    let challenge = store
        .create_challenge(&NewChallenge {
            chat: room.id,
            game: GameId::Konane,
            options: "",
            challenger: ann.id,
            invited: &[bob.id],
            expires_at: T0,
            stake: 0,
            move_millis: DAY,
            computer: None,
            dice_seed: None,
            rated: true,
        })
        .await
        .expect("challenge");
    let expired = store
        .expire_challenges_to_outbox(T0.plus_millis(1))
        .await
        .expect("expire");
    assert_eq!(
        expired.iter().map(|c| (c.id, c.status)).collect::<Vec<_>>(),
        vec![(challenge.id, ChallengeStatus::Expired)]
    );
    assert!(
        store
            .expire_challenges_to_outbox(T0.plus_millis(2))
            .await
            .expect("expire")
            .is_empty()
    );
    let rows = store.outbox_rows(room.id).await.expect("rows");
    let kinds: Vec<_> = rows
        .iter()
        .map(|row| (row.kind, row.game, row.payload.clone()))
        .collect();
    assert_eq!(
        kinds[1..],
        [
            (
                OutboxKind::Timeout,
                Some(other.id),
                format!(
                    r#"{{"game":{},"seq":0,"user":{},"deadline":{}}}"#,
                    other.id, bob.id, deadline.0
                )
            ),
            (
                OutboxKind::Expired,
                None,
                format!(r#"{{"challenge":{}}}"#, challenge.id)
            ),
        ]
    );
}

pub async fn outbox_claims_the_head_of_each_chat_with_pacing_and_leases(store: &Store) {
    let (one, two) = (chat(store, "one").await, chat(store, "two").await);
    let a1 = enqueue(store, &new_outbox(&one, None, OutboxKind::Text, "a1", T0)).await;
    let a2 = enqueue(store, &new_outbox(&one, None, OutboxKind::Text, "a2", T0)).await;
    let b1 = enqueue(store, &new_outbox(&two, None, OutboxKind::Text, "b1", T0)).await;
    let later = enqueue(
        store,
        &new_outbox(&two, None, OutboxKind::Text, "b2", T0.plus_millis(HOUR)),
    )
    .await;

    assert_eq!(claim_ids(store, "x", T0.plus_millis(-1), 10).await, vec![]);
    // Only the head of each chat, and one row per chat.
    let claimed = store
        .claim_outbox("x", T0, MINUTE, 10)
        .await
        .expect("claim");
    assert_eq!(
        claimed.iter().map(|row| row.id).collect::<Vec<_>>(),
        vec![a1, b1]
    );
    assert_eq!(claimed[0].attempts, 1);
    assert_eq!(claimed[0].lease_owner.as_deref(), Some("x"));
    assert_eq!(claimed[0].lease_until, Some(T0.plus_millis(MINUTE)));
    // Leased heads hold back their chats.
    assert_eq!(claim_ids(store, "y", T0, 10).await, vec![]);
    // Sent by another owner: refused.
    assert!(
        !store
            .outbox_sent(a1, "y", Some("m1"), T0, 1000)
            .await
            .expect("sent")
    );
    assert!(
        store
            .outbox_sent(a1, "x", Some("m1"), T0, 1000)
            .await
            .expect("sent")
    );
    assert!(
        !store
            .outbox_sent(a1, "x", Some("m1"), T0, 1000)
            .await
            .expect("sent twice"),
        "marked once"
    );
    let sent = outbox_row(store, a1).await;
    assert_eq!(
        (sent.sent_at, sent.message_id.as_deref(), sent.lease_owner),
        (Some(T0), Some("m1"), None)
    );
    // Chat one is paced for a second; b1 is still leased.
    assert_eq!(claim_ids(store, "y", T0.plus_millis(999), 10).await, vec![]);
    assert_eq!(
        claim_ids(store, "y", T0.plus_millis(1000), 10).await,
        vec![a2]
    );
    // The lease of b1 expires: another owner claims it again (at least once), and the
    // first owner can no longer mark it.
    let lease_end = T0.plus_millis(MINUTE);
    assert_eq!(
        claim_ids(store, "z", lease_end.plus_millis(-1), 10).await,
        vec![]
    );
    let again = store
        .claim_outbox("z", lease_end, MINUTE, 10)
        .await
        .expect("claim");
    assert_eq!(
        again
            .iter()
            .map(|row| (row.id, row.attempts))
            .collect::<Vec<_>>(),
        vec![(b1, 2)],
        "a2's lease (claimed later) still runs"
    );
    assert!(
        !store
            .outbox_sent(b1, "x", None, lease_end, 0)
            .await
            .expect("sent")
    );
    assert!(
        store
            .outbox_sent(b1, "z", None, lease_end, 0)
            .await
            .expect("sent")
    );
    assert!(
        store
            .outbox_drop(a2, "y", "no longer applies")
            .await
            .expect("drop")
    );
    let dropped = outbox_row(store, a2).await;
    assert!(dropped.dropped_at.is_some());
    assert_eq!(dropped.last_error.as_deref(), Some("no longer applies"));
    // b2 is not due before its time; a limit takes the earliest due.
    assert_eq!(claim_ids(store, "z", lease_end, 10).await, vec![]);
    let c1 = enqueue(
        store,
        &new_outbox(&one, None, OutboxKind::Text, "a3", T0.plus_millis(HOUR)),
    )
    .await;
    assert_eq!(
        claim_ids(store, "z", T0.plus_millis(HOUR), 1).await,
        vec![later]
    );
    // An inactive chat is skipped until someone writes in it again.
    store
        .set_chat_inactive(one.id, true, T0)
        .await
        .expect("inactive");
    assert!(
        store
            .chat(one.id)
            .await
            .expect("chat")
            .expect("chat")
            .inactive_at
            .is_some()
    );
    assert_eq!(
        claim_ids(store, "z", T0.plus_millis(HOUR), 10).await,
        vec![]
    );
    let back = store
        .upsert_chat(Platform::Local, "one", "one", None)
        .await
        .expect("upsert");
    assert_eq!(back.inactive_at, None, "someone wrote: active again");
    assert_eq!(
        claim_ids(store, "z", T0.plus_millis(HOUR), 10).await,
        vec![c1]
    );
}

pub async fn outbox_failure_is_retried_later_while_other_chats_go_on(store: &Store) {
    let (one, two) = (chat(store, "one").await, chat(store, "two").await);
    let failing = enqueue(store, &new_outbox(&one, None, OutboxKind::Text, "a1", T0)).await;
    let behind = enqueue(store, &new_outbox(&one, None, OutboxKind::Text, "a2", T0)).await;
    let mut others = Vec::new();
    for index in 0..3 {
        let payload = format!("b{index}");
        others.push(
            enqueue(
                store,
                &new_outbox(&two, None, OutboxKind::Text, &payload, T0),
            )
            .await,
        );
    }
    assert_eq!(
        claim_ids(store, "x", T0, 10).await,
        vec![failing, others[0]]
    );
    let retry_at = T0.plus_millis(5000);
    assert!(
        store
            .outbox_failed(failing, "x", retry_at, "503 from the platform")
            .await
            .expect("failed")
    );
    assert!(
        store
            .outbox_sent(others[0], "x", None, T0, 0)
            .await
            .expect("sent")
    );
    let row = outbox_row(store, failing).await;
    assert_eq!(
        (
            row.next_attempt_at,
            row.last_error.as_deref(),
            row.lease_owner,
            row.attempts
        ),
        (retry_at, Some("503 from the platform"), None, 1)
    );
    // The other chat goes on; the failing one, in order, waits for its retry.
    let mut now = T0;
    for other in &others[1..] {
        now = now.plus_millis(1000);
        assert_eq!(claim_ids(store, "x", now, 10).await, vec![*other]);
        assert!(
            store
                .outbox_sent(*other, "x", None, now, 0)
                .await
                .expect("sent")
        );
    }
    assert_eq!(
        claim_ids(store, "x", retry_at.plus_millis(-1), 10).await,
        vec![]
    );
    let retried = store
        .claim_outbox("x", retry_at, MINUTE, 10)
        .await
        .expect("claim");
    assert_eq!(
        retried
            .iter()
            .map(|row| (row.id, row.attempts))
            .collect::<Vec<_>>(),
        vec![(failing, 2)]
    );
    assert!(
        store
            .outbox_sent(failing, "x", Some("m"), retry_at, 0)
            .await
            .expect("sent")
    );
    assert_eq!(claim_ids(store, "x", retry_at, 10).await, vec![behind]);
}

pub async fn a_newer_board_turns_waiting_boards_into_text(store: &Store) {
    let (game, _, _) = konane(store).await;
    let room = store.chat(game.chat).await.expect("chat").expect("chat");
    let board = |payload| new_outbox(&room, Some(game.id), OutboxKind::Board, payload, T0);
    let leased = enqueue(store, &board("one")).await;
    assert_eq!(claim_ids(store, "x", T0, 10).await, vec![leased]);
    let waiting = enqueue(store, &board("two")).await;
    let newest = enqueue(store, &board("three")).await;
    let rows = store.outbox_rows(room.id).await.expect("rows");
    let kinds: Vec<_> = rows
        .iter()
        .map(|row| (row.id, row.kind, row.payload.as_str()))
        .collect();
    assert_eq!(
        kinds,
        vec![
            (leased, OutboxKind::Board, "one"),
            (waiting, OutboxKind::Text, "two"),
            (newest, OutboxKind::Board, "three"),
        ],
        "the leased board is in flight and stays; the waiting one keeps its text"
    );
    // Boards of another game are not touched.
    let (other, _, _) = konane(store).await;
    enqueue(
        store,
        &new_outbox(&room, Some(other.id), OutboxKind::Board, "other", T0),
    )
    .await;
    let rows = store.outbox_rows(room.id).await.expect("rows");
    assert_eq!(rows[2].kind, OutboxKind::Board);
}

pub async fn racing_dispatchers_deliver_each_row_once(store: &Store) {
    const CHATS: usize = 12;
    const ROWS: usize = 8;
    const CLAIMERS: usize = 4;
    let mut all = Vec::new();
    for index in 0..CHATS {
        let room = chat(store, &format!("room{index}")).await;
        for row in 0..ROWS {
            let payload = format!("{index}/{row}");
            all.push(
                enqueue(
                    store,
                    &new_outbox(&room, None, OutboxKind::Text, &payload, T0),
                )
                .await,
            );
        }
    }
    let barrier = Arc::new(tokio::sync::Barrier::new(CLAIMERS));
    let tasks: Vec<_> = (0..CLAIMERS)
        .map(|claimer| {
            let (store, barrier) = (store.clone(), Arc::clone(&barrier));
            tokio::spawn(async move {
                let owner = format!("claimer{claimer}");
                barrier.wait().await;
                let mut mine = Vec::new();
                loop {
                    let claimed = store
                        .claim_outbox(&owner, T0, 10 * MINUTE, 5)
                        .await
                        .expect("claim");
                    if claimed.is_empty() {
                        return mine;
                    }
                    for row in claimed {
                        assert!(
                            store
                                .outbox_sent(row.id, &owner, None, T0, 0)
                                .await
                                .expect("sent"),
                            "{owner} lost row {} it had claimed",
                            row.id
                        );
                        mine.push((row.chat, row.id));
                    }
                }
            })
        })
        .collect();
    let mut delivered = Vec::new();
    for task in tasks {
        delivered.extend(task.await.expect("task"));
    }
    let mut ids: Vec<OutboxId> = delivered.iter().map(|(_, id)| *id).collect();
    ids.sort();
    assert_eq!(ids, all, "every row exactly once");
    // In order within each chat: every claimer saw each chat's rows in id order, and
    // they were sent one after the other.
    let mut by_chat: BTreeMap<tabula_service::store::ChatId, Vec<OutboxRow>> = BTreeMap::new();
    for (chat, _) in &delivered {
        if !by_chat.contains_key(chat) {
            by_chat.insert(*chat, store.outbox_rows(*chat).await.expect("rows"));
        }
    }
    for rows in by_chat.values() {
        assert!(
            rows.iter()
                .all(|row| row.sent_at.is_some() && row.attempts == 1)
        );
    }
    assert_eq!(claim_ids(store, "late", T0, 100).await, vec![]);
}
