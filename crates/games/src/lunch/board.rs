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
