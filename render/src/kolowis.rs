//! Kolowis pictures (not drawn yet: the plain fallback picture).

use tabula_core::Applied;
use tabula_core::kolowis::Kolowis;

use crate::scene::Scene;

/// The scene of a Kolowis position, with the last action highlighted.
pub fn scene(game: &Kolowis, last: Option<&Applied<Kolowis>>) -> Scene {
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
