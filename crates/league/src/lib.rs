//! The rules of Menagerie's league, as plain functions: no I/O, no clock, no
//! store. The server reads ratings, standings and results from its store, asks
//! these functions what follows, and stores the answer; so every rule here is
//! tested on hand-made data, and a node that takes over a tournament computes
//! exactly what the node before it would have.
//!
//! - [`glicko2`]: Glicko-2 ratings with lichess's parameters and bounds.
//! - [`arena`]: lichess-style arena scoring (streaks, berserk) and pairing.
//! - [`round_robin`]: the circle method's schedule and its standings.

pub mod arena;
pub mod glicko2;
pub mod round_robin;

/// How a finished game went for one of its two players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    Win,
    Draw,
    Loss,
}

impl Outcome {
    /// Glicko's score: 1 for a win, ½ for a draw, 0 for a loss (a round
    /// robin's points are the same).
    pub fn score(self) -> f64 {
        match self {
            Outcome::Win => 1.0,
            Outcome::Draw => 0.5,
            Outcome::Loss => 0.0,
        }
    }

    /// How the same game went for the opponent.
    pub fn reversed(self) -> Outcome {
        match self {
            Outcome::Win => Outcome::Loss,
            Outcome::Draw => Outcome::Draw,
            Outcome::Loss => Outcome::Win,
        }
    }
}
