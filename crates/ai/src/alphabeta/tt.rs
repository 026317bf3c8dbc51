//! The transposition table, shared by every thread of a search without
//! locks: each slot is two atomic words, the entry packed into one and the
//! key XOR the entry in the other, so a slot torn by two threads writing at
//! once reads as a miss instead of a wrong entry (the "lockless hashing" of
//! Hyatt and Mann).
//!
//! The best move is stored as its index in the position's move list in
//! generation order (first batch, then second: see
//! `Evaluate::first_moves`), which any game's move fits in, whatever the
//! size of its move type. A key collision can only name a wrong move,
//! which the search checks against the list it generates.

use std::sync::atomic::{AtomicU64, Ordering};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The score is exact (a PV node).
    Exact,
    /// The true score is at least this (a beta cut-off).
    Lower,
    /// The true score is at most this (no move raised alpha).
    Upper,
}

/// A decoded entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Index of the best move in generation order.
    pub best: Option<u32>,
    pub score: i32,
    pub depth: u8,
    pub bound: Bound,
    generation: u8,
}

/// Move indices up to this many fit (20 bits, zero meaning none).
pub const MAX_MOVE_INDEX: u32 = (1 << 20) - 2;

// Layout of the packed word: score in bits 0..32, move index + 1 in
// 32..52, depth 52..60, bound 60..62, generation 62..64.
const MOVE_SHIFT: u32 = 32;
const DEPTH_SHIFT: u32 = 52;
const BOUND_SHIFT: u32 = 60;
const GENERATION_SHIFT: u32 = 62;
const GENERATIONS: u8 = 4;

impl Entry {
    fn pack(self) -> u64 {
        let best = self.best.filter(|&i| i <= MAX_MOVE_INDEX).map_or(0, |i| u64::from(i) + 1);
        let bound = match self.bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        u64::from(self.score as u32)
            | best << MOVE_SHIFT
            | u64::from(self.depth) << DEPTH_SHIFT
            | bound << BOUND_SHIFT
            | u64::from(self.generation % GENERATIONS) << GENERATION_SHIFT
    }

    /// `None` for an empty slot.
    fn unpack(word: u64) -> Option<Entry> {
        let bound = match word >> BOUND_SHIFT & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            3 => Bound::Upper,
            _ => return None,
        };
        let best = (word >> MOVE_SHIFT & 0xF_FFFF) as u32;
        Some(Entry {
            best: best.checked_sub(1),
            score: word as u32 as i32,
            depth: (word >> DEPTH_SHIFT & 0xFF) as u8,
            bound,
            generation: (word >> GENERATION_SHIFT) as u8,
        })
    }
}

struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

pub struct Table {
    slots: Box<[Slot]>,
    mask: usize,
    generation: AtomicU64,
}

impl Table {
    /// A table of about `megabytes` (rounded down to a power-of-two slot count).
    pub fn new(megabytes: usize) -> Table {
        let bytes = megabytes.max(1) << 20;
        let wanted = (bytes / size_of::<Slot>()).max(1024);
        let count = 1usize << (usize::BITS - 1 - wanted.leading_zeros());
        let slots = (0..count).map(|_| Slot { check: AtomicU64::new(0), data: AtomicU64::new(0) }).collect();
        Table { slots, mask: count - 1, generation: AtomicU64::new(0) }
    }

    pub fn clear(&self) {
        for slot in self.slots.iter() {
            slot.check.store(0, Ordering::Relaxed);
            slot.data.store(0, Ordering::Relaxed);
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Called at the start of each search, so that entries of old searches
    /// give way to new ones.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    fn generation(&self) -> u8 {
        (self.generation.load(Ordering::Relaxed) % u64::from(GENERATIONS)) as u8
    }

    #[inline]
    fn slot(&self, key: u64) -> &Slot {
        &self.slots[key as usize & self.mask]
    }

    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let slot = self.slot(key);
        let data = slot.data.load(Ordering::Relaxed);
        let check = slot.check.load(Ordering::Relaxed);
        if check ^ data != key {
            return None;
        }
        Entry::unpack(data)
    }

    #[inline]
    pub fn store(&self, key: u64, best: Option<u32>, score: i32, depth: i32, bound: Bound) {
        let generation = self.generation();
        let slot = self.slot(key);
        let old_data = slot.data.load(Ordering::Relaxed);
        let old_key = slot.check.load(Ordering::Relaxed) ^ old_data;
        let depth = depth.clamp(0, 255) as u8;
        let mut best = best;
        if let Some(old) = Entry::unpack(old_data) {
            let same = old_key == key;
            // Keep a deeper entry of this search for another position;
            // always refresh the same position, and replace stale entries.
            if !same && old.generation == generation && old.depth > depth {
                return;
            }
            // Keep the old best move when the new search found none.
            if same && best.is_none() {
                best = old.best;
            }
        }
        let data = Entry { best, score, depth, bound, generation }.pack();
        slot.data.store(data, Ordering::Relaxed);
        slot.check.store(key ^ data, Ordering::Relaxed);
    }
}

/// Win scores are stored relative to the node (distance from here) and read
/// back relative to the root, so a transposition at another ply keeps the
/// right distance to the win.
#[inline]
pub fn to_table(score: i32, ply: usize, win_zone: i32) -> i32 {
    if score >= win_zone {
        score + ply as i32
    } else if score <= -win_zone {
        score - ply as i32
    } else {
        score
    }
}

#[inline]
pub fn from_table(score: i32, ply: usize, win_zone: i32) -> i32 {
    if score >= win_zone {
        score - ply as i32
    } else if score <= -win_zone {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_survive_packing() {
        for entry in [
            Entry { best: None, score: -999_990, depth: 0, bound: Bound::Upper, generation: 3 },
            Entry { best: Some(0), score: 12, depth: 7, bound: Bound::Exact, generation: 0 },
            Entry { best: Some(MAX_MOVE_INDEX), score: i32::MAX, depth: 255, bound: Bound::Lower, generation: 1 },
        ] {
            assert_eq!(Entry::unpack(entry.pack()), Some(entry));
        }
        assert_eq!(Entry::unpack(0), None);
    }

    #[test]
    fn a_stored_entry_is_found_by_its_key_only() {
        let table = Table::new(1);
        table.new_search();
        table.store(0xdead_beef, Some(5), -40, 6, Bound::Lower);
        let found = table.probe(0xdead_beef).expect("stored");
        assert_eq!((found.best, found.score, found.depth, found.bound), (Some(5), -40, 6, Bound::Lower));
        // Same slot, other key: a miss, not the other position's entry.
        assert_eq!(table.probe(0xdead_beef + (1 << 40)), None);
        // A shallower entry of the same search for another position in the
        // slot gives way to nothing; the same position is refreshed and
        // keeps its move when the new result has none.
        table.store(0xdead_beef + (1 << 40), Some(1), 0, 2, Bound::Exact);
        assert_eq!(table.probe(0xdead_beef).map(|e| e.depth), Some(6));
        table.store(0xdead_beef, None, 3, 8, Bound::Upper);
        assert_eq!(table.probe(0xdead_beef).and_then(|e| e.best), Some(5));
        table.clear();
        assert_eq!(table.probe(0xdead_beef), None);
    }
}
