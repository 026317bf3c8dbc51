//! Sockets' share of the server. Every WebSocket (a game's, the analysis
//! board's, the lobby's) is admitted here before it is upgraded, and holds
//! its place until it closes:
//!
//! - at most [`SocketLimits::max_sockets`] in all (503 beyond), a budget of
//!   its own: an upgraded socket gives its connection's place among the
//!   `max_connections` back, so sockets never take the places plain
//!   requests need;
//! - at most [`SocketLimits::per_client`] from one client address (429
//!   beyond), so one client cannot take the whole budget.
//!
//! A refusal is an ordinary JSON error answered instead of the upgrade.
//! Once open, a socket is kept alive by pings and closed when its client
//! falls silent ([`super::keepalive`]).

use super::client::client_address;
use crate::error::ApiError;
use crate::ops::Operations;
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::StatusCode;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

/// What the sockets may take of the server, and how they are kept alive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SocketLimits {
    /// WebSockets open at once, in all.
    pub max_sockets: usize,
    /// WebSockets open at once from one client address.
    pub per_client: usize,
    /// How often the server pings an open socket (a browser answers by itself).
    pub ping_interval: Duration,
    /// A socket whose client sent nothing for this long, not even the
    /// answer to a ping, is closed. Pings go out at least twice within it.
    pub idle_timeout: Duration,
}

impl Default for SocketLimits {
    fn default() -> Self {
        SocketLimits {
            max_sockets: 4096,
            per_client: 64,
            ping_interval: Duration::from_secs(30),
            idle_timeout: Duration::from_secs(60),
        }
    }
}

/// The sockets open, counted in all and per client address.
pub struct SocketAdmission {
    limits: SocketLimits,
    open: Mutex<Open>,
}

#[derive(Default)]
struct Open {
    total: usize,
    /// Only addresses with a socket open: at most `max_sockets` entries.
    per_client: HashMap<IpAddr, usize>,
}

impl SocketAdmission {
    pub fn new(limits: SocketLimits) -> Arc<SocketAdmission> {
        Arc::new(SocketAdmission { limits, open: Mutex::default() })
    }

    fn lock(&self) -> MutexGuard<'_, Open> {
        self.open.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A place for one more socket from `client`, or why there is none.
    pub fn admit(self: &Arc<Self>, client: Option<IpAddr>) -> Result<SocketPass, ApiError> {
        let mut open = self.lock();
        if let Some(client) = client {
            if open.per_client.get(&client).copied().unwrap_or(0) >= self.limits.per_client.max(1) {
                return Err(ApiError::new(
                    StatusCode::TOO_MANY_REQUESTS,
                    format!("at most {} sockets at once from one address: close one first", self.limits.per_client),
                ));
            }
        }
        if open.total >= self.limits.max_sockets.max(1) {
            return Err(ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                format!("the server has as many sockets open as it may ({}): try again later", self.limits.max_sockets),
            ));
        }
        open.total += 1;
        if let Some(client) = client {
            *open.per_client.entry(client).or_insert(0) += 1;
        }
        Ok(SocketPass { admission: Arc::clone(self), client, operations: None })
    }

    /// The sockets open now.
    pub fn open(&self) -> usize {
        self.lock().total
    }

    fn release(&self, client: Option<IpAddr>) {
        let mut open = self.lock();
        open.total = open.total.saturating_sub(1);
        if let Some(client) = client {
            if let Some(count) = open.per_client.get_mut(&client) {
                *count -= 1;
                if *count == 0 {
                    open.per_client.remove(&client);
                }
            }
        }
    }
}

/// A socket's place among the open ones, given back when it is dropped.
/// As an extractor it admits the request's client, or answers the refusal.
pub struct SocketPass {
    admission: Arc<SocketAdmission>,
    client: Option<IpAddr>,
    /// The node's operations state, where the router has one: the socket
    /// is counted in the metrics and told when the server restarts.
    pub(super) operations: Option<Arc<Operations>>,
}

impl Drop for SocketPass {
    fn drop(&mut self) {
        self.admission.release(self.client);
    }
}

impl SocketPass {
    pub fn limits(&self) -> SocketLimits {
        self.admission.limits
    }
}

impl<S: Send + Sync> FromRequestParts<S> for SocketPass {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<SocketPass, ApiError> {
        // The connection loop puts the admission in every request.
        let Some(admission) = parts.extensions.get::<Arc<SocketAdmission>>() else {
            return Err(ApiError::internal("sockets are not served here"));
        };
        let mut pass = admission.admit(client_address(&parts.extensions))?;
        pass.operations = parts.extensions.get::<Arc<Operations>>().cloned();
        Ok(pass)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caps_hold_in_all_and_per_client_and_free_on_drop() {
        let limits = SocketLimits { max_sockets: 3, per_client: 2, ..SocketLimits::default() };
        let admission = SocketAdmission::new(limits);
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let b: IpAddr = "10.0.0.2".parse().unwrap();
        let first = admission.admit(Some(a)).unwrap();
        let _second = admission.admit(Some(a)).unwrap();
        assert_eq!(admission.admit(Some(a)).err().unwrap().status, StatusCode::TOO_MANY_REQUESTS);
        let _third = admission.admit(Some(b)).unwrap();
        assert_eq!(admission.admit(Some(b)).err().unwrap().status, StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(admission.open(), 3);
        drop(first);
        let _again = admission.admit(Some(a)).unwrap();
        assert_eq!(admission.lock().per_client.len(), 2);
    }
}
