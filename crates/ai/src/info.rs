//! What a search reports: the `info` lines of the engine protocol and the
//! result of `menagerie analyse`.

use serde::Serialize;
use std::fmt;
use std::time::Duration;

/// A score from the view of the player who acts at the root.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Score {
    /// Centi-units (a pawn is 100 in the chess-like games).
    Cp(i32),
    /// The actor wins in this many moves of the game model (plies).
    Win(u32),
    /// The actor loses in this many plies.
    Loss(u32),
}

impl Score {
    /// Reads a negamax score: values within 1000 of `win` are wins and
    /// losses at that distance.
    pub fn from_search(value: i32, win: i32) -> Score {
        if value >= win - 1000 {
            Score::Win((win - value).max(0) as u32)
        } else if value <= -(win - 1000) {
            Score::Loss((win + value).max(0) as u32)
        } else {
            Score::Cp(value)
        }
    }

    /// A win probability (for MCTS) as centi-units, on the usual logistic
    /// scale (400 per factor of ten in odds).
    pub fn from_probability(p: f64) -> Score {
        let p = p.clamp(0.001, 0.999);
        Score::Cp((400.0 * (p / (1.0 - p)).log10()).round() as i32)
    }
}

/// `cp 35`, `win 3`, `loss 4`: the words of the engine protocol.
impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Cp(cp) => write!(f, "cp {cp}"),
            Score::Win(n) => write!(f, "win {n}"),
            Score::Loss(n) => write!(f, "loss {n}"),
        }
    }
}

/// One progress report of a search (an iteration of alpha-beta, or a
/// snapshot of MCTS).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Info {
    /// Completed depth (alpha-beta) or depth of the principal variation (MCTS).
    pub depth: u32,
    /// Deepest ply reached, quiescence included.
    pub seldepth: u32,
    pub score: Score,
    /// Nodes (alpha-beta) or playouts (MCTS).
    pub nodes: u64,
    #[serde(skip)]
    pub time: Duration,
    /// The principal variation as move texts, starting with the best move.
    pub pv: Vec<String>,
}

impl Info {
    pub fn nps(&self) -> u64 {
        (self.nodes as f64 / self.time.as_secs_f64().max(1e-6)) as u64
    }

    /// The engine protocol line: `info depth 5 seldepth 9 score cp 20 nodes ... nps ... time ... pv ...`.
    pub fn protocol_line(&self) -> String {
        let mut line = format!(
            "info depth {} seldepth {} score {} nodes {} nps {} time {}",
            self.depth,
            self.seldepth,
            self.score,
            self.nodes,
            self.nps(),
            self.time.as_millis()
        );
        if !self.pv.is_empty() {
            line.push_str(" pv ");
            line.push_str(&self.pv.join(" "));
        }
        line
    }
}
