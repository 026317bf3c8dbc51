//! What a seat may do in its game, and the checks before it: a move, a
//! resignation, a draw offer and its answers, a takeback (`takeback.rs`).
//! Each is committed before it counts (`commit.rs`). A flag that has
//! fallen ends the game before anything else is done.

use super::claim::{self, Situation};
use super::takeback::TakebackPolicy;
use super::LiveGame;
use crate::clock::{now_ms, TimeControl};
use crate::command::{Act, Claim, DrawAction};
use crate::error::ApiError;
use crate::store::{AsyncStore, Ending, MoveActor};
use menagerie_core::{Actor, Player};

/// The reason of an aborted game.
pub const ABORTED: &str = "aborted";

impl LiveGame {
    /// Does `act` for `player`'s seat and commits it (the chance moves a
    /// move leads to included). A computer in the other seat grants a
    /// takeback at once at `takeback_levels`. The caller publishes, also after an error
    /// if the game ended meanwhile (a flag).
    pub async fn act(
        &mut self,
        store: &AsyncStore,
        player: Player,
        act: Act,
        takeback_levels: &dyn TakebackPolicy,
    ) -> Result<(), ApiError> {
        self.flag(store, now_ms()).await?;
        if let Some(result) = self.result() {
            return Err(ApiError::conflict(format!("the game is over ({})", result.reason)));
        }
        match act {
            Act::Move { text, expected_ply } => self.play_for(store, player, &text, expected_ply).await,
            Act::Resign => self.resign(store, player).await,
            Act::Abort => self.abort(store).await,
            Act::Draw(action) => self.answer_draw(store, player, action).await,
            Act::Takeback(action) => self.answer_takeback(store, player, action, takeback_levels).await,
            Act::Claim(claim) => self.claim(store, player, claim).await,
        }
    }

    /// Why `player` may not claim the game now (`None`: it may).
    pub fn claim_refusal(&self, player: Player, claim: Claim) -> Option<String> {
        if let Some(result) = self.result() {
            return Some(format!("the game is over ({})", result.reason));
        }
        let other = player.other();
        let moved = |who: Player| self.moves.iter().any(|m| m.actor == MoveActor::of(who));
        let last_move = self.moves.iter().rev().find(|m| m.actor == MoveActor::of(other)).and_then(|m| m.at);
        let opponent_seen =
            (!claim.opponent_here).then(|| claim.opponent_seen.into_iter().chain(last_move).max().unwrap_or(i64::MIN));
        let situation = Situation {
            correspondence: TimeControl::is_correspondence(self.record.time_control),
            opponent_is_computer: self.computer_level(other).is_some(),
            both_moved: moved(player) && moved(other),
            opponent_to_act: self.game.to_act() == Actor::Player(other),
            opponent_seen,
            now: now_ms(),
        };
        claim::refusal(situation, claim.after)
    }

    /// Ends the game the opponent left: won by `player`, or drawn.
    async fn claim(&mut self, store: &AsyncStore, player: Player, claim: Claim) -> Result<(), ApiError> {
        if let Some(why) = self.claim_refusal(player, claim) {
            return Err(ApiError::conflict(why));
        }
        let now = now_ms();
        let mut meta = self.meta.clone();
        let winner = (!claim.draw).then_some(player);
        meta.ending = Some(Ending { winner, reason: "abandonment".into() });
        meta.draw_offer = None;
        meta.takeback_offer = None;
        meta.finished = true;
        meta.clock_at = Some(now);
        self.commit_meta(store, meta).await
    }

    async fn play_for(
        &mut self,
        store: &AsyncStore,
        player: Player,
        text: &str,
        expected_ply: Option<usize>,
    ) -> Result<(), ApiError> {
        if let Some(ply) = expected_ply {
            if ply != self.moves.len() {
                return Err(ApiError::conflict(format!(
                    "the game is at move {}, not {ply}: reload it",
                    self.moves.len()
                )));
            }
        }
        if self.game.to_act() != Actor::Player(player) {
            return Err(ApiError::conflict("it is not your turn"));
        }
        self.commit_move(store, text, MoveActor::of(player)).await?;
        self.play_chance(store).await
    }

    async fn resign(&mut self, store: &AsyncStore, player: Player) -> Result<(), ApiError> {
        let mut meta = self.meta.clone();
        meta.ending = Some(Ending { winner: Some(player.other()), reason: "resignation".into() });
        meta.draw_offer = None;
        meta.finished = true;
        meta.clock_at = Some(now_ms());
        self.commit_meta(store, meta).await
    }

    /// Ends the game with no result (lichess's abort), which only either
    /// seat may do before both have moved: it counts for nothing.
    async fn abort(&mut self, store: &AsyncStore) -> Result<(), ApiError> {
        let moved = |p: Player| self.moves.iter().any(|m| m.actor == MoveActor::of(p));
        if Player::BOTH.into_iter().all(moved) {
            return Err(ApiError::bad_request("the game can no longer be aborted: both sides have moved"));
        }
        let mut meta = self.meta.clone();
        meta.ending = Some(Ending { winner: None, reason: ABORTED.into() });
        meta.draw_offer = None;
        meta.finished = true;
        meta.clock_at = Some(now_ms());
        self.commit_meta(store, meta).await
    }

    /// Offering when the other side has offered accepts. The computer never
    /// accepts (it answers by moving, which declines).
    async fn answer_draw(&mut self, store: &AsyncStore, player: Player, action: DrawAction) -> Result<(), ApiError> {
        let mut meta = self.meta.clone();
        let offered_by_other = meta.draw_offer == Some(player.other());
        match action {
            DrawAction::Offer | DrawAction::Accept if offered_by_other => {
                meta.ending = Some(Ending { winner: None, reason: "draw agreed".into() });
                meta.draw_offer = None;
                meta.finished = true;
                meta.clock_at = Some(now_ms());
            }
            DrawAction::Offer => meta.draw_offer = Some(player),
            DrawAction::Accept => return Err(ApiError::conflict("there is no draw offer to accept")),
            DrawAction::Decline if offered_by_other => meta.draw_offer = None,
            DrawAction::Decline => return Err(ApiError::conflict("there is no draw offer to decline")),
            DrawAction::Withdraw if meta.draw_offer == Some(player) => meta.draw_offer = None,
            DrawAction::Withdraw => return Err(ApiError::conflict("you have no draw offer to withdraw")),
        }
        self.commit_meta(store, meta).await
    }
}
