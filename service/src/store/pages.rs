//! Games' web pages (issue 41): each game's page token, made once and kept with the game, and
//! the game a token's hash names.

use super::executor::{query, query_scalar};
use super::{GameNo, Store, StoreError, db};

const SET_TOKEN: &str = "\
UPDATE games SET page_token = $1, page_token_hash = $2 WHERE id = $3 AND page_token IS NULL";

const TOKEN: &str = "SELECT page_token FROM games WHERE id = $1";

const BY_HASH: &str = "SELECT id FROM games WHERE page_token_hash = $1";

impl Store {
    /// The page token of `game`: the one it has, or else `fresh` (with its hash), kept from now
    /// on (of two first askers at once, the first write wins and both read it back). `None` for
    /// a game that does not exist.
    ///
    /// # Errors
    /// A database failure.
    pub async fn page_token(
        &self,
        game: GameNo,
        fresh: &str,
        fresh_hash: &str,
    ) -> Result<Option<String>, StoreError> {
        // Read first: every board asks, and only the first one writes.
        let token: Option<Option<String>> = query_scalar(TOKEN)
            .bind(game.0)
            .fetch_optional(self)
            .await
            .map_err(db("page_token"))?;
        match token {
            None => return Ok(None),
            Some(Some(token)) => return Ok(Some(token)),
            Some(None) => {}
        }
        query(SET_TOKEN)
            .bind(fresh)
            .bind(fresh_hash)
            .bind(game.0)
            .execute(self)
            .await
            .map_err(db("page_token"))?;
        let token: Option<Option<String>> = query_scalar(TOKEN)
            .bind(game.0)
            .fetch_optional(self)
            .await
            .map_err(db("page_token"))?;
        Ok(token.flatten())
    }

    /// The game whose page token has the SHA-256 `hash` (hex).
    ///
    /// # Errors
    /// A database failure.
    pub async fn game_by_page(&self, hash: &str) -> Result<Option<GameNo>, StoreError> {
        let id: Option<i64> = query_scalar(BY_HASH)
            .bind(hash)
            .fetch_optional(self)
            .await
            .map_err(db("game_by_page"))?;
        Ok(id.map(GameNo))
    }
}
