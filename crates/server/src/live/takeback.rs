//! Taking a move back: asked for and answered like a draw offer (the offer
//! is stored with the game, so every node sees it; a move drops it),
//! granted at once by the computer below "hard".
//!
//! What is taken back: the asker's last run of decisions and everything
//! after it, so the asker decides again where they began it (a whole
//! Kelasu turn; in Lunch Chess the asker's decisions since the other side's
//! last one, and the cards drawn after them). The clocks go back to what
//! they read then, the running one counting from the takeback. The cards
//! drawn after the moves taken back go back on top of the draw pile, in
//! their order: playing the same again draws the same (no re-roll).

use super::LiveGame;
use crate::clock::now_ms;
use crate::command::DrawAction;
use crate::error::ApiError;
use crate::store::{AsyncStore, GameMeta, MoveActor};
use menagerie_core::Player;

impl LiveGame {
    /// The number of moves kept if `asker` takes back, `None` when they have
    /// no move to take back.
    pub fn takeback_keeps(&self, asker: Player) -> Option<usize> {
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

    /// `computer_agrees`: the computer in the other seat, if any, takes back
    /// when asked (its level is below "hard").
    pub(super) async fn answer_takeback(
        &mut self,
        store: &AsyncStore,
        player: Player,
        action: DrawAction,
        computer_agrees: bool,
    ) -> Result<(), ApiError> {
        let offered_by_other = self.meta.takeback_offer == Some(player.other());

        match action {
            DrawAction::Offer | DrawAction::Accept if offered_by_other => self.take_back(store, player.other()).await,
            DrawAction::Offer => {
                if self.takeback_keeps(player).is_none() {
                    return Err(ApiError::conflict("you have no move to take back"));
                }
                match self.computer_level(player.other()) {
                    Some(_) if computer_agrees => self.take_back(store, player).await,
                    Some(level) => {
                        Err(ApiError::conflict(format!("the computer at level {level} does not take moves back")))
                    }
                    None => self.commit_meta(store, self.asking(Some(player))).await,
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

    /// Takes back `asker`'s last run of decisions, committed first.
    async fn take_back(&mut self, store: &AsyncStore, asker: Player) -> Result<(), ApiError> {
        let keep = self.takeback_keeps(asker).ok_or_else(|| ApiError::conflict("there is no move to take back"))?;
        let mut meta = self.meta.clone();
        meta.draw_offer = None;
        meta.takeback_offer = None;
        meta.clock_at = Some(now_ms());
        self.version =
            store.take_back(self.record.id.clone(), (self.moves.len(), self.meta.clone()), keep, meta.clone()).await?;
        while self.moves.len() > keep {
            if let Some(undone) = self.moves.pop() {
                if undone.actor == MoveActor::Chance {
                    self.undrawn.push(undone.text);
                }
            }
            self.notes.pop();
            self.game.undo();
        }
        self.meta = meta;
        self.rebuild_clock();
        self.refresh();
        Ok(())
    }
}
