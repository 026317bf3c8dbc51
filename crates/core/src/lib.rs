//! The Menagerie game model.
//!
//! Every game implements [`Game`]: a position that says who acts now
//! ([`Actor`]: a player or chance), lists its legal moves into a caller's
//! buffer, plays and undoes moves in place, reports its [`Outcome`], hashes
//! itself for repetition and transposition tables, and reads and writes move
//! and position texts with typed errors.
//!
//! Presentation sits beside the rules, in [`view`]: the [`Present`] trait
//! (the terminal drawing and the typed [`View`] the web page draws).
//!
//! Chance acts through [`sample_chance`], which draws a chance move with the
//! game's probabilities, for every driver alike.
//!
//! On top of it sit [`perft`], the object-safe [`DynGame`] layer used by the
//! CLI and the server (texts in, texts and JSON out), the variant strings of
//! the registry ([`VariantSpec`]) with the [`Resolver`] that says what an
//! option value naming data (`deck=NAME`) means, generic property checks every game runs
//! ([`testing`]), and [`bitboard!`], the set-of-squares type the bitboard
//! games declare.

#[doc(hidden)]
pub mod bitboard;
mod chance;
pub mod deposit;
mod dynamic;
pub mod encode;
mod error;
mod evaluate;
mod game;
pub mod nnue;
pub mod perft;
mod player;
pub mod record;
pub mod repetition;
mod resolve;
mod study;
pub mod testing;
pub mod timeline;
mod variant;
pub mod view;
pub mod zobrist;

pub use chance::{draw_listed_move, sample_chance, sample_weighted};
pub use dynamic::{DynEncoded, DynGame, Erased};
pub use encode::Encode;
pub use error::{MoveError, PositionError};
pub use evaluate::{Evaluate, FeatureVector, Terms, WeightedSum, WEIGHT_SCALE};
pub use game::{Game, GameVisitor};
pub use player::{Actor, Outcome, Player};
pub use resolve::{shown, NoData, Resolved, Resolver};
pub use study::{Study, Tally};
pub use variant::{OptionInfo, VariantError, VariantInfo, VariantOption, VariantSpec};
pub use view::{Counters, Present, View};
