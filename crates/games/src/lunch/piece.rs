//! Pieces with hit points: kinds, colours and per-piece marks.

use menagerie_core::Player;

/// Piece types, ordered by hit points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    Pawn,
    Knight,
    Bishop,
    Rook,
    Princess,
    Queen,
    King,
}

impl Kind {
    /// 0..7, for tables.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    pub fn value(self) -> i8 {
        match self {
            Kind::Pawn => 1,
            Kind::Knight | Kind::Bishop => 3,
            Kind::Rook => 5,
            Kind::Princess => 7,
            Kind::Queen => 9,
            Kind::King => 15,
        }
    }

    pub fn letter(self) -> char {
        match self {
            Kind::Pawn => 'P',
            Kind::Knight => 'N',
            Kind::Bishop => 'B',
            Kind::Rook => 'R',
            Kind::Princess => 'I',
            Kind::Queen => 'Q',
            Kind::King => 'K',
        }
    }

    pub fn from_letter(c: char) -> Option<Kind> {
        Some(match c.to_ascii_uppercase() {
            'P' => Kind::Pawn,
            'N' => Kind::Knight,
            'B' => Kind::Bishop,
            'R' => Kind::Rook,
            'I' => Kind::Princess,
            'Q' => Kind::Queen,
            'K' => Kind::King,
            _ => return None,
        })
    }

    /// The type a piece with `hp` hit points rounds down to (`None`: dead).
    /// Three hit points round to a Knight here; the caller decides whether
    /// a Knight-or-Bishop choice is due.
    pub fn round_down(hp: i8, princess: bool) -> Option<Kind> {
        Some(match hp {
            i8::MIN..=0 => return None,
            1..=2 => Kind::Pawn,
            3..=4 => Kind::Knight,
            5..=6 => Kind::Rook,
            7..=8 if princess => Kind::Princess,
            7..=8 => Kind::Rook,
            9..=14 => Kind::Queen,
            _ => Kind::King,
        })
    }
}

/// Per-piece marks (bits of [`Piece::flags`]).
pub mod flag {
    /// Poked: cannot move, attack or have cards played for it.
    pub const STUNNED: u8 = 1;
    /// Stomped: its next opening attack deals half damage.
    pub const STOMPED: u8 = 2;
    /// Its HP was changed by a card during this action.
    pub const CHANGED: u8 = 4;
    /// ... and the last card that changed it was Black's.
    pub const CHANGED_BY_BLACK: u8 = 8;
    /// It arrived on its square during this action (promotion).
    pub const ENTERED: u8 = 16;
    /// Rounded to 3: a Knight-or-Bishop choice is due.
    pub const CHOOSE_MINOR: u8 = 32;
    /// A Pawn that entered its last rank: a promotion choice is due.
    pub const PROMOTE: u8 = 64;
    /// Flags that last only for one action.
    pub const ACTION: u8 = CHANGED | CHANGED_BY_BLACK | ENTERED | CHOOSE_MINOR | PROMOTE;
    /// `(bit, letter)` in position texts.
    pub const LETTERS: [(u8, char); 7] = [
        (STUNNED, 's'),
        (STOMPED, 'm'),
        (CHANGED, 'c'),
        (CHANGED_BY_BLACK, 'x'),
        (ENTERED, 'e'),
        (CHOOSE_MINOR, 'k'),
        (PROMOTE, 'p'),
    ];
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub kind: Kind,
    pub color: Player,
    pub hp: i8,
    pub flags: u8,
}

impl Piece {
    pub fn new(kind: Kind, color: Player) -> Piece {
        Piece { kind, color, hp: kind.value(), flags: 0 }
    }

    pub fn has(self, f: u8) -> bool {
        self.flags & f != 0
    }

    /// No marks, and the hit points of its type: what every piece is
    /// between actions unless stunned or stomped. Rounding leaves such a
    /// piece as it is.
    #[inline]
    pub fn is_plain(self) -> bool {
        self.flags == 0 && self.hp == self.kind.value()
    }
}
