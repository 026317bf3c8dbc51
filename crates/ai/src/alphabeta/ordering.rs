//! Move ordering memory: killer moves per ply and a history table, keyed by
//! a hash of the move (the search knows moves only as opaque values).

use std::hash::{Hash, Hasher};

const HISTORY_BITS: u32 = 14;
const MAX_HISTORY: i32 = 1 << 20;

pub struct Ordering<M> {
    killers: Vec<[Option<M>; 2]>,
    history: Vec<i32>,
}

impl<M: Copy + Eq + Hash> Ordering<M> {
    pub fn new() -> Self {
        Ordering { killers: Vec::new(), history: vec![0; 1 << HISTORY_BITS] }
    }

    pub fn clear(&mut self) {
        self.killers.clear();
        self.history.iter_mut().for_each(|h| *h = 0);
    }

    /// Ages the history between searches so old successes fade.
    pub fn age(&mut self) {
        self.history.iter_mut().for_each(|h| *h /= 8);
        self.killers.iter_mut().for_each(|k| *k = [None, None]);
    }

    #[inline]
    pub fn is_killer(&self, ply: usize, mv: M) -> u8 {
        match self.killers.get(ply) {
            Some([Some(a), _]) if *a == mv => 2,
            Some([_, Some(b)]) if *b == mv => 1,
            _ => 0,
        }
    }

    #[inline]
    pub fn history(&self, mv: M) -> i32 {
        self.history[slot(mv)]
    }

    /// A quiet move caused a cut-off at `ply` with `depth` left.
    pub fn reward(&mut self, ply: usize, depth: i32, mv: M) {
        if self.killers.len() <= ply {
            self.killers.resize(ply + 1, [None, None]);
        }
        let killers = &mut self.killers[ply];
        if killers[0] != Some(mv) {
            killers[1] = killers[0];
            killers[0] = Some(mv);
        }
        let h = &mut self.history[slot(mv)];
        *h += depth * depth;
        if *h > MAX_HISTORY {
            self.history.iter_mut().for_each(|h| *h /= 2);
        }
    }
}

#[inline]
fn slot<M: Hash>(mv: M) -> usize {
    let mut hasher = FxHasher::default();
    mv.hash(&mut hasher);
    (hasher.finish() >> (64 - HISTORY_BITS)) as usize
}

/// A small multiplicative hasher (the Firefox/rustc one): moves are a few
/// bytes, and SipHash would cost more than ordering saves.
#[derive(Default)]
pub struct FxHasher(u64);

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.write_u64(u64::from(i));
    }
    #[inline]
    fn write_u16(&mut self, i: u16) {
        self.write_u64(u64::from(i));
    }
    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.write_u64(u64::from(i));
    }
    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    #[inline]
    fn write_u128(&mut self, i: u128) {
        self.write_u64(i as u64);
        self.write_u64((i >> 64) as u64);
    }
    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.write_u64(i as u64);
    }
    #[inline]
    fn finish(&self) -> u64 {
        // Spread the low bits into the high ones used for indexing.
        self.0.wrapping_mul(0x9e37_79b9_7f4a_7c15)
    }
}
