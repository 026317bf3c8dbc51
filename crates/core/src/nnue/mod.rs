//! The learned evaluation: a small network per game, trained from self-play
//! (`menagerie train`), read from `data/nnue/<game>.bin`, and evaluated with
//! integer arithmetic along the search.
//!
//! The shape is the one NNUE engines use, small: each position is a set of
//! active *inputs* per perspective (a game's own choice:
//! [`crate::Evaluate::learned_inputs`]: piece-square inputs for the chess-like
//! games, slots for Lichen, cells and Energy for Kelasu), one hidden layer
//! of `hidden` units per perspective (the *accumulator*: the bias plus the
//! weight rows of the active inputs), squared clipped ReLU (SCReLU), and one
//! output from both perspectives' units, the side to act's first. An
//! accumulator is a sum of rows, so a move changes it by the rows of the
//! inputs it adds and removes ([`Accumulator::update`]).
//!
//! - [`network`]: the weights and their file format;
//! - [`accumulator`]: the hidden units, kept up to date by difference;
//! - [`Evaluator`]: both perspectives' accumulators for one search thread.

mod accumulator;
mod network;

pub use accumulator::{sorted_inputs, Accumulator, Evaluator, Update};
pub use network::{Base, FloatNetwork, LazyNetwork, Network, NetworkError, OUTPUT_SCALE, QA, QB};
