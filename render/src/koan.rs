//! Koan pictures (not drawn yet: the plain fallback picture).

use tabula_core::Applied;
use tabula_core::koan::Koan;

use crate::scene::Scene;

/// The scene of a Koan position, with the last action highlighted.
pub fn scene(game: &Koan, last: Option<&Applied<Koan>>) -> Scene {
    let subtitle = last
        .map(|(_, events)| {
            events
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("; ")
        })
        .unwrap_or_default();
    crate::fallback::scene(game, &subtitle)
}
