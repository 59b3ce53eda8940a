//! Storage conformance: one suite of cases, each an `async fn` over a [`Store`] (or, for the
//! cases that reconnect, over its URL), run against SQLite (a fresh file per test, and an
//! in-memory database) and against PostgreSQL (a fresh schema per test, dropped afterwards).
//!
//! PostgreSQL is reached through `TABULA_TEST_POSTGRES_URL`. The PostgreSQL tests are ignored by
//! a plain `cargo test` (so a machine without the server reports them as ignored, never as
//! passed); `.ci/run` sets the URL and runs them with `--include-ignored`. Run that way, they
//! must connect and fail loudly if the variable is unset or the server unreachable.

mod common;

use common::{PostgresSchema, SqliteFile, connect};
use tabula_bot::store::DatabaseUrl;

/// Generates, for every case, one test per database: `sqlite::case`, `sqlite_memory::case`
/// (cases over a store only) and `postgres::case`.
macro_rules! conformance {
    (store: [$($case:ident),* $(,)?], url: [$($url_case:ident),* $(,)?] $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $case() {
                    let file = super::SqliteFile::new();
                    let store = super::connect(&file.url()).await;
                    super::cases::$case(&store).await;
                    store.close().await;
                }
            )*
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $url_case() {
                    let file = super::SqliteFile::new();
                    super::cases::$url_case(&file.url()).await;
                }
            )*
        }

        mod sqlite_memory {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $case() {
                    let url = tabula_bot::store::DatabaseUrl::new("sqlite::memory:");
                    let store = super::connect(&url).await;
                    super::cases::$case(&store).await;
                    store.close().await;
                }
            )*
        }

        mod postgres {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                #[ignore = "needs PostgreSQL: set TABULA_TEST_POSTGRES_URL and pass --include-ignored (.ci/run does)"]
                async fn $case() {
                    let Some(schema) = super::PostgresSchema::create(stringify!($case)).await
                    else {
                        return;
                    };
                    let url = schema.url();
                    let outcome = tokio::spawn(async move {
                        let store = super::connect(&url).await;
                        super::cases::$case(&store).await;
                        store.close().await;
                    })
                    .await;
                    schema.finish(outcome).await;
                }
            )*
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                #[ignore = "needs PostgreSQL: set TABULA_TEST_POSTGRES_URL and pass --include-ignored (.ci/run does)"]
                async fn $url_case() {
                    let Some(schema) = super::PostgresSchema::create(stringify!($url_case)).await
                    else {
                        return;
                    };
                    let url = schema.url();
                    let outcome =
                        tokio::spawn(async move { super::cases::$url_case(&url).await }).await;
                    schema.finish(outcome).await;
                }
            )*
        }
    };
}

conformance! {
    store: [
        users_and_chats_are_upserted,
        challenge_lifecycle,
        concurrent_accepts_exactly_one_wins,
        game_is_created_with_its_seats,
        append_with_the_right_seq,
        append_with_a_stale_seq_is_refused_and_changes_nothing,
        duplicate_request_key_is_refused,
        snapshot_finish_and_end,
        concurrent_appenders_leave_no_gap_or_duplicate,
        invitees_accept_one_by_one,
        keyed_challenge_changes_are_applied_once,
    ],
    url: [
        restart_keeps_the_game,
        migrations_are_idempotent,
    ],
}

#[test]
fn database_url_debug_hides_the_secret() {
    let url = DatabaseUrl::new("postgres://bot:hunter2@db.example:5432/tabula");
    assert_eq!(format!("{url:?}"), "***");
    assert_eq!(url.scheme(), "postgres");
    let error = tabula_bot::store::StoreError::UnsupportedUrl {
        scheme: url.scheme().to_string(),
    };
    assert!(!format!("{error:?} {error}").contains("hunter2"));
}

#[test]
fn database_url_scheme_picks_the_backend() {
    use tabula_bot::store::Backend;
    assert_eq!(DatabaseUrl::default().expose_secret(), "sqlite://tabula.db");
    assert_eq!(DatabaseUrl::default().backend().ok(), Some(Backend::Sqlite));
    let memory: Result<DatabaseUrl, _> = "sqlite::memory:".parse();
    assert_eq!(
        memory.ok().and_then(|url| url.backend().ok()),
        Some(Backend::Sqlite)
    );
    let postgres: Result<DatabaseUrl, _> = "postgresql://localhost/x".parse();
    assert_eq!(
        postgres.ok().and_then(|url| url.backend().ok()),
        Some(Backend::Postgres)
    );
    assert!("mysql://localhost/x".parse::<DatabaseUrl>().is_err());
}

mod cases {
    use std::collections::{BTreeMap, HashSet};

    use tabula_bot::store::{
        Acceptance, Append, ChallengeStatus, Chat, Conflict, DatabaseUrl, Ending, GameEnd, GameNo,
        GameRecord, GameStatus, History, NewAction, NewChallenge, NewGame, Platform, RequestKey,
        Settlement, Store, StoreError, Timestamp, User,
    };
    use tabula_core::{AnyGame, GameId};

    const MINUTE: i64 = 60_000;
    const DAY: i64 = 24 * 60 * MINUTE;

    /// An ending without conditions whose pot (if any) is refunded.
    fn ending(end: GameEnd, result: &str) -> Ending<'_> {
        Ending {
            end,
            result,
            payout: tabula_bot::store::Payout::Refund,
            actor: None,
            expected_seq: None,
            deadline_passed: None,
        }
    }

    fn conflict<T: std::fmt::Debug>(result: Result<T, StoreError>) -> Conflict {
        match result {
            Err(StoreError::Conflict(conflict)) => conflict,
            other => panic!("expected a conflict, got {other:?}"),
        }
    }

    async fn user(store: &Store, id: &str) -> User {
        store
            .upsert_user(Platform::Local, id, id)
            .await
            .expect("upsert user")
    }

    async fn chat(store: &Store, id: &str) -> Chat {
        store
            .upsert_chat(Platform::Local, id, id, None)
            .await
            .expect("upsert chat")
    }

    /// A Konane game between two new users in a new chat.
    async fn konane(store: &Store) -> (GameRecord, User, User) {
        let chat = chat(store, "table").await;
        let (ann, bob) = (user(store, "ann").await, user(store, "bob").await);
        let game = store
            .create_game(&NewGame {
                chat: chat.id,
                game: GameId::Konane,
                options: "size=6",
                start_position: None,
                seats: &[ann.id, bob.id],
                accepting: None,
                community: chat.community,
                stake: 0,
                move_millis: DAY,
                turn: None,
            })
            .await
            .expect("create game");
        (game, ann, bob)
    }

    /// Plays `count` legal moves (the first legal one each time) from `state`, returning their
    /// canonical notation.
    fn play(state: &mut AnyGame, count: usize) -> Vec<String> {
        (0..count)
            .map(|_| {
                let lines = state.legal_lines();
                let first = lines
                    .first()
                    .and_then(|line| line.split_whitespace().next())
                    .expect("a legal move");
                state.apply_text(first).expect("legal move").notation()
            })
            .collect()
    }

    fn actions(notations: &[String], actor: Option<tabula_bot::store::UserId>) -> Vec<NewAction> {
        notations
            .iter()
            .map(|action| NewAction {
                action: action.clone(),
                actor,
            })
            .collect()
    }

    fn start(record: &GameRecord) -> AnyGame {
        AnyGame::start(record.game, &record.option_list(), None).expect("start")
    }

    async fn load(store: &Store, game: GameNo) -> tabula_bot::store::LoadedGame {
        store
            .load_game(game, History::Full)
            .await
            .expect("load")
            .expect("game exists")
    }

    pub async fn users_and_chats_are_upserted(store: &Store) {
        let ann = store
            .upsert_user(Platform::Discord, "1001", "Ann")
            .await
            .expect("insert");
        assert_eq!(ann.platform, Platform::Discord);
        assert_eq!(ann.platform_user_id, "1001");
        assert_eq!(ann.display_name, "Ann");
        let renamed = store
            .upsert_user(Platform::Discord, "1001", "Ann B.")
            .await
            .expect("update");
        assert_eq!(renamed.id, ann.id);
        assert_eq!(renamed.display_name, "Ann B.");
        assert_eq!(renamed.created_at, ann.created_at);
        assert!(renamed.updated_at >= ann.updated_at);
        let other_platform = store
            .upsert_user(Platform::Telegram, "1001", "Ann")
            .await
            .expect("insert");
        assert_ne!(other_platform.id, ann.id);
        assert_eq!(store.user(ann.id).await.expect("get"), Some(renamed));
        assert_eq!(
            store
                .user(tabula_bot::store::UserId(ann.id.0 + 1000))
                .await
                .expect("get"),
            None
        );

        let room = store
            .upsert_chat(Platform::Telegram, "-100", "Games", None)
            .await
            .expect("insert");
        let renamed = store
            .upsert_chat(Platform::Telegram, "-100", "Board games", None)
            .await
            .expect("update");
        assert_eq!(renamed.id, room.id);
        assert_eq!(renamed.title, "Board games");
        let other = store
            .upsert_chat(Platform::Discord, "-100", "Games", None)
            .await
            .expect("insert");
        assert_ne!(other.id, room.id);
    }

    pub async fn challenge_lifecycle(store: &Store) {
        let room = chat(store, "room").await;
        let (ann, bob, cy) = (
            user(store, "ann").await,
            user(store, "bob").await,
            user(store, "cy").await,
        );
        let now = Timestamp::now();
        let (repeated, nobody, only_bob) = ([bob.id, cy.id, bob.id], [], [bob.id]);
        let new = |invited| NewChallenge {
            chat: room.id,
            game: GameId::Pachisi,
            options: "finish=overshoot",
            challenger: ann.id,
            invited,
            expires_at: now.plus_millis(10 * MINUTE),
            stake: 0,
            move_millis: DAY,
        };

        let invited = store
            .create_challenge(&new(&repeated))
            .await
            .expect("create");
        assert_eq!(invited.status, ChallengeStatus::Pending);
        assert_eq!(invited.invited, vec![bob.id, cy.id], "repeats dropped");
        assert_eq!(invited.game, GameId::Pachisi);
        assert_eq!(invited.options, "finish=overshoot");
        assert_eq!(invited.challenger, ann.id);
        assert!(!invited.is_open());
        assert_eq!(invited.started_game, None);
        assert_eq!(
            store.challenge(invited.id).await.expect("get"),
            Some(invited.clone())
        );

        let open = store.create_challenge(&new(&nobody)).await.expect("create");
        assert!(open.is_open());
        let pending = store.pending_challenges(room.id).await.expect("list");
        assert_eq!(pending, vec![invited.clone(), open.clone()]);

        let declined = store
            .settle_challenge(invited.id, Settlement::Decline, bob.id, now)
            .await
            .expect("decline");
        assert_eq!(declined.status, ChallengeStatus::Declined);
        assert_eq!(declined.settled_by, Some(bob.id));
        assert_eq!(declined.settled_at, Some(now));
        assert_eq!(
            conflict(
                store
                    .settle_challenge(invited.id, Settlement::Accept, cy.id, now)
                    .await
            ),
            Conflict::ChallengeSettled {
                challenge: invited.id,
                status: ChallengeStatus::Declined
            }
        );

        let cancelled = store
            .settle_challenge(open.id, Settlement::Cancel, ann.id, now)
            .await
            .expect("cancel");
        assert_eq!(cancelled.status, ChallengeStatus::Cancelled);
        assert_eq!(
            store.pending_challenges(room.id).await.expect("list"),
            vec![]
        );

        // Expiry: refused once its time has come, then marked by `expire_challenges`.
        let short = store
            .create_challenge(&NewChallenge {
                expires_at: now.plus_millis(MINUTE),
                stake: 0,
                move_millis: DAY,
                ..new(&only_bob)
            })
            .await
            .expect("create");
        let later = now.plus_millis(MINUTE);
        assert_eq!(
            conflict(
                store
                    .settle_challenge(short.id, Settlement::Accept, bob.id, later)
                    .await
            ),
            Conflict::ChallengeExpired(short.id)
        );
        assert_eq!(store.expire_challenges(now).await.expect("expire"), vec![]);
        let expired = store.expire_challenges(later).await.expect("expire");
        assert_eq!(expired.len(), 1);
        assert_eq!(expired[0].id, short.id);
        assert_eq!(expired[0].status, ChallengeStatus::Expired);
        assert_eq!(
            conflict(
                store
                    .settle_challenge(short.id, Settlement::Cancel, ann.id, now)
                    .await
            ),
            Conflict::ChallengeSettled {
                challenge: short.id,
                status: ChallengeStatus::Expired
            }
        );

        let missing = tabula_bot::store::ChallengeNo(short.id.0 + 1000);
        assert_eq!(store.challenge(missing).await.expect("get"), None);
        assert_eq!(
            conflict(
                store
                    .settle_challenge(missing, Settlement::Accept, bob.id, now)
                    .await
            ),
            Conflict::NoSuchChallenge(missing)
        );
    }

    pub async fn concurrent_accepts_exactly_one_wins(store: &Store) {
        const RACERS: usize = 8;
        let room = chat(store, "room").await;
        let ann = user(store, "ann").await;
        let mut racers = Vec::new();
        for index in 0..RACERS {
            racers.push(user(store, &format!("racer{index}")).await);
        }
        let now = Timestamp::now();
        let challenge = |store: Store| async move {
            store
                .create_challenge(&NewChallenge {
                    chat: room.id,
                    game: GameId::Konane,
                    options: "",
                    challenger: ann.id,
                    invited: &[],
                    expires_at: now.plus_millis(MINUTE),
                    stake: 0,
                    move_millis: DAY,
                })
                .await
                .expect("create")
        };

        // Racing `create_game` calls that accept the same open challenge.
        let open = challenge(store.clone()).await;
        let tasks: Vec<_> = racers
            .iter()
            .map(|racer| {
                let (store, by) = (store.clone(), racer.id);
                tokio::spawn(async move {
                    store
                        .create_game(&NewGame {
                            chat: room.id,
                            game: GameId::Konane,
                            options: "",
                            start_position: None,
                            seats: &[ann.id, by],
                            accepting: Some(Acceptance {
                                challenge: open.id,
                                by,
                                now,
                            }),
                            community: room.community,
                            stake: 0,
                            move_millis: DAY,
                            turn: None,
                        })
                        .await
                })
            })
            .collect();
        let mut games = Vec::new();
        for task in tasks {
            match task.await.expect("task") {
                Ok(game) => games.push(game),
                Err(StoreError::Conflict(Conflict::ChallengeSettled { challenge, status })) => {
                    assert_eq!((challenge, status), (open.id, ChallengeStatus::Accepted));
                }
                Err(other) => panic!("unexpected {other:?}"),
            }
        }
        assert_eq!(games.len(), 1, "exactly one accept wins");
        let game = &games[0];
        let settled = store
            .challenge(open.id)
            .await
            .expect("get")
            .expect("exists");
        assert_eq!(settled.status, ChallengeStatus::Accepted);
        assert_eq!(settled.started_game, Some(game.id));
        assert_eq!(settled.settled_by, Some(game.seats[1].user.id));
        assert_eq!(game.challenge, Some(open.id));
        let active = store.active_games_in_chat(room.id).await.expect("list");
        assert_eq!(active, vec![game.clone()], "no game from a losing accept");

        // Racing settlements of another challenge: one accept, the rest refused.
        let other = challenge(store.clone()).await;
        let tasks: Vec<_> = racers
            .iter()
            .enumerate()
            .map(|(index, racer)| {
                let (store, by) = (store.clone(), racer.id);
                let settlement = if index % 2 == 0 {
                    Settlement::Accept
                } else {
                    Settlement::Decline
                };
                tokio::spawn(
                    async move { store.settle_challenge(other.id, settlement, by, now).await },
                )
            })
            .collect();
        let mut winners = 0;
        for task in tasks {
            match task.await.expect("task") {
                Ok(_) => winners += 1,
                Err(StoreError::Conflict(Conflict::ChallengeSettled { .. })) => {}
                Err(other) => panic!("unexpected {other:?}"),
            }
        }
        assert_eq!(winners, 1, "exactly one settlement wins");
    }

    pub async fn game_is_created_with_its_seats(store: &Store) {
        let room = chat(store, "room").await;
        let elsewhere = chat(store, "elsewhere").await;
        let (ann, bob, cy) = (
            user(store, "ann").await,
            user(store, "bob").await,
            user(store, "cy").await,
        );
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

    fn keyed<'a>(
        expected_seq: u32,
        actions: &'a [NewAction],
        request: &'a RequestKey,
    ) -> Append<'a> {
        Append {
            expected_seq,
            actions,
            request: Some(request),
            ..Append::default()
        }
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

    pub async fn invitees_accept_one_by_one(store: &Store) {
        let room = chat(store, "room").await;
        let (ann, bob, cy, dee, eve) = (
            user(store, "ann").await,
            user(store, "bob").await,
            user(store, "cy").await,
            user(store, "dee").await,
            user(store, "eve").await,
        );
        let now = Timestamp::now();
        let challenge = store
            .create_challenge(&NewChallenge {
                chat: room.id,
                game: GameId::Pachisi,
                options: "",
                challenger: ann.id,
                invited: &[bob.id, cy.id, dee.id],
                expires_at: now.plus_millis(MINUTE),
                stake: 0,
                move_millis: DAY,
            })
            .await
            .expect("create");
        let first = store
            .accept_invitation(challenge.id, cy.id, now, None)
            .await
            .expect("accept");
        assert!(first.newly);
        assert_eq!(first.waiting, vec![bob.id, dee.id]);
        assert_eq!(first.challenge.status, ChallengeStatus::Pending);
        let again = store
            .accept_invitation(challenge.id, cy.id, now, None)
            .await
            .expect("accept again");
        assert!(!again.newly);
        assert_eq!(again.waiting, vec![bob.id, dee.id]);
        assert_eq!(
            conflict(
                store
                    .accept_invitation(challenge.id, eve.id, now, None)
                    .await
            ),
            Conflict::NotInvited(challenge.id)
        );
        let key = RequestKey {
            platform: Platform::Local,
            key: "accept-bob".to_string(),
        };
        let second = store
            .accept_invitation(challenge.id, bob.id, now, Some(&key))
            .await
            .expect("accept");
        assert_eq!(second.waiting, vec![dee.id]);
        assert_eq!(
            conflict(
                store
                    .accept_invitation(challenge.id, dee.id, now, Some(&key))
                    .await
            ),
            Conflict::Duplicate
        );
        let last = store
            .accept_invitation(challenge.id, dee.id, now, None)
            .await
            .expect("accept");
        assert!(last.waiting.is_empty());
        // A settled challenge takes no more acceptances.
        store
            .settle_challenge(challenge.id, Settlement::Decline, dee.id, now)
            .await
            .expect("decline");
        assert!(matches!(
            conflict(
                store
                    .accept_invitation(challenge.id, bob.id, now, None)
                    .await
            ),
            Conflict::ChallengeSettled { .. }
        ));
        // Concurrent acceptances: none lost, exactly one sees nobody waiting.
        let racers = [bob.id, cy.id, dee.id];
        for _ in 0..4 {
            let challenge = store
                .create_challenge(&NewChallenge {
                    chat: room.id,
                    game: GameId::Pachisi,
                    options: "",
                    challenger: ann.id,
                    invited: &racers,
                    expires_at: now.plus_millis(MINUTE),
                    stake: 0,
                    move_millis: DAY,
                })
                .await
                .expect("create");
            let tasks: Vec<_> = racers
                .iter()
                .map(|&by| {
                    let store = store.clone();
                    tokio::spawn(async move {
                        store.accept_invitation(challenge.id, by, now, None).await
                    })
                })
                .collect();
            let mut last = 0;
            for task in tasks {
                let invitation = task.await.expect("task").expect("accept");
                assert!(invitation.newly);
                if invitation.waiting.is_empty() {
                    last += 1;
                }
            }
            assert_eq!(last, 1);
        }
    }

    pub async fn keyed_challenge_changes_are_applied_once(store: &Store) {
        let room = chat(store, "room").await;
        let (ann, bob) = (user(store, "ann").await, user(store, "bob").await);
        let now = Timestamp::now();
        let key = |key: &str| RequestKey {
            platform: Platform::Telegram,
            key: key.to_string(),
        };
        let new = NewChallenge {
            chat: room.id,
            game: GameId::Konane,
            options: "",
            challenger: ann.id,
            invited: &[bob.id],
            expires_at: now.plus_millis(MINUTE),
            stake: 0,
            move_millis: DAY,
        };
        let play = key("play");
        let challenge = store
            .create_challenge_once(&new, &play)
            .await
            .expect("create");
        assert!(store.request_handled(&play).await.expect("handled"));
        assert_eq!(
            conflict(store.create_challenge_once(&new, &play).await),
            Conflict::Duplicate
        );
        assert_eq!(
            store
                .pending_challenges(room.id)
                .await
                .expect("pending")
                .len(),
            1
        );
        let accept = key("accept");
        let game = NewGame {
            chat: room.id,
            game: GameId::Konane,
            options: "",
            start_position: None,
            seats: &[ann.id, bob.id],
            accepting: Some(Acceptance {
                challenge: challenge.id,
                by: bob.id,
                now,
            }),
            community: room.community,
            stake: 0,
            move_millis: DAY,
            turn: None,
        };
        let record = store
            .create_game_once(&game, &accept)
            .await
            .expect("create game");
        assert_eq!(
            conflict(store.create_game_once(&game, &accept).await),
            Conflict::Duplicate
        );
        // A refused change leaves its key unrecorded.
        let refused = key("refused");
        assert!(matches!(
            conflict(store.create_game_once(&game, &refused).await),
            Conflict::ChallengeSettled { .. }
        ));
        assert!(!store.request_handled(&refused).await.expect("handled"));
        let resign = key("resign");
        store
            .end_game_once(
                record.id,
                &ending(GameEnd::Finished, "winner White (resigned)"),
                &resign,
            )
            .await
            .expect("end");
        assert_eq!(
            conflict(
                store
                    .end_game_once(record.id, &ending(GameEnd::Aborted, "again"), &resign)
                    .await
            ),
            Conflict::Duplicate
        );
        let other = store
            .create_challenge_once(&new, &key("play2"))
            .await
            .expect("create");
        let decline = key("decline");
        store
            .settle_challenge_once(other.id, Settlement::Decline, bob.id, now, &decline)
            .await
            .expect("decline");
        assert_eq!(
            conflict(
                store
                    .settle_challenge_once(other.id, Settlement::Decline, bob.id, now, &decline)
                    .await
            ),
            Conflict::Duplicate
        );
    }
}
