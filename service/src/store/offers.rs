//! A player's standing offer to the opponent in a game (issue 39): a draw, or a takeback.
//! One offer of a kind stands per game; a draw offer lapses when its maker moves after making
//! it (their opponent moving does not lapse it), a takeback when anyone moves; both with the
//! game's end. An accepted takeback ([`Store::take_back`]) undoes the last actions of the log
//! in one transaction, and records what it undid.

use super::boards::LOCK_GAME_POSTGRES;
use super::executor::{Tx, query, query_as, query_scalar};
use super::rows::{seq_to_i64, to_seq};
use super::{GameNo, Store, StoreError, Timestamp, UserId, db};

/// What a player offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OfferKind {
    /// To end the game drawn.
    Draw,
    /// To undo the maker's last moves.
    Takeback,
}

impl OfferKind {
    fn as_str(self) -> &'static str {
        match self {
            OfferKind::Draw => "draw",
            OfferKind::Takeback => "takeback",
        }
    }
}

/// A standing offer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Offer {
    /// Who made it.
    pub by: UserId,
    /// The game's `seq` when it was made.
    pub seq: u32,
    /// When it was made.
    pub at: Timestamp,
}

/// What [`Store::make_offer`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Offered {
    /// The offer now stands.
    Made,
    /// The maker's own offer already stands: nothing changed.
    Already(Offer),
    /// The opponent's offer of the same kind stands: nothing changed (offering it back
    /// accepts it).
    Theirs(Offer),
}

/// Game `$1`'s offer of kind `$2`, if it still stands: the game is active, and for a draw
/// its maker has not moved since, for a takeback nobody has.
const STANDING: &str = "\
SELECT o.user_id, o.seq, o.offered_at FROM game_offers o JOIN games g ON g.id = o.game_id
WHERE o.game_id = $1 AND o.kind = $2 AND g.status = 'active'
  AND (o.kind <> 'takeback' OR g.seq = o.seq)
  AND NOT EXISTS (SELECT 1 FROM actions a
                  WHERE a.game_id = o.game_id AND a.seq > o.seq AND a.actor_id = o.user_id)";

/// Game `$1` goes back to `$3` actions from `$2` (if it still has `$2` and is active); a
/// snapshot after that point is dropped.
const GO_BACK: &str = "\
UPDATE games SET seq = $3, updated_at = $4,
    snapshot_position = CASE WHEN snapshot_seq > $3 THEN NULL ELSE snapshot_position END,
    snapshot_seq = CASE WHEN snapshot_seq > $3 THEN NULL ELSE snapshot_seq END
WHERE id = $1 AND seq = $2 AND status = 'active'";

/// The actions of game `$1` after `$2`, in order.
const UNDONE: &str = "SELECT action FROM actions WHERE game_id = $1 AND seq > $2 ORDER BY seq";

/// Forgets the actions of game `$1` after `$2`.
const DELETE_ACTIONS: &str = "DELETE FROM actions WHERE game_id = $1 AND seq > $2";

/// When the turn that the takeback gives back began: the last action kept (`$2`) of game
/// `$1`, or the game's start.
const TURN_BEGAN: &str = "\
SELECT COALESCE((SELECT created_at FROM actions WHERE game_id = $1 AND seq = $2), created_at)
FROM games WHERE id = $1";

/// The boards of game `$1` showing more than `$2` actions are boards of nothing now: kept as
/// messages whose buttons the next board takes off, no longer as boards.
const UNBOARD: &str = "UPDATE board_messages SET seq = NULL WHERE game_id = $1 AND seq > $2";

/// Records a takeback.
const INSERT_TAKEBACK: &str = "\
INSERT INTO takebacks (game_id, seq, undone, user_id, accepted_by, taken_at)
VALUES ($1, $2, $3, $4, $5, $6)";

/// Game `$1`'s offers, all withdrawn.
const DELETE_OFFERS: &str = "DELETE FROM game_offers WHERE game_id = $1 AND kind = 'takeback'";

/// The takebacks of game `$1`, in order: to how many actions, what was undone, by whom,
/// accepted by whom.
const TAKEBACKS: &str = "\
SELECT seq, undone, user_id, accepted_by FROM takebacks WHERE game_id = $1 ORDER BY taken_at, seq";

/// A takeback, accepted ([`Store::take_back`]).
#[derive(Debug, Clone, Copy)]
pub struct TakeBack<'a> {
    /// The game.
    pub game: GameNo,
    /// Its `seq` when the takeback was accepted.
    pub from: u32,
    /// The `seq` it goes back to.
    pub to: u32,
    /// Who asked, whose turn it is again.
    pub by: UserId,
    /// Who accepted.
    pub accepted_by: UserId,
    /// The request that accepted it, applied once.
    pub request: &'a super::RequestKey,
}

/// A takeback as recorded: the actions kept, what was undone (actions separated by spaces),
/// who asked, who accepted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TakenBack {
    /// How many actions were kept.
    pub seq: u32,
    /// The actions undone, in order, separated by spaces.
    pub undone: String,
    /// Who asked.
    pub by: UserId,
    /// Who accepted.
    pub accepted_by: UserId,
}

/// `$1` game, `$2` kind, `$3` by, `$4` seq, `$5` now: the offer, in place of any before.
const UPSERT: &str = "\
INSERT INTO game_offers (game_id, kind, user_id, seq, offered_at) VALUES ($1, $2, $3, $4, $5)
ON CONFLICT (game_id, kind) DO UPDATE SET user_id = excluded.user_id, seq = excluded.seq,
    offered_at = excluded.offered_at";

/// Game `$1`'s offer of kind `$2` by `$3`, withdrawn or declined.
const DELETE: &str = "DELETE FROM game_offers WHERE game_id = $1 AND kind = $2 AND user_id = $3";

impl Store {
    /// `by` offers `kind` in `game`, whose `seq` is `seq`, unless an offer of that kind
    /// already stands (theirs or the opponent's: see [`Offered`]). Two players offering at
    /// once are serialized: the second sees the first's offer.
    ///
    /// # Errors
    /// A database failure.
    pub async fn make_offer(
        &self,
        game: GameNo,
        kind: OfferKind,
        by: UserId,
        seq: u32,
        now: Timestamp,
    ) -> Result<Offered, StoreError> {
        const OPERATION: &str = "make_offer";
        let mut tx = self.begin_write(OPERATION).await?;
        if tx.is_postgres() {
            query(LOCK_GAME_POSTGRES)
                .bind(game.0)
                .execute(&mut tx)
                .await
                .map_err(db(OPERATION))?;
        }
        if let Some(offer) = standing(&mut tx, game, kind, OPERATION).await? {
            return Ok(if offer.by == by {
                Offered::Already(offer)
            } else {
                Offered::Theirs(offer)
            });
        }
        query(UPSERT)
            .bind(game.0)
            .bind(kind.as_str())
            .bind(by.0)
            .bind(seq_to_i64(seq))
            .bind(now.0)
            .execute(&mut tx)
            .await
            .map_err(db(OPERATION))?;
        tx.commit().await.map_err(db(OPERATION))?;
        Ok(Offered::Made)
    }

    /// `game`'s offer of `kind`, if it still stands.
    ///
    /// # Errors
    /// A database failure.
    pub async fn standing_offer(
        &self,
        game: GameNo,
        kind: OfferKind,
    ) -> Result<Option<Offer>, StoreError> {
        const OPERATION: &str = "standing_offer";
        let mut tx = self.begin_read(OPERATION).await?;
        let offer = standing(&mut tx, game, kind, OPERATION).await?;
        tx.commit().await.map_err(db(OPERATION))?;
        Ok(offer)
    }

    /// Removes `by`'s offer of `kind` in `game` (declined, or withdrawn); whether there was
    /// one.
    ///
    /// # Errors
    /// A database failure.
    pub async fn remove_offer(
        &self,
        game: GameNo,
        kind: OfferKind,
        by: UserId,
    ) -> Result<bool, StoreError> {
        let removed = query(DELETE)
            .bind(game.0)
            .bind(kind.as_str())
            .bind(by.0)
            .execute(self)
            .await
            .map_err(db("remove_offer"))?
            .rows_affected();
        Ok(removed > 0)
    }
}

async fn standing(
    tx: &mut Tx,
    game: GameNo,
    kind: OfferKind,
    operation: &'static str,
) -> Result<Option<Offer>, StoreError> {
    let row: Option<(i64, i64, i64)> = query_as(STANDING)
        .bind(game.0)
        .bind(kind.as_str())
        .fetch_optional(&mut *tx)
        .await
        .map_err(db(operation))?;
    row.map(|(by, seq, at)| {
        Ok(Offer {
            by: UserId(by),
            seq: to_seq(seq)?,
            at: Timestamp(at),
        })
    })
    .transpose()
}

impl Store {
    /// Undoes the actions of `take.game` after `take.to`, if it still has `take.from` actions
    /// and runs: the log, the snapshot, the clock (the asker's turn again, from when it began)
    /// and the boards go back; what was undone is recorded (`takebacks`); the standing
    /// takeback is used up; `announce` is written (the board after it). One transaction.
    ///
    /// # Errors
    /// [`super::Conflict::Duplicate`], [`super::Conflict::StaleSeq`] (somebody moved),
    /// [`super::Conflict::GameOver`], [`super::Conflict::NoSuchGame`]; a database failure.
    pub async fn take_back(
        &self,
        take: &TakeBack<'_>,
        announce: Option<&super::Announce<'_>>,
    ) -> Result<Option<super::OutboxId>, StoreError> {
        const OPERATION: &str = "take_back";
        let now = Timestamp::now();
        let game = take.game;
        let mut tx = self.begin_write(OPERATION).await?;
        super::requests::record_request(&mut tx, Some(take.request), Some(game.0), now, OPERATION)
            .await?;
        let undone: Vec<String> = query_scalar(UNDONE)
            .bind(game.0)
            .bind(seq_to_i64(take.to))
            .fetch_all(&mut tx)
            .await
            .map_err(db(OPERATION))?;
        let moved = query(GO_BACK)
            .bind(game.0)
            .bind(seq_to_i64(take.from))
            .bind(seq_to_i64(take.to))
            .bind(now.0)
            .execute(&mut tx)
            .await
            .map_err(db(OPERATION))?
            .rows_affected();
        if moved == 0 {
            let state = query_as::<super::rows::GameStateRow>(super::games::GAME_STATE)
                .bind(game.0)
                .fetch_optional(&mut tx)
                .await
                .map_err(db(OPERATION))?;
            return Err(super::rows::game_refusal(game, state)?.into());
        }
        let began: i64 = query_scalar(TURN_BEGAN)
            .bind(game.0)
            .bind(seq_to_i64(take.to))
            .fetch_one(&mut tx)
            .await
            .map_err(db(OPERATION))?;
        for statement in [DELETE_ACTIONS, UNBOARD] {
            query(statement)
                .bind(game.0)
                .bind(seq_to_i64(take.to))
                .execute(&mut tx)
                .await
                .map_err(db(OPERATION))?;
        }
        query(DELETE_OFFERS)
            .bind(game.0)
            .execute(&mut tx)
            .await
            .map_err(db(OPERATION))?;
        query(INSERT_TAKEBACK)
            .bind(game.0)
            .bind(seq_to_i64(take.to))
            .bind(undone.join(" "))
            .bind(take.by.0)
            .bind(take.accepted_by.0)
            .bind(now.0)
            .execute(&mut tx)
            .await
            .map_err(db(OPERATION))?;
        super::games::set_clock(&mut tx, game, Some(take.by), Timestamp(began), OPERATION).await?;
        let announced = super::games::announce_if(&mut tx, game, announce, now, OPERATION).await?;
        tx.commit().await.map_err(db(OPERATION))?;
        Ok(announced)
    }

    /// The takebacks of `game`, in the order they were made.
    ///
    /// # Errors
    /// A database failure.
    pub async fn takebacks(&self, game: GameNo) -> Result<Vec<TakenBack>, StoreError> {
        let rows: Vec<(i64, String, i64, i64)> = query_as(TAKEBACKS)
            .bind(game.0)
            .fetch_all(self)
            .await
            .map_err(db("takebacks"))?;
        rows.into_iter()
            .map(|(seq, undone, by, accepted_by)| {
                Ok(TakenBack {
                    seq: to_seq(seq)?,
                    undone,
                    by: UserId(by),
                    accepted_by: UserId(accepted_by),
                })
            })
            .collect()
    }
}
