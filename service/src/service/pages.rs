//! Games' web pages (issue 41): with a public address (`TABULA_PUBLIC_URL`) and pages on in
//! the community (`/config pages=`, on by default), every board carries a link to its game's
//! page, `<public address>/g/<token>`; the token is 128 random bits kept with the game.

use sha2::{Digest, Sha256};

use super::{Goto, Handled, Place, Service};
use crate::l10n::Msg;
use crate::store::{GameNo, GameRecord};

/// The random bytes of a page token (128 bits).
const TOKEN_BYTES: usize = 16;

/// A fresh page token: lower-case hex of [`TOKEN_BYTES`] bytes from the system's randomness.
/// `None` when the system has none to give (no page then, rather than a guessable one).
fn fresh_token() -> Option<String> {
    use rand::TryRngCore;
    let mut bytes = [0u8; TOKEN_BYTES];
    rand::rngs::OsRng.try_fill_bytes(&mut bytes).ok()?;
    Some(hex(&bytes))
}

/// Bytes as lower-case hex.
fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    let mut out = String::with_capacity(bytes.len() * 2);
    for byte in bytes {
        let _ = write!(out, "{byte:02x}");
    }
    out
}

/// The hash a token is looked up by: SHA-256, lower-case hex.
pub fn token_hash(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

/// Whether `text` has the shape of a page token (32 lower-case hex digits).
pub fn is_token(text: &str) -> bool {
    text.len() == TOKEN_BYTES * 2 && text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

impl Service {
    /// Sets the bot's public address (`https://bot.example.org`): games get pages, and boards
    /// link to them.
    #[must_use]
    pub fn with_public_url(mut self, url: &str) -> Service {
        let url = url.trim().trim_end_matches('/');
        self.public_url = (!url.is_empty()).then(|| url.to_string());
        self
    }

    /// Whether games have pages at all (a public address is set).
    pub fn has_pages(&self) -> bool {
        self.public_url.is_some()
    }

    /// The address of `game`'s page, when it has one: a public address is set and its
    /// community has pages on. Makes the game's token the first time.
    pub(super) async fn page_url(&self, record: &GameRecord) -> Handled<Option<String>> {
        let Some(public) = &self.public_url else {
            return Ok(None);
        };
        if !self.store.settings(record.community).await?.pages {
            return Ok(None);
        }
        let Some(fresh) = fresh_token() else {
            tracing::error!("no system randomness for a page token: the board has no link");
            return Ok(None);
        };
        let token = self
            .store
            .page_token(record.id, &fresh, &token_hash(&fresh))
            .await?;
        Ok(token.map(|token| format!("{public}/g/{token}")))
    }

    /// The "Open the game" button of a board, when the game has a page.
    pub(super) async fn page_button(&self, record: &GameRecord) -> Handled<Option<Goto>> {
        Ok(self.page_url(record).await?.map(|url| Goto {
            label: String::new(),
            label_msg: Some(Msg::new("board-open-page")),
            to: Place::Web { url },
        }))
    }

    /// The game a page token names, when its page is to be shown: a public address is set,
    /// the token is one, and the game's community has pages on. Otherwise `None`, the same
    /// for a token that does not exist and a page turned off.
    ///
    /// # Errors
    /// A database failure.
    pub async fn game_of_page(&self, token: &str) -> Result<Option<GameNo>, super::ServiceError> {
        if self.public_url.is_none() || !is_token(token) {
            return Ok(None);
        }
        let Some(game) = self.store.game_by_page(&token_hash(token)).await? else {
            return Ok(None);
        };
        let Some(record) = self.store.game(game).await? else {
            return Ok(None);
        };
        if !self.store.settings(record.community).await?.pages {
            return Ok(None);
        }
        Ok(Some(game))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_128_random_bits_in_hex() {
        let tokens: Vec<String> = (0..64).filter_map(|_| fresh_token()).collect();
        assert_eq!(tokens.len(), 64);
        assert!(tokens.iter().all(|t| is_token(t)));
        let distinct: std::collections::BTreeSet<&String> = tokens.iter().collect();
        assert_eq!(distinct.len(), tokens.len());
        assert!(!is_token("1234") && !is_token(&"G".repeat(32)));
        assert_eq!(token_hash("abc").len(), 64);
        assert_ne!(token_hash(&tokens[0]), tokens[0]);
    }
}
