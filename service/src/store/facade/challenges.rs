//! The [`Store`]'s operations on challenges: creating them (with invitees known by a username
//! only), settling, accepting (the last acceptance with its game in one transaction) and
//! expiring them.

use crate::store::*;

impl Store {
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
        dispatch!(self, store => store.join_open_challenge(id, by, now, room, request).await)
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
    /// challenge row's lock. With `request`,
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
    /// the invitees, or, for an open challenge, the challenger, who joined it and who accepts: a caller that
    /// expects to wait may pass no seats, and is told so if its acceptance turns out to be the
    /// last); then nothing is written. A database failure.
    pub async fn accept_and_create_game(
        &self,
        new: &NewGame<'_>,
        request: Option<&RequestKey>,
    ) -> Result<Accepted, StoreError> {
        dispatch!(self, store => store.accept_and_create_game(new, request, None).await.map(|(accepted, _)| accepted))
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
    ) -> Result<(Accepted, Option<OutboxId>), StoreError> {
        dispatch!(self, store => store.accept_and_create_game(new, Some(request), Some(announce)).await)
    }
}
