//! What is stored of a game: its record (what it started from and who
//! plays it), its moves, and what can change besides them.

use crate::time_control::TimeControl;
use menagerie_core::Player;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// Who sits in a seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum SeatKind {
    /// A person, who moves with the seat's secret.
    Human,
    /// The computer at a level (a level id of the server's opponents).
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
    /// The clocks' time control; `None` is unlimited time.
    pub time_control: Option<TimeControl>,
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
    /// When the move was committed (ms since the Unix epoch): the clocks are
    /// rebuilt from these. `None` for moves stored before times were kept.
    pub at: Option<i64>,
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
    /// Who asks to take back a move (stored like a draw offer, so that
    /// every node sees it).
    pub takeback_offer: Option<Player>,
    /// The id of the rematch game, once someone asked for one.
    pub rematch: Option<String>,
    /// Whether the game is over (by the rules or by `ending`): finished
    /// games need no computer at restart.
    pub finished: bool,
    /// When the clocks last changed otherwise than by a move (ms since the
    /// Unix epoch): a takeback restarts the running clock then, an ending
    /// outside the rules stops it then.
    pub clock_at: Option<i64>,
}

/// What a writer saw of a game: its number of moves and its meta. A write
/// other than a move applies only if the store still holds exactly that, so
/// that a node never writes over a change it has not seen (a move, an offer
/// withdrawn, a resignation made through another node).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seen<'a> {
    pub plies: usize,
    pub meta: &'a GameMeta,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredGame {
    pub record: GameRecord,
    pub moves: Vec<StoredMove>,
    pub meta: GameMeta,
    /// The game's version: 0 when created, one more with every write to it
    /// (each move, each meta, each takeback), in the write's transaction.
    /// Every node reads the same number for the same game, so a client may
    /// compare the versions of answers from any nodes.
    pub version: u64,
}

impl StoredGame {
    /// Whether `other` holds the same game (its version aside: a copy in
    /// another store counts its own writes).
    pub fn same_game(&self, other: &StoredGame) -> bool {
        (&self.record, &self.moves, &self.meta) == (&other.record, &other.moves, &other.meta)
    }
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
