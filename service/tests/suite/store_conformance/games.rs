//! Games and their action log: seats, appends checked by sequence number and request key,
//! snapshots and endings, racing appenders, a restart, and migrations run twice.

use super::fixtures::*;

pub async fn game_is_created_with_its_seats(store: &Store) {
    let room = chat(store, "room").await;
    let elsewhere = chat(store, "elsewhere").await;
    let [ann, bob, cy] = people(store, ["ann", "bob", "cy"]).await;
    // Two-player Pachisi: each player holds both seats of a team.
    let pachisi = store
        .create_game(&NewGame {
            chat: room.id,
            game: GameId::Pachisi,
            options: "",
            start_position: None,
            seats: &[ann.id, bob.id, ann.id, bob.id],
            accepting: None,
            community: room.community,
            stake: 0,
            move_millis: DAY,
            turn: None,
            dice: None,
        })
        .await
        .expect("create");
    assert_eq!(pachisi.game, GameId::Pachisi);
    assert_eq!(pachisi.status, GameStatus::Active);
    assert_eq!(pachisi.seq, 0);
    assert_eq!(pachisi.result, None);
    assert_eq!(pachisi.snapshot, None);
    assert_eq!(pachisi.chat, room.id);
    let seats: Vec<_> = pachisi
        .seats
        .iter()
        .map(|holder| (holder.seat, holder.user.display_name.as_str()))
        .collect();
    assert_eq!(seats, vec![(0, "ann"), (1, "bob"), (2, "ann"), (3, "bob")]);
    assert!(pachisi.is_seated(ann.id) && !pachisi.is_seated(cy.id));

    let start = AnyGame::start(GameId::Konane, &["size=6"], None).expect("start");
    let konane = store
        .create_game(&NewGame {
            chat: elsewhere.id,
            game: GameId::Konane,
            options: "size=6",
            start_position: Some(&start.position()),
            seats: &[cy.id, ann.id],
            accepting: None,
            community: elsewhere.community,
            stake: 0,
            move_millis: DAY,
            turn: None,
            dice: None,
        })
        .await
        .expect("create");
    assert_eq!(konane.option_list(), vec!["size=6"]);
    assert_eq!(konane.start_position, Some(start.position()));

    assert_eq!(
        store.game(pachisi.id).await.expect("get"),
        Some(pachisi.clone())
    );
    assert_eq!(
        store.active_games_in_chat(room.id).await.expect("list"),
        vec![pachisi.clone()]
    );
    assert_eq!(
        store
            .active_games_of_user(ann.id, None)
            .await
            .expect("list"),
        vec![pachisi.clone(), konane.clone()]
    );
    assert_eq!(
        store
            .active_games_of_user(ann.id, Some(elsewhere.id))
            .await
            .expect("list"),
        vec![konane.clone()]
    );
    assert_eq!(
        store
            .active_games_of_user(cy.id, Some(room.id))
            .await
            .expect("list"),
        vec![]
    );

    let loaded = load(store, konane.id).await;
    assert_eq!(loaded.record, konane);
    assert!(loaded.actions.is_empty());
    assert_eq!(loaded.replay().expect("replay"), start);
    assert_eq!(
        store
            .load_game(GameNo(konane.id.0 + 1000), History::Full)
            .await
            .expect("load"),
        None
    );
}

pub async fn append_with_the_right_seq(store: &Store) {
    let (game, ann, bob) = konane(store).await;
    let mut state = start(&game);
    let first = play(&mut state, 1);
    let seq = store
        .append_actions(
            game.id,
            &Append {
                expected_seq: 0,
                actions: &actions(&first, Some(ann.id)),
                ..Append::default()
            },
        )
        .await
        .expect("append");
    assert_eq!(seq.seq, 1);
    // Several actions at once (a move and the service's roll, say): one of them by nobody.
    let next = play(&mut state, 2);
    let mut both = actions(&next, Some(bob.id));
    both[1].actor = None;
    let seq = store
        .append_actions(
            game.id,
            &Append {
                expected_seq: 1,
                actions: &both,
                ..Append::default()
            },
        )
        .await
        .expect("append");
    assert_eq!(seq.seq, 3);

    let loaded = load(store, game.id).await;
    assert_eq!(loaded.record.seq, 3);
    assert!(loaded.record.updated_at >= game.updated_at);
    let log: Vec<_> = loaded
        .actions
        .iter()
        .map(|action| (action.seq, action.action.clone(), action.actor))
        .collect();
    assert_eq!(
        log,
        vec![
            (1, first[0].clone(), Some(ann.id)),
            (2, next[0].clone(), Some(bob.id)),
            (3, next[1].clone(), None),
        ]
    );
    assert_eq!(loaded.replay().expect("replay"), state);
}

pub async fn append_with_a_stale_seq_is_refused_and_changes_nothing(store: &Store) {
    let (game, ann, _) = konane(store).await;
    let mut state = start(&game);
    let moves = play(&mut state, 3);
    store
        .append_actions(
            game.id,
            &Append {
                expected_seq: 0,
                actions: &actions(&moves[..2], Some(ann.id)),
                ..Append::default()
            },
        )
        .await
        .expect("append");
    let before = load(store, game.id).await;

    let key = RequestKey {
        platform: Platform::Telegram,
        key: "update-7".to_string(),
    };
    for expected_seq in [0, 1, 3] {
        let refused = store
            .append_actions(
                game.id,
                &Append {
                    expected_seq,
                    actions: &actions(&moves[2..], Some(ann.id)),
                    request: Some(&key),
                    finish: Some("ann wins"),
                    snapshot: Some("position"),
                    ..Append::default()
                },
            )
            .await;
        assert_eq!(conflict(refused), Conflict::StaleSeq { current: 2 });
    }
    assert_eq!(load(store, game.id).await, before, "nothing changed");

    // The refused request's key was not kept: the same request at the right seq applies.
    let seq = store
        .append_actions(
            game.id,
            &Append {
                expected_seq: 2,
                actions: &actions(&moves[2..], Some(ann.id)),
                request: Some(&key),
                ..Append::default()
            },
        )
        .await
        .expect("append");
    assert_eq!(seq.seq, 3);
}

pub async fn duplicate_request_key_is_refused(store: &Store) {
    let (game, ann, bob) = konane(store).await;
    let mut state = start(&game);
    let moves = play(&mut state, 2);
    let (first, second) = (
        actions(&moves[..1], Some(ann.id)),
        actions(&moves[1..], Some(bob.id)),
    );
    let key = RequestKey {
        platform: Platform::Discord,
        key: "interaction-42".to_string(),
    };
    let seq = store
        .append_actions(game.id, &keyed(0, &first, &key))
        .await
        .expect("append");
    assert_eq!(seq.seq, 1);
    // Re-delivered: refused whether its seq is now stale or not.
    for expected_seq in [0, 1] {
        assert_eq!(
            conflict(
                store
                    .append_actions(game.id, &keyed(expected_seq, &second, &key))
                    .await
            ),
            Conflict::Duplicate
        );
    }
    let loaded = load(store, game.id).await;
    assert_eq!(loaded.record.seq, 1);
    assert_eq!(loaded.actions.len(), 1);

    // Keys are per platform.
    let telegram = RequestKey {
        platform: Platform::Telegram,
        key: key.key.clone(),
    };
    let seq = store
        .append_actions(game.id, &keyed(1, &second, &telegram))
        .await
        .expect("append");
    assert_eq!(seq.seq, 2);
}

pub async fn snapshot_finish_and_end(store: &Store) {
    let (game, ann, _) = konane(store).await;
    let mut state = start(&game);
    let moves = play(&mut state, 4);
    let snapshot_state = {
        let mut replay = start(&game);
        for action in &moves[..3] {
            replay.apply_text(action).expect("replay");
        }
        replay
    };
    store
        .append_actions(
            game.id,
            &Append {
                expected_seq: 0,
                actions: &actions(&moves[..3], Some(ann.id)),
                snapshot: Some(&snapshot_state.position()),
                ..Append::default()
            },
        )
        .await
        .expect("append");
    store
        .append_actions(
            game.id,
            &Append {
                expected_seq: 3,
                actions: &actions(&moves[3..], Some(ann.id)),
                ..Append::default()
            },
        )
        .await
        .expect("append");

    let full = load(store, game.id).await;
    let snapshot = full.record.snapshot.clone().expect("a snapshot");
    assert_eq!(snapshot.seq, 3);
    assert_eq!(snapshot.position, snapshot_state.position());
    assert_eq!(full.from_snapshot, None);
    assert_eq!(full.actions.len(), 4);
    let recent = store
        .load_game(game.id, History::SinceSnapshot)
        .await
        .expect("load")
        .expect("exists");
    assert_eq!(recent.from_snapshot, Some(snapshot));
    let seqs: Vec<_> = recent.actions.iter().map(|action| action.seq).collect();
    assert_eq!(seqs, vec![4]);
    assert_eq!(
        recent.replay().expect("replay").position(),
        full.replay().expect("replay").position()
    );
    assert_eq!(full.replay().expect("replay"), state);

    // Actions that end the game finish it in the same transaction.
    let last = play(&mut state, 1);
    let seq = store
        .append_actions(
            game.id,
            &Append {
                expected_seq: 4,
                actions: &actions(&last, Some(ann.id)),
                finish: Some("ann wins"),
                ..Append::default()
            },
        )
        .await
        .expect("append");
    let finished = store.game(game.id).await.expect("get").expect("exists");
    assert_eq!((finished.seq, seq.seq), (5, 5));
    assert_eq!(finished.status, GameStatus::Finished);
    assert_eq!(finished.result.as_deref(), Some("ann wins"));
    assert_eq!(finished.snapshot.map(|snapshot| snapshot.seq), Some(3));
    assert_eq!(
        conflict(
            store
                .append_actions(
                    game.id,
                    &Append {
                        expected_seq: 5,
                        actions: &actions(&last, Some(ann.id)),
                        ..Append::default()
                    },
                )
                .await
        ),
        Conflict::GameOver {
            game: game.id,
            status: GameStatus::Finished
        }
    );
    assert_eq!(
        conflict(
            store
                .end_game(game.id, &ending(GameEnd::Aborted, "bored"))
                .await
        ),
        Conflict::GameOver {
            game: game.id,
            status: GameStatus::Finished
        }
    );
    assert_eq!(
        store.active_games_in_chat(game.chat).await.expect("list"),
        vec![]
    );

    // Resigning or aborting outside an append.
    let (other, _, bob) = konane(store).await;
    let resigned = store
        .end_game(other.id, &ending(GameEnd::Finished, "bob resigned"))
        .await
        .expect("end");
    assert_eq!(resigned.status, GameStatus::Finished);
    assert_eq!(resigned.result.as_deref(), Some("bob resigned"));
    let (third, _, _) = konane(store).await;
    let aborted = store
        .end_game(third.id, &ending(GameEnd::Aborted, "abandoned"))
        .await
        .expect("end");
    assert_eq!(aborted.status, GameStatus::Aborted);
    assert_eq!(
        store
            .active_games_of_user(bob.id, None)
            .await
            .expect("list"),
        vec![]
    );

    // A game that does not exist, with and without a request key.
    let missing = GameNo(third.id.0 + 1000);
    let key = RequestKey {
        platform: Platform::Local,
        key: "line-1".to_string(),
    };
    for request in [None, Some(&key)] {
        assert_eq!(
            conflict(
                store
                    .append_actions(
                        missing,
                        &Append {
                            actions: &actions(&last, None),
                            request,
                            ..Append::default()
                        },
                    )
                    .await
            ),
            Conflict::NoSuchGame(missing)
        );
    }
    assert_eq!(
        conflict(store.end_game(missing, &ending(GameEnd::Aborted, "")).await),
        Conflict::NoSuchGame(missing)
    );
}

pub async fn concurrent_appenders_leave_no_gap_or_duplicate(store: &Store) {
    const TASKS: usize = 16;
    const ACTIONS_PER_TASK: usize = 20;
    let (game, ann, _) = konane(store).await;
    let tasks: Vec<_> = (0..TASKS)
        .map(|task| {
            let store = store.clone();
            tokio::spawn(async move {
                let mut conflicts = 0_u32;
                for index in 0..ACTIONS_PER_TASK {
                    let key = RequestKey {
                        platform: Platform::Local,
                        key: format!("task{task}-action{index}"),
                    };
                    let action = [NewAction {
                        action: format!("t{task}.{index}"),
                        actor: Some(ann.id),
                    }];
                    loop {
                        // Reload, as a request handler does, then try to append.
                        let current = store
                            .game(game.id)
                            .await
                            .expect("load")
                            .expect("exists")
                            .seq;
                        let append = Append {
                            expected_seq: current,
                            actions: &action,
                            request: Some(&key),
                            ..Append::default()
                        };
                        match store.append_actions(game.id, &append).await {
                            Ok(appended) => {
                                let seq = appended.seq;
                                assert!(seq > current);
                                if index % 5 == 0 {
                                    // A re-delivery of the request that just applied.
                                    let again = Append {
                                        expected_seq: seq,
                                        ..append
                                    };
                                    assert_eq!(
                                        conflict(store.append_actions(game.id, &again).await),
                                        Conflict::Duplicate
                                    );
                                }
                                break;
                            }
                            Err(StoreError::Conflict(Conflict::StaleSeq { current: now })) => {
                                assert!(now > current);
                                conflicts += 1;
                            }
                            Err(other) => panic!("task {task}: unexpected {other:?}"),
                        }
                    }
                }
                conflicts
            })
        })
        .collect();
    let mut conflicts = 0;
    for task in tasks {
        conflicts += task.await.expect("task");
    }

    let loaded = load(store, game.id).await;
    let total = u32::try_from(TASKS * ACTIONS_PER_TASK).expect("small");
    assert_eq!(loaded.record.seq, total);
    let seqs: Vec<u32> = loaded.actions.iter().map(|action| action.seq).collect();
    assert_eq!(
        seqs,
        (1..=total).collect::<Vec<_>>(),
        "no gap, no duplicate"
    );
    let texts: HashSet<&str> = loaded
        .actions
        .iter()
        .map(|action| action.action.as_str())
        .collect();
    assert_eq!(texts.len(), TASKS * ACTIONS_PER_TASK, "every action once");
    // Each task's actions are in the order it appended them.
    let mut by_task: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for action in &loaded.actions {
        let (task, index) = action.action[1..].split_once('.').expect("t<task>.<index>");
        by_task
            .entry(task.parse().expect("task"))
            .or_default()
            .push(index.parse().expect("index"));
    }
    assert_eq!(by_task.len(), TASKS);
    for indices in by_task.values() {
        assert_eq!(indices, &(0..ACTIONS_PER_TASK).collect::<Vec<_>>());
    }
    // Not a pass condition (scheduling decides), but shows the races really happened.
    println!("{conflicts} stale-seq conflicts retried");
}

pub async fn restart_keeps_the_game(url: &DatabaseUrl) {
    let store = super::connect(url).await;
    let (game, ann, _) = konane(&store).await;
    let mut state = start(&game);
    let moves = play(&mut state, 3);
    store
        .append_actions(
            game.id,
            &Append {
                expected_seq: 0,
                actions: &actions(&moves, Some(ann.id)),
                ..Append::default()
            },
        )
        .await
        .expect("append");
    let before = load(&store, game.id).await;
    store.close().await;
    drop(store);

    let store = super::connect(url).await;
    let after = load(&store, game.id).await;
    assert_eq!(after, before);
    assert_eq!(after.replay().expect("replay"), state);
    // And the game goes on from where it was.
    let next = play(&mut state, 1);
    let seq = store
        .append_actions(
            game.id,
            &Append {
                expected_seq: 3,
                actions: &actions(&next, Some(ann.id)),
                ..Append::default()
            },
        )
        .await
        .expect("append");
    assert_eq!(seq.seq, 4);
    assert_eq!(load(&store, game.id).await.replay().expect("replay"), state);
    store.close().await;
}

pub async fn migrations_are_idempotent(url: &DatabaseUrl) {
    let first = super::connect(url).await;
    let version = first.schema_version().await.expect("version");
    assert!(version >= 1);
    let ann = user(&first, "ann").await;
    // A second store on the same database, while the first is open, and again after.
    let second = super::connect(url).await;
    assert_eq!(second.schema_version().await.expect("version"), version);
    first.close().await;
    second.close().await;
    let third = super::connect(url).await;
    assert_eq!(third.schema_version().await.expect("version"), version);
    assert_eq!(third.user(ann.id).await.expect("get"), Some(ann));
    third.close().await;
}
