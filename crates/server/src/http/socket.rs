//! Live updates: `GET /api/games/{id}/ws?seat=...` upgrades to a WebSocket
//! that sends the game's state (as `GET /api/games/{id}` would answer) at
//! once and after every change. The socket only listens; moves go through
//! the HTTP API.

use super::admission::SocketPass;
use super::keepalive::LiveSocket;
use crate::error::ApiError;
use crate::hub::Hub;
use crate::live::GameSlot;
use crate::view::state;
use crate::viewer::Viewer;
use axum::extract::ws::{Utf8Bytes, WebSocketUpgrade};
use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::response::Response;
use serde::Deserialize;
use std::sync::Arc;

#[derive(Deserialize)]
pub struct SocketQuery {
    seat: Option<String>,
}

pub async fn upgrade(
    State(hub): State<Arc<Hub>>,
    headers: HeaderMap,
    Path(id): Path<String>,
    Query(query): Query<SocketQuery>,
    upgrade: WebSocketUpgrade,
    pass: SocketPass,
) -> Result<Response, ApiError> {
    let seat = super::seats::seat_for(&hub, &headers, &id, query.seat).await?;
    let game = hub.slot(&id).await?;
    let viewer = {
        let mut live = game.live.lock().await;
        let viewer = live.viewer(seat.as_deref())?;
        if live.open(viewer) {
            game.publish(&mut live);
        }
        viewer
    };
    Ok(pass.upgrade(upgrade, "game", MAX_INCOMING, move |socket| async move {
        // A seat's socket keeps its player present for abandonment claims.
        let _present = match viewer {
            Viewer::Seat(player) => Some(hub.presence().arrive(&id, player.index()).await),
            Viewer::Spectator => None,
        };
        watch(hub, game, viewer, socket).await
    }))
}

/// The largest frame or message a client may send on a socket: it only
/// listens, so nothing needs more than a small frame (a pong, a close).
const MAX_INCOMING: usize = 4096;

async fn watch(hub: Arc<Hub>, slot: Arc<GameSlot>, viewer: Viewer, mut socket: LiveSocket) {
    let mut changes = slot.subscribe();
    loop {
        let message = {
            let live = slot.live.lock().await;
            changes.borrow_and_update();
            state(&live, viewer, hub.source(), hub.takeback_levels())
        };
        let Ok(text) = Utf8Bytes::try_from(message.0) else { return };
        if !socket.send_text(text).await {
            return;
        }
        // Wait for a change, keeping the socket alive and noticing a close meanwhile.
        loop {
            tokio::select! {
                changed = changes.changed() => {
                    if changed.is_err() {
                        return;
                    }
                    break;
                }
                incoming = socket.recv() => if incoming.is_none() {
                    return;
                },
            }
        }
    }
}
