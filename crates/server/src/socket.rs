//! Live updates: `GET /api/games/{id}/ws?seat=...` upgrades to a WebSocket
//! that sends the game's state (as `GET /api/games/{id}` would answer) at
//! once and after every change. The socket only listens; moves go through
//! the HTTP API.

use crate::error::ApiError;
use crate::hub::Hub;
use crate::view::state;
use axum::extract::ws::{Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, State};
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
    upgrade: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    let slot = hub.slot(&id).await?;
    let viewer = {
        let live = slot.live.lock().await;
        Hub::viewer(&live, query.seat.as_deref())?
    };
    Ok(upgrade.max_message_size(4096).on_upgrade(move |socket| watch(hub, slot, viewer, socket)))
}

async fn watch(hub: Arc<Hub>, slot: Arc<crate::hub::GameSlot>, viewer: crate::view::Viewer, socket: WebSocket) {
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
            }
        }
    }
}
