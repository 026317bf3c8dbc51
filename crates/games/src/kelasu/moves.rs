//! One action of a turn, packed in a `u128`: a piece move (Recall and
//! Conversion included), or a merge.
//!
//! Layout: bits 0..100 hold the merged Blanks' squares (empty for a piece
//! move), bits 100..107 the origin of a piece move or the target of a merge,
//! bits 107..114 the destination of a piece move, bits 114..117 the kind a
//! merge makes (0 for a piece move: a merge never makes a Blank). Equal
//! actions have equal texts and the other way round.

use super::bitboard::Bitboard;
use super::piece::Kind;
use super::square::Square;
use std::fmt;

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Action(u128);

const SQUARES: u128 = (1u128 << 100) - 1;
const FIRST_SHIFT: u32 = 100;
const SECOND_SHIFT: u32 = 107;
const KIND_SHIFT: u32 = 114;

impl Action {
    /// A piece moving (or converting) from `from` to `to`.
    #[inline]
    pub const fn step(from: Square, to: Square) -> Action {
        Action((from.index() as u128) << FIRST_SHIFT | (to.index() as u128) << SECOND_SHIFT)
    }

    /// Blanks on `squares` merging into `kind` on `target`.
    #[inline]
    pub const fn merge(kind: Kind, target: Square, squares: Bitboard) -> Action {
        Action(squares.0 | (target.index() as u128) << FIRST_SHIFT | (kind.index() as u128) << KIND_SHIFT)
    }

    /// The kind made, for a merge.
    #[inline]
    pub const fn merged_kind(self) -> Option<Kind> {
        match (self.0 >> KIND_SHIFT) as usize & 7 {
            0 => None,
            k => Kind::from_index(k),
        }
    }

    /// The origin of a piece move; the new piece's square for a merge.
    #[inline]
    pub const fn from(self) -> Square {
        Square::new((self.0 >> FIRST_SHIFT) as u8 & 0x7F)
    }

    /// The destination of a piece move.
    #[inline]
    pub const fn to(self) -> Square {
        Square::new((self.0 >> SECOND_SHIFT) as u8 & 0x7F)
    }

    /// The Blanks used by a merge (empty for a piece move).
    #[inline]
    pub const fn squares(self) -> Bitboard {
        Bitboard(self.0 & SQUARES)
    }
}

impl fmt::Debug for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Action({self})")
    }
}
