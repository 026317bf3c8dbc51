//! Catching up with the store: when several server processes share one
//! database, another process may have committed moves (or a resignation,
//! a draw offer) to a game this one holds in memory.

use super::{GameSlot, LiveGame, MoveNote};
use crate::error::ApiError;
use crate::store::{AsyncStore, StoredGame, StoredMove};

impl LiveGame {
    /// Brings this game up to `stored`, what the store now holds of it:
    /// plays the moves it lacks and takes its meta and version. Answers
    /// whether anything changed. Moves are only ever appended (the store refuses a
    /// second move for a ply), so the moves in memory are a prefix of the
    /// stored ones; if they are not, the game must be loaded afresh.
    pub fn catch_up(&mut self, stored: StoredGame) -> Result<bool, ApiError> {
        let held = self.moves.len();
        if stored.moves.len() < held || stored.moves[..held] != self.moves[..] {
            return Err(ApiError::internal(format!("game {} in memory differs from the store", self.record.id)));
        }
        let mut changed = false;
        for (ply, mv) in stored.moves.into_iter().enumerate().skip(held) {
            self.play_stored(ply, mv)?;
            changed = true;
        }
        if stored.meta != self.meta {
            self.meta = stored.meta;
            self.settle_clock();
            changed = true;
        }
        // Writes that left the moves and meta as they were (an offer made
        // and withdrawn) still made versions.
        if stored.version != self.version {
            self.version = stored.version;
            changed = true;
        }
        if changed {
            self.refresh();
        }
        Ok(changed)
    }

    /// Plays move `ply`, stored by another process as version `version`,
    /// if it is the next one here. Answers what became of it.
    pub fn follow_stored(&mut self, ply: usize, version: u64, mv: StoredMove) -> Result<Followed, ApiError> {
        match self.moves.get(ply) {
            Some(held) if *held == mv => Ok(Followed::Known),
            Some(_) => Err(ApiError::internal(format!("game {} in memory differs from the store", self.record.id))),
            // Moves before it are missing, or it follows writes this node
            // has not seen (the version it made is not the next): read them.
            None if ply > self.moves.len() || version != self.version + 1 => Ok(Followed::Gap),
            None => {
                self.play_stored(ply, mv)?;
                self.version = version;
                self.refresh();
                Ok(Followed::Played)
            }
        }
    }

    /// Plays the next move as if it had been made here: its note, and the
    /// clocks that follow it.
    fn play_stored(&mut self, ply: usize, mv: StoredMove) -> Result<(), ApiError> {
        let note = MoveNote::before(self.game.as_ref(), &mv.text);
        self.game.play(&mv.text).map_err(|e| {
            ApiError::internal(format!("game {} cannot be replayed at move {}: {e}", self.record.id, ply + 1))
        })?;
        if let Some(clock) = self.clock.as_mut() {
            clock.follow(&mv, self.game.as_ref());
        }
        self.moves.push(mv);
        self.notes.push(note);
        Ok(())
    }
}

impl GameSlot {
    /// Brings the game up to what the store holds, for a caller that holds
    /// the game's lock, and tells its watchers if that changed it. Answers
    /// whether it did. The store is read under the lock, so a later read
    /// never sees an older snapshot.
    pub async fn catch_up_locked(&self, live: &mut LiveGame, store: &AsyncStore) -> Result<bool, ApiError> {
        let Some(stored) = store.load(live.record.id.clone()).await? else { return Ok(false) };
        let changed = live.catch_up(stored)?;
        if changed {
            // A berserk through another node (it wrote a version, which is
            // how this node heard of it).
            live.read_berserk(store).await;
            self.publish(live);
        }
        Ok(changed)
    }
}

/// What became of a move heard from another process.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Followed {
    /// Played: it was the next move.
    Played,
    /// Already here.
    Known,
    /// Moves or other writes before it are missing here: the game must be
    /// read again.
    Gap,
}
