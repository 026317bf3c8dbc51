//! The board (what stands on each square), movement without capture and
//! threats.

use super::piece::{Kind, Piece};
use super::square::Square;
use menagerie_core::Player;

/// What stands on each square. Only the position changes it (it keeps the
/// hash), through [`Board::set`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board([Option<Piece>; 64]);

impl Board {
    pub const EMPTY: Board = Board([None; 64]);

    #[inline]
    pub fn get(&self, sq: Square) -> Option<Piece> {
        self.0[sq.index()]
    }

    #[inline]
    pub(super) fn set(&mut self, sq: Square, piece: Option<Piece>) {
        self.0[sq.index()] = piece;
    }

    /// The pieces with their squares, a1 to h8.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        Square::all().filter_map(|sq| self.get(sq).map(|p| (sq, p)))
    }

    #[inline]
    fn is_empty(&self, sq: Square) -> bool {
        self.0[sq.index()].is_none()
    }
}

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
/// rules). Calls `emit(to)`.
pub fn for_each_step(board: &Board, from: Square, mut emit: impl FnMut(Square)) {
    let Some(piece) = board.get(from) else { return };
    match piece.kind {
        Kind::Pawn => {
            let dir = forward(piece.color);
            if let Some(one) = from.offset(0, dir).filter(|&s| board.is_empty(s)) {
                emit(one);
                let second_rank = if piece.color == Player::First { 1 } else { 6 };
                if from.rank() == second_rank {
                    if let Some(two) = from.offset(0, 2 * dir).filter(|&s| board.is_empty(s)) {
                        emit(two);
                    }
                }
            }
        }
        Kind::Knight | Kind::King => {
            let steps = if piece.kind == Kind::Knight { &KNIGHT_LEAPS } else { &KING_STEPS };
            for &(df, dr) in steps {
                if let Some(to) = from.offset(df, dr).filter(|&s| board.is_empty(s)) {
                    emit(to);
                }
            }
        }
        kind => {
            let (dirs, range) = slides(kind).expect("a slider");
            for &(df, dr) in dirs {
                for n in 1..=range {
                    match from.offset(df * n, dr * n) {
                        Some(to) if board.is_empty(to) => emit(to),
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
    let piece = board.get(from)?;
    let target = board.get(to)?;
    if target.color == piece.color || from == to {
        return None;
    }
    let (df, dr) = (to.file() - from.file(), to.rank() - from.rank());
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
                if !board.is_empty(from.offset(step.0 * n, step.1 * n)?) {
                    return None;
                }
            }
            if distance == 1 {
                Some(from)
            } else {
                to.offset(-step.0, -step.1)
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
        for (sq, piece) in board.pieces() {
            occupancy.colour[piece.color.index()] |= 1 << sq.index();
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
    let Some(piece) = board.get(from) else { return 0 };
    let at = from.index();
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
#[cfg(test)]
pub fn threatened_squares(board: &Board, from: Square) -> u64 {
    threatened_from(board, &Occupancy::of(board), from)
}

/// Whether any piece of `by` threatens `to`.
pub fn threatened_by(board: &Board, to: Square, by: Player) -> bool {
    board.pieces().any(|(from, p)| p.color == by && threat(board, from, to).is_some())
}

/// The ring a spinning attack travels: the 8 squares next to the attacker
/// (its 8 leaps for a Knight), clockwise as White sees the board.
pub fn ring(center: Square, knight: bool) -> [Option<Square>; 8] {
    let steps = if knight { &KNIGHT_LEAPS } else { &KING_STEPS };
    steps.map(|(df, dr)| center.offset(df, dr))
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
            let mut board = Board::EMPTY;
            for sq in Square::all() {
                if next() % 3 == 0 {
                    let kind = kinds[(next() % 7) as usize];
                    let color = if next() % 2 == 0 { Player::First } else { Player::Second };
                    board.set(sq, Some(Piece::new(kind, color)));
                }
            }
            for from in Square::all() {
                let expected = Square::all()
                    .filter(|&to| threat(&board, from, to).is_some())
                    .fold(0u64, |s, to| s | 1 << to.index());
                assert_eq!(threatened_squares(&board, from), expected, "from {from}");
            }
        }
    }
}
