//! The move of Fluid Chess, packed into 32 bits.

use super::piece::{Kind, Promotion};
use super::square::Square;

/// What kind of move, beyond "a unit goes from one square to another".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Special {
    Normal = 0,
    DoublePush = 1,
    EnPassant = 2,
    /// King and rook slide; `from`/`to` are the king's squares.
    Castle = 3,
}

/// A move: the unit (one or two kinds) going from `from` to `to`, the enemy
/// piece a single mover captures (a pair captures everything there), the
/// promotion, and whether the text must name the captured piece (the single
/// mover chose between two different enemy pieces).
///
/// Bits: 0-5 from, 6-11 to, 12-14 first kind, 15-17 second kind (0 for a
/// single piece), 18-20 captured kind, 21-23 promotion, 24-25 special,
/// 26 "capture choice shown".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move(u32);

impl Move {
    #[inline]
    pub fn new(from: Square, to: Square, first: Kind, second: Option<Kind>) -> Move {
        let second = second.map_or(0, |k| k as u32);
        Move(from.index() as u32 | (to.index() as u32) << 6 | (first as u32) << 12 | second << 15)
    }

    #[inline]
    pub fn capturing(self, kind: Kind, chosen: bool) -> Move {
        Move(self.0 & !(7 << 18) | (kind as u32) << 18 | (chosen as u32) << 26)
    }

    #[inline]
    pub fn promoting(self, promotion: Promotion) -> Move {
        Move(self.0 & !(7 << 21) | (promotion as u32) << 21)
    }

    #[inline]
    pub fn special_kind(self, special: Special) -> Move {
        Move(self.0 & !(3 << 24) | (special as u32) << 24)
    }

    #[inline]
    pub fn from(self) -> Square {
        Square::new((self.0 & 63) as u8)
    }

    #[inline]
    pub fn to(self) -> Square {
        Square::new((self.0 >> 6 & 63) as u8)
    }

    #[inline]
    pub fn first_kind(self) -> Kind {
        Kind::from_bits((self.0 >> 12) as u8)
    }

    #[inline]
    pub fn second_kind(self) -> Option<Kind> {
        Kind::from_index((self.0 >> 15 & 7) as u8)
    }

    #[inline]
    pub fn is_pair(self) -> bool {
        self.0 >> 15 & 7 != 0
    }

    #[inline]
    pub fn moves_kind(self, kind: Kind) -> bool {
        self.first_kind() == kind || self.second_kind() == Some(kind)
    }

    #[inline]
    pub fn captured(self) -> Option<Kind> {
        Kind::from_index((self.0 >> 18 & 7) as u8)
    }

    #[inline]
    pub fn shows_capture(self) -> bool {
        self.0 >> 26 & 1 != 0
    }

    #[inline]
    pub fn promotion(self) -> Option<Promotion> {
        Promotion::from_index((self.0 >> 21 & 7) as u8)
    }

    /// Neither a promotion nor en passant nor castling (a double step is
    /// plain): one piece or pair leaves its square for another.
    #[inline]
    pub fn is_plain(self) -> bool {
        // Promotion in bits 21-23; en passant (2) and castling (3) set bit 25.
        self.0 & (7 << 21 | 2 << 24) == 0
    }

    #[inline]
    pub fn special(self) -> Special {
        match self.0 >> 24 & 3 {
            1 => Special::DoublePush,
            2 => Special::EnPassant,
            3 => Special::Castle,
            _ => Special::Normal,
        }
    }
}
