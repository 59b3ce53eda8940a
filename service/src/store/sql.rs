//! What both backends run: the statements, which SQLite and PostgreSQL accept as written (sqlx
//! binds `$1` placeholders on SQLite too), and, in [`store_operations`], the code that runs them,
//! expanded once per backend over its own driver types. So the two implementations cannot drift
//! apart; a backend module keeps only what truly differs (connecting, beginning transactions).
//! The column lists match the row types of the parent module.

pub(super) const SCHEMA_VERSION: &str = "SELECT MAX(version) FROM _sqlx_migrations WHERE success";

pub(super) const UPSERT_USER: &str = "\
INSERT INTO users (platform, platform_user_id, display_name, created_at, updated_at)
VALUES ($1, $2, $3, $4, $4)
ON CONFLICT (platform, platform_user_id)
DO UPDATE SET display_name = excluded.display_name, updated_at = excluded.updated_at
RETURNING id, platform, platform_user_id, display_name, created_at, updated_at, username";

pub(super) const USER: &str = "\
SELECT id, platform, platform_user_id, display_name, created_at, updated_at, username
FROM users WHERE id = $1";

pub(super) const USER_BY_PLATFORM_ID: &str = "\
SELECT id, platform, platform_user_id, display_name, created_at, updated_at, username
FROM users WHERE platform = $1 AND platform_user_id = $2";

macro_rules! chat_columns {
    () => {
        "\
        SELECT ch.id, ch.platform, ch.platform_chat_id, ch.title, ch.created_at, ch.updated_at,
               co.id AS community_id, co.platform_community_id, co.title AS community_title,
               ch.inactive_at
        FROM chats ch JOIN communities co ON co.id = ch.community_id"
    };
}

pub(super) const CHAT_BY_PLATFORM_ID: &str = concat!(
    chat_columns!(),
    " WHERE ch.platform = $1 AND ch.platform_chat_id = $2"
);

pub(super) const CHAT: &str = concat!(chat_columns!(), " WHERE ch.id = $1");

pub(super) const UPSERT_COMMUNITY: &str = "\
INSERT INTO communities (platform, platform_community_id, title, created_at, updated_at)
VALUES ($1, $2, $3, $4, $4)
ON CONFLICT (platform, platform_community_id)
DO UPDATE SET title = excluded.title, updated_at = excluded.updated_at
RETURNING id";

pub(super) const UPSERT_CHAT: &str = "\
INSERT INTO chats (platform, platform_chat_id, title, created_at, updated_at, community_id)
VALUES ($1, $2, $3, $4, $4, $5)
ON CONFLICT (platform, platform_chat_id)
DO UPDATE SET title = excluded.title, updated_at = excluded.updated_at,
              community_id = excluded.community_id, inactive_at = NULL";

pub(super) const INSERT_CHALLENGE: &str = "\
INSERT INTO challenges (chat_id, game, options, challenger_id, status, created_at, expires_at,
                        stake, move_millis, computer_level, dice_seed)
VALUES ($1, $2, $3, $4, 'pending', $5, $6, $7, $8, $9, $10)
RETURNING id";

/// `$3` user or `$4` username (exactly one of them not null).
pub(super) const INSERT_INVITEE: &str = "\
INSERT INTO challenge_invitees (challenge_id, position, user_id, username) VALUES ($1, $2, $3, $4)";

macro_rules! challenge_columns {
    () => {
        "\
        SELECT c.id, c.chat_id, c.game, c.options, c.challenger_id, c.status, c.created_at,
               c.expires_at, c.settled_by, c.settled_at, g.id AS game_id, c.stake, c.move_millis,
               c.computer_level, c.dice_seed
        FROM challenges c LEFT JOIN games g ON g.challenge_id = c.id"
    };
}

pub(super) const CHALLENGE: &str = concat!(challenge_columns!(), " WHERE c.id = $1");

pub(super) const INVITEES: &str = "\
SELECT challenge_id, user_id, username, accepted_at FROM challenge_invitees
WHERE challenge_id = $1 ORDER BY position";

pub(super) const PENDING_CHALLENGES: &str = concat!(
    challenge_columns!(),
    " WHERE c.chat_id = $1 AND c.status = 'pending' ORDER BY c.id",
);

/// Who joined open challenge `$1`, in order.
pub(super) const JOINERS: &str = "\
SELECT user_id FROM challenge_joiners WHERE challenge_id = $1 ORDER BY joined_at, user_id";

/// Who joined the pending open challenges of chat `$1`: `(challenge, user)`, in order.
pub(super) const PENDING_JOINERS: &str = "\
SELECT j.challenge_id, j.user_id FROM challenge_joiners j
JOIN challenges c ON c.id = j.challenge_id
WHERE c.chat_id = $1 AND c.status = 'pending'
ORDER BY j.challenge_id, j.joined_at, j.user_id";

pub(super) const PENDING_INVITEES: &str = "\
SELECT i.challenge_id, i.user_id, i.username, i.accepted_at FROM challenge_invitees i
JOIN challenges c ON c.id = i.challenge_id
WHERE c.chat_id = $1 AND c.status = 'pending'
ORDER BY i.challenge_id, i.position";

/// Compare-and-set out of `pending`: `$2` status, `$3` by, `$4` now.
pub(super) const SETTLE_CHALLENGE: &str = "\
UPDATE challenges SET status = $2, settled_by = $3, settled_at = $4
WHERE id = $1 AND status = 'pending' AND expires_at > $4";

pub(super) const CHALLENGE_STATE: &str = "SELECT status, expires_at FROM challenges WHERE id = $1";

pub(super) const EXPIRE_CHALLENGES: &str = "\
UPDATE challenges SET status = 'expired', settled_at = $1
WHERE status = 'pending' AND expires_at <= $1
RETURNING id";

pub(super) const INSERT_GAME: &str = "\
INSERT INTO games (chat_id, challenge_id, game, options, start_position, status, seq,
                   created_at, updated_at, community_id, stake, move_millis, dice_seed,
                   dice_nonce)
VALUES ($1, $2, $3, $4, $5, 'active', 0, $6, $6, $7, $8, $9, $10, $11)
RETURNING id";

/// When a clock for user `$u` from moment `$t` really starts: at the end of the user's
/// vacation in the game's community if one runs then, else at `$t`. For statements on `games`.
macro_rules! clock_start {
    ($u:literal, $t:literal) => {
        concat!(
            "(SELECT CASE WHEN MAX(v.ends_at) > ",
            $t,
            " THEN MAX(v.ends_at) ELSE ",
            $t,
            " END FROM vacations v WHERE v.user_id = ",
            $u,
            " AND v.community_id = games.community_id)"
        )
    };
}

/// The clock columns for a turn of user `$u` from `$t` (a null `$u`: no clock).
macro_rules! clock_columns {
    ($u:literal, $t:literal) => {
        concat!(
            "turn_user_id = ",
            $u,
            ",
             turn_started_at = CASE WHEN ",
            $u,
            " IS NULL THEN NULL ELSE ",
            clock_start!($u, $t),
            " END,
             remind_at = CASE WHEN ",
            $u,
            " IS NULL THEN NULL ELSE ",
            clock_start!($u, $t),
            " + move_millis / 2 END,
             deadline_at = CASE WHEN ",
            $u,
            " IS NULL THEN NULL ELSE ",
            clock_start!($u, $t),
            " + move_millis END,
             reminded_at = NULL, timeout_announced_at = NULL"
        )
    };
}

/// Starts (or with a null `$2`, stops) the clock of game `$1` for user `$2` from `$3`.
pub(super) const SET_CLOCK: &str = concat!(
    "UPDATE games SET ",
    clock_columns!("$2", "$3"),
    " WHERE id = $1"
);

pub(super) const GAME_COMMUNITY: &str = "SELECT community_id FROM games WHERE id = $1";

pub(super) const INSERT_SEAT: &str =
    "INSERT INTO seats (game_id, seat, user_id) VALUES ($1, $2, $3)";

macro_rules! game_columns {
    () => {
        "\
        SELECT id, chat_id, challenge_id, game, options, start_position, status, result, seq,
               snapshot_position, snapshot_seq, created_at, updated_at, community_id, stake,
               move_millis, turn_user_id, turn_started_at, remind_at, deadline_at, reminded_at,
               timeout_announced_at, settled_at, dice_seed, dice_nonce
        FROM games"
    };
}

macro_rules! seat_columns {
    () => {
        "\
        SELECT s.game_id, s.seat, u.id, u.platform, u.platform_user_id, u.display_name,
               u.created_at, u.updated_at, u.username
        FROM seats s JOIN users u ON u.id = s.user_id"
    };
}

pub(super) const GAME: &str = concat!(game_columns!(), " WHERE id = $1");

pub(super) const SEATS: &str = concat!(seat_columns!(), " WHERE s.game_id = $1 ORDER BY s.seat");

pub(super) const ACTIVE_GAMES_IN_CHAT: &str = concat!(
    game_columns!(),
    " WHERE chat_id = $1 AND status = 'active' ORDER BY id",
);

pub(super) const SEATS_OF_ACTIVE_GAMES_IN_CHAT: &str = concat!(
    seat_columns!(),
    " WHERE s.game_id IN (SELECT id FROM games WHERE chat_id = $1 AND status = 'active')
      ORDER BY s.game_id, s.seat",
);

/// `$1` chat, `$2` user: the newest game of the chat in which the user holds a seat, whatever
/// its status.
pub(super) const LATEST_GAME_OF_USER_IN_CHAT: &str = "\
    SELECT g.id FROM games g WHERE g.chat_id = $1
      AND EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.user_id = $2)
    ORDER BY g.id DESC LIMIT 1";

/// `$1` user, `$2` chat or null for any chat.
pub(super) const ACTIVE_GAMES_OF_USER: &str = concat!(
    game_columns!(),
    " WHERE status = 'active' AND ($2 IS NULL OR chat_id = $2)
        AND id IN (SELECT game_id FROM seats WHERE user_id = $1)
      ORDER BY id",
);

/// `$1` user, `$2` chat or null for any chat.
pub(super) const SEATS_OF_ACTIVE_GAMES_OF_USER: &str = concat!(
    seat_columns!(),
    " WHERE s.game_id IN (
          SELECT id FROM games WHERE status = 'active' AND ($2 IS NULL OR chat_id = $2)
            AND id IN (SELECT game_id FROM seats WHERE user_id = $1))
      ORDER BY s.game_id, s.seat",
);

/// The actions after `$2` (0 for all, or a snapshot's seq) up to `$3` (the game's seq as read).
pub(super) const ACTIONS_BETWEEN: &str = "\
SELECT seq, action, actor_id, created_at FROM actions
WHERE game_id = $1 AND seq > $2 AND seq <= $3 ORDER BY seq";

/// `SELECT 1` is an INT4 on PostgreSQL and an INTEGER on SQLite: both decode as `i32`.
pub(super) const REQUEST_HANDLED: &str = "\
SELECT 1 FROM processed_requests WHERE platform = $1 AND request_key = $2";

pub(super) const INSERT_REQUEST: &str = "\
INSERT INTO processed_requests (platform, request_key, game_id, processed_at)
VALUES ($1, $2, $3, $4)
ON CONFLICT (platform, request_key) DO NOTHING";

/// Compare-and-set on `seq`: `$2` expected seq, `$3` new seq, `$4` new status, `$5` result or
/// null, `$6` snapshot position or null (taken at `$3`), `$7` now.
/// `$8` and `$9`: the turn whose clock starts (a null `$8`: none).
/// Active games whose turn is the computer's (its turn user is of the computer platform),
/// those waiting longest first.
pub(super) const COMPUTER_TURNS: &str = "\
SELECT g.id FROM games g JOIN users u ON u.id = g.turn_user_id
WHERE g.status = 'active' AND u.platform = 'computer'
ORDER BY g.updated_at, g.id LIMIT $1";

pub(super) const ADVANCE_GAME: &str = concat!(
    "UPDATE games SET seq = $3, status = $4, result = COALESCE($5, result),
       snapshot_position = COALESCE($6, snapshot_position),
       snapshot_seq = CASE WHEN $6 IS NULL THEN snapshot_seq ELSE $3 END,
       updated_at = $7, ",
    clock_columns!("$8", "$9"),
    " WHERE id = $1 AND seq = $2 AND status = 'active'
     RETURNING turn_user_id, turn_started_at, remind_at, deadline_at"
);

/// Takes the challenge row's lock (a no-op update) while it is pending and unexpired at `$2`,
/// so that concurrent acceptances of its invitees run one after the other.
pub(super) const LOCK_PENDING_CHALLENGE: &str = "\
UPDATE challenges SET status = status WHERE id = $1 AND status = 'pending' AND expires_at > $2";

/// `$1` challenge, `$2` user: one row (its `accepted_at`) if the user is invited.
pub(super) const INVITEE_ACCEPTED_AT: &str = "\
SELECT accepted_at FROM challenge_invitees WHERE challenge_id = $1 AND user_id = $2";

/// `$1` challenge, `$2` user, `$3` now.
pub(super) const ACCEPT_INVITEE: &str = "\
UPDATE challenge_invitees SET accepted_at = $3
WHERE challenge_id = $1 AND user_id = $2 AND accepted_at IS NULL";

/// The invitees of `$1` who have not accepted yet, in order.
pub(super) const WAITING_INVITEES: &str = "\
SELECT user_id, username FROM challenge_invitees
WHERE challenge_id = $1 AND accepted_at IS NULL ORDER BY position";

pub(super) const GAME_STATE: &str = "SELECT status, seq FROM games WHERE id = $1";

/// Followed by one `(game, seq, action, actor, now)` tuple per action.
pub(super) const INSERT_ACTIONS: &str =
    "INSERT INTO actions (game_id, seq, action, actor_id, created_at) ";

/// `$2` status, `$3` result, `$4` now; only if `$5` (when not null) is still the `seq` and
/// the clock ran out at or before `$6` (when not null). Stops the clock.
pub(super) const END_GAME: &str = "\
UPDATE games SET status = $2, result = $3, updated_at = $4, turn_user_id = NULL,
       turn_started_at = NULL, remind_at = NULL, deadline_at = NULL
WHERE id = $1 AND status = 'active' AND ($5 IS NULL OR seq = $5)
  AND ($6 IS NULL OR deadline_at <= $6)";

/// The operations of a backend store type `$store`, which has a `pool` field and two
/// `async fn(&self, operation) -> Result<Transaction, StoreError>`: `begin_read`, a transaction
/// whose reads all see one snapshot, and `begin_write`, a transaction whose compare-and-set
/// statements see the latest committed rows (see the backend modules).
macro_rules! store_operations {
    ($store:ident) => {
        impl $store {
            /// Inserts one outbox row in the transaction (as `outbox::insert_outbox`, until this
            /// code is converted too).
            async fn insert_outbox(
                tx: &mut sqlx::Transaction<'static, Db>,
                new: &NewOutbox<'_>,
                operation: &'static str,
            ) -> Result<OutboxId, StoreError> {
                if new.kind == OutboxKind::Board
                    && let Some(game) = new.game
                {
                    sqlx::query(outbox::SUPERSEDE_BOARDS)
                        .bind(game.0)
                        .bind(new.now.0)
                        .execute(&mut **tx)
                        .await
                        .map_err(db(operation))?;
                }
                let id: i64 = sqlx::query_scalar(outbox::INSERT_OUTBOX)
                    .bind(new.platform.as_str())
                    .bind(new.chat.0)
                    .bind(new.game.map(|game| game.0))
                    .bind(new.kind.as_str())
                    .bind(new.payload)
                    .bind(new.now.0)
                    .bind(new.held.map(|(owner, _)| owner))
                    .bind(new.held.map(|(_, until)| until.0))
                    .fetch_one(&mut **tx)
                    .await
                    .map_err(db(operation))?;
                Ok(OutboxId(id))
            }

            /// Writes `announce` in the transaction: an outbox row of kind `board` for game
            /// `game`'s chat (an older board of the game still waiting is superseded).
            async fn announce_in(
                tx: &mut sqlx::Transaction<'static, Db>,
                game: GameNo,
                announce: &Announce<'_>,
                now: Timestamp,
                operation: &'static str,
            ) -> Result<OutboxId, StoreError> {
                let target = sqlx::query_as::<_, outbox::GameForOutbox>(outbox::GAME_FOR_OUTBOX)
                    .bind(game.0)
                    .fetch_one(&mut **tx)
                    .await
                    .map_err(db(operation))?;
                Self::insert_outbox(
                    tx,
                    &NewOutbox {
                        platform: Platform::parse(&target.platform)?,
                        chat: ChatId(target.chat_id),
                        game: Some(game),
                        kind: OutboxKind::Board,
                        payload: announce.payload,
                        now,
                        held: announce.held,
                    },
                    operation,
                )
                .await
            }

            pub(super) async fn close(&self) {
                self.pool.close().await;
            }

            pub(super) async fn schema_version(&self) -> Result<i64, StoreError> {
                let version: Option<i64> = sqlx::query_scalar(sql::SCHEMA_VERSION)
                    .fetch_one(&self.pool)
                    .await
                    .map_err(db("schema_version"))?;
                Ok(version.unwrap_or(0))
            }

            pub(super) async fn upsert_user(
                &self,
                platform: Platform,
                platform_user_id: &str,
                display_name: &str,
            ) -> Result<User, StoreError> {
                let now = Timestamp::now();
                // Most requests come from someone known under the same name: only a read.
                let known = sqlx::query_as::<_, UserRow>(sql::USER_BY_PLATFORM_ID)
                    .bind(platform.as_str())
                    .bind(platform_user_id)
                    .fetch_optional(&self.pool)
                    .await
                    .map_err(db("upsert_user"))?;
                if let Some(row) = known
                    && row.display_name == display_name
                    && now.0 - row.updated_at < super::SEEN_REFRESH_MILLIS
                {
                    return row.try_into();
                }
                sqlx::query_as::<_, UserRow>(sql::UPSERT_USER)
                    .bind(platform.as_str())
                    .bind(platform_user_id)
                    .bind(display_name)
                    .bind(now.0)
                    .fetch_one(&self.pool)
                    .await
                    .map_err(db("upsert_user"))?
                    .try_into()
            }

            pub(super) async fn user(&self, id: UserId) -> Result<Option<User>, StoreError> {
                sqlx::query_as::<_, UserRow>(sql::USER)
                    .bind(id.0)
                    .fetch_optional(&self.pool)
                    .await
                    .map_err(db("user"))?
                    .map(User::try_from)
                    .transpose()
            }

            pub(super) async fn user_by_platform_id(
                &self,
                platform: Platform,
                platform_user_id: &str,
            ) -> Result<Option<User>, StoreError> {
                sqlx::query_as::<_, UserRow>(sql::USER_BY_PLATFORM_ID)
                    .bind(platform.as_str())
                    .bind(platform_user_id)
                    .fetch_optional(&self.pool)
                    .await
                    .map_err(db("user_by_platform_id"))?
                    .map(User::try_from)
                    .transpose()
            }

            pub(super) async fn request_handled(
                &self,
                request: &super::RequestKey,
            ) -> Result<bool, StoreError> {
                let found: Option<(i32,)> = sqlx::query_as(sql::REQUEST_HANDLED)
                    .bind(request.platform.as_str())
                    .bind(&request.key)
                    .fetch_optional(&self.pool)
                    .await
                    .map_err(db("request_handled"))?;
                Ok(found.is_some())
            }

            pub(super) async fn upsert_chat(
                &self,
                platform: Platform,
                platform_chat_id: &str,
                title: &str,
                community: Option<(&str, &str)>,
            ) -> Result<Chat, StoreError> {
                const OPERATION: &str = "upsert_chat";
                let now = Timestamp::now();
                let (community_id, community_title) =
                    community.unwrap_or((platform_chat_id, title));
                // Most requests come from a known chat under the same names: only a read.
                let known = sqlx::query_as::<_, ChatRow>(sql::CHAT_BY_PLATFORM_ID)
                    .bind(platform.as_str())
                    .bind(platform_chat_id)
                    .fetch_optional(&self.pool)
                    .await
                    .map_err(db(OPERATION))?;
                if let Some(row) = known
                    && row.title == title
                    && row.platform_community_id == community_id
                    && row.community_title == community_title
                    && row.inactive_at.is_none()
                    && now.0 - row.updated_at < super::SEEN_REFRESH_MILLIS
                {
                    return row.try_into();
                }
                let mut tx = self.begin_write(OPERATION).await?;
                let community: i64 = sqlx::query_scalar(sql::UPSERT_COMMUNITY)
                    .bind(platform.as_str())
                    .bind(community_id)
                    .bind(community_title)
                    .bind(now.0)
                    .fetch_one(&mut *tx)
                    .await
                    .map_err(db(OPERATION))?;
                sqlx::query(sql::UPSERT_CHAT)
                    .bind(platform.as_str())
                    .bind(platform_chat_id)
                    .bind(title)
                    .bind(now.0)
                    .bind(community)
                    .execute(&mut *tx)
                    .await
                    .map_err(db(OPERATION))?;
                let chat = sqlx::query_as::<_, ChatRow>(sql::CHAT_BY_PLATFORM_ID)
                    .bind(platform.as_str())
                    .bind(platform_chat_id)
                    .fetch_one(&mut *tx)
                    .await
                    .map_err(db(OPERATION))?;
                tx.commit().await.map_err(db(OPERATION))?;
                chat.try_into()
            }

            /// Records `request` in the transaction: [`Conflict::Duplicate`] if it was seen.
            async fn record_request(
                tx: &mut sqlx::Transaction<'static, Db>,
                request: Option<&super::RequestKey>,
                game: Option<i64>,
                now: Timestamp,
                operation: &'static str,
            ) -> Result<(), StoreError> {
                let Some(request) = request else {
                    return Ok(());
                };
                let inserted = sqlx::query(sql::INSERT_REQUEST)
                    .bind(request.platform.as_str())
                    .bind(&request.key)
                    .bind(game)
                    .bind(now.0)
                    .execute(&mut **tx)
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

            /// Writes a challenge whose invitees are `new.invited`, then `more` (repeats
            /// dropped: the same user, or the same username in any case).
            pub(super) async fn create_challenge(
                &self,
                new: &NewChallenge<'_>,
                more: &[super::Invitee],
                request: Option<&super::RequestKey>,
            ) -> Result<Challenge, StoreError> {
                const OPERATION: &str = "create_challenge";
                let mut tx = self.begin_write(OPERATION).await?;
                Self::record_request(&mut tx, request, None, Timestamp::now(), OPERATION).await?;
                let id: i64 = sqlx::query_scalar(sql::INSERT_CHALLENGE)
                    .bind(new.chat.0)
                    .bind(new.game.as_str())
                    .bind(new.options)
                    .bind(new.challenger.0)
                    .bind(Timestamp::now().0)
                    .bind(new.expires_at.0)
                    .bind(new.stake)
                    .bind(new.move_millis)
                    .bind(new.computer.map(i64::from))
                    .bind(new.dice_seed.as_deref())
                    .fetch_one(&mut *tx)
                    .await
                    .map_err(db(OPERATION))?;
                let invitees = super::distinct_invitees(new.invited, more);
                for (position, invitee) in (0_i64..).zip(invitees) {
                    let (user, username) = match invitee {
                        super::Invitee::User(user) => (Some(user.0), None),
                        super::Invitee::Username(name) => (None, Some(name)),
                    };
                    sqlx::query(sql::INSERT_INVITEE)
                        .bind(id)
                        .bind(position)
                        .bind(user)
                        .bind(username)
                        .execute(&mut *tx)
                        .await
                        .map_err(db(OPERATION))?;
                }
                tx.commit().await.map_err(db(OPERATION))?;
                self.existing_challenge(ChallengeNo(id)).await
            }

            async fn existing_challenge(&self, id: ChallengeNo) -> Result<Challenge, StoreError> {
                self.challenge(id)
                    .await?
                    .ok_or_else(|| StoreError::Corrupt(format!("challenge {id} vanished")))
            }

            pub(super) async fn challenge(
                &self,
                id: ChallengeNo,
            ) -> Result<Option<Challenge>, StoreError> {
                const OPERATION: &str = "challenge";
                let Some(row) = sqlx::query_as::<_, ChallengeRow>(sql::CHALLENGE)
                    .bind(id.0)
                    .fetch_optional(&self.pool)
                    .await
                    .map_err(db(OPERATION))?
                else {
                    return Ok(None);
                };
                let invitees = sqlx::query_as::<_, super::InviteeRow>(sql::INVITEES)
                    .bind(id.0)
                    .fetch_all(&self.pool)
                    .await
                    .map_err(db(OPERATION))?;
                let joined: Vec<i64> = sqlx::query_scalar(sql::JOINERS)
                    .bind(id.0)
                    .fetch_all(&self.pool)
                    .await
                    .map_err(db(OPERATION))?;
                row.into_challenge(invitees, joined.into_iter().map(UserId).collect())
                    .map(Some)
            }

            pub(super) async fn pending_challenges(
                &self,
                chat: ChatId,
            ) -> Result<Vec<Challenge>, StoreError> {
                const OPERATION: &str = "pending_challenges";
                let rows = sqlx::query_as::<_, ChallengeRow>(sql::PENDING_CHALLENGES)
                    .bind(chat.0)
                    .fetch_all(&self.pool)
                    .await
                    .map_err(db(OPERATION))?;
                let mut invitees = sqlx::query_as::<_, super::InviteeRow>(sql::PENDING_INVITEES)
                    .bind(chat.0)
                    .fetch_all(&self.pool)
                    .await
                    .map_err(db(OPERATION))?;
                let joiners: Vec<(i64, i64)> = sqlx::query_as(sql::PENDING_JOINERS)
                    .bind(chat.0)
                    .fetch_all(&self.pool)
                    .await
                    .map_err(db(OPERATION))?;
                rows.into_iter()
                    .map(|row| {
                        let (mine, others) = std::mem::take(&mut invitees)
                            .into_iter()
                            .partition(|invitee| invitee.challenge_id == row.id);
                        invitees = others;
                        let joined = joiners
                            .iter()
                            .filter(|(challenge, _)| *challenge == row.id)
                            .map(|&(_, user)| UserId(user))
                            .collect();
                        row.into_challenge(mine, joined)
                    })
                    .collect()
            }

            pub(super) async fn settle_challenge(
                &self,
                id: ChallengeNo,
                settlement: Settlement,
                by: UserId,
                now: Timestamp,
                request: Option<&super::RequestKey>,
            ) -> Result<Challenge, StoreError> {
                const OPERATION: &str = "settle_challenge";
                let mut tx = self.begin_write(OPERATION).await?;
                Self::record_request(&mut tx, request, None, now, OPERATION).await?;
                let settled = sqlx::query(sql::SETTLE_CHALLENGE)
                    .bind(id.0)
                    .bind(settlement.status().as_str())
                    .bind(by.0)
                    .bind(now.0)
                    .execute(&mut *tx)
                    .await
                    .map_err(db(OPERATION))?
                    .rows_affected();
                if settled == 0 {
                    let state = sqlx::query_as::<_, ChallengeStateRow>(sql::CHALLENGE_STATE)
                        .bind(id.0)
                        .fetch_optional(&mut *tx)
                        .await
                        .map_err(db(OPERATION))?;
                    return Err(challenge_refusal(id, state, now)?.into());
                }
                tx.commit().await.map_err(db(OPERATION))?;
                self.existing_challenge(id).await
            }

            pub(super) async fn accept_invitation(
                &self,
                id: ChallengeNo,
                by: UserId,
                now: Timestamp,
                request: Option<&super::RequestKey>,
            ) -> Result<super::Invitation, StoreError> {
                const OPERATION: &str = "accept_invitation";
                let mut tx = self.begin_write(OPERATION).await?;
                Self::record_request(&mut tx, request, None, now, OPERATION).await?;
                let newly = Self::accept_in(&mut tx, id, by, now, OPERATION).await?;
                let (waiting, waiting_usernames) =
                    Self::waiting_invitees(&mut tx, id, OPERATION).await?;
                tx.commit().await.map_err(db(OPERATION))?;
                Ok(super::Invitation {
                    challenge: self.existing_challenge(id).await?,
                    newly,
                    waiting,
                    waiting_usernames,
                })
            }

            /// In a writing transaction: takes the lock of the pending, unexpired challenge
            /// `id` (a no-op update), or says why it is no longer waiting.
            async fn lock_pending(
                tx: &mut sqlx::Transaction<'static, Db>,
                id: ChallengeNo,
                now: Timestamp,
                operation: &'static str,
            ) -> Result<(), StoreError> {
                let locked = sqlx::query(sql::LOCK_PENDING_CHALLENGE)
                    .bind(id.0)
                    .bind(now.0)
                    .execute(&mut **tx)
                    .await
                    .map_err(db(operation))?
                    .rows_affected();
                if locked == 0 {
                    let state = sqlx::query_as::<_, ChallengeStateRow>(sql::CHALLENGE_STATE)
                        .bind(id.0)
                        .fetch_optional(&mut **tx)
                        .await
                        .map_err(db(operation))?;
                    return Err(challenge_refusal(id, state, now)?.into());
                }
                Ok(())
            }

            /// In a writing transaction: takes the lock of the pending, unexpired challenge
            /// and records that its invitee `by` accepts. Whether this is the first time.
            async fn accept_in(
                tx: &mut sqlx::Transaction<'static, Db>,
                id: ChallengeNo,
                by: UserId,
                now: Timestamp,
                operation: &'static str,
            ) -> Result<bool, StoreError> {
                Self::lock_pending(tx, id, now, operation).await?;
                let accepted_at: Option<Option<i64>> = sqlx::query_scalar(sql::INVITEE_ACCEPTED_AT)
                    .bind(id.0)
                    .bind(by.0)
                    .fetch_optional(&mut **tx)
                    .await
                    .map_err(db(operation))?;
                let Some(accepted_at) = accepted_at else {
                    return Err(Conflict::NotInvited(id).into());
                };
                let newly = accepted_at.is_none();
                if newly {
                    sqlx::query(sql::ACCEPT_INVITEE)
                        .bind(id.0)
                        .bind(by.0)
                        .bind(now.0)
                        .execute(&mut **tx)
                        .await
                        .map_err(db(operation))?;
                }
                Ok(newly)
            }

            /// The invitees of a challenge who have not accepted: users, and usernames not
            /// yet bound to a user.
            async fn waiting_invitees(
                tx: &mut sqlx::Transaction<'static, Db>,
                id: ChallengeNo,
                operation: &'static str,
            ) -> Result<(Vec<UserId>, Vec<String>), StoreError> {
                let rows: Vec<(Option<i64>, Option<String>)> =
                    sqlx::query_as(sql::WAITING_INVITEES)
                        .bind(id.0)
                        .fetch_all(&mut **tx)
                        .await
                        .map_err(db(operation))?;
                let mut users = Vec::new();
                let mut usernames = Vec::new();
                for row in rows {
                    match row {
                        (Some(user), _) => users.push(UserId(user)),
                        (None, Some(name)) => usernames.push(name),
                        (None, None) => {
                            return Err(StoreError::Corrupt(format!(
                                "challenge {id} has an invitee without user or username"
                            )));
                        }
                    }
                }
                Ok((users, usernames))
            }

            pub(super) async fn expire_challenges(
                &self,
                now: Timestamp,
            ) -> Result<Vec<Challenge>, StoreError> {
                let ids: Vec<i64> = sqlx::query_scalar(sql::EXPIRE_CHALLENGES)
                    .bind(now.0)
                    .fetch_all(&self.pool)
                    .await
                    .map_err(db("expire_challenges"))?;
                let mut expired = Vec::with_capacity(ids.len());
                for id in ids {
                    expired.push(self.existing_challenge(ChallengeNo(id)).await?);
                }
                expired.sort_by_key(|challenge| challenge.id);
                Ok(expired)
            }

            pub(super) async fn create_game(
                &self,
                new: &NewGame<'_>,
                request: Option<&super::RequestKey>,
                announce: Option<&Announce<'_>>,
            ) -> Result<(GameRecord, Option<OutboxId>), StoreError> {
                const OPERATION: &str = "create_game";
                let now = Timestamp::now();
                let mut tx = self.begin_write(OPERATION).await?;
                Self::record_request(&mut tx, request, None, now, OPERATION).await?;
                let id = Self::create_game_in(&mut tx, new, now, OPERATION).await?;
                let announced = match announce {
                    Some(announce) => Some(
                        Self::announce_in(&mut tx, GameNo(id), announce, now, OPERATION).await?,
                    ),
                    None => None,
                };
                tx.commit().await.map_err(db(OPERATION))?;
                Ok((self.existing_game(GameNo(id)).await?, announced))
            }

            /// In a writing transaction: settles the accepted challenge (compare-and-set),
            /// writes the game, its seats, stakes and clock. The game's id.
            async fn create_game_in(
                tx: &mut sqlx::Transaction<'static, Db>,
                new: &NewGame<'_>,
                now: Timestamp,
                operation: &'static str,
            ) -> Result<i64, StoreError> {
                if let Some(acceptance) = new.accepting {
                    let accepted = sqlx::query(sql::SETTLE_CHALLENGE)
                        .bind(acceptance.challenge.0)
                        .bind(Settlement::Accept.status().as_str())
                        .bind(acceptance.by.0)
                        .bind(acceptance.now.0)
                        .execute(&mut **tx)
                        .await
                        .map_err(db(operation))?
                        .rows_affected();
                    if accepted == 0 {
                        let state = sqlx::query_as::<_, ChallengeStateRow>(sql::CHALLENGE_STATE)
                            .bind(acceptance.challenge.0)
                            .fetch_optional(&mut **tx)
                            .await
                            .map_err(db(operation))?;
                        return Err(challenge_refusal(
                            acceptance.challenge,
                            state,
                            acceptance.now,
                        )?
                        .into());
                    }
                }
                let id: i64 = sqlx::query_scalar(sql::INSERT_GAME)
                    .bind(new.chat.0)
                    .bind(new.accepting.map(|acceptance| acceptance.challenge.0))
                    .bind(new.game.as_str())
                    .bind(new.options)
                    .bind(new.start_position)
                    .bind(now.0)
                    .bind(new.community.0)
                    .bind(new.stake)
                    .bind(new.move_millis)
                    .bind(new.dice.as_ref().map(|dice| dice.seed.as_str()))
                    .bind(new.dice.as_ref().and_then(|dice| dice.nonce.as_deref()))
                    .fetch_one(&mut **tx)
                    .await
                    .map_err(db(operation))?;
                for (seat, user) in (0_i64..).zip(new.seats) {
                    sqlx::query(sql::INSERT_SEAT)
                        .bind(id)
                        .bind(seat)
                        .bind(user.0)
                        .execute(&mut **tx)
                        .await
                        .map_err(db(operation))?;
                }
                if new.stake > 0 {
                    Self::take_stakes(
                        tx,
                        id,
                        new.community.0,
                        new.seats,
                        new.stake,
                        now,
                        operation,
                    )
                    .await?;
                }
                if let Some(turn) = new.turn {
                    sqlx::query(sql::SET_CLOCK)
                        .bind(id)
                        .bind(Some(turn.user.0))
                        .bind(turn.at.0)
                        .execute(&mut **tx)
                        .await
                        .map_err(db(operation))?;
                }
                Ok(id)
            }

            async fn existing_game(&self, id: GameNo) -> Result<GameRecord, StoreError> {
                self.game(id)
                    .await?
                    .ok_or_else(|| StoreError::Corrupt(format!("game {id} vanished")))
            }

            pub(super) async fn game(&self, id: GameNo) -> Result<Option<GameRecord>, StoreError> {
                const OPERATION: &str = "game";
                let Some(row) = sqlx::query_as::<_, GameRow>(sql::GAME)
                    .bind(id.0)
                    .fetch_optional(&self.pool)
                    .await
                    .map_err(db(OPERATION))?
                else {
                    return Ok(None);
                };
                let seats = sqlx::query_as::<_, SeatRow>(sql::SEATS)
                    .bind(id.0)
                    .fetch_all(&self.pool)
                    .await
                    .map_err(db(OPERATION))?;
                assemble_games(vec![row], seats).map(|mut games| games.pop())
            }

            pub(super) async fn load_game(
                &self,
                id: GameNo,
                history: History,
            ) -> Result<Option<LoadedGame>, StoreError> {
                // No transaction: the log is append-only and a game's `seq` only grows, so the
                // actions up to the `seq` read with the record are the log of that moment.
                const OPERATION: &str = "load_game";
                let Some(row) = sqlx::query_as::<_, GameRow>(sql::GAME)
                    .bind(id.0)
                    .fetch_optional(&self.pool)
                    .await
                    .map_err(db(OPERATION))?
                else {
                    return Ok(None);
                };
                let seats = sqlx::query_as::<_, SeatRow>(sql::SEATS)
                    .bind(id.0)
                    .fetch_all(&self.pool)
                    .await
                    .map_err(db(OPERATION))?;
                let record = assemble_games(vec![row], seats)?
                    .pop()
                    .ok_or_else(|| StoreError::Corrupt(format!("game {id} vanished")))?;
                let from_snapshot = match history {
                    History::Full => None,
                    History::SinceSnapshot => record.snapshot.clone(),
                };
                let after = from_snapshot.as_ref().map_or(0, |snapshot| snapshot.seq);
                let actions = sqlx::query_as::<_, ActionRow>(sql::ACTIONS_BETWEEN)
                    .bind(id.0)
                    .bind(seq_to_i64(after))
                    .bind(seq_to_i64(record.seq))
                    .fetch_all(&self.pool)
                    .await
                    .map_err(db(OPERATION))?
                    .into_iter()
                    .map(ActionRecord::try_from)
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(Some(LoadedGame {
                    record,
                    from_snapshot,
                    actions,
                }))
            }

            pub(super) async fn active_games_in_chat(
                &self,
                chat: ChatId,
            ) -> Result<Vec<GameRecord>, StoreError> {
                const OPERATION: &str = "active_games_in_chat";
                let mut tx = self.begin_read(OPERATION).await?;
                let games = sqlx::query_as::<_, GameRow>(sql::ACTIVE_GAMES_IN_CHAT)
                    .bind(chat.0)
                    .fetch_all(&mut *tx)
                    .await
                    .map_err(db(OPERATION))?;
                let seats = sqlx::query_as::<_, SeatRow>(sql::SEATS_OF_ACTIVE_GAMES_IN_CHAT)
                    .bind(chat.0)
                    .fetch_all(&mut *tx)
                    .await
                    .map_err(db(OPERATION))?;
                tx.commit().await.map_err(db(OPERATION))?;
                assemble_games(games, seats)
            }

            pub(super) async fn latest_game_of_user_in_chat(
                &self,
                chat: ChatId,
                user: UserId,
            ) -> Result<Option<GameNo>, StoreError> {
                const OPERATION: &str = "latest_game_of_user_in_chat";
                let mut tx = self.begin_read(OPERATION).await?;
                let game: Option<i64> = sqlx::query_scalar(sql::LATEST_GAME_OF_USER_IN_CHAT)
                    .bind(chat.0)
                    .bind(user.0)
                    .fetch_optional(&mut *tx)
                    .await
                    .map_err(db(OPERATION))?;
                tx.commit().await.map_err(db(OPERATION))?;
                Ok(game.map(GameNo))
            }

            pub(super) async fn active_games_of_user(
                &self,
                user: UserId,
                chat: Option<ChatId>,
            ) -> Result<Vec<GameRecord>, StoreError> {
                const OPERATION: &str = "active_games_of_user";
                let chat = chat.map(|chat| chat.0);
                let mut tx = self.begin_read(OPERATION).await?;
                let games = sqlx::query_as::<_, GameRow>(sql::ACTIVE_GAMES_OF_USER)
                    .bind(user.0)
                    .bind(chat)
                    .fetch_all(&mut *tx)
                    .await
                    .map_err(db(OPERATION))?;
                let seats = sqlx::query_as::<_, SeatRow>(sql::SEATS_OF_ACTIVE_GAMES_OF_USER)
                    .bind(user.0)
                    .bind(chat)
                    .fetch_all(&mut *tx)
                    .await
                    .map_err(db(OPERATION))?;
                tx.commit().await.map_err(db(OPERATION))?;
                assemble_games(games, seats)
            }

            pub(super) async fn computer_turns(
                &self,
                limit: i64,
            ) -> Result<Vec<GameNo>, StoreError> {
                let ids: Vec<i64> = sqlx::query_scalar(sql::COMPUTER_TURNS)
                    .bind(limit)
                    .fetch_all(&self.pool)
                    .await
                    .map_err(db("computer_turns"))?;
                Ok(ids.into_iter().map(GameNo).collect())
            }

            pub(super) async fn append_actions(
                &self,
                game: GameNo,
                append: &Append<'_>,
                announce: Option<&Announce<'_>>,
            ) -> Result<Appended, StoreError> {
                const OPERATION: &str = "append_actions";
                let new_seq = append
                    .expected_seq
                    .checked_add(u32::try_from(append.actions.len()).unwrap_or(u32::MAX))
                    .ok_or_else(|| StoreError::Corrupt("sequence number overflow".to_string()))?;
                let now = Timestamp::now();
                let mut tx = self.begin_write(OPERATION).await?;
                if let Some(request) = append.request {
                    let inserted = sqlx::query(sql::INSERT_REQUEST)
                        .bind(request.platform.as_str())
                        .bind(&request.key)
                        .bind(game.0)
                        .bind(now.0)
                        .execute(&mut *tx)
                        .await;
                    match inserted {
                        Ok(done) if done.rows_affected() == 0 => {
                            return Err(Conflict::Duplicate.into());
                        }
                        Ok(_) => {}
                        Err(error) if is_foreign_key_violation(&error) => {
                            return Err(Conflict::NoSuchGame(game).into());
                        }
                        Err(error) => return Err(db(OPERATION)(error)),
                    }
                }
                let status = if append.finish.is_some() {
                    GameStatus::Finished
                } else {
                    GameStatus::Active
                };
                let turn = append.turn.filter(|_| append.finish.is_none());
                let advanced: Option<ClockRow> = sqlx::query_as(sql::ADVANCE_GAME)
                    .bind(game.0)
                    .bind(seq_to_i64(append.expected_seq))
                    .bind(seq_to_i64(new_seq))
                    .bind(status.as_str())
                    .bind(append.finish)
                    .bind(append.snapshot)
                    .bind(now.0)
                    .bind(turn.map(|turn| turn.user.0))
                    .bind(turn.map_or(now.0, |turn| turn.at.0))
                    .fetch_optional(&mut *tx)
                    .await
                    .map_err(db(OPERATION))?;
                let Some(clock) = advanced else {
                    let state = sqlx::query_as::<_, GameStateRow>(sql::GAME_STATE)
                        .bind(game.0)
                        .fetch_optional(&mut *tx)
                        .await
                        .map_err(db(OPERATION))?;
                    return Err(game_refusal(game, state)?.into());
                };
                // All the new actions in one statement (a move and the rolls after it).
                if !append.actions.is_empty() {
                    let mut insert = sqlx::QueryBuilder::<Db>::new(sql::INSERT_ACTIONS);
                    insert.push_values(
                        (append.expected_seq + 1..).zip(append.actions),
                        |mut row, (seq, action)| {
                            row.push_bind(game.0)
                                .push_bind(seq_to_i64(seq))
                                .push_bind(action.action.as_str())
                                .push_bind(action.actor.map(|user| user.0))
                                .push_bind(now.0);
                        },
                    );
                    insert
                        .build()
                        .execute(&mut *tx)
                        .await
                        .map_err(db(OPERATION))?;
                }
                Self::pay_fines(&mut tx, game.0, append.fines, now, OPERATION).await?;
                if append.finish.is_some() {
                    let payout = append.payout.cloned().unwrap_or(Payout::Refund);
                    let actor = append.actions.iter().rev().find_map(|action| action.actor);
                    Self::settle_pot(&mut tx, game.0, &payout, actor, now, OPERATION).await?;
                }
                let announced = match announce {
                    Some(announce) => {
                        Some(Self::announce_in(&mut tx, game, announce, now, OPERATION).await?)
                    }
                    None => None,
                };
                tx.commit().await.map_err(db(OPERATION))?;
                Ok(Appended {
                    seq: new_seq,
                    clock: clock.into_clock(),
                    announced,
                })
            }

            pub(super) async fn end_game(
                &self,
                game: GameNo,
                ending: &Ending<'_>,
                request: Option<&super::RequestKey>,
                announce: Option<&Announce<'_>>,
            ) -> Result<(GameRecord, Option<OutboxId>), StoreError> {
                const OPERATION: &str = "end_game";
                let now = Timestamp::now();
                let mut tx = self.begin_write(OPERATION).await?;
                Self::record_request(&mut tx, request, Some(game.0), now, OPERATION).await?;
                let ended = sqlx::query(sql::END_GAME)
                    .bind(game.0)
                    .bind(ending.end.status().as_str())
                    .bind(ending.result)
                    .bind(now.0)
                    .bind(ending.expected_seq.map(seq_to_i64))
                    .bind(ending.deadline_passed.map(|at| at.0))
                    .execute(&mut *tx)
                    .await
                    .map_err(db(OPERATION))?
                    .rows_affected();
                if ended == 0 {
                    let state = sqlx::query_as::<_, GameStateRow>(sql::GAME_STATE)
                        .bind(game.0)
                        .fetch_optional(&mut *tx)
                        .await
                        .map_err(db(OPERATION))?;
                    return Err(end_refusal(game, ending, state)?.into());
                }
                Self::settle_pot(
                    &mut tx,
                    game.0,
                    &ending.payout,
                    ending.actor,
                    now,
                    OPERATION,
                )
                .await?;
                let announced = match announce {
                    Some(announce) => {
                        Some(Self::announce_in(&mut tx, game, announce, now, OPERATION).await?)
                    }
                    None => None,
                };
                tx.commit().await.map_err(db(OPERATION))?;
                Ok((self.existing_game(game).await?, announced))
            }
        }
    };
}

pub(super) use store_operations;
