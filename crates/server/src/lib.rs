//! The Menagerie server: the web page, a JSON API and WebSocket updates
//! from one process, games stored in SQLite, or in PostgreSQL shared by
//! several processes ([`nodes`]).
//!
//! ```text
//!  http (routes, handlers, connection loop)
//!   │  a request, parsed once
//!   ▼
//!  command (Command, Setup, Act)      view (what a viewer is sent)
//!   │                                   ▲
//!   ▼                                   │
//!  hub ───────────────┬──────────────┬──┘
//!   │ start (new games, rematches)   │ computer (players, driver)
//!   ▼                 ▼              ▼
//!  loaded (games in memory) ──► live (one game: commit protocol, acts, cache)
//!   │                                   │
//!   ▼                                   ▼
//!  store (Store trait, SQLite)     source, catalog (where games and decks come from)
//! ```
//!
//! - [`http`]: the route table ([`http::router`]), a handler per route that
//!   parses its request into a [`command::Command`] or a read, and the
//!   connection loop with its limits ([`http::listen`]).
//! - [`hub::Hub`]: runs commands and reads against the games in play; the
//!   one way a game begins ([`start`]) serves new games and rematches.
//! - [`live`]: one game in memory, its lock and change signal, the commit
//!   protocol (check, play, commit, publish), a seat's acts, and the texts
//!   sent since the last change. State that lives with a game in play
//!   (clocks) belongs there.
//! - [`lobby`]: anonymous players (a cookie and a display name), open
//!   challenges (seeks) and the games started from them, in memory.
//! - [`computer`]: the computer's levels and players, and the driver that
//!   searches and plays when a game waits for the computer.
//! - [`view`]: the JSON a viewer is sent, built from a live game.
//! - [`cpu`]: CPU-heavy request work, run on the blocking pool.
//! - [`store`]: durable storage behind the [`store::Store`] trait (SQLite
//!   today; another backend implements the trait and passes its contract).
//! - [`source::GameSource`]: where games come from (the registry of
//!   `menagerie_games`); [`catalog::Catalog`]: the decks offered.

pub mod accounts;
pub mod analysis;
pub mod assets;
pub mod catalog;
pub mod clock;
pub mod command;
pub mod computer;
pub mod cpu;
pub mod error;
pub mod http;
pub mod hub;
pub mod live;
pub mod loaded;
pub mod lobby;
pub mod names;
pub mod nodes;
pub mod secret;
pub mod source;
pub mod start;
pub mod store;
pub mod view;
pub mod viewer;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

pub use http::admission::SocketLimits;
pub use http::listen::RequestLimits;
pub use hub::{Hub, HubConfig};

/// What `menagerie serve` needs.
pub struct ServeOptions {
    pub addr: SocketAddr,
    pub db: store::Database,
    /// A folder of `NAME.toml` Lunch Chess decks to offer besides the standard one.
    pub decks: Option<PathBuf>,
    pub limits: RequestLimits,
    /// Origins besides the server's own whose pages may change things
    /// (`--allowed-origin`: the public address of a site behind a proxy).
    pub allowed_origins: http::AllowedOrigins,
    /// Where players reach the server (`--public-url`): over HTTPS, session
    /// cookies are `Secure`. (Its origin is among `allowed_origins`.)
    pub public_url: Option<http::Origin>,
}

/// The opponents the server offers: the random player and the search
/// levels of `menagerie_ai`.
pub fn default_opponents() -> Arc<dyn computer::Opponents> {
    Arc::new(computer::SearchLevels)
}

/// Builds a hub over the registry's games and a SQLite file.
pub fn sqlite_hub(db: &std::path::Path, config: HubConfig) -> Result<Arc<Hub>, store::StoreError> {
    let store = store::SqliteStore::open(db)?;
    Ok(Hub::new(Arc::new(source::Registry), Arc::new(store), default_opponents(), config))
}

/// Serves until Ctrl-C.
pub async fn serve(options: ServeOptions) -> Result<(), String> {
    let catalog = match &options.decks {
        Some(dir) => catalog::Catalog::with_decks(dir)?,
        None => catalog::Catalog::builtin(),
    };
    let decks = catalog.names(menagerie_games::lunch::deck::DECK_OPTION).join(", ");
    let config = HubConfig { catalog, ..HubConfig::default() };
    let store = options.db.open().map_err(|e| format!("cannot open {}: {e}", options.db))?;
    let hub = Hub::new(Arc::new(source::Registry), store, default_opponents(), config);
    let resumed = hub.resume().await.map_err(|e| e.to_string())?;
    let listener = tokio::net::TcpListener::bind(options.addr)
        .await
        .map_err(|e| format!("cannot listen on {}: {e}", options.addr))?;
    let local = listener.local_addr().map_err(|e| e.to_string())?;
    println!(
        "Menagerie is serving http://{local}/ (games in {}; {resumed} computer games resumed; decks: {decks})",
        options.db
    );
    let shutdown = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    let routes = http::router_with(hub, options.allowed_origins, accounts::Accounts::new(options.public_url));
    http::listen::serve(listener, routes, options.limits, shutdown).await;
    Ok(())
}

/// Starts a server in the background on `listener` (tests, the load test).
pub fn spawn(listener: tokio::net::TcpListener, hub: Arc<Hub>) -> tokio::task::JoinHandle<()> {
    spawn_with(listener, hub, RequestLimits::default())
}

/// [`spawn`] with other limits.
pub fn spawn_with(
    listener: tokio::net::TcpListener,
    hub: Arc<Hub>,
    limits: RequestLimits,
) -> tokio::task::JoinHandle<()> {
    spawn_allowing(listener, hub, limits, http::AllowedOrigins::default())
}

/// [`spawn_with`], also taking changes from pages of the `allowed` origins.
pub fn spawn_allowing(
    listener: tokio::net::TcpListener,
    hub: Arc<Hub>,
    limits: RequestLimits,
    allowed: http::AllowedOrigins,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(http::listen::serve(listener, http::router_allowing(hub, allowed), limits, std::future::pending()))
}
