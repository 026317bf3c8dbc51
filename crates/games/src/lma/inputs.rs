//! The learned evaluation's inputs for LMA (`lma-1`): a piece on a square
//! of a board. Each perspective sees its own pieces and the other's apart
//! (own first) and the ranks from its side (Black's mirrored), so one set of
//! weights serves both colours. The board a piece is on is part of the
//! input: the same cell plays differently on the board where the piece
//! moves and the one it lands on.
//!
//! Index: `((board × 2 + theirs) × 5 + kind) × 42 + cell`, 840 in all.

use super::piece::KINDS;
use super::square::{CELLS, FILES, RANKS};
use super::Lma;
use menagerie_core::Player;

pub const FEATURES: &str = "lma-1";
pub const INPUTS: usize = 2 * 2 * KINDS.len() * CELLS;

pub fn learned_inputs(game: &Lma, perspective: Player, inputs: &mut Vec<u16>) {
    let pos = game.pos();
    let me = perspective.index();
    for board in 0..2 {
        for side in 0..2 {
            let theirs = usize::from(side != me);
            for kind in KINDS {
                let base = ((board * 2 + theirs) * KINDS.len() + kind as usize) * CELLS;
                for cell in pos.pieces(board, side, kind) {
                    inputs.push((base + seen_from(me, cell)) as u16);
                }
            }
        }
    }
}

/// The cell as `side` sees it: Black's ranks mirrored.
fn seen_from(side: usize, cell: usize) -> usize {
    if side == 0 {
        cell
    } else {
        (RANKS - 1 - cell / FILES) * FILES + cell % FILES
    }
}
