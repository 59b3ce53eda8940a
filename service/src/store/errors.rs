//! What the store refuses ([`Conflict`]: caused by users, answered to them) apart from internal
//! failures ([`StoreError`]).

use super::{Backend, ChallengeNo, ChallengeStatus, GameNo, GameStatus, UserId};

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
    /// The database was written by a newer Tabula: it holds migrations this binary does not
    /// know, and is left untouched.
    #[error(
        "the database was written by a newer Tabula: it has migration {versions:?}, and this \
         binary knows migrations up to {known}; run the newer Tabula (or restore a backup made \
         before the upgrade)"
    )]
    Newer {
        /// The applied versions this binary does not know.
        versions: Vec<i64>,
        /// The newest version this binary knows.
        known: i64,
    },
    /// Migrations are pending and `TABULA_MIGRATE=manual` says not to apply them at start.
    #[error(
        "the database has pending migrations {versions:?} and TABULA_MIGRATE=manual: run \
         `tabula migrate` first (after a backup: `tabula backup FILE`), or unset TABULA_MIGRATE"
    )]
    Pending {
        /// The pending versions.
        versions: Vec<i64>,
    },
    /// A backup of this kind needs a SQLite database.
    #[error("this is not a SQLite database")]
    NotSqlite,
    /// A backup could not be made or does not check.
    #[error("backup failed: {reason}")]
    Backup {
        /// Why.
        reason: String,
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

impl From<crate::values::UnknownValue> for StoreError {
    fn from(unknown: crate::values::UnknownValue) -> StoreError {
        StoreError::Corrupt(unknown.to_string())
    }
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
pub(super) fn is_foreign_key_violation(error: &sqlx::Error) -> bool {
    error
        .as_database_error()
        .is_some_and(|error| error.is_foreign_key_violation())
}

/// Maps a driver error to [`StoreError::Database`] for `operation`.
pub(super) fn db(operation: &'static str) -> impl FnOnce(sqlx::Error) -> StoreError {
    move |source| StoreError::Database { operation, source }
}
