//! A timer per game with a clock: it sleeps until the running clock's flag
//! would fall, wakes early when the game changes, and ends the game on time
//! (the server decides, not the pages). While a clock runs it holds the game
//! in memory; while none runs (before both sides have moved) it does not,
//! so an abandoned game can leave memory (loading it again starts a timer).

use super::GameSlot;
use crate::clock::now_ms;
use crate::store::AsyncStore;
use std::sync::Arc;
use std::time::Duration;

/// Starts the timer of `slot`'s game; it ends when the game is over, has no
/// clock, or leaves memory.
pub fn watch_clock(slot: Arc<GameSlot>, store: AsyncStore) {
    let mut changes = slot.subscribe();
    let game = Arc::downgrade(&slot);
    drop(slot);
    tokio::spawn(async move {
        loop {
            changes.borrow_and_update();
            let Some(slot) = game.upgrade() else { return };
            let deadline = {
                let live = slot.live.lock().await;
                if live.is_over() || live.clock.is_none() {
                    return;
                }
                live.deadline()
            };
            let Some(at) = deadline else {
                // No clock runs yet: wait for a move, without holding the game.
                drop(slot);
                if changes.changed().await.is_err() {
                    return;
                }
                continue;
            };
            let wait = Duration::from_millis(at.saturating_sub(now_ms()).max(0) as u64);
            tokio::select! {
                _ = tokio::time::sleep(wait) => {
                    let mut live = slot.live.lock().await;
                    let retry_later = match live.flag(&store, now_ms()).await {
                        Ok(true) => {
                            slot.publish(&mut live);
                            false
                        }
                        Ok(false) => false,
                        // Another node changed the game first (a move, a
                        // resignation): look at it again before judging the clock.
                        Err(error) if error.status == http::StatusCode::CONFLICT => {
                            match slot.catch_up_locked(&mut live, &store).await {
                                Ok(changed) => !changed,
                                Err(error) => {
                                    tracing::error!(game = %live.record.id, %error, "the game cannot be read again");
                                    true
                                }
                            }
                        }
                        Err(error) => {
                            tracing::error!(game = %live.record.id, %error, "the flag could not be stored");
                            true
                        }
                    };
                    if retry_later {
                        drop(live);
                        // Try again in a while rather than spin.
                        tokio::time::sleep(Duration::from_secs(1)).await;
                    }
                }
                changed = changes.changed() => if changed.is_err() { return },
            }
        }
    });
}
