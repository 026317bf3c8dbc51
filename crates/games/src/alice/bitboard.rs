//! A set of cells of one 6×7 board, one bit per cell (bits 0..42).

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bitboard(pub u64);

/// Every cell of a board.
pub const ALL: Bitboard = Bitboard((1u64 << 42) - 1);

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard(0);

    #[inline]
    pub const fn cell(cell: usize) -> Bitboard {
        Bitboard(1u64 << cell)
    }

    #[inline]
    pub const fn has(self, cell: usize) -> bool {
        self.0 >> cell & 1 != 0
    }

    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    #[inline]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// The lowest cell (the set must not be empty).
    #[inline]
    pub const fn first(self) -> usize {
        self.0.trailing_zeros() as usize
    }

    /// Shifts towards higher cells (`n` > 0) or lower ones, dropping what
    /// leaves the board. Callers mask off file wrap-around themselves.
    #[inline]
    pub const fn shift(self, n: i32) -> Bitboard {
        if n >= 0 {
            Bitboard((self.0 << n) & ALL.0)
        } else {
            Bitboard(self.0 >> -n)
        }
    }
}

impl Iterator for Bitboard {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let cell = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(cell)
    }
}

macro_rules! bit_op {
    ($trait:ident, $method:ident, $assign_trait:ident, $assign_method:ident, $op:tt) => {
        impl $trait for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $method(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $assign_trait for Bitboard {
            #[inline]
            fn $assign_method(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}

bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    /// The complement within the board (never sets bits 42..64).
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & ALL.0)
    }
}
