//! The HTTP layer: the route table, the handlers (each parses its request
//! once, into a command or a read, and hands it to the hub), and the
//! connection loop with its limits.
//!
//! A new route is a handler in the file of its concern (or a new file here,
//! `lobby.rs` say) and one line in [`router`].

mod analysis;
mod body;
mod games;
pub mod listen;
mod lobby;
pub mod ops;
mod pages;
mod positions;
pub mod records;
mod socket;
mod time;
mod variants;

use crate::analysis::Analyst;
use crate::error::ApiError;
use crate::hub::Hub;
use crate::lobby::Lobby;
use crate::ops::Operations;
use axum::extract::{DefaultBodyLimit, Extension};
use axum::middleware;
use axum::routing::{delete, get, post};
use axum::Router;
use std::sync::Arc;

/// All routes of the server over `hub`.
pub fn router(hub: Arc<Hub>) -> Router {
    router_with(hub, Operations::new(Vec::new()))
}

/// [`router`] with a node's operations state (`menagerie serve`: draining,
/// restarting, trusted proxies).
pub fn router_with(hub: Arc<Hub>, operations: Arc<Operations>) -> Router {
    Router::new()
        .route("/healthz", get(ops::healthz))
        .route("/readyz", get(ops::readyz))
        .route("/", get(pages::page))
        .route("/g/{id}", get(pages::page))
        .route("/analysis", get(pages::page))
        .route("/assets/{*path}", get(pages::asset))
        .route("/rules/{variant}", get(pages::rules))
        .route("/docs/{name}", get(pages::doc))
        .route("/insights", get(|| async { axum::response::Redirect::permanent("/insights/") }))
        .route("/insights/", get(pages::insights_index))
        .route("/insights/{*path}", get(pages::insights))
        .route("/api/variants", get(variants::variants))
        .route("/api/games", post(games::create))
        .route(records::IMPORT_PATH, post(records::import).layer(DefaultBodyLimit::max(records::MAX_RECORD_BODY)))
        .route("/api/games/{id}", get(games::read))
        .route("/api/games/{id}/record", get(records::record))
        .route("/api/games/{id}/moves", get(games::legal_moves))
        .route("/api/games/{id}/position/{ply}", get(games::position))
        .route("/api/games/{id}/move", post(games::play))
        .route("/api/games/{id}/resign", post(games::resign))
        .route("/api/games/{id}/draw", post(games::draw))
        .route("/api/games/{id}/takeback", post(games::takeback))
        .route("/api/time", get(time::now))
        .route("/api/games/{id}/rematch", post(games::rematch))
        .route("/api/games/{id}/ws", get(socket::upgrade))
        .route("/api/analysis", get(analysis::load))
        .route("/api/analysis/ws", get(analysis::upgrade))
        .route("/api/analysis/position", post(positions::position))
        .route("/api/me", get(lobby::me).post(lobby::rename))
        .route("/api/seeks", get(lobby::seeks).post(lobby::create))
        .route("/api/seeks/{id}", delete(lobby::cancel))
        .route("/api/seeks/{id}/accept", post(lobby::accept))
        .route("/api/lobby/ws", get(lobby::upgrade))
        .fallback(|| async { ApiError::not_found("no such page") })
        .layer(DefaultBodyLimit::max(listen::MAX_BODY))
        .layer(Extension(Arc::new(Analyst::default())))
        .layer(Extension(Arc::new(Lobby::default())))
        .layer(middleware::from_fn(ops::observe))
        .layer(middleware::from_fn(ops::forwarded_client))
        .layer(Extension(operations))
        .with_state(hub)
}
