//! What `menagerie study` counts in Fluid Chess: the pieces by kind and the
//! friendly pairs (the material), and per move the stacks formed, pair
//! moves, splits, captures, double captures and promotions.

use super::board::Board;
use super::moves::Move;
use super::piece::{Colour, Kind};
use super::Fluid;
use menagerie_core::{Study, Tally};

/// The pieces of `colour`, every piece of a stack counted.
fn men(board: &Board, colour: Colour) -> usize {
    board.occupied().into_iter().map(|sq| board.cell(sq).pieces().filter(|p| p.colour() == colour).count()).sum()
}

/// Squares holding two pieces of `colour`.
fn pairs(board: &Board, colour: Colour) -> usize {
    (board.stacked() & board.colour(colour))
        .into_iter()
        .filter(|&sq| board.cell(sq).pieces().filter(|p| p.colour() == colour).count() == 2)
        .count()
}

/// Pieces of one kind, a pair's two pieces counted apart (a queen is a
/// bishop and a rook).
fn kind_count(board: &Board, colour: Colour, kind: Kind) -> usize {
    board
        .occupied()
        .into_iter()
        .map(|sq| board.cell(sq).pieces().filter(|p| p.colour() == colour && p.kind() == kind).count())
        .sum()
}

impl Study for Fluid {
    fn material(&self) -> Vec<(&'static str, f64)> {
        let board = &self.state().board;
        let difference =
            |f: &dyn Fn(Colour) -> usize| f(Colour::White) as f64 - f(Colour::Black) as f64;
        vec![
            ("pawn", difference(&|c| kind_count(board, c, Kind::Pawn))),
            ("knight", difference(&|c| kind_count(board, c, Kind::Knight))),
            ("bishop", difference(&|c| kind_count(board, c, Kind::Bishop))),
            ("rook", difference(&|c| kind_count(board, c, Kind::Rook))),
            ("friendly pair", difference(&|c| pairs(board, c))),
        ]
    }

    fn tally_move(before: &Fluid, mv: Move, after: &Fluid, tally: &mut Tally) {
        let mover = before.state().side;
        let (b, a) = (&before.state().board, &after.state().board);
        tally.add("pair moves", u64::from(mv.is_pair()));
        let from_was_pair = b.cell(mv.from()).pieces().filter(|p| p.colour() == mover).count() == 2;
        tally.add("splits", u64::from(from_was_pair && !mv.is_pair()));
        tally.add("stacks formed", pairs(a, mover).saturating_sub(pairs(b, mover)) as u64);
        let lost = men(b, mover.other()).saturating_sub(men(a, mover.other()));
        tally.add("captures", u64::from(lost >= 1));
        tally.add("double captures", u64::from(lost >= 2));
        tally.add("promotions", u64::from(mv.promotion().is_some()));
    }
}
