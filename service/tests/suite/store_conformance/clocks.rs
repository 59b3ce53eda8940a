//! Clocks, vacations and the scheduler: a turn's deadline, vacations within the monthly quota,
//! endings on time, due games claimed once per turn, racing claims and vacations.

use super::fixtures::*;

/// January and February 2027 (UTC), as `[first moment, first moment of the next month)`.
const JANUARY: (Timestamp, Timestamp) =
    (Timestamp(1_798_761_600_000), Timestamp(1_801_440_000_000));

const FEBRUARY: (Timestamp, Timestamp) =
    (Timestamp(1_801_440_000_000), Timestamp(1_803_859_200_000));

/// The clock of a turn of `user` that starts at `started_at`, not yet claimed.
fn fresh_clock(user: UserId, started_at: Timestamp, move_millis: i64) -> TurnClock {
    TurnClock {
        user,
        started_at,
        remind_at: started_at.plus_millis(move_millis / 2),
        deadline_at: started_at.plus_millis(move_millis),
        reminded_at: None,
        timeout_announced_at: None,
    }
}

pub async fn a_turn_sets_its_clock_exactly(store: &Store) {
    // An odd time per move: the reminder comes at its half, rounded down.
    const MOVE: i64 = 90_001;
    let (room, [ann, bob]) = chat_with(store, "room", ["ann", "bob"]).await;
    let seats = [ann.id, bob.id];
    let game = create(
        store,
        &NewGame {
            move_millis: MOVE,
            turn: Some(TurnStart {
                user: ann.id,
                at: T0,
            }),
            ..game_in(&room, &seats)
        },
    )
    .await;
    assert_eq!(game.move_millis, MOVE);
    let first = fresh_clock(ann.id, T0, MOVE);
    assert_eq!(first.remind_at, Timestamp(T0.0 + 45_000));
    assert_eq!(first.deadline_at, Timestamp(T0.0 + 90_001));
    assert_eq!(game.clock, Some(first));
    let untimed = create(store, &game_in(&room, &seats)).await;
    assert_eq!(untimed.clock, None);

    let mut state = start(&game);
    let t1 = T0.plus_millis(MINUTE);
    let appended = advance(
        store,
        game.id,
        &mut state,
        ann.id,
        Append {
            turn: Some(TurnStart {
                user: bob.id,
                at: t1,
            }),
            ..Append::default()
        },
    )
    .await
    .expect("append");
    let second = fresh_clock(bob.id, t1, MOVE);
    assert_eq!(
        (appended.seq, appended.clock, appended.announced),
        (1, Some(second), None)
    );
    // Stamped when stored: the game's last change.
    assert_eq!(record(store, game.id).await.updated_at, appended.at);
    assert_eq!(record(store, game.id).await.clock, Some(second));

    // No turn: the clock stops.
    let stopped = advance(
        store,
        game.id,
        &mut state,
        bob.id,
        Append {
            expected_seq: 1,
            ..Append::default()
        },
    )
    .await
    .expect("append");
    assert_eq!(stopped.clock, None);
    assert_eq!(record(store, game.id).await.clock, None);

    let t3 = T0.plus_millis(HOUR);
    let restarted = advance(
        store,
        game.id,
        &mut state,
        bob.id,
        Append {
            expected_seq: 2,
            turn: Some(TurnStart {
                user: ann.id,
                at: t3,
            }),
            ..Append::default()
        },
    )
    .await
    .expect("append");
    assert_eq!(restarted.clock, Some(fresh_clock(ann.id, t3, MOVE)));

    // The move that finishes the game stops the clock, turn or not.
    let last = advance(
        store,
        game.id,
        &mut state,
        ann.id,
        Append {
            expected_seq: 3,
            finish: Some("ann wins"),
            turn: Some(TurnStart {
                user: bob.id,
                at: t3.plus_millis(MINUTE),
            }),
            ..Append::default()
        },
    )
    .await
    .expect("append");
    assert_eq!(last.clock, None);
    let finished = record(store, game.id).await;
    assert_eq!(finished.status, GameStatus::Finished);
    assert_eq!(finished.clock, None);

    // And a game ended outside an append.
    let other = create(
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
    assert!(other.clock.is_some());
    let ended = store
        .end_game(other.id, &ending(GameEnd::Aborted, "stopped"))
        .await
        .expect("end");
    assert_eq!(ended.clock, None);
}

pub async fn a_turn_during_a_vacation_starts_when_it_ends(store: &Store) {
    let room = chat(store, "room").await;
    let elsewhere = chat(store, "elsewhere").await;
    let [ann, bob] = people(store, ["ann", "bob"]).await;
    let seats = [ann.id, bob.id];
    let vacation = store
        .take_vacation(
            &NewVacation {
                community: room.community,
                user: bob.id,
                days: 2,
                now: T0,
                month: JANUARY,
                quota: 5,
            },
            None,
        )
        .await
        .expect("vacation");
    let end = T0.plus_millis(2 * DAY);
    assert_eq!(
        vacation,
        Vacation {
            starts_at: T0,
            ends_at: end,
            days: 2
        }
    );
    let vacation_end = |community, at| async move {
        store
            .vacation_end(community, bob.id, at)
            .await
            .expect("vacation end")
    };
    assert_eq!(vacation_end(room.community, T0).await, Some(end));
    assert_eq!(
        vacation_end(room.community, end.plus_millis(-1)).await,
        Some(end)
    );
    assert_eq!(vacation_end(room.community, end).await, None);
    assert_eq!(vacation_end(elsewhere.community, T0).await, None);

    // A game started with bob to move during his vacation.
    let during = T0.plus_millis(HOUR);
    let started = create(
        store,
        &NewGame {
            turn: Some(TurnStart {
                user: bob.id,
                at: during,
            }),
            ..game_in(&room, &seats)
        },
    )
    .await;
    assert_eq!(started.clock, Some(fresh_clock(bob.id, end, DAY)));

    // Turns passed on by appends.
    let game = create(store, &game_in(&room, &seats)).await;
    let mut state = start(&game);
    let turn = |user, at| Some(TurnStart { user, at });
    let bobs = advance(
        store,
        game.id,
        &mut state,
        ann.id,
        Append {
            turn: turn(bob.id, during),
            ..Append::default()
        },
    )
    .await
    .expect("append");
    assert_eq!(bobs.clock, Some(fresh_clock(bob.id, end, DAY)));
    assert_eq!(
        record(store, game.id).await.clock,
        Some(fresh_clock(bob.id, end, DAY))
    );
    // Ann is not on vacation.
    let later = T0.plus_millis(2 * HOUR);
    let anns = advance(
        store,
        game.id,
        &mut state,
        bob.id,
        Append {
            expected_seq: 1,
            turn: turn(ann.id, later),
            ..Append::default()
        },
    )
    .await
    .expect("append");
    assert_eq!(anns.clock, Some(fresh_clock(ann.id, later, DAY)));
    // After the vacation, bob's turn starts at once.
    let back = end.plus_millis(HOUR);
    let after = advance(
        store,
        game.id,
        &mut state,
        ann.id,
        Append {
            expected_seq: 2,
            turn: turn(bob.id, back),
            ..Append::default()
        },
    )
    .await
    .expect("append");
    assert_eq!(after.clock, Some(fresh_clock(bob.id, back, DAY)));

    // The vacation is in one community: bob's clock elsewhere runs.
    let away = create(
        store,
        &NewGame {
            turn: turn(bob.id, during),
            ..game_in(&elsewhere, &seats)
        },
    )
    .await;
    assert_eq!(away.clock, Some(fresh_clock(bob.id, during, DAY)));
}

pub async fn vacations_push_running_clocks_within_the_monthly_quota(store: &Store) {
    let room = chat(store, "room").await;
    let elsewhere = chat(store, "elsewhere").await;
    let [ann, bob] = people(store, ["ann", "bob"]).await;
    let seats = [ann.id, bob.id];
    let clocked = |chat: &Chat, user: UserId, at: Timestamp| {
        let new = NewGame {
            turn: Some(TurnStart { user, at }),
            ..game_in(chat, &seats)
        };
        async move { create(store, &new).await }
    };
    let running = clocked(&room, bob.id, T0).await;
    let expired = clocked(&room, bob.id, T0.plus_millis(-2 * DAY)).await;
    let anns_turn = clocked(&room, ann.id, T0).await;
    let away = clocked(&elsewhere, bob.id, T0).await;
    let untouched = [&expired, &anns_turn, &away];
    let clock_of = |game: GameNo| async move { record(store, game).await.clock };
    let assert_untouched = || async {
        for game in untouched {
            assert_eq!(clock_of(game.id).await, game.clock, "game {}", game.id);
        }
    };
    let pushed = |days: i64| {
        let clock = fresh_clock(bob.id, T0, DAY);
        Some(TurnClock {
            remind_at: clock.remind_at.plus_millis(days * DAY),
            deadline_at: clock.deadline_at.plus_millis(days * DAY),
            ..clock
        })
    };
    let ask = |days: i64, now: Timestamp| NewVacation {
        community: room.community,
        user: bob.id,
        days,
        now,
        month: JANUARY,
        quota: 5,
    };
    let used = |month| async move {
        store
            .vacation_days_used(room.community, bob.id, month)
            .await
            .expect("days used")
    };

    // Bob's running turn in this community moves on by the vacation; the rest stay.
    let now = T0.plus_millis(HOUR);
    let first = store
        .take_vacation(&ask(2, now), None)
        .await
        .expect("vacation");
    assert_eq!(
        first,
        Vacation {
            starts_at: now,
            ends_at: now.plus_millis(2 * DAY),
            days: 2
        }
    );
    assert_eq!(clock_of(running.id).await, pushed(2));
    assert_untouched().await;

    // A second vacation follows the one running, and moves the clock on again.
    let second = store
        .take_vacation(&ask(1, now.plus_millis(HOUR)), None)
        .await
        .expect("vacation");
    assert_eq!(
        second,
        Vacation {
            starts_at: first.ends_at,
            ends_at: first.ends_at.plus_millis(DAY),
            days: 1
        }
    );
    assert_eq!(clock_of(running.id).await, pushed(3));
    assert_untouched().await;
    assert_eq!(
        store
            .vacation_end(room.community, bob.id, now.plus_millis(HOUR))
            .await
            .expect("end"),
        Some(second.ends_at)
    );
    assert_eq!(used(JANUARY).await, 3);

    // Beyond the month's quota: refused, nothing changes.
    let key = RequestKey {
        platform: Platform::Discord,
        key: "vacation-3".to_string(),
    };
    assert_eq!(
        conflict(
            store
                .take_vacation(&ask(3, now.plus_millis(2 * HOUR)), Some(&key))
                .await
        ),
        Conflict::VacationQuota { used: 3, quota: 5 }
    );
    assert!(!store.request_handled(&key).await.expect("handled"));
    assert_eq!(used(JANUARY).await, 3);
    assert_eq!(clock_of(running.id).await, pushed(3));
    assert_eq!(
        store
            .vacation_end(room.community, bob.id, now)
            .await
            .expect("end"),
        Some(second.ends_at)
    );
    // Up to the quota exactly: granted, once.
    let third = store
        .take_vacation(&ask(2, now.plus_millis(2 * HOUR)), Some(&key))
        .await
        .expect("vacation");
    assert_eq!(third.starts_at, second.ends_at);
    assert_eq!(
        conflict(
            store
                .take_vacation(&ask(2, now.plus_millis(2 * HOUR)), Some(&key))
                .await
        ),
        Conflict::Duplicate
    );
    assert_eq!(used(JANUARY).await, 5);
    assert_eq!(clock_of(running.id).await, pushed(5));
    assert_eq!(
        conflict(
            store
                .take_vacation(&ask(1, now.plus_millis(3 * HOUR)), None)
                .await
        ),
        Conflict::VacationQuota { used: 5, quota: 5 }
    );
    assert_untouched().await;

    // Days are counted in the month they were asked for.
    let february = FEBRUARY.0.plus_millis(HOUR);
    let next = store
        .take_vacation(
            &NewVacation {
                month: FEBRUARY,
                ..ask(4, february)
            },
            None,
        )
        .await
        .expect("vacation");
    assert_eq!(next.starts_at, february, "nothing running then");
    assert_eq!(used(FEBRUARY).await, 4);
    assert_eq!(used(JANUARY).await, 5);
    assert_eq!(
        clock_of(running.id).await,
        pushed(5),
        "out of time by then: not moved"
    );

    // The time-out and a claim on time follow the moved deadline.
    let first_deadline = T0.plus_millis(DAY);
    assert_eq!(
        store
            .claim_due(Due::Timeout, first_deadline, 10)
            .await
            .expect("claim"),
        sorted(vec![expired.id, anns_turn.id, away.id])
    );
    assert_eq!(
        conflict(
            store
                .end_game(
                    running.id,
                    &Ending {
                        deadline_passed: Some(first_deadline),
                        ..ending(GameEnd::Finished, "ann wins on time")
                    }
                )
                .await
        ),
        Conflict::NotYetDue(running.id)
    );
    let moved_deadline = first_deadline.plus_millis(5 * DAY);
    assert_eq!(
        store
            .claim_due(Due::Timeout, moved_deadline, 10)
            .await
            .expect("claim"),
        vec![running.id]
    );
}

pub async fn ending_on_time_checks_the_seq_and_the_deadline(store: &Store) {
    let (room, [ann, bob]) = chat_with(store, "room", ["ann", "bob"]).await;
    let community = room.community;
    open_wallets(store, community, [ann.id, bob.id]).await;
    let seats = [ann.id, bob.id];
    let game = create(
        store,
        &NewGame {
            stake: 100,
            turn: Some(TurnStart {
                user: ann.id,
                at: T0,
            }),
            ..game_in(&room, &seats)
        },
    )
    .await;
    let deadline = T0.plus_millis(DAY);
    let claim = |expected_seq: Option<u32>, now: Timestamp| Ending {
        end: GameEnd::Finished,
        result: "bob wins on time",
        payout: Payout::Winners(vec![bob.id]),
        actor: Some(bob.id),
        expected_seq,
        deadline_passed: Some(now),
        rated_at: None,
    };
    assert_eq!(
        conflict(store.end_game(game.id, &claim(Some(1), deadline)).await),
        Conflict::StaleSeq { current: 0 }
    );
    for early in [Some(0), None] {
        assert_eq!(
            conflict(
                store
                    .end_game(game.id, &claim(early, deadline.plus_millis(-1)))
                    .await
            ),
            Conflict::NotYetDue(game.id)
        );
    }
    assert_eq!(record(store, game.id).await, game, "nothing changed");
    assert_eq!(balances(store, community, &seats).await, vec![900, 900]);
    let ended = store
        .end_game(game.id, &claim(Some(0), deadline))
        .await
        .expect("claim on time");
    assert_eq!(ended.status, GameStatus::Finished);
    assert_eq!(ended.result.as_deref(), Some("bob wins on time"));
    assert_eq!(ended.clock, None);
    assert!(ended.settled_at.is_some());
    assert_eq!(balances(store, community, &seats).await, vec![900, 1100]);
    assert_eq!(
        conflict(store.end_game(game.id, &claim(Some(0), deadline)).await),
        Conflict::GameOver {
            game: game.id,
            status: GameStatus::Finished
        }
    );

    // A move since the claim was made makes it stale; the new turn has its own deadline.
    let other = create(
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
    let moved_at = T0.plus_millis(HOUR);
    advance(
        store,
        other.id,
        &mut start(&other),
        ann.id,
        Append {
            turn: Some(TurnStart {
                user: bob.id,
                at: moved_at,
            }),
            ..Append::default()
        },
    )
    .await
    .expect("append");
    assert_eq!(
        conflict(store.end_game(other.id, &claim(Some(0), deadline)).await),
        Conflict::StaleSeq { current: 1 }
    );
    assert_eq!(
        conflict(store.end_game(other.id, &claim(Some(1), deadline)).await),
        Conflict::NotYetDue(other.id)
    );
    let ended = store
        .end_game(other.id, &claim(Some(1), moved_at.plus_millis(DAY)))
        .await
        .expect("claim on time");
    assert_eq!(ended.status, GameStatus::Finished);
    assert_eq!(ended.clock, None);
}

pub async fn due_games_are_claimed_once_per_turn(store: &Store) {
    let (room, [ann, bob]) = chat_with(store, "room", ["ann", "bob"]).await;
    let seats = [ann.id, bob.id];
    let clocked = |at: Timestamp| {
        let new = NewGame {
            turn: Some(TurnStart { user: ann.id, at }),
            ..game_in(&room, &seats)
        };
        async move { create(store, &new).await }
    };
    let claim = |due: Due, now: Timestamp| async move {
        store.claim_due(due, now, 10).await.expect("claim")
    };
    let game = clocked(T0).await;
    create(store, &game_in(&room, &seats)).await; // no clock: never due
    let half = T0.plus_millis(DAY / 2);
    let deadline = T0.plus_millis(DAY);

    assert_eq!(claim(Due::Reminder, half.plus_millis(-1)).await, vec![]);
    assert_eq!(claim(Due::Reminder, half).await, vec![game.id]);
    assert_eq!(claim(Due::Reminder, half).await, vec![]);
    assert_eq!(
        claim(Due::Reminder, deadline.plus_millis(DAY)).await,
        vec![]
    );
    assert_eq!(claim(Due::Timeout, half).await, vec![], "not out of time");
    let clock = record(store, game.id).await.clock.expect("a clock");
    assert_eq!(
        (clock.reminded_at, clock.timeout_announced_at),
        (Some(half), None)
    );
    assert_eq!(claim(Due::Timeout, deadline.plus_millis(-1)).await, vec![]);
    assert_eq!(claim(Due::Timeout, deadline).await, vec![game.id]);
    assert_eq!(claim(Due::Timeout, deadline.plus_millis(DAY)).await, vec![]);
    let clock = record(store, game.id).await.clock.expect("a clock");
    assert_eq!(
        (clock.reminded_at, clock.timeout_announced_at),
        (Some(half), Some(deadline))
    );

    // A new turn can be claimed again, at its own times.
    let t1 = deadline.plus_millis(HOUR);
    advance(
        store,
        game.id,
        &mut start(&game),
        ann.id,
        Append {
            turn: Some(TurnStart {
                user: bob.id,
                at: t1,
            }),
            ..Append::default()
        },
    )
    .await
    .expect("append");
    assert_eq!(
        record(store, game.id).await.clock,
        Some(fresh_clock(bob.id, t1, DAY))
    );
    let half = t1.plus_millis(DAY / 2);
    assert_eq!(claim(Due::Reminder, half.plus_millis(-1)).await, vec![]);
    assert_eq!(claim(Due::Reminder, half).await, vec![game.id]);
    assert_eq!(
        claim(Due::Timeout, t1.plus_millis(DAY)).await,
        vec![game.id]
    );

    // The two claims are independent: a time-out claimed first leaves the reminder due.
    let late = clocked(T0.plus_millis(10 * DAY)).await;
    let after = T0.plus_millis(12 * DAY);
    assert_eq!(claim(Due::Timeout, after).await, vec![late.id]);
    assert_eq!(claim(Due::Reminder, after).await, vec![late.id]);

    // Games that are over are never due.
    let aborted = clocked(T0.plus_millis(20 * DAY)).await;
    store
        .end_game(aborted.id, &ending(GameEnd::Aborted, "stopped"))
        .await
        .expect("end");
    let finished = clocked(T0.plus_millis(20 * DAY)).await;
    advance(
        store,
        finished.id,
        &mut start(&finished),
        ann.id,
        Append {
            finish: Some("ann wins"),
            ..Append::default()
        },
    )
    .await
    .expect("append");
    let far = T0.plus_millis(30 * DAY);
    assert_eq!(claim(Due::Reminder, far).await, vec![]);
    assert_eq!(claim(Due::Timeout, far).await, vec![]);

    // A limit takes the earliest due first.
    let third = clocked(T0.plus_millis(40 * DAY + 2 * HOUR)).await;
    let first = clocked(T0.plus_millis(40 * DAY)).await;
    let second = clocked(T0.plus_millis(40 * DAY + HOUR)).await;
    let all_due = T0.plus_millis(50 * DAY);
    assert_eq!(
        store
            .claim_due(Due::Reminder, all_due, 2)
            .await
            .expect("claim"),
        sorted(vec![first.id, second.id])
    );
    assert_eq!(
        store
            .claim_due(Due::Reminder, all_due, 2)
            .await
            .expect("claim"),
        vec![third.id]
    );
    assert_eq!(claim(Due::Reminder, all_due).await, vec![]);
}

pub async fn concurrent_claims_return_each_game_once(store: &Store) {
    const GAMES: i64 = 20;
    const CLAIMERS: usize = 8;
    let (room, [ann, bob]) = chat_with(store, "room", ["ann", "bob"]).await;
    let seats = [ann.id, bob.id];
    let mut games = Vec::new();
    for index in 0..GAMES {
        let game = create(
            store,
            &NewGame {
                turn: Some(TurnStart {
                    user: ann.id,
                    at: T0.plus_millis(index * MINUTE),
                }),
                ..game_in(&room, &seats)
            },
        )
        .await;
        games.push(game.id);
    }
    let now = T0.plus_millis(2 * DAY);
    for due in [Due::Reminder, Due::Timeout] {
        let barrier = Arc::new(tokio::sync::Barrier::new(CLAIMERS));
        let tasks: Vec<_> = (0..CLAIMERS)
            .map(|_| {
                let (store, barrier) = (store.clone(), Arc::clone(&barrier));
                tokio::spawn(async move {
                    barrier.wait().await;
                    let mut mine = Vec::new();
                    loop {
                        let claimed = store.claim_due(due, now, 3).await.expect("claim");
                        if claimed.is_empty() {
                            return mine;
                        }
                        mine.extend(claimed);
                    }
                })
            })
            .collect();
        let mut claimed = Vec::new();
        for task in tasks {
            claimed.extend(task.await.expect("task"));
        }
        assert_eq!(sorted(claimed), games, "{due:?}: every game exactly once");
        assert_eq!(store.claim_due(due, now, 100).await.expect("claim"), vec![]);
    }
}

pub async fn concurrent_vacations_keep_the_quota(store: &Store) {
    const RACERS: usize = 8;
    let room = chat(store, "room").await;
    let bob = user(store, "bob").await;
    let tasks: Vec<_> = (0..RACERS)
        .map(|_| {
            let store = store.clone();
            let ask = NewVacation {
                community: room.community,
                user: bob.id,
                days: 1,
                now: T0,
                month: JANUARY,
                quota: 5,
            };
            tokio::spawn(async move { store.take_vacation(&ask, None).await })
        })
        .collect();
    let mut taken = Vec::new();
    for task in tasks {
        match task.await.expect("task") {
            Ok(vacation) => taken.push(vacation.starts_at),
            Err(StoreError::Conflict(refused)) => {
                assert_eq!(refused, Conflict::VacationQuota { used: 5, quota: 5 });
            }
            Err(other) => panic!("unexpected {other:?}"),
        }
    }
    // Five days, one after the other.
    assert_eq!(
        sorted(taken),
        (0..5)
            .map(|day| T0.plus_millis(day * DAY))
            .collect::<Vec<_>>()
    );
    assert_eq!(
        store
            .vacation_days_used(room.community, bob.id, JANUARY)
            .await
            .expect("used"),
        5
    );
    assert_eq!(
        store
            .vacation_end(room.community, bob.id, T0)
            .await
            .expect("end"),
        Some(T0.plus_millis(5 * DAY))
    );
}
