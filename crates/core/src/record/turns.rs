//! Turn numbers as records write them: `1.` before the first player's first
//! turn, `1...` before the second player's, `2.` before the first player's
//! next. A turn is every move made while it is one player's turn
//! ([`crate::Game::turn_player`]): a Kelasu turn's actions, a Lunch Chess
//! turn's decisions of both players and chance's draws.

use crate::Player;
use std::fmt;

/// The label of a turn: `12.` or `12...`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurnLabel {
    pub number: u32,
    pub player: Player,
}

impl fmt::Display for TurnLabel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.player {
            Player::First => write!(f, "{}.", self.number),
            Player::Second => write!(f, "{}...", self.number),
        }
    }
}

/// Counts turns along a game, from 1 at the record's start.
#[derive(Clone, Debug)]
pub struct TurnNumbers {
    number: u32,
    current: Option<Player>,
}

impl Default for TurnNumbers {
    fn default() -> Self {
        TurnNumbers { number: 1, current: None }
    }
}

impl TurnNumbers {
    /// The label of a move made in `player`'s turn, and whether that move
    /// begins a turn.
    pub fn next(&mut self, player: Player) -> (TurnLabel, bool) {
        let begins = self.current != Some(player);
        if begins && player == Player::First && self.current.is_some() {
            self.number += 1;
        }
        self.current = Some(player);
        (TurnLabel { number: self.number, player }, begins)
    }
}
