//! The evaluation of a Fluid Chess position, for the searches of
//! `menagerie-ai`, from the view of the side to move.
//!
//! Material first, in centipawns: Pawn 100; Knight 280 (a lame knight is
//! stopped when both its paths are blocked, so it is worth a little less
//! than FIDE's 300); Bishop 320; Rook 500. A friendly pair on one square
//! moves as either of its pieces, so it is worth more than its parts:
//! +90 for the Queen (B+R; FIDE values the queen at 900 against 820 for a
//! bishop and a rook), +40 for any other pair. Then position: pawns gain
//! as they advance (they may promote into a pair); knights and bishops like
//! the centre; a king likes its back rank while rooks are on the board.

use super::bitboard::Bitboard;
use super::board::Board;
use super::moves::Move;
use super::piece::{Colour, Kind};
use super::Fluid;
use menagerie_core::Evaluate;

const PAWN: i32 = 100;
const KNIGHT: i32 = 280;
const BISHOP: i32 = 320;
const ROOK: i32 = 500;
const QUEEN_PAIR_BONUS: i32 = 90;
const OTHER_PAIR_BONUS: i32 = 40;

/// Bonus of a pawn by ranks advanced from its start: promotion nears.
const PAWN_ADVANCE: [i32; 7] = [0, 4, 10, 18, 30, 50, 50];

/// Centre bonus by square for knights and bishops: 0 on the rim, up to 24
/// on the four centre squares.
fn centre(index: usize) -> i32 {
    let file = (index % 8) as i32;
    let rank = (index / 8) as i32;
    let df = if file < 4 { file } else { 7 - file };
    let dr = if rank < 4 { rank } else { 7 - rank };
    (df.min(dr)) * 8
}

impl Evaluate for Fluid {
    fn evaluate(&self) -> i32 {
        let board = &self.state.board;
        let us = self.state.side;
        side_value(board, us) - side_value(board, us.other())
    }

    /// Captures and promotions: what quiescence looks at.
    fn is_tactical(&self, mv: Move) -> bool {
        mv.captured().is_some() || mv.promotion().is_some()
    }
}

fn side_value(board: &Board, colour: Colour) -> i32 {
    let pawns = board.pieces(colour, Kind::Pawn);
    let knights = board.pieces(colour, Kind::Knight);
    let bishops = board.pieces(colour, Kind::Bishop);
    let rooks = board.pieces(colour, Kind::Rook);
    let mut value = PAWN * pawns.count() as i32
        + KNIGHT * knights.count() as i32
        + BISHOP * bishops.count() as i32
        + ROOK * rooks.count() as i32;

    // Pairs: squares where this side has two pieces.
    let own = board.colour(colour);
    for square in board.stacked() & own {
        if board.cell(square).pieces().filter(|p| p.colour() == colour).count() == 2 {
            let queen = (bishops & rooks).contains(square);
            value += if queen { QUEEN_PAIR_BONUS } else { OTHER_PAIR_BONUS };
        }
    }

    for square in pawns {
        let advanced = match colour {
            Colour::White => square.rank() as i32 - 1,
            Colour::Black => 6 - square.rank() as i32,
        };
        value += PAWN_ADVANCE[advanced.clamp(0, 6) as usize];
    }
    for square in knights | bishops {
        value += centre(square.index());
    }
    if let Some(king) = board.king(colour) {
        let home = match colour {
            Colour::White => 0,
            Colour::Black => 7,
        };
        let enemy_rooks = board.pieces(colour.other(), Kind::Rook);
        if enemy_rooks != Bitboard::EMPTY && king.rank() != home {
            value -= 20;
        }
    }
    value
}
