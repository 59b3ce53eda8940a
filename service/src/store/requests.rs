//! Request keys: a request recorded in the transaction that applies it, so that a re-delivered
//! request is refused as a duplicate.

use super::executor::{Tx, query};
use super::{Conflict, GameNo, RequestKey, StoreError, Timestamp, db, is_foreign_key_violation};

/// Records request `$2` of platform `$1` (of game `$3`, if any) at `$4`, unless it was.
const INSERT_REQUEST: &str = "\
INSERT INTO processed_requests (platform, request_key, game_id, processed_at)
VALUES ($1, $2, $3, $4)
ON CONFLICT (platform, request_key) DO NOTHING";

/// Records `request` in the transaction: [`Conflict::Duplicate`] if it was seen.
pub(super) async fn record_request(
    tx: &mut Tx,
    request: Option<&RequestKey>,
    game: Option<i64>,
    now: Timestamp,
    operation: &'static str,
) -> Result<(), StoreError> {
    let Some(request) = request else {
        return Ok(());
    };
    let inserted = query(INSERT_REQUEST)
        .bind(request.platform.as_str())
        .bind(&request.key)
        .bind(game)
        .bind(now.0)
        .execute(&mut *tx)
        .await;
    match inserted {
        Ok(done) if done.rows_affected() == 0 => Err(Conflict::Duplicate.into()),
        Ok(_) => Ok(()),
        Err(error) if is_foreign_key_violation(&error) => match game {
            Some(game) => Err(Conflict::NoSuchGame(GameNo(game)).into()),
            None => Err(db(operation)(error)),
        },
        Err(error) => Err(db(operation)(error)),
    }
}
