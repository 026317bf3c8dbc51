//! The Menagerie server: the web page, a JSON API and WebSocket updates
//! from one process, games stored in SQLite.
//!
//! Layers: [`api`] (routes) over [`hub::Hub`] (the games in play: rules
//! checks, seat secrets, computer and chance moves) over a
//! [`store::Store`] (durable storage) and a [`source::GameSource`] (where
//! games come from: the registry of `menagerie_games`).

pub mod api;
pub mod assets;
pub mod clock;
pub mod computer;
pub mod error;
pub mod hub;
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

/// What `menagerie serve` needs.
pub struct ServeOptions {
    pub addr: SocketAddr,
    pub db: PathBuf,
}

/// The opponents the server offers: the random player and the search
/// levels of `menagerie_ai`.
pub fn default_opponents() -> Arc<dyn computer::Opponents> {
    Arc::new(computer::SearchLevels)
}

/// Builds a hub over the registry's games and a SQLite file.
pub fn sqlite_hub(db: &std::path::Path) -> Result<Arc<Hub>, store::StoreError> {
    let store = store::SqliteStore::open(db)?;
    Ok(Hub::new(Arc::new(source::Registry), Arc::new(store), default_opponents(), HubConfig::default()))
}

/// Serves until Ctrl-C.
pub async fn serve(options: ServeOptions) -> Result<(), String> {
    let hub = sqlite_hub(&options.db).map_err(|e| format!("cannot open {}: {e}", options.db.display()))?;
    let resumed = hub.resume().await.map_err(|e| e.to_string())?;
    let listener = tokio::net::TcpListener::bind(options.addr)
        .await
        .map_err(|e| format!("cannot listen on {}: {e}", options.addr))?;
    let local = listener.local_addr().map_err(|e| e.to_string())?;
    println!(
        "Menagerie is serving http://{local}/ (games in {}; {resumed} computer games resumed)",
        options.db.display()
    );
    axum::serve(listener, api::router(hub))
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
        .map_err(|e| e.to_string())
}

/// Starts a server in the background on `listener` (tests, the load test).
pub fn spawn(listener: tokio::net::TcpListener, hub: Arc<Hub>) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let _ = axum::serve(listener, api::router(hub)).await;
    })
}
