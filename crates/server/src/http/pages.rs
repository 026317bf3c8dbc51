//! The pages people open: the web page (`/`, `/g/{id}`, a profile
//! `/@/{username}`, the leaderboards) and its files, the rules page of each
//! game, and the docs.
//!
//! What a browser keeps: a file under its fingerprinted address for a year
//! (it never changes); anything else it asks again each time, and is
//! answered 304 with no body when its entity tag still holds. Text goes
//! out compressed (brotli or gzip, as the browser takes).

use crate::assets::encoding::{self, Effort, Encoding};
use crate::assets::files::{self, WebFile};
use crate::assets::{self, page};
use crate::error::ApiError;
use crate::hub::Hub;
use crate::store::accounts as stored;
use axum::body::Body;
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use menagerie_core::shown;
use std::sync::Arc;

/// A fingerprinted file: the same address is the same bytes, for ever.
const FOREVER: &str = "public, max-age=31536000, immutable";
/// Anything else: kept, but asked again (with its entity tag) each time.
const REVALIDATE: &str = "no-cache";

pub async fn page(headers: HeaderMap) -> Response {
    page_with_status(&headers, StatusCode::OK)
}

/// The page with `status`: a page whose address names nothing (no such
/// player, no such variant) is still the page, which says so, but its
/// status tells clients and crawlers it is not there.
fn page_with_status(headers: &HeaderMap, status: StatusCode) -> Response {
    let page = page::page();
    let encoding = Encoding::chosen(accept_encoding(headers));
    let body = encoding::compress(page.html.as_bytes(), encoding, Effort::Quick);
    let etag = (status == StatusCode::OK).then(|| files::entity_tag(&page.hash, encoding));
    respond(headers, status, "text/html; charset=utf-8", Body::from(body), encoding, etag, REVALIDATE)
}

fn accept_encoding(headers: &HeaderMap) -> Option<&str> {
    headers.get(header::ACCEPT_ENCODING).and_then(|v| v.to_str().ok())
}

/// Whether the request's `If-None-Match` names `etag` (or anything: `*`).
fn still_fresh(headers: &HeaderMap, etag: &str) -> bool {
    headers.get_all(header::IF_NONE_MATCH).iter().filter_map(|v| v.to_str().ok()).flat_map(|v| v.split(',')).any(
        |tag| {
            let tag = tag.trim();
            tag == "*" || tag.strip_prefix("W/").unwrap_or(tag) == etag
        },
    )
}

/// The answer: 304 without a body when the browser's copy still holds,
/// else `body` (in `encoding`) with its type, tag and lifetime.
fn respond(
    request: &HeaderMap,
    status: StatusCode,
    content_type: &str,
    body: Body,
    encoding: Encoding,
    etag: Option<String>,
    cache: &'static str,
) -> Response {
    let fresh = status == StatusCode::OK && etag.as_deref().is_some_and(|etag| still_fresh(request, etag));
    let mut response = if fresh { StatusCode::NOT_MODIFIED.into_response() } else { (status, body).into_response() };
    let headers = response.headers_mut();
    if !fresh {
        if let Ok(value) = HeaderValue::from_str(content_type) {
            headers.insert(header::CONTENT_TYPE, value);
        }
        if let Some(name) = encoding.header() {
            headers.insert(header::CONTENT_ENCODING, HeaderValue::from_static(name));
        }
    }
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    if let Some(etag) = etag.and_then(|etag| HeaderValue::from_str(&etag).ok()) {
        headers.insert(header::ETAG, etag);
    }
    if encoding::compressible(content_type) {
        headers.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    }
    response
}

/// A page made for this request (a rules page, a doc): compressed quickly,
/// tagged by its content.
fn made_page(headers: &HeaderMap, html: String) -> Response {
    made_file(headers, "text/html; charset=utf-8", html.into_bytes())
}

/// A file made for this request (tagged by its content, compressed
/// quickly when it is text): a page, a study's data, the variants.
pub(super) fn made_file(headers: &HeaderMap, content_type: &str, bytes: Vec<u8>) -> Response {
    let wanted = if encoding::compressible(content_type) {
        Encoding::chosen(accept_encoding(headers))
    } else {
        Encoding::Identity
    };
    let etag = files::entity_tag(&files::content_hash(&bytes), wanted);
    if still_fresh(headers, &etag) {
        return respond(headers, StatusCode::OK, content_type, Body::empty(), wanted, Some(etag), REVALIDATE);
    }
    let body = encoding::compress(&bytes, wanted, Effort::Quick);
    respond(headers, StatusCode::OK, content_type, Body::from(body), wanted, Some(etag), REVALIDATE)
}

/// A file of `web/` (`forever`: asked for by its fingerprinted address).
fn file_response(headers: &HeaderMap, file: &'static WebFile, forever: bool) -> Response {
    let (body, encoding) = file.body(Encoding::chosen(accept_encoding(headers)));
    let cache = if forever { FOREVER } else { REVALIDATE };
    respond(headers, StatusCode::OK, file.content_type, Body::from(body), encoding, Some(file.etag(encoding)), cache)
}

/// `/@/{username}`: a player's profile; 404 for a name no account has
/// (the page says so; a closed account's page is there, and says it is
/// closed).
pub async fn profile(State(hub): State<Arc<Hub>>, headers: HeaderMap, Path(username): Path<String>) -> Response {
    if crate::accounts::checked_username(&username).is_err() {
        return page_with_status(&headers, StatusCode::NOT_FOUND);
    }
    match hub.store().read(move |sql| stored::account_by_name(sql, &username)).await {
        Ok(Some(_)) => page_with_status(&headers, StatusCode::OK),
        Ok(None) => page_with_status(&headers, StatusCode::NOT_FOUND),
        Err(error) => ApiError::from(error).into_response(),
    }
}

/// `/leaderboard`: the leaderboards of every variant.
pub async fn leaderboards(headers: HeaderMap) -> Response {
    page_with_status(&headers, StatusCode::OK)
}

/// `/leaderboard/{variant}`: one variant's top players; 404 for an id
/// that is not a variant of this server's.
pub async fn leaderboard(State(hub): State<Arc<Hub>>, headers: HeaderMap, Path(variant): Path<String>) -> Response {
    let known = hub.source().variants().iter().any(|v| v.id == variant);
    page_with_status(&headers, if known { StatusCode::OK } else { StatusCode::NOT_FOUND })
}

/// `/assets/{path}`: a file of `web/`, by its plain or its fingerprinted
/// address (`index.html` is the page: its addresses are the app's).
pub async fn asset(headers: HeaderMap, Path(path): Path<String>) -> Response {
    match files::lookup(&path).filter(|(file, _)| file.path != "index.html") {
        Some((file, forever)) => file_response(&headers, file, forever),
        None => ApiError::not_found(format!("no file {}", shown(&path))).into_response(),
    }
}

/// `/favicon.ico`, where browsers and other clients look for a site's icon
/// by default: the icon every page names.
pub async fn favicon(headers: HeaderMap) -> Response {
    match files::file(assets::FAVICON) {
        Some(file) => file_response(&headers, file, false),
        None => ApiError::not_found("no icon").into_response(),
    }
}

pub async fn rules(State(hub): State<Arc<Hub>>, headers: HeaderMap, Path(variant): Path<String>) -> Response {
    let id = variant.split(':').next().unwrap_or_default();
    let info = hub.source().variants().into_iter().find(|v| v.id == id);
    let name = info.map(|v| v.name);
    // Only a known id goes on to the page lookup (which tries every prefix).
    let id = if name.is_some() { id } else { "" };
    let links: Vec<(&str, String)> =
        info.and_then(|v| assets::insights_page(v.game())).map(|href| ("Insights", href)).into_iter().collect();
    match (name, assets::rules(id)) {
        (Some(name), Some(markdown)) => made_page(&headers, assets::markdown_page(name, markdown, &links)),
        (Some(name), None) => ApiError::not_found(format!("no rules page for {name} yet")).into_response(),
        (None, _) => ApiError::not_found(format!("unknown variant {}", shown(&variant))).into_response(),
    }
}

pub async fn doc(headers: HeaderMap, Path(name): Path<String>) -> Response {
    let stem = name.strip_suffix(".md").unwrap_or(&name);
    match assets::doc(&format!("{stem}.md")) {
        Some(markdown) => made_page(&headers, assets::markdown_page(stem, markdown, &[])),
        None => ApiError::not_found(format!("no page {}", shown(&name))).into_response(),
    }
}

/// `/insights`: what the studies found, game by game.
pub async fn insights_index(headers: HeaderMap) -> Response {
    insight_response(&headers, "README.md")
}

/// `/insights/{*path}`: a game's page (`/insights/lichen`), a study's report
/// (`.../report.md`) or its data and charts (`report.json`, `length.svg`),
/// all from the committed `docs/insights/`.
pub async fn insights(headers: HeaderMap, Path(path): Path<String>) -> Response {
    insight_response(&headers, &path)
}

fn insight_response(headers: &HeaderMap, path: &str) -> Response {
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
        return made_page(headers, assets::markdown_page(&title, &markdown, &links));
    }
    made_file(headers, assets::content_type(&path), bytes.to_vec())
}
