//! The pages people open: the web page (`/`, `/g/{id}`) and its files, the
//! rules page of each game, and the docs.

use crate::assets;
use crate::error::ApiError;
use crate::hub::Hub;
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{Html, IntoResponse, Response};
use menagerie_core::shown;
use std::sync::Arc;

pub async fn page() -> Response {
    asset_response("index.html")
}

pub async fn asset(Path(path): Path<String>) -> Response {
    asset_response(&path)
}

fn asset_response(path: &str) -> Response {
    match assets::web(path) {
        Some(bytes) => {
            ([(header::CONTENT_TYPE, assets::content_type(path)), (header::CACHE_CONTROL, "no-cache")], bytes)
                .into_response()
        }
        None => ApiError::not_found(format!("no file {}", shown(path))).into_response(),
    }
}

pub async fn rules(State(hub): State<Arc<Hub>>, Path(variant): Path<String>) -> Response {
    let id = variant.split(':').next().unwrap_or_default();
    let name = hub.source().variants().iter().find(|v| v.id == id).map(|v| v.name);
    // Only a known id goes on to the page lookup (which tries every prefix).
    let id = if name.is_some() { id } else { "" };
    match (name, assets::rules(id)) {
        (Some(name), Some(markdown)) => Html(assets::markdown_page(name, markdown)).into_response(),
        (Some(name), None) => ApiError::not_found(format!("no rules page for {name} yet")).into_response(),
        (None, _) => ApiError::not_found(format!("unknown variant {}", shown(&variant))).into_response(),
    }
}

pub async fn doc(Path(name): Path<String>) -> Response {
    let stem = name.strip_suffix(".md").unwrap_or(&name);
    match assets::doc(&format!("{stem}.md")) {
        Some(markdown) => Html(assets::markdown_page(stem, markdown)).into_response(),
        None => ApiError::not_found(format!("no page {}", shown(&name))).into_response(),
    }
}
