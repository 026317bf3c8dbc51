//! Sets of squares as the low 100 bits of a `u128`, bit = square index.

use super::square::Square;

menagerie_core::bitboard! {
    pub struct Bitboard(u128);
    all = ALL;
    square = Square, |sq| sq.index(), |index| Square::new(index as u8);
}

/// Files 0 and 9, to stop sideways shifts wrapping round the board edge.
const FILE_0: u128 = {
    let mut b = 0u128;
    let mut r = 0;
    while r < 10 {
        b |= 1u128 << (r * 10);
        r += 1;
    }
    b
};
const FILE_9: u128 = FILE_0 << 9;
const ALL: u128 = (1u128 << 100) - 1;

impl Bitboard {
    /// Every square of the given ranks (0 = A).
    pub const fn ranks(first: u8, last: u8) -> Bitboard {
        let mut b = 0u128;
        let mut r = first;
        while r <= last {
            b |= 0x3FFu128 << (r as u32 * 10);
            r += 1;
        }
        Bitboard(b)
    }

    /// Towards rank A (one rank up the text).
    #[inline]
    pub const fn north(self) -> Bitboard {
        Bitboard(self.0 >> 10)
    }

    /// Towards rank J.
    #[inline]
    pub const fn south(self) -> Bitboard {
        Bitboard((self.0 << 10) & ALL)
    }

    /// Towards file 9.
    #[inline]
    pub const fn east(self) -> Bitboard {
        Bitboard((self.0 & !FILE_9) << 1)
    }

    /// Towards file 0.
    #[inline]
    pub const fn west(self) -> Bitboard {
        Bitboard((self.0 & !FILE_0) >> 1)
    }

    /// The squares edge-adjacent to some square of the set.
    #[inline]
    pub const fn orthogonal_neighbours(self) -> Bitboard {
        Bitboard(self.north().0 | self.south().0 | self.east().0 | self.west().0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifts_do_not_wrap() {
        let a9 = Bitboard::from_square(Square::at(0, 9));
        assert!(a9.east().is_empty());
        assert_eq!(a9.west(), Bitboard::from_square(Square::at(0, 8)));
        assert_eq!(a9.south(), Bitboard::from_square(Square::at(1, 9)));
        assert!(a9.north().is_empty());
        let j0 = Bitboard::from_square(Square::at(9, 0));
        assert!(j0.west().is_empty() && j0.south().is_empty());
        assert_eq!(Bitboard::ALL.count(), 100);
        assert_eq!(Bitboard::ranks(0, 1).count(), 20);
    }
}
