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

    /// Ids of every game, oldest first (`menagerie migrate` copies them).
    fn game_ids(&self) -> Result<Vec<String>, StoreError>;

    /// Claims the computer's seats of `game` for this process, for as long
    /// as it lives: several server processes on one database must not
    /// both move for the computer. True if this process holds the claim
    /// (already or now). A store only one process uses always answers true.
    fn claim_computer(&self, _game: &str) -> Result<bool, StoreError> {
        Ok(true)
    }

    /// Whether this process holds the claim on `game`'s computer seats
    /// (asks nothing of the database).
    fn holds_computer(&self, _game: &str) -> bool {
        true
    }

    /// Whether other processes may share this store (then the server
    /// follows their changes and claims the computer's seats).
    fn is_shared(&self) -> bool {
        false
    }

    /// Claims the unfinished computer games nobody holds (their process
    /// died) and lets go of the finished ones; answers the newly claimed.
    fn claim_orphans(&self) -> Result<Vec<String>, StoreError> {
        Ok(Vec::new())
    }

    /// The games other processes change from now on, as they commit, if
    /// other processes can share this store (taken once; `None` after).
    fn changes(&self) -> Option<tokio::sync::mpsc::UnboundedReceiver<Change>> {
        None
    }
}

/// What another process changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// This game changed (a move, its meta, its creation).
    Game(String),
    /// Changes may have been missed (the connection that hears them was
    /// lost): every game in memory may be stale.
    Missed,
}
