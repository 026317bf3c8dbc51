//! The rules of every Menagerie game, one folder each, and the registry that
//! finds a game by its variant id.

pub mod alice;
pub mod fluid;
pub mod kelasu;
pub mod lichen;
pub mod lunch;
mod registry;
pub mod weights;

pub use registry::{new_game, variants, visit, NewGameError};
