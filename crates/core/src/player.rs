use serde::Serialize;
use std::fmt;

/// One of the two players. Games name them (White/Black, Blue/Red) through
/// [`crate::Game::player_name`]; the model only knows who moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum Player {
    /// The player who moves first at the start position (White, Blue).
    First,
    /// The other player (Black, Red).
    Second,
}

impl Player {
    pub const BOTH: [Player; 2] = [Player::First, Player::Second];

    #[inline]
    pub const fn other(self) -> Player {
        match self {
            Player::First => Player::Second,
            Player::Second => Player::First,
        }
    }

    /// 0 for the first player, 1 for the second: handy for `[T; 2]` tables.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    #[inline]
    pub const fn from_index(index: usize) -> Player {
        if index == 0 {
            Player::First
        } else {
            Player::Second
        }
    }
}

/// Who must make the next move of the game model.
///
/// Not always the player "on turn": a Lunch Chess defender answers an attack
/// during the attacker's turn, and a Kelasu player makes several moves in a
/// row. `Chance` acts for shuffles and draws, choosing among the legal moves
/// with [`crate::Game::chance_probability`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Actor {
    Player(Player),
    Chance,
}

impl Actor {
    pub fn player(self) -> Option<Player> {
        match self {
            Actor::Player(p) => Some(p),
            Actor::Chance => None,
        }
    }
}

/// How a finished game ended, and why (a short reason for people: "checkmate",
/// "threefold repetition", "kingstone captured").
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Outcome {
    Win { winner: Player, reason: &'static str },
    Draw { reason: &'static str },
}

impl Outcome {
    pub fn winner(&self) -> Option<Player> {
        match self {
            Outcome::Win { winner, .. } => Some(*winner),
            Outcome::Draw { .. } => None,
        }
    }

    pub fn reason(&self) -> &'static str {
        match self {
            Outcome::Win { reason, .. } | Outcome::Draw { reason } => reason,
        }
    }

    /// +1 for a win of `player`, 0 for a draw, -1 for a loss.
    pub fn score_for(&self, player: Player) -> i32 {
        match self.winner() {
            Some(w) if w == player => 1,
            Some(_) => -1,
            None => 0,
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Win { winner, reason } => {
                let side = match winner {
                    Player::First => "first player",
                    Player::Second => "second player",
                };
                write!(f, "{side} wins ({reason})")
            }
            Outcome::Draw { reason } => write!(f, "draw ({reason})"),
        }
    }
}
