//! The computer driver: when a game waits for the computer, it searches on
//! a blocking thread (a bounded number at once) and plays the move found
//! like anyone's, through the commit protocol.

use crate::clock::now_ms;
use crate::error::ApiError;
use crate::live::GameSlot;
use crate::metrics;
use crate::opponents::Opponents;
use crate::store::{AsyncStore, MoveActor};
use menagerie_core::Actor;
use std::sync::Arc;
use tokio::sync::Semaphore;

pub struct ComputerDriver {
    opponents: Arc<dyn Opponents>,
    store: AsyncStore,
    /// Searches allowed to run at once (each takes a blocking thread).
    searches: Arc<Semaphore>,
    /// The permits of `searches`: a search takes one per thread it uses.
    max_searches: u32,
}

impl ComputerDriver {
    pub fn new(opponents: Arc<dyn Opponents>, store: AsyncStore, max_searches: usize) -> ComputerDriver {
        ComputerDriver {
            opponents,
            store,
            searches: Arc::new(Semaphore::new(max_searches.max(1))),
            max_searches: max_searches.clamp(1, u32::MAX as usize) as u32,
        }
    }

    /// Starts the computer's search if the computer is to act and not
    /// already thinking. It goes on, move after move, while the game waits
    /// for the computer (a game of two computers plays to its end).
    /// With several processes on one database, only the one holding the
    /// game's claim moves for the computer ([`AsyncStore::claim_computer`]).
    pub async fn kick(self: &Arc<Self>, slot: Arc<GameSlot>) {
        let id = {
            let live = slot.live.lock().await;
            if live.computer_busy || !live.computer_to_act() {
                return;
            }
            live.record.id.clone()
        };
        if !self.store.holds_computer(&id) && !self.store.claim_computer(id).await.unwrap_or(false) {
            return;
        }
        {
            let mut live = slot.live.lock().await;
            if live.computer_busy || !live.computer_to_act() {
                return;
            }
            live.computer_busy = true;
        }
        let driver = Arc::clone(self);
        tokio::spawn(async move { driver.drive(slot).await });
    }

    async fn drive(&self, slot: Arc<GameSlot>) {
        loop {
            let (player, snapshot, version, clock) = {
                let mut live = slot.live.lock().await;
                let seat = match live.game.to_act() {
                    Actor::Player(p) if !live.is_over() => Some(p),
                    _ => None,
                };
                let level = seat.and_then(|p| live.computer_level(p)).map(str::to_owned);
                let Some(player) = level.and_then(|level| self.opponents.player(&level)) else {
                    live.computer_busy = false;
                    return;
                };
                let clock = seat.and_then(|p| live.running_clock_of(p));
                (player, live.game.box_clone(), live.version, clock)
            };
            let threads = player.threads().clamp(1, self.max_searches);
            let queued = Gauged::new(metrics::SEARCHES_QUEUED);
            let Ok(permit) = Arc::clone(&self.searches).acquire_many_owned(threads).await else { return };
            drop(queued);
            let choice = tokio::task::spawn_blocking(move || {
                let _permit = permit;
                let _running = Gauged::new(metrics::SEARCHES_RUNNING);
                // The clock as it is now, after any wait for a search
                // thread: the budget is what is left at the start.
                player.choose_on_clock(snapshot.as_ref(), clock.map(|c| c.at(now_ms())))
            })
            .await
            .ok()
            .flatten();
            let mut live = slot.live.lock().await;
            match live.flag(&self.store, now_ms()).await {
                // Out of time while thinking: the game is over.
                Ok(true) => {
                    slot.publish(&mut live);
                    continue;
                }
                Ok(false) => {}
                Err(error) => tracing::error!(game = %live.record.id, %error, "the flag could not be stored"),
            }
            if live.version != version {
                // Someone resigned or the game changed meanwhile: look again.
                continue;
            }
            let actor = live.game.to_act().player().map(MoveActor::of).unwrap_or(MoveActor::Chance);
            let played = match choice {
                Some(text) => live.commit_move(&self.store, &text, actor).await,
                None => Err(ApiError::internal("the computer found no move")),
            };
            let played = match played {
                Ok(()) => live.play_chance(&self.store).await,
                Err(e) => Err(e),
            };
            if let Err(error) = played {
                tracing::error!(game = %live.record.id, %error, "a computer move failed");
                live.computer_busy = false;
                return;
            }
            tracing::debug!(target: "menagerie::games", game = %live.record.id, ply = live.moves.len(), "computer moved");
            if live.is_over() {
                crate::live::log_ended(&live);
            }
            slot.publish(&mut live);
        }
    }
}

/// One unit of a gauge for as long as it lives (a search queued, running).
struct Gauged(&'static str);

impl Gauged {
    fn new(name: &'static str) -> Gauged {
        ::metrics::gauge!(name).increment(1.0);
        Gauged(name)
    }
}

impl Drop for Gauged {
    fn drop(&mut self) {
        ::metrics::gauge!(self.0).decrement(1.0);
    }
}
