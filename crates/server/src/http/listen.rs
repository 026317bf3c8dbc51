//! The connection loop: HTTP/1.1 over TCP, with the limits that keep slow
//! or greedy clients from holding the server.
//!
//! - A client has [`RequestLimits::request_time`] to send a request's head
//!   (hyper's header timer, which also closes a connection idle that long
//!   between requests), and as long again to send its body; then the
//!   connection is closed (a late body gets 408 first).
//! - A body whose declared `Content-Length` exceeds [`MAX_BODY`] (a record for
//!   `POST /api/games/import`: its own limit) gets 413 at
//!   once, unread; a chunked one is cut at the limit.
//! - At most [`RequestLimits::max_connections`] connections are served at
//!   once; more wait in the kernel's queue until one ends, which the
//!   timers above guarantee for connections that send nothing.
//! - A request's head may take at most [`MAX_HEAD_BYTES`] of memory.
//!
//! A WebSocket is not one of these connections: once upgraded it gives its
//! connection's place back and holds one among the sockets instead, a
//! budget of their own ([`super::admission`], which every request carries),
//! so sockets never take the places plain requests need.

use super::admission::{SocketAdmission, SocketLimits};
pub use super::client::{client_address, ClientAddress, PeerAddr};
use crate::error::ApiError;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::Router;
use http_body_util::BodyExt;
use hyper::service::Service as _;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::future::Future;
use std::pin::pin;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::{watch, Semaphore};

/// What one client may take of the server.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RequestLimits {
    /// Time to send a request's head, and again its body.
    pub request_time: Duration,
    /// Connections served at once (upgraded sockets aside).
    pub max_connections: usize,
    /// What WebSockets may take, beside the connections.
    pub sockets: SocketLimits,
}

impl Default for RequestLimits {
    fn default() -> Self {
        RequestLimits { request_time: Duration::from_secs(5), max_connections: 4096, sockets: SocketLimits::default() }
    }
}

/// The most a request's head (request line and headers) may take.
pub const MAX_HEAD_BYTES: usize = 64 * 1024;

/// Request bodies larger than this are refused with 413.
pub const MAX_BODY: usize = 16 * 1024;

/// How long a stopping server waits for requests in flight.
const DRAIN_TIME: Duration = Duration::from_secs(10);

/// Serves `app` on `listener` until `shutdown` completes, then lets the
/// requests in flight finish (for a few seconds at most).
pub async fn serve(listener: TcpListener, app: Router, limits: RequestLimits, shutdown: impl Future<Output = ()>) {
    let app = app.layer(middleware::from_fn_with_state(limits, read_body));
    let slots = Arc::new(Semaphore::new(limits.max_connections.max(1)));
    let sockets = SocketAdmission::new(limits.sockets);
    let (closing, closing_seen) = watch::channel(false);
    // The connections' tasks (a WebSocket, once upgraded, is not one of them).
    let mut connections = tokio::task::JoinSet::new();
    let mut shutdown = pin!(shutdown);
    loop {
        let slot = tokio::select! {
            slot = Arc::clone(&slots).acquire_owned() => match slot {
                Ok(slot) => slot,
                Err(_) => break,
            },
            () = &mut shutdown => break,
        };
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(error) => {
                    // Out of file descriptors, or a connection reset before
                    // it was accepted: wait a moment rather than spin.
                    if !matches!(error.kind(), std::io::ErrorKind::ConnectionAborted | std::io::ErrorKind::ConnectionReset) {
                        tokio::time::sleep(Duration::from_millis(50)).await;
                    }
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let _ = stream.set_nodelay(true);
        let routes = TowerToHyperService::new(app.clone());
        let sockets = Arc::clone(&sockets);
        let service = hyper::service::service_fn(move |mut request: hyper::Request<hyper::body::Incoming>| {
            request.extensions_mut().insert(PeerAddr(peer));
            request.extensions_mut().insert(Arc::clone(&sockets));
            routes.call(request)
        });
        let mut closing = closing_seen.clone();
        while connections.try_join_next().is_some() {}
        connections.spawn(async move {
            // The connection's place, until it closes or becomes a socket
            // (the upgrade ends this task).
            let _slot = slot;
            let mut builder = hyper::server::conn::http1::Builder::new();
            // half_close: a client may end its side once its request is sent
            // and still get the answer.
            builder
                .timer(TokioTimer::new())
                .header_read_timeout(limits.request_time)
                .half_close(true)
                .max_buf_size(MAX_HEAD_BYTES);
            let mut connection = pin!(builder.serve_connection(TokioIo::new(stream), service).with_upgrades());
            tokio::select! {
                _ = connection.as_mut() => {}
                _ = async { closing.wait_for(|closing| *closing).await.is_ok() } => {
                    connection.as_mut().graceful_shutdown();
                    let _ = connection.await;
                }
            }
        });
    }
    closing.send_replace(true);
    let _ = tokio::time::timeout(DRAIN_TIME, async { while connections.join_next().await.is_some() {} }).await;
}

/// Reads the whole body before any route sees the request, within the
/// limits of time and size; routes get it from memory.
async fn read_body(State(limits): State<RequestLimits>, request: Request, next: Next) -> Response {
    let declared =
        request.headers().get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()).and_then(|v| v.parse::<u64>().ok());
    // Records (`POST /api/games/import`) may be larger than other bodies.
    let max =
        if request.uri().path() == super::records::IMPORT_PATH { super::records::MAX_RECORD_BODY } else { MAX_BODY };
    if declared.is_some_and(|length| length > max as u64) {
        return closing(too_large(max));
    }
    let (parts, body) = request.into_parts();
    let limited = http_body_util::Limited::new(body, max);
    let bytes = match tokio::time::timeout(limits.request_time, limited.collect()).await {
        Ok(Ok(collected)) => collected.to_bytes(),
        Ok(Err(error)) if error.is::<http_body_util::LengthLimitError>() => return closing(too_large(max)),
        Ok(Err(_)) => return closing(ApiError::bad_request("the request body could not be read")),
        Err(_) => {
            return closing(ApiError::new(
                StatusCode::REQUEST_TIMEOUT,
                format!("the request was not sent within {} s", limits.request_time.as_secs_f64()),
            ))
        }
    };
    next.run(Request::from_parts(parts, Body::from(bytes))).await
}

fn too_large(max: usize) -> ApiError {
    ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, format!("request body larger than {max} bytes"))
}

/// An error after which the connection closes: the rest of the request is
/// not worth reading.
fn closing(error: ApiError) -> Response {
    let mut response = error.into_response();
    response.headers_mut().insert(header::CONNECTION, HeaderValue::from_static("close"));
    response
}
