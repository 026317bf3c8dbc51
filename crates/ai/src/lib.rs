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
//! - [`Level`]: the strength levels as plain data, shared by the CLI and the
//!   web; [`AgentSpec`] turns `random`, `mcts:1000`, `ai:hard` into players.
//!
//! Everything works on any `G: Game + Evaluate`; a game gets better play by
//! refining its [`menagerie_core::Evaluate`] impl.

mod agent;
pub mod alphabeta;
mod info;
mod level;
mod limits;
pub mod mcts;
pub mod playout;

pub use agent::{Agent, AgentSpec, Decision, Greedy, RandomAgent, SpecError};
pub use alphabeta::AlphaBeta;
pub use info::{Info, Score};
pub use level::{Algorithm, Level, DEFAULT_LEVEL, HIDDEN_INFORMATION_LEVELS, LEVELS};
pub use limits::{Limits, StopFlag};
pub use mcts::{Mcts, MctsConfig};
