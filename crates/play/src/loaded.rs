//! The games in memory: found by id, loaded from the store and replayed
//! when asked for, and dropped again once idle.

use crate::catalog::Catalog;
use crate::clock::TimeControl;
use crate::correspondence;
use crate::error::ApiError;
use crate::live::{watch_clock, GameSlot, LiveGame, CHANCE_GRACE};
use crate::secret;
use crate::source::GameSource;
use crate::store::AsyncStore;
use menagerie_core::shown;
use menagerie_notify::Notifier;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

pub struct LoadedGames {
    games: Mutex<HashMap<String, Arc<GameSlot>>>,
    store: AsyncStore,
    source: Arc<dyn GameSource>,
    catalog: Arc<Catalog>,
    started: Instant,
    idle_after: Option<Duration>,
    /// Changes heard from other nodes (several nodes on one database) to
    /// games not in memory: a game whose load raced one reads the store again.
    heard: AtomicU64,
    notifier: Arc<Notifier>,
}

impl LoadedGames {
    pub fn new(
        store: AsyncStore,
        source: Arc<dyn GameSource>,
        catalog: Arc<Catalog>,
        idle_after: Option<Duration>,
        notifier: Arc<Notifier>,
    ) -> LoadedGames {
        LoadedGames {
            games: Mutex::default(),
            store,
            source,
            catalog,
            started: Instant::now(),
            idle_after,
            heard: AtomicU64::new(0),
            notifier,
        }
    }

    /// Milliseconds since these games were first loaded: when a game was last asked for.
    fn clock(&self) -> u64 {
        self.started.elapsed().as_millis() as u64
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<String, Arc<GameSlot>>> {
        self.games.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// How many games are in memory.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    pub fn is_empty(&self) -> bool {
        self.lock().is_empty()
    }

    /// The game `id`, loaded from the store if it is not in memory.
    pub async fn get(&self, id: &str) -> Result<Arc<GameSlot>, ApiError> {
        if let Some(slot) = self.lock().get(id).cloned() {
            slot.touch(self.clock());
            return Ok(slot);
        }
        if !secret::well_formed(id, 32) {
            return Err(ApiError::not_found(format!("no game {}", shown(id))));
        }
        let heard = self.heard.load(Ordering::SeqCst);
        let stored = self
            .store
            .load(id.to_owned())
            .await?
            .ok_or_else(|| ApiError::not_found(format!("no game {}", shown(id))))?;
        let mut live = LiveGame::replay(stored, self.source.as_ref(), &self.catalog)?;
        // A tournament game's berserk seats start with half their time.
        live.read_berserk(&self.store).await;
        let slot = GameSlot::new(live, self.clock());
        // Two requests may have loaded it at once: keep the first.
        let kept = Arc::clone(self.lock().entry(id.to_owned()).or_insert_with(|| Arc::clone(&slot)));
        if Arc::ptr_eq(&kept, &slot) {
            self.watch(&kept);
        }
        if self.heard.load(Ordering::SeqCst) != heard {
            // Another node changed a game meanwhile, maybe this one after
            // it was read: read it again (under its lock, so no later
            // change is overtaken).
            let mut live = kept.live.lock().await;
            if let Some(stored) = self.store.load(id.to_owned()).await? {
                if live.catch_up(stored)? {
                    kept.publish(&mut live);
                }
            }
        }
        self.settle_owed_chance(&kept).await;
        Ok(kept)
    }

    /// Plays the chance moves a game waits for if whoever owed them is gone
    /// ([`LiveGame::settle_owed_chance`]): on a store of one node, at once
    /// (a server stopped between a move and its chance moves); on a shared
    /// one, after [`CHANCE_GRACE`]. Answers whether it played any. A
    /// failure is logged: the game stays as the store has it.
    pub async fn settle_owed_chance(&self, slot: &Arc<GameSlot>) -> bool {
        let mut live = slot.live.lock().await;
        if !live.chance_owed() {
            return false;
        }
        let grace = self.store.is_shared().then_some(CHANCE_GRACE);
        match live.settle_owed_chance(&self.store, crate::clock::now_ms(), grace).await {
            Ok(played) => {
                if played {
                    slot.publish(&mut live);
                }
                played
            }
            Err(error) => {
                tracing::warn!(game = %live.record.id, %error, "chance owed could not be played");
                if let Err(error) = slot.catch_up_locked(&mut live, &self.store).await {
                    tracing::warn!(game = %live.record.id, %error, "a game could not be read again");
                }
                false
            }
        }
    }

    /// Starts the timers of a game just put in memory: its clock's, and
    /// the notice of a correspondence move's time running low.
    fn watch(&self, slot: &Arc<GameSlot>) {
        watch_clock(Arc::clone(slot), self.store.clone());
        if let Ok(live) = slot.live.try_lock() {
            if TimeControl::is_correspondence(live.record.time_control) {
                correspondence::watch_time_low(Arc::clone(slot), self.store.clone(), Arc::clone(&self.notifier));
            }
        }
    }

    /// Another node changed a game (call before looking for it here).
    pub fn heard_change_elsewhere(&self) {
        self.heard.fetch_add(1, Ordering::SeqCst);
    }

    /// Puts a new game in memory.
    pub fn insert(&self, live: LiveGame) -> Arc<GameSlot> {
        let id = live.record.id.clone();
        let slot = GameSlot::new(live, self.clock());
        self.lock().insert(id, Arc::clone(&slot));
        self.watch(&slot);
        slot
    }

    /// The game `id` if it is in memory.
    pub fn loaded(&self, id: &str) -> Option<Arc<GameSlot>> {
        self.lock().get(id).cloned()
    }

    /// The ids of the games in memory.
    pub fn ids(&self) -> Vec<String> {
        self.lock().keys().cloned().collect()
    }

    /// Drops the game `id` from memory (it loads afresh when asked for).
    pub fn forget(&self, id: &str) {
        self.lock().remove(id);
    }

    /// Drops from memory the games idle for `idle_after` that nothing holds
    /// (no request, socket, computer search or the timer of a running
    /// clock) and where the computer is not to move; they load again from
    /// the store when asked for. Answers how many left.
    pub fn evict_idle(&self) -> usize {
        let Some(idle) = self.idle_after else { return 0 };
        let now = self.clock();
        let mut games = self.lock();
        let before = games.len();
        games.retain(|_, slot| {
            // Under the map lock nobody can take a new handle on a slot,
            // so a count of one means nobody has it.
            let used = now.saturating_sub(slot.last_used()) < idle.as_millis() as u64;
            if used || Arc::strong_count(slot) > 1 {
                return true;
            }
            match slot.live.try_lock() {
                Ok(live) => live.computer_busy || live.computer_to_act(),
                Err(_) => true,
            }
        });
        before - games.len()
    }

    /// How often [`LoadedGames::evict_idle`] should run, if games ever leave memory.
    pub fn eviction_period(&self) -> Option<Duration> {
        self.idle_after.map(|idle| (idle / 4).clamp(Duration::from_secs(1), Duration::from_secs(60)))
    }
}
