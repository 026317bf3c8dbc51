//! A server on loopback for tests, over a SQLite file that outlives it.

#![allow(dead_code)]

pub mod browser;
pub mod lichess;
pub mod session;
pub mod smtp;

use menagerie_loadtest::WithNim;
use menagerie_server::catalog::Catalog;
use menagerie_server::computer::{ComputerPlayer, Level, Opponents, RandomOnly};
use menagerie_server::store::SqliteStore;
use menagerie_server::{HubConfig, RequestLimits};
use serde_json::{json, Value};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

pub struct TestServer {
    pub base: String,
    pub client: reqwest::Client,
    task: tokio::task::JoinHandle<()>,
}

impl TestServer {
    pub async fn start(db: &Path) -> TestServer {
        Self::start_with(db, Arc::new(RandomOnly)).await
    }

    pub async fn start_with(db: &Path, opponents: Arc<dyn Opponents>) -> TestServer {
        Self::start_full(db, opponents, Arc::new(WithNim)).await
    }

    pub async fn start_full(
        db: &Path,
        opponents: Arc<dyn Opponents>,
        source: Arc<dyn menagerie_server::source::GameSource>,
    ) -> TestServer {
        let config = HubConfig { max_searches: 2, ..HubConfig::default() };
        Self::start_configured(db, opponents, source, config, RequestLimits::default()).await
    }

    /// A server with the registry's games, the random player, and `config`.
    pub async fn start_with_config(db: &Path, config: HubConfig) -> TestServer {
        Self::start_configured(db, Arc::new(RandomOnly), Arc::new(WithNim), config, RequestLimits::default()).await
    }

    /// A server with the registry's games, the random player, and `catalog`.
    pub async fn start_with_catalog(db: &Path, catalog: Catalog) -> TestServer {
        let config = HubConfig { max_searches: 2, catalog, ..HubConfig::default() };
        Self::start_configured(db, Arc::new(RandomOnly), Arc::new(WithNim), config, RequestLimits::default()).await
    }

    pub async fn start_configured(
        db: &Path,
        opponents: Arc<dyn Opponents>,
        source: Arc<dyn menagerie_server::source::GameSource>,
        config: HubConfig,
        limits: RequestLimits,
    ) -> TestServer {
        let store = SqliteStore::open(db).expect("the database opens");
        let hub = menagerie_server::new_hub(source, Arc::new(store), opponents, config);
        hub.resume().await.expect("games resume");
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let task = menagerie_server::spawn_with(listener, hub, limits);
        TestServer { base, client: reqwest::Client::new(), task }
    }

    /// A server already running at `base` as `task`.
    pub fn from_parts(base: String, task: tokio::task::JoinHandle<()>) -> TestServer {
        TestServer { base, client: reqwest::Client::new(), task }
    }

    /// The `host:port` served.
    pub fn address(&self) -> &str {
        self.base.trim_start_matches("http://")
    }

    /// Stops serving (the store closes when the last request is done).
    pub async fn stop(self) {
        self.task.abort();
        let _ = self.task.await;
    }

    pub async fn get(&self, path: &str) -> (u16, Value) {
        let response = self.client.get(format!("{}{path}", self.base)).send().await.unwrap();
        let status = response.status().as_u16();
        (status, response.json().await.unwrap_or(Value::Null))
    }

    pub async fn post(&self, path: &str, body: Value) -> (u16, Value) {
        let response = self.client.post(format!("{}{path}", self.base)).json(&body).send().await.unwrap();
        let status = response.status().as_u16();
        (status, response.json().await.unwrap_or(Value::Null))
    }

    pub async fn post_raw(&self, path: &str, content_type: &str, body: Vec<u8>) -> (u16, String) {
        let response = self
            .client
            .post(format!("{}{path}", self.base))
            .header("content-type", content_type)
            .body(body)
            .send()
            .await
            .unwrap();
        (response.status().as_u16(), response.text().await.unwrap())
    }

    pub async fn create(&self, body: Value) -> Value {
        let (status, created) = self.post("/api/games", body.clone()).await;
        assert_eq!(status, 201, "creating {body}: {created}");
        created
    }

    pub async fn state(&self, id: &str, secret: Option<&str>) -> Value {
        let path = match secret {
            Some(s) => format!("/api/games/{id}?seat={s}"),
            None => format!("/api/games/{id}"),
        };
        let (status, state) = self.get(&path).await;
        assert_eq!(status, 200, "{state}");
        state
    }

    pub async fn play(&self, id: &str, secret: &str, text: &str) -> (u16, Value) {
        self.post(&format!("/api/games/{id}/move"), json!({ "seat": secret, "move": text })).await
    }
}

/// The sockets tests open: over TCP, without TLS.
pub type WebSocket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// An HTTP client whose requests come from `ip` (a loopback address:
/// 127.0.0.0/8 is all loopback), as another machine's would: the server's
/// per-address caps tell them apart.
pub fn client_from(ip: &str) -> reqwest::Client {
    reqwest::Client::builder().local_address(ip.parse::<std::net::IpAddr>().unwrap()).build().unwrap()
}

/// Opens a WebSocket on `server` from `ip`: `request` names the path
/// (`ws://host:port/...`) and may carry headers (a cookie).
pub async fn socket_from(
    ip: &str,
    server: &TestServer,
    request: impl tokio_tungstenite::tungstenite::client::IntoClientRequest + Unpin,
) -> Result<WebSocket, tokio_tungstenite::tungstenite::Error> {
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.bind(std::net::SocketAddr::new(ip.parse().unwrap(), 0)).unwrap();
    let stream = socket.connect(server.address().parse().unwrap()).await?;
    let stream = tokio_tungstenite::MaybeTlsStream::Plain(stream);
    tokio_tungstenite::client_async(request, stream).await.map(|(socket, _)| socket)
}

/// Every variant the test server offers: the registry's plus Nim.
pub fn variants() -> Vec<&'static str> {
    use menagerie_server::source::GameSource;
    WithNim.variants().iter().map(|v| v.id).collect()
}

/// A computer that can be held back: while paused it finds no move.
pub struct Pausable {
    pub paused: Arc<AtomicBool>,
}

struct PausablePlayer(Arc<AtomicBool>);

impl ComputerPlayer for PausablePlayer {
    fn choose(&self, game: &dyn menagerie_core::DynGame) -> Option<String> {
        if self.0.load(Ordering::SeqCst) {
            return None;
        }
        menagerie_server::computer::RandomPlayer.choose(game)
    }
}

impl Opponents for Pausable {
    fn levels(&self) -> Vec<Level> {
        RandomOnly.levels()
    }
    fn player(&self, level: &str) -> Option<Arc<dyn ComputerPlayer>> {
        (level == "random").then(|| Arc::new(PausablePlayer(Arc::clone(&self.paused))) as Arc<dyn ComputerPlayer>)
    }
}

/// Waits until `done(state)` holds, polling; panics after a few seconds.
pub async fn wait_for(server: &TestServer, id: &str, secret: Option<&str>, done: impl Fn(&Value) -> bool) -> Value {
    for _ in 0..400 {
        let state = server.state(id, secret).await;
        if done(&state) {
            return state;
        }
        tokio::time::sleep(std::time::Duration::from_millis(25)).await;
    }
    panic!("timed out waiting on game {id}: {}", server.state(id, secret).await);
}

/// The longest legal Lunch Chess discard of the seat to act (five cards
/// when the hand is full).
pub async fn discard_all(server: &TestServer, id: &str, seat: &str) -> String {
    let (status, moves) = server.get(&format!("/api/games/{id}/moves?seat={seat}")).await;
    assert_eq!(status, 200, "{moves}");
    let discards =
        moves["moves"].as_array().unwrap().iter().filter_map(|m| m.as_str()).filter(|m| m.starts_with("discard:"));
    discards.max_by_key(|m| m.matches('+').count()).expect("a discard").to_owned()
}
