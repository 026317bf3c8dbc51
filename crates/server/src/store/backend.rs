//! The trait a storage backend implements, and its errors.

use super::records::{GameMeta, GameRecord, StoredGame, StoredMove};
use thiserror::Error;

#[derive(Debug, Error)]
pub enum StoreError {
    #[error("database: {0}")]
    Database(String),
    #[error("move {ply} of game {game} is already stored")]
    DuplicateMove { game: String, ply: usize },
    #[error("no game {0}")]
    NoSuchGame(String),
    #[error("corrupt record of game {game}: {problem}")]
    Corrupt { game: String, problem: String },
}

/// Durable storage of games. Every method returns only once its change is
/// committed, so that a move is acknowledged only after it is safe.
/// Implementations are called from blocking threads ([`super::AsyncStore`]), never
/// from the async runtime directly, so a backend may block.
pub trait Store: Send + Sync + 'static {
    fn create(&self, record: &GameRecord) -> Result<(), StoreError>;
    /// Stores move number `ply` (0-based). Storing a ply twice is an error,
    /// so a retried request can never duplicate a move.
    fn append_move(&self, game: &str, ply: usize, mv: &StoredMove) -> Result<(), StoreError>;
    fn set_meta(&self, game: &str, meta: &GameMeta) -> Result<(), StoreError>;
    fn load(&self, game: &str) -> Result<Option<StoredGame>, StoreError>;
    /// Ids of unfinished games in which the computer holds a seat: the
    /// server resumes them at start.
    fn computer_games_in_progress(&self) -> Result<Vec<String>, StoreError>;
    /// A takeback: removes the moves from ply `keep` on (0-based) and sets
    /// `meta`, both or neither.
    fn take_back(&self, game: &str, keep: usize, meta: &GameMeta) -> Result<(), StoreError>;
    /// Ids of unfinished games with a time control: the server watches
    /// their clocks from the start.
    fn timed_games_in_progress(&self) -> Result<Vec<String>, StoreError>;
}
