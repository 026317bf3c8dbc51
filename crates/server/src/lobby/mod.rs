//! The lobby: open challenges (seeks) and the games started from them,
//! pushed to every lobby socket when they change (docs/api.md, "Lobby").
//!
//! It lives in this process's memory: with several nodes on one database
//! each node has its own lobby (the games it starts are shared like any).
//!
//! A seek lasts while its creator is here: while one of the creator's
//! lobby sockets is open, or for [`GRACE`] after the last one closed (a
//! page reload keeps it). It also ends when accepted, cancelled, or when
//! its creator accepts another seek. Everything is bounded: seeks per
//! player, per client address and in all, sockets per player, games
//! listed, and the new players one address may make a minute (each
//! player's caps would be worth nothing if one client could be many).

mod arrivals;
pub mod identity;
mod seek;

pub use seek::{RatingRange, Seek, SeekBody, ShownRating};

use crate::error::ApiError;
use crate::live::GameSlot;
use axum::http::StatusCode;
use identity::PlayerId;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::time::Duration;
use tokio::sync::{mpsc, watch};

/// Seeks one player may have open at once.
pub const SEEKS_PER_PLAYER: usize = 3;
/// Seeks open at once from one client address (a few players behind one
/// router), so that no one client fills the lobby.
pub const SEEKS_PER_ADDRESS: usize = 10;
/// Seeks open at once on this node.
pub const MAX_SEEKS: usize = 200;
/// New players (identity cookies) one client address may be given a minute.
pub const NEW_PLAYERS_PER_MINUTE: u32 = 10;
/// Lobby sockets one player may have open at once (tabs, reloads).
pub const SOCKETS_PER_PLAYER: usize = 8;
/// Games listed as being played, at most (the oldest leave the list first).
pub const MAX_LISTED_GAMES: usize = 100;
/// A listed game with no change for this long leaves the list (abandoned,
/// or a correspondence game resting): the list is of games played now.
pub const LISTED_IDLE: Duration = Duration::from_secs(30 * 60);
/// How long a player's seeks outlive the player's last lobby socket.
pub const GRACE: Duration = Duration::from_secs(3);
/// Messages addressed to one socket that may wait to be sent (a started
/// game: one per accepted seek, so [`SEEKS_PER_PLAYER`] at most at once).
const ADDRESSED_QUEUE: usize = 2 * SEEKS_PER_PLAYER;

/// A game started in the lobby, listed while it is played.
struct ListedGame {
    id: String,
    variant: String,
    seats: [ListedSeat; 2],
    rated: bool,
    ply: usize,
    watcher: tokio::task::AbortHandle,
}

/// A seat of a listed game: its side's name in the game (`white`), its
/// player's display name, and rating in the variant if an account's.
#[derive(Clone, Debug)]
pub struct ListedSeat {
    pub side: String,
    pub name: String,
    pub rating: Option<ShownRating>,
}

/// A player known to the lobby: its open sockets, and what waits for it.
#[derive(Default)]
struct Presence {
    sockets: Vec<(u64, mpsc::Sender<Value>)>,
    /// Set when the last socket closed: the departure the grace timer ends.
    away: Option<u64>,
    /// Started games for a creator with no socket open (a reload).
    pending: Vec<Value>,
}

#[derive(Default)]
struct Inner {
    seeks: Vec<Seek>,
    players: HashMap<PlayerId, Presence>,
    games: Vec<ListedGame>,
    /// Numbers sockets and departures.
    counter: u64,
}

pub struct Lobby {
    inner: Mutex<Inner>,
    /// Bumped on every change sockets show.
    changes: watch::Sender<u64>,
    grace: Duration,
    listed_idle: Duration,
    new_players: arrivals::Arrivals,
}

/// A lobby socket's place: its player's messages come through `addressed`;
/// dropping it tells the lobby the socket closed.
pub struct Membership {
    lobby: Arc<Lobby>,
    player: Option<(PlayerId, u64)>,
    pub addressed: mpsc::Receiver<Value>,
    pub changes: watch::Receiver<u64>,
}

impl Drop for Membership {
    fn drop(&mut self) {
        if let Some((id, socket)) = self.player.take() {
            self.lobby.leave(id, socket);
        }
    }
}

impl Default for Lobby {
    fn default() -> Self {
        Lobby::new(GRACE, LISTED_IDLE)
    }
}

impl Lobby {
    /// A lobby whose seeks outlive their creator's last socket by `grace`,
    /// and whose games leave the list after `listed_idle` without a change.
    pub fn new(grace: Duration, listed_idle: Duration) -> Lobby {
        Lobby {
            inner: Mutex::default(),
            changes: watch::Sender::new(0),
            grace,
            listed_idle,
            new_players: arrivals::Arrivals::new(NEW_PLAYERS_PER_MINUTE, Duration::from_secs(60)),
        }
    }

    /// Whether `client` may be given a new player now (counted if so).
    pub fn admit_new_player(&self, client: Option<IpAddr>) -> Result<(), ApiError> {
        match client {
            Some(client) if !self.new_players.arrive(client, std::time::Instant::now()) => Err(ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                format!(
                    "at most {NEW_PLAYERS_PER_MINUTE} new players a minute from one address: \
                     keep your cookie, or try again in a minute"
                ),
            )),
            _ => Ok(()),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn changed(&self) {
        self.changes.send_modify(|v| *v += 1);
    }

    /// A socket joins, for `player` if the request named one.
    pub fn join(self: &Arc<Self>, player: Option<&PlayerId>) -> Result<Membership, ApiError> {
        let (sender, addressed) = mpsc::channel(ADDRESSED_QUEUE);
        let changes = self.changes.subscribe();
        let Some(player) = player else {
            return Ok(Membership { lobby: Arc::clone(self), player: None, addressed, changes });
        };
        let mut inner = self.lock();
        inner.counter += 1;
        let socket = inner.counter;
        let presence = inner.players.entry(player.clone()).or_default();
        if presence.sockets.len() >= SOCKETS_PER_PLAYER {
            return Err(ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                format!("at most {SOCKETS_PER_PLAYER} lobby sockets per player"),
            ));
        }
        presence.away = None;
        for message in presence.pending.drain(..) {
            let _ = sender.try_send(message);
        }
        presence.sockets.push((socket, sender));
        Ok(Membership { lobby: Arc::clone(self), player: Some((player.clone(), socket)), addressed, changes })
    }

    fn leave(self: &Arc<Self>, player: PlayerId, socket: u64) {
        let mut inner = self.lock();
        inner.counter += 1;
        let departure = inner.counter;
        let Some(presence) = inner.players.get_mut(&player) else { return };
        presence.sockets.retain(|(n, _)| *n != socket);
        if presence.sockets.is_empty() {
            presence.away = Some(departure);
            drop(inner);
            self.expire_later(player, departure);
        }
    }

    /// After the grace, a player still away loses its seeks.
    fn expire_later(self: &Arc<Self>, player: PlayerId, departure: u64) {
        let Ok(runtime) = tokio::runtime::Handle::try_current() else { return };
        let lobby: Weak<Lobby> = Arc::downgrade(self);
        let grace = self.grace;
        runtime.spawn(async move {
            tokio::time::sleep(grace).await;
            if let Some(lobby) = lobby.upgrade() {
                lobby.expire(&player, departure);
            }
        });
    }

    fn expire(&self, player: &PlayerId, departure: u64) {
        let mut inner = self.lock();
        if inner.players.get(player).and_then(|p| p.away) != Some(departure) {
            return;
        }
        inner.players.remove(player);
        let before = inner.seeks.len();
        inner.seeks.retain(|s| &s.creator != player);
        let removed = inner.seeks.len() != before;
        drop(inner);
        if removed {
            self.changed();
        }
    }

    /// What a socket shows `viewer`: the seeks and the games being played.
    pub fn snapshot(&self, viewer: Option<&PlayerId>) -> Value {
        let inner = self.lock();
        let seeks: Vec<Value> = inner.seeks.iter().map(|s| s.to_json(viewer)).collect();
        let games: Vec<Value> = inner
            .games
            .iter()
            .rev()
            .map(|g| {
                let seats: Vec<Value> = g
                    .seats
                    .iter()
                    .map(|s| {
                        let mut seat = json!({ "side": s.side, "name": s.name });
                        if let Some(rating) = s.rating {
                            seat["rating"] = json!(rating.rating);
                            seat["provisional"] = json!(rating.provisional);
                        }
                        seat
                    })
                    .collect();
                json!({
                    "id": g.id,
                    "variant": g.variant,
                    "seats": seats,
                    "rated": g.rated,
                    "ply": g.ply,
                    "link": format!("/g/{}", g.id),
                })
            })
            .collect();
        json!({ "seeks": seeks, "games": games })
    }

    /// Lists a new seek, within the caps. A creator with no lobby socket
    /// open gets the grace to open one.
    pub fn add(self: &Arc<Self>, seek: Seek) -> Result<Value, ApiError> {
        let mut inner = self.lock();
        if inner.seeks.iter().filter(|s| s.creator == seek.creator).count() >= SEEKS_PER_PLAYER {
            return Err(ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                format!("you have {SEEKS_PER_PLAYER} open seeks already: cancel one first"),
            ));
        }
        if seek.address.is_some()
            && inner.seeks.iter().filter(|s| s.address == seek.address).count() >= SEEKS_PER_ADDRESS
        {
            return Err(ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                format!("{SEEKS_PER_ADDRESS} seeks are open from your address already: cancel one first"),
            ));
        }
        if inner.seeks.len() >= MAX_SEEKS {
            return Err(ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                format!("the lobby is full ({MAX_SEEKS} open seeks): accept one or try later"),
            ));
        }
        let listed = seek.to_json(Some(&seek.creator));
        let creator = seek.creator.clone();
        inner.seeks.push(seek);
        inner.counter += 1;
        let departure = inner.counter;
        let presence = inner.players.entry(creator.clone()).or_default();
        let away = presence.sockets.is_empty() && presence.away.is_none();
        if away {
            presence.away = Some(departure);
        }
        drop(inner);
        if away {
            self.expire_later(creator, departure);
        }
        self.changed();
        Ok(listed)
    }

    /// The open seeks as `viewer` sees them.
    pub fn seeks(&self, viewer: Option<&PlayerId>) -> Vec<Value> {
        self.lock().seeks.iter().map(|s| s.to_json(viewer)).collect()
    }

    /// Cancels a seek; only its creator may.
    pub fn cancel(&self, player: Option<&PlayerId>, id: &str) -> Result<(), ApiError> {
        let mut inner = self.lock();
        let index = find(&inner, id)?;
        if player != Some(&inner.seeks[index].creator) {
            return Err(ApiError::forbidden("only the seek's creator may cancel it"));
        }
        inner.seeks.remove(index);
        drop(inner);
        self.changed();
        Ok(())
    }

    /// Takes seek `id` out of the lobby for `accepter` to start its game,
    /// and the accepter's own seeks with it (one game at a time).
    pub fn take(&self, accepter: &PlayerId, id: &str) -> Result<Seek, ApiError> {
        let mut inner = self.lock();
        let index = find(&inner, id)?;
        if &inner.seeks[index].creator == accepter {
            return Err(ApiError::conflict("you cannot accept your own seek"));
        }
        let seek = inner.seeks.remove(index);
        inner.seeks.retain(|s| &s.creator != accepter);
        drop(inner);
        self.changed();
        Ok(seek)
    }

    /// A copy of seek `id` (to check who may accept it before taking it).
    pub fn seek(&self, id: &str) -> Result<Seek, ApiError> {
        let inner = self.lock();
        Ok(inner.seeks[find(&inner, id)?].clone())
    }

    /// Puts back a seek whose game could not start.
    pub fn restore(&self, seek: Seek) {
        self.lock().seeks.push(seek);
        self.changed();
    }

    /// Renames `player` in its open seeks.
    pub fn rename(&self, player: &PlayerId, name: &str) {
        let mut inner = self.lock();
        let mut renamed = false;
        for seek in inner.seeks.iter_mut().filter(|s| &s.creator == player) {
            seek.name = name.to_owned();
            renamed = true;
        }
        drop(inner);
        if renamed {
            self.changed();
        }
    }

    /// Sends `message` to `player`'s lobby sockets only, or keeps it for
    /// the player's next socket (within the grace of a reload).
    pub fn tell(&self, player: &PlayerId, message: Value) {
        let mut inner = self.lock();
        let Some(presence) = inner.players.get_mut(player) else { return };
        if presence.sockets.is_empty() {
            if presence.pending.len() < ADDRESSED_QUEUE {
                presence.pending.push(message);
            }
            return;
        }
        for (_, socket) in &presence.sockets {
            let _ = socket.try_send(message.clone());
        }
    }

    /// Lists a game started here while it is played: its ply follows its
    /// moves, and it leaves the list when it ends or rests (no change for [`LISTED_IDLE`]).
    pub fn list_game(
        self: &Arc<Self>,
        slot: Arc<GameSlot>,
        id: String,
        variant: String,
        seats: [ListedSeat; 2],
        rated: bool,
    ) {
        let Ok(runtime) = tokio::runtime::Handle::try_current() else { return };
        let weak = Arc::downgrade(self);
        let watched = id.clone();
        let idle = self.listed_idle;
        let watcher = runtime.spawn(async move {
            let mut changes = slot.subscribe();
            loop {
                let (ply, over) = {
                    let live = slot.live.lock().await;
                    changes.borrow_and_update();
                    (live.moves.len(), live.is_over())
                };
                let Some(lobby) = weak.upgrade() else { return };
                if over {
                    lobby.unlist(&watched);
                    return;
                }
                lobby.set_ply(&watched, ply);
                drop(lobby);
                if !matches!(tokio::time::timeout(idle, changes.changed()).await, Ok(Ok(()))) {
                    if let Some(lobby) = weak.upgrade() {
                        lobby.unlist(&watched);
                    }
                    return;
                }
            }
        });
        let mut inner = self.lock();
        inner.games.push(ListedGame { id, variant, seats, rated, ply: 0, watcher: watcher.abort_handle() });
        if inner.games.len() > MAX_LISTED_GAMES {
            let oldest = inner.games.remove(0);
            oldest.watcher.abort();
        }
        drop(inner);
        self.changed();
    }

    fn set_ply(&self, id: &str, ply: usize) {
        let mut inner = self.lock();
        let Some(game) = inner.games.iter_mut().find(|g| g.id == id) else { return };
        if game.ply == ply {
            return;
        }
        game.ply = ply;
        drop(inner);
        self.changed();
    }

    fn unlist(&self, id: &str) {
        self.lock().games.retain(|g| g.id != id);
        self.changed();
    }
}

fn find(inner: &Inner, id: &str) -> Result<usize, ApiError> {
    inner
        .seeks
        .iter()
        .position(|s| s.id == id)
        .ok_or_else(|| ApiError::not_found(format!("no seek {}", menagerie_core::shown(id))))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::Catalog;
    use crate::command::Setup;
    use crate::store::GameMeta;

    fn setup() -> Setup {
        let body = SeekBody {
            variant: "lma".into(),
            position: None,
            colour: None,
            seed: None,
            clock: None,
            rated: false,
            rating_range: None,
        };
        body.setup().unwrap()
    }

    fn slot() -> (String, Arc<GameSlot>) {
        let (start, _) = crate::start::new_game(
            &setup(),
            &crate::source::Registry,
            &Catalog::builtin(),
            &crate::computer::SearchLevels,
        )
        .unwrap();
        let id = start.record.id.clone();
        (id, GameSlot::new(crate::live::LiveGame::new(start.record, start.game, Vec::new(), GameMeta::default(), 0), 0))
    }

    fn listed(lobby: &Lobby) -> usize {
        lobby.snapshot(None)["games"].as_array().unwrap().len()
    }

    #[tokio::test]
    async fn a_listed_game_that_rests_leaves_the_list() {
        let idle = Duration::from_millis(400);
        let lobby = Arc::new(Lobby::new(GRACE, idle));
        let (id, game) = slot();
        let seat = |side: &str, name: &str| ListedSeat { side: side.into(), name: name.into(), rating: None };
        let names = [seat("white", "Ada"), seat("black", "Bob")];
        lobby.list_game(Arc::clone(&game), id.clone(), "lma".into(), names, false);
        let entry = &lobby.snapshot(None)["games"][0];
        assert_eq!((&entry["id"], &entry["ply"], &entry["link"]), (&json!(id), &json!(0), &json!(format!("/g/{id}"))));
        // A change keeps it listed past the idle time it would have had.
        let started = std::time::Instant::now();
        tokio::time::sleep(idle / 2).await;
        game.publish(&mut *game.live.lock().await);
        tokio::time::sleep(idle / 2).await;
        assert_eq!(listed(&lobby), 1, "a game that changed stays");
        while listed(&lobby) == 1 {
            assert!(started.elapsed() < idle * 10, "a game at rest leaves");
            tokio::time::sleep(idle / 8).await;
        }
        assert!(started.elapsed() >= idle * 3 / 2, "not before its rest");
    }
}
