//! Running a site: what an operator watches and does (issue 41).
//!
//! - [`health`]: `GET /healthz` (the process answers) and `GET /readyz`
//!   (the store answers; 503 while draining), the rule as plain functions.
//! - [`logs`]: the `tracing` subscriber (`RUST_LOG`, text or JSON lines).
//!   One line per request (route, status, duration) and per game event; no
//!   line ever carries a seat secret, a cookie, a query string or a move
//!   text (a Lunch Chess move may be a card from a hand).
//! - [`metrics`]: the Prometheus recorder, the names of every metric, and
//!   their own listener (`--metrics-addr`): never on the public port.
//! - [`shutdown`]: SIGTERM or Ctrl-C, and the order a node stops in.
//! - [`proxy`]: the client address behind a trusted reverse proxy.
//! - [`backup`]: a consistent copy of a live SQLite store.
//!
//! The routes are in `http/ops.rs`. [`Operations`] is the state they share
//! with the connection loop and the sockets: whether the node is draining,
//! and the signal that tells every open socket the server is restarting.

pub use menagerie_store::backup;
pub mod health;
pub mod logs;
pub mod metrics;
pub mod proxy;
pub mod shutdown;

use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use tokio::sync::watch;

/// The state of a node that the operations routes and the sockets share.
pub struct Operations {
    draining: AtomicBool,
    restarting: watch::Sender<bool>,
    /// Sockets open now (a stopping node waits for them to close).
    open: Arc<AtomicUsize>,
    /// Reverse proxies whose `X-Forwarded-For` and `X-Real-IP` are believed.
    trusted_proxies: Vec<IpAddr>,
}

impl crate::lobby::Draining for Operations {
    fn is_draining(&self) -> bool {
        Operations::is_draining(self)
    }
}

impl Operations {
    pub fn new(trusted_proxies: Vec<IpAddr>) -> Arc<Operations> {
        Arc::new(Operations {
            draining: AtomicBool::new(false),
            restarting: watch::Sender::new(false),
            open: Arc::default(),
            trusted_proxies,
        })
    }

    /// Whether the node is stopping: `/readyz` answers 503, so a load
    /// balancer sends new clients elsewhere.
    pub fn is_draining(&self) -> bool {
        self.draining.load(Ordering::SeqCst)
    }

    pub fn start_draining(&self) {
        self.draining.store(true, Ordering::SeqCst);
    }

    /// Tells every open socket that the server is restarting: each sends
    /// its client a close frame saying so (1012, "service restart") and ends.
    pub fn tell_sockets_restarting(&self) {
        self.restarting.send_replace(true);
    }

    /// An open socket of `kind` (`game`, `lobby`, `analysis`): counted in
    /// the metrics while it lives, and told when the server restarts.
    pub fn open_socket(&self, kind: &'static str) -> OpenSocket {
        ::metrics::gauge!(metrics::SOCKETS_OPEN, "kind" => kind).increment(1.0);
        self.open.fetch_add(1, Ordering::SeqCst);
        OpenSocket { kind, restarting: self.restarting.subscribe(), open: Arc::clone(&self.open) }
    }

    /// How many sockets are open.
    pub fn sockets_open(&self) -> usize {
        self.open.load(Ordering::SeqCst)
    }

    pub fn trusted_proxies(&self) -> &[IpAddr] {
        &self.trusted_proxies
    }
}

/// One open socket ([`Operations::open_socket`]).
pub struct OpenSocket {
    kind: &'static str,
    restarting: watch::Receiver<bool>,
    open: Arc<AtomicUsize>,
}

/// The close code of a socket closed because the server restarts (RFC 6455,
/// registered by IANA as "Service Restart"): the page says so and reconnects.
pub const CLOSE_RESTARTING: u16 = 1012;

/// The reason sent with [`CLOSE_RESTARTING`].
pub const RESTARTING_REASON: &str = "the server is restarting";

impl OpenSocket {
    /// Completes when the server starts restarting (at once if it has).
    pub async fn restarting(&mut self) {
        // An error means the server's state is gone: it is stopping too.
        let _ = self.restarting.wait_for(|restarting| *restarting).await;
    }

    /// The close frame to send when [`OpenSocket::restarting`] completes.
    pub fn close_frame() -> axum::extract::ws::Message {
        axum::extract::ws::Message::Close(Some(axum::extract::ws::CloseFrame {
            code: CLOSE_RESTARTING,
            reason: RESTARTING_REASON.into(),
        }))
    }
}

impl Drop for OpenSocket {
    fn drop(&mut self) {
        ::metrics::gauge!(metrics::SOCKETS_OPEN, "kind" => self.kind).decrement(1.0);
        self.open.fetch_sub(1, Ordering::SeqCst);
    }
}
