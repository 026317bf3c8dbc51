//! The move type: one whole turn, a placement and an optional act (texts:
//! `notation`).

use super::square::{Direction, Square};

/// The optional second half of a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Act {
    /// Nothing after the placement (also the whole move of a winning placement).
    Pass,
    /// The stone on `from` moves one square in `dir` (`a2ne;c1>n`).
    Step { from: Square, dir: Direction },
    /// The stone on `from` puts a token into slot `dir` of its neighbour in
    /// direction `dir` (`a2ne;a2*ne`).
    Colonize { from: Square, dir: Direction },
}

/// One whole turn: a token into `slot` of the stone on `square`, then `act`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub square: Square,
    pub slot: Direction,
    pub act: Act,
}
