//! Communities (a Discord server, a Telegram group, a chat that stands alone): the moderators'
//! settings, vacations, and the scheduler's claims on due reminders and time-outs. The
//! statements and the operations that run them.
//!
//! The scheduler claims a due game by setting `reminded_at` (or `timeout_announced_at`) from
//! null in one `UPDATE ... RETURNING`: each reminder is claimed by exactly one caller, however
//! many bot instances run. On PostgreSQL the backend's claim statements pick the rows with
//! `FOR UPDATE SKIP LOCKED`, so instances never wait for each other's claims.

use tabula_core::GameId;

use super::executor::{Conn, query, query_as, query_scalar};
use super::outbox::announce_if_any;
use super::people;
use super::requests::record_request;
use super::{
    Announce, Backend, Chat, ChatId, ChatRow, CommunityId, Conflict, DAY_MILLIS, Due, GameNo,
    NewVacation, OutboxId, RequestKey, Settings, StakedGames, Store, StoreError, Timestamp, UserId,
    Vacation, db,
};

pub(super) const SETTINGS: &str = "\
SELECT enabled_games, default_stake, max_stake, starting_grant, default_move_millis,
       max_move_millis, reminders, staked_games, vacation_days, language, open_wait_millis,
       private_pings, threads, leaderboard_games, leaderboard_months, pages
FROM community_settings WHERE community_id = $1";

/// A person's own language (`$1`) and their community's (`$2`), each NULL when not chosen.
pub(super) const LANGUAGES: &str = "\
SELECT (SELECT language FROM user_languages WHERE user_id = $1),
       (SELECT language FROM community_settings WHERE community_id = $2)";

/// Sets a person's own language.
pub(super) const SET_USER_LANGUAGE: &str = "\
INSERT INTO user_languages (user_id, language, updated_at) VALUES ($1, $2, $3)
ON CONFLICT (user_id) DO UPDATE SET language = excluded.language, updated_at = excluded.updated_at";

/// Forgets a person's own language.
pub(super) const CLEAR_USER_LANGUAGE: &str = "DELETE FROM user_languages WHERE user_id = $1";

pub(super) const UPSERT_SETTINGS: &str = "\
INSERT INTO community_settings (community_id, enabled_games, default_stake, max_stake,
    starting_grant, default_move_millis, max_move_millis, reminders, staked_games,
    vacation_days, updated_by, updated_at, language, open_wait_millis, private_pings, threads,
    leaderboard_games, leaderboard_months, pages)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)
ON CONFLICT (community_id) DO UPDATE SET
    enabled_games = excluded.enabled_games, default_stake = excluded.default_stake,
    max_stake = excluded.max_stake, starting_grant = excluded.starting_grant,
    default_move_millis = excluded.default_move_millis,
    max_move_millis = excluded.max_move_millis, reminders = excluded.reminders,
    staked_games = excluded.staked_games, vacation_days = excluded.vacation_days,
    updated_by = excluded.updated_by, updated_at = excluded.updated_at,
    language = excluded.language, open_wait_millis = excluded.open_wait_millis,
    private_pings = excluded.private_pings, threads = excluded.threads,
    leaderboard_games = excluded.leaderboard_games,
    leaderboard_months = excluded.leaderboard_months, pages = excluded.pages";

/// Takes the row lock of a user (a no-op write), so that one person's vacations are taken one
/// at a time.
pub(super) const LOCK_USER: &str = "UPDATE users SET updated_at = updated_at WHERE id = $1";

/// Vacation days of a user taken in `[$3, $4)`.
pub(super) const VACATION_DAYS_USED: &str = "\
SELECT CAST(COALESCE(SUM(days), 0) AS BIGINT) FROM vacations
WHERE community_id = $1 AND user_id = $2 AND created_at >= $3 AND created_at < $4";

/// The end of the user's vacation running at `$3` or later.
pub(super) const VACATION_END: &str = "\
SELECT MAX(ends_at) FROM vacations WHERE community_id = $1 AND user_id = $2 AND ends_at > $3";

/// The vacation of `$2` in `$1` taken at `$3`.
const VACATION_TAKEN_AT: &str = "\
SELECT starts_at, ends_at, days FROM vacations
WHERE community_id = $1 AND user_id = $2 AND created_at = $3
ORDER BY ends_at DESC LIMIT 1";

pub(super) const INSERT_VACATION: &str = "\
INSERT INTO vacations (community_id, user_id, starts_at, ends_at, days, created_at)
VALUES ($1, $2, $3, $4, $5, $6)";

/// Moves the clocks of the user's running turns on by `$3` milliseconds (not those already
/// out of time at `$4`).
pub(super) const PAUSE_CLOCKS: &str = "\
UPDATE games SET remind_at = remind_at + $3, deadline_at = deadline_at + $3
WHERE community_id = $1 AND turn_user_id = $2 AND status = 'active' AND deadline_at > $4";

/// Claims due reminders on SQLite: `$1` now, `$2` the most. SQLite has one writer at a time,
/// so the update itself settles who claims what.
pub(super) const CLAIM_DUE_REMINDERS_SQLITE: &str = "\
UPDATE games SET reminded_at = $1 WHERE id IN (
    SELECT id FROM games
    WHERE status = 'active' AND reminded_at IS NULL AND remind_at <= $1
    ORDER BY remind_at LIMIT $2)
RETURNING id";

/// Claims due time-outs on SQLite, as [`CLAIM_DUE_REMINDERS_SQLITE`].
pub(super) const CLAIM_DUE_TIMEOUTS_SQLITE: &str = "\
UPDATE games SET timeout_announced_at = $1 WHERE id IN (
    SELECT id FROM games
    WHERE status = 'active' AND timeout_announced_at IS NULL AND deadline_at <= $1
    ORDER BY deadline_at LIMIT $2)
RETURNING id";

/// Claims due reminders on PostgreSQL: `$1` now, `$2` the most; rows locked by another
/// claimer are skipped. The rows are picked in a CTE, which PostgreSQL runs once, as the
/// outbox claim does: an `IN (SELECT ... LIMIT n)` may be run again for other rows of the
/// update and so claim more than `n` rows.
pub(super) const CLAIM_DUE_REMINDERS_POSTGRES: &str = "\
WITH due AS (
    SELECT id FROM games
    WHERE status = 'active' AND reminded_at IS NULL AND remind_at <= $1
    ORDER BY remind_at LIMIT $2 FOR UPDATE SKIP LOCKED)
UPDATE games SET reminded_at = $1 FROM due
WHERE games.id = due.id AND games.reminded_at IS NULL
RETURNING games.id";

/// Claims due time-outs on PostgreSQL, as [`CLAIM_DUE_REMINDERS_POSTGRES`].
pub(super) const CLAIM_DUE_TIMEOUTS_POSTGRES: &str = "\
WITH due AS (
    SELECT id FROM games
    WHERE status = 'active' AND timeout_announced_at IS NULL AND deadline_at <= $1
    ORDER BY deadline_at LIMIT $2 FOR UPDATE SKIP LOCKED)
UPDATE games SET timeout_announced_at = $1 FROM due
WHERE games.id = due.id AND games.timeout_announced_at IS NULL
RETURNING games.id";

/// Claims due last calls on SQLite: `$1` now, `$2` the most. A last call is due when a tenth
/// of the turn's time is left, and only for a player who asked for it (`/notify lastcall on`).
pub(super) const CLAIM_DUE_LAST_CALLS_SQLITE: &str = "\
UPDATE games SET lastcalled_at = $1 WHERE id IN (
    SELECT id FROM games
    WHERE status = 'active' AND lastcalled_at IS NULL AND deadline_at > $1
      AND deadline_at - move_millis / 10 <= $1
      AND turn_user_id IN (SELECT user_id FROM notify_settings WHERE lastcall = 1)
    ORDER BY deadline_at LIMIT $2)
RETURNING id";

/// Claims due last calls on PostgreSQL, as [`CLAIM_DUE_REMINDERS_POSTGRES`].
pub(super) const CLAIM_DUE_LAST_CALLS_POSTGRES: &str = "\
WITH due AS (
    SELECT id FROM games
    WHERE status = 'active' AND lastcalled_at IS NULL AND deadline_at > $1
      AND deadline_at - move_millis / 10 <= $1
      AND turn_user_id IN (SELECT user_id FROM notify_settings WHERE lastcall = 1)
    ORDER BY deadline_at LIMIT $2 FOR UPDATE SKIP LOCKED)
UPDATE games SET lastcalled_at = $1 FROM due
WHERE games.id = due.id AND games.lastcalled_at IS NULL
RETURNING games.id";

/// The statement that claims what is `due` on `backend`: `$1` now, `$2` the most rows; it
/// marks and returns the ids of due games.
pub(super) fn claim_due_statement(backend: Backend, due: Due) -> &'static str {
    match (backend, due) {
        (Backend::Sqlite, Due::Reminder) => CLAIM_DUE_REMINDERS_SQLITE,
        (Backend::Sqlite, Due::Timeout) => CLAIM_DUE_TIMEOUTS_SQLITE,
        (Backend::Postgres, Due::Reminder) => CLAIM_DUE_REMINDERS_POSTGRES,
        (Backend::Postgres, Due::Timeout) => CLAIM_DUE_TIMEOUTS_POSTGRES,
        (Backend::Sqlite, Due::LastCall) => CLAIM_DUE_LAST_CALLS_SQLITE,
        (Backend::Postgres, Due::LastCall) => CLAIM_DUE_LAST_CALLS_POSTGRES,
    }
}

/// The stored form of a list of games.
pub(super) fn games_text(games: &[GameId]) -> String {
    games
        .iter()
        .map(|game| game.as_str())
        .collect::<Vec<_>>()
        .join(",")
}

/// A stored settings row.
#[derive(Debug, sqlx::FromRow)]
pub(super) struct SettingsRow {
    enabled_games: String,
    default_stake: i64,
    max_stake: i64,
    starting_grant: i64,
    default_move_millis: i64,
    max_move_millis: i64,
    reminders: i64,
    staked_games: String,
    vacation_days: i64,
    language: Option<String>,
    open_wait_millis: i64,
    private_pings: i64,
    threads: i64,
    leaderboard_games: i64,
    leaderboard_months: i64,
    pages: i64,
}

impl TryFrom<SettingsRow> for Settings {
    type Error = StoreError;
    fn try_from(row: SettingsRow) -> Result<Settings, StoreError> {
        let mut enabled_games = Vec::new();
        for name in row.enabled_games.split(',').filter(|name| !name.is_empty()) {
            enabled_games.push(super::parse_game_id(name)?);
        }
        Ok(Settings {
            enabled_games,
            default_stake: row.default_stake,
            max_stake: row.max_stake,
            starting_grant: row.starting_grant,
            default_move_millis: row.default_move_millis,
            max_move_millis: row.max_move_millis,
            reminders: row.reminders != 0,
            staked_games: StakedGames::parse(&row.staked_games)?,
            vacation_days: row.vacation_days,
            language: row.language,
            open_wait_millis: row.open_wait_millis,
            private_pings: row.private_pings != 0,
            threads: row.threads != 0,
            leaderboard_games: row.leaderboard_games,
            leaderboard_months: row.leaderboard_months,
            pages: row.pages != 0,
        })
    }
}

/// A community's settings (the defaults until moderators change them), read on the pool or in
/// a transaction.
pub(super) async fn settings_in(
    conn: impl Into<Conn<'_>>,
    community: i64,
    operation: &'static str,
) -> Result<Settings, StoreError> {
    let row: Option<SettingsRow> = query_as(SETTINGS)
        .bind(community)
        .fetch_optional(conn)
        .await
        .map_err(db(operation))?;
    row.map_or_else(|| Ok(Settings::default()), Settings::try_from)
}

impl Store {
    /// A community's settings (the defaults until moderators change them).
    ///
    /// # Errors
    /// A database failure.
    pub async fn settings(&self, community: CommunityId) -> Result<Settings, StoreError> {
        settings_in(self, community.0, "settings").await
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
        self.save_settings_in(community, settings, by, request, None, false)
            .await
            .map(|_| ())
    }

    /// [`Store::save_settings`], writing in the same transaction an announcement of the
    /// change to a chat (kind `announce`), held as `announce` says: the outbox row. With
    /// `relink` (the community's pages were turned on or off), also the edits of its games'
    /// live boards, whose page link comes or goes ([`relink_boards`](super::boards::relink_boards)).
    ///
    /// # Errors
    /// As [`Store::save_settings`].
    pub async fn save_settings_announced(
        &self,
        community: CommunityId,
        settings: &Settings,
        by: UserId,
        request: &RequestKey,
        announce: (ChatId, &Announce<'_>),
        relink: bool,
    ) -> Result<OutboxId, StoreError> {
        self.save_settings_in(
            community,
            settings,
            by,
            Some(request),
            Some(announce),
            relink,
        )
        .await?
        .ok_or_else(|| StoreError::Corrupt("no change to announce".into()))
    }

    async fn save_settings_in(
        &self,
        community: CommunityId,
        settings: &Settings,
        by: UserId,
        request: Option<&RequestKey>,
        announce: Option<(ChatId, &Announce<'_>)>,
        relink: bool,
    ) -> Result<Option<OutboxId>, StoreError> {
        const OPERATION: &str = "save_settings";
        let now = Timestamp::now();
        let mut tx = self.begin_write(OPERATION).await?;
        record_request(&mut tx, request, None, now, OPERATION).await?;
        query(UPSERT_SETTINGS)
            .bind(community.0)
            .bind(games_text(&settings.enabled_games))
            .bind(settings.default_stake)
            .bind(settings.max_stake)
            .bind(settings.starting_grant)
            .bind(settings.default_move_millis)
            .bind(settings.max_move_millis)
            .bind(i64::from(settings.reminders))
            .bind(settings.staked_games.as_str())
            .bind(settings.vacation_days)
            .bind(by.0)
            .bind(now.0)
            .bind(settings.language.as_deref())
            .bind(settings.open_wait_millis)
            .bind(i64::from(settings.private_pings))
            .bind(i64::from(settings.threads))
            .bind(settings.leaderboard_games)
            .bind(settings.leaderboard_months)
            .bind(i64::from(settings.pages))
            .execute(&mut tx)
            .await
            .map_err(db(OPERATION))?;
        let row = announce_if_any(&mut tx, announce, now, OPERATION).await?;
        if relink {
            super::boards::relink_boards(&mut tx, community, now, OPERATION).await?;
        }
        tx.commit().await.map_err(db(OPERATION))?;
        Ok(row)
    }

    /// A person's own language and their community's default (locale codes), each `None`
    /// when not chosen.
    ///
    /// # Errors
    /// A database failure.
    pub async fn languages(
        &self,
        user: UserId,
        community: CommunityId,
    ) -> Result<(Option<String>, Option<String>), StoreError> {
        query_as(LANGUAGES)
            .bind(user.0)
            .bind(community.0)
            .fetch_one(self)
            .await
            .map_err(db("languages"))
    }

    /// Sets (`Some`) or forgets (`None`) a person's own language, recording `request` in the
    /// same transaction.
    ///
    /// # Errors
    /// [`Conflict::Duplicate`]; a database failure.
    pub async fn set_user_language(
        &self,
        user: UserId,
        language: Option<&str>,
        request: Option<&RequestKey>,
    ) -> Result<(), StoreError> {
        const OPERATION: &str = "set_user_language";
        let now = Timestamp::now();
        let mut tx = self.begin_write(OPERATION).await?;
        record_request(&mut tx, request, None, now, OPERATION).await?;
        match language {
            Some(language) => query(SET_USER_LANGUAGE)
                .bind(user.0)
                .bind(language)
                .bind(now.0),
            None => query(CLEAR_USER_LANGUAGE).bind(user.0),
        }
        .execute(&mut tx)
        .await
        .map_err(db(OPERATION))?;
        tx.commit().await.map_err(db(OPERATION))
    }

    /// A chat by id.
    ///
    /// # Errors
    /// A database failure.
    pub async fn chat(&self, id: ChatId) -> Result<Option<Chat>, StoreError> {
        query_as::<ChatRow>(people::CHAT)
            .bind(id.0)
            .fetch_optional(self)
            .await
            .map_err(db("chat"))?
            .map(Chat::try_from)
            .transpose()
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
        let end: Option<i64> = query_scalar(VACATION_END)
            .bind(community.0)
            .bind(user.0)
            .bind(now.0)
            .fetch_one(self)
            .await
            .map_err(db("vacation_end"))?;
        Ok(end.map(Timestamp))
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
        query_scalar(VACATION_DAYS_USED)
            .bind(community.0)
            .bind(user.0)
            .bind(month.0.0)
            .bind(month.1.0)
            .fetch_one(self)
            .await
            .map_err(db("vacation_days_used"))
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
        self.take_vacation_in(vacation, request, None)
            .await
            .map(|(vacation, _)| vacation)
    }

    /// [`Store::take_vacation`], writing in the same transaction an announcement of it to
    /// chat `chat` (kind `announce`), held as `announce` says: the outbox row.
    ///
    /// # Errors
    /// As [`Store::take_vacation`].
    pub async fn take_vacation_announced(
        &self,
        vacation: &NewVacation,
        request: &RequestKey,
        chat: ChatId,
        announce: &Announce<'_>,
    ) -> Result<(Vacation, OutboxId), StoreError> {
        let (vacation, row) = self
            .take_vacation_in(vacation, Some(request), Some((chat, announce)))
            .await?;
        let row = row.ok_or_else(|| StoreError::Corrupt("no vacation to announce".into()))?;
        Ok((vacation, row))
    }

    /// The vacation `user` took in `community` at `at` (the moment of the request), if any.
    ///
    /// # Errors
    /// A database failure.
    pub async fn vacation_taken_at(
        &self,
        community: CommunityId,
        user: UserId,
        at: Timestamp,
    ) -> Result<Option<Vacation>, StoreError> {
        let row: Option<(i64, i64, i64)> = query_as(VACATION_TAKEN_AT)
            .bind(community.0)
            .bind(user.0)
            .bind(at.0)
            .fetch_optional(self)
            .await
            .map_err(db("vacation_taken_at"))?;
        Ok(row.map(|(starts_at, ends_at, days)| Vacation {
            starts_at: Timestamp(starts_at),
            ends_at: Timestamp(ends_at),
            days,
        }))
    }

    async fn take_vacation_in(
        &self,
        vacation: &NewVacation,
        request: Option<&RequestKey>,
        announce: Option<(ChatId, &Announce<'_>)>,
    ) -> Result<(Vacation, Option<OutboxId>), StoreError> {
        let NewVacation {
            community,
            user,
            days,
            now,
            month,
            quota,
        } = *vacation;
        const OPERATION: &str = "take_vacation";
        let mut tx = self.begin_write(OPERATION).await?;
        record_request(&mut tx, request, None, now, OPERATION).await?;
        query(LOCK_USER)
            .bind(user.0)
            .execute(&mut tx)
            .await
            .map_err(db(OPERATION))?;
        let used: i64 = query_scalar(VACATION_DAYS_USED)
            .bind(community.0)
            .bind(user.0)
            .bind(month.0.0)
            .bind(month.1.0)
            .fetch_one(&mut tx)
            .await
            .map_err(db(OPERATION))?;
        if used.saturating_add(days) > quota {
            return Err(Conflict::VacationQuota { used, quota }.into());
        }
        let running: Option<i64> = query_scalar(VACATION_END)
            .bind(community.0)
            .bind(user.0)
            .bind(now.0)
            .fetch_one(&mut tx)
            .await
            .map_err(db(OPERATION))?;
        let starts_at = running.map_or(now, Timestamp);
        let length = days.saturating_mul(DAY_MILLIS);
        let vacation = Vacation {
            starts_at,
            ends_at: starts_at.plus_millis(length),
            days,
        };
        query(INSERT_VACATION)
            .bind(community.0)
            .bind(user.0)
            .bind(vacation.starts_at.0)
            .bind(vacation.ends_at.0)
            .bind(days)
            .bind(now.0)
            .execute(&mut tx)
            .await
            .map_err(db(OPERATION))?;
        query(PAUSE_CLOCKS)
            .bind(community.0)
            .bind(user.0)
            .bind(length)
            .bind(now.0)
            .execute(&mut tx)
            .await
            .map_err(db(OPERATION))?;
        let row = announce_if_any(&mut tx, announce, now, OPERATION).await?;
        tx.commit().await.map_err(db(OPERATION))?;
        Ok((vacation, row))
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
        let statement = claim_due_statement(self.backend(), due);
        let mut ids: Vec<i64> = query_scalar(statement)
            .bind(now.0)
            .bind(limit)
            .fetch_all(self)
            .await
            .map_err(db("claim_due"))?;
        ids.sort_unstable();
        Ok(ids.into_iter().map(GameNo).collect())
    }
}
