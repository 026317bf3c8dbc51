//! Taking a move back: asked for and answered like a draw offer (the offer
//! is stored with the game, so every node sees it; a move drops it),
//! granted at once by the computer below "hard".
//!
//! What is taken back: the asker's last run of decisions and everything
//! after it, so the asker decides again where they began it (a whole
//! Kelasu turn; in Lunch Chess the asker's decisions since the other side's
//! last one). The clocks go back to what they read then, the running one
//! counting from the takeback.
//!
//! A takeback never goes back across a chance move whose outcome some
//! player saw (every deal and draw of Lunch Chess; the game says which,
//! [`menagerie_core::Game::chance_outcome_seen`]): undone, chance would
//! either draw again (a re-roll: discard, see the card, take back, discard
//! otherwise) or deal the same card again (the asker then knows the card to
//! come, and so does the other side if the card now goes to them). Such a
//! takeback is refused with the reason, which the state also gives each
//! seat before it asks ([`LiveGame::takeback_refusal`]).

use super::LiveGame;
use crate::clock::now_ms;
use crate::command::DrawAction;
use crate::error::ApiError;
use crate::store::{AsyncStore, GameMeta};
use menagerie_core::Player;

/// Whether the computer at a level takes a move back when asked: the
/// computer's rule (its easier levels do), asked through this trait so the
/// games in play need not know the levels.
pub trait TakebackPolicy: Send + Sync {
    fn grants(&self, level: &str) -> bool;
}

/// Why a seat with no move of its own cannot take back.
const NO_MOVE: &str = "you have no move to take back";

/// Why a takeback that would undo a seen chance move is refused.
const CHANCE_SEEN: &str = "a takeback cannot undo a deal or draw that a player has seen";

impl LiveGame {
    /// Where `asker`'s last run of decisions begins: the number of moves
    /// kept if they take back, `None` when they have no move to take back.
    fn last_run_start(&self, asker: Player) -> Option<usize> {
        let last = self.moves.iter().rposition(|m| m.actor.player() == Some(asker))?;
        let mut keep = last;
        while keep > 0 {
            let before = match self.moves[keep - 1].actor.player() {
                Some(p) => p,
                // Chance within the asker's run (cards dealt before their
                // first action belong to nobody's run).
                None => match self.moves[..keep - 1].iter().rev().find_map(|m| m.actor.player()) {
                    Some(p) => p,
                    None => break,
                },
            };
            if before != asker {
                break;
            }
            keep -= 1;
        }
        Some(keep)
    }

    /// The fewest moves a takeback may keep: all up to the last chance
    /// move whose outcome a player saw.
    fn takeback_floor(&self) -> usize {
        self.notes.iter().rposition(|note| note.chance_seen).map_or(0, |last| last + 1)
    }

    /// The number of moves kept if `asker` takes back now, or why they may
    /// not (the sentence the answer and the page give).
    fn takeback_keeps(&self, asker: Player) -> Result<usize, &'static str> {
        let keep = self.last_run_start(asker).ok_or(NO_MOVE)?;
        if keep < self.takeback_floor() {
            return Err(CHANCE_SEEN);
        }
        Ok(keep)
    }

    /// Why `asker` may not ask to take back now, `None` when they may (a
    /// computer in the other seat takes back at once at `takeback_levels`).
    /// What the state tells each seat, and what asking answers.
    pub fn takeback_refusal(&self, asker: Player, takeback_levels: &dyn TakebackPolicy) -> Option<String> {
        if self.is_over() {
            return Some("the game is over".to_owned());
        }
        if self.last_run_start(asker).is_none() {
            return Some(NO_MOVE.to_owned());
        }
        if let Some(level) = self.computer_level(asker.other()).filter(|level| !takeback_levels.grants(level)) {
            return Some(format!("the computer at level {level} does not take moves back"));
        }
        self.takeback_keeps(asker).err().map(str::to_owned)
    }

    /// A computer in the other seat grants an ask at once at `takeback_levels`.
    pub(super) async fn answer_takeback(
        &mut self,
        store: &AsyncStore,
        player: Player,
        action: DrawAction,
        takeback_levels: &dyn TakebackPolicy,
    ) -> Result<(), ApiError> {
        let offered_by_other = self.meta.takeback_offer == Some(player.other());

        match action {
            DrawAction::Offer | DrawAction::Accept if offered_by_other => self.take_back(store, player.other()).await,
            DrawAction::Offer => {
                if let Some(reason) = self.takeback_refusal(player, takeback_levels) {
                    return Err(ApiError::conflict(reason));
                }
                if self.computer_level(player.other()).is_some() {
                    self.take_back(store, player).await
                } else {
                    self.commit_meta(store, self.asking(Some(player))).await
                }
            }
            DrawAction::Accept => Err(ApiError::conflict("there is no takeback to accept")),
            DrawAction::Decline if offered_by_other => self.commit_meta(store, self.asking(None)).await,
            DrawAction::Decline => Err(ApiError::conflict("there is no takeback to decline")),
            DrawAction::Withdraw if self.meta.takeback_offer == Some(player) => {
                self.commit_meta(store, self.asking(None)).await
            }
            DrawAction::Withdraw => Err(ApiError::conflict("you have not asked to take back")),
        }
    }

    /// The meta with `offer` as the takeback asked for.
    fn asking(&self, offer: Option<Player>) -> GameMeta {
        GameMeta { takeback_offer: offer, ..self.meta.clone() }
    }

    /// Takes back `asker`'s last run of decisions, committed first. Checked
    /// again here: an ask accepted later must still keep the seen chance.
    async fn take_back(&mut self, store: &AsyncStore, asker: Player) -> Result<(), ApiError> {
        let keep = self.takeback_keeps(asker).map_err(ApiError::conflict)?;
        let mut meta = self.meta.clone();
        meta.draw_offer = None;
        meta.takeback_offer = None;
        meta.clock_at = Some(now_ms());
        self.version =
            store.take_back(self.record.id.clone(), (self.moves.len(), self.meta.clone()), keep, meta.clone()).await?;
        while self.moves.len() > keep {
            self.moves.pop();
            self.notes.pop();
            self.game.undo();
        }
        self.meta = meta;
        self.rebuild_clock();
        self.refresh();
        Ok(())
    }
}
