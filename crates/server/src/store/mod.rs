//! Where games live between restarts. The server talks to a [`Store`]; SQLite
//! ([`SqliteStore`]) is the default, and another database (PostgreSQL) is one
//! more implementation of the trait.
//!
//! A game is stored as what it started from (variant string, optional start
//! position, chance seed, and the data its options named: a Lunch Chess
//! deck's cards), who sits in each seat, the moves in order, and what ended
//! it outside the rules (resignation, agreed draw). Replaying the moves
//! rebuilds the position exactly, from the store alone.

mod sqlite;

pub use sqlite::SqliteStore;

use menagerie_core::Player;
use serde::{Deserialize, Serialize};
use std::sync::Arc;
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

/// Who sits in a seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum SeatKind {
    /// A person, who moves with the seat's secret.
    Human,
    /// The computer at a level (a level id of [`crate::computer::Opponents`]).
    Computer { level: String },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seat {
    pub kind: SeatKind,
    /// The secret that moves for this seat (`None` for a computer seat).
    pub secret: Option<String>,
}

/// How the game was set up, for the page (and for a rematch).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Against the computer.
    Computer,
    /// Two people, each with their own link.
    Friend,
    /// Two people on one device: the creator holds both secrets.
    Local,
}

impl Mode {
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Computer => "computer",
            Mode::Friend => "friend",
            Mode::Local => "local",
        }
    }
    pub fn parse(text: &str) -> Option<Mode> {
        match text {
            "computer" => Some(Mode::Computer),
            "friend" => Some(Mode::Friend),
            "local" => Some(Mode::Local),
            _ => None,
        }
    }
}

/// What a game started from and who plays it; never changes after creation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    pub id: String,
    pub variant: String,
    pub position: Option<String>,
    pub seed: u64,
    pub mode: Mode,
    /// Indexed by [`Player::index`].
    pub seats: [Seat; 2],
    /// Seconds since the Unix epoch.
    pub created: i64,
    /// The data the variant's options named when the game was made (the
    /// deck of `lunch:deck=NAME`, the standard one included): the game
    /// reloads with it whatever becomes of the operator's files.
    pub data: Vec<GameData>,
}

/// Data an option value named (`deck=small`): the option, the name and the
/// text (a deck's TOML).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameData {
    pub option: String,
    pub name: String,
    pub text: Arc<str>,
}

/// Who made a stored move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum MoveActor {
    First,
    Second,
    Chance,
}

impl MoveActor {
    pub fn as_str(self) -> &'static str {
        match self {
            MoveActor::First => "first",
            MoveActor::Second => "second",
            MoveActor::Chance => "chance",
        }
    }
    pub fn parse(text: &str) -> Option<MoveActor> {
        match text {
            "first" => Some(MoveActor::First),
            "second" => Some(MoveActor::Second),
            "chance" => Some(MoveActor::Chance),
            _ => None,
        }
    }
    pub fn player(self) -> Option<Player> {
        match self {
            MoveActor::First => Some(Player::First),
            MoveActor::Second => Some(Player::Second),
            MoveActor::Chance => None,
        }
    }
    pub fn of(player: Player) -> MoveActor {
        match player {
            Player::First => MoveActor::First,
            Player::Second => MoveActor::Second,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredMove {
    pub text: String,
    pub actor: MoveActor,
}

/// An end the rules did not decide: a resignation or an agreed draw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    /// `None` for a draw.
    pub winner: Option<Player>,
    pub reason: String,
}

/// What can change after creation besides the moves.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameMeta {
    pub ending: Option<Ending>,
    pub draw_offer: Option<Player>,
    /// The id of the rematch game, once someone asked for one.
    pub rematch: Option<String>,
    /// Whether the game is over (by the rules or by `ending`): finished
    /// games need no computer at restart.
    pub finished: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredGame {
    pub record: GameRecord,
    pub moves: Vec<StoredMove>,
    pub meta: GameMeta,
}

/// Durable storage of games. Every method returns only once its change is
/// committed, so that a move is acknowledged only after it is safe.
/// Implementations are called from blocking threads, never from the async
/// runtime directly.
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
}

pub fn player_str(player: Player) -> &'static str {
    match player {
        Player::First => "first",
        Player::Second => "second",
    }
}

pub fn parse_player(text: &str) -> Option<Player> {
    match text {
        "first" => Some(Player::First),
        "second" => Some(Player::Second),
        _ => None,
    }
}
