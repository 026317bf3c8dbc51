//! The action space and observation tensor (documented in docs/lma.md).
//!
//! Action = `((from square) * 42 + to cell) * 4 + promotion`, the from square
//! numbered `board * 42 + cell` (0..84), the to cell `file + 6 * (rank - 1)`
//! and the promotion 0 none, 1 `q`, 2 `r`, 3 `c`: the parts of the move text
//! `<from><to cell>[q|r|c]`, so that an index always names one text.

use super::moves::{Move, Special};
use super::piece::{Kind, KINDS};
use super::square::{cell_name, Square, CELLS};
use super::{Lma, LmaVariant};
use menagerie_core::encode::{fill_plane, set_plane};
use menagerie_core::{Encode, Game, Player};

const PROMOTIONS: [Option<Kind>; 4] = [None, Some(Kind::Queen), Some(Kind::Rook), Some(Kind::Cardinal)];
const ACTIONS: usize = 2 * CELLS * CELLS * PROMOTIONS.len();
/// Planes: a piece plane per board, side and kind (20), then whose turn
/// it is (1 when Black), the four castling rights, the fifty-move clock / 100.
const PIECE_PLANES: usize = 2 * 2 * KINDS.len();
const PLANES: usize = PIECE_PLANES + 1 + 4 + 1;

impl Encode for Lma {
    fn num_distinct_actions(_variant: &LmaVariant) -> usize {
        ACTIONS
    }

    fn action(&self, mv: Move) -> usize {
        let from = mv.from.board() * CELLS + mv.from.cell();
        let promotion = match mv.special {
            Special::Promote(kind) => PROMOTIONS.iter().position(|&p| p == Some(kind)).unwrap_or(0),
            Special::Plain | Special::Castle(_) => 0,
        };
        (from * CELLS + mv.to.cell()) * PROMOTIONS.len() + promotion
    }

    fn action_text(_variant: &LmaVariant, action: usize) -> Option<String> {
        if action >= ACTIONS {
            return None;
        }
        let promotion = PROMOTIONS[action % PROMOTIONS.len()];
        let to_cell = action / PROMOTIONS.len() % CELLS;
        let from = action / PROMOTIONS.len() / CELLS;
        let from = Square::new(from / CELLS, from % CELLS);
        let mut text = format!("{from}{}", cell_name(to_cell));
        if let Some(kind) = promotion {
            text.push(kind.letter().to_ascii_lowercase());
        }
        Some(text)
    }

    /// A capture or a pawn step must come every 100 plies (the fifty-move
    /// rule), and there are at most as many captures as pieces and five
    /// steps per pawn (rank 2 to rank 7).
    fn max_game_length(variant: &LmaVariant) -> usize {
        let start = Lma::start(variant, 0);
        let pos = start.pos();
        let pieces: usize = (0..2).map(|board| (pos.sides[board][0] | pos.sides[board][1]).count() as usize).sum();
        let pawns: usize = (0..2).map(|board| pos.kinds[board][Kind::Pawn as usize].count() as usize).sum();
        (pieces + 5 * pawns + 1) * 100
    }

    fn observation_shape(_variant: &LmaVariant) -> Vec<usize> {
        vec![PLANES, 7, 6]
    }

    fn observe(&self, _viewer: Player, out: &mut [f32]) {
        let pos = self.pos();
        for board in 0..2 {
            for cell in 0..CELLS {
                if let Some((side, kind)) = pos.piece_at(Square::new(board, cell)) {
                    set_plane(out, CELLS, (board * 2 + side) * KINDS.len() + kind as usize, cell);
                }
            }
        }
        fill_plane(out, CELLS, PIECE_PLANES, pos.side_to_move() as f32);
        for right in 0..4 {
            let held = pos.castling & (1 << right) != 0;
            fill_plane(out, CELLS, PIECE_PLANES + 1 + right, f32::from(u8::from(held)));
        }
        fill_plane(out, CELLS, PLANES - 1, pos.halfmove.min(100) as f32 / 100.0);
    }
}
