//! Metrics in Prometheus' text format, on their own listener
//! (`--metrics-addr`, off by default) so that the public port never shows
//! them. The code that measures calls the `metrics` macros with the names
//! below; without a recorder (tests, `--metrics-addr` unset) they cost next
//! to nothing.

use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use std::sync::OnceLock;

/// Requests answered, by `route` (the route's pattern, `/api/games/{id}`)
/// and `status`.
pub const REQUESTS: &str = "menagerie_http_requests_total";
/// Seconds from a request's arrival to its answer, by `route`.
pub const REQUEST_SECONDS: &str = "menagerie_http_request_duration_seconds";
/// Moves stored (a player's, the computer's or chance's), by `actor`;
/// seconds a store call took, by `op`: counted in the store.
pub use menagerie_store::metrics::{MOVES, STORE_SECONDS};
/// Games in this node's memory (being played or watched lately).
pub const LIVE_GAMES: &str = "menagerie_live_games";
/// Open WebSockets, by `kind` (`game`, `lobby`, `analysis`).
pub const SOCKETS_OPEN: &str = "menagerie_sockets_open";
/// Computer searches running and waiting; changes heard from other nodes
/// (PostgreSQL `NOTIFY`), by `kind`: counted in the games in play.
pub use menagerie_play::metrics::{NODE_NOTIFICATIONS, SEARCHES_QUEUED, SEARCHES_RUNNING};

/// Every metric the server exports (deploy/grafana-dashboard.json charts each).
pub const NAMES: &[&str] = &[
    REQUESTS,
    REQUEST_SECONDS,
    MOVES,
    LIVE_GAMES,
    SOCKETS_OPEN,
    SEARCHES_RUNNING,
    SEARCHES_QUEUED,
    STORE_SECONDS,
    NODE_NOTIFICATIONS,
];

/// The recorder of this process, installed on first use: one per process,
/// as the `metrics` macros have one global recorder.
pub fn install() -> Result<PrometheusHandle, String> {
    static HANDLE: OnceLock<Result<PrometheusHandle, String>> = OnceLock::new();
    HANDLE
        .get_or_init(|| {
            // Requests take milliseconds; store calls take from tens of
            // microseconds (SQLite) to milliseconds (PostgreSQL over a network).
            let recorder = PrometheusBuilder::new()
                .set_buckets_for_metric(
                    Matcher::Full(REQUEST_SECONDS.into()),
                    &[0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0],
                )
                .and_then(|b| {
                    b.set_buckets_for_metric(
                        Matcher::Full(STORE_SECONDS.into()),
                        &[0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0],
                    )
                })
                .map_err(|e| format!("cannot set up the metrics: {e}"))?
                .build_recorder();
            let handle = recorder.handle();
            metrics::set_global_recorder(recorder).map_err(|e| format!("cannot set up the metrics: {e}"))?;
            describe();
            Ok(handle)
        })
        .clone()
}

fn describe() {
    use metrics::{describe_counter, describe_gauge, describe_histogram, Unit};
    describe_counter!(REQUESTS, "HTTP requests answered, by route and status");
    describe_histogram!(REQUEST_SECONDS, Unit::Seconds, "Time to answer an HTTP request, by route");
    describe_counter!(MOVES, "Moves committed to the store, by actor");
    describe_gauge!(LIVE_GAMES, "Games in this node's memory");
    describe_gauge!(SOCKETS_OPEN, "Open WebSockets, by kind");
    describe_gauge!(SEARCHES_RUNNING, "Computer searches running");
    describe_gauge!(SEARCHES_QUEUED, "Computer searches waiting for a place");
    describe_histogram!(STORE_SECONDS, Unit::Seconds, "Time a store call took, by operation");
    describe_counter!(NODE_NOTIFICATIONS, "Changes heard from other nodes, by kind");
}
