//! Suggestions while a command is typed (Discord's autocomplete): the legal moves of the
//! caller's game, filtered by what has been typed.

use tabula_core::Status;

use super::{Failure, Request, Service, ServiceError, holder};
use crate::store::GameNo;

/// The most suggestions a platform shows (Discord: 25 choices).
pub const MAX_SUGGESTIONS: usize = 25;

/// The longest suggestion (Discord: a choice's name and value within 100 characters).
pub const MAX_SUGGESTION_CHARS: usize = 100;

impl Service {
    /// The legal moves the caller may type now in the game `number` (or the game the caller is
    /// to move in, as `/move` picks it), those starting with `typed` first, then those
    /// containing it, case-insensitively; at most [`MAX_SUGGESTIONS`], each within
    /// [`MAX_SUGGESTION_CHARS`]. Nothing when the caller is not to move, the game is unknown
    /// or ambiguous, or dice are being rolled: autocomplete stays silent, and the command
    /// itself explains.
    ///
    /// # Errors
    /// Internal failures only (the database).
    pub async fn suggest_moves(
        &self,
        request: &Request,
        number: Option<i64>,
        typed: &str,
    ) -> Result<Vec<String>, ServiceError> {
        let ctx = self.ctx_of(request).await?;
        let number = number.map(|n| GameNo(n.max(0)));
        let loaded = match self.pick_game(&ctx, number, true).await {
            Ok(game) => match self.load(&ctx, game).await {
                Ok(loaded) => loaded,
                Err(Failure::User(_)) => return Ok(Vec::new()),
                Err(Failure::Internal(error)) => return Err(error),
            },
            Err(Failure::User(_)) => return Ok(Vec::new()),
            Err(Failure::Internal(error)) => return Err(error),
        };
        if loaded.record.status != crate::store::GameStatus::Active {
            return Ok(Vec::new());
        }
        let Status::Decision(seat) = loaded.state.status() else {
            return Ok(Vec::new());
        };
        if holder(&loaded.record, seat).is_none_or(|user| user.id != ctx.user.id) {
            return Ok(Vec::new());
        }
        Ok(filter(loaded.state.legal_lines(), typed))
    }
}

/// The lines starting with `typed`, then those containing it (case-insensitively), at most
/// [`MAX_SUGGESTIONS`], none longer than [`MAX_SUGGESTION_CHARS`].
fn filter(lines: Vec<String>, typed: &str) -> Vec<String> {
    let typed = typed.trim().to_lowercase();
    let fits = |line: &String| line.chars().count() <= MAX_SUGGESTION_CHARS;
    let (starting, rest): (Vec<String>, Vec<String>) = lines
        .into_iter()
        .filter(fits)
        .partition(|line| line.to_lowercase().starts_with(&typed));
    let containing = rest
        .into_iter()
        .filter(|line| line.to_lowercase().contains(&typed));
    starting
        .into_iter()
        .chain(containing)
        .take(MAX_SUGGESTIONS)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions_prefer_what_starts_with_the_typed_text() {
        let lines: Vec<String> = ["d4-f4", "f6-d6", "b4-d4", "D4-D6"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(filter(lines.clone(), "d4"), ["d4-f4", "D4-D6", "b4-d4"]);
        assert_eq!(filter(lines.clone(), ""), lines);
        assert!(filter(lines, "zz").is_empty());
        let many: Vec<String> = (0..40).map(|i| format!("m{i}")).collect();
        assert_eq!(filter(many, "m").len(), MAX_SUGGESTIONS);
        assert!(filter(vec!["x".repeat(101)], "").is_empty());
    }
}
