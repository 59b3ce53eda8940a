//! The database URL (a secret: its `Debug` prints `***`) and the backend its scheme selects.

use std::fmt;
use std::str::FromStr;

use super::StoreError;

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
