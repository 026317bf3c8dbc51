//! Several server processes ("nodes") on one database: each follows the
//! changes the others commit, so a page watching a game on this node sees a
//! move made through another at once, and takes over the computer games of
//! a node that died. Only a store that can be shared
//! ([`crate::store::Store::is_shared`], PostgreSQL) starts this.

use crate::computer::ComputerDriver;
use crate::error::ApiError;
use crate::live::{Followed, GameSlot};
use crate::loaded::LoadedGames;
use crate::store::{AsyncStore, Change, StoredMove};
use std::sync::{Arc, Weak};
use std::time::Duration;
use tokio::sync::mpsc::UnboundedReceiver;

/// The topic [`crate::Hub::signals`] carries when changes may have been
/// missed (the connection that hears other nodes was lost): every topic may
/// have changed.
pub const EVERY_TOPIC: &str = "*";

/// How often a node looks for computer games that nobody holds (their node
/// died): the longest a game waits for its computer after a node dies.
const SWEEP_PERIOD: Duration = Duration::from_secs(1);

/// Follows other nodes' changes and sweeps for orphaned computer games
/// until the hub is gone.
pub async fn follow(
    games: Weak<LoadedGames>,
    computer: Weak<ComputerDriver>,
    store: AsyncStore,
    mut changes: UnboundedReceiver<Change>,
    signals: tokio::sync::broadcast::Sender<String>,
) {
    let mut sweep = tokio::time::interval(SWEEP_PERIOD);
    sweep.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        let change = tokio::select! {
            change = changes.recv() => match change {
                Some(change) => Some(change),
                None => return,
            },
            _ = sweep.tick() => None,
        };
        let (Some(games), Some(computer)) = (games.upgrade(), computer.upgrade()) else { return };
        if let Some(change) = &change {
            let kind = match change {
                Change::Game(_) => "game",
                Change::Move { .. } => "move",
                Change::Signal(_) => "signal",
                Change::Missed => "missed",
            };
            ::metrics::counter!(crate::metrics::NODE_NOTIFICATIONS, "kind" => kind).increment(1);
            tracing::debug!(target: "menagerie::nodes", kind, "heard a change from another node");
        }
        match change {
            // Each game on its own task: one slow game does not hold up the others.
            Some(Change::Game(id)) => {
                tokio::spawn(refresh(games, computer, store.clone(), id));
            }
            Some(Change::Move { game, ply, version, mv }) => {
                tokio::spawn(heard_move(games, computer, store.clone(), game, ply, version, mv));
            }
            Some(Change::Signal(topic)) => {
                let _ = signals.send(topic);
            }
            Some(Change::Missed) => {
                let _ = signals.send(EVERY_TOPIC.to_owned());
                for id in games.ids() {
                    tokio::spawn(refresh(Arc::clone(&games), Arc::clone(&computer), store.clone(), id));
                }
            }
            None => {
                tokio::spawn(settle_owed_chance(Arc::clone(&games), Arc::clone(&computer)));
                match store.claim_orphans().await {
                    Ok(claimed) => {
                        for id in claimed {
                            match games.get(&id).await {
                                Ok(slot) => {
                                    if let Err(error) = catch_up(&slot, &store).await {
                                        tracing::warn!(game = %id, %error, "a game cannot be taken over");
                                        continue;
                                    }
                                    computer.kick(slot).await;
                                }
                                Err(error) => tracing::warn!(game = %id, %error, "a game cannot be taken over"),
                            }
                        }
                    }
                    Err(error) => tracing::warn!(%error, "cannot look for orphaned computer games"),
                }
            }
        }
    }
}

/// Plays the chance moves owed by a node that died (the games in memory
/// here waiting for chance longer than [`crate::live::CHANCE_GRACE`]), and
/// moves for the computer after them where this node holds it.
async fn settle_owed_chance(games: Arc<LoadedGames>, computer: Arc<ComputerDriver>) {
    for id in games.ids() {
        let Some(slot) = games.loaded(&id) else { continue };
        // A game busy now is not waiting: it is looked at next time.
        let owed = slot.live.try_lock().is_ok_and(|live| live.chance_owed());
        if owed && games.settle_owed_chance(&slot).await {
            computer.kick(slot).await;
        }
    }
}

/// Another node changed game `id`: bring this node's copy up to date and
/// wake its watchers; move for the computer if this node holds its seats.
async fn refresh(games: Arc<LoadedGames>, computer: Arc<ComputerDriver>, store: AsyncStore, id: String) {
    // Counted before looking: a load of this game racing this change
    // either sees the count move (and reads again) or is found here.
    games.heard_change_elsewhere();
    let slot = match games.loaded(&id) {
        Some(slot) => slot,
        // Not in memory: nobody here watches it, but this node may hold its computer.
        None if store.holds_computer(&id) => match games.get(&id).await {
            Ok(slot) => slot,
            Err(error) => return tracing::warn!(game = %id, %error, "a game cannot be loaded"),
        },
        None => return,
    };
    if let Err(error) = catch_up(&slot, &store).await {
        tracing::warn!(game = %id, %error, "a game is loaded afresh");
        games.forget(&id);
        return;
    }
    computer.kick(slot).await;
}

/// Another node stored move `ply` of game `id`, making its `version`: play
/// it here if it is the next one, without reading the store; read the game
/// again if moves (or other writes) are missing before it.
async fn heard_move(
    games: Arc<LoadedGames>,
    computer: Arc<ComputerDriver>,
    store: AsyncStore,
    id: String,
    ply: usize,
    version: u64,
    mv: StoredMove,
) {
    games.heard_change_elsewhere();
    let Some(slot) = games.loaded(&id) else { return refresh(games, computer, store, id).await };
    {
        let mut live = slot.live.lock().await;
        let followed = match live.follow_stored(ply, version, mv) {
            Ok(Followed::Played) => {
                slot.publish(&mut live);
                Ok(())
            }
            Ok(Followed::Known) => return,
            Ok(Followed::Gap) => slot.catch_up_locked(&mut live, &store).await.map(drop),
            Err(error) => Err(error),
        };
        if let Err(error) = followed {
            tracing::warn!(game = %id, %error, "a game is loaded afresh");
            drop(live);
            games.forget(&id);
            return;
        }
    }
    computer.kick(slot).await;
}

/// Brings the game in `slot` up to what the store holds, and tells its
/// watchers if that changed it. Answers whether it did.
pub async fn catch_up(slot: &GameSlot, store: &AsyncStore) -> Result<bool, ApiError> {
    let mut live = slot.live.lock().await;
    slot.catch_up_locked(&mut live, store).await
}
