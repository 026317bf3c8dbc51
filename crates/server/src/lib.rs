//! The Menagerie server: the web page, a JSON API and WebSocket updates
//! from one process, games stored in SQLite.
//!
//! Layers: [`listen`] (connections and their limits) and [`api`] (routes)
//! over [`hub::Hub`] (the games in play: rules checks, seat secrets,
//! computer and chance moves) over a [`store::Store`] (durable storage), a
//! [`source::GameSource`] (where games come from: the registry of
//! `menagerie_games`) and a [`catalog::Catalog`] (the decks offered).

pub mod api;
pub mod assets;
pub mod catalog;
pub mod computer;
pub mod error;
pub mod hub;
pub mod listen;
pub mod loadtest;
pub mod secret;
pub mod socket;
pub mod source;
pub mod store;
pub mod view;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

pub use hub::{Hub, HubConfig};
pub use listen::RequestLimits;

/// What `menagerie serve` needs.
pub struct ServeOptions {
    pub addr: SocketAddr,
    pub db: PathBuf,
    /// A folder of `NAME.toml` Lunch Chess decks to offer besides the standard one.
    pub decks: Option<PathBuf>,
    pub limits: RequestLimits,
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
    let hub = sqlite_hub(&options.db, config).map_err(|e| format!("cannot open {}: {e}", options.db.display()))?;
    let resumed = hub.resume().await.map_err(|e| e.to_string())?;
    let listener = tokio::net::TcpListener::bind(options.addr)
        .await
        .map_err(|e| format!("cannot listen on {}: {e}", options.addr))?;
    let local = listener.local_addr().map_err(|e| e.to_string())?;
    println!(
        "Menagerie is serving http://{local}/ (games in {}; {resumed} computer games resumed; decks: {decks})",
        options.db.display()
    );
    let shutdown = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    listen::serve(listener, api::router(hub), options.limits, shutdown).await;
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
    tokio::spawn(listen::serve(listener, api::router(hub), limits, std::future::pending()))
}
