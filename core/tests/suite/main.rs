//! The rules crate's integration tests, in one binary (one link instead of one per file): a
//! module per game's scenarios (`shared/rules/<game>.md` section 12), the invariant suite over
//! seeded random playouts, the parsers' property tests, perft, the dice statistics, the
//! refusals and their English, and `AnyGame` against each game. See `docs/testing.md`.

mod common;

mod any;
mod coan_ki;
mod english;
mod invariants;
mod koan;
mod kolowis;
mod konane;
mod messages;
mod model;
mod pachisi;
mod parsers_never_panic;
mod perft;
mod refusals;
mod statistics;
