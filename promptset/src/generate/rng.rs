//! A tiny seeded PRNG (SplitMix64) for choosing template variants.
//!
//! Our own rather than a crate's so that the same brief and seed give byte-identical
//! output across dependency upgrades: the sequence is fixed by this file alone.

/// SplitMix64: 64 bits of state, passes BigCrush, trivially reproducible.
#[derive(Debug, Clone)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator for `seed`, decorrelated from other streams by `stream` (e.g. a hash
    /// of the topic name), so adding a topic does not reshuffle the others.
    pub fn new(seed: u64, stream: u64) -> Self {
        let mut rng = SplitMix64 {
            state: seed ^ stream.rotate_left(29) ^ 0x6A09_E667_F3BC_C908,
        };
        rng.next_u64();
        rng
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..bound` (`0` when `bound` is 0).
    pub fn below(&mut self, bound: usize) -> usize {
        if bound == 0 {
            return 0;
        }
        // Multiply-shift keeps the bias negligible for the tiny bounds used here.
        ((u128::from(self.next_u64()) * bound as u128) >> 64) as usize
    }

    /// Shuffles `items` in place (Fisher-Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
}

/// FNV-1a, a stable hash for naming RNG streams.
pub fn stable_hash(text: &str) -> u64 {
    let mut hash: u64 = 0xCBF2_9CE4_8422_2325;
    for byte in text.as_bytes() {
        hash ^= u64::from(*byte);
        hash = hash.wrapping_mul(0x0100_0000_01B3);
    }
    hash
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sequence_is_fixed() {
        let mut rng = SplitMix64::new(42, stable_hash("topic"));
        let first: Vec<u64> = (0..3).map(|_| rng.next_u64()).collect();
        let mut again = SplitMix64::new(42, stable_hash("topic"));
        let second: Vec<u64> = (0..3).map(|_| again.next_u64()).collect();
        assert_eq!(first, second);
        let mut other = SplitMix64::new(43, stable_hash("topic"));
        assert_ne!(first[0], other.next_u64());
    }

    #[test]
    fn below_stays_in_range() {
        let mut rng = SplitMix64::new(7, 0);
        for bound in 1..50 {
            assert!(rng.below(bound) < bound);
        }
        assert_eq!(rng.below(0), 0);
    }
}
