//! A live game's clocks: followed move by move in play and along the stored
//! moves when a game is loaded (the same steps, so that a restart reads what
//! play read), and the flag that ends a game on time.
//!
//! The flag's rule, the same in every game: the player whose time runs out
//! loses, unless the other side could not win by the rules any more
//! ([`menagerie_core::DynGame::could_win`]: a lone King in LMA and Fluid
//! Chess), then it is a draw. Kelasu, Lichen and Lunch Chess leave every
//! side a way to win, so there a flag always loses.

use super::claim::{self, Start};
use super::LiveGame;
use crate::clock::{Clock, TimeControl};
use crate::error::ApiError;
use crate::store::{AsyncStore, Ending, MoveActor, StoredMove};
use menagerie_core::{Actor, DynGame, Player};
use std::time::Duration;

/// How the reason of a game a player did not start ends
/// ([`LiveGame::end_unstarted`]).
pub const DID_NOT_MOVE: &str = "did not move";

/// The clocks of a game, and the player move whose hand-over waits for
/// chance's moves (a Lunch Chess draw) to know who decides next.
#[derive(Clone, Debug)]
pub struct GameClock {
    pub clock: Clock,
    pending: Option<(Player, i64)>,
}

impl GameClock {
    pub fn new(control: TimeControl) -> GameClock {
        GameClock { clock: Clock::new(control), pending: None }
    }

    /// After `mv` was played and led to `game`: once a player must decide
    /// (or the game is over) the last player move hands over the clocks.
    pub fn follow(&mut self, mv: &StoredMove, game: &dyn DynGame) {
        if let Some(p) = mv.actor.player() {
            self.pending = Some((p, mv.at.unwrap_or(0)));
        }
        let next = if game.outcome().is_some() {
            None
        } else {
            match game.to_act() {
                Actor::Player(p) => Some(p),
                Actor::Chance => return,
            }
        };
        if let Some((mover, at)) = self.pending.take() {
            self.clock.moved(mover, next, at);
        }
    }
}

/// A clock running for the player to decide ([`LiveGame::running_clock_of`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunningClock {
    /// When the flag falls, ms since the epoch.
    pub flag_at: i64,
    pub increment_ms: u64,
}

impl RunningClock {
    /// What the clock holds at `now` (ms since the epoch), for the search's budget.
    pub fn at(&self, now: i64) -> menagerie_ai::ClockLeft {
        let left = self.flag_at.saturating_sub(now).max(0) as u64;
        menagerie_ai::ClockLeft {
            left: Duration::from_millis(left),
            increment: Duration::from_millis(self.increment_ms),
        }
    }
}

impl LiveGame {
    /// Builds the clocks again from the moves' times (after a load or a
    /// takeback), then applies the game's last clock change besides moves.
    pub(super) fn rebuild_clock(&mut self) {
        let Some(control) = self.record.time_control else {
            self.clock = None;
            return;
        };
        let mut game = self.game.box_clone();
        while game.undo() {}
        let mut clock = GameClock::new(control);
        for player in Player::BOTH.into_iter().filter(|p| self.halved[p.index()]) {
            clock.clock.halve(player);
        }
        for mv in &self.moves {
            if game.play(&mv.text).is_err() {
                break;
            }
            clock.follow(mv, game.as_ref());
        }
        self.clock = Some(clock);
        self.settle_clock();
    }

    /// Starts the clocks of `halved` seats at half their time (berserk),
    /// from the stored moves. Answers whether that changed anything.
    pub fn halve_clocks(&mut self, halved: [bool; 2]) -> bool {
        let wanted = [self.halved[0] || halved[0], self.halved[1] || halved[1]];
        if wanted == self.halved || self.clock.is_none() {
            return false;
        }
        self.halved = wanted;
        self.rebuild_clock();
        self.views.clear();
        true
    }

    /// Reads which seats of this game berserked (a tournament's game, whose
    /// seats may halve their clock: `tournament_games`) and starts their
    /// clocks at half their time. Called when the game is loaded and when
    /// it is read again after another node changed it (a berserk made
    /// through another node bumps the game's version). Answers whether
    /// that changed the clocks.
    pub async fn read_berserk(&mut self, store: &AsyncStore) -> bool {
        if self.clock.is_none() || self.record.mode != crate::store::Mode::Friend || self.halved == [true; 2] {
            return false;
        }
        let game = self.record.id.clone();
        // (A store that keeps no accounts has no tournaments.)
        match store.read(move |sql| crate::store::tournaments::game(sql, &game)).await {
            Ok(Some(paired)) => self.halve_clocks(paired.berserk),
            _ => false,
        }
    }

    /// A clock change at `meta.clock_at` later than the last move: an end
    /// outside the rules stops the clocks then, a takeback restarts the
    /// running one then.
    pub(super) fn settle_clock(&mut self) {
        let (Some(clock), Some(at)) = (self.clock.as_mut(), self.meta.clock_at) else { return };
        let last = self.moves.last().and_then(|m| m.at).unwrap_or(i64::MIN);
        if at < last {
            return;
        }
        if self.meta.ending.is_some() {
            clock.clock.stop(at);
        } else {
            clock.clock.restart(at);
        }
    }

    /// The clock `player` decides on, if it runs for them now: when their
    /// flag falls (ms since the epoch) and what a hand-over adds. A clock
    /// that is not running (the first moves, an unlimited game) sets no
    /// budget.
    pub fn running_clock_of(&self, player: Player) -> Option<RunningClock> {
        if self.is_over() {
            return None;
        }
        let clock = &self.clock.as_ref()?.clock;
        let (running, flag_at) = clock.deadline()?;
        let increment_ms = match clock.control {
            TimeControl::Fischer { increment_ms, .. } => increment_ms,
            // A refill is no increment: it replaces what is left.
            TimeControl::Correspondence { .. } => 0,
        };
        (running == player).then_some(RunningClock { flag_at, increment_ms })
    }

    /// When the running clock's flag falls, if the game is on.
    pub fn deadline(&self) -> Option<i64> {
        if self.is_over() {
            return None;
        }
        self.clock.as_ref()?.clock.deadline().map(|(_, at)| at)
    }

    /// Ends the game on time if the running clock's flag has fallen by
    /// `now`; answers whether it did.
    pub async fn flag(&mut self, store: &AsyncStore, now: i64) -> Result<bool, ApiError> {
        if self.is_over() {
            return Ok(false);
        }
        let Some((loser, at)) = self.clock.as_ref().and_then(|c| c.clock.deadline()) else { return Ok(false) };
        if now < at {
            return Ok(false);
        }
        let winner = loser.other();
        let ran_out = format!("{} ran out of time", self.game.player_name(loser));
        let ending = if self.game.could_win(winner) {
            Ending { winner: Some(winner), reason: ran_out }
        } else {
            Ending { winner: None, reason: format!("{ran_out} and {} cannot win", self.game.player_name(winner)) }
        };
        let mut meta = self.meta.clone();
        meta.ending = Some(ending);
        meta.draw_offer = None;
        meta.takeback_offer = None;
        meta.finished = true;
        meta.clock_at = Some(at);
        self.commit_meta(store, meta).await?;
        Ok(true)
    }

    /// Ends the game if it has waited `within` or longer for a player who
    /// has not started it ([`claim::no_start`]): the other player wins (a
    /// game of fewer than two moves is not rated, `crate::store::ratings`).
    /// Answers the player who did not start it. For tournament games, whose
    /// pairing must not wait for an absent player.
    pub async fn end_unstarted(
        &mut self,
        store: &AsyncStore,
        now: i64,
        within: Duration,
    ) -> Result<Option<Player>, ApiError> {
        if self.is_over() {
            return Ok(None);
        }
        let to_act = match self.game.to_act() {
            Actor::Player(player) => Some(player),
            Actor::Chance => None,
        };
        let moved = Player::BOTH.map(|p| self.moves.iter().any(|m| m.actor == MoveActor::of(p)));
        let waiting_since = self.moves.last().and_then(|m| m.at).unwrap_or(self.record.created.saturating_mul(1000));
        let Some(culprit) = claim::no_start(Start { to_act, moved, waiting_since, now }, within) else {
            return Ok(None);
        };
        let mut meta = self.meta.clone();
        meta.ending = Some(Ending {
            winner: Some(culprit.other()),
            reason: format!("{} {DID_NOT_MOVE}", self.game.player_name(culprit)),
        });
        meta.draw_offer = None;
        meta.takeback_offer = None;
        meta.finished = true;
        meta.clock_at = Some(now);
        self.commit_meta(store, meta).await?;
        Ok(Some(culprit))
    }
}
