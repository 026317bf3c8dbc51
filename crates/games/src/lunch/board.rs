//! Squares, pieces with hit points, movement without capture and threats.

use menagerie_core::Player;

/// A square 0..64 (a1 = 0, b1 = 1, ..., h8 = 63); [`NO_SQUARE`] for none.
pub type Square = u8;
pub const NO_SQUARE: Square = 64;

pub fn file_of(sq: Square) -> i8 {
    (sq & 7) as i8
}

pub fn rank_of(sq: Square) -> i8 {
    (sq >> 3) as i8
}

pub fn square_at(file: i8, rank: i8) -> Option<Square> {
    ((0..8).contains(&file) && (0..8).contains(&rank)).then(|| (rank * 8 + file) as Square)
}

pub fn square_name(sq: Square) -> String {
    if sq >= 64 {
        return "-".into();
    }
    format!("{}{}", (b'a' + (sq & 7)) as char, (sq >> 3) + 1)
}

pub fn parse_square(text: &str) -> Option<Square> {
    let b = text.as_bytes();
    if b.len() != 2 || !(b'a'..=b'h').contains(&b[0]) || !(b'1'..=b'8').contains(&b[1]) {
        return None;
    }
    Some((b[1] - b'1') * 8 + (b[0] - b'a'))
}

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
}

pub type Board = [Option<Piece>; 64];

pub const KING_STEPS: [(i8, i8); 8] = [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)];
/// Knight leaps in clockwise order as White sees the board, from north-north-east.
pub const KNIGHT_LEAPS: [(i8, i8); 8] = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];
const ROOK_DIRS: [(i8, i8); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
const BISHOP_DIRS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, -1), (-1, 1)];

/// The sliding directions and range of a piece type (`None` for leapers and pawns).
fn slides(kind: Kind) -> Option<(&'static [(i8, i8)], i8)> {
    match kind {
        Kind::Bishop => Some((&BISHOP_DIRS, 7)),
        Kind::Rook => Some((&ROOK_DIRS, 7)),
        Kind::Queen => Some((&KING_STEPS, 7)),
        Kind::Princess => Some((&KING_STEPS, 2)),
        _ => None,
    }
}

pub fn forward(color: Player) -> i8 {
    if color == Player::First {
        1
    } else {
        -1
    }
}

pub fn last_rank(color: Player) -> i8 {
    if color == Player::First {
        7
    } else {
        0
    }
}

/// Every empty square a piece on `from` may move to (no castling: see the
/// position). Calls `emit(to)`.
pub fn for_each_step(board: &Board, from: Square, mut emit: impl FnMut(Square)) {
    let Some(piece) = board[from as usize] else { return };
    let (f, r) = (file_of(from), rank_of(from));
    match piece.kind {
        Kind::Pawn => {
            let dir = forward(piece.color);
            if let Some(one) = square_at(f, r + dir).filter(|&s| board[s as usize].is_none()) {
                emit(one);
                let second_rank = if piece.color == Player::First { 1 } else { 6 };
                if r == second_rank {
                    if let Some(two) = square_at(f, r + 2 * dir).filter(|&s| board[s as usize].is_none()) {
                        emit(two);
                    }
                }
            }
        }
        Kind::Knight | Kind::King => {
            let steps = if piece.kind == Kind::Knight { &KNIGHT_LEAPS } else { &KING_STEPS };
            for &(df, dr) in steps {
                if let Some(to) = square_at(f + df, r + dr).filter(|&s| board[s as usize].is_none()) {
                    emit(to);
                }
            }
        }
        kind => {
            let (dirs, range) = slides(kind).expect("a slider");
            for &(df, dr) in dirs {
                for n in 1..=range {
                    match square_at(f + df * n, r + dr * n) {
                        Some(to) if board[to as usize].is_none() => emit(to),
                        _ => break,
                    }
                }
            }
        }
    }
}

/// Whether the piece on `from` threatens the piece on `to` (could capture it
/// in FIDE chess). When it does, returns the square the attacker moves to
/// before the battle: the square next to the target on the line of attack
/// (its own square for Knights, Pawns, Kings and adjacent pieces).
pub fn threat(board: &Board, from: Square, to: Square) -> Option<Square> {
    let piece = board[from as usize]?;
    let target = board[to as usize]?;
    if target.color == piece.color || from == to {
        return None;
    }
    let (df, dr) = (file_of(to) - file_of(from), rank_of(to) - rank_of(from));
    match piece.kind {
        Kind::Pawn => (dr == forward(piece.color) && df.abs() == 1).then_some(from),
        Kind::Knight => KNIGHT_LEAPS.contains(&(df, dr)).then_some(from),
        Kind::King => (df.abs() <= 1 && dr.abs() <= 1).then_some(from),
        kind => {
            let (dirs, range) = slides(kind)?;
            let distance = df.abs().max(dr.abs());
            let step = (df.signum(), dr.signum());
            if !(df == 0 || dr == 0 || df.abs() == dr.abs()) || !dirs.contains(&step) || distance > range {
                return None;
            }
            for n in 1..distance {
                let sq = square_at(file_of(from) + step.0 * n, rank_of(from) + step.1 * n)?;
                if board[sq as usize].is_some() {
                    return None;
                }
            }
            if distance == 1 {
                Some(from)
            } else {
                square_at(file_of(to) - step.0, rank_of(to) - step.1)
            }
        }
    }
}

/// Which squares hold pieces, by colour: the board as bit sets, computed
/// once for many threat questions.
#[derive(Clone, Copy, Debug, Default)]
pub struct Occupancy {
    pub all: u64,
    pub colour: [u64; 2],
}

impl Occupancy {
    pub fn of(board: &Board) -> Occupancy {
        let mut occupancy = Occupancy::default();
        for (index, slot) in board.iter().enumerate() {
            if let Some(piece) = slot {
                occupancy.colour[piece.color.index()] |= 1 << index;
            }
        }
        occupancy.all = occupancy.colour[0] | occupancy.colour[1];
        occupancy
    }
}

/// Bit sets of the squares a step (or leap) list reaches from each square.
const fn step_table(steps: &[(i8, i8)]) -> [u64; 64] {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = ((sq % 8) as i8, (sq / 8) as i8);
        let mut i = 0;
        while i < steps.len() {
            let (df, dr) = steps[i];
            let (tf, tr) = (f + df, r + dr);
            if tf >= 0 && tf < 8 && tr >= 0 && tr < 8 {
                table[sq] |= 1 << (tr * 8 + tf);
            }
            i += 1;
        }
        sq += 1;
    }
    table
}

/// The squares of the eight rays from each square, by `KING_STEPS` direction.
const fn ray_table() -> [[u64; 64]; 8] {
    let mut table = [[0u64; 64]; 8];
    let mut d = 0;
    while d < 8 {
        let (df, dr) = KING_STEPS[d];
        let mut sq = 0;
        while sq < 64 {
            let (mut f, mut r) = ((sq % 8) as i8 + df, (sq / 8) as i8 + dr);
            while f >= 0 && f < 8 && r >= 0 && r < 8 {
                table[d][sq] |= 1 << (r * 8 + f);
                f += df;
                r += dr;
            }
            sq += 1;
        }
        d += 1;
    }
    table
}

static KNIGHT_SETS: [u64; 64] = step_table(&KNIGHT_LEAPS);
static KING_SETS: [u64; 64] = step_table(&KING_STEPS);
/// Squares a Pawn of White (0) or Black (1) threatens.
static PAWN_SETS: [[u64; 64]; 2] = [step_table(&[(-1, 1), (1, 1)]), step_table(&[(-1, -1), (1, -1)])];
static RAYS: [[u64; 64]; 8] = ray_table();
/// Squares within two king steps: a Princess's reach along its lines.
static NEAR_SETS: [u64; 64] = step_table(&[
    (-2, -2),
    (-1, -2),
    (0, -2),
    (1, -2),
    (2, -2),
    (-2, -1),
    (-1, -1),
    (0, -1),
    (1, -1),
    (2, -1),
    (-2, 0),
    (-1, 0),
    (1, 0),
    (2, 0),
    (-2, 1),
    (-1, 1),
    (0, 1),
    (1, 1),
    (2, 1),
    (-2, 2),
    (-1, 2),
    (0, 2),
    (1, 2),
    (2, 2),
]);

/// Indices into `KING_STEPS` (and `RAYS`) of the orthogonal and diagonal
/// directions. `KING_STEPS` runs N, NE, E, SE, S, SW, W, NW.
const ORTHOGONAL: [usize; 4] = [0, 2, 4, 6];
const DIAGONAL: [usize; 4] = [1, 3, 5, 7];

/// The squares a slider reaches along the rays `dirs` from `from`, up to
/// and including the first occupied square.
#[inline]
fn slide(from: usize, dirs: [usize; 4], occupied: u64) -> u64 {
    let mut reach = 0;
    for d in dirs {
        let ray = RAYS[d][from];
        let blockers = ray & occupied;
        if blockers == 0 {
            reach |= ray;
            continue;
        }
        // N, NE, E and NW run towards higher squares: the first blocker
        // is the lowest one; S, SW, W and SE the highest.
        let first = if matches!(d, 0 | 1 | 2 | 7) {
            blockers.trailing_zeros() as usize
        } else {
            63 - blockers.leading_zeros() as usize
        };
        reach |= ray & !RAYS[d][first];
    }
    reach
}

/// The squares of the enemy pieces the piece on `from` threatens (as
/// [`threat`] would say for each), one bit per square, given the board's
/// [`Occupancy`].
#[inline]
pub fn threatened_from(board: &Board, occupancy: &Occupancy, from: Square) -> u64 {
    let Some(piece) = board[from as usize] else { return 0 };
    let at = from as usize;
    let reach = match piece.kind {
        Kind::Pawn => PAWN_SETS[piece.color.index()][at],
        Kind::Knight => KNIGHT_SETS[at],
        Kind::King => KING_SETS[at],
        Kind::Bishop => slide(at, DIAGONAL, occupancy.all),
        Kind::Rook => slide(at, ORTHOGONAL, occupancy.all),
        Kind::Queen => slide(at, DIAGONAL, occupancy.all) | slide(at, ORTHOGONAL, occupancy.all),
        Kind::Princess => (slide(at, DIAGONAL, occupancy.all) | slide(at, ORTHOGONAL, occupancy.all)) & NEAR_SETS[at],
    };
    reach & occupancy.colour[piece.color.other().index()]
}

/// [`threatened_from`] for one question.
pub fn threatened_squares(board: &Board, from: Square) -> u64 {
    threatened_from(board, &Occupancy::of(board), from)
}

/// Whether any piece of `by` threatens `to`.
pub fn threatened_by(board: &Board, to: Square, by: Player) -> bool {
    (0..64u8).any(|from| board[from as usize].is_some_and(|p| p.color == by) && threat(board, from, to).is_some())
}

/// The ring a spinning attack travels: the 8 squares next to the attacker
/// (its 8 leaps for a Knight), clockwise as White sees the board.
pub fn ring(center: Square, knight: bool) -> [Option<Square>; 8] {
    let steps = if knight { &KNIGHT_LEAPS } else { &KING_STEPS };
    let mut out = [None; 8];
    for (i, &(df, dr)) in steps.iter().enumerate() {
        out[i] = square_at(file_of(center) + df, rank_of(center) + dr);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The walk along the lines finds exactly the squares `threat` accepts,
    /// for every piece of boards crowded with both colours.
    #[test]
    fn threatened_squares_agree_with_threat() {
        let kinds = [Kind::Pawn, Kind::Knight, Kind::Bishop, Kind::Rook, Kind::Princess, Kind::Queen, Kind::King];
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..300 {
            let mut board: Board = [None; 64];
            for slot in board.iter_mut() {
                if next() % 3 == 0 {
                    let kind = kinds[(next() % 7) as usize];
                    let color = if next() % 2 == 0 { Player::First } else { Player::Second };
                    *slot = Some(Piece::new(kind, color));
                }
            }
            for from in 0..64u8 {
                let expected =
                    (0..64u8).filter(|&to| threat(&board, from, to).is_some()).fold(0u64, |s, to| s | 1 << to);
                assert_eq!(threatened_squares(&board, from), expected, "from {}", square_name(from));
            }
        }
    }
}
