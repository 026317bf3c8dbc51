//! The load test against servers of its own, in this process.

use crate::client::{run_against_nodes, LoadOptions, LoadReport};
use crate::flood::{flood, FloodOptions, FloodReport};
use crate::nim::WithNim;
use menagerie_server::computer::RandomOnly;
use menagerie_server::store::{PgStore, SqliteStore, Store};
use menagerie_server::{HubConfig, RequestLimits, SocketLimits};
use std::sync::Arc;

/// Where the in-process servers keep their games.
#[derive(Clone, Debug, Default)]
pub enum LocalDatabase {
    /// One server on a temporary SQLite file.
    #[default]
    TemporarySqlite,
    /// `nodes` servers sharing this PostgreSQL database, each with its own
    /// connections, as separate processes would.
    Postgres { url: String, nodes: usize },
}

/// Runs the load test against fresh servers on 127.0.0.1 (any free ports)
/// with the registry's games plus Nim.
pub async fn run_local(options: LoadOptions, database: LocalDatabase) -> Result<LoadReport, String> {
    let dir = tempfile::Builder::new().prefix("menagerie-load-").tempdir().map_err(|e| e.to_string())?;
    let stores: Vec<Arc<dyn Store>> = match &database {
        LocalDatabase::TemporarySqlite => {
            vec![Arc::new(SqliteStore::open(&dir.path().join("games.sqlite")).map_err(|e| e.to_string())?)]
        }
        LocalDatabase::Postgres { url, nodes } => (0..(*nodes).max(1))
            .map(|_| PgStore::open(url).map(|s| Arc::new(s) as Arc<dyn Store>).map_err(|e| e.to_string()))
            .collect::<Result<_, _>>()?,
    };
    // The client stands for players on as many machines, all from one
    // address here: its game sockets must not be held to one client's cap.
    let budget = SocketLimits::default().max_sockets.max(2 * options.games);
    let sockets = SocketLimits { max_sockets: budget, per_client: budget, ..SocketLimits::default() };
    let limits = RequestLimits { sockets, ..RequestLimits::default() };
    let mut servers = Vec::new();
    let mut bases = Vec::new();
    for store in stores {
        let hub = menagerie_server::new_hub(Arc::new(WithNim), store, Arc::new(RandomOnly), HubConfig::default());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.map_err(|e| e.to_string())?;
        bases.push(format!("http://{}", listener.local_addr().map_err(|e| e.to_string())?));
        servers.push(menagerie_server::spawn_with(listener, hub, limits));
    }
    let report = run_against_nodes(&bases, &options).await;
    for server in servers {
        server.abort();
    }
    report
}

/// The socket flood against a fresh server in this process (its memory is
/// this process's: the client's sockets are counted with the server's).
pub async fn flood_local(options: FloodOptions) -> Result<FloodReport, String> {
    let dir = tempfile::Builder::new().prefix("menagerie-flood-").tempdir().map_err(|e| e.to_string())?;
    let store = SqliteStore::open(&dir.path().join("games.sqlite")).map_err(|e| e.to_string())?;
    let hub = menagerie_server::new_hub(Arc::new(WithNim), Arc::new(store), Arc::new(RandomOnly), HubConfig::default());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.map_err(|e| e.to_string())?;
    let base = format!("http://{}", listener.local_addr().map_err(|e| e.to_string())?);
    let server = menagerie_server::spawn(listener, hub);
    let options = FloodOptions { server_pid: options.server_pid.or(Some(std::process::id())), ..options };
    let report = flood(&base, &options).await;
    server.abort();
    report
}
