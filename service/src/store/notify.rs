//! How each person is reminded that it is their move (`/notify`, issue 38): the reminder at
//! half time and a last call when a tenth of the time is left, each on or off. A person with
//! no row has the defaults ([`NotifySettings::default`]), which keep what the bot always did.

use super::executor::{query, query_as};

use super::requests::record_request;
use super::{RequestKey, Store, StoreError, Timestamp, UserId, db};

/// A person's notification settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NotifySettings {
    /// The reminder when half of a turn's time has passed (on by default).
    pub halftime: bool,
    /// A last call when a tenth of a turn's time is left (off by default).
    pub lastcall: bool,
}

impl Default for NotifySettings {
    fn default() -> Self {
        NotifySettings {
            halftime: true,
            lastcall: false,
        }
    }
}

const NOTIFY_SETTINGS: &str = "SELECT halftime, lastcall FROM notify_settings WHERE user_id = $1";

const SET_NOTIFY_SETTINGS: &str = "\
INSERT INTO notify_settings (user_id, halftime, lastcall, updated_at) VALUES ($1, $2, $3, $4)
ON CONFLICT (user_id) DO UPDATE SET halftime = excluded.halftime, lastcall = excluded.lastcall,
    updated_at = excluded.updated_at";

impl Store {
    /// The notification settings of `user` (the defaults when they never changed them).
    ///
    /// # Errors
    /// A database failure.
    pub async fn notify_settings(&self, user: UserId) -> Result<NotifySettings, StoreError> {
        let row: Option<(i64, i64)> = query_as(NOTIFY_SETTINGS)
            .bind(user.0)
            .fetch_optional(self)
            .await
            .map_err(db("notify_settings"))?;
        Ok(
            row.map_or_else(NotifySettings::default, |(halftime, lastcall)| {
                NotifySettings {
                    halftime: halftime != 0,
                    lastcall: lastcall != 0,
                }
            }),
        )
    }

    /// Sets the notification settings of `user`, recording `request` in the same transaction.
    ///
    /// # Errors
    /// [`super::Conflict::Duplicate`]; a database failure.
    pub async fn set_notify_settings(
        &self,
        user: UserId,
        settings: NotifySettings,
        request: Option<&RequestKey>,
        now: Timestamp,
    ) -> Result<(), StoreError> {
        const OPERATION: &str = "set_notify_settings";
        let mut tx = self.begin_write(OPERATION).await?;
        record_request(&mut tx, request, None, now, OPERATION).await?;
        query(SET_NOTIFY_SETTINGS)
            .bind(user.0)
            .bind(i64::from(settings.halftime))
            .bind(i64::from(settings.lastcall))
            .bind(now.0)
            .execute(&mut tx)
            .await
            .map_err(db(OPERATION))?;
        tx.commit().await.map_err(db(OPERATION))
    }
}
