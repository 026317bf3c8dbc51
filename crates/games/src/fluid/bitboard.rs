//! Sets of squares as 64-bit masks, bit `i` = square `i`.

use super::square::Square;

menagerie_core::bitboard! {
    pub struct Bitboard(u64);
    all = !0;
    square = Square, |square| square.index(), |index| Square::new(index as u8);
}
