//! The computer as the games in play see it: the levels a game may be
//! played against, a player per level ([`Opponents`], implemented by the
//! computer capability above), and which levels take a move back.

use crate::live::TakebackPolicy;
use menagerie_ai::level_ratings::StoredRating;
use menagerie_ai::ClockLeft;
use menagerie_core::DynGame;
use std::collections::BTreeMap;
use std::sync::Arc;

/// A level the page offers.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Level {
    pub id: String,
    pub name: String,
    pub summary: String,
    /// The level a new game gets when none is chosen (the page preselects it).
    pub default: bool,
    /// Its measured Elo rating (random = 0) by variant id, where measured
    /// (`menagerie ladder --save`, `data/ratings.toml`).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub ratings: BTreeMap<String, StoredRating>,
}

/// The levels whose computer takes a move back when asked: those below
/// "hard" (every level, when there is no "hard"); the stronger ones play
/// for real.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TakebackLevels(Vec<String>);

impl TakebackLevels {
    pub fn of(levels: &[Level]) -> TakebackLevels {
        let below = levels.iter().position(|l| l.id == "hard").unwrap_or(levels.len());
        TakebackLevels(levels[..below].iter().map(|l| l.id.clone()).collect())
    }

    pub fn grant(&self, level: &str) -> bool {
        self.0.iter().any(|l| l == level)
    }
}

impl TakebackPolicy for TakebackLevels {
    fn grants(&self, level: &str) -> bool {
        self.grant(level)
    }
}

/// Chooses the computer's move. Runs on a blocking thread, may take a while.
pub trait ComputerPlayer: Send + Sync {
    /// A legal move text of `game` for the actor to move, or `None` if there
    /// is none (the game is over).
    fn choose(&self, game: &dyn DynGame) -> Option<String>;

    /// [`ComputerPlayer::choose`] with the player's clock running: the
    /// decision takes no more than the clock allows
    /// ([`menagerie_ai::ClockLeft::turn_budget`]). A player that answers at
    /// once needs nothing more than `choose`.
    fn choose_on_clock(&self, game: &dyn DynGame, clock: Option<ClockLeft>) -> Option<String> {
        let _ = clock;
        self.choose(game)
    }

    /// The threads one search of this player keeps busy: the server counts
    /// them against its cap on simultaneous searches.
    fn threads(&self) -> u32 {
        1
    }
}

/// The set of levels and a player for each.
pub trait Opponents: Send + Sync + 'static {
    fn levels(&self) -> Vec<Level>;
    /// The player for `level`, or `None` if there is no such level.
    fn player(&self, level: &str) -> Option<Arc<dyn ComputerPlayer>>;
}
