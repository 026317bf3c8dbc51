//! Strength levels as plain data, shared by the CLI and the web server.
//!
//! Each level names an algorithm and its budget. Games of perfect
//! information play alpha-beta; games with hidden information play
//! information-set MCTS at the same level names ([`Level::for_game`]).

use menagerie_core::Game;
use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Algorithm {
    /// A uniformly random legal move.
    Random,
    /// The move with the best evaluation one move ahead.
    Greedy,
    /// Alpha-beta with iterative deepening.
    AlphaBeta,
    /// UCT with random playouts.
    Mcts,
    /// UCT over determinizations of what the player may see.
    InformationSetMcts,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Level {
    pub name: &'static str,
    pub summary: &'static str,
    pub algorithm: Algorithm,
    /// Thinking time per turn: one move, but in Kelasu all the actions of
    /// a turn share it; in Lunch Chess it is per decision.
    pub time_ms: Option<u64>,
    /// Alpha-beta: the nominal depth in moves of the game model.
    pub depth: Option<u32>,
    /// MCTS: playouts per move.
    pub playouts: Option<u64>,
    /// MCTS: plies after which a playout stops and is scored by the evaluation.
    pub playout_cutoff: Option<u32>,
    /// Threads the search may use, at most (fewer on a machine with fewer
    /// cores: [`Level::threads_here`]). A server running searches side by
    /// side counts each level's threads against its cores.
    pub threads: u32,
}

const fn level(name: &'static str, summary: &'static str, algorithm: Algorithm) -> Level {
    Level { name, summary, algorithm, time_ms: None, depth: None, playouts: None, playout_cutoff: None, threads: 1 }
}

/// The levels of the games of perfect information, weakest first.
pub const LEVELS: &[Level] = &[
    Level { depth: Some(1), ..level("easy", "looks one move ahead, plus captures", Algorithm::AlphaBeta) },
    Level { depth: Some(3), time_ms: Some(200), ..level("medium", "three moves ahead", Algorithm::AlphaBeta) },
    Level {
        time_ms: Some(1000),
        threads: 2,
        ..level("hard", "alpha-beta, one second a turn on two threads", Algorithm::AlphaBeta)
    },
    Level {
        time_ms: Some(5000),
        threads: 4,
        ..level("strongest", "alpha-beta, five seconds a turn on up to four threads", Algorithm::AlphaBeta)
    },
];

/// Where playouts stop in games with hidden information, to be judged by
/// the evaluation (its fitted win scale): long random playouts there say
/// less than the evaluation does. Screened in Lunch Chess at 100 ms a
/// decision (calibrated scores): 16 plies scored 65% against 8 (40 games),
/// 4 scored 50% and 0 scored 22% against 8; against the uncalibrated
/// 60-ply player, 8 scored 97% and 60 82% (60 games each).
pub const HIDDEN_INFORMATION_PLAYOUT_CUTOFF: u32 = 16;

/// The levels of games with hidden information, weakest first.
pub const HIDDEN_INFORMATION_LEVELS: &[Level] = &[
    Level {
        playouts: Some(100),
        playout_cutoff: Some(HIDDEN_INFORMATION_PLAYOUT_CUTOFF),
        ..level("easy", "a hundred sampled playouts", Algorithm::InformationSetMcts)
    },
    Level {
        playouts: Some(1000),
        playout_cutoff: Some(HIDDEN_INFORMATION_PLAYOUT_CUTOFF),
        ..level("medium", "a thousand sampled playouts", Algorithm::InformationSetMcts)
    },
    Level {
        time_ms: Some(1000),
        playout_cutoff: Some(HIDDEN_INFORMATION_PLAYOUT_CUTOFF),
        threads: 2,
        ..level("hard", "information-set MCTS, one second a decision on two threads", Algorithm::InformationSetMcts)
    },
    Level {
        time_ms: Some(5000),
        playout_cutoff: Some(HIDDEN_INFORMATION_PLAYOUT_CUTOFF),
        threads: 4,
        ..level(
            "strongest",
            "information-set MCTS, five seconds a decision on up to four threads",
            Algorithm::InformationSetMcts,
        )
    },
];

/// The level `ai` means without a name.
pub const DEFAULT_LEVEL: &str = "hard";

impl Level {
    /// The levels that fit game `G`.
    pub fn all_for<G: Game>() -> &'static [Level] {
        if G::has_hidden_information() {
            HIDDEN_INFORMATION_LEVELS
        } else {
            LEVELS
        }
    }

    /// The level of that name for game `G` (`None` if there is none).
    pub fn for_game<G: Game>(name: &str) -> Option<Level> {
        Self::all_for::<G>().iter().find(|l| l.name == name).copied()
    }

    /// The names of the levels, weakest first.
    pub fn names() -> Vec<&'static str> {
        LEVELS.iter().map(|l| l.name).collect()
    }

    /// The threads this level searches with on this machine: its
    /// [`Level::threads`], but no more than the machine's cores.
    pub fn threads_here(&self) -> usize {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        (self.threads as usize).clamp(1, cores)
    }
}
