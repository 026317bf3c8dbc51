//! The computer opponent: levels as data, and a player per level that picks
//! a move from the position it is shown (for hidden-information games, the
//! server shows it only the seat's view through the game's own rules: the
//! searcher must not peek, which [`ComputerPlayer`] implementations promise).

use menagerie_core::DynGame;
use rand::seq::IndexedRandom;
use std::sync::Arc;

/// A level the page offers.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Level {
    pub id: String,
    pub name: String,
    pub summary: String,
}

/// Chooses the computer's move. Runs on a blocking thread, may take a while.
pub trait ComputerPlayer: Send + Sync {
    /// A legal move text of `game` for the actor to move, or `None` if there
    /// is none (the game is over).
    fn choose(&self, game: &dyn DynGame) -> Option<String>;
}

/// The set of levels and a player for each.
pub trait Opponents: Send + Sync + 'static {
    fn levels(&self) -> Vec<Level>;
    /// The player for `level`, or `None` if there is no such level.
    fn player(&self, level: &str) -> Option<Arc<dyn ComputerPlayer>>;
}

/// Plays a uniformly random legal move.
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomPlayer;

impl ComputerPlayer for RandomPlayer {
    fn choose(&self, game: &dyn DynGame) -> Option<String> {
        game.legal_moves().choose(&mut rand::rng()).cloned()
    }
}

/// Only the random player: the opponent used until a search is plugged in,
/// and in tests that need fast computer moves.
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomOnly;

impl Opponents for RandomOnly {
    fn levels(&self) -> Vec<Level> {
        vec![Level { id: "random".into(), name: "Random".into(), summary: "plays any legal move".into() }]
    }
    fn player(&self, level: &str) -> Option<Arc<dyn ComputerPlayer>> {
        (level == "random").then(|| Arc::new(RandomPlayer) as Arc<dyn ComputerPlayer>)
    }
}
