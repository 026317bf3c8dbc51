//! Counts of a game's position keys by bucket, so that a repetition test
//! can skip scanning the history when the current position cannot have
//! occurred often enough.
//!
//! A game that keeps the positions it went through (for undo) tests a
//! threefold repetition by scanning them, every ply. Most positions have
//! never occurred before; counting every key's low bits in a small table
//! tells so at once. Only when the current key's bucket holds enough
//! positions does the game need to scan (a bucket may also count other
//! positions sharing its bits: the count is an upper bound).

/// Buckets: few enough to copy with the game, enough that a game's
/// positions rarely share one.
const BUCKETS: usize = 1024;

/// How many positions of a game (those played through and the current
/// one) have a key in each bucket.
#[derive(Clone, PartialEq, Eq)]
pub struct KeyCounts(Box<[u16; BUCKETS]>);

impl KeyCounts {
    /// The counts of a game that starts at the position with `key`.
    pub fn starting_at(key: u64) -> KeyCounts {
        let mut counts = KeyCounts(Box::new([0; BUCKETS]));
        counts.enter(key);
        counts
    }

    /// The counts of the positions with these keys (for invariant checks).
    pub fn of(keys: impl IntoIterator<Item = u64>) -> KeyCounts {
        let mut counts = KeyCounts(Box::new([0; BUCKETS]));
        for key in keys {
            counts.enter(key);
        }
        counts
    }

    /// A position with `key` was reached (a move was played).
    #[inline]
    pub fn enter(&mut self, key: u64) {
        let count = &mut self.0[Self::bucket(key)];
        *count = count.wrapping_add(1);
    }

    /// The position with `key` was left back to the one before it (a move
    /// was undone).
    #[inline]
    pub fn leave(&mut self, key: u64) {
        let count = &mut self.0[Self::bucket(key)];
        *count = count.wrapping_sub(1);
    }

    /// Whether the position with `key` (one of those counted) may have
    /// occurred `times` times: false means it certainly has not.
    #[inline]
    pub fn may_have_occurred(&self, key: u64, times: u16) -> bool {
        self.0[Self::bucket(key)] >= times
    }

    #[inline]
    fn bucket(key: u64) -> usize {
        key as usize % BUCKETS
    }
}

impl std::fmt::Debug for KeyCounts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let used = self.0.iter().filter(|&&count| count > 0).count();
        write!(f, "KeyCounts({used} buckets in use)")
    }
}

#[cfg(test)]
mod tests {
    use super::KeyCounts;

    #[test]
    fn counts_follow_the_moves_and_rule_out_what_has_not_occurred() {
        let mut counts = KeyCounts::starting_at(7);
        assert!(counts.may_have_occurred(7, 1) && !counts.may_have_occurred(7, 2));
        counts.enter(99);
        counts.enter(7);
        counts.enter(7 + 1024 * 5);
        assert!(counts.may_have_occurred(7, 3), "a bucket counts every key with its low bits");
        assert!(!counts.may_have_occurred(99, 2));
        counts.leave(7 + 1024 * 5);
        counts.leave(7);
        assert_eq!(counts, KeyCounts::of([7, 99]));
        assert!(!counts.may_have_occurred(7, 2));
    }
}
