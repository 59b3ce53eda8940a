//! A player's standing offer to the opponent in a game (issue 39): a draw. One offer of a
//! kind stands per game; a draw offer lapses when its maker moves after making it (their
//! opponent moving does not lapse it), and with the game's end.

use super::boards::LOCK_GAME_POSTGRES;
use super::executor::{Tx, query, query_as};
use super::rows::{seq_to_i64, to_seq};
use super::{GameNo, Store, StoreError, Timestamp, UserId, db};

/// What a player offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OfferKind {
    /// To end the game drawn.
    Draw,
}

impl OfferKind {
    fn as_str(self) -> &'static str {
        match self {
            OfferKind::Draw => "draw",
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

/// Game `$1`'s offer of kind `$2`, if it still stands: the game is active and the offer's
/// maker has not moved since.
const STANDING: &str = "\
SELECT o.user_id, o.seq, o.offered_at FROM game_offers o JOIN games g ON g.id = o.game_id
WHERE o.game_id = $1 AND o.kind = $2 AND g.status = 'active'
  AND NOT EXISTS (SELECT 1 FROM actions a
                  WHERE a.game_id = o.game_id AND a.seq > o.seq AND a.actor_id = o.user_id)";

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
        if matches!(tx, Tx::Postgres(_)) {
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
