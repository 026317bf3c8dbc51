//! The computer opponent: searches that play any Menagerie game.
//!
//! - [`AlphaBeta`]: negamax alpha-beta with iterative deepening, a
//!   transposition table, move ordering and quiescence, for the games of
//!   perfect information. It negates scores only when the actor changes, so
//!   several moves in a row by one player (Kelasu's Energy turns) are
//!   searched correctly; chance nodes are averaged (expectimax, sampled
//!   where they have many outcomes).
//! - [`Mcts`]: UCT with random (or evaluation-cut) playouts for any game,
//!   and its information-set form, which samples the hidden state with
//!   [`menagerie_core::Game::determinize`] every iteration and never looks at
//!   the real hidden state.
//! - [`datagen`]: the file of self-play training data (positions, search
//!   scores, results) that `menagerie datagen` writes.
//! - [`Level`]: the strength levels as plain data, shared by the CLI and the
//!   web; [`AgentSpec`] turns `random`, `mcts:1000`, `ai:hard` into players.
//!
//! Everything works on any `G: Game + Evaluate`; a game gets better play by
//! refining its [`menagerie_core::Evaluate`] impl.

mod agent;
pub mod alphabeta;
pub mod datagen;
mod eval_kind;
mod info;
mod level;
pub mod level_ratings;
mod limits;
pub mod mcts;
pub mod playout;
pub mod rating;
mod spec;
pub mod spsa;
pub mod stats;
pub mod tune;

pub use agent::{Agent, Decision, Greedy, RandomAgent};
pub use alphabeta::{AlphaBeta, AlphaBetaConfig};
pub use eval_kind::{EvalKind, StaticEval};
pub use info::{Info, Score};
pub use level::{
    Algorithm, Level, DEFAULT_LEVEL, HIDDEN_INFORMATION_LEVELS, HIDDEN_INFORMATION_PLAYOUT_CUTOFF, LEVELS,
};
pub use limits::{ClockLeft, Limits, StopFlag};
pub use mcts::{Mcts, MctsConfig};
pub use spec::{AgentKind, AgentSpec, Lazy, SearchParts, SpecError};
