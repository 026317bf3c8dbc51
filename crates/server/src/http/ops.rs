//! The operations routes (`crate::ops`): `GET /healthz`, `GET /readyz`, the
//! layer that logs and counts every request, the one that finds the client
//! behind a trusted proxy, and the metrics listener's own router.

use super::client::PeerAddr;
use crate::hub::Hub;
use crate::ops::health::Readiness;
use crate::ops::{metrics, proxy, Operations};
use axum::extract::{Extension, MatchedPath, Request, State};
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use metrics_exporter_prometheus::PrometheusHandle;
use serde_json::json;
use std::sync::Arc;
use std::time::Instant;

/// `GET /healthz`: the process answers.
pub async fn healthz() -> Json<serde_json::Value> {
    Json(json!({ "status": "ok" }))
}

/// `GET /readyz`: the store answers and the node is not stopping (503 otherwise).
pub async fn readyz(State(hub): State<Arc<Hub>>, Extension(ops): Extension<Arc<Operations>>) -> Response {
    let store = if ops.is_draining() { Ok(()) } else { hub.store_answers().await.map_err(|e| e.to_string()) };
    let readiness = Readiness::judge(ops.is_draining(), store);
    if let Readiness::StoreDown(reason) = &readiness {
        tracing::warn!(%reason, "not ready: the store does not answer");
    }
    let status = if readiness.is_ready() { StatusCode::OK } else { StatusCode::SERVICE_UNAVAILABLE };
    (status, Json(readiness.body())).into_response()
}

/// Logs and counts every request: its route's pattern, path, status,
/// duration and client address (never the query string, which may hold a
/// seat secret). Runs inside [`forwarded_client`]: the address is the
/// client's, not the proxy's.
pub async fn observe(request: Request, next: Next) -> Response {
    let started = Instant::now();
    let method = request.method().clone();
    let route = request.extensions().get::<MatchedPath>().map_or("unmatched", |p| p.as_str()).to_owned();
    let path = request.uri().path().to_owned();
    let client = request.extensions().get::<PeerAddr>().map(|PeerAddr(addr)| addr.ip().to_string()).unwrap_or_default();
    let response = next.run(request).await;
    let elapsed = started.elapsed();
    let status = response.status().as_u16();
    ::metrics::counter!(metrics::REQUESTS, "route" => route.clone(), "status" => status.to_string()).increment(1);
    ::metrics::histogram!(metrics::REQUEST_SECONDS, "route" => route.clone()).record(elapsed.as_secs_f64());
    let ms = elapsed.as_secs_f64() * 1000.0;
    if response.status().is_server_error() {
        tracing::warn!(target: "menagerie::http", %method, %route, %path, status, ms, %client, "request");
    } else {
        tracing::info!(target: "menagerie::http", %method, %route, %path, status, ms, %client, "request");
    }
    response
}

/// Behind a trusted proxy, counts a request against the client it forwards
/// (`crate::ops::proxy`): the per-address limits read [`PeerAddr`].
pub async fn forwarded_client(
    Extension(ops): Extension<Arc<Operations>>,
    mut request: Request,
    next: Next,
) -> Response {
    if let Some(PeerAddr(peer)) = request.extensions().get::<PeerAddr>().copied() {
        let client = proxy::client_address(peer.ip(), ops.trusted_proxies(), request.headers());
        if client != peer.ip() {
            request.extensions_mut().insert(PeerAddr(std::net::SocketAddr::new(client, 0)));
        }
    }
    next.run(request).await
}

/// The metrics listener's routes: `GET /metrics` only.
pub fn metrics_router(hub: Arc<Hub>, handle: PrometheusHandle) -> Router {
    Router::new().route(
        "/metrics",
        get(move || {
            let hub = Arc::clone(&hub);
            let handle = handle.clone();
            async move {
                ::metrics::gauge!(metrics::LIVE_GAMES).set(hub.loaded_games() as f64);
                ([("content-type", "text/plain; version=0.0.4")], handle.render())
            }
        }),
    )
}
