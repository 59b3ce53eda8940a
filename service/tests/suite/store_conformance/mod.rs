//! Storage conformance: one suite of cases, each an `async fn` over a [`Store`] (or, for the
//! cases that reconnect, over its URL), run against SQLite (a fresh file per test, and an
//! in-memory database) and against PostgreSQL (a fresh schema per test, dropped afterwards).
//!
//! PostgreSQL is reached through `TABULA_TEST_POSTGRES_URL`. The PostgreSQL tests are ignored by
//! a plain `cargo test` (so a machine without the server reports them as ignored, never as
//! passed); `.ci/run` sets the URL and runs them with `--include-ignored`. Run that way, they
//! must connect and fail loudly if the variable is unset or the server unreachable.
//!
//! The cases are split by topic, one module each; what they share (the store's types, builders
//! of people, chats, games and wallets, the books' checks) is [`fixtures`]. The tests keep the
//! names `store_conformance::{sqlite,sqlite_memory,postgres}::<case>`, whatever the topic.

use crate::common;

use common::{PostgresSchema, SqliteFile, connect};
use tabula_service::store::DatabaseUrl;

mod challenges;
mod chats;
mod clocks;
mod fixtures;
mod games;
mod money;
mod outbox;

/// Generates, for every case (named by its topic's module), one test per database: `sqlite::case`, `sqlite_memory::case`
/// (cases over a store only) and `postgres::case`.
macro_rules! conformance {
    (store: [$($topic:ident::$case:ident),* $(,)?], url: [$($url_topic:ident::$url_case:ident),* $(,)?] $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $case() {
                    let file = super::SqliteFile::new();
                    let store = super::connect(&file.url()).await;
                    super::$topic::$case(&store).await;
                    store.close().await;
                }
            )*
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $url_case() {
                    let file = super::SqliteFile::new();
                    super::$url_topic::$url_case(&file.url()).await;
                }
            )*
        }

        mod sqlite_memory {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $case() {
                    let url = tabula_service::store::DatabaseUrl::new("sqlite::memory:");
                    let store = super::connect(&url).await;
                    super::$topic::$case(&store).await;
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
                        super::$topic::$case(&store).await;
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
                        tokio::spawn(async move { super::$url_topic::$url_case(&url).await }).await;
                    schema.finish(outcome).await;
                }
            )*
        }
    };
}

conformance! {
    store: [
        chats::users_and_chats_are_upserted,
        chats::languages_are_kept,
        chats::chats_of_a_community_share_it_and_its_settings,
        chats::a_moved_chat_takes_its_topics_games_and_money_along,
        chats::a_chat_moved_onto_rows_already_there_keeps_every_game_and_coin,
        challenges::challenge_lifecycle,
        challenges::committed_dice_are_kept,
        challenges::concurrent_accepts_exactly_one_wins,
        challenges::invitees_accept_one_by_one,
        challenges::open_challenges_gather_joiners,
        challenges::keyed_challenge_changes_are_applied_once,
        challenges::username_invitee_binds_to_the_first_matching_user,
        challenges::accepting_and_creating_the_game_is_atomic,
        games::game_is_created_with_its_seats,
        games::append_with_the_right_seq,
        games::append_with_a_stale_seq_is_refused_and_changes_nothing,
        games::duplicate_request_key_is_refused,
        games::snapshot_finish_and_end,
        games::concurrent_appenders_leave_no_gap_or_duplicate,
        money::wallets_open_with_one_grant_and_the_books_balance,
        money::stakes_go_into_one_pot_or_nothing_is_written,
        money::a_pot_is_settled_exactly_once,
        money::fines_move_with_their_actions_and_may_leave_a_debt,
        money::concurrent_stakes_never_spend_the_same_money,
        money::racing_endings_settle_the_pot_once,
        money::money_moves_in_the_community_of_its_game,
        clocks::a_turn_sets_its_clock_exactly,
        clocks::a_turn_during_a_vacation_starts_when_it_ends,
        clocks::vacations_push_running_clocks_within_the_monthly_quota,
        clocks::ending_on_time_checks_the_seq_and_the_deadline,
        clocks::due_games_are_claimed_once_per_turn,
        clocks::concurrent_claims_return_each_game_once,
        clocks::concurrent_vacations_keep_the_quota,
        outbox::due_claims_write_their_outbox_rows,
        outbox::outbox_claims_the_head_of_each_chat_with_pacing_and_leases,
        outbox::outbox_failure_is_retried_later_while_other_chats_go_on,
        outbox::a_newer_board_turns_waiting_boards_into_text,
        outbox::racing_dispatchers_deliver_each_row_once,
    ],
    url: [
        games::restart_keeps_the_game,
        games::migrations_are_idempotent,
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
