//! The evaluation of an LMA position, for the searches of `menagerie-ai`,
//! from the view of the side to move.
//!
//! Material in centipawns, as in chess, scaled to the small board: Pawn
//! 100, Rook 500, Queen 900, and the Cardinal (bishop + knight, which
//! replaces both) 650: on 6×7 boards a knight's jump covers much of the
//! board, and a piece can only ever reach squares of one colour on each
//! board, so it is worth a good deal more than a bishop (330) but less
//! than chess's archbishop on 8×8 (about 800). Pawns gain as they near
//! the far rank (two steps from promoting to a queen is a real threat);
//! pieces like the centre files.

use super::bitboard::Bitboard;
use super::moves::{Move, Special};
use super::piece::Kind;
use super::position::Position;
use super::Lma;
use menagerie_core::Evaluate;

const VALUE: [i32; 5] = [0, 900, 500, 650, 100];
/// By ranks advanced from the pawn's start (rank 2 for White).
const PAWN_ADVANCE: [i32; 6] = [0, 0, 8, 20, 45, 80];
/// By file a..f: the centre files give more moves on a 6-wide board.
const FILE_BONUS: [i32; 6] = [0, 6, 12, 12, 6, 0];

impl Evaluate for Lma {
    fn evaluate(&self) -> i32 {
        let pos = &self.pos;
        let us = pos.side_to_move();
        side_value(pos, us) - side_value(pos, 1 - us)
    }

    /// Captures and promotions.
    fn is_tactical(&self, mv: Move) -> bool {
        let enemy = 1 - self.pos.side_to_move();
        matches!(mv.special, Special::Promote(_)) || self.pos.sides[mv.to.board()][enemy].contains_index(mv.to.cell())
    }
}

fn side_value(pos: &Position, side: usize) -> i32 {
    let mut value = 0;
    for board in 0..2 {
        for kind in [Kind::Queen, Kind::Rook, Kind::Cardinal] {
            let pieces: Bitboard = pos.pieces(board, side, kind);
            for cell in pieces {
                value += VALUE[kind as usize] + FILE_BONUS[cell % 6];
            }
        }
        for cell in pos.pieces(board, side, Kind::Pawn) {
            let rank = cell / 6;
            let advanced = if side == 0 { rank.saturating_sub(1) } else { 5usize.saturating_sub(rank) };
            value += VALUE[Kind::Pawn as usize] + PAWN_ADVANCE[advanced.min(5)];
        }
    }
    value
}
