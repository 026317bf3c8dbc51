//! Abandonment (docs/api.md, "Abandonment"): when a player has left a live
//! game that waits for it, the other may claim the win or a draw (the rule
//! is the games' own: [`crate::live::claim`]). Where a seat is seen is
//! shared by every node: a node writes when it sees a seat (a socket open on
//! the game, a read of the game with the seat) at most every [`SEEN_EVERY`]
//! per seat, and keeps writing while the socket stays open, so a socket on
//! any node keeps its player here.

use crate::clock::now_ms;
use crate::store::{presence, AsyncStore};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::time::{Duration, Instant};

/// How long an opponent must have been gone before a claim, by default.
pub const CLAIM_AFTER: Duration = Duration::from_secs(30);
/// How often a node writes that it still sees a seat.
pub const SEEN_EVERY: Duration = Duration::from_secs(5);

#[derive(Default)]
struct Seen {
    /// Sockets of the seat open on this node.
    sockets: usize,
    /// When this node last wrote it saw the seat.
    written: Option<Instant>,
}

/// The seats this node sees, and when it last said so.
pub struct Presence {
    store: AsyncStore,
    seats: Mutex<HashMap<(String, usize), Seen>>,
}

/// A socket's presence at its seat: dropping it is the socket closing.
pub struct AtSeat {
    presence: Arc<Presence>,
    seat: (String, usize),
}

impl Drop for AtSeat {
    fn drop(&mut self) {
        let mut seats = self.presence.lock();
        if let Some(seen) = seats.get_mut(&self.seat) {
            seen.sockets = seen.sockets.saturating_sub(1);
            if seen.sockets == 0 {
                seats.remove(&self.seat);
                drop(seats);
                // The moment it left is when it was last seen.
                let (presence, (game, seat)) = (Arc::clone(&self.presence), self.seat.clone());
                if let Ok(runtime) = tokio::runtime::Handle::try_current() {
                    runtime.spawn(async move { presence.write(game, seat).await });
                }
            }
        }
    }
}

impl Presence {
    /// Starts writing, every [`SEEN_EVERY`], the seats whose sockets are open here.
    pub fn new(store: AsyncStore) -> Arc<Presence> {
        let presence = Arc::new(Presence { store, seats: Mutex::default() });
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(keep_writing(Arc::downgrade(&presence)));
        }
        presence
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<(String, usize), Seen>> {
        self.seats.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A socket of `seat` opened on `game`.
    pub async fn arrive(self: &Arc<Self>, game: &str, seat: usize) -> AtSeat {
        let key = (game.to_owned(), seat);
        self.lock().entry(key.clone()).or_default().sockets += 1;
        self.saw(game, seat).await;
        AtSeat { presence: Arc::clone(self), seat: key }
    }

    /// `seat` of `game` was seen (a read of the game): written at most every
    /// [`SEEN_EVERY`].
    pub async fn saw(&self, game: &str, seat: usize) {
        let due = {
            let mut seats = self.lock();
            let seen = seats.entry((game.to_owned(), seat)).or_default();
            if seen.written.is_some_and(|w| w.elapsed() < SEEN_EVERY) {
                false
            } else {
                seen.written = Some(Instant::now());
                true
            }
        };
        if due {
            self.write(game.to_owned(), seat).await;
        }
    }

    /// Whether a socket of `seat` is open on `game` on this node.
    pub fn here(&self, game: &str, seat: usize) -> bool {
        self.lock().get(&(game.to_owned(), seat)).is_some_and(|s| s.sockets > 0)
    }

    /// When any node last saw `seat` of `game`.
    pub async fn last_seen(&self, game: &str, seat: usize) -> Result<Option<i64>, crate::store::StoreError> {
        let game = game.to_owned();
        self.store.read(move |sql| presence::last_seen(sql, &game, seat)).await
    }

    async fn write(&self, game: String, seat: usize) {
        let written = self.store.transact(move |sql| presence::saw(sql, &game, seat, now_ms())).await;
        if let Err(error) = written {
            tracing::debug!(%error, "a seat's presence could not be written");
        }
    }
}

async fn keep_writing(presence: Weak<Presence>) {
    let mut ticks = tokio::time::interval(SEEN_EVERY);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        ticks.tick().await;
        let Some(presence) = presence.upgrade() else { return };
        let open: Vec<(String, usize)> = {
            let mut seats = presence.lock();
            // Seats only read, not watched, are forgotten once written.
            seats.retain(|_, seen| seen.sockets > 0 || seen.written.is_some_and(|w| w.elapsed() < SEEN_EVERY));
            seats.iter().filter(|(_, seen)| seen.sockets > 0).map(|(key, _)| key.clone()).collect()
        };
        for (game, seat) in open {
            presence.saw(&game, seat).await;
        }
    }
}
