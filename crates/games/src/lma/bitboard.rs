//! A set of cells of one 6×7 board, one bit per cell (bits 0..42).

use super::square::CELLS;

menagerie_core::bitboard! {
    pub struct Bitboard(u64);
    all = (1 << CELLS) - 1;
}

impl Bitboard {
    /// Shifts towards higher cells (`n` > 0) or lower ones, dropping what
    /// leaves the board. Callers mask off file wrap-around themselves.
    #[inline]
    pub const fn shift(self, n: i32) -> Bitboard {
        if n >= 0 {
            Bitboard((self.0 << n) & Bitboard::ALL.0)
        } else {
            Bitboard(self.0 >> -n)
        }
    }
}
