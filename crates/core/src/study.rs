//! What `menagerie study` measures in a game beyond results and lengths: the
//! material by kind (for piece values fitted from outcomes) and the game's
//! own mechanics, counted move by move. Both have empty defaults, so a game
//! is studied (results, lengths, openings, complexity) without them.

use crate::Game;
use std::collections::BTreeMap;

/// Counts of named events over one game (`"pair moves"`, `"harvests"`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally(BTreeMap<String, u64>);

impl Tally {
    pub fn new() -> Tally {
        Tally::default()
    }

    /// Adds `count` to the event `name` (an event counted 0 times is still
    /// listed, so every game of a study names the same events).
    pub fn add(&mut self, name: &str, count: u64) {
        match self.0.get_mut(name) {
            Some(total) => *total += count,
            None => {
                self.0.insert(name.to_owned(), count);
            }
        }
    }

    pub fn get(&self, name: &str) -> u64 {
        self.0.get(name).copied().unwrap_or(0)
    }

    pub fn iter(&self) -> impl Iterator<Item = (&str, u64)> + '_ {
        self.0.iter().map(|(name, &count)| (name.as_str(), count))
    }
}

/// The study hooks of a game.
pub trait Study: Game {
    /// The material of each kind the game's values are asked for, as the
    /// first player's amount minus the second's. Same names, same order, in
    /// every position of a variant.
    fn material(&self) -> Vec<(&'static str, f64)> {
        Vec::new()
    }

    /// Counts what `mv` did: `before` is the position it was played from,
    /// `after` the position it made.
    fn tally_move(before: &Self, mv: Self::Move, after: &Self, tally: &mut Tally) {
        let _ = (before, mv, after, tally);
    }

    /// Counts what the finished game shows as a whole (called once, on the
    /// final position).
    fn tally_end(end: &Self, tally: &mut Tally) {
        let _ = (end, tally);
    }
}
