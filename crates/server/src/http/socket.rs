//! Live updates: `GET /api/games/{id}/ws?seat=...` upgrades to a WebSocket
//! that sends the game's state (as `GET /api/games/{id}` would answer) at
//! once and after every change. The socket only listens; moves go through
//! the HTTP API.

use super::listen::ConnectionSlot;
use crate::error::ApiError;
use crate::hub::Hub;
use crate::live::GameSlot;
use crate::ops::{OpenSocket, Operations};
use crate::view::state;
use crate::viewer::Viewer;
use axum::extract::ws::{Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::{Extension, Path, Query, State};
use axum::response::Response;
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use std::sync::Arc;

#[derive(Deserialize)]
pub struct SocketQuery {
    seat: Option<String>,
}

pub async fn upgrade(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    Query(query): Query<SocketQuery>,
    slot: Option<Extension<ConnectionSlot>>,
    Extension(ops): Extension<Arc<Operations>>,
    upgrade: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    let game = hub.slot(&id).await?;
    let viewer = {
        let live = game.live.lock().await;
        live.viewer(query.seat.as_deref())?
    };
    // The socket only listens: nothing a client sends needs more than a
    // small frame (a ping, a close).
    let upgrade = upgrade.max_message_size(MAX_INCOMING).max_frame_size(MAX_INCOMING);
    Ok(upgrade.on_upgrade(move |socket| async move {
        // The connection's place in the server's count, held while the socket lives.
        let _slot = slot;
        watch(hub, game, viewer, socket, ops.open_socket("game")).await
    }))
}

/// The largest frame or message a client may send on a socket.
const MAX_INCOMING: usize = 4096;

async fn watch(hub: Arc<Hub>, slot: Arc<GameSlot>, viewer: Viewer, socket: WebSocket, mut open: OpenSocket) {
    let (mut sender, mut receiver) = socket.split();
    let mut changes = slot.subscribe();
    loop {
        let message = {
            let live = slot.live.lock().await;
            changes.borrow_and_update();
            state(&live, viewer, hub.source())
        };
        let Ok(text) = Utf8Bytes::try_from(message.0) else { return };
        if sender.send(Message::Text(text)).await.is_err() {
            return;
        }
        // Wait for a change, answering pings and noticing a close meanwhile.
        loop {
            tokio::select! {
                changed = changes.changed() => {
                    if changed.is_err() {
                        return;
                    }
                    break;
                }
                incoming = receiver.next() => match incoming {
                    None | Some(Err(_)) | Some(Ok(Message::Close(_))) => return,
                    Some(Ok(_)) => {}
                },
                () = open.restarting() => {
                    let _ = sender.send(OpenSocket::close_frame()).await;
                    return;
                }
            }
        }
    }
}
