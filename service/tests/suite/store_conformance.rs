//! Storage conformance: one suite of cases, each an `async fn` over a [`Store`] (or, for the
//! cases that reconnect, over its URL), run against SQLite (a fresh file per test, and an
//! in-memory database) and against PostgreSQL (a fresh schema per test, dropped afterwards).
//!
//! PostgreSQL is reached through `TABULA_TEST_POSTGRES_URL`. The PostgreSQL tests are ignored by
//! a plain `cargo test` (so a machine without the server reports them as ignored, never as
//! passed); `.ci/run` sets the URL and runs them with `--include-ignored`. Run that way, they
//! must connect and fail loudly if the variable is unset or the server unreachable.

use crate::common;

use common::{PostgresSchema, SqliteFile, connect};
use tabula_service::store::DatabaseUrl;

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
                    let url = tabula_service::store::DatabaseUrl::new("sqlite::memory:");
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
        committed_dice_are_kept,
        languages_are_kept,
        concurrent_accepts_exactly_one_wins,
        game_is_created_with_its_seats,
        append_with_the_right_seq,
        append_with_a_stale_seq_is_refused_and_changes_nothing,
        duplicate_request_key_is_refused,
        snapshot_finish_and_end,
        concurrent_appenders_leave_no_gap_or_duplicate,
        invitees_accept_one_by_one,
        open_challenges_gather_joiners,
        keyed_challenge_changes_are_applied_once,
        chats_of_a_community_share_it_and_its_settings,
        wallets_open_with_one_grant_and_the_books_balance,
        stakes_go_into_one_pot_or_nothing_is_written,
        a_pot_is_settled_exactly_once,
        fines_move_with_their_actions_and_may_leave_a_debt,
        a_turn_sets_its_clock_exactly,
        a_turn_during_a_vacation_starts_when_it_ends,
        vacations_push_running_clocks_within_the_monthly_quota,
        ending_on_time_checks_the_seq_and_the_deadline,
        due_games_are_claimed_once_per_turn,
        concurrent_claims_return_each_game_once,
        concurrent_stakes_never_spend_the_same_money,
        racing_endings_settle_the_pot_once,
        concurrent_vacations_keep_the_quota,
        due_claims_write_their_outbox_rows,
        outbox_claims_the_head_of_each_chat_with_pacing_and_leases,
        outbox_failure_is_retried_later_while_other_chats_go_on,
        a_newer_board_turns_waiting_boards_into_text,
        racing_dispatchers_deliver_each_row_once,
        username_invitee_binds_to_the_first_matching_user,
        accepting_and_creating_the_game_is_atomic,
        a_moved_chat_takes_its_topics_games_and_money_along,
        a_chat_moved_onto_rows_already_there_keeps_every_game_and_coin,
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
    let error = tabula_service::store::StoreError::UnsupportedUrl {
        scheme: url.scheme().to_string(),
    };
    assert!(!format!("{error:?} {error}").contains("hunter2"));
}

#[test]
fn database_url_scheme_picks_the_backend() {
    use tabula_service::store::Backend;
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
    use std::sync::Arc;

    use tabula_core::{AnyGame, GameId};
    use tabula_service::store::{
        Acceptance, Accepted, Account, AccountId, AccountKind, Append, Appended, ChallengeStatus,
        Chat, CommunityId, Conflict, DatabaseUrl, Due, Ending, Fine, GameEnd, GameNo, GameRecord,
        GameStatus, History, Invitee, LedgerEntry, LedgerKind, NewAction, NewChallenge, NewGame,
        NewOutbox, NewVacation, OutboxId, OutboxKind, OutboxRow, Payout, Platform, RequestKey,
        Settings, Settlement, StakedGames, Store, StoreError, Timestamp, TurnClock, TurnStart,
        User, UserId, Vacation,
    };
    use tabula_service::store::{ChallengeNo, ChatId, MovedChat};

    const MINUTE: i64 = 60_000;
    const DAY: i64 = 24 * 60 * MINUTE;

    /// An ending without conditions whose pot (if any) is refunded.
    fn ending(end: GameEnd, result: &str) -> Ending<'_> {
        Ending {
            end,
            result,
            payout: tabula_service::store::Payout::Refund,
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
                dice: None,
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

    fn actions(
        notations: &[String],
        actor: Option<tabula_service::store::UserId>,
    ) -> Vec<NewAction> {
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

    async fn load(store: &Store, game: GameNo) -> tabula_service::store::LoadedGame {
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
                .user(tabula_service::store::UserId(ann.id.0 + 1000))
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
            computer: None,
            dice_seed: None,
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
                computer: None,
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

        let missing = tabula_service::store::ChallengeNo(short.id.0 + 1000);
        assert_eq!(store.challenge(missing).await.expect("get"), None);
        assert_eq!(
            conflict(
                store
                    .settle_challenge(missing, Settlement::Accept, bob.id, now)
                    .await
            ),
            Conflict::NoSuchChallenge(missing)
        );

        // The computer's level, when it takes the seats nobody takes, is kept.
        assert_eq!(invited.computer, None);
        let with_computer = store
            .create_challenge(&NewChallenge {
                computer: Some(3),
                ..new(&only_bob)
            })
            .await
            .expect("create");
        assert_eq!(with_computer.computer, Some(3));
        assert_eq!(
            store.challenge(with_computer.id).await.expect("get"),
            Some(with_computer)
        );
    }

    /// Committed dice (issue 19): a challenge's seed, and the seed and nonce of the game started
    /// from it, read back as written.
    /// A person's own language and the community's default: none until chosen, each kept
    /// apart, replaced, forgotten; a repeated request changes nothing.
    pub async fn languages_are_kept(store: &Store) {
        let room = chat(store, "languages").await;
        let other = chat(store, "elsewhere").await;
        let (ann, bob) = (user(store, "ann").await, user(store, "bob").await);
        let languages = |user: User, community| async move {
            store
                .languages(user.id, community)
                .await
                .expect("languages")
        };
        assert_eq!(languages(ann.clone(), room.community).await, (None, None));
        store
            .set_user_language(ann.id, Some("ru"), None)
            .await
            .expect("set");
        let key = RequestKey {
            platform: Platform::Local,
            key: "language-1".to_string(),
        };
        store
            .set_user_language(ann.id, Some("bg"), Some(&key))
            .await
            .expect("replace");
        assert_eq!(
            conflict(
                store
                    .set_user_language(ann.id, Some("en"), Some(&key))
                    .await
            ),
            Conflict::Duplicate
        );
        let settings = Settings {
            language: Some("ru".to_string()),
            ..Settings::default()
        };
        store
            .save_settings(room.community, &settings, bob.id, None)
            .await
            .expect("save");
        assert_eq!(
            languages(ann.clone(), room.community).await,
            (Some("bg".to_string()), Some("ru".to_string()))
        );
        assert_eq!(languages(bob.clone(), other.community).await, (None, None));
        assert_eq!(
            languages(bob.clone(), room.community).await,
            (None, Some("ru".to_string()))
        );
        store
            .set_user_language(ann.id, None, None)
            .await
            .expect("forget");
        assert_eq!(
            languages(ann, other.community).await,
            (None, None),
            "forgotten"
        );
    }

    pub async fn committed_dice_are_kept(store: &Store) {
        let room = chat(store, "dice").await;
        let (ann, bob) = (user(store, "ann").await, user(store, "bob").await);
        let now = Timestamp::now();
        let seed = "00ff".repeat(16);
        let challenge = store
            .create_challenge(&NewChallenge {
                chat: room.id,
                game: GameId::CoanKi,
                options: "",
                challenger: ann.id,
                invited: &[bob.id],
                expires_at: now.plus_millis(MINUTE),
                stake: 0,
                move_millis: DAY,
                computer: None,
                dice_seed: Some(seed.clone()),
            })
            .await
            .expect("create");
        assert_eq!(challenge.dice_seed.as_deref(), Some(seed.as_str()));
        assert_eq!(
            store.challenge(challenge.id).await.expect("get"),
            Some(challenge.clone())
        );
        let dice = tabula_service::store::GameDice {
            seed: seed.clone(),
            nonce: Some("callback-8841".into()),
        };
        let game = store
            .create_game(&NewGame {
                chat: room.id,
                game: GameId::CoanKi,
                options: "",
                start_position: None,
                seats: &[ann.id, bob.id],
                accepting: Some(Acceptance {
                    challenge: challenge.id,
                    by: bob.id,
                    now,
                    computer: None,
                }),
                community: room.community,
                stake: 0,
                move_millis: DAY,
                turn: None,
                dice: Some(dice.clone()),
            })
            .await
            .expect("create game");
        assert_eq!(game.dice, Some(dice.clone()));
        assert_eq!(load(store, game.id).await.record.dice, Some(dice));
        // No nonce: the salt says `none`.
        let unsalted = tabula_service::store::GameDice { seed, nonce: None };
        let alone = store
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
                dice: Some(unsalted.clone()),
            })
            .await
            .expect("create game");
        let loaded = load(store, alone.id).await.record;
        assert_eq!(loaded.dice, Some(unsalted.clone()));
        assert_eq!(unsalted.salt(alone.id), format!("{}:none", alone.id));
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
                    computer: None,
                    dice_seed: None,
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
                                computer: None,
                            }),
                            community: room.community,
                            stake: 0,
                            move_millis: DAY,
                            turn: None,
                            dice: None,
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

    /// An open challenge gathers joiners in order, each once, up to its room; listed with
    /// the chat's pending challenges; a challenge with invitees takes no joiners, nor an
    /// expired one; its game then seats the challenger and the joiners.
    pub async fn open_challenges_gather_joiners(store: &Store) {
        let room = chat(store, "room").await;
        let (ann, bob, cy, dee) = (
            user(store, "ann").await,
            user(store, "bob").await,
            user(store, "cy").await,
            user(store, "dee").await,
        );
        let now = Timestamp::now();
        let open = store
            .create_challenge(&NewChallenge {
                chat: room.id,
                game: GameId::Pachisi,
                options: "",
                challenger: ann.id,
                invited: &[],
                expires_at: now.plus_millis(MINUTE),
                stake: 0,
                move_millis: DAY,
                computer: None,
                dice_seed: None,
            })
            .await
            .expect("create");
        assert!(open.joined.is_empty());
        let first = store
            .join_open_challenge(open.id, cy.id, now, 2, None)
            .await
            .expect("join");
        assert!(first.newly);
        assert_eq!(first.challenge.joined, vec![cy.id]);
        let again = store
            .join_open_challenge(open.id, cy.id, now.plus_millis(1), 2, None)
            .await
            .expect("join again");
        assert!(!again.newly);
        let second = store
            .join_open_challenge(open.id, bob.id, now.plus_millis(2), 2, None)
            .await
            .expect("join");
        assert_eq!(second.challenge.joined, vec![cy.id, bob.id]);
        // Full: the next one must start the game instead.
        assert_eq!(
            conflict(
                store
                    .join_open_challenge(open.id, dee.id, now.plus_millis(3), 2, None)
                    .await
            ),
            Conflict::PlayersChanged(open.id)
        );
        let pending = store.pending_challenges(room.id).await.expect("pending");
        assert_eq!(pending.len(), 1);
        assert_eq!(pending[0].joined, vec![cy.id, bob.id]);
        assert_eq!(
            store
                .challenge(open.id)
                .await
                .expect("read")
                .map(|c| c.joined),
            Some(vec![cy.id, bob.id])
        );

        // A game whose seats leave out a joiner is refused; with them all, it starts.
        let mut new = NewGame {
            chat: room.id,
            game: GameId::Pachisi,
            options: "",
            start_position: None,
            seats: &[ann.id, dee.id, ann.id, dee.id],
            accepting: Some(Acceptance {
                challenge: open.id,
                by: dee.id,
                now,
                computer: None,
            }),
            community: room.community,
            stake: 0,
            move_millis: DAY,
            turn: None,
            dice: None,
        };
        assert_eq!(
            conflict(store.accept_and_create_game(&new, None).await),
            Conflict::PlayersChanged(open.id)
        );
        let everyone = [ann.id, cy.id, bob.id, dee.id];
        new.seats = &everyone;
        assert!(matches!(
            store.accept_and_create_game(&new, None).await,
            Ok(Accepted::Started(_))
        ));

        // A challenge with invitees takes no joiners; an expired one neither.
        let named = store
            .create_challenge(&NewChallenge {
                chat: room.id,
                game: GameId::Konane,
                options: "",
                challenger: ann.id,
                invited: &[bob.id],
                expires_at: now.plus_millis(MINUTE),
                stake: 0,
                move_millis: DAY,
                computer: None,
                dice_seed: None,
            })
            .await
            .expect("create");
        assert_eq!(
            conflict(
                store
                    .join_open_challenge(named.id, cy.id, now, 2, None)
                    .await
            ),
            Conflict::NotInvited(named.id)
        );
        let late = now.plus_millis(2 * MINUTE);
        assert_eq!(
            conflict(
                store
                    .join_open_challenge(named.id, cy.id, late, 2, None)
                    .await
            ),
            Conflict::ChallengeExpired(named.id)
        );
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
                computer: None,
                dice_seed: None,
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
                    computer: None,
                    dice_seed: None,
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
            computer: None,
            dice_seed: None,
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
                computer: None,
            }),
            community: room.community,
            stake: 0,
            move_millis: DAY,
            turn: None,
            dice: None,
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

    // ---- Communities, money, clocks, vacations and the scheduler. ----

    const HOUR: i64 = 60 * MINUTE;
    /// 2027-01-15 08:00 UTC: the moment the clock and vacation cases start from.
    const T0: Timestamp = Timestamp(1_800_000_000_000);
    /// January and February 2027 (UTC), as `[first moment, first moment of the next month)`.
    const JANUARY: (Timestamp, Timestamp) =
        (Timestamp(1_798_761_600_000), Timestamp(1_801_440_000_000));
    const FEBRUARY: (Timestamp, Timestamp) =
        (Timestamp(1_801_440_000_000), Timestamp(1_803_859_200_000));

    /// A friendly Konane game in `chat` between `seats`, a day per move, no clock running:
    /// change what a case needs with `..game_in(chat, seats)`.
    fn game_in<'a>(chat: &Chat, seats: &'a [UserId]) -> NewGame<'a> {
        NewGame {
            chat: chat.id,
            game: GameId::Konane,
            options: "size=6",
            start_position: None,
            seats,
            accepting: None,
            community: chat.community,
            stake: 0,
            move_millis: DAY,
            turn: None,
            dice: None,
        }
    }

    /// A four-seat Pachisi game in `chat` with `stake`.
    fn pachisi<'a>(chat: &Chat, seats: &'a [UserId], stake: i64) -> NewGame<'a> {
        NewGame {
            game: GameId::Pachisi,
            options: "",
            stake,
            ..game_in(chat, seats)
        }
    }

    async fn create(store: &Store, game: &NewGame<'_>) -> GameRecord {
        store.create_game(game).await.expect("create game")
    }

    async fn record(store: &Store, game: GameNo) -> GameRecord {
        store.game(game).await.expect("get").expect("game exists")
    }

    /// A board of `game` with buttons, posted as message `id`.
    async fn post_board(store: &Store, game: GameNo, id: &str) {
        store
            .board_posted(&tabula_service::store::PostedBoard {
                game,
                message_id: id,
                buttons: true,
                seq: 0,
                pressed: None,
                announcement: None,
                now: T0,
            })
            .await
            .expect("board");
    }

    /// Appends the next legal move of `state` by `actor`, with the rest of `append`; `state`
    /// advances only when the store took the move.
    async fn advance(
        store: &Store,
        game: GameNo,
        state: &mut AnyGame,
        actor: UserId,
        append: Append<'_>,
    ) -> Result<Appended, StoreError> {
        let mut next = state.clone();
        let moves = actions(&play(&mut next, 1), Some(actor));
        let appended = store
            .append_actions(
                game,
                &Append {
                    actions: &moves,
                    ..append
                },
            )
            .await?;
        *state = next;
        Ok(appended)
    }

    /// The balance of an opened wallet.
    async fn balance(store: &Store, community: CommunityId, user: UserId) -> i64 {
        store
            .wallet(community, user)
            .await
            .expect("wallet")
            .expect("wallet opened")
            .balance
    }

    async fn balances(store: &Store, community: CommunityId, users: &[UserId]) -> Vec<i64> {
        let mut all = Vec::new();
        for user in users {
            all.push(balance(store, community, *user).await);
        }
        all
    }

    async fn wallet_account(store: &Store, community: CommunityId, user: UserId) -> AccountId {
        store
            .wallet(community, user)
            .await
            .expect("wallet")
            .expect("wallet opened")
            .account
    }

    async fn bank_account(store: &Store, community: CommunityId) -> AccountId {
        let banks: Vec<AccountId> = store
            .accounts(community)
            .await
            .expect("accounts")
            .into_iter()
            .filter(|account| account.kind == AccountKind::Bank)
            .map(|account| account.id)
            .collect();
        assert_eq!(banks.len(), 1, "one bank per community");
        banks[0]
    }

    async fn pot(store: &Store, community: CommunityId, game: GameNo) -> Account {
        let pots: Vec<Account> = store
            .accounts(community)
            .await
            .expect("accounts")
            .into_iter()
            .filter(|account| account.kind == AccountKind::Pot && account.game == Some(game))
            .collect();
        assert_eq!(pots.len(), 1, "one pot for game {game}");
        pots[0].clone()
    }

    /// A ledger row without its id, time and community: (kind, from, to, amount, game).
    type Move = (LedgerKind, AccountId, AccountId, i64, Option<GameNo>);

    fn movement(entry: &LedgerEntry) -> Move {
        (entry.kind, entry.from, entry.to, entry.amount, entry.game)
    }

    /// The rows of a game's ledger, in writing order.
    async fn game_moves(store: &Store, community: CommunityId, game: GameNo) -> Vec<Move> {
        store
            .ledger(community)
            .await
            .expect("ledger")
            .iter()
            .filter(|entry| entry.game == Some(game))
            .map(movement)
            .collect()
    }

    fn sorted<T: Ord>(mut items: Vec<T>) -> Vec<T> {
        items.sort();
        items
    }

    /// Moves in the order of their accounts, for comparing rows whose order does not matter.
    fn by_accounts(mut moves: Vec<Move>) -> Vec<Move> {
        moves.sort_by_key(|&(_, from, to, amount, game)| (from, to, amount, game));
        moves
    }

    /// Double entry: a community's balances sum to zero, each is its ledger credits minus its
    /// debits, and the bank holds minus what the wallets and pots hold.
    async fn assert_books_balance(store: &Store, community: CommunityId) {
        let accounts = store.accounts(community).await.expect("accounts");
        let ledger = store.ledger(community).await.expect("ledger");
        let ids: HashSet<AccountId> = accounts.iter().map(|account| account.id).collect();
        for entry in &ledger {
            assert_eq!(entry.community, community, "{entry:?}");
            assert!(entry.amount > 0, "{entry:?}");
            assert!(
                ids.contains(&entry.from) && ids.contains(&entry.to),
                "{entry:?} moves money of another community"
            );
        }
        crate::common::assert_books_balance(&accounts, &ledger, "the books");
        for account in &accounts {
            assert_eq!(account.community, community);
            match account.kind {
                AccountKind::Bank => assert_eq!((account.user, account.game), (None, None)),
                AccountKind::Wallet => assert!(account.user.is_some() && account.game.is_none()),
                AccountKind::Pot => assert!(account.user.is_none() && account.game.is_some()),
            }
        }
        let bank = bank_account(store, community).await;
        let held: i64 = accounts
            .iter()
            .filter(|account| account.id != bank)
            .map(|account| account.balance)
            .sum();
        let bank_balance = accounts
            .iter()
            .find(|account| account.id == bank)
            .map(|account| account.balance);
        assert_eq!(
            bank_balance,
            Some(-held),
            "the bank is minus the money given out"
        );
    }

    pub async fn chats_of_a_community_share_it_and_its_settings(store: &Store) {
        let guild = Some(("g1", "Guild"));
        let general = store
            .upsert_chat(Platform::Discord, "c1", "general", guild)
            .await
            .expect("upsert");
        let games = store
            .upsert_chat(Platform::Discord, "c2", "games", guild)
            .await
            .expect("upsert");
        assert_ne!(games.id, general.id);
        assert_eq!(games.community, general.community);
        for chat in [&general, &games] {
            assert_eq!(chat.platform_community_id, "g1");
            assert_eq!(chat.community_title, "Guild");
        }
        let other_guild = store
            .upsert_chat(Platform::Discord, "c3", "lobby", Some(("g2", "Other")))
            .await
            .expect("upsert");
        assert_ne!(other_guild.community, general.community);
        // A chat outside any community is its own, named after it.
        let alone = store
            .upsert_chat(Platform::Discord, "dm", "Direct", None)
            .await
            .expect("upsert");
        assert_eq!(alone.platform_community_id, "dm");
        assert_eq!(alone.community_title, "Direct");
        assert!(![general.community, other_guild.community].contains(&alone.community));
        // Communities, like chats, are per platform.
        let telegram = store
            .upsert_chat(Platform::Telegram, "g1", "Group", None)
            .await
            .expect("upsert");
        assert!(
            ![general.community, other_guild.community, alone.community]
                .contains(&telegram.community)
        );

        // Renaming a community (seen through any of its chats) renames it for all of them.
        let renamed = store
            .upsert_chat(
                Platform::Discord,
                "c1",
                "general",
                Some(("g1", "Guild of Games")),
            )
            .await
            .expect("upsert");
        assert_eq!(renamed.id, general.id);
        assert_eq!(renamed.community, general.community);
        assert_eq!(renamed.title, "general");
        assert_eq!(renamed.community_title, "Guild of Games");
        let games_now = store.chat(games.id).await.expect("get").expect("exists");
        assert_eq!(games_now.community_title, "Guild of Games");
        assert_eq!(games_now.community, general.community);
        let alone_renamed = store
            .upsert_chat(Platform::Discord, "dm", "Direct talk", None)
            .await
            .expect("upsert");
        assert_eq!(alone_renamed.community, alone.community);
        assert_eq!(alone_renamed.community_title, "Direct talk");

        // Settings: the defaults until saved, then exactly what was saved, for that
        // community only.
        let moderator = user(store, "mod").await;
        let settings =
            |community| async move { store.settings(community).await.expect("settings") };
        assert_eq!(settings(general.community).await, Settings::default());
        let custom = Settings {
            enabled_games: vec![GameId::Konane, GameId::Pachisi],
            default_stake: 10,
            max_stake: 50,
            starting_grant: 200,
            default_move_millis: DAY,
            max_move_millis: 2 * DAY,
            reminders: false,
            staked_games: StakedGames::Moderators,
            vacation_days: 3,
            language: Some("bg".to_string()),
        };
        store
            .save_settings(general.community, &custom, moderator.id, None)
            .await
            .expect("save");
        assert_eq!(settings(general.community).await, custom);
        assert_eq!(settings(games.community).await, custom, "same community");
        for community in [other_guild.community, alone.community, telegram.community] {
            assert_eq!(settings(community).await, Settings::default());
        }
        // Saving again replaces every field; another community's save changes nothing here.
        let changed = Settings {
            enabled_games: vec![GameId::CoanKi],
            default_stake: 0,
            max_stake: 7,
            starting_grant: 0,
            default_move_millis: HOUR,
            max_move_millis: HOUR,
            reminders: true,
            staked_games: StakedGames::Everyone,
            vacation_days: 0,
            language: None,
        };
        let key = RequestKey {
            platform: Platform::Discord,
            key: "config-1".to_string(),
        };
        store
            .save_settings(general.community, &changed, moderator.id, Some(&key))
            .await
            .expect("save");
        assert_eq!(settings(general.community).await, changed);
        assert_eq!(
            conflict(
                store
                    .save_settings(general.community, &custom, moderator.id, Some(&key))
                    .await
            ),
            Conflict::Duplicate
        );
        assert_eq!(
            settings(general.community).await,
            changed,
            "duplicate not applied"
        );
        store
            .save_settings(other_guild.community, &custom, moderator.id, None)
            .await
            .expect("save");
        assert_eq!(settings(other_guild.community).await, custom);
        assert_eq!(settings(general.community).await, changed);
    }

    pub async fn wallets_open_with_one_grant_and_the_books_balance(store: &Store) {
        let room = chat(store, "room").await;
        let community = room.community;
        let (ann, bob, cy, moderator) = (
            user(store, "ann").await,
            user(store, "bob").await,
            user(store, "cy").await,
            user(store, "mod").await,
        );
        let ledger = || async { store.ledger(community).await.expect("ledger") };
        assert_eq!(store.wallet(community, ann.id).await.expect("wallet"), None);
        assert_eq!(ledger().await, vec![]);

        // The starting grant, once.
        let opened = store.open_wallet(community, ann.id).await.expect("open");
        assert_eq!(
            (opened.user, opened.balance, opened.in_play),
            (ann.id, 1000, 0)
        );
        let bank = bank_account(store, community).await;
        let grant = ledger().await;
        assert_eq!(
            grant.iter().map(movement).collect::<Vec<_>>(),
            vec![(LedgerKind::Grant, bank, opened.account, 1000, None)]
        );
        assert_eq!(
            store.open_wallet(community, ann.id).await.expect("open"),
            opened
        );
        assert_eq!(ledger().await, grant, "no second grant");

        // A new starting grant applies to wallets opened later only.
        store
            .save_settings(
                community,
                &Settings {
                    starting_grant: 250,
                    ..Settings::default()
                },
                moderator.id,
                None,
            )
            .await
            .expect("save");
        let bobs = store.open_wallet(community, bob.id).await.expect("open");
        assert_eq!(bobs.balance, 250);
        assert_eq!(balance(store, community, ann.id).await, 1000);

        // A moderator's grant and take, with who and why.
        let granted = store
            .adjust_wallet(community, ann.id, 50, moderator.id, "won the cup", None)
            .await
            .expect("grant");
        assert_eq!(granted.balance, 1050);
        let last = ledger().await.pop().expect("a row");
        assert_eq!(
            movement(&last),
            (LedgerKind::Grant, bank, opened.account, 50, None)
        );
        assert_eq!(
            (last.actor, last.reason.as_str()),
            (Some(moderator.id), "won the cup")
        );
        let taken = store
            .adjust_wallet(community, ann.id, -300, moderator.id, "spam", None)
            .await
            .expect("take");
        assert_eq!(taken.balance, 750);
        let last = ledger().await.pop().expect("a row");
        assert_eq!(
            movement(&last),
            (LedgerKind::Adjustment, opened.account, bank, 300, None)
        );
        assert_eq!(
            (last.actor, last.reason.as_str()),
            (Some(moderator.id), "spam")
        );

        // A take above the balance is refused and changes nothing; taking all of it is not.
        let (rows, accounts) = (
            ledger().await,
            store.accounts(community).await.expect("accounts"),
        );
        assert_eq!(
            conflict(
                store
                    .adjust_wallet(community, bob.id, -251, moderator.id, "too much", None)
                    .await
            ),
            Conflict::InsufficientFunds {
                user: bob.id,
                balance: 250,
                needed: 251
            }
        );
        assert_eq!(ledger().await, rows);
        assert_eq!(store.accounts(community).await.expect("accounts"), accounts);
        let emptied = store
            .adjust_wallet(community, bob.id, -250, moderator.id, "all of it", None)
            .await
            .expect("take");
        assert_eq!(emptied.balance, 0);

        // A keyed adjustment is applied once.
        let key = RequestKey {
            platform: Platform::Discord,
            key: "grant-7".to_string(),
        };
        let gift = store
            .adjust_wallet(community, bob.id, 20, moderator.id, "gift", Some(&key))
            .await
            .expect("grant");
        assert_eq!(gift.balance, 20);
        let rows = ledger().await;
        assert_eq!(
            conflict(
                store
                    .adjust_wallet(community, bob.id, 20, moderator.id, "gift", Some(&key))
                    .await
            ),
            Conflict::Duplicate
        );
        assert_eq!(ledger().await, rows);
        assert_eq!(balance(store, community, bob.id).await, 20);

        // A grant to someone without a wallet opens it (with the starting grant) first.
        let cys = store
            .adjust_wallet(community, cy.id, 100, moderator.id, "welcome", None)
            .await
            .expect("grant");
        assert_eq!(cys.balance, 350);
        let cy_rows: Vec<Move> = ledger()
            .await
            .iter()
            .filter(|entry| entry.to == cys.account)
            .map(movement)
            .collect();
        assert_eq!(
            cy_rows,
            vec![
                (LedgerKind::Grant, bank, cys.account, 250, None),
                (LedgerKind::Grant, bank, cys.account, 100, None),
            ]
        );

        let board: Vec<(UserId, i64)> = store
            .leaderboard(community, 10)
            .await
            .expect("leaderboard")
            .into_iter()
            .map(|(user, balance)| (user.id, balance))
            .collect();
        assert_eq!(board, vec![(ann.id, 750), (cy.id, 350), (bob.id, 20)]);
        assert_eq!(
            store
                .leaderboard(community, 2)
                .await
                .expect("leaderboard")
                .len(),
            2
        );

        // With no starting grant a wallet opens empty, and the books get no row for it.
        store
            .save_settings(
                community,
                &Settings {
                    starting_grant: 0,
                    ..Settings::default()
                },
                moderator.id,
                None,
            )
            .await
            .expect("save");
        let rows = ledger().await;
        let dee = user(store, "dee").await;
        let dees = store.open_wallet(community, dee.id).await.expect("open");
        assert_eq!((dees.balance, dees.in_play), (0, 0));
        assert_eq!(ledger().await, rows);

        // Another community has its own wallets and books.
        let elsewhere = chat(store, "elsewhere").await;
        let rows = ledger().await;
        let away = store
            .open_wallet(elsewhere.community, ann.id)
            .await
            .expect("open");
        assert_eq!(away.balance, 1000);
        assert_ne!(away.account, opened.account);
        assert_eq!(balance(store, community, ann.id).await, 750);
        assert_eq!(ledger().await, rows);

        assert_books_balance(store, community).await;
        assert_books_balance(store, elsewhere.community).await;
        let bank_balance = store
            .accounts(community)
            .await
            .expect("accounts")
            .iter()
            .find(|account| account.id == bank)
            .map(|account| account.balance);
        assert_eq!(bank_balance, Some(-(750 + 350 + 20)));
    }

    pub async fn stakes_go_into_one_pot_or_nothing_is_written(store: &Store) {
        let room = chat(store, "room").await;
        let community = room.community;
        let (ann, bob, cy, dee) = (
            user(store, "ann").await,
            user(store, "bob").await,
            user(store, "cy").await,
            user(store, "dee").await,
        );
        for person in [&ann, &bob, &cy] {
            store.open_wallet(community, person.id).await.expect("open");
        }
        store
            .adjust_wallet(community, cy.id, -950, ann.id, "leave 50", None)
            .await
            .expect("take");
        let (ann_wallet, bob_wallet, cy_wallet) = (
            wallet_account(store, community, ann.id).await,
            wallet_account(store, community, bob.id).await,
            wallet_account(store, community, cy.id).await,
        );

        let konane = create(
            store,
            &NewGame {
                stake: 100,
                ..game_in(&room, &[ann.id, bob.id])
            },
        )
        .await;
        assert_eq!(konane.stake, 100);
        let pot_of_konane = pot(store, community, konane.id).await;
        assert_eq!(pot_of_konane.balance, 200);
        assert_eq!(
            by_accounts(game_moves(store, community, konane.id).await),
            by_accounts(vec![
                (
                    LedgerKind::Stake,
                    ann_wallet,
                    pot_of_konane.id,
                    100,
                    Some(konane.id)
                ),
                (
                    LedgerKind::Stake,
                    bob_wallet,
                    pot_of_konane.id,
                    100,
                    Some(konane.id)
                ),
            ])
        );
        for person in [&ann, &bob] {
            let wallet = store
                .wallet(community, person.id)
                .await
                .expect("wallet")
                .expect("opened");
            assert_eq!((wallet.balance, wallet.in_play), (900, 100));
        }

        // One player cannot pay: no game, no pot, nobody's money moves, and the challenge
        // stays pending.
        let now = Timestamp::now();
        let challenge = store
            .create_challenge(&NewChallenge {
                chat: room.id,
                game: GameId::Konane,
                options: "size=6",
                challenger: ann.id,
                invited: &[cy.id],
                expires_at: now.plus_millis(10 * MINUTE),
                stake: 100,
                move_millis: DAY,
                computer: None,
                dice_seed: None,
            })
            .await
            .expect("challenge");
        let ann_and_cy = [ann.id, cy.id];
        let accepting = NewGame {
            stake: 100,
            accepting: Some(Acceptance {
                challenge: challenge.id,
                by: cy.id,
                now,
                computer: None,
            }),
            ..game_in(&room, &ann_and_cy)
        };
        let rows = store.ledger(community).await.expect("ledger");
        let accounts = store.accounts(community).await.expect("accounts");
        assert_eq!(
            conflict(store.create_game(&accepting).await),
            Conflict::InsufficientFunds {
                user: cy.id,
                balance: 50,
                needed: 100
            }
        );
        assert_eq!(store.ledger(community).await.expect("ledger"), rows);
        assert_eq!(store.accounts(community).await.expect("accounts"), accounts);
        assert_eq!(balance(store, community, ann.id).await, 900);
        let still = store
            .challenge(challenge.id)
            .await
            .expect("get")
            .expect("exists");
        assert_eq!(still.status, ChallengeStatus::Pending);
        assert_eq!(still.started_game, None);
        assert_eq!(
            store.active_games_in_chat(room.id).await.expect("list"),
            vec![konane.clone()]
        );
        // Nor can someone without a wallet.
        assert_eq!(
            conflict(
                store
                    .create_game(&NewGame {
                        stake: 100,
                        ..game_in(&room, &[ann.id, dee.id])
                    })
                    .await
            ),
            Conflict::InsufficientFunds {
                user: dee.id,
                balance: 0,
                needed: 100
            }
        );
        assert_eq!(store.wallet(community, dee.id).await.expect("wallet"), None);
        assert_eq!(store.accounts(community).await.expect("accounts"), accounts);
        assert_eq!(store.ledger(community).await.expect("ledger"), rows);

        // Once cy holds exactly the stake, the same challenge can be accepted.
        store
            .adjust_wallet(community, cy.id, 50, ann.id, "top up", None)
            .await
            .expect("grant");
        let accepted = create(store, &accepting).await;
        assert_eq!(balance(store, community, cy.id).await, 0);
        assert_eq!(pot(store, community, accepted.id).await.balance, 200);
        let settled = store
            .challenge(challenge.id)
            .await
            .expect("get")
            .expect("exists");
        assert_eq!(settled.status, ChallengeStatus::Accepted);
        assert_eq!(settled.started_game, Some(accepted.id));
        assert!(game_moves(store, community, accepted.id).await.contains(&(
            LedgerKind::Stake,
            cy_wallet,
            pot(store, community, accepted.id).await.id,
            100,
            Some(accepted.id)
        )));

        // Two persons holding two seats each stake once each.
        let four_seats = create(
            store,
            &pachisi(&room, &[ann.id, bob.id, ann.id, bob.id], 10),
        )
        .await;
        let pot_of_pachisi = pot(store, community, four_seats.id).await;
        assert_eq!(pot_of_pachisi.balance, 20);
        assert_eq!(
            by_accounts(game_moves(store, community, four_seats.id).await),
            by_accounts(vec![
                (
                    LedgerKind::Stake,
                    ann_wallet,
                    pot_of_pachisi.id,
                    10,
                    Some(four_seats.id)
                ),
                (
                    LedgerKind::Stake,
                    bob_wallet,
                    pot_of_pachisi.id,
                    10,
                    Some(four_seats.id)
                ),
            ])
        );
        let anns = store
            .wallet(community, ann.id)
            .await
            .expect("wallet")
            .expect("opened");
        assert_eq!((anns.balance, anns.in_play), (790, 210));
        assert_books_balance(store, community).await;
    }

    pub async fn a_pot_is_settled_exactly_once(store: &Store) {
        let room = chat(store, "room").await;
        let community = room.community;
        let (ann, bob, cy, dee) = (
            user(store, "ann").await,
            user(store, "bob").await,
            user(store, "cy").await,
            user(store, "dee").await,
        );
        let everyone = [ann.id, bob.id, cy.id, dee.id];
        for person in everyone {
            store.open_wallet(community, person).await.expect("open");
        }
        let ann_wallet = wallet_account(store, community, ann.id).await;
        let bob_wallet = wallet_account(store, community, bob.id).await;
        let cy_wallet = wallet_account(store, community, cy.id).await;

        // Won by the append that finishes the game.
        let won = create(
            store,
            &NewGame {
                stake: 100,
                ..game_in(&room, &[ann.id, bob.id])
            },
        )
        .await;
        let winner = Payout::Winners(vec![ann.id]);
        advance(
            store,
            won.id,
            &mut start(&won),
            ann.id,
            Append {
                finish: Some("ann wins"),
                payout: Some(&winner),
                ..Append::default()
            },
        )
        .await
        .expect("finishing move");
        let finished = record(store, won.id).await;
        assert_eq!(finished.status, GameStatus::Finished);
        assert!(finished.settled_at.is_some());
        let won_pot = pot(store, community, won.id).await;
        assert_eq!(won_pot.balance, 0);
        assert_eq!(
            balances(store, community, &[ann.id, bob.id]).await,
            vec![1100, 900]
        );
        let payout = LedgerKind::Payout;
        assert_eq!(
            game_moves(store, community, won.id).await[2..],
            [(payout, won_pot.id, ann_wallet, 200, Some(won.id))]
        );
        for person in [ann.id, bob.id] {
            let wallet = store
                .wallet(community, person)
                .await
                .expect("wallet")
                .expect("opened");
            assert_eq!(wallet.in_play, 0);
        }
        // Ending it again is refused and pays nothing.
        let rows = store.ledger(community).await.expect("ledger");
        assert_eq!(
            conflict(
                store
                    .end_game(
                        won.id,
                        &Ending {
                            payout: Payout::Winners(vec![bob.id]),
                            ..ending(GameEnd::Finished, "bob resigned")
                        }
                    )
                    .await
            ),
            Conflict::GameOver {
                game: won.id,
                status: GameStatus::Finished
            }
        );
        assert_eq!(store.ledger(community).await.expect("ledger"), rows);
        assert_eq!(record(store, won.id).await, finished);

        // Aborted: every stake goes back.
        let aborted = create(
            store,
            &NewGame {
                stake: 50,
                ..game_in(&room, &[ann.id, bob.id])
            },
        )
        .await;
        assert_eq!(
            balances(store, community, &[ann.id, bob.id]).await,
            vec![1050, 850]
        );
        let ended = store
            .end_game(aborted.id, &ending(GameEnd::Aborted, "abandoned"))
            .await
            .expect("abort");
        assert_eq!(ended.status, GameStatus::Aborted);
        assert!(ended.settled_at.is_some());
        let aborted_pot = pot(store, community, aborted.id).await;
        assert_eq!(aborted_pot.balance, 0);
        assert_eq!(
            balances(store, community, &[ann.id, bob.id]).await,
            vec![1100, 900]
        );
        let refund = LedgerKind::Refund;
        assert_eq!(
            by_accounts(game_moves(store, community, aborted.id).await[2..].to_vec()),
            by_accounts(vec![
                (refund, aborted_pot.id, ann_wallet, 50, Some(aborted.id)),
                (refund, aborted_pot.id, bob_wallet, 50, Some(aborted.id)),
            ])
        );

        // A resignation under a request key: settled once however often it is delivered.
        let resigned = create(
            store,
            &NewGame {
                stake: 100,
                ..game_in(&room, &[ann.id, bob.id])
            },
        )
        .await;
        let key = RequestKey {
            platform: Platform::Telegram,
            key: "resign-9".to_string(),
        };
        let bob_wins = Ending {
            payout: Payout::Winners(vec![bob.id]),
            actor: Some(ann.id),
            ..ending(GameEnd::Finished, "ann resigned")
        };
        store
            .end_game_once(resigned.id, &bob_wins, &key)
            .await
            .expect("resign");
        assert_eq!(
            balances(store, community, &[ann.id, bob.id]).await,
            vec![1000, 1000]
        );
        let resigned_pot = pot(store, community, resigned.id).await;
        let rows = store.ledger(community).await.expect("ledger");
        let paid = rows.last().expect("a row");
        assert_eq!(
            movement(paid),
            (payout, resigned_pot.id, bob_wallet, 200, Some(resigned.id))
        );
        assert_eq!(paid.actor, Some(ann.id));
        assert_eq!(
            conflict(store.end_game_once(resigned.id, &bob_wins, &key).await),
            Conflict::Duplicate
        );
        let again = RequestKey {
            platform: Platform::Telegram,
            key: "resign-10".to_string(),
        };
        assert_eq!(
            conflict(store.end_game_once(resigned.id, &bob_wins, &again).await),
            Conflict::GameOver {
                game: resigned.id,
                status: GameStatus::Finished
            }
        );
        assert_eq!(store.ledger(community).await.expect("ledger"), rows);

        // A team of two shares a pot of four stakes evenly.
        let team = create(store, &pachisi(&room, &everyone, 10)).await;
        assert_eq!(pot(store, community, team.id).await.balance, 40);
        store
            .end_game(
                team.id,
                &Ending {
                    payout: Payout::Winners(vec![ann.id, cy.id]),
                    ..ending(GameEnd::Finished, "ann and cy win")
                },
            )
            .await
            .expect("end");
        let team_pot = pot(store, community, team.id).await;
        assert_eq!(
            by_accounts(game_moves(store, community, team.id).await[4..].to_vec()),
            by_accounts(vec![
                (payout, team_pot.id, ann_wallet, 20, Some(team.id)),
                (payout, team_pot.id, cy_wallet, 20, Some(team.id)),
            ])
        );

        // Three persons' stakes of 5 shared by two winners: the first named gets the odd one.
        let odd = create(store, &pachisi(&room, &[ann.id, bob.id, cy.id, bob.id], 5)).await;
        assert_eq!(pot(store, community, odd.id).await.balance, 15);
        store
            .end_game(
                odd.id,
                &Ending {
                    payout: Payout::Winners(vec![cy.id, ann.id]),
                    ..ending(GameEnd::Finished, "cy and ann win")
                },
            )
            .await
            .expect("end");
        let odd_pot = pot(store, community, odd.id).await;
        assert_eq!(
            game_moves(store, community, odd.id).await[3..],
            [
                (payout, odd_pot.id, cy_wallet, 8, Some(odd.id)),
                (payout, odd_pot.id, ann_wallet, 7, Some(odd.id)),
            ]
        );

        // Winners named as nobody (which the service never asks for): the stakes go back
        // rather than staying in the pot.
        let nobody = create(
            store,
            &NewGame {
                stake: 30,
                ..game_in(&room, &[ann.id, bob.id])
            },
        )
        .await;
        store
            .end_game(
                nobody.id,
                &Ending {
                    payout: Payout::Winners(Vec::new()),
                    ..ending(GameEnd::Finished, "nobody won")
                },
            )
            .await
            .expect("end");
        let nobody_pot = pot(store, community, nobody.id).await;
        assert_eq!(
            by_accounts(game_moves(store, community, nobody.id).await[2..].to_vec()),
            by_accounts(vec![
                (refund, nobody_pot.id, ann_wallet, 30, Some(nobody.id)),
                (refund, nobody_pot.id, bob_wallet, 30, Some(nobody.id)),
            ])
        );

        let pots: Vec<i64> = store
            .accounts(community)
            .await
            .expect("accounts")
            .iter()
            .filter(|account| account.kind == AccountKind::Pot)
            .map(|account| account.balance)
            .collect();
        assert_eq!(pots, vec![0; 6], "every pot emptied");
        assert_eq!(
            balances(store, community, &everyone).await,
            vec![1012, 985, 1013, 990]
        );
        assert_books_balance(store, community).await;
    }

    pub async fn fines_move_with_their_actions_and_may_leave_a_debt(store: &Store) {
        let (game, ann, bob) = konane(store).await;
        let community = game.community;
        for person in [ann.id, bob.id] {
            store.open_wallet(community, person).await.expect("open");
        }
        store
            .adjust_wallet(community, bob.id, -970, ann.id, "leave 30", None)
            .await
            .expect("take");
        let (ann_wallet, bob_wallet) = (
            wallet_account(store, community, ann.id).await,
            wallet_account(store, community, bob.id).await,
        );
        let mut state = start(&game);
        let bob_pays = [Fine {
            payer: bob.id,
            payee: ann.id,
            amount: 50,
        }];
        let fined = advance(
            store,
            game.id,
            &mut state,
            bob.id,
            Append {
                fines: &bob_pays,
                ..Append::default()
            },
        )
        .await
        .expect("append");
        assert_eq!(fined.seq, 1);
        assert_eq!(
            balances(store, community, &[ann.id, bob.id]).await,
            vec![1050, -20],
            "the payer may go below zero"
        );
        let rows = store.ledger(community).await.expect("ledger");
        let fine = rows.last().expect("a row");
        assert_eq!(
            movement(fine),
            (LedgerKind::Fine, bob_wallet, ann_wallet, 50, Some(game.id))
        );
        assert_eq!(fine.actor, Some(bob.id));

        // A refused append pays no fine.
        let before = load(store, game.id).await;
        let ann_pays = [Fine {
            payer: ann.id,
            payee: bob.id,
            amount: 5,
        }];
        assert_eq!(
            conflict(
                advance(
                    store,
                    game.id,
                    &mut state,
                    ann.id,
                    Append {
                        expected_seq: 0,
                        fines: &ann_pays,
                        ..Append::default()
                    },
                )
                .await
            ),
            Conflict::StaleSeq { current: 1 }
        );
        assert_eq!(store.ledger(community).await.expect("ledger"), rows);
        assert_eq!(load(store, game.id).await, before);

        // A re-delivered one neither.
        let key = RequestKey {
            platform: Platform::Discord,
            key: "double-one".to_string(),
        };
        advance(
            store,
            game.id,
            &mut state,
            ann.id,
            Append {
                expected_seq: 1,
                request: Some(&key),
                fines: &ann_pays,
                ..Append::default()
            },
        )
        .await
        .expect("append");
        assert_eq!(
            balances(store, community, &[ann.id, bob.id]).await,
            vec![1045, -15]
        );
        let rows = store.ledger(community).await.expect("ledger");
        assert_eq!(
            conflict(
                advance(
                    store,
                    game.id,
                    &mut state,
                    ann.id,
                    Append {
                        expected_seq: 2,
                        request: Some(&key),
                        fines: &ann_pays,
                        ..Append::default()
                    },
                )
                .await
            ),
            Conflict::Duplicate
        );
        // Nor one on a game that is over.
        store
            .end_game(game.id, &ending(GameEnd::Aborted, "stopped"))
            .await
            .expect("end");
        assert_eq!(
            conflict(
                advance(
                    store,
                    game.id,
                    &mut state,
                    ann.id,
                    Append {
                        expected_seq: 2,
                        fines: &ann_pays,
                        ..Append::default()
                    },
                )
                .await
            ),
            Conflict::GameOver {
                game: game.id,
                status: GameStatus::Aborted
            }
        );
        assert_eq!(store.ledger(community).await.expect("ledger"), rows);
        assert_eq!(
            balances(store, community, &[ann.id, bob.id]).await,
            vec![1045, -15]
        );
        assert_books_balance(store, community).await;
    }

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
        let room = chat(store, "room").await;
        let (ann, bob) = (user(store, "ann").await, user(store, "bob").await);
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
            appended,
            Appended {
                seq: 1,
                clock: Some(second),
                announced: None,
            }
        );
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
        let (ann, bob) = (user(store, "ann").await, user(store, "bob").await);
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
        let (ann, bob) = (user(store, "ann").await, user(store, "bob").await);
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
        let room = chat(store, "room").await;
        let community = room.community;
        let (ann, bob) = (user(store, "ann").await, user(store, "bob").await);
        for person in [ann.id, bob.id] {
            store.open_wallet(community, person).await.expect("open");
        }
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
        let room = chat(store, "room").await;
        let (ann, bob) = (user(store, "ann").await, user(store, "bob").await);
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
        let room = chat(store, "room").await;
        let (ann, bob) = (user(store, "ann").await, user(store, "bob").await);
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

    pub async fn concurrent_stakes_never_spend_the_same_money(store: &Store) {
        const RACERS: usize = 8;
        let room = chat(store, "room").await;
        let community = room.community;
        let ann = user(store, "ann").await;
        let mut opponents = Vec::new();
        for index in 0..RACERS {
            let opponent = user(store, &format!("opponent{index}")).await;
            store
                .open_wallet(community, opponent.id)
                .await
                .expect("open");
            opponents.push(opponent.id);
        }
        store.open_wallet(community, ann.id).await.expect("open");
        store
            .adjust_wallet(community, ann.id, -750, opponents[0], "leave 250", None)
            .await
            .expect("take");

        // Ann's 250 pays for two stakes of 100, whoever gets there first.
        let tasks: Vec<_> = opponents
            .iter()
            .map(|&opponent| {
                let (store, room) = (store.clone(), room.clone());
                tokio::spawn(async move {
                    let seats = [ann.id, opponent];
                    store
                        .create_game(&NewGame {
                            stake: 100,
                            ..game_in(&room, &seats)
                        })
                        .await
                })
            })
            .collect();
        let mut started = Vec::new();
        for task in tasks {
            match task.await.expect("task") {
                Ok(game) => started.push(game.id),
                Err(StoreError::Conflict(refused)) => assert_eq!(
                    refused,
                    Conflict::InsufficientFunds {
                        user: ann.id,
                        balance: 50,
                        needed: 100
                    }
                ),
                Err(other) => panic!("unexpected {other:?}"),
            }
        }
        assert_eq!(started.len(), 2, "exactly two stakes paid");
        let anns = store
            .wallet(community, ann.id)
            .await
            .expect("wallet")
            .expect("opened");
        assert_eq!((anns.balance, anns.in_play), (50, 200));
        let active = store.active_games_in_chat(room.id).await.expect("list");
        assert_eq!(
            sorted(active.iter().map(|game| game.id).collect()),
            sorted(started)
        );
        let pots = store
            .accounts(community)
            .await
            .expect("accounts")
            .iter()
            .filter(|account| account.kind == AccountKind::Pot)
            .count();
        assert_eq!(pots, 2, "no pot left behind by a refused game");

        // Wallets opened at once get one starting grant.
        let cy = user(store, "cy").await;
        let tasks: Vec<_> = (0..RACERS)
            .map(|_| {
                let store = store.clone();
                tokio::spawn(async move { store.open_wallet(community, cy.id).await })
            })
            .collect();
        let mut wallets = HashSet::new();
        for task in tasks {
            let wallet = task.await.expect("task").expect("open");
            assert_eq!(wallet.balance, 1000);
            wallets.insert(wallet.account);
        }
        assert_eq!(wallets.len(), 1);
        let grants = store
            .ledger(community)
            .await
            .expect("ledger")
            .iter()
            .filter(|entry| wallets.contains(&entry.to))
            .count();
        assert_eq!(grants, 1);
        assert_books_balance(store, community).await;
    }

    pub async fn racing_endings_settle_the_pot_once(store: &Store) {
        const RACERS: usize = 8;
        let room = chat(store, "room").await;
        let community = room.community;
        let (ann, bob) = (user(store, "ann").await, user(store, "bob").await);
        for person in [ann.id, bob.id] {
            store.open_wallet(community, person).await.expect("open");
        }
        let seats = [ann.id, bob.id];
        for round in 0..3 {
            let game = create(
                store,
                &NewGame {
                    stake: 100,
                    ..game_in(&room, &seats)
                },
            )
            .await;
            // With both stakes in the pot.
            let before = balances(store, community, &seats).await;
            // Resignations for either side and, in each round, a finishing move, all at once.
            let mut tasks: Vec<_> = (0..RACERS)
                .map(|index| {
                    let store = store.clone();
                    let winner = seats[index % 2];
                    tokio::spawn(async move {
                        let ending = Ending {
                            payout: Payout::Winners(vec![winner]),
                            ..ending(GameEnd::Finished, "resigned")
                        };
                        store.end_game(game.id, &ending).await.map(|_| winner)
                    })
                })
                .collect();
            let mut state = start(&game);
            let finishing = actions(&play(&mut state, 1), Some(ann.id));
            tasks.push({
                let store = store.clone();
                tokio::spawn(async move {
                    let payout = Payout::Winners(vec![ann.id]);
                    let append = Append {
                        actions: &finishing,
                        finish: Some("ann wins"),
                        payout: Some(&payout),
                        ..Append::default()
                    };
                    store.append_actions(game.id, &append).await.map(|_| ann.id)
                })
            });
            let mut winners = Vec::new();
            for task in tasks {
                match task.await.expect("task") {
                    Ok(winner) => winners.push(winner),
                    Err(StoreError::Conflict(Conflict::GameOver { game: over, status })) => {
                        assert_eq!((over, status), (game.id, GameStatus::Finished));
                    }
                    Err(other) => panic!("round {round}: unexpected {other:?}"),
                }
            }
            assert_eq!(winners.len(), 1, "round {round}: exactly one ending wins");
            let pot_of_game = pot(store, community, game.id).await;
            assert_eq!(pot_of_game.balance, 0);
            let winner_wallet = wallet_account(store, community, winners[0]).await;
            assert_eq!(
                game_moves(store, community, game.id).await[2..],
                [(
                    LedgerKind::Payout,
                    pot_of_game.id,
                    winner_wallet,
                    200,
                    Some(game.id)
                )]
            );
            let after = balances(store, community, &seats).await;
            let expected: Vec<i64> = seats
                .iter()
                .zip(&before)
                .map(|(person, balance)| {
                    if *person == winners[0] {
                        balance + 200
                    } else {
                        *balance
                    }
                })
                .collect();
            assert_eq!(after, expected, "round {round}");
        }
        assert_books_balance(store, community).await;
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

    // ---- The outbox, chats' activity, boards, usernames, atomic acceptance ----

    fn new_outbox<'a>(
        chat: &Chat,
        game: Option<GameNo>,
        kind: OutboxKind,
        payload: &'a str,
        now: Timestamp,
    ) -> NewOutbox<'a> {
        NewOutbox {
            platform: chat.platform,
            chat: chat.id,
            game,
            kind,
            payload,
            now,
            held: None,
        }
    }

    async fn enqueue(store: &Store, new: &NewOutbox<'_>) -> OutboxId {
        store.enqueue_outbox(new).await.expect("enqueue")
    }

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
        let room = chat(store, "room").await;
        let (ann, bob) = (user(store, "ann").await, user(store, "bob").await);
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
                .claim_due_to_outbox(due, now, 10)
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

    pub async fn username_invitee_binds_to_the_first_matching_user(store: &Store) {
        let room = chat(store, "room").await;
        let ann = user(store, "ann").await;
        let bob = store
            .upsert_user_with_username(Platform::Local, "bob", "Bob", Some("@Bob_B"))
            .await
            .expect("bob");
        assert_eq!(bob.username.as_deref(), Some("Bob_B"));
        assert_eq!(
            store
                .user_by_username(Platform::Local, "@bob_b")
                .await
                .expect("find")
                .map(|user| user.id),
            Some(bob.id)
        );
        assert_eq!(
            store
                .user_by_username(Platform::Telegram, "bob_b")
                .await
                .expect("find"),
            None
        );
        // The old upsert keeps the username.
        let same = store
            .upsert_user(Platform::Local, "bob", "Bob")
            .await
            .expect("bob");
        assert_eq!(same.username.as_deref(), Some("Bob_B"));

        let now = Timestamp::now();
        let challenge = store
            .create_challenge_with_invitees(
                &NewChallenge {
                    chat: room.id,
                    game: GameId::Pachisi,
                    options: "",
                    challenger: ann.id,
                    invited: &[bob.id],
                    expires_at: now.plus_millis(MINUTE),
                    stake: 0,
                    move_millis: DAY,
                    computer: None,
                    dice_seed: None,
                },
                &[
                    Invitee::Username("@Cy".to_string()),
                    Invitee::User(bob.id),
                    Invitee::Username("cy".to_string()),
                    Invitee::Username("dee".to_string()),
                ],
                None,
            )
            .await
            .expect("create");
        assert_eq!(
            challenge
                .invitees
                .iter()
                .map(|invitee| invitee.invitee.clone())
                .collect::<Vec<_>>(),
            vec![
                Invitee::User(bob.id),
                Invitee::Username("Cy".to_string()),
                Invitee::Username("dee".to_string()),
            ],
            "repeats dropped, the first spelling kept"
        );
        assert_eq!(challenge.invited, vec![bob.id]);
        assert!(!challenge.is_open());
        assert_eq!(challenge.unbound_usernames(), vec!["Cy", "dee"]);
        let waiting = store
            .accept_invitation(challenge.id, bob.id, now, None)
            .await
            .expect("accept");
        assert_eq!(waiting.waiting, vec![]);
        assert_eq!(
            waiting.waiting_usernames,
            vec!["Cy".to_string(), "dee".to_string()]
        );
        assert!(!waiting.complete());

        let cy = store
            .upsert_user_with_username(Platform::Local, "cy", "Cy", Some("cY"))
            .await
            .expect("cy");
        let impostor = store
            .upsert_user_with_username(Platform::Local, "imp", "Imp", Some("imp"))
            .await
            .expect("imp");
        // Not invited, or the wrong name: nothing.
        assert!(
            !store
                .bind_invitee_username(challenge.id, "eve", impostor.id)
                .await
                .expect("bind")
        );
        assert_eq!(
            conflict(
                store
                    .accept_invitation(challenge.id, cy.id, now, None)
                    .await
            ),
            Conflict::NotInvited(challenge.id)
        );
        // Racing for the seat: exactly one wins.
        let racers: Vec<_> = [cy.id, impostor.id]
            .into_iter()
            .map(|user| {
                let store = store.clone();
                tokio::spawn(async move {
                    store
                        .bind_invitee_username(challenge.id, "CY", user)
                        .await
                        .expect("bind")
                })
            })
            .collect();
        let mut won = Vec::new();
        for (user, racer) in [cy.id, impostor.id].into_iter().zip(racers) {
            if racer.await.expect("task") {
                won.push(user);
            }
        }
        assert_eq!(won.len(), 1, "one seat, one winner: {won:?}");
        let winner = won[0];
        let loser = if winner == cy.id { impostor.id } else { cy.id };
        assert!(
            !store
                .bind_invitee_username(challenge.id, "cy", loser)
                .await
                .expect("bind")
        );
        let bound = store
            .challenge(challenge.id)
            .await
            .expect("get")
            .expect("exists");
        assert_eq!(bound.invited, vec![bob.id, winner]);
        assert_eq!(bound.unbound_usernames(), vec!["dee"]);
        // A bound user holds no second seat; a repeat by the one known by that name is fine.
        assert!(
            !store
                .bind_invitee_username(challenge.id, "dee", winner)
                .await
                .expect("bind")
        );
        if winner == cy.id {
            assert!(
                store
                    .bind_invitee_username(challenge.id, "@cy", cy.id)
                    .await
                    .expect("again")
            );
        }
        let accepted = store
            .accept_invitation(challenge.id, winner, now, None)
            .await
            .expect("accept");
        assert_eq!(accepted.waiting_usernames, vec!["dee".to_string()]);

        // A username moves with its owner: the first holder loses it.
        let moved = store
            .upsert_user_with_username(Platform::Local, "bob2", "Bob Two", Some("bob_b"))
            .await
            .expect("bob2");
        assert_eq!(
            store
                .user_by_username(Platform::Local, "BOB_B")
                .await
                .expect("find")
                .map(|user| user.id),
            Some(moved.id)
        );
        assert_eq!(
            store
                .user(bob.id)
                .await
                .expect("get")
                .expect("bob")
                .username,
            None
        );
    }

    pub async fn accepting_and_creating_the_game_is_atomic(store: &Store) {
        let room = chat(store, "room").await;
        let community = room.community;
        let (ann, bob, cy, dee) = (
            user(store, "ann").await,
            user(store, "bob").await,
            user(store, "cy").await,
            user(store, "dee").await,
        );
        for person in [&ann, &bob, &cy] {
            store.open_wallet(community, person.id).await.expect("open");
        }
        let now = Timestamp::now();
        let challenge = store
            .create_challenge(&NewChallenge {
                chat: room.id,
                game: GameId::Pachisi,
                options: "",
                challenger: ann.id,
                invited: &[bob.id, cy.id, dee.id],
                expires_at: now.plus_millis(MINUTE),
                stake: 100,
                move_millis: DAY,
                computer: None,
                dice_seed: None,
            })
            .await
            .expect("create");
        let seats = [ann.id, bob.id, cy.id, dee.id];
        let game_by = |by: UserId| NewGame {
            accepting: Some(Acceptance {
                challenge: challenge.id,
                by,
                now,
                computer: None,
            }),
            ..pachisi(&room, &seats, 100)
        };
        let Accepted::Waiting(first) = store
            .accept_and_create_game(&game_by(bob.id), None)
            .await
            .expect("accept")
        else {
            panic!("two are still to accept");
        };
        assert!(first.newly);
        assert_eq!(first.waiting, vec![cy.id, dee.id]);
        let Accepted::Waiting(second) = store
            .accept_and_create_game(&game_by(dee.id), None)
            .await
            .expect("accept")
        else {
            panic!("one is still to accept");
        };
        assert_eq!(second.waiting, vec![cy.id]);
        // Dee has no wallet: the last acceptance cannot start the game, and is not recorded.
        let key = RequestKey {
            platform: Platform::Local,
            key: "cy-accepts".to_string(),
        };
        assert!(matches!(
            conflict(store.accept_and_create_game(&game_by(cy.id), Some(&key)).await),
            Conflict::InsufficientFunds { user, .. } if user == dee.id
        ));
        let after = store
            .challenge(challenge.id)
            .await
            .expect("get")
            .expect("exists");
        assert_eq!(after.status, ChallengeStatus::Pending);
        assert_eq!(after.started_game, None);
        let accepted: Vec<_> = after
            .invitees
            .iter()
            .map(|invitee| invitee.accepted_at.is_some())
            .collect();
        assert_eq!(
            accepted,
            vec![true, false, true],
            "cy's acceptance was not kept"
        );
        assert!(
            !store.request_handled(&key).await.expect("handled"),
            "nor its request"
        );
        assert!(
            store
                .active_games_in_chat(room.id)
                .await
                .expect("games")
                .is_empty()
        );
        for person in [&ann, &bob, &cy] {
            assert_eq!(balance(store, community, person.id).await, 1000);
        }
        // Still open to a cancel...
        // ...or, once dee can pay, to the last acceptance, which starts the game.
        store.open_wallet(community, dee.id).await.expect("open");
        let Accepted::Started(game) = store
            .accept_and_create_game(&game_by(cy.id), Some(&key))
            .await
            .expect("accept")
        else {
            panic!("nobody is left to accept");
        };
        assert_eq!(game.challenge, Some(challenge.id));
        assert_eq!(game.stake, 100);
        let after = store
            .challenge(challenge.id)
            .await
            .expect("get")
            .expect("exists");
        assert_eq!(after.status, ChallengeStatus::Accepted);
        assert_eq!(after.started_game, Some(game.id));
        assert!(
            after
                .invitees
                .iter()
                .all(|invitee| invitee.accepted_at.is_some())
        );
        assert_eq!(
            conflict(
                store
                    .accept_and_create_game(&game_by(cy.id), Some(&key))
                    .await
            ),
            Conflict::Duplicate
        );
        assert!(matches!(
            conflict(store.accept_and_create_game(&game_by(bob.id), None).await),
            Conflict::ChallengeSettled { .. }
        ));

        // An open challenge: one step, as create_game.
        let open = store
            .create_challenge(&NewChallenge {
                chat: room.id,
                game: GameId::Konane,
                options: "size=6",
                challenger: ann.id,
                invited: &[],
                expires_at: now.plus_millis(MINUTE),
                stake: 0,
                move_millis: DAY,
                computer: None,
                dice_seed: None,
            })
            .await
            .expect("create");
        let (wrong, right) = ([ann.id, cy.id], [ann.id, bob.id]);
        let bob_accepts = |seats| NewGame {
            accepting: Some(Acceptance {
                challenge: open.id,
                by: bob.id,
                now,
                computer: None,
            }),
            ..game_in(&room, seats)
        };
        // Seats that are not the challenge's players (here: not who accepts) start nothing.
        assert_eq!(
            conflict(
                store
                    .accept_and_create_game(&bob_accepts(&wrong), None)
                    .await
            ),
            Conflict::PlayersChanged(open.id)
        );
        let Accepted::Started(konane) = store
            .accept_and_create_game(&bob_accepts(&right), None)
            .await
            .expect("accept")
        else {
            panic!("an open challenge starts at once");
        };
        assert_eq!(konane.challenge, Some(open.id));
    }

    /// A Telegram chat (`community`: the group of a topic; `None`: the chat stands alone).
    async fn telegram_chat(store: &Store, id: &str, community: Option<(&str, &str)>) -> Chat {
        store
            .upsert_chat(Platform::Telegram, id, id, community)
            .await
            .expect("upsert chat")
    }

    async fn chat_by_id(store: &Store, id: ChatId) -> Option<Chat> {
        store.chat(id).await.expect("chat")
    }

    /// A pending challenge in `chat` by `challenger`, inviting `invited`.
    async fn challenge_in(
        store: &Store,
        chat: &Chat,
        challenger: UserId,
        invited: UserId,
    ) -> ChallengeNo {
        store
            .create_challenge(&NewChallenge {
                chat: chat.id,
                game: GameId::Konane,
                options: "size=6",
                challenger,
                invited: &[invited],
                expires_at: Timestamp::now().plus_millis(DAY),
                stake: 0,
                move_millis: DAY,
                computer: None,
                dice_seed: None,
            })
            .await
            .expect("challenge")
            .id
    }

    /// Telegram's group → supergroup migration onto fresh ids: the group `-5` and its topic
    /// `-5:7` take the ids `-1005` and `-1005:7` (`-55` is another chat and stays), the group's
    /// community takes `-1005`, and everything stays where it was: games (their board ids
    /// forgotten), challenges, outbox rows, settings, wallets and the ledger.
    pub async fn a_moved_chat_takes_its_topics_games_and_money_along(store: &Store) {
        let group = telegram_chat(store, "-5", None).await;
        let topic = telegram_chat(store, "-5:7", Some(("-5", "-5"))).await;
        let other = telegram_chat(store, "-55", None).await;
        assert_eq!(topic.community, group.community);
        let community = group.community;
        let (ann, bob) = (user(store, "ann").await, user(store, "bob").await);
        let settings = Settings {
            max_stake: 500,
            ..Settings::default()
        };
        store
            .save_settings(community, &settings, ann.id, None)
            .await
            .expect("settings");
        for person in [&ann, &bob] {
            store.open_wallet(community, person.id).await.expect("open");
        }
        let game = create(
            store,
            &NewGame {
                stake: 100,
                ..game_in(&group, &[ann.id, bob.id])
            },
        )
        .await;
        post_board(store, game.id, "41").await;
        let row = enqueue(
            store,
            &new_outbox(
                &group,
                Some(game.id),
                OutboxKind::Text,
                "{}",
                Timestamp::now(),
            ),
        )
        .await;
        let challenge = challenge_in(store, &topic, bob.id, ann.id).await;
        let ledger_before = store.ledger(community).await.expect("ledger").len();

        let moved = store
            .move_chat(Platform::Telegram, "-5", "-1005")
            .await
            .expect("move");
        assert_eq!(
            moved,
            MovedChat {
                chats: vec![group.id, topic.id],
                merged_chats: 0,
                community: Some(community),
                merged_community: false,
            }
        );
        let ids = |chat: Option<Chat>| chat.map(|chat| (chat.platform_chat_id, chat.community));
        assert_eq!(
            ids(chat_by_id(store, group.id).await),
            Some(("-1005".to_string(), community))
        );
        assert_eq!(
            ids(chat_by_id(store, topic.id).await),
            Some(("-1005:7".to_string(), community))
        );
        assert_eq!(
            ids(chat_by_id(store, other.id).await),
            Some(("-55".to_string(), other.community)),
            "a chat whose id only begins the same stays"
        );
        let again = telegram_chat(store, "-1005", None).await;
        assert_eq!((again.id, again.community), (group.id, community));
        assert_eq!(again.platform_community_id, "-1005");
        let again = telegram_chat(store, "-1005:7", Some(("-1005", "-1005"))).await;
        assert_eq!(again.id, topic.id);

        let after = record(store, game.id).await;
        assert_eq!((after.chat, after.community), (group.id, community));
        assert_eq!(
            store.messages_with_buttons(game.id).await.expect("boards"),
            Vec::<String>::new(),
            "the old group's board is forgotten"
        );
        let rows = store.outbox_rows(group.id).await.expect("outbox");
        assert_eq!(rows.len(), 1);
        assert_eq!(
            (rows[0].id, rows[0].platform_chat_id.as_str()),
            (row, "-1005")
        );
        let pending: Vec<ChallengeNo> = store
            .pending_challenges(topic.id)
            .await
            .expect("pending")
            .iter()
            .map(|challenge| challenge.id)
            .collect();
        assert_eq!(pending, [challenge]);
        assert_eq!(store.settings(community).await.expect("settings"), settings);
        assert_eq!(
            balances(store, community, &[ann.id, bob.id]).await,
            [900, 900]
        );
        assert_eq!(pot(store, community, game.id).await.balance, 200);
        assert_eq!(
            store.ledger(community).await.expect("ledger").len(),
            ledger_before
        );
        assert_books_balance(store, community).await;

        // Done once: a repeated move finds nothing under the old id.
        let repeated = store
            .move_chat(Platform::Telegram, "-5", "-1005")
            .await
            .expect("move again");
        assert_eq!(repeated, MovedChat::default());
        assert_eq!(
            store
                .move_chat(Platform::Telegram, "-1005", "-1005")
                .await
                .expect("move to itself"),
            MovedChat::default()
        );
    }

    /// The migration is processed after someone wrote in the supergroup: the rows under the new
    /// ids stay and take in the old ones. The old group's game and challenge, its topic's
    /// challenge and its outbox row move into the new chats; wallets of one person in both
    /// communities add up, the two banks become one, the books balance and no coin is lost;
    /// the settings changed last are kept.
    pub async fn a_chat_moved_onto_rows_already_there_keeps_every_game_and_coin(store: &Store) {
        let old_group = telegram_chat(store, "-6", None).await;
        let old_topic = telegram_chat(store, "-6:7", Some(("-6", "-6"))).await;
        let lone_topic = telegram_chat(store, "-6:9", Some(("-6", "-6"))).await;
        let old = old_group.community;
        let (ann, bob, cy) = (
            user(store, "ann").await,
            user(store, "bob").await,
            user(store, "cy").await,
        );
        store
            .save_settings(
                old,
                &Settings {
                    max_stake: 500,
                    ..Settings::default()
                },
                ann.id,
                None,
            )
            .await
            .expect("settings");
        for person in [&ann, &bob] {
            store.open_wallet(old, person.id).await.expect("open");
        }
        let old_game = create(
            store,
            &NewGame {
                stake: 100,
                ..game_in(&old_group, &[ann.id, bob.id])
            },
        )
        .await;
        store
            .adjust_wallet(old, bob.id, -50, ann.id, "a fee", None)
            .await
            .expect("take");
        let old_row = enqueue(
            store,
            &new_outbox(
                &old_group,
                Some(old_game.id),
                OutboxKind::Text,
                "{}",
                Timestamp::now(),
            ),
        )
        .await;
        let topic_challenge = challenge_in(store, &old_topic, bob.id, ann.id).await;
        let group_challenge = challenge_in(store, &old_group, ann.id, bob.id).await;

        // Meanwhile, in the supergroup.
        let new_group = telegram_chat(store, "-1006", None).await;
        let new_topic = telegram_chat(store, "-1006:7", Some(("-1006", "-1006"))).await;
        let new = new_group.community;
        assert_ne!(new, old);
        let new_settings = Settings {
            max_stake: 700,
            ..Settings::default()
        };
        store
            .save_settings(new, &new_settings, cy.id, None)
            .await
            .expect("settings");
        for person in [&ann, &cy] {
            store.open_wallet(new, person.id).await.expect("open");
        }
        let new_game = create(store, &game_in(&new_group, &[ann.id, cy.id])).await;
        post_board(store, new_game.id, "7").await;
        let new_row = enqueue(
            store,
            &new_outbox(
                &new_group,
                Some(new_game.id),
                OutboxKind::Text,
                "{}",
                Timestamp::now(),
            ),
        )
        .await;
        let ledger_rows = store.ledger(old).await.expect("ledger").len()
            + store.ledger(new).await.expect("ledger").len();

        let moved = store
            .move_chat(Platform::Telegram, "-6", "-1006")
            .await
            .expect("move");
        assert_eq!(
            moved,
            MovedChat {
                chats: vec![new_group.id, new_topic.id, lone_topic.id],
                merged_chats: 2,
                community: Some(new),
                merged_community: true,
            }
        );
        assert_eq!(chat_by_id(store, old_group.id).await, None);
        assert_eq!(chat_by_id(store, old_topic.id).await, None);
        let lone = chat_by_id(store, lone_topic.id).await.expect("kept");
        assert_eq!(
            (lone.platform_chat_id.as_str(), lone.community),
            ("-1006:9", new)
        );
        assert_eq!(
            chat_by_id(store, new_group.id)
                .await
                .map(|chat| chat.community),
            Some(new)
        );

        let games: Vec<(GameNo, CommunityId)> = store
            .active_games_in_chat(new_group.id)
            .await
            .expect("games")
            .iter()
            .map(|game| (game.id, game.community))
            .collect();
        assert_eq!(games, [(old_game.id, new), (new_game.id, new)]);
        assert_eq!(
            store
                .messages_with_buttons(old_game.id)
                .await
                .expect("boards"),
            Vec::<String>::new()
        );
        assert_eq!(
            store
                .messages_with_buttons(new_game.id)
                .await
                .expect("boards"),
            ["7"],
            "the supergroup's own board stays"
        );
        let rows: Vec<OutboxId> = store
            .outbox_rows(new_group.id)
            .await
            .expect("outbox")
            .iter()
            .map(|row| row.id)
            .collect();
        assert_eq!(rows, [old_row, new_row]);
        let pending = |chat: ChatId| async move {
            store
                .pending_challenges(chat)
                .await
                .expect("pending")
                .iter()
                .map(|challenge| challenge.id)
                .collect::<Vec<_>>()
        };
        assert_eq!(pending(new_group.id).await, [group_challenge]);
        assert_eq!(pending(new_topic.id).await, [topic_challenge]);

        // Money: every coin is still there, in the one community.
        assert!(store.accounts(old).await.expect("accounts").is_empty());
        assert!(store.ledger(old).await.expect("ledger").is_empty());
        assert_eq!(
            balances(store, new, &[ann.id, bob.id, cy.id]).await,
            [900 + 1000, 900 - 50, 1000]
        );
        assert_eq!(pot(store, new, old_game.id).await.balance, 200);
        assert_eq!(store.ledger(new).await.expect("ledger").len(), ledger_rows);
        assert_books_balance(store, new).await;
        assert_eq!(store.settings(new).await.expect("settings"), new_settings);
        let wallet = store
            .wallet(new, ann.id)
            .await
            .expect("wallet")
            .expect("one");
        assert_eq!(wallet.in_play, 100);
    }
}
