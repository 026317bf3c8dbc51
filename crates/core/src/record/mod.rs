//! Game records in the PGN convention (`docs/records.md` is the format):
//! tag pairs, then the moves in the game's own move texts, numbered by
//! turn, then the result.
//!
//! - [`read_records`] reads the text of a file of records (syntax only);
//! - [`replay`] plays a record's moves through the rules, from the game its
//!   `Variant` and `FEN` tags name: the first illegal or malformed move is
//!   an error naming its number and text, and nothing is returned but the
//!   whole game;
//! - [`write_record`] writes a game played from its start: complete once
//!   the game is over, and only its public part (no chance moves, no hidden
//!   start) while a game with hidden information goes on.
//!
//! The records work on [`DynGame`](crate::DynGame) and a maker of games, so
//! that the CLI (the registry's games) and the server (its game source) read
//! and write the same format.

mod read;
mod replay;
mod turns;
mod write;

pub use read::{read_records, MAX_TAGS, MAX_TAG_NAME, MAX_TAG_VALUE};
pub use replay::{replay, MakeGame, Replayed};
pub use turns::{TurnLabel, TurnNumbers};
pub use write::{pgn_date, write_record, RecordInfo};

use crate::Player;
use thiserror::Error;

/// A record's result, its last token (and its `Result` tag).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordResult {
    /// `1-0`
    FirstWins,
    /// `0-1`
    SecondWins,
    /// `1/2-1/2`
    Draw,
    /// `*`: the game goes on (or its end is unknown).
    Unfinished,
}

impl RecordResult {
    pub fn token(self) -> &'static str {
        match self {
            RecordResult::FirstWins => "1-0",
            RecordResult::SecondWins => "0-1",
            RecordResult::Draw => "1/2-1/2",
            RecordResult::Unfinished => "*",
        }
    }

    pub fn parse(token: &str) -> Option<RecordResult> {
        match token {
            "1-0" => Some(RecordResult::FirstWins),
            "0-1" => Some(RecordResult::SecondWins),
            "1/2-1/2" => Some(RecordResult::Draw),
            "*" => Some(RecordResult::Unfinished),
            _ => None,
        }
    }

    /// The result of a finished game won by `winner` (`None`: a draw).
    pub fn finished(winner: Option<Player>) -> RecordResult {
        match winner {
            Some(Player::First) => RecordResult::FirstWins,
            Some(Player::Second) => RecordResult::SecondWins,
            None => RecordResult::Draw,
        }
    }

    /// Who won: `None` while unfinished, `Some(None)` for a draw.
    pub fn winner(self) -> Option<Option<Player>> {
        match self {
            RecordResult::FirstWins => Some(Some(Player::First)),
            RecordResult::SecondWins => Some(Some(Player::Second)),
            RecordResult::Draw => Some(None),
            RecordResult::Unfinished => None,
        }
    }
}

/// How a game ended: the winner (`None` for a draw) and why ("checkmate",
/// "resignation"). A record's `Termination` tag holds the reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    pub winner: Option<Player>,
    pub reason: String,
}

/// A move as read, with the line it stands on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordMove {
    pub text: String,
    pub line: usize,
}

/// One record as read: nothing is checked against the rules yet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// Its place in the file, from 1.
    pub index: usize,
    /// The line it starts on, from 1.
    pub line: usize,
    /// The tag pairs in the order read; no name twice.
    pub tags: Vec<(String, String)>,
    pub moves: Vec<RecordMove>,
    /// The result token that ends the record.
    pub result: RecordResult,
}

impl Record {
    /// The value of tag `name`, if the record has it.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }
}

/// What is wrong with a record: where (game, line or move) and what.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RecordError {
    #[error("game {game}, line {line}: {problem}")]
    Syntax { game: usize, line: usize, problem: String },
    #[error("game {game}: {problem}")]
    Header { game: usize, problem: String },
    /// `number` is the turn's label (`12.`, `12...`), `ply` counts every
    /// move of the record from 1.
    #[error("game {game}, move {number} {text} (ply {ply}): {problem}")]
    Move { game: usize, ply: usize, number: String, text: String, problem: String },
    #[error("game {game}: {problem}")]
    Result { game: usize, problem: String },
}

impl RecordError {
    /// The record the error is in, from 1.
    pub fn game(&self) -> usize {
        match self {
            RecordError::Syntax { game, .. }
            | RecordError::Header { game, .. }
            | RecordError::Move { game, .. }
            | RecordError::Result { game, .. } => *game,
        }
    }
}

#[cfg(test)]
mod tests;
