//! The set-of-squares newtype the bitboard games share.
//!
//! [`bitboard!`](crate::bitboard) writes the type into the game's own crate
//! rather than core offering one generic struct: a local type keeps its
//! methods `const`, lets each game add its board geometry (edge-aware shifts,
//! rank masks) as inherent methods, and compiles to the plain word operations
//! the hand-written versions did.

/// The index of the `n`-th lowest set bit of `byte` (`n` below its count;
/// 8 otherwise): the last step of the bitboards' `nth_index`.
#[doc(hidden)]
#[inline]
pub const fn nth_in_byte(byte: u8, n: u32) -> usize {
    NTH_IN_BYTE[byte as usize][n as usize & 7] as usize
}

/// `NTH_IN_BYTE[byte][n]`: the index of the `n`-th lowest set bit of
/// `byte`, or 8 where it has no more.
const NTH_IN_BYTE: [[u8; 8]; 256] = {
    let mut table = [[8u8; 8]; 256];
    let mut byte = 0;
    while byte < 256 {
        let (mut bit, mut found) = (0, 0);
        while bit < 8 {
            if byte >> bit & 1 == 1 {
                table[byte][found] = bit as u8;
                found += 1;
            }
            bit += 1;
        }
        byte += 1;
    }
    table
};

/// Declares a set of squares as a tuple struct over one unsigned word
/// (`u64`, `u128`…), bit `i` standing for square index `i`.
///
/// ```
/// menagerie_core::bitboard! {
///     /// The 42 cells of a 6×7 board.
///     pub struct Cells(u64);
///     all = (1 << 42) - 1;
/// }
/// let corners = Cells::from_index(0) | Cells::from_index(41);
/// assert_eq!(corners.into_iter().collect::<Vec<_>>(), [0, 41]);
/// assert_eq!((!corners).count(), 40);
/// ```
///
/// `all` is the mask of bits that are squares of the board: `ALL`, and what
/// `!` keeps, so a complement never invents squares off the board.
///
/// The type gets `EMPTY`, `ALL`, `from_index`, `contains_index`, `is_empty`,
/// `not_empty`, `count`, `lowest_index`, `highest_index`, the `&`, `|`, `^`
/// operators (and their assigning forms), `!`, and iterates over its members
/// from the lowest index up, yielding `usize`.
///
/// Optionally a game's own square type can stand for the index: with
/// `square = Square, |sq| sq.index(), |i| Square::new(i as u8);` (square to
/// index, index to square, both usable in `const fn`) the type also gets
/// `from_square`, `contains`, `lowest` and `highest`, and iterates over
/// `Square`s instead.
#[macro_export]
macro_rules! bitboard {
    (
        $(#[$attr:meta])*
        $vis:vis struct $name:ident($word:ty);
        all = $all:expr;
    ) => {
        $crate::bitboard!(@common $(#[$attr])* $vis $name, $word, $all);

        impl ::core::iter::Iterator for $name {
            type Item = usize;

            #[inline]
            fn next(&mut self) -> ::core::option::Option<usize> {
                if self.0 == 0 {
                    return ::core::option::Option::None;
                }
                let index = self.lowest_index();
                self.0 &= self.0 - 1;
                ::core::option::Option::Some(index)
            }
        }
    };
    (
        $(#[$attr:meta])*
        $vis:vis struct $name:ident($word:ty);
        all = $all:expr;
        square = $square:ty, |$sq:ident| $to_index:expr, |$index:ident| $from_index:expr;
    ) => {
        $crate::bitboard!(@common $(#[$attr])* $vis $name, $word, $all);

        // Not every game asks every question of its sets.
        #[allow(dead_code)]
        impl $name {
            #[inline]
            pub const fn from_square(square: $square) -> $name {
                let $sq = square;
                $name::from_index($to_index)
            }

            #[inline]
            pub const fn contains(self, square: $square) -> bool {
                let $sq = square;
                self.contains_index($to_index)
            }

            /// The lowest square; the set must not be empty.
            #[inline]
            pub const fn lowest(self) -> $square {
                let $index = self.lowest_index();
                $from_index
            }

            /// The highest square; the set must not be empty.
            #[inline]
            pub const fn highest(self) -> $square {
                let $index = self.highest_index();
                $from_index
            }
        }

        impl ::core::iter::Iterator for $name {
            type Item = $square;

            #[inline]
            fn next(&mut self) -> ::core::option::Option<$square> {
                if self.0 == 0 {
                    return ::core::option::Option::None;
                }
                let square = self.lowest();
                self.0 &= self.0 - 1;
                ::core::option::Option::Some(square)
            }
        }
    };

    (@common $(#[$attr:meta])* $vis:vis $name:ident, $word:ty, $all:expr) => {
        $(#[$attr])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        $vis struct $name(pub $word);

        // Not every game asks every question of its sets.
        #[allow(dead_code)]
        impl $name {
            pub const EMPTY: $name = $name(0);
            pub const ALL: $name = $name($all);

            #[inline]
            pub const fn from_index(index: usize) -> $name {
                $name(1 << index)
            }

            #[inline]
            pub const fn contains_index(self, index: usize) -> bool {
                self.0 >> index & 1 != 0
            }

            #[inline]
            pub const fn is_empty(self) -> bool {
                self.0 == 0
            }

            #[inline]
            pub const fn not_empty(self) -> bool {
                self.0 != 0
            }

            #[inline]
            pub const fn count(self) -> u32 {
                self.0.count_ones()
            }

            /// The lowest index; the set must not be empty.
            #[inline]
            pub const fn lowest_index(self) -> usize {
                self.0.trailing_zeros() as usize
            }

            /// The `n`-th lowest index, counting from 0; the set must have
            /// more than `n` members. Random playouts ask it several times
            /// a ply: one PDEP instruction where the processor runs it fast
            /// (see `menagerie_core::deposit`), [`Self::nth_index_portable`]
            /// elsewhere.
            #[inline]
            pub fn nth_index(self, n: u32) -> usize {
                if !$crate::deposit::is_fast() {
                    return self.nth_index_portable(n);
                }
                let word = self.0 as u128;
                if <$word>::BITS <= 64 {
                    return $crate::deposit::nth_member(word as u64, n);
                }
                // A wider word: the half that holds the member, chosen
                // without a branch.
                let low = word as u64;
                let below = low.count_ones();
                let (half, n, base) = if n < below { (low, n, 0) } else { ((word >> 64) as u64, n - below, 64) };
                base + $crate::deposit::nth_member(half, n)
            }

            /// [`Self::nth_index`] on any processor: it halves the word
            /// down to the byte that holds the member by the halves'
            /// counts, then looks the member up in that byte, without a
            /// loop over the members before it (whose exit the processor
            /// mispredicts about once a call).
            #[inline]
            pub const fn nth_index_portable(self, n: u32) -> usize {
                let (mut bits, mut n, mut base) = (self.0, n, 0);
                let mut width = <$word>::BITS / 2;
                while width >= 8 {
                    let below = (bits & (((1 as $word) << width) - 1)).count_ones();
                    if n >= below {
                        n -= below;
                        bits >>= width;
                        base += width;
                    }
                    width /= 2;
                }
                base as usize + $crate::bitboard::nth_in_byte(bits as u8, n)
            }

            /// The highest index; the set must not be empty.
            #[inline]
            pub const fn highest_index(self) -> usize {
                (<$word>::BITS - 1 - self.0.leading_zeros()) as usize
            }
        }

        $crate::bitboard!(@op $name BitAnd bitand BitAndAssign bitand_assign &);
        $crate::bitboard!(@op $name BitOr bitor BitOrAssign bitor_assign |);
        $crate::bitboard!(@op $name BitXor bitxor BitXorAssign bitxor_assign ^);

        impl ::core::ops::Not for $name {
            type Output = $name;

            #[inline]
            fn not(self) -> $name {
                $name(!self.0 & $name::ALL.0)
            }
        }
    };
    (@op $name:ident $trait:ident $method:ident $assign_trait:ident $assign_method:ident $op:tt) => {
        impl ::core::ops::$trait for $name {
            type Output = $name;

            #[inline]
            fn $method(self, rhs: $name) -> $name {
                $name(self.0 $op rhs.0)
            }
        }

        impl ::core::ops::$assign_trait for $name {
            #[inline]
            fn $assign_method(&mut self, rhs: $name) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use rand::rngs::SmallRng;
    use rand::{RngCore, SeedableRng};
    crate::bitboard! {
        /// A 6×7 board: the valid bits stop short of the word.
        struct Cells(u64);
        all = (1 << 42) - 1;
    }

    crate::bitboard! {
        /// Every bit of the word is a square.
        struct Full(u64);
        all = !0;
    }

    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    struct Square(u8);

    crate::bitboard! {
        /// A 10×10 board in a wider word, indexed by its own square type.
        struct Wide(u128);
        all = (1 << 100) - 1;
        square = Square, |sq| sq.0 as usize, |index| Square(index as u8);
    }

    #[test]
    fn iterates_from_the_lowest_index_up() {
        let set = Cells::from_index(41) | Cells::from_index(0) | Cells::from_index(17);
        assert_eq!(set.collect::<Vec<_>>(), [0, 17, 41]);
        assert_eq!(Cells::EMPTY.into_iter().next(), None);
        let wide = Wide::from_index(99) | Wide::from_index(64) | Wide::from_index(3);
        assert_eq!(wide.collect::<Vec<_>>(), [Square(3), Square(64), Square(99)]);
        assert_eq!(Full::ALL.count(), 64);
        assert_eq!(Full::ALL.collect::<Vec<_>>(), (0..64).collect::<Vec<_>>());
    }

    #[test]
    fn the_nth_index_counts_from_the_lowest() {
        let set = Cells::from_index(41) | Cells::from_index(0) | Cells::from_index(17);
        assert_eq!([set.nth_index(0), set.nth_index(1), set.nth_index(2)], [0, 17, 41]);
        let wide = Wide::from_index(99) | Wide::from_index(64) | Wide::from_index(3);
        assert_eq!(wide.nth_index(2), 99);
    }

    /// Against the members listed one by one, on sets of every density
    /// (every member of every set, both word sizes).
    #[test]
    fn the_nth_index_is_the_nth_member_listed() {
        let seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut next = move || rng.next_u64();
        for round in 0..3000 {
            // Sparse, medium and dense sets: AND or OR of random words.
            let word = match round % 3 {
                0 => next() & next() & next(),
                1 => next(),
                _ => next() | next() | next(),
            };
            let full = Full(word);
            for (n, member) in full.enumerate() {
                assert_eq!(full.nth_index(n as u32), member, "{word:#x}, member {n}");
                assert_eq!(full.nth_index_portable(n as u32), member, "{word:#x}, member {n}, portably");
            }
            let wide = Wide(((word as u128) << 64 | next() as u128) & Wide::ALL.0);
            for (n, member) in wide.enumerate() {
                assert_eq!(wide.nth_index(n as u32), member.0 as usize, "{:#x}, member {n}", wide.0);
                assert_eq!(wide.nth_index_portable(n as u32), member.0 as usize, "{:#x}, member {n}, portably", wide.0);
            }
        }
        for byte in 0..=255u8 {
            let members: Vec<usize> = (0..8).filter(|bit| byte >> bit & 1 == 1).collect();
            for (n, &member) in members.iter().enumerate() {
                assert_eq!(super::nth_in_byte(byte, n as u32), member);
            }
        }
    }

    #[test]
    fn complement_stays_on_the_board() {
        assert_eq!(!Cells::EMPTY, Cells::ALL);
        assert_eq!(!Cells::ALL, Cells::EMPTY);
        assert_eq!((!Cells::from_index(5)).count(), 41);
        assert!(!(!Cells::from_index(5)).contains_index(42));
        assert_eq!(!Wide::EMPTY, Wide::ALL);
        assert_eq!((!Wide::from_index(99)).highest_index(), 98);
        assert_eq!(!Full::EMPTY, Full(!0));
        assert_eq!(!Full::from_index(63), Full(!0 >> 1));
    }

    #[test]
    fn counts_and_extremes() {
        assert_eq!(Cells::EMPTY.count(), 0);
        assert_eq!(Cells::ALL.count(), 42);
        assert_eq!(Wide::ALL.count(), 100);
        assert!(Cells::EMPTY.is_empty() && !Cells::EMPTY.not_empty());
        assert!(Cells::ALL.not_empty() && !Cells::ALL.is_empty());
        assert_eq!(Cells::ALL.lowest_index(), 0);
        assert_eq!(Cells::ALL.highest_index(), 41);
        let one = Cells::from_index(23);
        assert_eq!((one.lowest_index(), one.highest_index()), (23, 23));
        assert_eq!(Full::from_index(63).highest_index(), 63);
        let wide = Wide::from_index(7) | Wide::from_index(88);
        assert_eq!((wide.lowest(), wide.highest()), (Square(7), Square(88)));
        assert_eq!((wide.lowest_index(), wide.highest_index()), (7, 88));
    }

    #[test]
    fn membership_and_operators() {
        let a = Cells::from_index(1) | Cells::from_index(2);
        let b = Cells::from_index(2) | Cells::from_index(3);
        assert_eq!(a & b, Cells::from_index(2));
        assert_eq!((a | b).count(), 3);
        assert_eq!(a ^ b, Cells::from_index(1) | Cells::from_index(3));
        let mut c = a;
        c &= b;
        assert_eq!(c, a & b);
        c |= b;
        assert_eq!(c, b);
        c ^= b;
        assert_eq!(c, Cells::EMPTY);
        assert!(a.contains_index(1) && !a.contains_index(3));
        assert_eq!(Wide::from_square(Square(77)), Wide::from_index(77));
        assert!(Wide::from_square(Square(77)).contains(Square(77)));
        assert!(!Wide::from_square(Square(77)).contains(Square(76)));
        assert_eq!(Cells::default(), Cells::EMPTY);
    }

    #[test]
    fn usable_in_constants() {
        const CORNERS: Cells = Cells(Cells::from_index(0).0 | Cells::from_index(41).0);
        const LOW: Square = Wide::from_square(Square(12)).lowest();
        const COUNTS: [u32; 2] = [CORNERS.count(), Wide::ALL.count()];
        const EXTREMES: [usize; 2] = [CORNERS.lowest_index(), CORNERS.highest_index()];
        const FLAGS: [bool; 3] = [CORNERS.contains_index(41), CORNERS.is_empty(), CORNERS.not_empty()];
        assert_eq!(LOW, Square(12));
        assert_eq!(COUNTS, [2, 100]);
        assert_eq!(EXTREMES, [0, 41]);
        assert_eq!(FLAGS, [true, false, true]);
    }
}
