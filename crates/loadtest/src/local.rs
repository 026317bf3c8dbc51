//! The load test against a server of its own, in this process.

use crate::client::{run_against, LoadOptions, LoadReport};
use crate::nim::WithNim;
use menagerie_server::computer::RandomOnly;
use menagerie_server::store::SqliteStore;
use menagerie_server::{Hub, HubConfig};
use std::sync::Arc;

/// Runs the load test against a fresh server on 127.0.0.1 (any free port)
/// with a temporary SQLite file, the registry's games plus Nim.
pub async fn run_local(options: LoadOptions) -> Result<LoadReport, String> {
    let dir = tempfile::Builder::new().prefix("menagerie-load-").tempdir().map_err(|e| e.to_string())?;
    let store = SqliteStore::open(&dir.path().join("games.sqlite")).map_err(|e| e.to_string())?;
    let hub = Hub::new(Arc::new(WithNim), Arc::new(store), Arc::new(RandomOnly), HubConfig::default());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.map_err(|e| e.to_string())?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    let server = menagerie_server::spawn(listener, hub);
    let report = run_against(&format!("http://{addr}"), &options).await;
    server.abort();
    report
}
