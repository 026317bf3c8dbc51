//! The move type: where a piece starts, where it lands, and what is special
//! about it (texts: `notation`).

use super::piece::Kind;
use super::square::Square;

/// A move: where the piece starts, where it lands (board included, as the
/// move rule decides) and what is special about it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub from: Square,
    pub to: Square,
    pub special: Special,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Special {
    Plain,
    Promote(Kind),
    /// Index into `castling::CASTLES`; `from`/`to` are the king's.
    Castle(u8),
}

/// What a pawn may promote to, in move-list order.
pub const PROMOTIONS: [Kind; 3] = [Kind::Queen, Kind::Rook, Kind::Cardinal];

impl Move {
    #[inline]
    pub const fn plain(from: Square, to: Square) -> Move {
        Move { from, to, special: Special::Plain }
    }

    pub fn promotion(self) -> Option<Kind> {
        match self.special {
            Special::Promote(kind) => Some(kind),
            _ => None,
        }
    }
}
