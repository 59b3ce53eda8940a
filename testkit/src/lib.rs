//! What Tabula's tests and benchmarks share, in a crate of its own so that every other crate
//! may take it as a dev-dependency without a cycle, and no crate ships it: today one small
//! seeded generator, [`Lcg`].
//!
//! The rules crate is kept free of randomness (docs/DESIGN.md), so the generator does not live
//! there behind a feature.

/// A small deterministic generator for tests and benchmarks: dice scripts, the choice of moves.
///
/// A 64-bit linear congruential generator (Knuth's MMIX multiplier and increment) whose output
/// is the top 31 bits of the state. The seed is the first state; the same seed gives the same
/// sequence on every platform, so a test's seed keeps its meaning. Not for anything that must
/// be unpredictable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lcg(pub u64);

impl Lcg {
    /// The next number, below 2³¹.
    #[allow(
        clippy::should_implement_trait,
        reason = "an endless generator of `u64`, not an iterator of `Option`s; the tests call it `next`"
    )]
    pub fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }

    /// A number below `bound` (0 when `bound` is 0): the next number modulo `bound`.
    pub fn below(&mut self, bound: usize) -> usize {
        usize::try_from(self.next()).unwrap_or(0) % bound.max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::Lcg;

    /// The numbers the four copies this replaces drew (worked out apart, in Python, from the
    /// definition), so that no test's seed changes meaning.
    #[test]
    fn the_sequence_of_a_seed_is_fixed() {
        let mut lcg = Lcg(1);
        let firsts: Vec<u64> = (0..4).map(|_| lcg.next()).collect();
        assert_eq!(
            firsts,
            [908_834_774, 1_093_944_153, 1_392_341_196, 822_192_870]
        );
        let mut lcg = Lcg(9);
        let picks: Vec<usize> = (0..6).map(|_| lcg.below(7)).collect();
        assert_eq!(picks, [5, 2, 0, 0, 4, 2]);
        assert_eq!(Lcg(3).below(0), 0);
    }
}
