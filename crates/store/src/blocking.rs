//! A [`Store`] for async code: every call runs on a blocking thread, so a
//! backend may block (SQLite does) without stalling the runtime.

use super::backend::Store;
use super::error::StoreError;
use super::records::{GameMeta, GameRecord, Seen, StoredGame, StoredMove};
use super::sql::{self, Sql};
use std::sync::Arc;

#[derive(Clone)]
pub struct AsyncStore(Arc<dyn Store>);

impl AsyncStore {
    pub fn new(store: Arc<dyn Store>) -> AsyncStore {
        AsyncStore(store)
    }

    pub async fn create(&self, record: GameRecord) -> Result<(), StoreError> {
        self.timed("create", move |s| s.create(&record)).await
    }

    pub async fn append_move(&self, game: String, ply: usize, mv: StoredMove) -> Result<u64, StoreError> {
        let actor = mv.actor.as_str();
        let stored = self.timed("append_move", move |s| s.append_move(&game, ply, &mv)).await;
        if stored.is_ok() {
            ::metrics::counter!(crate::metrics::MOVES, "actor" => actor).increment(1);
        }
        stored
    }

    pub async fn append_moves(
        &self,
        game: String,
        first_ply: usize,
        moves: Vec<StoredMove>,
    ) -> Result<u64, StoreError> {
        self.timed("append_moves", move |s| s.append_moves(&game, first_ply, &moves)).await
    }

    pub async fn set_meta(&self, game: String, seen: (usize, GameMeta), meta: GameMeta) -> Result<u64, StoreError> {
        self.timed("set_meta", move |s| s.set_meta(&game, Seen { plies: seen.0, meta: &seen.1 }, &meta)).await
    }

    /// [`Store::finish`]: the meta that ends a game, with its result and ratings.
    pub async fn finish(
        &self,
        game: String,
        seen: (usize, GameMeta),
        meta: GameMeta,
        winner: Option<menagerie_core::Player>,
        now: i64,
    ) -> Result<u64, StoreError> {
        self.timed("set_meta", move |s| s.finish(&game, Seen { plies: seen.0, meta: &seen.1 }, &meta, winner, now))
            .await
    }

    pub async fn load(&self, game: String) -> Result<Option<StoredGame>, StoreError> {
        self.timed("load", move |s| s.load(&game)).await
    }

    pub async fn computer_games_in_progress(&self) -> Result<Vec<String>, StoreError> {
        self.call(|s| s.computer_games_in_progress()).await
    }

    pub async fn take_back(
        &self,
        game: String,
        seen: (usize, GameMeta),
        keep: usize,
        meta: GameMeta,
    ) -> Result<u64, StoreError> {
        self.timed("take_back", move |s| s.take_back(&game, Seen { plies: seen.0, meta: &seen.1 }, keep, &meta)).await
    }

    pub async fn timed_games_in_progress(&self) -> Result<Vec<String>, StoreError> {
        self.call(|s| s.timed_games_in_progress()).await
    }

    pub async fn claim_computer(&self, game: String) -> Result<bool, StoreError> {
        self.call(move |s| s.claim_computer(&game)).await
    }

    pub async fn claim_orphans(&self) -> Result<Vec<String>, StoreError> {
        self.call(|s| s.claim_orphans()).await
    }

    pub async fn claim(&self, key: String) -> Result<bool, StoreError> {
        self.call(move |s| s.claim(&key)).await
    }

    pub async fn release(&self, key: String) -> Result<(), StoreError> {
        self.call(move |s| s.release(&key)).await
    }

    pub async fn ping(&self) -> Result<(), StoreError> {
        self.call(|s| s.ping()).await
    }

    pub fn holds_computer(&self, game: &str) -> bool {
        self.0.holds_computer(game)
    }

    /// [`Store::signal`].
    pub async fn signal(&self, topic: String) -> Result<(), StoreError> {
        self.call(move |s| s.signal(&topic)).await
    }

    pub fn is_shared(&self) -> bool {
        self.0.is_shared()
    }

    pub fn changes(&self) -> Option<tokio::sync::mpsc::UnboundedReceiver<super::Change>> {
        self.0.changes()
    }

    /// Runs `work` in one transaction ([`Store::transact`]).
    pub async fn transact<T: Send + 'static>(
        &self,
        work: impl FnMut(&mut dyn Sql) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        self.call(move |s| sql::transact(s, work)).await
    }

    /// Runs `work`, which only reads ([`Store::read`]).
    pub async fn read<T: Send + 'static>(
        &self,
        work: impl FnMut(&mut dyn Sql) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        self.call(move |s| sql::read(s, work)).await
    }

    async fn call<T: Send + 'static>(
        &self,
        call: impl FnOnce(&dyn Store) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        let store = Arc::clone(&self.0);
        tokio::task::spawn_blocking(move || call(store.as_ref()))
            .await
            .unwrap_or_else(|e| Err(StoreError::Database(format!("storage task failed: {e}"))))
    }

    /// [`AsyncStore::call`], timed for the metrics as `op`.
    async fn timed<T: Send + 'static>(
        &self,
        op: &'static str,
        call: impl FnOnce(&dyn Store) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        let started = std::time::Instant::now();
        let result = self.call(call).await;
        ::metrics::histogram!(crate::metrics::STORE_SECONDS, "op" => op).record(started.elapsed().as_secs_f64());
        result
    }
}
