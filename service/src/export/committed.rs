//! Committed dice: the k-th roll of a game derived from its seed.
//!
//! The derivation (also written in the README, so that anyone can check a game with their own
//! code): for the k-th roll of the game (k counts every roll from 0, the roll-off included),
//! with the outcomes in the order the engine lists them (the order `tabula rules legal`
//! prints) and their integer weights summing to W: for j = 0, 1, 2, …, let x be the first
//! 8 bytes, read big-endian as an unsigned 64-bit number, of HMAC-SHA256 with the seed as key
//! over the ASCII text `<salt>:<k>:<j>`; take the first x below 2^64 − (2^64 mod W); the
//! outcome is the first whose running total of weights exceeds x mod W.

use std::fmt;

use hmac::{Hmac, KeyInit, Mac};
use sha2::{Digest, Sha256};

/// A game's secret seed: 32 bytes from the operating system's secure generator.
#[derive(Clone, PartialEq, Eq)]
pub struct Seed(pub [u8; 32]);

impl fmt::Debug for Seed {
    // A seed is secret until its game ends: never in logs.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Seed(…)")
    }
}

impl Seed {
    /// A fresh seed from the operating system's secure generator.
    ///
    /// # Errors
    /// The generator failed.
    pub fn fresh() -> Result<Seed, rand::rand_core::OsError> {
        use rand::TryRngCore;
        let mut bytes = [0u8; 32];
        rand::rngs::OsRng.try_fill_bytes(&mut bytes)?;
        Ok(Seed(bytes))
    }

    /// The seed as 64 lower-case hex digits.
    pub fn to_hex(&self) -> String {
        hex(&self.0)
    }

    /// A seed written as 64 hex digits (either case); `None` for anything else.
    pub fn from_hex(text: &str) -> Option<Seed> {
        let text = text.as_bytes();
        if text.len() != 64 {
            return None;
        }
        let mut bytes = [0u8; 32];
        for (byte, pair) in bytes.iter_mut().zip(text.chunks(2)) {
            let digits = std::str::from_utf8(pair).ok()?;
            *byte = u8::from_str_radix(digits, 16).ok()?;
        }
        Some(Seed(bytes))
    }
}

/// Bytes as lower-case hex.
fn hex(bytes: &[u8]) -> String {
    use fmt::Write;
    let mut out = String::with_capacity(bytes.len() * 2);
    for byte in bytes {
        let _ = write!(out, "{byte:02x}");
    }
    out
}

/// The commitment to a seed: `SHA-256(seed)`, lower-case hex.
pub fn commitment(seed: &Seed) -> String {
    hex(&Sha256::digest(seed.0))
}

/// The commitment to a seed written as hex (as the store keeps it); a malformed seed (never
/// written by the bot) commits to nothing and shows `?`.
pub fn commitment_of_hex(seed: &str) -> String {
    Seed::from_hex(seed).map_or_else(|| "?".into(), |seed| commitment(&seed))
}

/// The index of the k-th roll's outcome among outcomes of these weights (in the engine's
/// order), derived from `seed` and `salt`; `None` when the weights sum to zero (or overflow).
pub fn derive_roll(seed: &Seed, salt: &str, k: u64, weights: &[u64]) -> Option<usize> {
    let total = weights
        .iter()
        .try_fold(0u64, |sum, weight| sum.checked_add(*weight))?;
    if total == 0 {
        return None;
    }
    // 2^64 − (2^64 mod W), in 128 bits: when W divides 2^64 every x is taken.
    let span = 1u128 << 64;
    let bound = span - span % u128::from(total);
    let mut j: u64 = 0;
    let x = loop {
        let x = draw(seed, salt, k, j);
        if u128::from(x) < bound {
            break x;
        }
        // Each x is taken with a probability above one half: this ends.
        j += 1;
    };
    let value = x % total;
    let mut running = 0u64;
    weights.iter().position(|weight| {
        running += weight;
        value < running
    })
}

/// The j-th candidate number of the k-th roll: the first 8 bytes, big-endian, of
/// HMAC-SHA256(seed, `<salt>:<k>:<j>`).
pub fn draw(seed: &Seed, salt: &str, k: u64, j: u64) -> u64 {
    // HMAC takes a key of any length.
    let Ok(mut mac) = Hmac::<Sha256>::new_from_slice(&seed.0) else {
        unreachable!("HMAC accepts keys of every length")
    };
    mac.update(format!("{salt}:{k}:{j}").as_bytes());
    let bytes = mac.finalize().into_bytes();
    let mut first = [0u8; 8];
    first.copy_from_slice(&bytes[..8]);
    u64::from_be_bytes(first)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The seed 00 01 02 … 1f. The expected values below were computed from the definition in
    /// this module's documentation with Python's `hmac` and `hashlib`, not with this code.
    fn seed() -> Seed {
        let mut bytes = [0u8; 32];
        for (i, byte) in bytes.iter_mut().enumerate() {
            *byte = u8::try_from(i).unwrap_or(0);
        }
        Seed(bytes)
    }

    /// Pachisi's cowries: weights 1, 6, 15, 20, 15, 6, 1 (W = 64 divides 2^64: no rejection).
    const COWRIES: [u64; 7] = [1, 6, 15, 20, 15, 6, 1];

    /// Coan Ki's 21 throws in the order (1,1), (1,2), …, (6,6): a double 1, any other pair 2.
    fn throws() -> Vec<u64> {
        let mut weights = Vec::new();
        for lo in 1..=6 {
            for hi in lo..=6 {
                weights.push(if lo == hi { 1 } else { 2 });
            }
        }
        weights
    }

    #[test]
    fn the_commitment_is_the_sha256_of_the_seed() {
        assert_eq!(
            commitment(&seed()),
            "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
        );
        assert_eq!(Seed::from_hex(&seed().to_hex()), Some(seed()));
        assert_eq!(
            Seed::from_hex(&seed().to_hex().to_uppercase()),
            Some(seed())
        );
        assert_eq!(Seed::from_hex("00"), None);
        assert_eq!(Seed::from_hex(&"g".repeat(64)), None);
    }

    #[test]
    fn a_draw_is_the_first_eight_bytes_of_the_hmac_big_endian() {
        assert_eq!(draw(&seed(), "7:none", 0, 0), 13_542_106_195_244_721_606);
    }

    #[test]
    fn rolls_follow_fixed_vectors() {
        let pachisi: Vec<usize> = (0..6)
            .filter_map(|k| derive_roll(&seed(), "12:cbq-4411", k, &COWRIES))
            .collect();
        assert_eq!(pachisi, vec![3, 1, 2, 4, 4, 2]);
        let coan_ki: Vec<usize> = (0..6)
            .filter_map(|k| derive_roll(&seed(), "3:none", k, &throws()))
            .collect();
        assert_eq!(coan_ki, vec![10, 7, 17, 14, 13, 19]);
    }

    #[test]
    fn rejected_draws_are_skipped() {
        // W = 2^63 + 1: x is refused from 2^63 + 1 on, about half of the draws.
        let weights = [1u64 << 62, (1u64 << 63) + 1 - (1u64 << 62)];
        let bound = (1u64 << 63) + 1;
        // k = 8: j = 0 and 1 are refused, j = 2 gives 8524212968725751735, the second outcome.
        // Without the rejection, j = 0 (10712649647110636100) would have given the first.
        assert_eq!(draw(&seed(), "9:none", 8, 0), 10_712_649_647_110_636_100);
        assert!(draw(&seed(), "9:none", 8, 0) >= bound);
        assert!(draw(&seed(), "9:none", 8, 1) >= bound);
        assert_eq!(draw(&seed(), "9:none", 8, 2), 8_524_212_968_725_751_735);
        assert_eq!(derive_roll(&seed(), "9:none", 8, &weights), Some(1));
        // k = 7 takes j = 7 (seven refusals).
        assert_eq!(derive_roll(&seed(), "9:none", 7, &weights), Some(1));
        // k = 5: one refusal, then 1587549899800884547, the first outcome.
        assert_eq!(derive_roll(&seed(), "9:none", 5, &weights), Some(0));
    }

    #[test]
    fn weights_of_zero_choose_nothing() {
        assert_eq!(derive_roll(&seed(), "1:none", 0, &[]), None);
        assert_eq!(derive_roll(&seed(), "1:none", 0, &[0, 0]), None);
        assert_eq!(derive_roll(&seed(), "1:none", 0, &[0, 3]), Some(1));
        assert_eq!(derive_roll(&seed(), "1:none", 0, &[u64::MAX, 1]), None);
    }
}
