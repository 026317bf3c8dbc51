//! An open WebSocket, kept alive: every socket kind reads and writes
//! through [`LiveSocket`], which pings the client every
//! [`SocketLimits::ping_interval`](super::admission::SocketLimits) and
//! closes the socket once the client has sent nothing for
//! `idle_timeout`, not even the answer to a ping (a browser answers by
//! itself; a client that vanished without a word, or holds sockets it
//! never reads, does not). A message the client does not take within
//! [`SEND_TIME`] ends the socket too. Either way its place among the open
//! sockets is free again. When the server restarts, every socket is sent
//! a close saying so ([`crate::ops::CLOSE_RESTARTING`]) and ends.

use super::admission::SocketPass;
use crate::ops::OpenSocket;
use axum::extract::ws::{close_code, CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::response::Response;
use std::future::Future;
use std::time::Duration;
use tokio::time::Instant;

/// The initial read buffer of a socket. Clients send little (a ping's
/// answer, an analysis request) and a larger message grows the buffer as it
/// comes; tungstenite's default, 128 KiB reserved up front, was most of
/// what an idle socket cost.
const READ_BUFFER: usize = 4096;

/// How long a message may take to go out before the client counts as gone.
pub const SEND_TIME: Duration = Duration::from_secs(10);

/// How long the close of a silent socket may take to go out.
const CLOSE_TIME: Duration = Duration::from_secs(1);

pub struct LiveSocket {
    socket: WebSocket,
    ping_interval: Duration,
    idle_timeout: Duration,
    /// When the client was last heard from.
    heard: Instant,
    next_ping: Instant,
    /// The socket's place among the open ones, held while it lives.
    _pass: SocketPass,
    /// Its place in the node's operations (metrics, restarts), if the
    /// router has them.
    open: Option<OpenSocket>,
}

impl LiveSocket {
    pub(super) fn new(socket: WebSocket, pass: SocketPass, open: Option<OpenSocket>) -> LiveSocket {
        let limits = pass.limits();
        let idle_timeout = limits.idle_timeout.max(Duration::from_millis(1));
        // At least two pings within the idle time: one lost or late answer
        // does not close a healthy socket.
        let ping_interval = limits.ping_interval.min(idle_timeout / 2);
        let now = Instant::now();
        LiveSocket {
            socket,
            ping_interval,
            idle_timeout,
            heard: now,
            next_ping: now + ping_interval,
            _pass: pass,
            open,
        }
    }

    /// The client's next message (text or binary), pinging it meanwhile;
    /// `None` once the client is gone: it closed the socket, broke the
    /// protocol, or stayed silent past the idle timeout, or the server is
    /// restarting (the client is told so first). Cancel-safe (for a
    /// `select!` beside the socket's other sources): a ping cut short is
    /// sent again.
    pub async fn recv(&mut self) -> Option<Message> {
        loop {
            let silent_at = self.heard + self.idle_timeout;
            tokio::select! {
                incoming = self.socket.recv() => match incoming {
                    None | Some(Err(_)) | Some(Ok(Message::Close(_))) => return None,
                    Some(Ok(message)) => {
                        self.heard = Instant::now();
                        // Pings are answered by the socket itself; pongs only show the client is there.
                        if matches!(message, Message::Text(_) | Message::Binary(_)) {
                            return Some(message);
                        }
                    }
                },
                () = tokio::time::sleep_until(silent_at.min(self.next_ping)) => {
                    let now = Instant::now();
                    if now >= silent_at {
                        let reason = format!("nothing heard for {} s", self.idle_timeout.as_secs_f64());
                        let close = CloseFrame { code: close_code::NORMAL, reason: reason.into() };
                        let _ = tokio::time::timeout(CLOSE_TIME, self.socket.send(Message::Close(Some(close)))).await;
                        return None;
                    }
                    if !self.send(Message::Ping(Default::default())).await {
                        return None;
                    }
                    self.next_ping = now + self.ping_interval;
                }
                () = restarting(&mut self.open) => {
                    let _ = tokio::time::timeout(CLOSE_TIME, self.socket.send(OpenSocket::close_frame())).await;
                    return None;
                }
            }
        }
    }

    /// Sends a text message; false if the client did not take it within
    /// [`SEND_TIME`] or is gone.
    pub async fn send_text(&mut self, text: impl Into<Utf8Bytes>) -> bool {
        self.send(Message::Text(text.into())).await
    }

    async fn send(&mut self, message: Message) -> bool {
        matches!(tokio::time::timeout(SEND_TIME, self.socket.send(message)).await, Ok(Ok(())))
    }
}

/// Completes when the server starts restarting; never without operations.
async fn restarting(open: &mut Option<OpenSocket>) {
    match open {
        Some(open) => open.restarting().await,
        None => std::future::pending().await,
    }
}

impl SocketPass {
    /// Upgrades to a socket of `kind` (`game`, `lobby`, `analysis`) that
    /// takes messages of at most `max_incoming` bytes from its client, kept
    /// alive and holding this place while `serve` runs.
    pub fn upgrade<F, Fut>(
        self,
        upgrade: WebSocketUpgrade,
        kind: &'static str,
        max_incoming: usize,
        serve: F,
    ) -> Response
    where
        F: FnOnce(LiveSocket) -> Fut + Send + 'static,
        Fut: Future<Output = ()> + Send + 'static,
    {
        upgrade.max_message_size(max_incoming).max_frame_size(max_incoming).read_buffer_size(READ_BUFFER).on_upgrade(
            move |socket| {
                let open = self.operations.as_ref().map(|operations| operations.open_socket(kind));
                serve(LiveSocket::new(socket, self, open))
            },
        )
    }
}
