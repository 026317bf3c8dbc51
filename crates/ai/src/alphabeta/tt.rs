//! The transposition table: one entry per slot, indexed by the position
//! hash mixed with the actor, holding the best move, a bounded score and the
//! depth it was searched to.

use std::mem::size_of;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The score is exact (a PV node).
    Exact,
    /// The true score is at least this (a beta cut-off).
    Lower,
    /// The true score is at most this (no move raised alpha).
    Upper,
}

#[derive(Clone, Copy, Debug)]
pub struct Entry<M> {
    pub key: u64,
    pub best: Option<M>,
    pub score: i32,
    pub depth: i16,
    pub bound: Bound,
    generation: u8,
}

pub struct Table<M> {
    slots: Vec<Option<Entry<M>>>,
    mask: usize,
    generation: u8,
}

impl<M: Copy> Table<M> {
    /// A table of about `megabytes` (rounded down to a power-of-two slot count).
    pub fn new(megabytes: usize) -> Table<M> {
        let bytes = megabytes.max(1) << 20;
        let wanted = (bytes / size_of::<Option<Entry<M>>>()).max(1024);
        let slots = 1usize << (usize::BITS - 1 - wanted.leading_zeros());
        Table { slots: vec![None; slots], mask: slots - 1, generation: 0 }
    }

    pub fn clear(&mut self) {
        self.slots.iter_mut().for_each(|slot| *slot = None);
        self.generation = 0;
    }

    /// Called at the start of each search, so that entries of old searches
    /// give way to new ones.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    #[inline]
    pub fn probe(&self, key: u64) -> Option<&Entry<M>> {
        self.slots[key as usize & self.mask].as_ref().filter(|e| e.key == key)
    }

    #[inline]
    pub fn store(&mut self, key: u64, best: Option<M>, score: i32, depth: i16, bound: Bound) {
        let generation = self.generation;
        let slot = &mut self.slots[key as usize & self.mask];
        if let Some(old) = slot {
            // Keep a deeper entry of this search for another position;
            // always refresh the same position, and replace stale entries.
            if old.key != key && old.generation == generation && old.depth > depth {
                return;
            }
            // Keep the old best move when the new search found none.
            let best = best.or(if old.key == key { old.best } else { None });
            *old = Entry { key, best, score, depth, bound, generation };
        } else {
            *slot = Some(Entry { key, best, score, depth, bound, generation });
        }
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
