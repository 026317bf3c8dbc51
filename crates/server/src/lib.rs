//! The Menagerie server: the web page, a JSON API and WebSocket updates
//! from one process, games stored in SQLite, or in PostgreSQL shared by
//! several processes ([`nodes`]).
//!
//! The server is crates in layers, each knowing only those below:
//!
//! ```text
//!  this crate     http (routes, handlers, sockets, origin rule, admission),
//!                 assets, ops; and the capabilities: accounts, limits,
//!                 lobby, challenges, tournament, bots, computer, analysis
//!  menagerie-play the games in play: hub, live games, clocks, commands,
//!                 views, presence, the computer's driver
//!  menagerie-notify  notices: the bell and mail
//!  menagerie-store   every table, migrations, the only database driver
//! ```
//!
//! - [`http`]: the route table ([`http::router`]), a handler per route that
//!   parses its request into a [`command::Command`] or a read, and the
//!   connection loop with its limits ([`http::listen`]).
//! - [`hub::Hub`] (`menagerie_play`): runs commands and reads against the
//!   games in play; it asks the capabilities above what it needs through
//!   traits it defines (the computer's [`computer::Opponents`], the
//!   takeback policy).
//! - [`lobby`]: anonymous players (a cookie and a display name), open
//!   challenges (seeks) and the games started from them, stored and
//!   followed across nodes through the hub's signals.
//! - [`computer`]: the computer's levels and a player for each.
//! - [`accounts`], [`limits`], [`challenges`], [`tournament`], [`bots`],
//!   [`analysis`]: the capabilities, each over the games in play.
//! - [`store`]: durable storage behind the [`store::Store`] trait, the crate
//!   `menagerie_store` (SQLite or PostgreSQL, each passing the store's
//!   contract), the only crate with a database driver.
//! - [`ops`]: running a site: health, logs, metrics, graceful stops.

pub mod assets;
pub mod error;
pub mod http;
pub mod ops;

/// The capabilities, a crate of their own between the games in play and
/// this web layer: known here by their old paths.
pub use menagerie_capabilities::{
    accounts, analysis, bots, challenges, computer, lessons, limits, lobby, origin, puzzles, review, tournament,
};

/// Notices (the bell, mail): a crate below the games in play.
pub use menagerie_notify as notify;
/// The games in play, a crate of their own below the capabilities: known
/// here by their old paths (`menagerie_server::hub::Hub`).
pub use menagerie_play::{
    catalog, clock, command, cpu, forecast, hub, live, loaded, names, nodes, presence, secret, source, start, view,
    viewer,
};

/// Durable storage: its own crate, the only one with a database driver.
pub use menagerie_store as store;
pub use menagerie_store::sql_params;

use std::net::{IpAddr, SocketAddr};
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
    /// Where Prometheus reads the metrics (`None`: no metrics listener).
    pub metrics_addr: Option<SocketAddr>,
    /// Reverse proxies whose `X-Forwarded-For` / `X-Real-IP` name the client.
    pub trusted_proxies: Vec<IpAddr>,
    /// Where players reach the server (`--public-url`): over HTTPS, session
    /// cookies are `Secure`. (Its origin is among `allowed_origins`.)
    pub public_url: Option<http::Origin>,
    /// E-mail for notifications and password resets (`--smtp`); `None`: off.
    pub mail: Option<notify::MailSettings>,
    /// Whether bots may play rated games against people
    /// (`--bots-rated-vs-people`).
    pub bots_rated_vs_people: bool,
}

/// The opponents the server offers: the random player and the search
/// levels of `menagerie_ai`.
pub fn default_opponents() -> Arc<dyn computer::Opponents> {
    Arc::new(computer::SearchLevels)
}

/// A hub over `source`'s games in `store`, with the jobs of the capabilities
/// above the games in play running beside it (tournaments: their pairings,
/// first moves and ends). Every server builds its hub so; [`Hub::new`]
/// alone plays games and knows no tournament.
pub fn new_hub(
    source: Arc<dyn source::GameSource>,
    store: Arc<dyn store::Store>,
    opponents: Arc<dyn computer::Opponents>,
    config: HubConfig,
) -> Arc<Hub> {
    let hub = Hub::new(source, store, opponents, config);
    if let Ok(runtime) = tokio::runtime::Handle::try_current() {
        runtime.spawn(tournament::run(Arc::downgrade(&hub)));
    }
    hub
}

/// Builds a hub over the registry's games and a SQLite file.
pub fn sqlite_hub(db: &std::path::Path, config: HubConfig) -> Result<Arc<Hub>, store::StoreError> {
    let store = store::SqliteStore::open(db)?;
    Ok(new_hub(Arc::new(source::Registry), Arc::new(store), default_opponents(), config))
}

/// Serves until SIGTERM or Ctrl-C, then stops as [`ops::shutdown`] says.
pub async fn serve(options: ServeOptions) -> Result<(), String> {
    let catalog = match &options.decks {
        Some(dir) => catalog::Catalog::with_decks(dir)?,
        None => catalog::Catalog::builtin(),
    };
    let decks = catalog.names(menagerie_games::lunch::deck::DECK_OPTION).join(", ");
    let mailer = options.mail.as_ref().map(notify::Mailer::new).transpose().map_err(|e| e.to_string())?;
    let notifier = Arc::new(notify::Notifier::new(mailer));
    let config =
        HubConfig { catalog, notifier, bots_rated_vs_people: options.bots_rated_vs_people, ..HubConfig::default() };
    let store = options.db.open().map_err(|e| format!("cannot open {}: {e}", options.db))?;
    let hub = new_hub(Arc::new(source::Registry), store, default_opponents(), config);
    let resumed = hub.resume().await.map_err(|e| e.to_string())?;
    let listener = tokio::net::TcpListener::bind(options.addr)
        .await
        .map_err(|e| format!("cannot listen on {}: {e}", options.addr))?;
    let local = listener.local_addr().map_err(|e| e.to_string())?;
    announce(format_args!(
        "Menagerie is serving http://{local}/ (games in {}; {resumed} computer games resumed; decks: {decks})",
        options.db
    ));
    tracing::info!(addr = %local, db = %options.db, resumed, "serving");
    if let Some(addr) = options.metrics_addr {
        serve_metrics(addr, Arc::clone(&hub)).await?;
    }
    let operations = ops::Operations::new(options.trusted_proxies);
    let draining = Arc::clone(&operations);
    let shutdown = async move {
        ops::shutdown::signalled().await;
        tracing::info!("stopping: no new connections; requests in flight finish");
        draining.start_draining();
    };
    let routes = http::router_with(
        hub,
        Arc::clone(&operations),
        options.allowed_origins,
        accounts::Accounts::new(options.public_url),
    );
    http::listen::serve(listener, routes, options.limits, shutdown).await;
    operations.tell_sockets_restarting();
    let closed = tokio::time::timeout(ops::shutdown::SOCKETS_CLOSE_TIME, async {
        while operations.sockets_open() > 0 {
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
    });
    if closed.await.is_err() {
        tracing::warn!(open = operations.sockets_open(), "sockets still open at exit");
    }
    tracing::info!("stopped");
    Ok(())
}

/// A line on standard output for whoever started the server. A reader that
/// has gone (`menagerie serve | head -1`) is no reason to stop serving, so a
/// failed write is not an error (`println!` would panic on it).
fn announce(line: std::fmt::Arguments) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}").and_then(|()| out.flush());
}

/// Serves the metrics on their own listener at `addr` (`GET /metrics`);
/// answers the address bound.
pub async fn serve_metrics(addr: SocketAddr, hub: Arc<Hub>) -> Result<SocketAddr, String> {
    let handle = ops::metrics::install()?;
    let listener =
        tokio::net::TcpListener::bind(addr).await.map_err(|e| format!("cannot listen on {addr} for metrics: {e}"))?;
    let local = listener.local_addr().map_err(|e| e.to_string())?;
    announce(format_args!("Metrics at http://{local}/metrics"));
    let upkeep = handle.clone();
    tokio::spawn(async move {
        // Histograms not scraped for a while are folded in now and then.
        let mut ticks = tokio::time::interval(std::time::Duration::from_secs(5));
        loop {
            ticks.tick().await;
            upkeep.run_upkeep();
        }
    });
    let app = http::ops::metrics_router(hub, handle);
    tokio::spawn(async move {
        if let Err(error) = axum::serve(listener, app).await {
            tracing::error!(%error, "the metrics listener failed");
        }
    });
    Ok(local)
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

/// [`spawn_with`] with a node's operations state (draining, trusted proxies).
pub fn spawn_operated(
    listener: tokio::net::TcpListener,
    hub: Arc<Hub>,
    limits: RequestLimits,
    operations: Arc<ops::Operations>,
) -> tokio::task::JoinHandle<()> {
    let routes = http::router_with(hub, operations, http::AllowedOrigins::default(), Default::default());
    tokio::spawn(http::listen::serve(listener, routes, limits, std::future::pending()))
}
