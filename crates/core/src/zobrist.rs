//! Deterministic pseudo-random keys for Zobrist hashing, computed at compile
//! time so that every game's hash tables are constants.

/// SplitMix64: a good, tiny generator for key tables.
pub const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

/// `N` keys from `seed`; use a different seed per table.
pub const fn keys<const N: usize>(seed: u64) -> [u64; N] {
    let mut out = [0u64; N];
    let mut state = seed;
    let mut i = 0;
    while i < N {
        let (next, key) = splitmix64(state);
        state = next;
        out[i] = key;
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn keys_are_distinct_and_depend_on_seed() {
        const A: [u64; 64] = super::keys(1);
        const B: [u64; 64] = super::keys(2);
        let mut sorted = A.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), 64);
        assert_ne!(A, B);
    }
}
