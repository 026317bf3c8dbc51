//! The rules of every Menagerie game, one folder each, and the registry that
//! finds a game by its variant id. The layout of a folder, and what adding a
//! game takes, are in this crate's README.md.

#[macro_use]
mod registry;
pub mod weights;

// The registry: one line per game, `folder::GameType`, in the order the
// games are listed everywhere.
games!(lma::Lma, fluid::Fluid, lichen::Lichen, kelasu::Kelasu, lunch::Lunch);

pub use registry::{new_encoded_game, new_game, visit, BuiltinData, NewGameError};
