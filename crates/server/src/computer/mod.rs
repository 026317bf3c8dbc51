//! The computer opponent: who it is (`players.rs`: levels, and a player per
//! level) and what makes it move (`driver.rs`: the driver that searches
//! when a game waits for the computer and plays the move found).

mod driver;
mod players;

pub use driver::ComputerDriver;
pub use players::{
    ComputerPlayer, Level, LevelPlayer, Opponents, RandomOnly, RandomPlayer, SearchLevels, TakebackLevels,
    DEFAULT_LEVEL, MAX_SEARCH_TIME,
};
