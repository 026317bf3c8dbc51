//! The computer opponent: who it is (`players.rs`: the levels, and a player
//! per level). What makes it move in a game is the games in play's own
//! ([`menagerie_play::computer::ComputerDriver`]), asking these players
//! through the [`Opponents`] trait it defines.

mod players;

pub use menagerie_play::computer::ComputerDriver;
pub use menagerie_play::opponents::{ComputerPlayer, Level, Opponents, TakebackLevels};
pub use players::{LevelPlayer, RandomOnly, RandomPlayer, SearchLevels, DEFAULT_LEVEL, MAX_SEARCH_TIME};
