//! Game records (issue 19): dice that anyone can check, the record file of `/export`, and
//! `tabula verify`.
//!
//! - [`committed`]: a game with chance has a 32-byte seed, drawn from the operating system when
//!   the challenge is made; its SHA-256 (the commitment) is shown before anyone accepts, every
//!   roll is derived from the seed by HMAC-SHA256 ([`derive_roll`]), and the seed is revealed
//!   when the game ends.
//! - [`file`]: the record as text, header lines `[Key "value"]` then one action per line.
//! - [`verify`]: replays a record with the rules and checks every action and every roll.
//!
//! Nothing here touches the store or a platform: the service builds a [`Record`] from a
//! game, and `tabula verify` reads one from a file.

pub mod committed;
pub mod file;
pub mod verify;

pub use committed::{Seed, commitment, commitment_of_hex, derive_roll};
pub use file::{ParseError, Record};
pub use verify::{Failure, Verified, verify};
