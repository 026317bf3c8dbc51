//! Piece kinds, sides and castling rights.

/// The five kinds of LMA Chess. The index orders the per-kind bitboards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    King = 0,
    Queen = 1,
    Rook = 2,
    /// Bishop + Knight.
    Cardinal = 3,
    Pawn = 4,
}

pub const KINDS: [Kind; 5] = [Kind::King, Kind::Queen, Kind::Rook, Kind::Cardinal, Kind::Pawn];

pub const WHITE: usize = 0;
pub const BLACK: usize = 1;

impl Kind {
    /// Upper case letter (White's); Black's is the lower case one.
    pub const fn letter(self) -> char {
        match self {
            Kind::King => 'K',
            Kind::Queen => 'Q',
            Kind::Rook => 'R',
            Kind::Cardinal => 'C',
            Kind::Pawn => 'P',
        }
    }

    pub fn from_letter(letter: char) -> Option<(usize, Kind)> {
        let side = if letter.is_ascii_uppercase() { WHITE } else { BLACK };
        let kind = match letter.to_ascii_uppercase() {
            'K' => Kind::King,
            'Q' => Kind::Queen,
            'R' => Kind::Rook,
            'C' => Kind::Cardinal,
            'P' => Kind::Pawn,
            _ => return None,
        };
        Some((side, kind))
    }

    /// The letter as written for `side` on a board.
    pub fn letter_for(self, side: usize) -> char {
        if side == WHITE {
            self.letter()
        } else {
            self.letter().to_ascii_lowercase()
        }
    }
}

/// Castling rights, one bit each: `K`, `Q`, `k`, `q`.
pub mod rights {
    pub const WHITE_KING_SIDE: u8 = 1;
    pub const WHITE_QUEEN_SIDE: u8 = 2;
    pub const BLACK_KING_SIDE: u8 = 4;
    pub const BLACK_QUEEN_SIDE: u8 = 8;
    pub const ALL: u8 = 15;
    /// In text order.
    pub const LETTERS: [(u8, char); 4] =
        [(WHITE_KING_SIDE, 'K'), (WHITE_QUEEN_SIDE, 'Q'), (BLACK_KING_SIDE, 'k'), (BLACK_QUEEN_SIDE, 'q')];
}
