//! Stopping a node without losing a move: on SIGTERM (systemd's stop) or
//! Ctrl-C, in this order:
//!
//! 1. `/readyz` answers 503 (a load balancer stops sending new players);
//! 2. the listener closes: no new connections (nginx tries another node);
//! 3. requests in flight finish, so a move being committed is committed and
//!    answered ([`crate::http::listen`] waits up to its drain time, 10 s);
//! 4. every open socket is told the server is restarting (close code 1012:
//!    the page says so and reconnects, to another node where there is one)
//!    and the node waits up to [`SOCKETS_CLOSE_TIME`] for them to close;
//! 5. the process exits, which ends its database connections: with
//!    PostgreSQL the claims on computer games (advisory locks held by a
//!    connection) go with them, and another node takes those games over
//!    within a second (its sweep, [`crate::nodes`]). A computer search
//!    still running is given up (the other node searches again): the
//!    runtime waits at most [`BLOCKING_TIME`] for blocking work, such as a
//!    store commit, to end.
//!
//! So a node exits 0 at most 10 + 2 + 2 = 14 s after the signal
//! ([`STOP_BOUND`]); systemd's unit allows it 30 s.

use std::time::Duration;

/// How long a stopping node waits for its sockets to close.
pub const SOCKETS_CLOSE_TIME: Duration = Duration::from_secs(2);

/// How long the runtime waits for blocking work (a store commit) at exit.
pub const BLOCKING_TIME: Duration = Duration::from_secs(2);

/// The most a node takes to exit after SIGTERM.
pub const STOP_BOUND: Duration = Duration::from_secs(14);

/// Completes on SIGTERM or Ctrl-C (SIGINT).
pub async fn signalled() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = term.recv() => {}
                    _ = tokio::signal::ctrl_c() => {}
                }
            }
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}
