//! Storage: the database is the source of truth for users, chats, challenges, games, seats and
//! the append-only action log.
//!
//! One interface, [`Store`], with two implementations chosen by the URL scheme at
//! [`Store::connect`]: SQLite ([`SqliteStore`], `sqlite://path` or `sqlite::memory:`) and
//! PostgreSQL ([`PostgresStore`], `postgres://...`). Both run the versioned migrations of
//! `migrations/sqlite` and `migrations/postgres` (same version numbers) when they connect, and
//! both pass the one conformance suite in `bot/tests/store_conformance.rs`.
//!
//! Races are settled by the database, never by an in-process lock: a game row carries `seq`, the
//! number of actions in its log, and [`Store::append_actions`] only writes when `seq` is still
//! what the caller replayed (a compare-and-set in one transaction, backed by the unique
//! `(game, seq)` key of the log); a challenge leaves `pending` by a compare-and-set too. What
//! the database refuses is a [`Conflict`] (expected, caused by users racing or repeating
//! themselves), kept apart from real failures in [`StoreError`].
//!
//! Times are UTC Unix milliseconds ([`Timestamp`]), stored as 64-bit integers in both databases
//! so that the SQL and the decoding are the same for both. Bookkeeping stamps (`created_at`,
//! `updated_at`, the time of an action) come from the store's clock; where time decides an
//! outcome (a challenge's expiry) the caller passes `now`, so that tests can pin it.
//!
//! Queries are plain `sqlx::query` with binds (no compile-time checked macros, so no database
//! is needed to build). The statements, which both dialects accept (sqlx binds `$1`
//! placeholders on SQLite too), and the code that runs them live in `sql.rs`, shared by both
//! backends; each backend module holds only what differs: connecting, and how transactions
//! begin.
//!
//! The migrations are embedded at compile time by `sqlx::migrate!`; the SQL files are tracked
//! by the compiler, but a *new* migration file is only picked up when this crate recompiles.

mod chat_moves;
mod community;
mod invitations;
mod ledger;
mod outbox;
mod postgres;
mod sql;
mod sqlite;

use std::fmt;
use std::str::FromStr;
use std::time::{SystemTime, UNIX_EPOCH};

use tabula_core::{AnyGame, GameId};

pub use postgres::PostgresStore;
pub use sqlite::SqliteStore;

/// A database URL. It may hold a password, so its `Debug` prints `***` and it has no `Display`:
/// log [`DatabaseUrl::scheme`] instead.
#[derive(Clone, PartialEq, Eq)]
pub struct DatabaseUrl(String);

impl DatabaseUrl {
    /// The default: a SQLite file `tabula.db` in the working directory.
    pub const DEFAULT: &'static str = "sqlite://tabula.db";

    /// Wraps a URL.
    pub fn new(url: impl Into<String>) -> DatabaseUrl {
        DatabaseUrl(url.into())
    }

    /// The URL itself, secrets included: only for handing to the database driver.
    pub fn expose_secret(&self) -> &str {
        &self.0
    }

    /// The scheme (`sqlite`, `postgres`), safe to log.
    pub fn scheme(&self) -> &str {
        self.0.split_once(':').map_or("", |(scheme, _)| scheme)
    }

    /// Which backend the scheme selects.
    ///
    /// # Errors
    /// [`StoreError::UnsupportedUrl`] for any scheme but `sqlite:` and `postgres:`/`postgresql:`.
    pub fn backend(&self) -> Result<Backend, StoreError> {
        match self.scheme() {
            "sqlite" => Ok(Backend::Sqlite),
            "postgres" | "postgresql" => Ok(Backend::Postgres),
            other => Err(StoreError::UnsupportedUrl {
                scheme: other.to_string(),
            }),
        }
    }
}

impl Default for DatabaseUrl {
    fn default() -> Self {
        DatabaseUrl::new(DatabaseUrl::DEFAULT)
    }
}

impl fmt::Debug for DatabaseUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("***")
    }
}

impl FromStr for DatabaseUrl {
    type Err = StoreError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let url = DatabaseUrl::new(s);
        url.backend()?;
        Ok(url)
    }
}

/// Which database a [`Store`] talks to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// SQLite.
    Sqlite,
    /// PostgreSQL.
    Postgres,
}

impl fmt::Display for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Backend::Sqlite => "SQLite",
            Backend::Postgres => "PostgreSQL",
        })
    }
}

/// A moment in UTC, as milliseconds since the Unix epoch (the stored form).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Timestamp(pub i64);

impl Timestamp {
    /// The current time from the system clock.
    pub fn now() -> Timestamp {
        let millis = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |elapsed| elapsed.as_millis());
        Timestamp(i64::try_from(millis).unwrap_or(i64::MAX))
    }

    /// Milliseconds since the Unix epoch.
    pub fn millis(self) -> i64 {
        self.0
    }

    /// This moment plus `millis` milliseconds.
    pub fn plus_millis(self, millis: i64) -> Timestamp {
        Timestamp(self.0.saturating_add(millis))
    }
}

macro_rules! row_id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name(pub i64);

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.fmt(f)
            }
        }
    };
}

row_id!(
    /// A user known to the store (one per platform account).
    UserId
);
row_id!(
    /// A chat known to the store (one per platform channel or group).
    ChatId
);
row_id!(
    /// A community known to the store: a Discord server, a Telegram group, or a chat that
    /// stands alone. Settings, wallets and vacations belong to a community.
    CommunityId
);
row_id!(
    /// An account of the ledger: a community's bank, a wallet, or a game's pot.
    AccountId
);
row_id!(
    /// The number of a challenge, short enough to show and type.
    ChallengeNo
);
row_id!(
    /// A row of the outbox: one message the bot sends on its own.
    OutboxId
);
row_id!(
    /// The number of a stored game, short enough to show and type (`#12`). Not to be confused
    /// with [`GameId`], which names the kind of game.
    GameNo
);

/// Defines a closed set of values stored as text.
macro_rules! text_enum {
    ($(#[$doc:meta])* $name:ident { $($(#[$vdoc:meta])* $variant:ident = $text:literal,)* }) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum $name {
            $($(#[$vdoc])* $variant,)*
        }

        impl $name {
            /// The stored form.
            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $text,)*
                }
            }

            fn parse(text: &str) -> Result<$name, StoreError> {
                match text {
                    $($text => Ok($name::$variant),)*
                    other => Err(StoreError::Corrupt(format!(
                        concat!("unknown ", stringify!($name), " {:?}"),
                        other
                    ))),
                }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

text_enum!(
    /// A chat platform.
    Platform {
        /// Discord.
        Discord = "discord",
        /// Telegram.
        Telegram = "telegram",
        /// The terminal front end, `tabula local`.
        Local = "local",
    }
);

text_enum!(
    /// Where a challenge stands. It leaves `Pending` once, by a compare-and-set.
    ChallengeStatus {
        /// Waiting for an answer.
        Pending = "pending",
        /// Taken: a game was started from it.
        Accepted = "accepted",
        /// Refused by an invited user.
        Declined = "declined",
        /// Withdrawn by the challenger.
        Cancelled = "cancelled",
        /// Nobody answered in time.
        Expired = "expired",
    }
);

text_enum!(
    /// Where a game stands.
    GameStatus {
        /// Being played.
        Active = "active",
        /// Played to the end (or resigned): see the result.
        Finished = "finished",
        /// Stopped without a result.
        Aborted = "aborted",
    }
);

text_enum!(
    /// What an account is.
    AccountKind {
        /// A community's bank: where grants come from and taken money goes. Its balance is
        /// minus all the money in the community's wallets and pots.
        Bank = "bank",
        /// A person's wallet in a community.
        Wallet = "wallet",
        /// A game's pot: the stakes, until the game is settled.
        Pot = "pot",
    }
);

text_enum!(
    /// Why money moved.
    LedgerKind {
        /// From the bank to a wallet: the starting grant, or a moderator's grant.
        Grant = "grant",
        /// From a wallet into a game's pot.
        Stake = "stake",
        /// From a player's wallet to the opponent's (Coan Ki's double one).
        Fine = "fine",
        /// From a pot to a winner's wallet.
        Payout = "payout",
        /// From a pot back to the wallet that staked.
        Refund = "refund",
        /// From a wallet to the bank: a moderator took money.
        Adjustment = "adjustment",
    }
);

text_enum!(
    /// Who may start staked games in a community.
    StakedGames {
        /// Everyone.
        Everyone = "everyone",
        /// Moderators only.
        Moderators = "moderators",
    }
);

text_enum!(
    /// What an outbox message is. The store does not read payloads; only `Board` rows are
    /// treated apart ([`Store::enqueue_outbox`], [`Store::outbox_sent`]).
    OutboxKind {
        /// Half a turn's time has passed (written by [`Store::claim_due_to_outbox`]).
        Reminder = "reminder",
        /// A turn's time has run out (written by [`Store::claim_due_to_outbox`]).
        Timeout = "timeout",
        /// A challenge expired (written by [`Store::expire_challenges_to_outbox`]).
        Expired = "expired",
        /// A game's board: a picture with its text and buttons.
        Board = "board",
        /// Text only (also a superseded board, which keeps its payload).
        Text = "text",
    }
);

/// A message for [`Store::enqueue_outbox`].
#[derive(Debug, Clone)]
pub struct NewOutbox<'a> {
    /// The platform of the chat.
    pub platform: Platform,
    /// The chat it goes to.
    pub chat: ChatId,
    /// The game it concerns, if any.
    pub game: Option<GameNo>,
    /// What it is.
    pub kind: OutboxKind,
    /// What to say, as JSON the caller writes and its renderer reads; the store keeps it as is.
    pub payload: &'a str,
    /// When it is written; it may be sent from then on.
    pub now: Timestamp,
}

/// A row of the outbox, as claimed by a dispatcher or read by [`Store::outbox_rows`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutboxRow {
    /// Its id; rows of one chat are sent in id order.
    pub id: OutboxId,
    /// The platform of the chat.
    pub platform: Platform,
    /// The chat it goes to.
    pub chat: ChatId,
    /// The platform's id of the chat.
    pub platform_chat_id: String,
    /// The game it concerns, if any.
    pub game: Option<GameNo>,
    /// The platform's id of the game's latest board, when the row was read (a `board` row's
    /// deliverer may take the buttons off it).
    pub board_message_id: Option<String>,
    /// What it is.
    pub kind: OutboxKind,
    /// The caller's JSON.
    pub payload: String,
    /// When it was written.
    pub created_at: Timestamp,
    /// When it may next be tried.
    pub next_attempt_at: Timestamp,
    /// How many times it was claimed (this claim included).
    pub attempts: i64,
    /// The dispatcher holding it.
    pub lease_owner: Option<String>,
    /// Until when that dispatcher holds it; past that, another may claim it.
    pub lease_until: Option<Timestamp>,
    /// When it was sent.
    pub sent_at: Option<Timestamp>,
    /// The platform's id of the sent message.
    pub message_id: Option<String>,
    /// When it was given up (it no longer applied, or the chat is gone).
    pub dropped_at: Option<Timestamp>,
    /// Why the last attempt failed, or why it was dropped.
    pub last_error: Option<String>,
}

/// A day in milliseconds.
pub const DAY_MILLIS: i64 = 24 * 60 * 60 * 1000;

/// What the moderators of a community chose. A community without saved settings has the
/// [`Default`] ones.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    /// The games that may be started, in [`GameId::ALL`] order.
    pub enabled_games: Vec<GameId>,
    /// The stake of a challenge that names none.
    pub default_stake: i64,
    /// The largest stake allowed.
    pub max_stake: i64,
    /// What a new wallet starts with.
    pub starting_grant: i64,
    /// The time per move of a challenge that names none, in milliseconds.
    pub default_move_millis: i64,
    /// The longest time per move allowed, in milliseconds.
    pub max_move_millis: i64,
    /// Whether players are reminded when half their time has passed.
    pub reminders: bool,
    /// Who may start staked games.
    pub staked_games: StakedGames,
    /// Vacation days each person may take per calendar month (UTC).
    pub vacation_days: i64,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            enabled_games: GameId::ALL.to_vec(),
            default_stake: 0,
            max_stake: 1000,
            starting_grant: 1000,
            default_move_millis: 3 * DAY_MILLIS,
            max_move_millis: 14 * DAY_MILLIS,
            reminders: true,
            staked_games: StakedGames::Everyone,
            vacation_days: 5,
        }
    }
}

/// A person's wallet in a community.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wallet {
    /// The account.
    pub account: AccountId,
    /// Whose it is.
    pub user: UserId,
    /// What it holds; below zero after fines it could not pay.
    pub balance: i64,
    /// What it has staked in games still being played.
    pub in_play: i64,
}

/// An account and its balance.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Account {
    /// Its id.
    pub id: AccountId,
    /// Its community.
    pub community: CommunityId,
    /// What it is.
    pub kind: AccountKind,
    /// The owner of a wallet.
    pub user: Option<UserId>,
    /// The game of a pot.
    pub game: Option<GameNo>,
    /// What it holds.
    pub balance: i64,
}

/// One row of the ledger: an amount moved from one account to another.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LedgerEntry {
    /// Its number, in the order of writing.
    pub id: i64,
    /// The community.
    pub community: CommunityId,
    /// Why.
    pub kind: LedgerKind,
    /// The account the money left.
    pub from: AccountId,
    /// The account the money reached.
    pub to: AccountId,
    /// How much, above zero.
    pub amount: i64,
    /// The game it belongs to.
    pub game: Option<GameNo>,
    /// Who caused it (a moderator, a player), if anyone.
    pub actor: Option<UserId>,
    /// In words.
    pub reason: String,
    /// When.
    pub at: Timestamp,
}

/// How a game's pot is settled when the game ends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Payout {
    /// Shared evenly by the winners (a team: both partners); the first gets what does not
    /// divide.
    Winners(Vec<UserId>),
    /// Every stake goes back to whoever paid it (a draw, a game abandoned or aborted).
    Refund,
}

/// A fine paid at once from one player's wallet to another's (Coan Ki's double one). The
/// payer's balance may go below zero.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fine {
    /// Who pays.
    pub payer: UserId,
    /// Who is paid.
    pub payee: UserId,
    /// How much, above zero.
    pub amount: i64,
}

/// A turn whose clock starts: the person to move and the moment. If the person is on
/// vacation then, the clock starts when the vacation ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TurnStart {
    /// Who is to move.
    pub user: UserId,
    /// When the turn began.
    pub at: Timestamp,
}

/// The clock of the turn being played.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TurnClock {
    /// Whose clock runs.
    pub user: UserId,
    /// When it started running (after any vacation).
    pub started_at: Timestamp,
    /// When the player is reminded: half the time.
    pub remind_at: Timestamp,
    /// When the time runs out.
    pub deadline_at: Timestamp,
    /// When the reminder was sent.
    pub reminded_at: Option<Timestamp>,
    /// When the bot said the time had run out.
    pub timeout_announced_at: Option<Timestamp>,
}

/// How an active game ends outside of [`Store::append_actions`], with its settlement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ending<'a> {
    /// Finished (with a result) or aborted.
    pub end: GameEnd,
    /// The result, or why it was aborted.
    pub result: &'a str,
    /// What happens to the pot.
    pub payout: Payout,
    /// Who ended it (a player, a moderator).
    pub actor: Option<UserId>,
    /// Only if the game's `seq` is still this (a claim on time is for one turn).
    pub expected_seq: Option<u32>,
    /// Only if the game's clock ran out at or before this moment (a claim on time).
    pub deadline_passed: Option<Timestamp>,
}

impl<'a> Ending<'a> {
    /// A win by `winners` outside of play (a resignation, a claim on time): they take the pot.
    pub fn win(result: &'a str, winners: Vec<UserId>, actor: UserId) -> Ending<'a> {
        Ending {
            end: GameEnd::Finished,
            result,
            payout: Payout::Winners(winners),
            actor: Some(actor),
            expected_seq: None,
            deadline_passed: None,
        }
    }

    /// A stop without a result: the stakes go back.
    pub fn abort(reason: &'a str, actor: UserId) -> Ending<'a> {
        Ending {
            end: GameEnd::Aborted,
            result: reason,
            payout: Payout::Refund,
            actor: Some(actor),
            expected_seq: None,
            deadline_passed: None,
        }
    }
}

/// A vacation: while it runs, the person's clocks stand still.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Vacation {
    /// When it starts (now, or the end of the vacation already running).
    pub starts_at: Timestamp,
    /// When it ends.
    pub ends_at: Timestamp,
    /// How many days.
    pub days: i64,
}

/// Vacation days asked for by [`Store::take_vacation`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NewVacation {
    /// The community.
    pub community: CommunityId,
    /// Who.
    pub user: UserId,
    /// How many days.
    pub days: i64,
    /// When they are asked for.
    pub now: Timestamp,
    /// The calendar month whose days are counted: its first moment and the next month's.
    pub month: (Timestamp, Timestamp),
    /// Vacation days allowed per month.
    pub quota: i64,
}

/// What the scheduler looks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Due {
    /// Half the time of a turn has passed: remind the player once.
    Reminder,
    /// The time of a turn has run out: say so once.
    Timeout,
}

/// How a pending challenge is settled by a person (expiry is [`Store::expire_challenges`];
/// acceptance that starts a game is [`NewGame::accepting`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Settlement {
    /// Taken, without starting a game in the same transaction.
    Accept,
    /// Refused by an invited user.
    Decline,
    /// Withdrawn by the challenger.
    Cancel,
}

impl Settlement {
    fn status(self) -> ChallengeStatus {
        match self {
            Settlement::Accept => ChallengeStatus::Accepted,
            Settlement::Decline => ChallengeStatus::Declined,
            Settlement::Cancel => ChallengeStatus::Cancelled,
        }
    }
}

/// How an active game ends outside of [`Store::append_actions`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameEnd {
    /// It has a result (a resignation, an agreed result).
    Finished,
    /// It stops without one.
    Aborted,
}

impl GameEnd {
    fn status(self) -> GameStatus {
        match self {
            GameEnd::Finished => GameStatus::Finished,
            GameEnd::Aborted => GameStatus::Aborted,
        }
    }
}

/// How stale a user's or chat's "last seen" may grow before a request writes it again: an
/// hour. A request from a known user or chat under an unchanged name only reads, so that a move
/// costs one write transaction (its own) and not three.
pub const SEEN_REFRESH_MILLIS: i64 = 60 * 60 * 1000;

/// A user of one platform.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct User {
    /// The store's id.
    pub id: UserId,
    /// The platform.
    pub platform: Platform,
    /// The platform's id of the user.
    pub platform_user_id: String,
    /// The name last seen (updated on every request).
    pub display_name: String,
    /// When the user was first seen.
    pub created_at: Timestamp,
    /// When the user was last seen, to within [`SEEN_REFRESH_MILLIS`], or renamed.
    pub updated_at: Timestamp,
    /// The platform's username, without `@`, where the platform has one and it was given
    /// ([`Store::upsert_user_with_username`]).
    pub username: Option<String>,
}

/// A chat (channel, group, conversation) of one platform.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chat {
    /// The store's id.
    pub id: ChatId,
    /// The platform.
    pub platform: Platform,
    /// The platform's id of the chat.
    pub platform_chat_id: String,
    /// The title last seen.
    pub title: String,
    /// When the chat was first seen.
    pub created_at: Timestamp,
    /// When the chat was last seen, to within [`SEEN_REFRESH_MILLIS`], or renamed.
    pub updated_at: Timestamp,
    /// The community it belongs to.
    pub community: CommunityId,
    /// The platform's id of the community (the chat's own id when it stands alone).
    pub platform_community_id: String,
    /// The community's name.
    pub community_title: String,
    /// Since when the platform says the bot cannot write there (removed, blocked): the outbox
    /// holds the chat's messages until someone writes in it again ([`Store::upsert_chat`]).
    pub inactive_at: Option<Timestamp>,
}

/// What [`Store::move_chat`] did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MovedChat {
    /// The chats now under the new id (the chat and its topics), in the order of the old ones.
    pub chats: Vec<ChatId>,
    /// How many of them were already known under the new id and absorbed an old one.
    pub merged_chats: usize,
    /// The community now under the new id, if one was known under the old id.
    pub community: Option<CommunityId>,
    /// Whether that community was already known under the new id and absorbed the old one.
    pub merged_community: bool,
}

/// A challenge to be written by [`Store::create_challenge`].
#[derive(Debug, Clone)]
pub struct NewChallenge<'a> {
    /// The chat it is posted in.
    pub chat: ChatId,
    /// The game to play.
    pub game: GameId,
    /// The game's options, `key=value` separated by spaces.
    pub options: &'a str,
    /// Who challenges.
    pub challenger: UserId,
    /// Who is invited, in order; empty for an open challenge anyone in the chat may take.
    pub invited: &'a [UserId],
    /// When it expires.
    pub expires_at: Timestamp,
    /// What each person stakes (0: a friendly game).
    pub stake: i64,
    /// The time per move, in milliseconds.
    pub move_millis: i64,
}

/// A stored challenge.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Challenge {
    /// Its number.
    pub id: ChallengeNo,
    /// The chat it was posted in.
    pub chat: ChatId,
    /// The game to play.
    pub game: GameId,
    /// The game's options, `key=value` separated by spaces.
    pub options: String,
    /// Who challenges.
    pub challenger: UserId,
    /// The invitees known as users, in order (an invitee known only by a username is not
    /// here until [`Store::bind_invitee_username`] binds it); see [`Challenge::invitees`].
    pub invited: Vec<UserId>,
    /// Every invitee, in order, with when each accepted; empty for an open challenge.
    pub invitees: Vec<ChallengeInvitee>,
    /// Where it stands.
    pub status: ChallengeStatus,
    /// When it was made.
    pub created_at: Timestamp,
    /// When it expires.
    pub expires_at: Timestamp,
    /// Who accepted, declined or cancelled it.
    pub settled_by: Option<UserId>,
    /// When it left `Pending`.
    pub settled_at: Option<Timestamp>,
    /// The game started from it.
    pub started_game: Option<GameNo>,
    /// What each person stakes (0: a friendly game).
    pub stake: i64,
    /// The time per move, in milliseconds.
    pub move_millis: i64,
}

impl Challenge {
    /// Whether anyone in the chat may accept it.
    pub fn is_open(&self) -> bool {
        self.invitees.is_empty()
    }

    /// The usernames of the invitees not yet bound to a user, in order.
    pub fn unbound_usernames(&self) -> Vec<&str> {
        self.invitees
            .iter()
            .filter_map(|invitee| match &invitee.invitee {
                Invitee::Username(name) => Some(name.as_str()),
                Invitee::User(_) => None,
            })
            .collect()
    }
}

/// Who a challenge invites: a known user, or a `@username` typed by the challenger for whom no
/// user is known yet (the first user of that name to claim it takes the seat, see
/// [`Store::bind_invitee_username`]).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Invitee {
    /// A known user.
    User(UserId),
    /// A platform username, without `@`; compared without regard to (ASCII) case.
    Username(String),
}

/// One invitee of a stored challenge.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChallengeInvitee {
    /// Who.
    pub invitee: Invitee,
    /// When they accepted; `None`: not yet (always `None` for a username not yet bound).
    pub accepted_at: Option<Timestamp>,
}

/// What [`Store::accept_and_create_game`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Accepted {
    /// The acceptance is recorded; others have still to accept, so no game was created.
    Waiting(Invitation),
    /// The acceptance (if the challenge had invitees) and the game were written in one
    /// transaction: the game has started.
    Started(GameRecord),
}

/// Accepting a challenge in the same transaction that creates its game.
#[derive(Debug, Clone, Copy)]
pub struct Acceptance {
    /// The challenge, which must still be pending and not expired.
    pub challenge: ChallengeNo,
    /// Who accepts.
    pub by: UserId,
    /// The time against which expiry is checked.
    pub now: Timestamp,
}

/// What [`Store::accept_invitation`] recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invitation {
    /// The challenge, still pending.
    pub challenge: Challenge,
    /// Whether this call recorded the acceptance (false: the user had accepted before).
    pub newly: bool,
    /// The invitees known as users who have not accepted yet, in order; empty (and
    /// [`Invitation::waiting_usernames`] empty): the game may start.
    pub waiting: Vec<UserId>,
    /// The invitees known only by a username (never bound, so never accepted), in order.
    pub waiting_usernames: Vec<String>,
}

impl Invitation {
    /// Whether nobody is left to accept.
    pub fn complete(&self) -> bool {
        self.waiting.is_empty() && self.waiting_usernames.is_empty()
    }
}

/// A game to be written by [`Store::create_game`].
#[derive(Debug, Clone)]
pub struct NewGame<'a> {
    /// The chat it is played in.
    pub chat: ChatId,
    /// The game.
    pub game: GameId,
    /// The game's options, `key=value` separated by spaces.
    pub options: &'a str,
    /// A start position other than the game's initial one.
    pub start_position: Option<&'a str>,
    /// Who holds each seat, by seat index. A user may hold several seats.
    pub seats: &'a [UserId],
    /// The challenge it starts from, accepted atomically with the creation.
    pub accepting: Option<Acceptance>,
    /// The community it belongs to (its wallets and settings).
    pub community: CommunityId,
    /// What each person seated stakes, moved from their wallets into the game's pot in the
    /// same transaction (0: a friendly game).
    pub stake: i64,
    /// The time per move, in milliseconds.
    pub move_millis: i64,
    /// The first turn, when someone is to move at once.
    pub turn: Option<TurnStart>,
}

/// A seat of a game and the user holding it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatHolder {
    /// The seat index (the order of [`GameId::seats`]).
    pub seat: u8,
    /// Who holds it.
    pub user: User,
}

/// A position saved beside the log, so that long games need not be replayed from the start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snapshot {
    /// The position after action `seq`, in the game's canonical position notation.
    pub position: String,
    /// How many actions the position includes.
    pub seq: u32,
}

/// A stored game without its actions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRecord {
    /// Its number.
    pub id: GameNo,
    /// The chat it is played in.
    pub chat: ChatId,
    /// The challenge it started from.
    pub challenge: Option<ChallengeNo>,
    /// The game.
    pub game: GameId,
    /// The game's options, `key=value` separated by spaces.
    pub options: String,
    /// A start position other than the game's initial one.
    pub start_position: Option<String>,
    /// Where it stands.
    pub status: GameStatus,
    /// The result, once finished (or why it was aborted).
    pub result: Option<String>,
    /// The number of actions in its log.
    pub seq: u32,
    /// The latest snapshot, if one was saved.
    pub snapshot: Option<Snapshot>,
    /// The seats, by seat index.
    pub seats: Vec<SeatHolder>,
    /// When it was created.
    pub created_at: Timestamp,
    /// When it last changed.
    pub updated_at: Timestamp,
    /// The community it belongs to.
    pub community: CommunityId,
    /// What each person staked (0: a friendly game).
    pub stake: i64,
    /// The time per move, in milliseconds.
    pub move_millis: i64,
    /// The clock of the turn being played, if one runs.
    pub clock: Option<TurnClock>,
    /// When its pot was settled (paid out or refunded), once it ended.
    pub settled_at: Option<Timestamp>,
    /// The platform's id of the latest board posted for it ([`Store::outbox_sent`] of a
    /// `board` row, or [`Store::set_board_message`]), so that an adapter can take the buttons
    /// off the old board when it posts a new one.
    pub board_message_id: Option<String>,
}

impl GameRecord {
    /// The options as a list of `key=value` items, as [`AnyGame::start`] takes them.
    pub fn option_list(&self) -> Vec<&str> {
        self.options.split_whitespace().collect()
    }

    /// Whether `user` holds any seat.
    pub fn is_seated(&self, user: UserId) -> bool {
        self.seats.iter().any(|holder| holder.user.id == user)
    }
}

/// One entry of a game's action log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ActionRecord {
    /// Its position in the log, from 1.
    pub seq: u32,
    /// The action in canonical notation.
    pub action: String,
    /// Who played it; `None` for actions of the service (rolls).
    pub actor: Option<UserId>,
    /// When it was stored.
    pub at: Timestamp,
}

/// Which actions [`Store::load_game`] reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum History {
    /// Every action from the first.
    Full,
    /// The actions after the latest snapshot (every action when there is none).
    SinceSnapshot,
}

/// A game with (part of) its action log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadedGame {
    /// The game.
    pub record: GameRecord,
    /// The snapshot the actions continue from; `None` when they start at the beginning.
    pub from_snapshot: Option<Snapshot>,
    /// The actions in order: all of them, or those after `from_snapshot`.
    pub actions: Vec<ActionRecord>,
}

impl LoadedGame {
    /// Rebuilds the current position: the start (or snapshot) position, then the actions.
    ///
    /// # Errors
    /// [`StoreError::Corrupt`] when the stored options, position or actions do not replay.
    pub fn replay(&self) -> Result<AnyGame, StoreError> {
        let record = &self.record;
        let position = match &self.from_snapshot {
            Some(snapshot) => Some(snapshot.position.as_str()),
            None => record.start_position.as_deref(),
        };
        let mut state = AnyGame::start(record.game, &record.option_list(), position)
            .map_err(|error| StoreError::Corrupt(format!("game {}: {error}", record.id)))?;
        for action in &self.actions {
            state.apply_text(&action.action).map_err(|error| {
                StoreError::Corrupt(format!(
                    "game {} action {} {:?}: {error}",
                    record.id, action.seq, action.action
                ))
            })?;
        }
        Ok(state)
    }
}

/// The platform's identity of one incoming request (an update id, an interaction id), so that
/// a re-delivered request is applied once.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RequestKey {
    /// The platform that delivered it.
    pub platform: Platform,
    /// Its id, unique per platform.
    pub key: String,
}

/// One action to append.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewAction {
    /// The action in canonical notation.
    pub action: String,
    /// Who played it; `None` for actions of the service (rolls).
    pub actor: Option<UserId>,
}

/// What [`Store::append_actions`] writes, all or nothing.
#[derive(Debug, Clone, Default)]
pub struct Append<'a> {
    /// The game's `seq` the caller replayed; the append is refused if it has changed.
    pub expected_seq: u32,
    /// The actions, numbered `expected_seq + 1` onwards.
    pub actions: &'a [NewAction],
    /// The request that produced them; refused as [`Conflict::Duplicate`] if seen before.
    pub request: Option<&'a RequestKey>,
    /// The result, when these actions end the game (it becomes `Finished`).
    pub finish: Option<&'a str>,
    /// The position after the last action, to be kept as the game's snapshot.
    pub snapshot: Option<&'a str>,
    /// The turn that starts after these actions; `None` stops the clock.
    pub turn: Option<TurnStart>,
    /// Fines paid with these actions.
    pub fines: &'a [Fine],
    /// With [`Append::finish`]: what happens to the pot.
    pub payout: Option<&'a Payout>,
}

/// What [`Store::append_actions`] wrote.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Appended {
    /// The game's new `seq`.
    pub seq: u32,
    /// The clock of the turn that started ([`Append::turn`]), as stored (a vacation may
    /// start it later); `None` when none runs.
    pub clock: Option<TurnClock>,
}

/// What the database refused, because of what users did: expected, and answered to the user.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Conflict {
    /// The game changed since the caller loaded it.
    #[error("the game has moved on: it is at action {current}")]
    StaleSeq {
        /// The game's `seq` now.
        current: u32,
    },
    /// The request was already handled.
    #[error("this request was already handled")]
    Duplicate,
    /// No such game.
    #[error("there is no game {0}")]
    NoSuchGame(GameNo),
    /// The game is no longer active.
    #[error("game {game} is {status}")]
    GameOver {
        /// The game.
        game: GameNo,
        /// Its status.
        status: GameStatus,
    },
    /// No such challenge.
    #[error("there is no challenge {0}")]
    NoSuchChallenge(ChallengeNo),
    /// The challenge has already left `Pending`.
    #[error("challenge {challenge} is already {status}")]
    ChallengeSettled {
        /// The challenge.
        challenge: ChallengeNo,
        /// Its status.
        status: ChallengeStatus,
    },
    /// The challenge is past its expiry time.
    #[error("challenge {0} has expired")]
    ChallengeExpired(ChallengeNo),
    /// The user is not one of the challenge's invitees.
    #[error("you are not invited to challenge {0}")]
    NotInvited(ChallengeNo),
    /// The seats given to [`Store::accept_and_create_game`] are not the challenge's players as
    /// they are now (someone was bound to a username seat, or accepted, since the caller read
    /// the challenge): nothing is written; read the challenge again and retry.
    #[error("the players of challenge {0} have changed")]
    PlayersChanged(ChallengeNo),
    /// A wallet holds less than a stake (or has no money at all).
    #[error("user {user} has {balance} and cannot stake {needed}")]
    InsufficientFunds {
        /// Whose wallet.
        user: UserId,
        /// What it holds.
        balance: i64,
        /// What was asked.
        needed: i64,
    },
    /// The game's clock has not run out.
    #[error("the time of game {0} has not run out")]
    NotYetDue(GameNo),
    /// More vacation days than are left this month.
    #[error("{used} of {quota} vacation days are used this month")]
    VacationQuota {
        /// Days used this month.
        used: i64,
        /// Days allowed per month.
        quota: i64,
    },
}

/// A storage error: a [`Conflict`] (user-caused) or an internal failure.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database refused the change because of what users did.
    #[error(transparent)]
    Conflict(#[from] Conflict),
    /// The URL names no supported database.
    #[error("unsupported database URL scheme {scheme:?}: expected sqlite: or postgres:")]
    UnsupportedUrl {
        /// The scheme found.
        scheme: String,
    },
    /// The database could not be opened.
    #[error("cannot open the {backend} database")]
    Connect {
        /// Which database.
        backend: Backend,
        /// Why.
        #[source]
        source: sqlx::Error,
    },
    /// The migrations could not be applied.
    #[error("cannot migrate the {backend} database")]
    Migrate {
        /// Which database.
        backend: Backend,
        /// Why.
        #[source]
        source: sqlx::migrate::MigrateError,
    },
    /// A query failed.
    #[error("database failure in {operation}")]
    Database {
        /// The store operation that failed.
        operation: &'static str,
        /// Why.
        #[source]
        source: sqlx::Error,
    },
    /// Stored data that the code cannot read back.
    #[error("stored data is inconsistent: {0}")]
    Corrupt(String),
}

impl StoreError {
    /// Whether the database could not be reached (the server is down or out of
    /// connections): the request may be tried again later.
    pub fn is_unavailable(&self) -> bool {
        let source = match self {
            StoreError::Connect { source, .. } | StoreError::Database { source, .. } => source,
            _ => return false,
        };
        matches!(
            source,
            sqlx::Error::PoolTimedOut | sqlx::Error::Io(_) | sqlx::Error::PoolClosed
        )
    }

    /// The conflict, when this error is one (as opposed to an internal failure).
    pub fn conflict(&self) -> Option<&Conflict> {
        match self {
            StoreError::Conflict(conflict) => Some(conflict),
            _ => None,
        }
    }
}

/// Whether a driver error is a broken foreign key.
fn is_foreign_key_violation(error: &sqlx::Error) -> bool {
    error
        .as_database_error()
        .is_some_and(|error| error.is_foreign_key_violation())
}

/// Maps a driver error to [`StoreError::Database`] for `operation`.
fn db(operation: &'static str) -> impl FnOnce(sqlx::Error) -> StoreError {
    move |source| StoreError::Database { operation, source }
}

/// The storage: SQLite or PostgreSQL, opened by [`Store::connect`].
#[derive(Debug, Clone)]
pub enum Store {
    /// A SQLite file (or memory) database.
    Sqlite(SqliteStore),
    /// A PostgreSQL database.
    Postgres(PostgresStore),
}

macro_rules! dispatch {
    ($self:ident, $store:ident => $body:expr) => {
        match $self {
            Store::Sqlite($store) => $body,
            Store::Postgres($store) => $body,
        }
    };
}

impl Store {
    /// Opens the database the URL names (`sqlite://path`, `sqlite::memory:`, `postgres://...`)
    /// and applies the pending migrations. A SQLite file is created if missing.
    ///
    /// # Errors
    /// An unsupported scheme, an unreachable or refusing server, or a failed migration.
    pub async fn connect(url: &DatabaseUrl) -> Result<Store, StoreError> {
        match url.backend()? {
            Backend::Sqlite => SqliteStore::connect(url).await.map(Store::Sqlite),
            Backend::Postgres => PostgresStore::connect(url).await.map(Store::Postgres),
        }
    }

    /// Which database this is.
    pub fn backend(&self) -> Backend {
        match self {
            Store::Sqlite(_) => Backend::Sqlite,
            Store::Postgres(_) => Backend::Postgres,
        }
    }

    /// Closes every connection; later calls fail.
    pub async fn close(&self) {
        dispatch!(self, store => store.close().await)
    }

    /// The latest migration version applied.
    ///
    /// # Errors
    /// A database failure.
    pub async fn schema_version(&self) -> Result<i64, StoreError> {
        dispatch!(self, store => store.schema_version().await)
    }

    /// Records a user, or updates the display name of a known one.
    ///
    /// # Errors
    /// A database failure.
    pub async fn upsert_user(
        &self,
        platform: Platform,
        platform_user_id: &str,
        display_name: &str,
    ) -> Result<User, StoreError> {
        dispatch!(self, store => store.upsert_user(platform, platform_user_id, display_name).await)
    }

    /// A user by id.
    ///
    /// # Errors
    /// A database failure.
    pub async fn user(&self, id: UserId) -> Result<Option<User>, StoreError> {
        dispatch!(self, store => store.user(id).await)
    }

    /// A user by the platform's id, if known.
    ///
    /// # Errors
    /// A database failure.
    pub async fn user_by_platform_id(
        &self,
        platform: Platform,
        platform_user_id: &str,
    ) -> Result<Option<User>, StoreError> {
        dispatch!(self, store => store.user_by_platform_id(platform, platform_user_id).await)
    }

    /// Whether a request was already applied (by [`Store::append_actions`] or one of the
    /// `_once` methods, or [`Store::accept_invitation`]).
    ///
    /// # Errors
    /// A database failure.
    pub async fn request_handled(&self, request: &RequestKey) -> Result<bool, StoreError> {
        dispatch!(self, store => store.request_handled(request).await)
    }

    /// Records a chat and its community (the platform's id and name of a Discord server;
    /// `None`: the chat stands alone and is its own community), or updates the names of known
    /// ones.
    ///
    /// # Errors
    /// A database failure.
    pub async fn upsert_chat(
        &self,
        platform: Platform,
        platform_chat_id: &str,
        title: &str,
        community: Option<(&str, &str)>,
    ) -> Result<Chat, StoreError> {
        dispatch!(self, store => store.upsert_chat(platform, platform_chat_id, title, community).await)
    }

    /// A chat by id.
    ///
    /// # Errors
    /// A database failure.
    pub async fn chat(&self, id: ChatId) -> Result<Option<Chat>, StoreError> {
        dispatch!(self, store => store.chat(id).await)
    }

    /// A community's settings (the defaults until moderators change them).
    ///
    /// # Errors
    /// A database failure.
    pub async fn settings(&self, community: CommunityId) -> Result<Settings, StoreError> {
        dispatch!(self, store => store.settings(community).await)
    }

    /// Saves a community's settings, recording `request` in the same transaction.
    ///
    /// # Errors
    /// [`Conflict::Duplicate`]; a database failure (settings that break the table's checks
    /// are one).
    pub async fn save_settings(
        &self,
        community: CommunityId,
        settings: &Settings,
        by: UserId,
        request: Option<&RequestKey>,
    ) -> Result<(), StoreError> {
        dispatch!(self, store => store.save_settings(community, settings, by, request).await)
    }

    /// A person's wallet in a community, opened with the community's starting grant (written
    /// in the ledger) if it did not exist.
    ///
    /// # Errors
    /// A database failure.
    pub async fn open_wallet(
        &self,
        community: CommunityId,
        user: UserId,
    ) -> Result<Wallet, StoreError> {
        dispatch!(self, store => store.open_wallet(community, user).await)
    }

    /// A person's wallet in a community, if it was opened.
    ///
    /// # Errors
    /// A database failure.
    pub async fn wallet(
        &self,
        community: CommunityId,
        user: UserId,
    ) -> Result<Option<Wallet>, StoreError> {
        dispatch!(self, store => store.wallet(community, user).await)
    }

    /// A moderator's grant (`amount` above zero, from the bank) or take (below zero, to the
    /// bank; never more than the wallet holds), recorded in the ledger with the reason, and
    /// `request` in the same transaction.
    ///
    /// # Errors
    /// [`Conflict::Duplicate`], [`Conflict::InsufficientFunds`] for a take; a database failure.
    pub async fn adjust_wallet(
        &self,
        community: CommunityId,
        user: UserId,
        amount: i64,
        actor: UserId,
        reason: &str,
        request: Option<&RequestKey>,
    ) -> Result<Wallet, StoreError> {
        dispatch!(self, store => store.adjust_wallet(community, user, amount, actor, reason, request).await)
    }

    /// The richest wallets of a community, richest first.
    ///
    /// # Errors
    /// A database failure.
    pub async fn leaderboard(
        &self,
        community: CommunityId,
        limit: i64,
    ) -> Result<Vec<(User, i64)>, StoreError> {
        dispatch!(self, store => store.leaderboard(community, limit).await)
    }

    /// Every account of a community (bank, wallets, pots) with its balance.
    ///
    /// # Errors
    /// A database failure.
    pub async fn accounts(&self, community: CommunityId) -> Result<Vec<Account>, StoreError> {
        dispatch!(self, store => store.accounts(community).await)
    }

    /// The whole ledger of a community, in the order it was written.
    ///
    /// # Errors
    /// A database failure.
    pub async fn ledger(&self, community: CommunityId) -> Result<Vec<LedgerEntry>, StoreError> {
        dispatch!(self, store => store.ledger(community).await)
    }

    /// When the person's vacation running at `now` (or starting later) ends, if any.
    ///
    /// # Errors
    /// A database failure.
    pub async fn vacation_end(
        &self,
        community: CommunityId,
        user: UserId,
        now: Timestamp,
    ) -> Result<Option<Timestamp>, StoreError> {
        dispatch!(self, store => store.vacation_end(community, user, now).await)
    }

    /// Vacation days the person took in `[month.0, month.1)`.
    ///
    /// # Errors
    /// A database failure.
    pub async fn vacation_days_used(
        &self,
        community: CommunityId,
        user: UserId,
        month: (Timestamp, Timestamp),
    ) -> Result<i64, StoreError> {
        dispatch!(self, store => store.vacation_days_used(community, user, month).await)
    }

    /// Takes `days` of vacation from `now` (or from the end of the one running), if the days
    /// taken in `month` stay within `quota`; the clocks of the person's running turns move on
    /// by as much, in the same transaction.
    ///
    /// # Errors
    /// [`Conflict::Duplicate`], [`Conflict::VacationQuota`]; a database failure.
    pub async fn take_vacation(
        &self,
        vacation: &NewVacation,
        request: Option<&RequestKey>,
    ) -> Result<Vacation, StoreError> {
        dispatch!(self, store => store.take_vacation(vacation, request).await)
    }

    /// Claims up to `limit` active games whose reminder (or time-out) is due at `now` and not
    /// yet claimed, marking them in the same statement: each is returned to one caller only,
    /// however many run at once.
    ///
    /// # Errors
    /// A database failure.
    pub async fn claim_due(
        &self,
        due: Due,
        now: Timestamp,
        limit: i64,
    ) -> Result<Vec<GameNo>, StoreError> {
        dispatch!(self, store => store.claim_due(due, now, limit).await)
    }

    /// Records a pending challenge.
    ///
    /// # Errors
    /// A database failure (an unknown chat or user is one: a broken foreign key).
    pub async fn create_challenge(
        &self,
        challenge: &NewChallenge<'_>,
    ) -> Result<Challenge, StoreError> {
        dispatch!(self, store => store.create_challenge(challenge, &[], None).await)
    }

    /// [`Store::create_challenge`], recording `request` in the same transaction, so that a
    /// re-delivered request creates no second challenge.
    ///
    /// # Errors
    /// [`Conflict::Duplicate`] if the request was already handled (then nothing is written),
    /// or a database failure.
    pub async fn create_challenge_once(
        &self,
        challenge: &NewChallenge<'_>,
        request: &RequestKey,
    ) -> Result<Challenge, StoreError> {
        dispatch!(self, store => store.create_challenge(challenge, &[], Some(request)).await)
    }

    /// A challenge by number.
    ///
    /// # Errors
    /// A database failure.
    pub async fn challenge(&self, id: ChallengeNo) -> Result<Option<Challenge>, StoreError> {
        dispatch!(self, store => store.challenge(id).await)
    }

    /// The challenges of a chat that are still pending (expired ones included until
    /// [`Store::expire_challenges`] marks them), oldest first.
    ///
    /// # Errors
    /// A database failure.
    pub async fn pending_challenges(&self, chat: ChatId) -> Result<Vec<Challenge>, StoreError> {
        dispatch!(self, store => store.pending_challenges(chat).await)
    }

    /// Moves a challenge out of `Pending`, only if it is still pending and not expired at
    /// `now`: of two racing settlements exactly one succeeds.
    ///
    /// # Errors
    /// [`Conflict::NoSuchChallenge`], [`Conflict::ChallengeSettled`],
    /// [`Conflict::ChallengeExpired`], or a database failure.
    pub async fn settle_challenge(
        &self,
        id: ChallengeNo,
        settlement: Settlement,
        by: UserId,
        now: Timestamp,
    ) -> Result<Challenge, StoreError> {
        dispatch!(self, store => store.settle_challenge(id, settlement, by, now, None).await)
    }

    /// [`Store::settle_challenge`], recording `request` in the same transaction.
    ///
    /// # Errors
    /// [`Conflict::Duplicate`] (checked first), the conflicts of [`Store::settle_challenge`];
    /// then nothing is written. A database failure.
    pub async fn settle_challenge_once(
        &self,
        id: ChallengeNo,
        settlement: Settlement,
        by: UserId,
        now: Timestamp,
        request: &RequestKey,
    ) -> Result<Challenge, StoreError> {
        dispatch!(self, store => store.settle_challenge(id, settlement, by, now, Some(request)).await)
    }

    /// Records that an invited user accepts a pending, unexpired challenge (one with several
    /// invitees, such as four-person Pachisi), and says who has still to accept, in one
    /// transaction that holds the challenge row's lock: concurrent acceptances are applied one
    /// after the other, none is lost, and exactly one of them sees nobody waiting. Accepting
    /// twice keeps the first time ([`Invitation::newly`] is false). The challenge stays
    /// `Pending`: the caller that sees [`Invitation::waiting`] empty starts the game with
    /// [`Store::create_game`] and [`NewGame::accepting`], whose compare-and-set lets only one
    /// game start.
    ///
    /// # Errors
    /// [`Conflict::Duplicate`] (checked first), [`Conflict::NoSuchChallenge`],
    /// [`Conflict::ChallengeSettled`], [`Conflict::ChallengeExpired`],
    /// [`Conflict::NotInvited`]; then nothing is written. A database failure.
    pub async fn accept_invitation(
        &self,
        id: ChallengeNo,
        by: UserId,
        now: Timestamp,
        request: Option<&RequestKey>,
    ) -> Result<Invitation, StoreError> {
        dispatch!(self, store => store.accept_invitation(id, by, now, request).await)
    }

    /// Marks every pending challenge whose expiry is at or before `now` as expired, and
    /// returns them.
    ///
    /// # Errors
    /// A database failure.
    pub async fn expire_challenges(&self, now: Timestamp) -> Result<Vec<Challenge>, StoreError> {
        dispatch!(self, store => store.expire_challenges(now).await)
    }

    /// Creates an active game with its seats, and accepts its challenge, in one transaction.
    ///
    /// # Errors
    /// With [`NewGame::accepting`]: the conflicts of [`Store::settle_challenge`] (and then
    /// nothing is written). A database failure.
    pub async fn create_game(&self, game: &NewGame<'_>) -> Result<GameRecord, StoreError> {
        dispatch!(self, store => store.create_game(game, None).await)
    }

    /// [`Store::create_game`], recording `request` in the same transaction, so that a
    /// re-delivered acceptance starts no second game.
    ///
    /// # Errors
    /// [`Conflict::Duplicate`] (checked first), the conflicts of [`Store::create_game`]; then
    /// nothing is written. A database failure.
    pub async fn create_game_once(
        &self,
        game: &NewGame<'_>,
        request: &RequestKey,
    ) -> Result<GameRecord, StoreError> {
        dispatch!(self, store => store.create_game(game, Some(request)).await)
    }

    /// A game with its seats, without its actions.
    ///
    /// # Errors
    /// A database failure.
    pub async fn game(&self, id: GameNo) -> Result<Option<GameRecord>, StoreError> {
        dispatch!(self, store => store.game(id).await)
    }

    /// A game with its seats and actions (all, or those after the snapshot).
    ///
    /// # Errors
    /// A database failure.
    pub async fn load_game(
        &self,
        id: GameNo,
        history: History,
    ) -> Result<Option<LoadedGame>, StoreError> {
        dispatch!(self, store => store.load_game(id, history).await)
    }

    /// The active games of a chat, oldest first.
    ///
    /// # Errors
    /// A database failure.
    pub async fn active_games_in_chat(&self, chat: ChatId) -> Result<Vec<GameRecord>, StoreError> {
        dispatch!(self, store => store.active_games_in_chat(chat).await)
    }

    /// The active games in which `user` holds a seat (in one chat, or anywhere), oldest first.
    ///
    /// # Errors
    /// A database failure.
    pub async fn active_games_of_user(
        &self,
        user: UserId,
        chat: Option<ChatId>,
    ) -> Result<Vec<GameRecord>, StoreError> {
        dispatch!(self, store => store.active_games_of_user(user, chat).await)
    }

    /// Appends actions to an active game's log, atomically, only if its `seq` is still
    /// `append.expected_seq` and the request key is new; updates `seq`, the status and result
    /// (with [`Append::finish`]) and the snapshot in the same transaction. Returns the new `seq`.
    ///
    /// # Errors
    /// [`Conflict::Duplicate`] (checked first), [`Conflict::NoSuchGame`],
    /// [`Conflict::GameOver`], [`Conflict::StaleSeq`]; then nothing is written. A database
    /// failure.
    pub async fn append_actions(
        &self,
        game: GameNo,
        append: &Append<'_>,
    ) -> Result<Appended, StoreError> {
        dispatch!(self, store => store.append_actions(game, append).await)
    }

    /// Ends an active game (a resignation, a claim on time, an abort) with a result or
    /// reason, and settles its pot as [`Ending::payout`] says, in one transaction. A game's pot
    /// is settled once, whatever happens after.
    ///
    /// # Errors
    /// [`Conflict::NoSuchGame`], [`Conflict::GameOver`], [`Conflict::StaleSeq`] (with
    /// [`Ending::expected_seq`]), [`Conflict::NotYetDue`] (with [`Ending::deadline_passed`]),
    /// or a database failure.
    pub async fn end_game(
        &self,
        game: GameNo,
        ending: &Ending<'_>,
    ) -> Result<GameRecord, StoreError> {
        dispatch!(self, store => store.end_game(game, ending, None).await)
    }

    /// [`Store::end_game`], recording `request` in the same transaction, so that a re-delivered
    /// resignation is applied once.
    ///
    /// # Errors
    /// [`Conflict::Duplicate`] (checked first), the conflicts of [`Store::end_game`]; then
    /// nothing is written. A database failure.
    pub async fn end_game_once(
        &self,
        game: GameNo,
        ending: &Ending<'_>,
        request: &RequestKey,
    ) -> Result<GameRecord, StoreError> {
        dispatch!(self, store => store.end_game(game, ending, Some(request)).await)
    }

    // ---- Usernames and invitations ----

    /// [`Store::upsert_user`] that also records the platform's username (without `@`; `None`:
    /// the user has none, and a stored one is cleared). A username belongs to one account at a
    /// time: another user of the platform that had it loses it, in the same transaction.
    ///
    /// # Errors
    /// A database failure.
    pub async fn upsert_user_with_username(
        &self,
        platform: Platform,
        platform_user_id: &str,
        display_name: &str,
        username: Option<&str>,
    ) -> Result<User, StoreError> {
        dispatch!(self, store => store.upsert_user_with_username(platform, platform_user_id, display_name, username).await)
    }

    /// The user of a platform with this username (a leading `@` is ignored; ASCII case is
    /// not), if one is known.
    ///
    /// # Errors
    /// A database failure.
    pub async fn user_by_username(
        &self,
        platform: Platform,
        username: &str,
    ) -> Result<Option<User>, StoreError> {
        dispatch!(self, store => store.user_by_username(platform, username).await)
    }

    /// [`Store::create_challenge_once`] (or, without `request`, [`Store::create_challenge`])
    /// whose invitees are `challenge.invited` followed by `more`, which may name people by a
    /// typed `@username` for whom no user is known yet. Repeats are dropped (the same user;
    /// the same username in any ASCII case). A username-only invitee holds a seat that the
    /// first user of that name to ask takes ([`Store::bind_invitee_username`]); until then the
    /// challenge waits for it.
    ///
    /// # Errors
    /// [`Conflict::Duplicate`] (then nothing is written); a database failure.
    pub async fn create_challenge_with_invitees(
        &self,
        challenge: &NewChallenge<'_>,
        more: &[Invitee],
        request: Option<&RequestKey>,
    ) -> Result<Challenge, StoreError> {
        dispatch!(self, store => store.create_challenge(challenge, more, request).await)
    }

    /// Gives the seat of a pending challenge's username-only invitee `username` (compared
    /// without regard to ASCII case; a leading `@` ignored) to `user`, atomically: exactly one
    /// seat, and only while no one else took it and `user` holds no seat of the challenge yet.
    /// The caller passes the username the platform reported for `user`. Returns whether `user`
    /// now holds that seat: true when this call bound it, and on a repeated call by the same
    /// user (known by that username, see [`Store::upsert_user_with_username`]); false when
    /// there is no such seat (never invited, taken by someone else, the challenge settled).
    ///
    /// # Errors
    /// A database failure.
    pub async fn bind_invitee_username(
        &self,
        challenge: ChallengeNo,
        username: &str,
        user: UserId,
    ) -> Result<bool, StoreError> {
        dispatch!(self, store => store.bind_invitee_username(challenge, username, user).await)
    }

    /// Accepts a challenge and, when this acceptance is the last one missing, creates its game,
    /// in ONE transaction: either both are written or neither (a stake that cannot be paid
    /// leaves the acceptance unrecorded too, so the challenge can still start or be
    /// cancelled). `new.accepting` names the challenge, who accepts and the moment; `new`
    /// holds the game the caller would start (its seats drawn from the challenger and the
    /// invitees as [`Store::challenge`] read them; a username-only invitee has to be bound and
    /// accept before the game can start, so the seats never miss anyone).
    ///
    /// For a challenge with invitees: records the invitee's acceptance as
    /// [`Store::accept_invitation`] does (holding the challenge row's lock, so concurrent
    /// acceptances run one after the other); if others have still to accept, commits that
    /// alone and returns [`Accepted::Waiting`]; otherwise also settles the challenge and writes
    /// the game as [`Store::create_game`] does, and returns [`Accepted::Started`]. For an open
    /// challenge (or `new.accepting` of `None`) it is [`Store::create_game`]. With `request`,
    /// the request key is recorded in the same transaction.
    ///
    /// The service builds the [`NewGame`] first (seats by lot, wallets opened) and calls this
    /// once, so a crash cannot leave an acceptance without its game.
    ///
    /// # Errors
    /// [`Conflict::Duplicate`] (checked first), [`Conflict::NoSuchChallenge`],
    /// [`Conflict::ChallengeSettled`], [`Conflict::ChallengeExpired`],
    /// [`Conflict::NotInvited`], [`Conflict::InsufficientFunds`], [`Conflict::PlayersChanged`]
    /// (when the game would start, the people in `new.seats` must be exactly the challenger and
    /// the invitees, or, for an open challenge, the challenger and who accepts: a caller that
    /// expects to wait may pass no seats, and is told so if its acceptance turns out to be the
    /// last); then nothing is written. A database failure.
    pub async fn accept_and_create_game(
        &self,
        new: &NewGame<'_>,
        request: Option<&RequestKey>,
    ) -> Result<Accepted, StoreError> {
        dispatch!(self, store => store.accept_and_create_game(new, request).await)
    }

    /// A chat's platform id changed (Telegram's group → supergroup migration): the chat whose
    /// platform id is `old`, and every chat whose platform id is `old` followed by `:` (forum
    /// topics, stored as `"<chat id>:<thread id>"`), take `new` in place of that prefix, and
    /// the community whose platform id is `old` takes `new`, in one transaction; games,
    /// challenges, settings, wallets, ledger and outbox rows follow, since they refer to
    /// chats and communities by the store's ids. Where rows under the new ids exist already
    /// (someone wrote in the supergroup before the move was processed), those rows stay and
    /// absorb the old ones: no game, challenge, outbox row or coin is lost (see the module
    /// `chat_moves` for exactly how). The old chat's games forget their board message ids. A
    /// move of an unknown id, or to the same id, changes nothing.
    ///
    /// # Errors
    /// A database failure (then nothing is moved).
    pub async fn move_chat(
        &self,
        platform: Platform,
        old: &str,
        new: &str,
    ) -> Result<MovedChat, StoreError> {
        dispatch!(self, store => store.move_chat(platform, old, new).await)
    }

    // ---- The outbox ----

    /// [`Store::claim_due`] that, in the same transaction as each claim, writes the outbox row
    /// of the reminder (or time-out): kind `reminder` (`timeout`), the game's platform, chat
    /// and id, payload `{"game":5,"seq":12,"user":3,"deadline":1700000000000}` (the turn's
    /// player and deadline as claimed; `null` when none). A crash after the commit cannot lose
    /// the message; a crash before it loses the claim too, so the next call claims again.
    ///
    /// # Errors
    /// A database failure (then nothing is claimed).
    pub async fn claim_due_to_outbox(
        &self,
        due: Due,
        now: Timestamp,
        limit: i64,
    ) -> Result<Vec<GameNo>, StoreError> {
        dispatch!(self, store => store.claim_due_to_outbox(due, now, limit).await)
    }

    /// [`Store::expire_challenges`] that writes, in the same transaction, one outbox row per
    /// expired challenge: kind `expired`, the challenge's chat, payload `{"challenge":7}`.
    /// Returns the expired challenges, in id order.
    ///
    /// # Errors
    /// A database failure (then nothing is expired).
    pub async fn expire_challenges_to_outbox(
        &self,
        now: Timestamp,
    ) -> Result<Vec<Challenge>, StoreError> {
        dispatch!(self, store => store.expire_challenges_to_outbox(now).await)
    }

    /// Writes a message for the dispatcher, due at once. A `board` of a game turns the game's
    /// earlier boards that are still waiting (not sent, not dropped, not leased) into `text`
    /// rows, whose payload stays: their words still go out, without the picture, so a slow chat
    /// never falls behind on boards.
    ///
    /// # Errors
    /// A database failure (an unknown chat or game is one: a broken foreign key).
    pub async fn enqueue_outbox(&self, new: &NewOutbox<'_>) -> Result<OutboxId, StoreError> {
        dispatch!(self, store => store.enqueue_outbox(new).await)
    }

    /// Claims for `owner` up to `limit` outbox rows to send now, leasing each until
    /// `now + lease_millis` and counting the attempt. At most one row per chat, and only the
    /// chat's oldest waiting row (a chat's messages go out in order, one at a time), of a chat
    /// that is active and whose pacing allows a message at `now`; the row must be due
    /// (`next_attempt_at <= now`) and not held by a live lease. A lease that expired (its
    /// holder died or hung) is claimed again: delivery is at least once. Many dispatchers may
    /// claim at once: each row is returned to one of them per lease (on PostgreSQL with
    /// `SKIP LOCKED`, so none waits for another). Rows come back in id order.
    ///
    /// # Errors
    /// A database failure.
    pub async fn claim_outbox(
        &self,
        owner: &str,
        now: Timestamp,
        lease_millis: i64,
        limit: i64,
    ) -> Result<Vec<OutboxRow>, StoreError> {
        dispatch!(self, store => store.claim_outbox(owner, now, lease_millis, limit).await)
    }

    /// Marks a row sent, if `owner` still holds it (true) — false when it lost the row (its
    /// lease expired and someone else claimed it, or it was already marked). Records the
    /// platform's message id, paces the chat (its next outbox message no earlier than
    /// `now + pace_millis`) and, for a `board` row of a game with a message id, sets the game's
    /// [`GameRecord::board_message_id`], in one transaction.
    ///
    /// # Errors
    /// A database failure.
    pub async fn outbox_sent(
        &self,
        id: OutboxId,
        owner: &str,
        message_id: Option<&str>,
        now: Timestamp,
        pace_millis: i64,
    ) -> Result<bool, StoreError> {
        dispatch!(self, store => store.outbox_sent(id, owner, message_id, now, pace_millis).await)
    }

    /// A failed attempt: if `owner` still holds the row, releases it to be tried again at
    /// `retry_at` (the caller's back-off) and records the error. Whether it held the row.
    ///
    /// # Errors
    /// A database failure.
    pub async fn outbox_failed(
        &self,
        id: OutboxId,
        owner: &str,
        retry_at: Timestamp,
        error: &str,
    ) -> Result<bool, StoreError> {
        dispatch!(self, store => store.outbox_failed(id, owner, retry_at, error).await)
    }

    /// Gives a row up (the message no longer applies, such as a reminder for a turn already
    /// played, or the chat is gone), if `owner` still holds it; `reason` is kept as its last
    /// error. The chat's next row becomes its head. Whether it held the row.
    ///
    /// # Errors
    /// A database failure.
    pub async fn outbox_drop(
        &self,
        id: OutboxId,
        owner: &str,
        reason: &str,
    ) -> Result<bool, StoreError> {
        dispatch!(self, store => store.outbox_drop(id, owner, reason, Timestamp::now()).await)
    }

    /// Marks a chat inactive from `now` (the platform says the bot was removed or blocked:
    /// its outbox rows wait, unclaimed) or active again. [`Store::upsert_chat`] makes a chat
    /// active again too: someone wrote in it.
    ///
    /// # Errors
    /// A database failure.
    pub async fn set_chat_inactive(
        &self,
        chat: ChatId,
        inactive: bool,
        now: Timestamp,
    ) -> Result<(), StoreError> {
        dispatch!(self, store => store.set_chat_inactive(chat, inactive, now).await)
    }

    /// Records the platform's id of a game's latest board (`None`: none), read back as
    /// [`GameRecord::board_message_id`].
    ///
    /// # Errors
    /// A database failure.
    pub async fn set_board_message(
        &self,
        game: GameNo,
        message_id: Option<&str>,
    ) -> Result<(), StoreError> {
        dispatch!(self, store => store.set_board_message(game, message_id).await)
    }

    /// Every outbox row of a chat (sent, dropped and waiting), in id order: for tests and
    /// inspection.
    ///
    /// # Errors
    /// A database failure.
    pub async fn outbox_rows(&self, chat: ChatId) -> Result<Vec<OutboxRow>, StoreError> {
        dispatch!(self, store => store.outbox_rows(chat).await)
    }

    /// One outbox row.
    ///
    /// # Errors
    /// A database failure.
    pub async fn outbox_row(&self, id: OutboxId) -> Result<Option<OutboxRow>, StoreError> {
        dispatch!(self, store => store.outbox_row(id).await)
    }
}

// ---- Rows shared by both backends: the column lists of `sql` decode into these. ----

#[derive(Debug, sqlx::FromRow)]
struct UserRow {
    id: i64,
    platform: String,
    platform_user_id: String,
    display_name: String,
    created_at: i64,
    updated_at: i64,
    username: Option<String>,
}

impl TryFrom<UserRow> for User {
    type Error = StoreError;
    fn try_from(row: UserRow) -> Result<User, StoreError> {
        Ok(User {
            id: UserId(row.id),
            platform: Platform::parse(&row.platform)?,
            platform_user_id: row.platform_user_id,
            display_name: row.display_name,
            created_at: Timestamp(row.created_at),
            updated_at: Timestamp(row.updated_at),
            username: row.username,
        })
    }
}

#[derive(Debug, sqlx::FromRow)]
struct ChatRow {
    id: i64,
    platform: String,
    platform_chat_id: String,
    title: String,
    created_at: i64,
    updated_at: i64,
    community_id: i64,
    platform_community_id: String,
    community_title: String,
    inactive_at: Option<i64>,
}

impl TryFrom<ChatRow> for Chat {
    type Error = StoreError;
    fn try_from(row: ChatRow) -> Result<Chat, StoreError> {
        Ok(Chat {
            id: ChatId(row.id),
            platform: Platform::parse(&row.platform)?,
            platform_chat_id: row.platform_chat_id,
            title: row.title,
            created_at: Timestamp(row.created_at),
            updated_at: Timestamp(row.updated_at),
            community: CommunityId(row.community_id),
            platform_community_id: row.platform_community_id,
            community_title: row.community_title,
            inactive_at: row.inactive_at.map(Timestamp),
        })
    }
}

#[derive(Debug, sqlx::FromRow)]
struct ChallengeRow {
    id: i64,
    chat_id: i64,
    game: String,
    options: String,
    challenger_id: i64,
    status: String,
    created_at: i64,
    expires_at: i64,
    settled_by: Option<i64>,
    settled_at: Option<i64>,
    game_id: Option<i64>,
    stake: i64,
    move_millis: i64,
}

impl ChallengeRow {
    fn into_challenge(self, invitees: Vec<InviteeRow>) -> Result<Challenge, StoreError> {
        let invitees = invitees
            .into_iter()
            .map(InviteeRow::into_invitee)
            .collect::<Result<Vec<_>, _>>()?;
        let invited = invitees
            .iter()
            .filter_map(|invitee| match invitee.invitee {
                Invitee::User(user) => Some(user),
                Invitee::Username(_) => None,
            })
            .collect();
        Ok(Challenge {
            id: ChallengeNo(self.id),
            chat: ChatId(self.chat_id),
            game: parse_game_id(&self.game)?,
            options: self.options,
            challenger: UserId(self.challenger_id),
            invited,
            invitees,
            status: ChallengeStatus::parse(&self.status)?,
            created_at: Timestamp(self.created_at),
            expires_at: Timestamp(self.expires_at),
            settled_by: self.settled_by.map(UserId),
            settled_at: self.settled_at.map(Timestamp),
            started_game: self.game_id.map(GameNo),
            stake: self.stake,
            move_millis: self.move_millis,
        })
    }
}

/// One invitee of a challenge (`challenge_id` for lists over several challenges).
#[derive(Debug, sqlx::FromRow)]
struct InviteeRow {
    challenge_id: i64,
    user_id: Option<i64>,
    username: Option<String>,
    accepted_at: Option<i64>,
}

impl InviteeRow {
    fn into_invitee(self) -> Result<ChallengeInvitee, StoreError> {
        let invitee = match (self.user_id, self.username) {
            (Some(user), _) => Invitee::User(UserId(user)),
            (None, Some(name)) => Invitee::Username(name),
            (None, None) => {
                return Err(StoreError::Corrupt(format!(
                    "challenge {} has an invitee without user or username",
                    self.challenge_id
                )));
            }
        };
        Ok(ChallengeInvitee {
            invitee,
            accepted_at: self.accepted_at.map(Timestamp),
        })
    }
}

#[derive(Debug, sqlx::FromRow)]
struct GameRow {
    id: i64,
    chat_id: i64,
    challenge_id: Option<i64>,
    game: String,
    options: String,
    start_position: Option<String>,
    status: String,
    result: Option<String>,
    seq: i64,
    snapshot_position: Option<String>,
    snapshot_seq: Option<i64>,
    created_at: i64,
    updated_at: i64,
    community_id: Option<i64>,
    stake: i64,
    move_millis: i64,
    turn_user_id: Option<i64>,
    turn_started_at: Option<i64>,
    remind_at: Option<i64>,
    deadline_at: Option<i64>,
    reminded_at: Option<i64>,
    timeout_announced_at: Option<i64>,
    settled_at: Option<i64>,
    board_message_id: Option<String>,
}

impl GameRow {
    fn into_record(self, seats: Vec<SeatHolder>) -> Result<GameRecord, StoreError> {
        let snapshot = match (self.snapshot_position, self.snapshot_seq) {
            (Some(position), Some(seq)) => Some(Snapshot {
                position,
                seq: to_seq(seq)?,
            }),
            _ => None,
        };
        Ok(GameRecord {
            id: GameNo(self.id),
            chat: ChatId(self.chat_id),
            challenge: self.challenge_id.map(ChallengeNo),
            game: parse_game_id(&self.game)?,
            options: self.options,
            start_position: self.start_position,
            status: GameStatus::parse(&self.status)?,
            result: self.result,
            seq: to_seq(self.seq)?,
            snapshot,
            seats,
            created_at: Timestamp(self.created_at),
            updated_at: Timestamp(self.updated_at),
            community: CommunityId(self.community_id.ok_or_else(|| {
                StoreError::Corrupt(format!("game {} has no community", self.id))
            })?),
            stake: self.stake,
            move_millis: self.move_millis,
            clock: match (
                self.turn_user_id,
                self.turn_started_at,
                self.remind_at,
                self.deadline_at,
            ) {
                (Some(user), Some(started_at), Some(remind_at), Some(deadline_at)) => {
                    Some(TurnClock {
                        user: UserId(user),
                        started_at: Timestamp(started_at),
                        remind_at: Timestamp(remind_at),
                        deadline_at: Timestamp(deadline_at),
                        reminded_at: self.reminded_at.map(Timestamp),
                        timeout_announced_at: self.timeout_announced_at.map(Timestamp),
                    })
                }
                _ => None,
            },
            settled_at: self.settled_at.map(Timestamp),
            board_message_id: self.board_message_id,
        })
    }
}

#[derive(Debug, sqlx::FromRow)]
struct SeatRow {
    game_id: i64,
    seat: i64,
    #[sqlx(flatten)]
    user: UserRow,
}

impl SeatRow {
    fn into_holder(self) -> Result<SeatHolder, StoreError> {
        Ok(SeatHolder {
            seat: u8::try_from(self.seat)
                .map_err(|_| StoreError::Corrupt(format!("seat index {}", self.seat)))?,
            user: User::try_from(self.user)?,
        })
    }
}

#[derive(Debug, sqlx::FromRow)]
struct OutboxDbRow {
    id: i64,
    platform: String,
    chat_id: i64,
    platform_chat_id: String,
    game_id: Option<i64>,
    board_message_id: Option<String>,
    kind: String,
    payload: String,
    created_at: i64,
    next_attempt_at: i64,
    attempts: i64,
    lease_owner: Option<String>,
    lease_until: Option<i64>,
    sent_at: Option<i64>,
    message_id: Option<String>,
    dropped_at: Option<i64>,
    last_error: Option<String>,
}

impl TryFrom<OutboxDbRow> for OutboxRow {
    type Error = StoreError;
    fn try_from(row: OutboxDbRow) -> Result<OutboxRow, StoreError> {
        Ok(OutboxRow {
            id: OutboxId(row.id),
            platform: Platform::parse(&row.platform)?,
            chat: ChatId(row.chat_id),
            platform_chat_id: row.platform_chat_id,
            game: row.game_id.map(GameNo),
            board_message_id: row.board_message_id,
            kind: OutboxKind::parse(&row.kind)?,
            payload: row.payload,
            created_at: Timestamp(row.created_at),
            next_attempt_at: Timestamp(row.next_attempt_at),
            attempts: row.attempts,
            lease_owner: row.lease_owner,
            lease_until: row.lease_until.map(Timestamp),
            sent_at: row.sent_at.map(Timestamp),
            message_id: row.message_id,
            dropped_at: row.dropped_at.map(Timestamp),
            last_error: row.last_error,
        })
    }
}

#[derive(Debug, sqlx::FromRow)]
struct LeaderRow {
    #[sqlx(flatten)]
    user: UserRow,
    balance: i64,
}

#[derive(Debug, sqlx::FromRow)]
struct LedgerRow {
    id: i64,
    community_id: i64,
    kind: String,
    from_account: i64,
    to_account: i64,
    amount: i64,
    game_id: Option<i64>,
    actor_id: Option<i64>,
    reason: String,
    created_at: i64,
}

impl TryFrom<LedgerRow> for LedgerEntry {
    type Error = StoreError;
    fn try_from(row: LedgerRow) -> Result<LedgerEntry, StoreError> {
        Ok(LedgerEntry {
            id: row.id,
            community: CommunityId(row.community_id),
            kind: LedgerKind::parse(&row.kind)?,
            from: AccountId(row.from_account),
            to: AccountId(row.to_account),
            amount: row.amount,
            game: row.game_id.map(GameNo),
            actor: row.actor_id.map(UserId),
            reason: row.reason,
            at: Timestamp(row.created_at),
        })
    }
}

#[derive(Debug, sqlx::FromRow)]
struct ActionRow {
    seq: i64,
    action: String,
    actor_id: Option<i64>,
    created_at: i64,
}

impl TryFrom<ActionRow> for ActionRecord {
    type Error = StoreError;
    fn try_from(row: ActionRow) -> Result<ActionRecord, StoreError> {
        Ok(ActionRecord {
            seq: to_seq(row.seq)?,
            action: row.action,
            actor: row.actor_id.map(UserId),
            at: Timestamp(row.created_at),
        })
    }
}

/// The clock columns a game update returns.
#[derive(Debug, sqlx::FromRow)]
struct ClockRow {
    turn_user_id: Option<i64>,
    turn_started_at: Option<i64>,
    remind_at: Option<i64>,
    deadline_at: Option<i64>,
}

impl ClockRow {
    fn into_clock(self) -> Option<TurnClock> {
        Some(TurnClock {
            user: UserId(self.turn_user_id?),
            started_at: Timestamp(self.turn_started_at?),
            remind_at: Timestamp(self.remind_at?),
            deadline_at: Timestamp(self.deadline_at?),
            reminded_at: None,
            timeout_announced_at: None,
        })
    }
}

/// The state of a game row that an update did not match, to say why.
#[derive(Debug, sqlx::FromRow)]
struct GameStateRow {
    status: String,
    seq: i64,
}

/// The state of a challenge row that an update did not match, to say why.
#[derive(Debug, sqlx::FromRow)]
struct ChallengeStateRow {
    status: String,
    expires_at: i64,
}

fn parse_game_id(text: &str) -> Result<GameId, StoreError> {
    text.parse()
        .map_err(|_| StoreError::Corrupt(format!("unknown game {text:?}")))
}

fn to_seq(value: i64) -> Result<u32, StoreError> {
    u32::try_from(value).map_err(|_| StoreError::Corrupt(format!("sequence number {value}")))
}

/// Groups seat rows (ordered by game, then seat) into records of the given game rows.
fn assemble_games(games: Vec<GameRow>, seats: Vec<SeatRow>) -> Result<Vec<GameRecord>, StoreError> {
    let mut by_game: std::collections::HashMap<i64, Vec<SeatHolder>> =
        std::collections::HashMap::new();
    for row in seats {
        let game = row.game_id;
        by_game.entry(game).or_default().push(row.into_holder()?);
    }
    games
        .into_iter()
        .map(|row| {
            let seats = by_game.remove(&row.id).unwrap_or_default();
            row.into_record(seats)
        })
        .collect()
}

/// Why a game update matched no row.
fn game_refusal(game: GameNo, state: Option<GameStateRow>) -> Result<Conflict, StoreError> {
    let Some(state) = state else {
        return Ok(Conflict::NoSuchGame(game));
    };
    let status = GameStatus::parse(&state.status)?;
    if status == GameStatus::Active {
        Ok(Conflict::StaleSeq {
            current: to_seq(state.seq)?,
        })
    } else {
        Ok(Conflict::GameOver { game, status })
    }
}

/// Why [`Store::end_game`] matched no row.
fn end_refusal(
    game: GameNo,
    ending: &Ending<'_>,
    state: Option<GameStateRow>,
) -> Result<Conflict, StoreError> {
    let Some(row) = state else {
        return Ok(Conflict::NoSuchGame(game));
    };
    let status = GameStatus::parse(&row.status)?;
    let seq = to_seq(row.seq)?;
    if status != GameStatus::Active {
        Ok(Conflict::GameOver { game, status })
    } else if ending.expected_seq.is_some_and(|expected| expected != seq) {
        Ok(Conflict::StaleSeq { current: seq })
    } else {
        Ok(Conflict::NotYetDue(game))
    }
}

/// Why a challenge update matched no row.
fn challenge_refusal(
    challenge: ChallengeNo,
    state: Option<ChallengeStateRow>,
    now: Timestamp,
) -> Result<Conflict, StoreError> {
    let Some(state) = state else {
        return Ok(Conflict::NoSuchChallenge(challenge));
    };
    let status = ChallengeStatus::parse(&state.status)?;
    if status == ChallengeStatus::Pending && state.expires_at <= now.0 {
        Ok(Conflict::ChallengeExpired(challenge))
    } else {
        Ok(Conflict::ChallengeSettled { challenge, status })
    }
}

/// A username as stored: without a leading `@` and surrounding spaces.
fn clean_username(name: &str) -> &str {
    let name = name.trim();
    name.strip_prefix('@').unwrap_or(name)
}

/// The invitees `users` then `more`, without repeats (the same user; the same username in any
/// ASCII case; an empty username), in first-seen order.
fn distinct_invitees(users: &[UserId], more: &[Invitee]) -> Vec<Invitee> {
    let mut seen: Vec<Invitee> = Vec::with_capacity(users.len() + more.len());
    let all = users
        .iter()
        .map(|user| Invitee::User(*user))
        .chain(more.iter().cloned());
    for invitee in all {
        let invitee = match invitee {
            Invitee::Username(name) => {
                let name = clean_username(&name);
                if name.is_empty() {
                    continue;
                }
                Invitee::Username(name.to_string())
            }
            user => user,
        };
        let repeat = seen.iter().any(|other| match (other, &invitee) {
            (Invitee::User(a), Invitee::User(b)) => a == b,
            (Invitee::Username(a), Invitee::Username(b)) => a.eq_ignore_ascii_case(b),
            _ => false,
        });
        if !repeat {
            seen.push(invitee);
        }
    }
    seen
}

/// The users without repeats, in first-seen order.
fn distinct(users: &[UserId]) -> Vec<UserId> {
    let mut seen = Vec::with_capacity(users.len());
    for user in users {
        if !seen.contains(user) {
            seen.push(*user);
        }
    }
    seen
}

fn seq_to_i64(seq: u32) -> i64 {
    i64::from(seq)
}
