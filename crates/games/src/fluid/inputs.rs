//! The learned evaluation's inputs for Fluid Chess (`fluid-1`). A square
//! holds one piece or a stack of two, and a stack is more than its pieces
//! (it moves as a pair, or one piece leaves it), so each piece is an input
//! of its square *and* of whether it stands alone or stacked, and each
//! stack is also an input of its two pieces together (wherever it stands).
//! Each perspective sees its own pieces apart from the other's (own first)
//! and the ranks from its side (Black's mirrored).
//!
//! Index: `((stacked × 2 + theirs) × 5 + kind) × 64 + square` (1,280), then
//! `1280 + low × 10 + high` for a stack whose pieces are `theirs × 5 + kind`
//! `low ≤ high` (100): 1,380 in all.

use super::piece::{Colour, Kind, Piece};
use super::square::Square;
use super::Fluid;
use menagerie_core::Player;

pub const FEATURES: &str = "fluid-1";
const KINDS: usize = Kind::ALL.len();
const PIECE_SQUARES: usize = 2 * 2 * KINDS * 64;
pub const INPUTS: usize = PIECE_SQUARES + (2 * KINDS) * (2 * KINDS);

pub fn learned_inputs(game: &Fluid, perspective: Player, inputs: &mut Vec<u16>) {
    let board = &game.state().board;
    let me = if perspective == Player::First { Colour::White } else { Colour::Black };
    let piece_code = |piece: Piece| usize::from(piece.colour() != me) * KINDS + piece.kind().index() - 1;
    for index in 0..64u8 {
        let square = Square::new(index);
        let cell = board.cell(square);
        if cell.is_empty() {
            continue;
        }
        let seen = if me == Colour::White { square.index() } else { square.index() ^ 56 };
        let stacked = usize::from(cell.len() == 2);
        for piece in cell.pieces() {
            inputs.push(((stacked * 2 * KINDS + piece_code(piece)) * 64 + seen) as u16);
        }
        if let (Some(first), Some(second)) = (cell.first(), cell.second()) {
            let (a, b) = (piece_code(first), piece_code(second));
            inputs.push((PIECE_SQUARES + a.min(b) * 2 * KINDS + a.max(b)) as u16);
        }
    }
}
