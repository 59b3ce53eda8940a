//! Challenges: creating them (with invitees known by a username only), settling, accepting
//! (the last acceptance with its game in one transaction), joining open ones, and expiring
//! them. The statements and the operations that run them.

use super::executor::{Tx, query, query_as, query_scalar};
use super::games::{announce_if, create_game_in};
use super::outbox::{self, announce_to_chat, insert_outbox};
use super::requests::record_request;
use super::{
    Acceptance, Accepted, Announce, Challenge, ChallengeNo, ChallengeRow, ChallengeStateRow,
    ChatId, Conflict, Invitation, Invitee, InviteeRow, Joined, NewChallenge, NewGame, NewOutbox,
    OutboxId, OutboxKind, Platform, RequestKey, Settlement, Store, StoreError, Timestamp, UserId,
    challenge_refusal, clean_username, db, distinct_invitees,
};

const INSERT_CHALLENGE: &str = "\
INSERT INTO challenges (chat_id, game, options, challenger_id, status, created_at, expires_at,
                        stake, move_millis, computer_level, dice_seed, rated)
VALUES ($1, $2, $3, $4, 'pending', $5, $6, $7, $8, $9, $10, $11)
RETURNING id";

/// `$3` user or `$4` username (exactly one of them not null).
const INSERT_INVITEE: &str = "\
INSERT INTO challenge_invitees (challenge_id, position, user_id, username) VALUES ($1, $2, $3, $4)";

/// Challenge `$1`.
const CHALLENGE: &str = "\
SELECT c.id, c.chat_id, c.game, c.options, c.challenger_id, c.status, c.created_at,
       c.expires_at, c.settled_by, c.settled_at, g.id AS game_id, c.stake, c.move_millis,
       c.computer_level, c.dice_seed, c.rated
FROM challenges c LEFT JOIN games g ON g.challenge_id = c.id
WHERE c.id = $1";

/// The pending challenges of chat `$1`, oldest first.
const PENDING_CHALLENGES: &str = "\
SELECT c.id, c.chat_id, c.game, c.options, c.challenger_id, c.status, c.created_at,
       c.expires_at, c.settled_by, c.settled_at, g.id AS game_id, c.stake, c.move_millis,
       c.computer_level, c.dice_seed, c.rated
FROM challenges c LEFT JOIN games g ON g.challenge_id = c.id
WHERE c.chat_id = $1 AND c.status = 'pending' ORDER BY c.id";

const INVITEES: &str = "\
SELECT challenge_id, user_id, username, accepted_at FROM challenge_invitees
WHERE challenge_id = $1 ORDER BY position";

const PENDING_INVITEES: &str = "\
SELECT i.challenge_id, i.user_id, i.username, i.accepted_at FROM challenge_invitees i
JOIN challenges c ON c.id = i.challenge_id
WHERE c.chat_id = $1 AND c.status = 'pending'
ORDER BY i.challenge_id, i.position";

/// Who joined open challenge `$1`, in order.
const JOINERS: &str = "\
SELECT user_id FROM challenge_joiners WHERE challenge_id = $1 ORDER BY joined_at, user_id";

/// Who joined the pending open challenges of chat `$1`: `(challenge, user)`, in order.
const PENDING_JOINERS: &str = "\
SELECT j.challenge_id, j.user_id FROM challenge_joiners j
JOIN challenges c ON c.id = j.challenge_id
WHERE c.chat_id = $1 AND c.status = 'pending'
ORDER BY j.challenge_id, j.joined_at, j.user_id";

/// Compare-and-set out of `pending`: `$2` status, `$3` by, `$4` now.
pub(super) const SETTLE_CHALLENGE: &str = "\
UPDATE challenges SET status = $2, settled_by = $3, settled_at = $4
WHERE id = $1 AND status = 'pending' AND expires_at > $4";

pub(super) const CHALLENGE_STATE: &str = "SELECT status, expires_at FROM challenges WHERE id = $1";

pub(super) const EXPIRE_CHALLENGES: &str = "\
UPDATE challenges SET status = 'expired', settled_at = $1
WHERE status = 'pending' AND expires_at <= $1
RETURNING id";

/// Takes the challenge row's lock (a no-op update) while it is pending and unexpired at `$2`,
/// so that concurrent acceptances of its invitees run one after the other.
const LOCK_PENDING_CHALLENGE: &str = "\
UPDATE challenges SET status = status WHERE id = $1 AND status = 'pending' AND expires_at > $2";

/// `$1` challenge, `$2` user: one row (its `accepted_at`) if the user is invited.
const INVITEE_ACCEPTED_AT: &str = "\
SELECT accepted_at FROM challenge_invitees WHERE challenge_id = $1 AND user_id = $2";

/// `$1` challenge, `$2` user, `$3` now.
const ACCEPT_INVITEE: &str = "\
UPDATE challenge_invitees SET accepted_at = $3
WHERE challenge_id = $1 AND user_id = $2 AND accepted_at IS NULL";

/// The invitees of `$1` who have not accepted yet, in order.
const WAITING_INVITEES: &str = "\
SELECT user_id, username FROM challenge_invitees
WHERE challenge_id = $1 AND accepted_at IS NULL ORDER BY position";

/// Gives the seat of the username-only invitee `$2` of pending challenge `$1` to user `$3`,
/// unless that user already is an invitee.
const BIND_INVITEE_USERNAME: &str = "\
UPDATE challenge_invitees SET user_id = $3, username = NULL
WHERE challenge_id = $1 AND user_id IS NULL AND lower(username) = lower($2)
  AND NOT EXISTS (SELECT 1 FROM challenge_invitees i WHERE i.challenge_id = $1 AND i.user_id = $3)
  AND EXISTS (SELECT 1 FROM challenges c WHERE c.id = $1 AND c.status = 'pending')";

/// `SELECT 1` if user `$2`, whose stored username is `$3`, is an invitee of challenge `$1`.
const IS_INVITEE_NAMED: &str = "\
SELECT 1 FROM challenge_invitees i JOIN users u ON u.id = i.user_id
WHERE i.challenge_id = $1 AND i.user_id = $2 AND lower(u.username) = lower($3)";

/// `SELECT 1` if challenge `$1` still has a seat for username `$2` unbound.
const UNBOUND_USERNAME: &str = "\
SELECT 1 FROM challenge_invitees
WHERE challenge_id = $1 AND user_id IS NULL AND lower(username) = lower($2)";

/// The challenger of challenge `$1`.
const CHALLENGER: &str = "SELECT challenger_id FROM challenges WHERE id = $1";

/// The invitees of challenge `$1` known as users.
const INVITED_USERS: &str = "\
SELECT user_id FROM challenge_invitees WHERE challenge_id = $1 AND user_id IS NOT NULL";

/// `SELECT 1` if challenge `$1` invites anyone.
const HAS_INVITEES: &str = "SELECT 1 FROM challenge_invitees WHERE challenge_id = $1 LIMIT 1";

/// Records that user `$2` joined open challenge `$1` at `$3`, unless they had.
const INSERT_JOINER: &str = "\
INSERT INTO challenge_joiners (challenge_id, user_id, joined_at) VALUES ($1, $2, $3)
ON CONFLICT (challenge_id, user_id) DO NOTHING";

/// Who joined open challenge `$1`.
const JOINED_USERS: &str = "SELECT user_id FROM challenge_joiners WHERE challenge_id = $1";

/// In a writing transaction: settles pending challenge `id` (a compare-and-set: pending and
/// unexpired at `now`), or says why it is no longer waiting.
pub(super) async fn settle_in(
    tx: &mut Tx,
    id: ChallengeNo,
    settlement: Settlement,
    by: UserId,
    now: Timestamp,
    operation: &'static str,
) -> Result<(), StoreError> {
    let settled = query(SETTLE_CHALLENGE)
        .bind(id.0)
        .bind(settlement.status().as_str())
        .bind(by.0)
        .bind(now.0)
        .execute(&mut *tx)
        .await
        .map_err(db(operation))?
        .rows_affected();
    if settled == 0 {
        return Err(why_not_pending(tx, id, now, operation).await);
    }
    Ok(())
}

/// Writes in the transaction, when there is one, an announcement about challenge `id` to its
/// chat (kind `announce`): the row.
async fn announce_about(
    tx: &mut Tx,
    id: ChallengeNo,
    announce: Option<&Announce<'_>>,
    now: Timestamp,
    operation: &'static str,
) -> Result<Option<OutboxId>, StoreError> {
    let Some(announce) = announce else {
        return Ok(None);
    };
    let (_, chat, platform): (i64, i64, String) = query_as(outbox::CHALLENGE_FOR_OUTBOX)
        .bind(id.0)
        .fetch_one(&mut *tx)
        .await
        .map_err(db(operation))?;
    let new = NewOutbox {
        platform: Platform::parse(&platform)?,
        chat: ChatId(chat),
        game: None,
        kind: OutboxKind::Announce,
        payload: announce.payload,
        now,
        held: announce.held,
    };
    insert_outbox(tx, &new, operation).await.map(Some)
}

/// Why challenge `id` is no longer pending at `now` (after a compare-and-set found it so).
async fn why_not_pending(
    tx: &mut Tx,
    id: ChallengeNo,
    now: Timestamp,
    operation: &'static str,
) -> StoreError {
    let state = query_as::<ChallengeStateRow>(CHALLENGE_STATE)
        .bind(id.0)
        .fetch_optional(&mut *tx)
        .await
        .map_err(db(operation));
    match state {
        Ok(state) => match challenge_refusal(id, state, now) {
            Ok(conflict) => conflict.into(),
            Err(error) => error,
        },
        Err(error) => error,
    }
}

/// In a writing transaction: takes the lock of the pending, unexpired challenge `id` (a no-op
/// update), or says why it is no longer waiting.
async fn lock_pending(
    tx: &mut Tx,
    id: ChallengeNo,
    now: Timestamp,
    operation: &'static str,
) -> Result<(), StoreError> {
    let locked = query(LOCK_PENDING_CHALLENGE)
        .bind(id.0)
        .bind(now.0)
        .execute(&mut *tx)
        .await
        .map_err(db(operation))?
        .rows_affected();
    if locked == 0 {
        return Err(why_not_pending(tx, id, now, operation).await);
    }
    Ok(())
}

/// In a writing transaction: takes the lock of the pending, unexpired challenge and records
/// that its invitee `by` accepts. Whether this is the first time.
async fn accept_in(
    tx: &mut Tx,
    id: ChallengeNo,
    by: UserId,
    now: Timestamp,
    operation: &'static str,
) -> Result<bool, StoreError> {
    lock_pending(tx, id, now, operation).await?;
    let accepted_at: Option<Option<i64>> = query_scalar(INVITEE_ACCEPTED_AT)
        .bind(id.0)
        .bind(by.0)
        .fetch_optional(&mut *tx)
        .await
        .map_err(db(operation))?;
    let Some(accepted_at) = accepted_at else {
        return Err(Conflict::NotInvited(id).into());
    };
    let newly = accepted_at.is_none();
    if newly {
        query(ACCEPT_INVITEE)
            .bind(id.0)
            .bind(by.0)
            .bind(now.0)
            .execute(&mut *tx)
            .await
            .map_err(db(operation))?;
    }
    Ok(newly)
}

/// The invitees of a challenge who have not accepted: users, and usernames not yet bound to a
/// user.
async fn waiting_invitees(
    tx: &mut Tx,
    id: ChallengeNo,
    operation: &'static str,
) -> Result<(Vec<UserId>, Vec<String>), StoreError> {
    let rows: Vec<(Option<i64>, Option<String>)> = query_as(WAITING_INVITEES)
        .bind(id.0)
        .fetch_all(&mut *tx)
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

/// Whether challenge `id` invites anyone (else it is open).
async fn has_invitees(
    tx: &mut Tx,
    id: ChallengeNo,
    operation: &'static str,
) -> Result<bool, StoreError> {
    let invites: Option<i32> = query_scalar(HAS_INVITEES)
        .bind(id.0)
        .fetch_optional(&mut *tx)
        .await
        .map_err(db(operation))?;
    Ok(invites.is_some())
}

/// Refuses a game whose seats are not held by exactly the challenge's players: the challenger
/// and the invitees (all bound by now), or, for an open challenge, the challenger and who
/// accepts. Runs before the game is written, so that a caller holding an older read of the
/// challenge is told before anything else.
async fn check_players(
    tx: &mut Tx,
    seats: &[UserId],
    acceptance: Acceptance,
    operation: &'static str,
) -> Result<(), StoreError> {
    let id = acceptance.challenge;
    let challenger: Option<i64> = query_scalar(CHALLENGER)
        .bind(id.0)
        .fetch_optional(&mut *tx)
        .await
        .map_err(db(operation))?;
    // No such challenge: the settlement that follows says so.
    let Some(challenger) = challenger else {
        return Ok(());
    };
    let mut players: Vec<i64> = query_scalar(INVITED_USERS)
        .bind(id.0)
        .fetch_all(&mut *tx)
        .await
        .map_err(db(operation))?;
    if players.is_empty() {
        // An open challenge: who joined it, and who accepts now (the challenger, when starting
        // it early).
        players = query_scalar(JOINED_USERS)
            .bind(id.0)
            .fetch_all(&mut *tx)
            .await
            .map_err(db(operation))?;
        players.push(acceptance.by.0);
    }
    players.push(challenger);
    players.sort_unstable();
    players.dedup();
    let mut seated: Vec<i64> = seats
        .iter()
        .filter(|user| Some(**user) != acceptance.computer)
        .map(|user| user.0)
        .collect();
    seated.sort_unstable();
    seated.dedup();
    if seated == players {
        Ok(())
    } else {
        Err(Conflict::PlayersChanged(id).into())
    }
}

impl Store {
    /// Records a pending challenge.
    ///
    /// # Errors
    /// A database failure (an unknown chat or user is one: a broken foreign key).
    pub async fn create_challenge(
        &self,
        challenge: &NewChallenge<'_>,
    ) -> Result<Challenge, StoreError> {
        self.create_challenge_with_invitees(challenge, &[], None)
            .await
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
        self.create_challenge_with_invitees(challenge, &[], Some(request))
            .await
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
        new: &NewChallenge<'_>,
        more: &[Invitee],
        request: Option<&RequestKey>,
    ) -> Result<Challenge, StoreError> {
        let (challenge, _) = self.create_challenge_in(new, more, request, None).await?;
        Ok(challenge)
    }

    /// [`Store::create_challenge_with_invitees`] recording `request`, which also writes, in
    /// the same transaction, the announcement of the challenge's post: an outbox row of kind
    /// `challenge` naming it (`{"challenge": 7}`), held by `held`'s owner until its moment
    /// ([`Announce::held`]). The challenge and the row.
    ///
    /// # Errors
    /// Those of [`Store::create_challenge_with_invitees`]; then nothing is written.
    pub async fn create_challenge_announced(
        &self,
        new: &NewChallenge<'_>,
        more: &[Invitee],
        request: &RequestKey,
        held: (&str, Timestamp),
    ) -> Result<(Challenge, OutboxId), StoreError> {
        let (challenge, announced) = self
            .create_challenge_in(new, more, Some(request), Some(held))
            .await?;
        let announced = announced
            .ok_or_else(|| StoreError::Corrupt("no announcement of a challenge".into()))?;
        Ok((challenge, announced))
    }

    async fn create_challenge_in(
        &self,
        new: &NewChallenge<'_>,
        more: &[Invitee],
        request: Option<&RequestKey>,
        held: Option<(&str, Timestamp)>,
    ) -> Result<(Challenge, Option<OutboxId>), StoreError> {
        const OPERATION: &str = "create_challenge";
        let mut tx = self.begin_write(OPERATION).await?;
        record_request(&mut tx, request, None, Timestamp::now(), OPERATION).await?;
        let id: i64 = query_scalar(INSERT_CHALLENGE)
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
            .bind(i64::from(new.rated))
            .fetch_one(&mut tx)
            .await
            .map_err(db(OPERATION))?;
        for (position, invitee) in (0_i64..).zip(distinct_invitees(new.invited, more)) {
            let (user, username) = match invitee {
                Invitee::User(user) => (Some(user.0), None),
                Invitee::Username(name) => (None, Some(name)),
            };
            query(INSERT_INVITEE)
                .bind(id)
                .bind(position)
                .bind(user)
                .bind(username.as_deref())
                .execute(&mut tx)
                .await
                .map_err(db(OPERATION))?;
        }
        let announced = match held {
            Some(held) => {
                let payload = format!(r#"{{"challenge":{id}}}"#);
                let announce = Announce {
                    payload: &payload,
                    held: Some(held),
                };
                let row = announce_to_chat(
                    &mut tx,
                    new.chat,
                    OutboxKind::Challenge,
                    &announce,
                    Timestamp::now(),
                    OPERATION,
                )
                .await?;
                Some(row)
            }
            None => None,
        };
        tx.commit().await.map_err(db(OPERATION))?;
        Ok((self.existing_challenge(ChallengeNo(id)).await?, announced))
    }

    /// A challenge that must exist (one just written or expired).
    pub(super) async fn existing_challenge(
        &self,
        id: ChallengeNo,
    ) -> Result<Challenge, StoreError> {
        self.challenge(id)
            .await?
            .ok_or_else(|| StoreError::Corrupt(format!("challenge {id} vanished")))
    }

    /// A challenge by number.
    ///
    /// # Errors
    /// A database failure.
    pub async fn challenge(&self, id: ChallengeNo) -> Result<Option<Challenge>, StoreError> {
        const OPERATION: &str = "challenge";
        let Some(row) = query_as::<ChallengeRow>(CHALLENGE)
            .bind(id.0)
            .fetch_optional(self)
            .await
            .map_err(db(OPERATION))?
        else {
            return Ok(None);
        };
        let invitees = query_as::<InviteeRow>(INVITEES)
            .bind(id.0)
            .fetch_all(self)
            .await
            .map_err(db(OPERATION))?;
        let joined: Vec<i64> = query_scalar(JOINERS)
            .bind(id.0)
            .fetch_all(self)
            .await
            .map_err(db(OPERATION))?;
        row.into_challenge(invitees, joined.into_iter().map(UserId).collect())
            .map(Some)
    }

    /// The challenges of a chat that are still pending (expired ones included until
    /// [`Store::expire_challenges`] marks them), oldest first.
    ///
    /// # Errors
    /// A database failure.
    pub async fn pending_challenges(&self, chat: ChatId) -> Result<Vec<Challenge>, StoreError> {
        const OPERATION: &str = "pending_challenges";
        let rows = query_as::<ChallengeRow>(PENDING_CHALLENGES)
            .bind(chat.0)
            .fetch_all(self)
            .await
            .map_err(db(OPERATION))?;
        let mut invitees = query_as::<InviteeRow>(PENDING_INVITEES)
            .bind(chat.0)
            .fetch_all(self)
            .await
            .map_err(db(OPERATION))?;
        let joiners: Vec<(i64, i64)> = query_as(PENDING_JOINERS)
            .bind(chat.0)
            .fetch_all(self)
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
        self.settle_challenge_recorded(id, settlement, by, now, None)
            .await
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
        self.settle_challenge_recorded(id, settlement, by, now, Some(request))
            .await
    }

    /// [`Store::settle_challenge_once`], writing in the same transaction an announcement of
    /// the settlement to the challenge's chat (kind `announce`), held as `announce` says: the
    /// outbox row.
    ///
    /// # Errors
    /// As [`Store::settle_challenge_once`].
    pub async fn settle_challenge_announced(
        &self,
        id: ChallengeNo,
        settlement: Settlement,
        by: UserId,
        now: Timestamp,
        request: &RequestKey,
        announce: &Announce<'_>,
    ) -> Result<(Challenge, OutboxId), StoreError> {
        let (challenge, row) = self
            .settle_challenge_in(id, settlement, by, now, Some(request), Some(announce))
            .await?;
        let row = row.ok_or_else(|| StoreError::Corrupt("no settlement to announce".into()))?;
        Ok((challenge, row))
    }

    async fn settle_challenge_recorded(
        &self,
        id: ChallengeNo,
        settlement: Settlement,
        by: UserId,
        now: Timestamp,
        request: Option<&RequestKey>,
    ) -> Result<Challenge, StoreError> {
        self.settle_challenge_in(id, settlement, by, now, request, None)
            .await
            .map(|(challenge, _)| challenge)
    }

    async fn settle_challenge_in(
        &self,
        id: ChallengeNo,
        settlement: Settlement,
        by: UserId,
        now: Timestamp,
        request: Option<&RequestKey>,
        announce: Option<&Announce<'_>>,
    ) -> Result<(Challenge, Option<OutboxId>), StoreError> {
        const OPERATION: &str = "settle_challenge";
        let mut tx = self.begin_write(OPERATION).await?;
        record_request(&mut tx, request, None, now, OPERATION).await?;
        settle_in(&mut tx, id, settlement, by, now, OPERATION).await?;
        let row = announce_about(&mut tx, id, announce, now, OPERATION).await?;
        tx.commit().await.map_err(db(OPERATION))?;
        Ok((self.existing_challenge(id).await?, row))
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
        const OPERATION: &str = "accept_invitation";
        let mut tx = self.begin_write(OPERATION).await?;
        record_request(&mut tx, request, None, now, OPERATION).await?;
        let newly = accept_in(&mut tx, id, by, now, OPERATION).await?;
        let (waiting, waiting_usernames) = waiting_invitees(&mut tx, id, OPERATION).await?;
        tx.commit().await.map_err(db(OPERATION))?;
        Ok(Invitation {
            challenge: self.existing_challenge(id).await?,
            newly,
            waiting,
            waiting_usernames,
        })
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
        const OPERATION: &str = "bind_invitee_username";
        let username = clean_username(username);
        if username.is_empty() {
            return Ok(false);
        }
        let mut tx = self.begin_write(OPERATION).await?;
        let bound = query(BIND_INVITEE_USERNAME)
            .bind(challenge.0)
            .bind(username)
            .bind(user.0)
            .execute(&mut tx)
            .await
            .map_err(db(OPERATION))?
            .rows_affected();
        if bound > 0 {
            tx.commit().await.map_err(db(OPERATION))?;
            return Ok(true);
        }
        // A repeated call: the user, known by that username, holds a seat and none of that name
        // is left unbound.
        let holds: Option<i32> = query_scalar(IS_INVITEE_NAMED)
            .bind(challenge.0)
            .bind(user.0)
            .bind(username)
            .fetch_optional(&mut tx)
            .await
            .map_err(db(OPERATION))?;
        let unbound: Option<i32> = query_scalar(UNBOUND_USERNAME)
            .bind(challenge.0)
            .bind(username)
            .fetch_optional(&mut tx)
            .await
            .map_err(db(OPERATION))?;
        tx.commit().await.map_err(db(OPERATION))?;
        Ok(holds.is_some() && unbound.is_none())
    }

    /// Records that `by` joins the pending, unexpired open challenge `id` and waits for its
    /// game to start (see [`Challenge::joined`]), holding the challenge row's lock so that
    /// concurrent joins run one after the other. `room` is how many may wait: a join that
    /// would fill the challenge must start its game instead ([`Store::accept_and_create_game`],
    /// whose seats then are the challenger, who joined and who accepts). Joining twice is no
    /// change (`newly` false). With `request`, the request key is recorded in the same
    /// transaction.
    ///
    /// # Errors
    /// [`Conflict::Duplicate`] (checked first), [`Conflict::NoSuchChallenge`],
    /// [`Conflict::ChallengeSettled`], [`Conflict::ChallengeExpired`],
    /// [`Conflict::NotInvited`] (the challenge has invitees), [`Conflict::PlayersChanged`]
    /// (`room` people wait already: read the challenge again and start it); then nothing is
    /// written. A database failure.
    pub async fn join_open_challenge(
        &self,
        id: ChallengeNo,
        by: UserId,
        now: Timestamp,
        room: usize,
        request: Option<&RequestKey>,
    ) -> Result<Joined, StoreError> {
        self.join_open_challenge_in(id, by, now, room, request, None)
            .await
            .map(|(joined, _)| joined)
    }

    /// [`Store::join_open_challenge`], writing in the same transaction an announcement of the
    /// join to the challenge's chat (kind `announce`), held as `announce` says: the outbox row.
    ///
    /// # Errors
    /// As [`Store::join_open_challenge`].
    pub async fn join_open_challenge_announced(
        &self,
        id: ChallengeNo,
        by: UserId,
        now: Timestamp,
        room: usize,
        request: &RequestKey,
        announce: &Announce<'_>,
    ) -> Result<(Joined, OutboxId), StoreError> {
        let (joined, row) = self
            .join_open_challenge_in(id, by, now, room, Some(request), Some(announce))
            .await?;
        let row = row.ok_or_else(|| StoreError::Corrupt("no join to announce".into()))?;
        Ok((joined, row))
    }

    async fn join_open_challenge_in(
        &self,
        id: ChallengeNo,
        by: UserId,
        now: Timestamp,
        room: usize,
        request: Option<&RequestKey>,
        announce: Option<&Announce<'_>>,
    ) -> Result<(Joined, Option<OutboxId>), StoreError> {
        const OPERATION: &str = "join_open_challenge";
        let mut tx = self.begin_write(OPERATION).await?;
        record_request(&mut tx, request, None, now, OPERATION).await?;
        lock_pending(&mut tx, id, now, OPERATION).await?;
        if has_invitees(&mut tx, id, OPERATION).await? {
            return Err(Conflict::NotInvited(id).into());
        }
        let joined: Vec<i64> = query_scalar(JOINED_USERS)
            .bind(id.0)
            .fetch_all(&mut tx)
            .await
            .map_err(db(OPERATION))?;
        let newly = !joined.contains(&by.0);
        if newly {
            if joined.len() >= room {
                return Err(Conflict::PlayersChanged(id).into());
            }
            query(INSERT_JOINER)
                .bind(id.0)
                .bind(by.0)
                .bind(now.0)
                .execute(&mut tx)
                .await
                .map_err(db(OPERATION))?;
        }
        let row = announce_about(&mut tx, id, announce, now, OPERATION).await?;
        tx.commit().await.map_err(db(OPERATION))?;
        let joined = Joined {
            challenge: self.existing_challenge(id).await?,
            newly,
        };
        Ok((joined, row))
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
    /// challenge (or `new.accepting` of `None`) it is [`Store::create_game`], under the
    /// challenge row's lock. With `request`, the request key is recorded in the same
    /// transaction.
    ///
    /// The service builds the [`NewGame`] first (seats by lot, wallets opened) and calls this
    /// once, so a crash cannot leave an acceptance without its game.
    ///
    /// # Errors
    /// [`Conflict::Duplicate`] (checked first), [`Conflict::NoSuchChallenge`],
    /// [`Conflict::ChallengeSettled`], [`Conflict::ChallengeExpired`],
    /// [`Conflict::NotInvited`], [`Conflict::InsufficientFunds`], [`Conflict::PlayersChanged`]
    /// (when the game would start, the people in `new.seats` must be exactly the challenger and
    /// the invitees, or, for an open challenge, the challenger, who joined it and who accepts:
    /// a caller that expects to wait may pass no seats, and is told so if its acceptance turns
    /// out to be the last); then nothing is written. A database failure.
    pub async fn accept_and_create_game(
        &self,
        new: &NewGame<'_>,
        request: Option<&RequestKey>,
    ) -> Result<Accepted, StoreError> {
        self.accept_and_create_game_in(new, request, None)
            .await
            .map(|(accepted, _)| accepted)
    }

    /// [`Store::accept_and_create_game`], writing `announce` in the same transaction when the
    /// game starts: what it did, and the outbox row written, if one was.
    ///
    /// # Errors
    /// Those of [`Store::accept_and_create_game`]; then nothing is written.
    pub async fn accept_and_create_game_announced(
        &self,
        new: &NewGame<'_>,
        request: &RequestKey,
        announce: &Announce<'_>,
        waiting: &Announce<'_>,
    ) -> Result<(Accepted, Option<OutboxId>), StoreError> {
        self.accept_and_create_game_in(new, Some(request), Some((announce, waiting)))
            .await
    }

    /// `announce`: the start's announcement (for the game's board) and the acceptance's (to
    /// the challenge's chat, kind `announce`) when others have still to accept.
    async fn accept_and_create_game_in(
        &self,
        new: &NewGame<'_>,
        request: Option<&RequestKey>,
        announce: Option<(&Announce<'_>, &Announce<'_>)>,
    ) -> Result<(Accepted, Option<OutboxId>), StoreError> {
        const OPERATION: &str = "accept_and_create_game";
        let now = Timestamp::now();
        let mut tx = self.begin_write(OPERATION).await?;
        record_request(&mut tx, request, None, now, OPERATION).await?;
        if let Some(acceptance) = new.accepting {
            let id = acceptance.challenge;
            if has_invitees(&mut tx, id, OPERATION).await? {
                let newly =
                    accept_in(&mut tx, id, acceptance.by, acceptance.now, OPERATION).await?;
                let (waiting, waiting_usernames) = waiting_invitees(&mut tx, id, OPERATION).await?;
                if !waiting.is_empty() || !waiting_usernames.is_empty() {
                    let told = announce.map(|(_, told)| told);
                    let row = announce_about(&mut tx, id, told, now, OPERATION).await?;
                    tx.commit().await.map_err(db(OPERATION))?;
                    let invitation = Invitation {
                        challenge: self.existing_challenge(id).await?,
                        newly,
                        waiting,
                        waiting_usernames,
                    };
                    return Ok((Accepted::Waiting(invitation), row));
                }
            }
            // An open challenge: its row's lock keeps a join from slipping in between the
            // check of its players and its settlement.
            lock_pending(&mut tx, id, acceptance.now, OPERATION).await?;
            check_players(&mut tx, new.seats, acceptance, OPERATION).await?;
        }
        let id = create_game_in(&mut tx, new, now, OPERATION).await?;
        let announced = announce_if(
            &mut tx,
            id,
            announce.map(|(start, _)| start),
            now,
            OPERATION,
        )
        .await?;
        tx.commit().await.map_err(db(OPERATION))?;
        let record = self.existing_game(id).await?;
        Ok((Accepted::Started(record), announced))
    }

    /// Marks every pending challenge whose expiry is at or before `now` as expired, and
    /// returns them.
    ///
    /// # Errors
    /// A database failure.
    pub async fn expire_challenges(&self, now: Timestamp) -> Result<Vec<Challenge>, StoreError> {
        let ids: Vec<i64> = query_scalar(EXPIRE_CHALLENGES)
            .bind(now.0)
            .fetch_all(self)
            .await
            .map_err(db("expire_challenges"))?;
        let mut expired = Vec::with_capacity(ids.len());
        for id in ids {
            expired.push(self.existing_challenge(ChallengeNo(id)).await?);
        }
        expired.sort_by_key(|challenge| challenge.id);
        Ok(expired)
    }
}
