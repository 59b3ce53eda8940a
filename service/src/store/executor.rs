//! How a statement runs on either backend: a transaction over both ([`Tx`]), begun by
//! [`Store::begin_read`] or [`Store::begin_write`], and a query builder shaped like sqlx's
//! (`query(SQL).bind(x).execute(&mut tx)`, `query_as::<Row>(SQL)...fetch_all(&mut tx)`,
//! `query_scalar`), whose binds are kept as [`Value`]s and handed to the backend's driver only
//! when the statement runs. A statement runs in a transaction (`&mut tx`) or on the pool
//! (`self`, a [`Store`]); see [`Conn`].
//!
//! The binds are the kinds of value the store writes: 64-bit integers and text, each possibly
//! null. A null keeps its kind, so that PostgreSQL is told the parameter's type as before.

use std::borrow::Cow;
use std::marker::PhantomData;

use sqlx::postgres::PgRow;
use sqlx::sqlite::SqliteRow;
use sqlx::{
    Arguments, AssertSqlSafe, Decode, FromRow, PgConnection, PgPool, Postgres, SqlSafeStr, SqlStr,
    Sqlite, SqliteConnection, SqlitePool, Transaction, Type,
};

use super::{Store, StoreError};

/// A transaction on either backend, with when it began and for which store operation (its
/// time to commit is counted by `/metrics`).
#[derive(Debug)]
pub(super) struct Tx {
    pub(super) backend: TxOn,
    started: std::time::Instant,
    operation: &'static str,
}

/// The backend's transaction.
#[derive(Debug)]
pub(super) enum TxOn {
    Sqlite(Transaction<'static, Sqlite>),
    Postgres(Transaction<'static, Postgres>),
}

impl Tx {
    fn new(backend: TxOn, operation: &'static str) -> Tx {
        Tx {
            backend,
            started: std::time::Instant::now(),
            operation,
        }
    }

    /// Whether this is a PostgreSQL transaction.
    pub(super) fn is_postgres(&self) -> bool {
        matches!(self.backend, TxOn::Postgres(_))
    }

    /// Commits the transaction. (Dropped without it, it rolls back.)
    pub(super) async fn commit(self) -> Result<(), sqlx::Error> {
        let committed = match self.backend {
            TxOn::Sqlite(tx) => tx.commit().await,
            TxOn::Postgres(tx) => tx.commit().await,
        };
        if committed.is_ok() {
            crate::metrics::metrics().transaction(self.operation, self.started.elapsed());
        }
        committed
    }
}

impl Store {
    /// Starts a transaction whose reads all see one snapshot (see the backend modules).
    pub(super) async fn begin_read(&self, operation: &'static str) -> Result<Tx, StoreError> {
        let backend = match self {
            Store::Sqlite(store) => store.begin_read(operation).await.map(TxOn::Sqlite)?,
            Store::Postgres(store) => store.begin_read(operation).await.map(TxOn::Postgres)?,
        };
        Ok(Tx::new(backend, operation))
    }

    /// Starts a transaction whose compare-and-set statements see the latest committed rows
    /// (see the backend modules).
    pub(super) async fn begin_write(&self, operation: &'static str) -> Result<Tx, StoreError> {
        let backend = match self {
            Store::Sqlite(store) => store.begin_write(operation).await.map(TxOn::Sqlite)?,
            Store::Postgres(store) => store.begin_write(operation).await.map(TxOn::Postgres)?,
        };
        Ok(Tx::new(backend, operation))
    }
}

/// Where a statement runs: on a connection of the pool, or in a transaction.
#[derive(Debug)]
pub(super) enum Conn<'c> {
    SqlitePool(&'c SqlitePool),
    PostgresPool(&'c PgPool),
    Sqlite(&'c mut SqliteConnection),
    Postgres(&'c mut PgConnection),
}

impl<'c> From<&'c Store> for Conn<'c> {
    fn from(store: &'c Store) -> Conn<'c> {
        match store {
            Store::Sqlite(store) => Conn::SqlitePool(&store.pool),
            Store::Postgres(store) => Conn::PostgresPool(&store.pool),
        }
    }
}

impl<'c> From<&'c mut Tx> for Conn<'c> {
    fn from(tx: &'c mut Tx) -> Conn<'c> {
        match &mut tx.backend {
            TxOn::Sqlite(tx) => Conn::Sqlite(tx),
            TxOn::Postgres(tx) => Conn::Postgres(tx),
        }
    }
}

/// A bound value.
#[derive(Debug, Clone)]
pub(super) enum Value<'q> {
    /// A 64-bit integer (`BIGINT`) or null.
    Int(Option<i64>),
    /// Text or null.
    Text(Option<Cow<'q, str>>),
    /// A double-precision number (`REAL`, `DOUBLE PRECISION`): a rating.
    Float(f64),
}

impl From<f64> for Value<'_> {
    fn from(value: f64) -> Self {
        Value::Float(value)
    }
}

impl From<i64> for Value<'_> {
    fn from(value: i64) -> Self {
        Value::Int(Some(value))
    }
}

impl From<Option<i64>> for Value<'_> {
    fn from(value: Option<i64>) -> Self {
        Value::Int(value)
    }
}

impl<'q> From<&'q str> for Value<'q> {
    fn from(value: &'q str) -> Self {
        Value::Text(Some(Cow::Borrowed(value)))
    }
}

impl<'q> From<Option<&'q str>> for Value<'q> {
    fn from(value: Option<&'q str>) -> Self {
        Value::Text(value.map(Cow::Borrowed))
    }
}

impl<'q> From<&'q String> for Value<'q> {
    fn from(value: &'q String) -> Self {
        Value::Text(Some(Cow::Borrowed(value)))
    }
}

impl From<String> for Value<'_> {
    fn from(value: String) -> Self {
        Value::Text(Some(Cow::Owned(value)))
    }
}

/// The binds of a statement for SQLite.
fn sqlite_arguments(values: Vec<Value<'_>>) -> Result<sqlx::sqlite::SqliteArguments, sqlx::Error> {
    let mut arguments = sqlx::sqlite::SqliteArguments::default();
    for value in values {
        match value {
            Value::Int(value) => arguments.add(value),
            Value::Text(value) => arguments.add(value.as_deref()),
            Value::Float(value) => arguments.add(value),
        }
        .map_err(sqlx::Error::Encode)?;
    }
    Ok(arguments)
}

/// The binds of a statement for PostgreSQL.
fn postgres_arguments(values: Vec<Value<'_>>) -> Result<sqlx::postgres::PgArguments, sqlx::Error> {
    let mut arguments = sqlx::postgres::PgArguments::default();
    for value in values {
        match value {
            Value::Int(value) => arguments.add(value),
            Value::Text(value) => arguments.add(value.as_deref()),
            Value::Float(value) => arguments.add(value),
        }
        .map_err(sqlx::Error::Encode)?;
    }
    Ok(arguments)
}

/// What a statement run by [`Query::execute`] did.
#[derive(Debug, Clone, Copy)]
pub(super) struct Done {
    rows_affected: u64,
}

impl Done {
    /// How many rows the statement changed.
    pub(super) fn rows_affected(self) -> u64 {
        self.rows_affected
    }
}

/// The text of a statement: written out, or a multi-row `INSERT` whose `VALUES` list is written
/// when the statement runs, in the placeholders of its backend ([`insert_values`]).
#[derive(Debug)]
enum Sql {
    Text(&'static str),
    Values {
        insert: &'static str,
        columns: usize,
        rows: usize,
    },
}

/// A placeholder of SQLite (`?`, the binds in order) or of PostgreSQL (`$1`, `$2`...).
#[derive(Debug, Clone, Copy)]
enum Placeholders {
    Sqlite,
    Postgres,
}

impl Sql {
    /// The statement as the backend runs it.
    fn text(self, placeholders: Placeholders) -> SqlStr {
        let (insert, columns, rows) = match self {
            Sql::Text(text) => return text.into_sql_str(),
            Sql::Values {
                insert,
                columns,
                rows,
            } => (insert, columns, rows),
        };
        let mut text = String::from(insert);
        text.push_str("VALUES ");
        let mut bind = 0;
        for row in 0..rows {
            if row > 0 {
                text.push_str(", ");
            }
            text.push('(');
            for column in 0..columns {
                if column > 0 {
                    text.push_str(", ");
                }
                bind += 1;
                match placeholders {
                    Placeholders::Sqlite => text.push('?'),
                    Placeholders::Postgres => {
                        text.push('$');
                        text.push_str(&bind.to_string());
                    }
                }
            }
            text.push(')');
        }
        // Only the store's own statement and placeholders: no input is written into the text.
        AssertSqlSafe(text).into_sql_str()
    }
}

/// A statement with its binds, run for what it does ([`query`]).
#[derive(Debug)]
#[must_use = "a query does nothing until it is executed"]
pub(super) struct Query<'q> {
    sql: Sql,
    values: Vec<Value<'q>>,
}

/// A statement whose binds follow.
pub(super) fn query<'q>(sql: &'static str) -> Query<'q> {
    Query {
        sql: Sql::Text(sql),
        values: Vec::new(),
    }
}

/// A multi-row `INSERT`: `insert` (`INSERT INTO t (a, b) `, ending in a space) then a `VALUES`
/// list with one tuple of `N` binds per row of `rows` (which must not be empty), as sqlx's
/// `QueryBuilder::push_values` writes it for each backend.
pub(super) fn insert_values<'q, const N: usize>(
    insert: &'static str,
    rows: impl IntoIterator<Item = [Value<'q>; N]>,
) -> Query<'q> {
    let mut values = Vec::new();
    let mut count = 0;
    for row in rows {
        values.extend(row);
        count += 1;
    }
    Query {
        sql: Sql::Values {
            insert,
            columns: N,
            rows: count,
        },
        values,
    }
}

impl<'q> Query<'q> {
    /// Binds the next parameter (`$1`, then `$2`...).
    pub(super) fn bind(mut self, value: impl Into<Value<'q>>) -> Self {
        self.values.push(value.into());
        self
    }

    /// Runs the statement.
    pub(super) async fn execute(self, conn: impl Into<Conn<'_>>) -> Result<Done, sqlx::Error> {
        let rows_affected = match conn.into() {
            Conn::SqlitePool(pool) => self.sqlite()?.execute(pool).await?.rows_affected(),
            Conn::Sqlite(conn) => self.sqlite()?.execute(conn).await?.rows_affected(),
            Conn::PostgresPool(pool) => self.postgres()?.execute(pool).await?.rows_affected(),
            Conn::Postgres(conn) => self.postgres()?.execute(conn).await?.rows_affected(),
        };
        Ok(Done { rows_affected })
    }

    fn sqlite(
        self,
    ) -> Result<sqlx::query::Query<'static, Sqlite, sqlx::sqlite::SqliteArguments>, sqlx::Error>
    {
        let arguments = sqlite_arguments(self.values)?;
        Ok(sqlx::query_with(
            self.sql.text(Placeholders::Sqlite),
            arguments,
        ))
    }

    fn postgres(
        self,
    ) -> Result<sqlx::query::Query<'static, Postgres, sqlx::postgres::PgArguments>, sqlx::Error>
    {
        let arguments = postgres_arguments(self.values)?;
        Ok(sqlx::query_with(
            self.sql.text(Placeholders::Postgres),
            arguments,
        ))
    }
}

/// A statement whose rows decode as `O` ([`query_as`]).
#[derive(Debug)]
#[must_use = "a query does nothing until it is fetched"]
pub(super) struct QueryAs<'q, O> {
    query: Query<'q>,
    row: PhantomData<fn() -> O>,
}

/// A statement whose rows decode as `O`, binds following.
pub(super) fn query_as<'q, O>(sql: &'static str) -> QueryAs<'q, O> {
    QueryAs {
        query: query(sql),
        row: PhantomData,
    }
}

impl<'q, O> QueryAs<'q, O>
where
    O: for<'r> FromRow<'r, SqliteRow> + for<'r> FromRow<'r, PgRow> + Send + Unpin,
{
    /// Binds the next parameter.
    pub(super) fn bind(mut self, value: impl Into<Value<'q>>) -> Self {
        self.query = self.query.bind(value);
        self
    }

    /// The one row (none is an error).
    pub(super) async fn fetch_one(self, conn: impl Into<Conn<'_>>) -> Result<O, sqlx::Error> {
        let Query { sql, values } = self.query;
        match conn.into() {
            Conn::SqlitePool(pool) => sqlite_as(sql, values)?.fetch_one(pool).await,
            Conn::Sqlite(conn) => sqlite_as(sql, values)?.fetch_one(conn).await,
            Conn::PostgresPool(pool) => postgres_as(sql, values)?.fetch_one(pool).await,
            Conn::Postgres(conn) => postgres_as(sql, values)?.fetch_one(conn).await,
        }
    }

    /// The first row, if any.
    pub(super) async fn fetch_optional(
        self,
        conn: impl Into<Conn<'_>>,
    ) -> Result<Option<O>, sqlx::Error> {
        let Query { sql, values } = self.query;
        match conn.into() {
            Conn::SqlitePool(pool) => sqlite_as(sql, values)?.fetch_optional(pool).await,
            Conn::Sqlite(conn) => sqlite_as(sql, values)?.fetch_optional(conn).await,
            Conn::PostgresPool(pool) => postgres_as(sql, values)?.fetch_optional(pool).await,
            Conn::Postgres(conn) => postgres_as(sql, values)?.fetch_optional(conn).await,
        }
    }

    /// All the rows.
    pub(super) async fn fetch_all(self, conn: impl Into<Conn<'_>>) -> Result<Vec<O>, sqlx::Error> {
        let Query { sql, values } = self.query;
        match conn.into() {
            Conn::SqlitePool(pool) => sqlite_as(sql, values)?.fetch_all(pool).await,
            Conn::Sqlite(conn) => sqlite_as(sql, values)?.fetch_all(conn).await,
            Conn::PostgresPool(pool) => postgres_as(sql, values)?.fetch_all(pool).await,
            Conn::Postgres(conn) => postgres_as(sql, values)?.fetch_all(conn).await,
        }
    }
}

fn sqlite_as<O>(
    sql: Sql,
    values: Vec<Value<'_>>,
) -> Result<sqlx::query::QueryAs<'static, Sqlite, O, sqlx::sqlite::SqliteArguments>, sqlx::Error>
where
    O: for<'r> FromRow<'r, SqliteRow>,
{
    let arguments = sqlite_arguments(values)?;
    Ok(sqlx::query_as_with(
        sql.text(Placeholders::Sqlite),
        arguments,
    ))
}

fn postgres_as<O>(
    sql: Sql,
    values: Vec<Value<'_>>,
) -> Result<sqlx::query::QueryAs<'static, Postgres, O, sqlx::postgres::PgArguments>, sqlx::Error>
where
    O: for<'r> FromRow<'r, PgRow>,
{
    let arguments = postgres_arguments(values)?;
    Ok(sqlx::query_as_with(
        sql.text(Placeholders::Postgres),
        arguments,
    ))
}

/// A statement whose rows are one column, decoded as `T` ([`query_scalar`]).
#[derive(Debug)]
#[must_use = "a query does nothing until it is fetched"]
pub(super) struct QueryScalar<'q, T> {
    rows: QueryAs<'q, (T,)>,
}

/// A statement whose rows are one column of `T`, binds following.
pub(super) fn query_scalar<'q, T>(sql: &'static str) -> QueryScalar<'q, T> {
    QueryScalar {
        rows: query_as(sql),
    }
}

impl<'q, T> QueryScalar<'q, T>
where
    T: for<'r> Decode<'r, Sqlite> + Type<Sqlite> + for<'r> Decode<'r, Postgres> + Type<Postgres>,
    T: Send + Unpin,
{
    /// Binds the next parameter.
    pub(super) fn bind(mut self, value: impl Into<Value<'q>>) -> Self {
        self.rows = self.rows.bind(value);
        self
    }

    /// The value of the one row (none is an error).
    pub(super) async fn fetch_one(self, conn: impl Into<Conn<'_>>) -> Result<T, sqlx::Error> {
        self.rows.fetch_one(conn).await.map(|(value,)| value)
    }

    /// The value of the first row, if any.
    pub(super) async fn fetch_optional(
        self,
        conn: impl Into<Conn<'_>>,
    ) -> Result<Option<T>, sqlx::Error> {
        Ok(self.rows.fetch_optional(conn).await?.map(|(value,)| value))
    }

    /// The values of all the rows.
    pub(super) async fn fetch_all(self, conn: impl Into<Conn<'_>>) -> Result<Vec<T>, sqlx::Error> {
        let rows = self.rows.fetch_all(conn).await?;
        Ok(rows.into_iter().map(|(value,)| value).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::{Placeholders, Sql};

    fn values(rows: usize) -> Sql {
        Sql::Values {
            insert: "INSERT INTO t (a, b) ",
            columns: 2,
            rows,
        }
    }

    #[test]
    fn a_values_list_is_written_in_the_placeholders_of_the_backend() {
        assert_eq!(
            values(2).text(Placeholders::Sqlite).as_str(),
            "INSERT INTO t (a, b) VALUES (?, ?), (?, ?)"
        );
        assert_eq!(
            values(3).text(Placeholders::Postgres).as_str(),
            "INSERT INTO t (a, b) VALUES ($1, $2), ($3, $4), ($5, $6)"
        );
        assert_eq!(
            values(1).text(Placeholders::Postgres).as_str(),
            "INSERT INTO t (a, b) VALUES ($1, $2)"
        );
    }

    #[test]
    fn a_written_statement_is_run_as_written() {
        assert_eq!(
            Sql::Text("SELECT 1").text(Placeholders::Sqlite).as_str(),
            "SELECT 1"
        );
    }
}
