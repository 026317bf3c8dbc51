//! What can go wrong in the store.

use thiserror::Error;

#[derive(Debug, Error)]
pub enum StoreError {
    #[error("database: {0}")]
    Database(String),
    #[error("move {ply} of game {game} is already stored")]
    DuplicateMove { game: String, ply: usize },
    /// A write about the game as its writer saw it, while the store holds
    /// something else: another node changed it first.
    #[error("game {game} changed meanwhile")]
    Stale { game: String },
    #[error("no game {0}")]
    NoSuchGame(String),
    #[error("corrupt record of game {game}: {problem}")]
    Corrupt { game: String, problem: String },
}
