//! Colours, piece kinds, pieces and the content of one square (a [`Cell`]:
//! up to two pieces). There is no queen kind: a queen is a Bishop and a Rook
//! of one colour sharing a cell.

use menagerie_core::Player;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Colour {
    White = 0,
    Black = 1,
}

impl Colour {
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    #[inline]
    pub const fn other(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }

    pub const fn player(self) -> Player {
        match self {
            Colour::White => Player::First,
            Colour::Black => Player::Second,
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Colour::White => "white",
            Colour::Black => "black",
        }
    }
}

/// A piece kind; the discriminant is the kind's index in per-kind tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Kind {
    Pawn = 1,
    Knight = 2,
    Bishop = 3,
    Rook = 4,
    King = 5,
}

impl Kind {
    pub const ALL: [Kind; 5] = [Kind::Pawn, Kind::Knight, Kind::Bishop, Kind::Rook, Kind::King];

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The kind of a 3-bit index, unused ones (0, 6, 7) read as a pawn: a
    /// table lookup, where a match tests the range and selects (every
    /// move played decodes its kinds several times).
    #[inline]
    pub const fn from_bits(bits: u8) -> Kind {
        const KINDS: [Kind; 8] =
            [Kind::Pawn, Kind::Pawn, Kind::Knight, Kind::Bishop, Kind::Rook, Kind::King, Kind::Pawn, Kind::Pawn];
        KINDS[(bits & 7) as usize]
    }

    #[inline]
    pub const fn from_index(index: u8) -> Option<Kind> {
        match index {
            1 => Some(Kind::Pawn),
            2 => Some(Kind::Knight),
            3 => Some(Kind::Bishop),
            4 => Some(Kind::Rook),
            5 => Some(Kind::King),
            _ => None,
        }
    }

    /// The upper-case letter used in move and position texts.
    pub const fn letter(self) -> char {
        match self {
            Kind::Pawn => 'P',
            Kind::Knight => 'N',
            Kind::Bishop => 'B',
            Kind::Rook => 'R',
            Kind::King => 'K',
        }
    }

    pub const fn from_letter(letter: char) -> Option<Kind> {
        match letter {
            'P' => Some(Kind::Pawn),
            'N' => Some(Kind::Knight),
            'B' => Some(Kind::Bishop),
            'R' => Some(Kind::Rook),
            'K' => Some(Kind::King),
            _ => None,
        }
    }
}

/// A coloured piece, coded in four bits: colour in bit 3, kind in bits 0-2
/// (so 0 means "no piece" inside a [`Cell`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece(u8);

impl Piece {
    #[inline]
    pub const fn new(colour: Colour, kind: Kind) -> Piece {
        Piece((colour as u8) << 3 | kind as u8)
    }

    #[inline]
    const fn from_code(code: u8) -> Option<Piece> {
        if code == 0 {
            None
        } else {
            Some(Piece(code))
        }
    }

    #[inline]
    pub const fn code(self) -> u8 {
        self.0
    }

    #[inline]
    pub const fn colour(self) -> Colour {
        if self.0 & 8 == 0 {
            Colour::White
        } else {
            Colour::Black
        }
    }

    #[inline]
    pub const fn kind(self) -> Kind {
        Kind::from_bits(self.0)
    }

    /// The letter in its colour's case (White upper, Black lower).
    pub fn letter(self) -> char {
        let upper = self.kind().letter();
        match self.colour() {
            Colour::White => upper,
            Colour::Black => upper.to_ascii_lowercase(),
        }
    }

    pub fn from_letter(letter: char) -> Option<Piece> {
        let kind = Kind::from_letter(letter.to_ascii_uppercase())?;
        let colour = if letter.is_ascii_uppercase() { Colour::White } else { Colour::Black };
        Some(Piece::new(colour, kind))
    }
}

/// What one square holds: nothing, one piece, or two pieces. Two nibbles,
/// the lower holding the smaller code, so equal contents have equal cells
/// (which the hash relies on).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Cell(u8);

impl Cell {
    pub const EMPTY: Cell = Cell(0);

    #[inline]
    pub const fn raw(self) -> u8 {
        self.0
    }

    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    #[inline]
    pub const fn len(self) -> usize {
        (self.0 & 15 != 0) as usize + (self.0 >> 4 != 0) as usize
    }

    #[inline]
    pub const fn first(self) -> Option<Piece> {
        Piece::from_code(self.0 & 15)
    }

    #[inline]
    pub const fn second(self) -> Option<Piece> {
        Piece::from_code(self.0 >> 4)
    }

    /// The pieces, in cell order.
    pub fn pieces(self) -> impl Iterator<Item = Piece> {
        [self.first(), self.second()].into_iter().flatten()
    }

    /// The cell with `piece` added (the cell holds at most one piece).
    #[inline]
    pub const fn with(self, piece: Piece) -> Cell {
        let low = self.0 & 15;
        let code = piece.code();
        if low == 0 {
            Cell(code)
        } else if code < low {
            Cell(low << 4 | code)
        } else {
            Cell(code << 4 | low)
        }
    }

    /// The cell with one `piece` removed (the cell holds it).
    #[inline]
    pub const fn without(self, piece: Piece) -> Cell {
        let low = self.0 & 15;
        if low == piece.code() {
            Cell(self.0 >> 4)
        } else {
            Cell(low)
        }
    }

    /// Whether a piece of `kind` (of either colour) is in the cell.
    #[inline]
    pub const fn holds_kind(self, kind: Kind) -> bool {
        let k = kind as u8;
        self.0 & 7 == k || (self.0 >> 4) & 7 == k
    }

    /// The first piece of `colour` in the cell, read from the nibbles (the
    /// legality tests ask it at every king move).
    #[inline]
    pub const fn piece_of(self, colour: Colour) -> Option<Piece> {
        let colour_bit = (colour as u8) << 3;
        let (low, high) = (self.0 & 15, self.0 >> 4);
        if low != 0 && low & 8 == colour_bit {
            Some(Piece(low))
        } else if high != 0 && high & 8 == colour_bit {
            Some(Piece(high))
        } else {
            None
        }
    }
}

/// What a pawn may promote to: one piece, or a pair (Optional Rule 2 and
/// the queen).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Promotion {
    Knight = 1,
    Bishop = 2,
    Rook = 3,
    /// Bishop + Rook: the queen.
    Queen = 4,
    /// Bishop + Knight.
    Paladin = 5,
    /// Knight + Rook.
    Chancellor = 6,
}

impl Promotion {
    pub const fn from_index(index: u8) -> Option<Promotion> {
        match index {
            1 => Some(Promotion::Knight),
            2 => Some(Promotion::Bishop),
            3 => Some(Promotion::Rook),
            4 => Some(Promotion::Queen),
            5 => Some(Promotion::Paladin),
            6 => Some(Promotion::Chancellor),
            _ => None,
        }
    }

    /// The kinds the pawn becomes (the second is `None` for a single piece).
    pub const fn kinds(self) -> (Kind, Option<Kind>) {
        match self {
            Promotion::Knight => (Kind::Knight, None),
            Promotion::Bishop => (Kind::Bishop, None),
            Promotion::Rook => (Kind::Rook, None),
            Promotion::Queen => (Kind::Bishop, Some(Kind::Rook)),
            Promotion::Paladin => (Kind::Bishop, Some(Kind::Knight)),
            Promotion::Chancellor => (Kind::Knight, Some(Kind::Rook)),
        }
    }

    pub const fn is_pair(self) -> bool {
        self.kinds().1.is_some()
    }

    /// The text after `=`: letters in alphabetical order.
    pub const fn text(self) -> &'static str {
        match self {
            Promotion::Knight => "N",
            Promotion::Bishop => "B",
            Promotion::Rook => "R",
            Promotion::Queen => "BR",
            Promotion::Paladin => "BN",
            Promotion::Chancellor => "NR",
        }
    }
}
