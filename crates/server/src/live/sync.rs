//! Catching up with the store: when several server processes share one
//! database, another process may have committed moves (or a resignation,
//! a draw offer) to a game this one holds in memory.

use super::{LiveGame, MoveNote};
use crate::error::ApiError;
use crate::store::StoredGame;

impl LiveGame {
    /// Brings this game up to `stored`, what the store now holds of it:
    /// plays the moves it lacks and takes its meta. Answers whether
    /// anything changed. Moves are only ever appended (the store refuses a
    /// second move for a ply), so the moves in memory are a prefix of the
    /// stored ones; if they are not, the game must be loaded afresh.
    pub fn catch_up(&mut self, stored: StoredGame) -> Result<bool, ApiError> {
        let held = self.moves.len();
        if stored.moves.len() < held || stored.moves[..held] != self.moves[..] {
            return Err(ApiError::internal(format!("game {} in memory differs from the store", self.record.id)));
        }
        let mut changed = false;
        for (ply, mv) in stored.moves.into_iter().enumerate().skip(held) {
            // As if the move had been made here: its note, and the clocks
            // that follow it.
            let note = MoveNote::before(self.game.as_ref(), &mv.text);
            self.game.play(&mv.text).map_err(|e| {
                ApiError::internal(format!("game {} cannot be replayed at move {}: {e}", self.record.id, ply + 1))
            })?;
            if let Some(clock) = self.clock.as_mut() {
                clock.follow(&mv, self.game.as_ref());
            }
            if mv.actor.player().is_some() {
                self.takeback_offer = None;
            }
            self.moves.push(mv);
            self.notes.push(note);
            changed = true;
        }
        if stored.meta != self.meta {
            self.meta = stored.meta;
            self.settle_clock();
            changed = true;
        }
        if changed {
            self.refresh();
        }
        Ok(changed)
    }
}
