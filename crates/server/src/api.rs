//! The HTTP routes: the page, the rules pages, the JSON API and the socket.
//! docs/api.md describes the API for people.

use crate::assets;
use crate::catalog::Catalog;
use crate::error::ApiError;
use crate::hub::{Hub, NewGame};
use crate::view::StateJson;
use axum::extract::rejection::JsonRejection;
use axum::extract::{DefaultBodyLimit, FromRequest, Path, Query, Request, State};
use axum::http::{header, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use menagerie_core::{shown, OptionInfo};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::{json, Value};
use std::future::Future;
use std::sync::Arc;

/// Request bodies larger than this are refused with 413.
pub const MAX_BODY: usize = 16 * 1024;

/// JSON bodies whose rejections are one-line API errors.
pub struct Body<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for Body<T> {
    type Rejection = ApiError;
    async fn from_request(request: Request, state: &S) -> Result<Self, ApiError> {
        match Json::<T>::from_request(request, state).await {
            Ok(Json(value)) => Ok(Body(value)),
            Err(rejection) => Err(json_rejection(rejection)),
        }
    }
}

fn json_rejection(rejection: JsonRejection) -> ApiError {
    let status = rejection.status();
    let reason = match &rejection {
        JsonRejection::MissingJsonContentType(_) => "expected a JSON body (Content-Type: application/json)".to_owned(),
        _ if status == StatusCode::PAYLOAD_TOO_LARGE => format!("request body larger than {MAX_BODY} bytes"),
        _ => rejection.body_text(),
    };
    // Unprocessable JSON (wrong fields) is bad input like malformed JSON.
    let status = if status == StatusCode::UNPROCESSABLE_ENTITY { StatusCode::BAD_REQUEST } else { status };
    ApiError::new(status, reason)
}

#[derive(Deserialize)]
struct SeatQuery {
    seat: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SeatBody {
    seat: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveBody {
    seat: Option<String>,
    #[serde(rename = "move")]
    text: String,
    ply: Option<usize>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DrawBody {
    seat: Option<String>,
    action: String,
}

type Shared = State<Arc<Hub>>;

/// All routes of the server over `hub`.
pub fn router(hub: Arc<Hub>) -> Router {
    Router::new()
        .route("/", get(page))
        .route("/g/{id}", get(page))
        .route("/assets/{*path}", get(asset))
        .route("/rules/{variant}", get(rules))
        .route("/docs/{name}", get(doc))
        .route("/api/variants", get(variants))
        .route("/api/games", post(create))
        .route("/api/games/{id}", get(read))
        .route("/api/games/{id}/moves", get(legal_moves))
        .route("/api/games/{id}/position/{ply}", get(position))
        .route("/api/games/{id}/move", post(play))
        .route("/api/games/{id}/resign", post(resign))
        .route("/api/games/{id}/draw", post(draw))
        .route("/api/games/{id}/rematch", post(rematch))
        .route("/api/games/{id}/ws", get(crate::socket::upgrade))
        .fallback(|| async { ApiError::not_found("no such page") })
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(hub)
}

async fn page() -> Response {
    asset_response("index.html")
}

async fn asset(Path(path): Path<String>) -> Response {
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

async fn rules(State(hub): Shared, Path(variant): Path<String>) -> Response {
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

async fn doc(Path(name): Path<String>) -> Response {
    let stem = name.strip_suffix(".md").unwrap_or(&name);
    match assets::doc(&format!("{stem}.md")) {
        Some(markdown) => Html(assets::markdown_page(stem, markdown)).into_response(),
        None => ApiError::not_found(format!("no page {}", shown(&name))).into_response(),
    }
}

async fn variants(State(hub): Shared) -> Json<Value> {
    let source = hub.source();
    let list: Vec<Value> = source
        .variants()
        .into_iter()
        .map(|info| {
            let start = source.new_game(info.id, None, 1, hub.catalog()).ok();
            json!({
                "id": info.id,
                "name": info.name,
                "summary": info.summary,
                "options": info.options.iter().map(|o| option_json(hub.catalog(), o)).collect::<Vec<_>>(),
                "rules": assets::rules(info.id).map(|_| format!("/rules/{}", info.id)),
                "players": start.as_ref().map(|g| json!([g.player_name(menagerie_core::Player::First), g.player_name(menagerie_core::Player::Second)])),
                "hidden_information": start.as_ref().map(|g| g.has_hidden_information()),
                // A small picture of the start; games with hidden
                // information show the first player's view of a sample deal
                // (seed 1: no game in play is dealt from a known seed).
                "start": start.as_ref().map(|g| g.view(g.has_hidden_information().then_some(menagerie_core::Player::First))),
            })
        })
        .collect();
    Json(json!({ "variants": list, "levels": hub.opponents().levels() }))
}

/// An option of `/api/variants`; one that names data (`deck`) lists the
/// names this server offers as `choices`.
fn option_json(catalog: &Catalog, option: &OptionInfo) -> Value {
    let mut json = json!({ "name": option.name, "summary": option.summary, "value": option.value });
    let choices = catalog.names(option.name);
    if !choices.is_empty() {
        json["choices"] = json!(choices);
    }
    json
}

/// Runs a change to its end even if the client goes away meanwhile. The
/// server drops the handler of a closed connection, and a change cut between
/// playing a move in memory and committing it would leave the game in
/// memory and in the store apart.
async fn to_the_end<T: Send + 'static>(
    change: impl Future<Output = Result<T, ApiError>> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::spawn(change).await.unwrap_or_else(|_| Err(ApiError::internal("the change failed")))
}

async fn create(State(hub): Shared, Body(request): Body<NewGame>) -> Result<(StatusCode, Json<Value>), ApiError> {
    let created = to_the_end(async move { hub.create(request).await }).await?;
    Ok((StatusCode::CREATED, Json(created)))
}

async fn read(State(hub): Shared, Path(id): Path<String>, Query(q): Query<SeatQuery>) -> Result<StateJson, ApiError> {
    hub.state(&id, q.seat.as_deref()).await
}

async fn legal_moves(
    State(hub): Shared,
    Path(id): Path<String>,
    Query(q): Query<SeatQuery>,
) -> Result<Json<Value>, ApiError> {
    Ok(Json(hub.legal_moves(&id, q.seat.as_deref()).await?))
}

async fn position(
    State(hub): Shared,
    Path((id, ply)): Path<(String, String)>,
    Query(q): Query<SeatQuery>,
) -> Result<Json<Value>, ApiError> {
    let ply: usize = ply.parse().map_err(|_| ApiError::bad_request(format!("ply {} is not a number", shown(&ply))))?;
    Ok(Json(hub.position(&id, q.seat.as_deref(), ply).await?))
}

async fn play(State(hub): Shared, Path(id): Path<String>, Body(body): Body<MoveBody>) -> Result<StateJson, ApiError> {
    to_the_end(async move { hub.play(&id, body.seat.as_deref(), &body.text, body.ply).await }).await
}

async fn resign(State(hub): Shared, Path(id): Path<String>, Body(body): Body<SeatBody>) -> Result<StateJson, ApiError> {
    to_the_end(async move { hub.resign(&id, body.seat.as_deref()).await }).await
}

async fn draw(State(hub): Shared, Path(id): Path<String>, Body(body): Body<DrawBody>) -> Result<StateJson, ApiError> {
    to_the_end(async move { hub.draw(&id, body.seat.as_deref(), &body.action).await }).await
}

async fn rematch(
    State(hub): Shared,
    Path(id): Path<String>,
    Body(body): Body<SeatBody>,
) -> Result<Json<Value>, ApiError> {
    Ok(Json(to_the_end(async move { hub.rematch(&id, body.seat.as_deref()).await }).await?))
}
