//! What `menagerie study` counts in LMA: the men by kind (the Cardinal,
//! Rook and Queen values the inventor asked for), board switches, captures,
//! and how often pieces stand on paired squares (a piece whose twin square
//! on the other board is occupied, which blocks moves landing there).

use super::moves::Move;
use super::piece::{Kind, BLACK, WHITE};
use super::square::{Square, CELLS};
use super::Lma;
use menagerie_core::{Study, Tally};

const VALUED: [(Kind, &str); 4] =
    [(Kind::Queen, "queen"), (Kind::Rook, "rook"), (Kind::Cardinal, "cardinal"), (Kind::Pawn, "pawn")];

impl Study for Lma {
    fn material(&self) -> Vec<(&'static str, f64)> {
        let count = |side: usize, kind: Kind| -> f64 {
            (0..2).map(|board| self.pos().pieces(board, side, kind).into_iter().count() as f64).sum()
        };
        VALUED.iter().map(|&(kind, name)| (name, count(WHITE, kind) - count(BLACK, kind))).collect()
    }

    fn tally_move(before: &Lma, mv: Move, after: &Lma, tally: &mut Tally) {
        tally.add("board switches", u64::from(mv.from.board() != mv.to.board()));
        let pieces_before: u32 = (0..2).map(|b| before.pos().occupied(b).into_iter().count()).sum();
        let pieces_after: u32 = (0..2).map(|b| after.pos().occupied(b).into_iter().count()).sum();
        tally.add("captures", u64::from(pieces_after < pieces_before));
        tally.add("promotions", u64::from(mv.promotion().is_some()));
        let paired = (0..CELLS)
            .filter(|&cell| {
                after.pos().piece_at(Square::new(0, cell)).is_some() && after.pos().piece_at(Square::new(1, cell)).is_some()
            })
            .count() as u64;
        // Both pieces of a pair stand on a paired square.
        tally.add("pieces on paired squares, summed over moves", 2 * paired);
        tally.add("moves", 1);
    }
}
