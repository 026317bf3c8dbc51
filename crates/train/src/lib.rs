//! Trains a game's learned evaluation (`menagerie train`): a small network
//! (`menagerie_core::nnue`) fitted to self-play positions from
//! `menagerie datagen` files, on the CPU with candle.
//!
//! - [`samples`]: the positions read from data files as the network's
//!   inputs, with their targets (a blend of the search's score and the
//!   game's result, both as win chances on the game's fitted scale);
//! - [`fit`]: the training loop and the quantized network it ends with.
//!
//! The inference in the engine is not here: the search evaluates the
//! integer network with its own accumulators (`menagerie_core::nnue`); this
//! crate only makes the weights.

pub mod fit;
pub mod samples;

pub use fit::{train, Report, Settings};
pub use samples::{Filter, Samples, SamplesError};
