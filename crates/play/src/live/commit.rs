//! The commit protocol: a change is played in memory, committed to the
//! store, and kept only if the commit succeeds. Chance moves are played the
//! same way, by the server, until a player must act.

use super::{LiveGame, MoveNote};
use crate::clock::now_ms;
use crate::error::ApiError;
use crate::store::{AsyncStore, GameMeta, MoveActor, StoreError, StoredMove};
use menagerie_core::{Actor, MoveError};
use std::time::Duration;

fn move_error(error: MoveError) -> ApiError {
    match error {
        MoveError::Syntax { .. } => ApiError::bad_request(error.to_string()),
        MoveError::Illegal { .. } => ApiError::unprocessable(error.to_string()),
        MoveError::GameOver => ApiError::conflict(error.to_string()),
    }
}

impl LiveGame {
    /// Plays one move and commits it; on a failed commit the move is taken back.
    pub async fn commit_move(&mut self, store: &AsyncStore, text: &str, actor: MoveActor) -> Result<(), ApiError> {
        let note = MoveNote::before(self.game.as_ref(), text);
        self.game.play(text).map_err(move_error)?;
        let canonical = self.game.history().last().cloned().unwrap_or_else(|| text.to_owned());
        let mv = StoredMove { text: canonical, actor, at: Some(now_ms()) };
        match store.append_move(self.record.id.clone(), self.moves.len(), mv.clone()).await {
            Ok(version) => self.version = version,
            Err(error) => {
                self.game.undo();
                return Err(match error {
                    StoreError::DuplicateMove { .. } => ApiError::conflict(error.to_string()),
                    other => other.into(),
                });
            }
        }
        if let Some(clock) = self.clock.as_mut() {
            clock.follow(&mv, self.game.as_ref());
        }
        self.moves.push(mv);
        self.notes.push(note);
        self.refresh();
        let mut meta = self.meta.clone();
        if actor.player().is_some() {
            // Moving drops any takeback asked for: it was about another position.
            meta.takeback_offer = None;
        }
        // Moving answers the other side's draw offer: it is declined.
        if let (Some(by), Some(mover)) = (meta.draw_offer, actor.player()) {
            if by != mover {
                meta.draw_offer = None;
            }
        }
        meta.finished = self.game.outcome().is_some() || meta.ending.is_some();
        if meta != self.meta {
            self.commit_meta(store, meta).await?;
        }
        Ok(())
    }

    /// Commits what changed besides the moves, then keeps it.
    pub async fn commit_meta(&mut self, store: &AsyncStore, meta: GameMeta) -> Result<(), ApiError> {
        let seen = (self.moves.len(), self.meta.clone());
        let id = self.record.id.clone();
        self.version = if meta.finished && !self.meta.finished {
            // The end: its result (and ratings) are stored with it.
            let winner = match &meta.ending {
                Some(ending) => ending.winner,
                None => self.game.outcome().and_then(|o| o.winner()),
            };
            store.finish(id, seen, meta.clone(), winner, now_ms()).await?
        } else {
            store.set_meta(id, seen, meta.clone()).await?
        };
        self.meta = meta;
        self.settle_clock();
        self.refresh();
        Ok(())
    }

    /// Plays chance moves (deals, draws) until a player must act, each drawn
    /// with the game's probabilities from the operating system's generator:
    /// nobody, not even whoever chose the game's seed, can foresee them.
    pub async fn play_chance(&mut self, store: &AsyncStore) -> Result<(), ApiError> {
        while !self.is_over() {
            let Some(drawn) = self.game.sample_chance(&mut rand::rng()) else { break };
            self.commit_move(store, &drawn, MoveActor::Chance).await?;
        }
        Ok(())
    }

    /// Whether the game waits for chance: whoever made the last move (or
    /// started the game) owes its chance moves.
    pub fn chance_owed(&self) -> bool {
        !self.is_over() && self.game.to_act() == Actor::Chance
    }

    /// Plays the chance moves the game waits for, when whoever owed them is
    /// gone: a node that stored a move and died before its chance moves
    /// (or a server stopped between them). With `grace`, only once the
    /// game has waited that long since its last move (another node may be
    /// storing them now: its moves are not raced); without, at once (the
    /// store has no other writer). Answers whether it played any.
    pub async fn settle_owed_chance(
        &mut self,
        store: &AsyncStore,
        now: i64,
        grace: Option<Duration>,
    ) -> Result<bool, ApiError> {
        if !self.chance_owed() {
            return Ok(false);
        }
        if let Some(grace) = grace {
            let since = self.moves.last().and_then(|m| m.at).unwrap_or(self.record.created.saturating_mul(1000));
            if now.saturating_sub(since) < grace.as_millis() as i64 {
                return Ok(false);
            }
        }
        tracing::info!(target: "menagerie::games", game = %self.record.id, ply = self.moves.len(), "chance owed is played");
        self.play_chance(store).await?;
        Ok(true)
    }
}

/// How long a game waits for chance moves owed by another node before any
/// node plays them ([`LiveGame::settle_owed_chance`]): a node stores them
/// within milliseconds of the move that calls for them.
pub const CHANCE_GRACE: Duration = Duration::from_secs(2);
