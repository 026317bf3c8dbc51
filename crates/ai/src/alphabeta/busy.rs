//! The moves other threads are searching right now, so that a thread can
//! put such a move off and search its other moves first ("simplified
//! ABDADA", after Kerrigan): by the time it comes back to the move, the
//! other thread has usually stored its result in the transposition table.
//! Without it, two Lazy SMP threads often walk the same subtree in step.
//!
//! A small direct-mapped table of atomic words, each holding the hash of a
//! (position, move) pair being searched. Two pairs sharing a slot only cost
//! a move put off for nothing, or searched twice at once, never a wrong
//! result.

use std::sync::atomic::{AtomicU64, Ordering};

/// Slots in the table: far more than two threads ever mark at once.
const SLOTS: usize = 1 << 15;

pub struct BusyMoves {
    slots: Box<[AtomicU64]>,
}

impl BusyMoves {
    pub fn new() -> BusyMoves {
        BusyMoves { slots: (0..SLOTS).map(|_| AtomicU64::new(0)).collect() }
    }

    /// The hash naming `move_index` (the move's place in generation order)
    /// in the position with key `position`; never 0, which marks a free slot.
    #[inline]
    pub fn pair(position: u64, move_index: u32) -> u64 {
        let mixed = position ^ (u64::from(move_index) + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        mixed.max(1)
    }

    #[inline]
    fn slot(&self, pair: u64) -> &AtomicU64 {
        // Multiplied so that every bit of the pair picks the slot (the
        // low bits of a position key alone also pick its transposition-
        // table slot, and a small game's keys differ only there).
        &self.slots[(pair.wrapping_mul(0xff51_afd7_ed55_8ccd) >> (64 - SLOTS.trailing_zeros())) as usize]
    }

    /// Whether some thread is searching this pair.
    #[inline]
    pub fn is_busy(&self, pair: u64) -> bool {
        self.slot(pair).load(Ordering::Relaxed) == pair
    }

    /// This thread starts searching the pair.
    #[inline]
    pub fn enter(&self, pair: u64) {
        self.slot(pair).store(pair, Ordering::Relaxed);
    }

    /// This thread is done with the pair (unless another pair took the slot).
    #[inline]
    pub fn leave(&self, pair: u64) {
        let _ = self.slot(pair).compare_exchange(pair, 0, Ordering::Relaxed, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pair_is_busy_from_enter_to_leave() {
        let busy = BusyMoves::new();
        let pair = BusyMoves::pair(0x1234_5678_9abc_def0, 3);
        assert!(!busy.is_busy(pair));
        busy.enter(pair);
        assert!(busy.is_busy(pair));
        assert!(!busy.is_busy(BusyMoves::pair(0x1234_5678_9abc_def0, 4)));
        busy.leave(pair);
        assert!(!busy.is_busy(pair));
        assert_ne!(BusyMoves::pair(0, 0), 0);
    }
}
