//! lichess's Bot and Board API (docs/bots.md; docs/api.md, "Bots and API
//! tokens"): personal API tokens, made and revoked with the session on the
//! account page, and the routes a token authenticates
//! (`Authorization: Bearer`), at lichess's paths with its JSON, so that
//! its clients (berserk, lichess-bot) carry over.

use super::asker::{SignedIn, TokenHolder};
use super::body::Body;
use crate::bots::{self, Scope};
use crate::error::ApiError;
use crate::hub::Hub;
use crate::limits::{self, Charge};
use crate::store::tokens::{self as stored, StoredToken};
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::Arc;

type Shared = State<Arc<Hub>>;

fn not_logged_in() -> ApiError {
    ApiError::new(StatusCode::UNAUTHORIZED, "not logged in")
}

fn token_json(token: &StoredToken) -> Value {
    json!({
        "id": token.handle,
        "description": token.description,
        "scopes": bots::stored_scopes(&token.scopes).iter().map(|s| s.as_str()).collect::<Vec<_>>(),
        "createdAt": token.created,
    })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewToken {
    description: String,
    #[serde(default)]
    scopes: Vec<String>,
}

/// `POST /api/tokens {"description", "scopes"}` (session): a new token,
/// shown this once; within the account's limit.
pub async fn create_token(
    State(hub): Shared,
    SignedIn(account): SignedIn,
    Body(body): Body<NewToken>,
) -> Result<Response, ApiError> {
    let account = account.ok_or_else(not_logged_in)?;
    let description = bots::checked_description(&body.description)?;
    let scopes = bots::checked_scopes(&body.scopes)?;
    limits::count(hub.store(), vec![Charge::new(&limits::TOKENS_PER_ACCOUNT, account.id.clone())]).await?;
    let (token, id, handle) = bots::new_token();
    let stored = StoredToken {
        id,
        handle,
        account: account.id,
        description,
        scopes: bots::scopes_text(&scopes),
        created: crate::clock::now_ms(),
    };
    let mut shown = token_json(&stored);
    hub.store().transact(move |sql| stored::add_token(sql, &stored)).await?;
    shown["token"] = json!(token);
    Ok((StatusCode::CREATED, Json(shown)).into_response())
}

/// `GET /api/tokens` (session): the account's tokens (never the tokens
/// themselves: only their descriptions, scopes and handles).
pub async fn list_tokens(State(hub): Shared, SignedIn(account): SignedIn) -> Result<Json<Value>, ApiError> {
    let account = account.ok_or_else(not_logged_in)?;
    let tokens = hub.store().read(move |sql| stored::tokens(sql, &account.id)).await?;
    Ok(Json(json!({ "tokens": tokens.iter().map(token_json).collect::<Vec<_>>() })))
}

/// `DELETE /api/tokens/{id}` (session): revokes one of the account's tokens.
pub async fn revoke_token(
    State(hub): Shared,
    SignedIn(account): SignedIn,
    Path(handle): Path<String>,
) -> Result<StatusCode, ApiError> {
    let account = account.ok_or_else(not_logged_in)?;
    let revoked = hub.store().transact(move |sql| stored::revoke_token(sql, &account.id, &handle)).await?;
    if !revoked {
        return Err(ApiError::not_found("no such token"));
    }
    Ok(StatusCode::NO_CONTENT)
}

/// `DELETE /api/token` (lichess): revokes the token the request presents.
pub async fn revoke_own_token(State(hub): Shared, holder: TokenHolder) -> Result<StatusCode, ApiError> {
    let id = holder.token;
    hub.store().transact(move |sql| stored::end_token(sql, &id)).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `POST /api/bot/account/upgrade` (`bot:play`): makes the account a bot,
/// for good; only an account that has played no game (lichess's rule).
pub async fn upgrade(State(hub): Shared, holder: TokenHolder) -> Result<Json<Value>, ApiError> {
    holder.require(Scope::BotPlay)?;
    let account = holder.account.id;
    let now = crate::clock::now_ms();
    let upgraded = hub.store().transact(move |sql| stored::upgrade_to_bot(sql, &account, now)).await?;
    if !upgraded {
        return Err(ApiError::bad_request("only an account that has played no game can become a bot"));
    }
    Ok(Json(json!({ "ok": true })))
}
