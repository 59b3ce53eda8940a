//! How each person is told that it is their move (`/notify`, issue 38): where (the mention on
//! the board, a private message, or both), the reminder at half time and a last call when a
//! tenth of the time is left. A person with no row has the defaults
//! ([`NotifySettings::default`]), which keep what the bot always did.
//!
//! A private ping is claimed like a reminder: the turn's `pinged_at` is set from null in one
//! `UPDATE ... RETURNING`, and its outbox row (kind `announce`, payload `{"ping": user, "game":
//! g, "seq": s}`, addressed to the person's private chat) is written in the same transaction,
//! so a crash loses none and several processes never send one twice.

use super::executor::{Tx, query, query_as, query_scalar};
use super::outbox::insert_outbox;

use super::links::mirror_settings;
use super::requests::record_request;
use super::{
    Backend, ChatId, GameNo, NewOutbox, OutboxKind, OutboxRow, Platform, RequestKey, Store,
    StoreError, Timestamp, UserId, db,
};

/// Where a person is told it is their move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum NotifyPlace {
    /// In the game's chat: the board mentions them (as always).
    #[default]
    Chat,
    /// Privately only: the board names them without a mention.
    Private,
    /// Both.
    Both,
    /// Only a daily private digest of the games waiting for them.
    Digest,
}

impl NotifyPlace {
    /// As stored and typed: `chat`, `private`, `both`.
    pub fn as_str(self) -> &'static str {
        match self {
            NotifyPlace::Chat => "chat",
            NotifyPlace::Private => "private",
            NotifyPlace::Both => "both",
            NotifyPlace::Digest => "digest",
        }
    }

    /// The place a stored word names (anything unknown: the chat).
    fn parse(text: &str) -> NotifyPlace {
        match text {
            "private" => NotifyPlace::Private,
            "both" => NotifyPlace::Both,
            "digest" => NotifyPlace::Digest,
            _ => NotifyPlace::Chat,
        }
    }

    /// Whether the person is told privately (pings or a digest: they need a private chat).
    pub fn private(self) -> bool {
        self != NotifyPlace::Chat
    }

    /// Whether the board mentions the person.
    pub fn in_chat(self) -> bool {
        matches!(self, NotifyPlace::Chat | NotifyPlace::Both)
    }
}

/// A person's notification settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NotifySettings {
    /// Where they are told it is their move.
    pub place: NotifyPlace,
    /// The reminder when half of a turn's time has passed (on by default).
    pub halftime: bool,
    /// A last call when a tenth of a turn's time is left (off by default).
    pub lastcall: bool,
    /// The platform refused a private message to them (they never started the bot, blocked
    /// it, or closed direct messages) since they last asked for private pings.
    pub unreachable: bool,
}

impl Default for NotifySettings {
    fn default() -> Self {
        NotifySettings {
            place: NotifyPlace::Chat,
            halftime: true,
            lastcall: false,
            unreachable: false,
        }
    }
}

/// A person's settings; unreachable when a private message was refused, or their private
/// chat is marked inactive (they blocked the bot since).
const NOTIFY_SETTINGS: &str = "\
SELECT n.place, n.halftime, n.lastcall, COALESCE(n.unreachable_at, pc.inactive_at)
FROM notify_settings n LEFT JOIN chats pc ON pc.id = n.private_chat_id
WHERE n.user_id = $1";

/// `$1` user, `$2` place, `$3` half-time, `$4` last call, `$5` now, `$6` the private chat (kept
/// when null).
const SET_NOTIFY_SETTINGS: &str = "\
INSERT INTO notify_settings (user_id, place, halftime, lastcall, updated_at, private_chat_id)
VALUES ($1, $2, $3, $4, $5, $6)
ON CONFLICT (user_id) DO UPDATE SET place = excluded.place, halftime = excluded.halftime,
    lastcall = excluded.lastcall, updated_at = excluded.updated_at,
    private_chat_id = COALESCE(excluded.private_chat_id, notify_settings.private_chat_id)";

/// Asking for private pings again forgets a refusal, and makes the private chat active again.
const FORGET_UNREACHABLE: &str =
    "UPDATE notify_settings SET unreachable_at = NULL WHERE user_id = $1";
const REACTIVATE_PRIVATE_CHAT: &str = "\
UPDATE chats SET inactive_at = NULL
WHERE id = (SELECT private_chat_id FROM notify_settings WHERE user_id = $1)";

/// The turns already waiting for a person who asks for private pings count as pinged: one
/// message per game at once would flood them (the reminders still come).
const MARK_WAITING_TURNS_PINGED: &str = "\
UPDATE games SET pinged_at = $2
WHERE status = 'active' AND turn_user_id = $1 AND pinged_at IS NULL";

/// The turns due a private ping (SQLite): `$1` now, `$2` the most. The person asked for
/// private pings and their private chat is known and active, and the game's community allows
/// them.
const CLAIM_PINGS_SQLITE: &str = "\
UPDATE games SET pinged_at = $1 WHERE id IN (
    SELECT g.id FROM games g
    JOIN notify_settings n ON n.user_id = g.turn_user_id
    JOIN chats pc ON pc.id = n.private_chat_id
    LEFT JOIN community_settings cs ON cs.community_id = g.community_id
    WHERE g.status = 'active' AND g.pinged_at IS NULL AND g.turn_started_at <= $1
      AND n.place IN ('private', 'both') AND pc.inactive_at IS NULL
      AND COALESCE(cs.private_pings, 1) = 1 AND n.quiet_zone IS NULL
    ORDER BY g.id LIMIT $2)
RETURNING id";

/// [`CLAIM_PINGS_SQLITE`] on PostgreSQL (rows another claimer holds are skipped).
const CLAIM_PINGS_POSTGRES: &str = "\
WITH due AS (
    SELECT g.id FROM games g
    JOIN notify_settings n ON n.user_id = g.turn_user_id
    JOIN chats pc ON pc.id = n.private_chat_id
    LEFT JOIN community_settings cs ON cs.community_id = g.community_id
    WHERE g.status = 'active' AND g.pinged_at IS NULL AND g.turn_started_at <= $1
      AND n.place IN ('private', 'both') AND pc.inactive_at IS NULL
      AND COALESCE(cs.private_pings, 1) = 1 AND n.quiet_zone IS NULL
    ORDER BY g.id LIMIT $2 FOR UPDATE OF g SKIP LOCKED)
UPDATE games SET pinged_at = $1 FROM due
WHERE games.id = due.id AND games.pinged_at IS NULL
RETURNING games.id";

/// The turns due a private ping of people with quiet hours: `$1` now, `$2` the most; each
/// with its person's private chat and quiet hours, claimed one by one ([`CLAIM_ONE_PING`]) when
/// they are not quiet then.
const QUIET_CANDIDATES: &str = "\
SELECT g.id, g.seq, g.turn_user_id, n.private_chat_id, pc.platform, n.quiet_start, n.quiet_end,
       n.quiet_zone
FROM games g
JOIN notify_settings n ON n.user_id = g.turn_user_id
JOIN chats pc ON pc.id = n.private_chat_id
LEFT JOIN community_settings cs ON cs.community_id = g.community_id
WHERE g.status = 'active' AND g.pinged_at IS NULL AND g.turn_started_at <= $1
  AND n.place IN ('private', 'both') AND pc.inactive_at IS NULL
  AND COALESCE(cs.private_pings, 1) = 1 AND n.quiet_zone IS NOT NULL
ORDER BY g.id LIMIT $2";

/// Claims one turn's ping (`$2` game, `$1` now), if nobody did.
const CLAIM_ONE_PING: &str = "UPDATE games SET pinged_at = $1 WHERE id = $2 AND pinged_at IS NULL";

/// A person's quiet hours.
const QUIET: &str = "\
SELECT quiet_start, quiet_end, quiet_zone FROM notify_settings
WHERE user_id = $1 AND quiet_zone IS NOT NULL";

/// Sets (or with nulls, ends) a person's quiet hours; a person with no row gets the defaults.
const SET_QUIET: &str = "\
INSERT INTO notify_settings (user_id, place, halftime, lastcall, updated_at, quiet_start,
    quiet_end, quiet_zone)
VALUES ($1, 'chat', 1, 0, $2, $3, $4, $5)
ON CONFLICT (user_id) DO UPDATE SET quiet_start = excluded.quiet_start,
    quiet_end = excluded.quiet_end, quiet_zone = excluded.quiet_zone,
    updated_at = excluded.updated_at";

/// A person's digest time and zone.
const DIGEST: &str = "\
SELECT digest_minute, digest_zone FROM notify_settings
WHERE user_id = $1 AND digest_minute IS NOT NULL AND digest_zone IS NOT NULL";

/// Sets a person's digest time and zone (their row exists: the place was set first).
const SET_DIGEST: &str = "\
UPDATE notify_settings SET digest_minute = $2, digest_zone = $3 WHERE user_id = $1";

/// The people who chose the digest, reachable privately: who, their time and zone, the local
/// day of their last digest, their private chat and its platform.
const DIGEST_CANDIDATES: &str = "\
SELECT n.user_id, n.digest_minute, n.digest_zone, n.digest_day, n.private_chat_id, pc.platform
FROM notify_settings n JOIN chats pc ON pc.id = n.private_chat_id
WHERE n.place = 'digest' AND n.digest_minute IS NOT NULL AND n.digest_zone IS NOT NULL
  AND n.unreachable_at IS NULL AND pc.inactive_at IS NULL
ORDER BY n.user_id LIMIT $1";

/// Claims a person's digest of local day `$2`, if nobody did.
const CLAIM_DIGEST: &str = "\
UPDATE notify_settings SET digest_day = $2
WHERE user_id = $1 AND (digest_day IS NULL OR digest_day <> $2)";

/// The identity linked to `$1` has had the digest of local day `$2` with theirs (linked
/// identities share one digest).
const PARTNER_DIGEST_DAY: &str = "\
UPDATE notify_settings SET digest_day = $2
WHERE user_id IN (SELECT partner_id FROM user_links WHERE user_id = $1)";

/// How many games wait for person `$1`'s move (on either of their linked identities).
const WAITING_GAMES: &str = "\
SELECT COUNT(*) FROM games WHERE status = 'active'
  AND (turn_user_id = $1 OR turn_user_id IN (SELECT partner_id FROM user_links WHERE user_id = $1))";

/// A candidate of [`DIGEST_CANDIDATES`].
type DigestCandidate = (i64, i64, String, Option<String>, i64, String);

/// Quiet hours: from `start` to `end` (minutes after midnight; `end` before `start` runs
/// past midnight) in the IANA time zone `zone`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Quiet {
    /// When they begin, in minutes after midnight.
    pub start: u16,
    /// When they end, in minutes after midnight.
    pub end: u16,
    /// The time zone's IANA name (`Europe/Sofia`, `UTC`).
    pub zone: String,
}

/// The pings claimed for one person: who, their private chat, its platform, and the turns
/// (game, seq).
type Claimed = (i64, i64, String, Vec<(i64, i64)>);

/// A candidate of [`QUIET_CANDIDATES`].
type QuietCandidate = (i64, i64, i64, i64, String, i64, i64, String);

/// Where a claimed ping goes: the game's turn, its player and the player's private chat.
const PING_FOR_OUTBOX: &str = "\
SELECT g.seq, g.turn_user_id, n.private_chat_id, pc.platform
FROM games g JOIN notify_settings n ON n.user_id = g.turn_user_id
JOIN chats pc ON pc.id = n.private_chat_id WHERE g.id = $1";

/// The private chat of person `$1`, told privately only (`/notify private`), reachable, in a
/// community of game `$2` that allows private pings: where their reminders go.
pub(super) const PRIVATE_ONLY_CHAT: &str = "\
SELECT pc.id FROM notify_settings n
JOIN chats pc ON pc.id = n.private_chat_id
JOIN games g ON g.id = $2
LEFT JOIN community_settings cs ON cs.community_id = g.community_id
WHERE n.user_id = $1 AND n.place IN ('private', 'digest') AND n.unreachable_at IS NULL
  AND pc.inactive_at IS NULL AND COALESCE(cs.private_pings, 1) = 1";

/// Marks a person unreachable privately, once: whether this call marked them.
const MARK_UNREACHABLE: &str = "\
UPDATE notify_settings SET unreachable_at = $2 WHERE user_id = $1 AND unreachable_at IS NULL";

/// The game's chat and platform, for the hint after a refused ping.
const GAME_CHAT: &str = "\
SELECT g.chat_id, c.platform FROM games g JOIN chats c ON c.id = g.chat_id WHERE g.id = $1";

/// Writes in the transaction an announcement (of game `game`, if it concerns one) to chat
/// `chat` of `platform` (stored name) that any dispatcher may deliver: a ping, a digest, the
/// hint after a refused ping, a line about a game's thread.
pub(super) async fn announce_to(
    tx: &mut Tx,
    platform: &str,
    chat: i64,
    game: Option<i64>,
    payload: &str,
    now: Timestamp,
    operation: &'static str,
) -> Result<(), StoreError> {
    insert_outbox(
        tx,
        &NewOutbox {
            platform: Platform::parse(platform)?,
            chat: ChatId(chat),
            game: game.map(GameNo),
            kind: OutboxKind::Announce,
            payload,
            now,
            held: None,
        },
        operation,
    )
    .await
    .map(|_| ())
}

/// The quiet hours of `user`, read in the transaction, if they set some.
pub(super) async fn quiet_hours_in(
    tx: &mut Tx,
    user: i64,
    operation: &'static str,
) -> Result<Option<Quiet>, StoreError> {
    let row: Option<(i64, i64, String)> = query_as(QUIET)
        .bind(user)
        .fetch_optional(&mut *tx)
        .await
        .map_err(db(operation))?;
    Ok(row.map(quiet_of))
}

/// Quiet hours as [`QUIET`] reads them.
fn quiet_of((start, end, zone): (i64, i64, String)) -> Quiet {
    Quiet {
        start: u16::try_from(start).unwrap_or(0),
        end: u16::try_from(end).unwrap_or(0),
        zone,
    }
}

/// In the transaction, after `user`'s place was set (it was `before`, stored word): when they
/// became told privately, an earlier refusal is forgotten, their private chat is active again,
/// and the turns already waiting for them count as pinged.
pub(super) async fn became_private(
    tx: &mut Tx,
    user: UserId,
    before: Option<&str>,
    now: Timestamp,
    operation: &'static str,
) -> Result<(), StoreError> {
    let place: Option<String> =
        query_scalar("SELECT place FROM notify_settings WHERE user_id = $1")
            .bind(user.0)
            .fetch_optional(&mut *tx)
            .await
            .map_err(db(operation))?;
    let private =
        |place: Option<&str>| place.is_some_and(|place| NotifyPlace::parse(place).private());
    if !private(place.as_deref()) || private(before) {
        return Ok(());
    }
    for statement in [FORGET_UNREACHABLE, REACTIVATE_PRIVATE_CHAT] {
        query(statement)
            .bind(user.0)
            .execute(&mut *tx)
            .await
            .map_err(db(operation))?;
    }
    query(MARK_WAITING_TURNS_PINGED)
        .bind(user.0)
        .bind(now.0)
        .execute(&mut *tx)
        .await
        .map_err(db(operation))?;
    Ok(())
}

impl Store {
    /// The notification settings of `user` (the defaults when they never changed them).
    ///
    /// # Errors
    /// A database failure.
    pub async fn notify_settings(&self, user: UserId) -> Result<NotifySettings, StoreError> {
        let row: Option<(String, i64, i64, Option<i64>)> = query_as(NOTIFY_SETTINGS)
            .bind(user.0)
            .fetch_optional(self)
            .await
            .map_err(db("notify_settings"))?;
        Ok(row.map_or_else(
            NotifySettings::default,
            |(place, halftime, lastcall, unreachable)| NotifySettings {
                place: NotifyPlace::parse(&place),
                halftime: halftime != 0,
                lastcall: lastcall != 0,
                unreachable: unreachable.is_some(),
            },
        ))
    }

    /// Sets the notification settings of `user`, recording `request` in the same transaction.
    /// `private_chat`: the person's private chat with the bot, where private pings go (kept
    /// when `None`). Asking for private pings (from the chat only) forgets an earlier refusal,
    /// and the turns already waiting for them count as pinged.
    ///
    /// # Errors
    /// [`super::Conflict::Duplicate`]; a database failure.
    pub async fn set_notify_settings(
        &self,
        user: UserId,
        settings: NotifySettings,
        private_chat: Option<ChatId>,
        request: Option<&RequestKey>,
        now: Timestamp,
    ) -> Result<(), StoreError> {
        const OPERATION: &str = "set_notify_settings";
        let mut tx = self.begin_write(OPERATION).await?;
        record_request(&mut tx, request, None, now, OPERATION).await?;
        let before: Option<String> =
            query_scalar("SELECT place FROM notify_settings WHERE user_id = $1")
                .bind(user.0)
                .fetch_optional(&mut tx)
                .await
                .map_err(db(OPERATION))?;
        query(SET_NOTIFY_SETTINGS)
            .bind(user.0)
            .bind(settings.place.as_str())
            .bind(i64::from(settings.halftime))
            .bind(i64::from(settings.lastcall))
            .bind(now.0)
            .bind(private_chat.map(|chat| chat.0))
            .execute(&mut tx)
            .await
            .map_err(db(OPERATION))?;
        became_private(&mut tx, user, before.as_deref(), now, OPERATION).await?;
        mirror_settings(&mut tx, user, now, OPERATION).await?;
        tx.commit().await.map_err(db(OPERATION))
    }

    /// Claims up to `limit` turns due a private ping and writes each ping's outbox row in the
    /// same transaction (see the module). Returns the games, in id order.
    ///
    /// # Errors
    /// A database failure (then nothing is claimed).
    pub async fn claim_pings_to_outbox(
        &self,
        now: Timestamp,
        limit: i64,
    ) -> Result<Vec<GameNo>, StoreError> {
        const OPERATION: &str = "claim_pings_to_outbox";
        let statement = match self.backend() {
            Backend::Sqlite => CLAIM_PINGS_SQLITE,
            Backend::Postgres => CLAIM_PINGS_POSTGRES,
        };
        let mut tx = self.begin_write(OPERATION).await?;
        let mut ids: Vec<i64> = query_scalar(statement)
            .bind(now.0)
            .bind(limit)
            .fetch_all(&mut tx)
            .await
            .map_err(db(OPERATION))?;
        ids.sort_unstable();
        for &id in &ids {
            let (seq, user, chat, platform): (i64, i64, i64, String) = query_as(PING_FOR_OUTBOX)
                .bind(id)
                .fetch_one(&mut tx)
                .await
                .map_err(db(OPERATION))?;
            let payload = format!(r#"{{"ping":{user},"game":{id},"seq":{seq}}}"#);
            announce_to(&mut tx, &platform, chat, Some(id), &payload, now, OPERATION).await?;
        }
        tx.commit().await.map_err(db(OPERATION))?;
        Ok(ids.into_iter().map(GameNo).collect())
    }

    /// The quiet hours of `user`, if they set some.
    ///
    /// # Errors
    /// A database failure.
    pub async fn notify_quiet(&self, user: UserId) -> Result<Option<Quiet>, StoreError> {
        let row: Option<(i64, i64, String)> = query_as(QUIET)
            .bind(user.0)
            .fetch_optional(self)
            .await
            .map_err(db("notify_quiet"))?;
        Ok(row.map(quiet_of))
    }

    /// Sets (`Some`) or ends (`None`) the quiet hours of `user`, recording `request`.
    ///
    /// # Errors
    /// [`super::Conflict::Duplicate`]; a database failure.
    pub async fn set_notify_quiet(
        &self,
        user: UserId,
        quiet: Option<&Quiet>,
        request: Option<&RequestKey>,
        now: Timestamp,
    ) -> Result<(), StoreError> {
        const OPERATION: &str = "set_notify_quiet";
        let mut tx = self.begin_write(OPERATION).await?;
        record_request(&mut tx, request, None, now, OPERATION).await?;
        query(SET_QUIET)
            .bind(user.0)
            .bind(now.0)
            .bind(quiet.map(|quiet| i64::from(quiet.start)))
            .bind(quiet.map(|quiet| i64::from(quiet.end)))
            .bind(quiet.map(|quiet| quiet.zone.as_str()))
            .execute(&mut tx)
            .await
            .map_err(db(OPERATION))?;
        mirror_settings(&mut tx, user, now, OPERATION).await?;
        tx.commit().await.map_err(db(OPERATION))
    }

    /// The digest time (minutes after midnight) and zone of `user`, if they set one.
    ///
    /// # Errors
    /// A database failure.
    pub async fn notify_digest(&self, user: UserId) -> Result<Option<(u16, String)>, StoreError> {
        let row: Option<(i64, String)> = query_as(DIGEST)
            .bind(user.0)
            .fetch_optional(self)
            .await
            .map_err(db("notify_digest"))?;
        Ok(row.map(|(minute, zone)| (u16::try_from(minute).unwrap_or(0), zone)))
    }

    /// Sets the digest time and zone of `user` (after their place was set).
    ///
    /// # Errors
    /// A database failure.
    pub async fn set_notify_digest(
        &self,
        user: UserId,
        minute: u16,
        zone: &str,
        now: Timestamp,
    ) -> Result<(), StoreError> {
        const OPERATION: &str = "set_notify_digest";
        let mut tx = self.begin_write(OPERATION).await?;
        query(SET_DIGEST)
            .bind(user.0)
            .bind(i64::from(minute))
            .bind(zone)
            .execute(&mut tx)
            .await
            .map_err(db(OPERATION))?;
        mirror_settings(&mut tx, user, now, OPERATION).await?;
        tx.commit().await.map_err(db(OPERATION))
    }

    /// Claims the daily digests that are due and writes each to the outbox (payload
    /// `{"digest": user}`, to the person's private chat) in the same transaction. `due` says,
    /// from a person's time and zone, the local day whose digest is due now (`None`: not yet
    /// today); a day's digest is claimed once, when a game waits for them: at its time, or at
    /// the first call after it at which one does.
    /// Returns how many were written.
    ///
    /// # Errors
    /// A database failure (then nothing is claimed).
    pub async fn claim_digests_to_outbox(
        &self,
        now: Timestamp,
        limit: i64,
        due: &(dyn Fn(u16, &str) -> Option<String> + Sync),
    ) -> Result<usize, StoreError> {
        const OPERATION: &str = "claim_digests_to_outbox";
        let mut tx = self.begin_write(OPERATION).await?;
        let candidates: Vec<DigestCandidate> = query_as(DIGEST_CANDIDATES)
            .bind(limit)
            .fetch_all(&mut tx)
            .await
            .map_err(db(OPERATION))?;
        let mut written = 0;
        for (user, minute, zone, last, chat, platform) in candidates {
            let Some(day) = due(u16::try_from(minute).unwrap_or(0), &zone) else {
                continue;
            };
            if last.as_deref() == Some(day.as_str()) {
                continue;
            }
            // Nothing waits yet: the day's digest is not spent; it goes at the first tick after
            // its time at which something does.
            let waiting: i64 = query_scalar(WAITING_GAMES)
                .bind(user)
                .fetch_one(&mut tx)
                .await
                .map_err(db(OPERATION))?;
            if waiting == 0 {
                continue;
            }
            let claimed = query(CLAIM_DIGEST)
                .bind(user)
                .bind(&day)
                .execute(&mut tx)
                .await
                .map_err(db(OPERATION))?
                .rows_affected();
            if claimed == 1 {
                query(PARTNER_DIGEST_DAY)
                    .bind(user)
                    .bind(&day)
                    .execute(&mut tx)
                    .await
                    .map_err(db(OPERATION))?;
            }
            if claimed != 1 {
                continue;
            }
            let payload = format!(r#"{{"digest":{user}}}"#);
            announce_to(&mut tx, &platform, chat, None, &payload, now, OPERATION).await?;
            written += 1;
        }
        tx.commit().await.map_err(db(OPERATION))?;
        Ok(written)
    }

    /// [`Store::claim_pings_to_outbox`] for people with quiet hours: the turns of those for
    /// whom `quiet` says their hours hold now wait; the others' are claimed, and each person's
    /// pings made one outbox row (payload `{"ping": user, "game": g, "seq": s}` for one game,
    /// with `"games": [[g, s], ...]` for several: what came due while they were quiet, told
    /// at once). Returns the games claimed.
    ///
    /// # Errors
    /// A database failure (then nothing is claimed).
    pub async fn claim_quiet_pings_to_outbox(
        &self,
        now: Timestamp,
        limit: i64,
        quiet: &(dyn Fn(&Quiet) -> bool + Sync),
    ) -> Result<Vec<GameNo>, StoreError> {
        const OPERATION: &str = "claim_quiet_pings_to_outbox";
        let mut tx = self.begin_write(OPERATION).await?;
        let candidates: Vec<QuietCandidate> = query_as(QUIET_CANDIDATES)
            .bind(now.0)
            .bind(limit)
            .fetch_all(&mut tx)
            .await
            .map_err(db(OPERATION))?;
        // Per person: their private chat and platform, and the turns claimed.
        let mut claimed: Vec<Claimed> = Vec::new();
        for (game, seq, user, chat, platform, start, end, zone) in candidates {
            let hours = Quiet {
                start: u16::try_from(start).unwrap_or(0),
                end: u16::try_from(end).unwrap_or(0),
                zone,
            };
            if quiet(&hours) {
                continue;
            }
            let done = query(CLAIM_ONE_PING)
                .bind(now.0)
                .bind(game)
                .execute(&mut tx)
                .await
                .map_err(db(OPERATION))?
                .rows_affected();
            if done != 1 {
                continue;
            }
            match claimed.iter_mut().find(|(who, ..)| *who == user) {
                Some((.., games)) => games.push((game, seq)),
                None => claimed.push((user, chat, platform, vec![(game, seq)])),
            }
        }
        let mut games_claimed = Vec::new();
        for (user, chat, platform, games) in claimed {
            let (first, first_seq) = games[0];
            let mut payload = format!(r#"{{"ping":{user},"game":{first},"seq":{first_seq}"#);
            if games.len() > 1 {
                let list: Vec<String> = games.iter().map(|(g, s)| format!("[{g},{s}]")).collect();
                payload.push_str(&format!(r#","games":[{}]"#, list.join(",")));
            }
            payload.push('}');
            announce_to(
                &mut tx,
                &platform,
                chat,
                Some(first),
                &payload,
                now,
                OPERATION,
            )
            .await?;
            games_claimed.extend(games.into_iter().map(|(game, _)| GameNo(game)));
        }
        tx.commit().await.map_err(db(OPERATION))?;
        Ok(games_claimed)
    }

    /// The platform refused private ping (or private reminder) `row` for good (the person never started the bot,
    /// blocked it, or closed direct messages): the person is marked, and the first time, the
    /// game's chat is told how to turn pings on (an outbox row, payload `{"unreachable": user,
    /// "game": g}`), in the same transaction. Returns whether the hint was written.
    ///
    /// # Errors
    /// A database failure.
    pub async fn ping_refused(&self, row: &OutboxRow, now: Timestamp) -> Result<bool, StoreError> {
        const OPERATION: &str = "ping_refused";
        let payload: serde_json::Value = serde_json::from_str(&row.payload).unwrap_or_default();
        // A ping names its person; a private reminder, the player of its turn.
        let (Some(user), Some(game)) = (
            payload
                .get("ping")
                .or_else(|| payload.get("user"))
                .and_then(serde_json::Value::as_i64),
            payload.get("game").and_then(serde_json::Value::as_i64),
        ) else {
            return Ok(false);
        };
        let mut tx = self.begin_write(OPERATION).await?;
        let marked = query(MARK_UNREACHABLE)
            .bind(user)
            .bind(now.0)
            .execute(&mut tx)
            .await
            .map_err(db(OPERATION))?
            .rows_affected()
            == 1;
        if marked {
            let (chat, platform): (i64, String) = query_as(GAME_CHAT)
                .bind(game)
                .fetch_one(&mut tx)
                .await
                .map_err(db(OPERATION))?;
            let hint = format!(r#"{{"unreachable":{user},"game":{game}}}"#);
            announce_to(&mut tx, &platform, chat, Some(game), &hint, now, OPERATION).await?;
        }
        tx.commit().await.map_err(db(OPERATION))?;
        Ok(marked)
    }
}
