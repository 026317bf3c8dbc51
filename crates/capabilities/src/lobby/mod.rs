//! The lobby: open challenges (seeks) and the games started from them,
//! pushed to every lobby socket when they change (docs/api.md, "Lobby").
//!
//! Everything it shows lives in the store ([`crate::store::lobby`]), so
//! every node shows the same lobby: a seek made through one node is
//! accepted through another, and a node's restart loses none. What is this
//! node's own are its sockets: each node keeps a copy of the listing for
//! them, read again when any node signals `lobby` ([`Hub::signal`]).
//!
//! A seek lasts while its creator is here: it holds a lease, renewed while
//! one of the creator's lobby sockets is open on any node. When the last
//! one here closes, the seek waits [`GRACE`] (a page reload keeps it), then
//! its lease is cut to [`HANDOVER`] (another node holding a socket of the
//! creator renews it before that), or to nothing on a store only this
//! process uses. A node that stops cuts no lease: its sockets' players come
//! back through another node or after the restart. A seek also ends when
//! accepted, cancelled, or when its creator accepts another seek.
//! Everything is bounded: seeks per player, per client address and in all,
//! sockets per player, games listed, and the new players one address may
//! make a minute (each player's caps would be worth nothing if one client
//! could be many).

mod arrivals;
pub mod identity;
mod seek;

pub use seek::{RatingRange, Seek, SeekBody, ShownRating};

use crate::clock::now_ms;
use crate::error::ApiError;
use crate::hub::Hub;
use crate::nodes::EVERY_TOPIC;
use crate::store::lobby as stored;
use http::StatusCode;
use identity::PlayerId;
use serde_json::{json, Value};
use std::collections::{HashMap, HashSet};
use std::net::IpAddr;
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::time::Duration;
use tokio::sync::broadcast::error::RecvError;
use tokio::sync::{mpsc, watch};

/// Seeks one player may have open at once.
pub const SEEKS_PER_PLAYER: usize = 3;
/// Seeks open at once from one client address (a few players behind one
/// router), so that no one client fills the lobby.
pub const SEEKS_PER_ADDRESS: usize = 10;
/// Seeks open at once in all.
pub const MAX_SEEKS: usize = 200;
/// New players (identity cookies) one client address may be given a minute.
pub const NEW_PLAYERS_PER_MINUTE: u32 = 10;
/// Lobby sockets one player may have open at once on one node (tabs, reloads).
pub const SOCKETS_PER_PLAYER: usize = 8;
/// Games listed as being played, at most (the oldest leave the list first).
pub const MAX_LISTED_GAMES: usize = 100;
/// A listed game with no change for this long leaves the list (abandoned,
/// or a correspondence game resting): the list is of games played now.
pub const LISTED_IDLE: Duration = Duration::from_secs(30 * 60);
/// How long a player's seeks outlive the player's last lobby socket.
pub const GRACE: Duration = Duration::from_secs(3);
/// A seek's lease while a socket of its creator is open: renewed every
/// [`RENEW_EVERY`], so it outlives a node that dies by this much at most.
pub const LEASE: Duration = Duration::from_secs(30);
/// How often a node renews the leases of the players whose sockets it holds.
pub const RENEW_EVERY: Duration = Duration::from_secs(5);
/// How often a node forgets the listed games that left the list.
const SWEEP_EVERY: Duration = Duration::from_secs(60);
/// What is left of a seek's lease once its creator left this node, when
/// other nodes share the store: long enough for another node holding a
/// socket of the creator to renew it.
pub const HANDOVER: Duration = Duration::from_secs(12);
/// How often the listing is read again while sockets watch it (the moves
/// of the games listed).
pub const LISTING_EVERY: Duration = Duration::from_secs(2);
/// How long a message for a seek's creator waits for one of its sockets.
const MESSAGE_KEPT: Duration = Duration::from_secs(10 * 60);
/// Messages addressed to one socket that may wait to be sent (a started
/// game: one per accepted seek, so [`SEEKS_PER_PLAYER`] at most at once).
const ADDRESSED_QUEUE: usize = 2 * SEEKS_PER_PLAYER;
/// The topic every lobby change is signalled under.
pub const TOPIC: &str = "lobby";
/// The topic of messages waiting for one player (its key follows).
const PLAYER_TOPIC: &str = "lobby/player/";

/// A seat of a listed game: its side's name in the game (`white`), its
/// player's display name, and rating in the variant if an account's.
#[derive(Clone, Debug)]
pub struct ListedSeat {
    pub side: String,
    pub name: String,
    pub rating: Option<ShownRating>,
}

impl ListedSeat {
    fn to_json(&self) -> Value {
        let mut seat = json!({ "side": self.side, "name": self.name });
        if let Some(rating) = self.rating {
            seat["rating"] = json!(rating.rating);
            seat["provisional"] = json!(rating.provisional);
        }
        seat
    }
}

/// A player's sockets on this node.
#[derive(Default)]
struct Presence {
    sockets: Vec<(u64, mpsc::Sender<Value>)>,
    /// Set when the last socket closed: the departure the grace timer ends.
    away: Option<u64>,
}

/// What this node's sockets are shown, as last read from the store.
#[derive(Default)]
struct Listing {
    seeks: Vec<Seek>,
    games: Vec<Value>,
}

/// The same listing as shown: a renewed lease changes nothing.
impl PartialEq for Listing {
    fn eq(&self, other: &Listing) -> bool {
        let shown = |seeks: &[Seek]| seeks.iter().map(|s| (s.creator.clone(), s.to_json(None))).collect::<Vec<_>>();
        self.games == other.games && shown(&self.seeks) == shown(&other.seeks)
    }
}

#[derive(Default)]
struct Inner {
    /// By player key ([`PlayerId::key`]).
    players: HashMap<String, Presence>,
    listing: Listing,
    /// Numbers sockets and departures.
    counter: u64,
}

/// Whether this node is stopping (the web layer's operations know): a
/// player who leaves a stopping node is handed over, not gone.
pub trait Draining: Send + Sync {
    fn is_draining(&self) -> bool;
}

pub struct Lobby {
    hub: Arc<Hub>,
    /// Whether this node is stopping (then departures cut no lease).
    operations: Option<Arc<dyn Draining>>,
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
    player: Option<(String, u64)>,
    pub addressed: mpsc::Receiver<Value>,
    pub changes: watch::Receiver<u64>,
}

impl Drop for Membership {
    fn drop(&mut self) {
        if let Some((key, socket)) = self.player.take() {
            self.lobby.leave(key, socket);
        }
    }
}

impl Lobby {
    /// The lobby of `hub`'s store, whose seeks outlive their creator's
    /// last socket by `grace`, and whose games leave the list after
    /// `listed_idle` without a change. It follows the store from now on.
    pub fn new(
        hub: Arc<Hub>,
        operations: Option<Arc<dyn Draining>>,
        grace: Duration,
        listed_idle: Duration,
    ) -> Arc<Lobby> {
        let lobby = Arc::new(Lobby {
            hub,
            operations,
            inner: Mutex::default(),
            changes: watch::Sender::new(0),
            grace,
            listed_idle,
            new_players: arrivals::Arrivals::new(NEW_PLAYERS_PER_MINUTE, Duration::from_secs(60)),
        });
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(follow(Arc::downgrade(&lobby), lobby.hub.signals()));
        }
        lobby
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

    fn has_sockets(&self, key: &str) -> bool {
        self.lock().players.get(key).is_some_and(|p| !p.sockets.is_empty())
    }

    /// A socket joins, for `player` if the request named one.
    pub fn join(self: &Arc<Self>, player: Option<&PlayerId>) -> Result<Membership, ApiError> {
        let (sender, addressed) = mpsc::channel(ADDRESSED_QUEUE);
        let changes = self.changes.subscribe();
        let Some(player) = player else {
            return Ok(Membership { lobby: Arc::clone(self), player: None, addressed, changes });
        };
        let key = player.key();
        let mut inner = self.lock();
        inner.counter += 1;
        let socket = inner.counter;
        let presence = inner.players.entry(key.clone()).or_default();
        if presence.sockets.len() >= SOCKETS_PER_PLAYER {
            return Err(ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                format!("at most {SOCKETS_PER_PLAYER} lobby sockets per player"),
            ));
        }
        presence.away = None;
        presence.sockets.push((socket, sender));
        drop(inner);
        // Its seeks live again (a reload, a node changed) and what waited
        // for it is sent.
        let lobby = Arc::clone(self);
        let returning = key.clone();
        tokio::spawn(async move {
            lobby.renew(vec![returning.clone()]).await;
            lobby.deliver(&returning).await;
        });
        Ok(Membership { lobby: Arc::clone(self), player: Some((key, socket)), addressed, changes })
    }

    fn leave(self: &Arc<Self>, key: String, socket: u64) {
        let mut inner = self.lock();
        inner.counter += 1;
        let departure = inner.counter;
        let Some(presence) = inner.players.get_mut(&key) else { return };
        presence.sockets.retain(|(n, _)| *n != socket);
        if presence.sockets.is_empty() {
            presence.away = Some(departure);
            drop(inner);
            self.depart_later(key, departure);
        }
    }

    /// After the grace, a player still away here has its leases cut.
    fn depart_later(self: &Arc<Self>, key: String, departure: u64) {
        let Ok(runtime) = tokio::runtime::Handle::try_current() else { return };
        let lobby: Weak<Lobby> = Arc::downgrade(self);
        let grace = self.grace;
        runtime.spawn(async move {
            tokio::time::sleep(grace).await;
            if let Some(lobby) = lobby.upgrade() {
                lobby.depart(&key, departure).await;
            }
        });
    }

    async fn depart(&self, key: &str, departure: u64) {
        {
            let mut inner = self.lock();
            if inner.players.get(key).and_then(|p| p.away) != Some(departure) {
                return;
            }
            inner.players.remove(key);
        }
        if self.operations.as_ref().is_some_and(|o| o.is_draining()) {
            return;
        }
        let handover = if self.hub.store().is_shared() { HANDOVER } else { Duration::ZERO };
        let (creator, until) = (key.to_owned(), now_ms() + handover.as_millis() as i64);
        match self.hub.store().transact(move |sql| stored::cut_short(sql, &creator, until)).await {
            Ok(0) => {}
            Ok(_) => self.hub.signal(TOPIC).await,
            Err(error) => tracing::warn!(%error, "a departed player's seeks could not be ended"),
        }
    }

    /// Renews the leases of `players`' seeks.
    async fn renew(&self, players: Vec<String>) {
        if players.is_empty() {
            return;
        }
        let now = now_ms();
        let until = now + LEASE.as_millis() as i64;
        let renewed = self
            .hub
            .store()
            .transact(move |sql| {
                let mut renewed = 0;
                for player in &players {
                    renewed += stored::renew(sql, player, now, until)?;
                }
                Ok(renewed)
            })
            .await;
        if let Err(error) = renewed {
            tracing::warn!(%error, "the lobby's leases could not be renewed");
        }
    }

    /// Sends `key`'s waiting messages to its sockets here, if it has any.
    async fn deliver(&self, key: &str) {
        if !self.has_sockets(key) {
            return;
        }
        let (player, since) = (key.to_owned(), now_ms() - MESSAGE_KEPT.as_millis() as i64);
        let messages = match self.hub.store().transact(move |sql| stored::take_messages(sql, &player, since)).await {
            Ok(messages) => messages,
            Err(error) => return tracing::warn!(%error, "a player's lobby messages could not be read"),
        };
        let inner = self.lock();
        let sockets = inner.players.get(key).map(|p| p.sockets.as_slice()).unwrap_or_default();
        for message in messages {
            let Ok(message) = serde_json::from_str::<Value>(&message) else { continue };
            for (_, socket) in sockets {
                let _ = socket.try_send(message.clone());
            }
        }
    }

    /// Forgets the listed games that left the list: housekeeping only, as
    /// the listing's read passes over them ([`SWEEP_EVERY`]).
    async fn sweep(&self) {
        let active_since = now_ms() - self.listed_idle.as_millis() as i64;
        let forgotten = self.hub.store().transact(move |sql| stored::forget_resting_games(sql, active_since)).await;
        if let Err(error) = forgotten {
            tracing::warn!(%error, "the lobby's games at rest could not be forgotten");
        }
    }

    /// Reads the listing from the store; tells the sockets if it changed.
    async fn refresh(&self) {
        let now = now_ms();
        let active_since = now - self.listed_idle.as_millis() as i64;
        let read = self
            .hub
            .store()
            .transact(move |sql| {
                Ok((stored::live_seeks(sql, now)?, stored::listed_games(sql, active_since, MAX_LISTED_GAMES)?))
            })
            .await;
        let (seeks, games) = match read {
            Ok(read) => read,
            Err(error) => return tracing::warn!(%error, "the lobby could not be read"),
        };
        let listing = Listing {
            seeks: seeks.into_iter().filter_map(|s| Seek::from_stored(s).ok()).collect(),
            games: games.iter().map(game_json).collect(),
        };
        let mut inner = self.lock();
        if inner.listing != listing {
            inner.listing = listing;
            drop(inner);
            self.changes.send_modify(|v| *v += 1);
        }
    }

    /// When the listing must be read again by itself: at the next end of a
    /// seek's lease, and every [`LISTING_EVERY`] while sockets watch.
    fn next_look(&self) -> Duration {
        let inner = self.lock();
        let watched = self.changes.receiver_count() > 0;
        let now = now_ms();
        let lease_ends = inner.listing.seeks.iter().map(|s| s.alive_until).min();
        let until_lease = lease_ends.map(|end| Duration::from_millis((end - now).max(0) as u64 + 1));
        let every = if watched { LISTING_EVERY } else { Duration::from_secs(3600) };
        until_lease.map_or(every, |until| until.min(every))
    }

    /// The players whose sockets this node holds.
    fn present(&self) -> Vec<String> {
        self.lock().players.iter().filter(|(_, p)| !p.sockets.is_empty()).map(|(k, _)| k.clone()).collect()
    }

    /// What a socket shows `viewer`: the seeks and the games being played.
    pub fn snapshot(&self, viewer: Option<&PlayerId>, apart: &HashSet<String>) -> Value {
        let key = viewer.map(PlayerId::key);
        let inner = self.lock();
        let seeks: Vec<Value> =
            inner.listing.seeks.iter().filter(|s| s.visible_to(apart)).map(|s| s.to_json(key.as_deref())).collect();
        json!({ "seeks": seeks, "games": inner.listing.games })
    }

    /// Lists a new seek, within the caps. A creator with no lobby socket
    /// open gets the grace to open one.
    pub async fn add(&self, seek: Seek) -> Result<Value, ApiError> {
        let now = now_ms();
        let lease = if self.has_sockets(&seek.creator) { LEASE } else { self.grace };
        let record = seek.to_stored(now, now + lease.as_millis() as i64);
        let (creator, address) = (seek.creator.clone(), record.address.clone());
        self.hub
            .store()
            .transact(move |sql| {
                let counts = stored::count_seeks(sql, &creator, address.as_deref(), now)?;
                if counts.creator >= SEEKS_PER_PLAYER {
                    return Ok(Err(ApiError::new(
                        StatusCode::TOO_MANY_REQUESTS,
                        format!("you have {SEEKS_PER_PLAYER} open seeks already: cancel one first"),
                    )));
                }
                if address.is_some() && counts.address >= SEEKS_PER_ADDRESS {
                    return Ok(Err(ApiError::new(
                        StatusCode::TOO_MANY_REQUESTS,
                        format!("{SEEKS_PER_ADDRESS} seeks are open from your address already: cancel one first"),
                    )));
                }
                if counts.all >= MAX_SEEKS {
                    return Ok(Err(ApiError::new(
                        StatusCode::SERVICE_UNAVAILABLE,
                        format!("the lobby is full ({MAX_SEEKS} open seeks): accept one or try later"),
                    )));
                }
                stored::insert_seek(sql, &record, now)?;
                Ok(Ok(()))
            })
            .await??;
        self.hub.signal(TOPIC).await;
        Ok(seek.to_json(Some(seek.creator.as_str())))
    }

    /// The open seeks as `viewer` sees them, as the store holds them now.
    pub async fn seeks(&self, viewer: Option<&PlayerId>, apart: &HashSet<String>) -> Result<Vec<Value>, ApiError> {
        let now = now_ms();
        let seeks = self.hub.store().read(move |sql| stored::live_seeks(sql, now)).await?;
        let key = viewer.map(PlayerId::key);
        Ok(seeks
            .into_iter()
            .filter_map(|s| Seek::from_stored(s).ok())
            .filter(|s| s.visible_to(apart))
            .map(|s| s.to_json(key.as_deref()))
            .collect())
    }

    /// The accounts kept apart from `account` (blocks either way): their
    /// seeks are not shown to it, and its seeks not to them.
    pub async fn apart_from(&self, account: Option<&str>) -> Result<HashSet<String>, ApiError> {
        let Some(account) = account.map(str::to_owned) else { return Ok(HashSet::new()) };
        let apart = self.hub.store().read(move |sql| crate::store::relations::kept_apart(sql, &account)).await?;
        Ok(apart.into_iter().collect())
    }

    /// Cancels a seek; only its creator may.
    pub async fn cancel(&self, player: Option<&PlayerId>, id: &str) -> Result<(), ApiError> {
        let key = player.map(PlayerId::key);
        let id = id.to_owned();
        self.hub
            .store()
            .transact(move |sql| {
                let Some(seek) = stored::live_seek(sql, &id, now_ms())? else { return Ok(Err(no_seek(&id))) };
                if key.as_deref() != Some(seek.creator.as_str()) {
                    return Ok(Err(ApiError::forbidden("only the seek's creator may cancel it")));
                }
                stored::delete_seek(sql, &id)?;
                Ok(Ok(()))
            })
            .await??;
        self.hub.signal(TOPIC).await;
        Ok(())
    }

    /// Takes seek `id` out of the lobby for `accepter` to start its game,
    /// and the accepter's own seeks with it (one game at a time). Of two
    /// accepters, on any nodes, one takes it; the other is told it is gone.
    pub async fn take(&self, accepter: &PlayerId, id: &str) -> Result<Seek, ApiError> {
        let (key, id) = (accepter.key(), id.to_owned());
        let taken = self
            .hub
            .store()
            .transact(move |sql| {
                let Some(seek) = stored::live_seek(sql, &id, now_ms())? else { return Ok(Err(no_seek(&id))) };
                if seek.creator == key {
                    return Ok(Err(ApiError::conflict("you cannot accept your own seek")));
                }
                if !stored::delete_seek(sql, &id)? {
                    return Ok(Err(no_seek(&id)));
                }
                stored::delete_seeks_of(sql, &key)?;
                Ok(Ok(seek))
            })
            .await??;
        self.hub.signal(TOPIC).await;
        Seek::from_stored(taken)
    }

    /// Seek `id` (to check who may accept it before taking it).
    pub async fn seek(&self, id: &str) -> Result<Seek, ApiError> {
        let key = id.to_owned();
        let found = self.hub.store().read(move |sql| stored::live_seek(sql, &key, now_ms())).await?;
        Seek::from_stored(found.ok_or_else(|| no_seek(id))?)
    }

    /// Puts back a seek whose game could not start.
    pub async fn restore(&self, seek: Seek) {
        let now = now_ms();
        let record = seek.to_stored(now, now + LEASE.as_millis() as i64);
        if let Err(error) = self.hub.store().transact(move |sql| stored::insert_seek(sql, &record, now)).await {
            tracing::warn!(%error, "a seek whose game did not start could not be put back");
        }
        self.hub.signal(TOPIC).await;
    }

    /// Renames `player` in its open seeks.
    pub async fn rename(&self, player: &PlayerId, name: &str) -> Result<(), ApiError> {
        let (key, name) = (player.key(), name.to_owned());
        let renamed = self.hub.store().transact(move |sql| stored::rename(sql, &key, &name)).await?;
        if renamed > 0 {
            self.hub.signal(TOPIC).await;
        }
        Ok(())
    }

    /// Sends `message` to the lobby sockets of the player whose key is
    /// `key` only, on whichever node they are, or keeps it for the
    /// player's next socket (a reload).
    pub async fn tell(&self, key: &str, message: Value) -> Result<(), ApiError> {
        let (id, player, text) = (crate::secret::game_id(), key.to_owned(), message.to_string());
        self.hub.store().transact(move |sql| stored::post_message(sql, &id, &player, &text, now_ms())).await?;
        self.hub.signal(format!("{PLAYER_TOPIC}{key}")).await;
        Ok(())
    }

    /// Lists a game started from a seek while it is played: it leaves the
    /// list when it ends or rests (no change for [`LISTED_IDLE`]).
    pub async fn list_game(&self, id: String, variant: String, seats: [ListedSeat; 2], rated: bool) {
        let seats = Value::from(seats.iter().map(ListedSeat::to_json).collect::<Vec<_>>()).to_string();
        let game = stored::ListedGame { id, variant, seats, rated, listed: now_ms(), plies: 0 };
        if let Err(error) = self.hub.store().transact(move |sql| stored::list_game(sql, &game)).await {
            tracing::warn!(%error, "a started game could not be listed");
        }
        self.hub.signal(TOPIC).await;
    }
}

fn game_json(game: &stored::ListedGame) -> Value {
    json!({
        "id": game.id,
        "variant": game.variant,
        "seats": serde_json::from_str::<Value>(&game.seats).unwrap_or_else(|_| json!([])),
        "rated": game.rated,
        "ply": game.plies,
        "link": format!("/g/{}", game.id),
    })
}

fn no_seek(id: &str) -> ApiError {
    ApiError::not_found(format!("no seek {}", menagerie_core::shown(id)))
}

/// Follows the store for the lobby until it is gone: reads the listing
/// again when a node signals a change, delivers the messages signalled for
/// the players here, renews their leases, and looks again when a lease
/// ends and, while sockets watch, every [`LISTING_EVERY`].
async fn follow(lobby: Weak<Lobby>, mut signals: tokio::sync::broadcast::Receiver<String>) {
    let mut renewal = tokio::time::interval(RENEW_EVERY);
    renewal.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut sweep = tokio::time::interval(SWEEP_EVERY);
    sweep.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    if let Some(lobby) = lobby.upgrade() {
        lobby.refresh().await;
    }
    loop {
        let Some(wait) = lobby.upgrade().map(|l| l.next_look()) else { return };
        tokio::select! {
            heard = signals.recv() => {
                let Some(lobby) = lobby.upgrade() else { return };
                match heard {
                    Ok(topic) if topic == TOPIC => lobby.refresh().await,
                    Ok(topic) => match topic.strip_prefix(PLAYER_TOPIC) {
                        Some(key) => lobby.deliver(key).await,
                        None if topic == EVERY_TOPIC => everything(&lobby).await,
                        None => {}
                    },
                    Err(RecvError::Lagged(_)) => everything(&lobby).await,
                    Err(RecvError::Closed) => return,
                }
            }
            _ = renewal.tick() => {
                let Some(lobby) = lobby.upgrade() else { return };
                lobby.renew(lobby.present()).await;
            }
            _ = sweep.tick() => {
                let Some(lobby) = lobby.upgrade() else { return };
                lobby.sweep().await;
            }
            _ = tokio::time::sleep(wait) => {
                let Some(lobby) = lobby.upgrade() else { return };
                lobby.refresh().await;
            }
        }
    }
}

/// Reads everything again (signals may have been missed).
async fn everything(lobby: &Lobby) {
    lobby.refresh().await;
    for key in lobby.present() {
        lobby.deliver(&key).await;
    }
}
