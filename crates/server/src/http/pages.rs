//! The pages people open: the web page (`/`, `/g/{id}`, a profile
//! `/@/{username}`, the leaderboards) and its files, the rules page of each
//! game, and the docs.

use crate::assets;
use crate::error::ApiError;
use crate::hub::Hub;
use crate::store::accounts as stored;
use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use menagerie_core::shown;
use std::sync::Arc;

pub async fn page() -> Response {
    asset_response("index.html")
}

/// The page with `status`: a page whose address names nothing (no such
/// player, no such variant) is still the page, which says so, but its
/// status tells clients and crawlers it is not there.
fn page_with_status(status: StatusCode) -> Response {
    let mut response = asset_response("index.html");
    *response.status_mut() = status;
    response
}

/// `/@/{username}`: a player's profile; 404 for a name no account has
/// (the page says so; a closed account's page is there, and says it is
/// closed).
pub async fn profile(State(hub): State<Arc<Hub>>, Path(username): Path<String>) -> Response {
    if crate::accounts::checked_username(&username).is_err() {
        return page_with_status(StatusCode::NOT_FOUND);
    }
    match hub.store().read(move |sql| stored::account_by_name(sql, &username)).await {
        Ok(Some(_)) => page_with_status(StatusCode::OK),
        Ok(None) => page_with_status(StatusCode::NOT_FOUND),
        Err(error) => ApiError::from(error).into_response(),
    }
}

/// `/leaderboard`: the leaderboards of every variant.
pub async fn leaderboards() -> Response {
    asset_response("index.html")
}

/// `/leaderboard/{variant}`: one variant's top players; 404 for an id
/// that is not a variant of this server's.
pub async fn leaderboard(State(hub): State<Arc<Hub>>, Path(variant): Path<String>) -> Response {
    let known = hub.source().variants().iter().any(|v| v.id == variant);
    page_with_status(if known { StatusCode::OK } else { StatusCode::NOT_FOUND })
}

pub async fn asset(Path(path): Path<String>) -> Response {
    asset_response(&path)
}

/// `/favicon.ico`, where browsers and other clients look for a site's icon
/// by default: the icon every page names.
pub async fn favicon() -> Response {
    asset_response(assets::FAVICON)
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
    let info = hub.source().variants().into_iter().find(|v| v.id == id);
    let name = info.map(|v| v.name);
    // Only a known id goes on to the page lookup (which tries every prefix).
    let id = if name.is_some() { id } else { "" };
    let links: Vec<(&str, String)> =
        info.and_then(|v| assets::insights_page(v.game())).map(|href| ("Insights", href)).into_iter().collect();
    match (name, assets::rules(id)) {
        (Some(name), Some(markdown)) => Html(assets::markdown_page(name, markdown, &links)).into_response(),
        (Some(name), None) => ApiError::not_found(format!("no rules page for {name} yet")).into_response(),
        (None, _) => ApiError::not_found(format!("unknown variant {}", shown(&variant))).into_response(),
    }
}

pub async fn doc(Path(name): Path<String>) -> Response {
    let stem = name.strip_suffix(".md").unwrap_or(&name);
    match assets::doc(&format!("{stem}.md")) {
        Some(markdown) => Html(assets::markdown_page(stem, markdown, &[])).into_response(),
        None => ApiError::not_found(format!("no page {}", shown(&name))).into_response(),
    }
}

/// `/insights`: what the studies found, game by game.
pub async fn insights_index() -> Response {
    insight_response("README.md")
}

/// `/insights/{*path}`: a game's page (`/insights/lichen`), a study's report
/// (`.../report.md`) or its data and charts (`report.json`, `length.svg`),
/// all from the committed `docs/insights/`.
pub async fn insights(Path(path): Path<String>) -> Response {
    insight_response(&path)
}

fn insight_response(path: &str) -> Response {
    let has_extension = path.rsplit('/').next().is_some_and(|last| last.contains('.'));
    let path = if has_extension { path.to_owned() } else { format!("{path}.md") };
    let Some(bytes) = assets::insight(&path) else {
        return ApiError::not_found(format!("no insights page {}", shown(&path))).into_response();
    };
    if let Some(stem) = path.strip_suffix(".md") {
        let mut markdown = String::from_utf8_lossy(bytes).into_owned();
        let title = assets::heading(&markdown).unwrap_or_else(|| stem.to_owned());
        let mut links = vec![("All insights", "/insights/".to_owned())];
        // A game's own page links to its rules, and ends with its reports.
        if !stem.contains('/') && assets::rules(stem).is_some() {
            links.push(("Rules", format!("/rules/{stem}")));
        }
        let reports = if stem.contains('/') { Vec::new() } else { assets::reports(stem) };
        if !reports.is_empty() {
            markdown.push_str(
                "\n\n## The reports\n\nEach study's full report: every figure, with its data and charts.\n\n",
            );
            for (path, title) in reports {
                let study = path.strip_prefix(&format!("{stem}/")).unwrap_or(path);
                let study = study.rsplit_once('/').map_or(study, |(folder, _)| folder);
                markdown.push_str(&format!("- [{study}](/insights/{path}): {}\n", title.replace(['[', ']', '<'], "")));
            }
        }
        return Html(assets::markdown_page(&title, &markdown, &links)).into_response();
    }
    ([(header::CONTENT_TYPE, assets::content_type(&path)), (header::CACHE_CONTROL, "no-cache")], bytes).into_response()
}
