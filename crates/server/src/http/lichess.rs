//! lichess's Bot and Board API (docs/bots.md; docs/api.md, "Bots and API
//! tokens"): personal API tokens, made and revoked with the session on the
//! account page, and the routes a token authenticates
//! (`Authorization: Bearer`), at lichess's paths with its JSON, so that
//! its clients (berserk, lichess-bot) carry over.

use super::accounts::{account_json, SignedIn};
use super::body::Body;
use crate::bots::{self, Scope};
use crate::error::ApiError;
use crate::hub::Hub;
use crate::limits::{self, Charge};
use crate::store::accounts::Account;
use crate::store::tokens::{self as stored, StoredToken};
use axum::extract::{FromRequestParts, Path, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::Arc;

type Shared = State<Arc<Hub>>;

/// The account an API token authenticates, and what the token may do.
pub struct TokenHolder {
    pub account: Account,
    pub scopes: Vec<Scope>,
    /// The token's id in the store (its hash).
    token: String,
}

impl TokenHolder {
    /// Refuses, as lichess does (403), a token without `scope`.
    pub fn require(&self, scope: Scope) -> Result<(), ApiError> {
        if self.scopes.contains(&scope) {
            Ok(())
        } else {
            Err(bots::missing_scope(scope))
        }
    }
}

/// The holder of the token a request presents: none without one; 401 for
/// one that is malformed, unknown, revoked or of a closed account.
pub async fn token_holder(hub: &Hub, headers: &HeaderMap) -> Result<Option<TokenHolder>, ApiError> {
    let token = match bots::presented_token(headers) {
        bots::Presented::Nothing => return Ok(None),
        bots::Presented::Malformed => return Err(bots::no_such_token()),
        bots::Presented::Token(token) => bots::token_id(&token),
    };
    let id = token.clone();
    let found = hub.store().read(move |sql| stored::token_account(sql, &id)).await?;
    let (account, scopes) = found.ok_or_else(bots::no_such_token)?;
    Ok(Some(TokenHolder { account, scopes: bots::stored_scopes(&scopes), token }))
}

impl FromRequestParts<Arc<Hub>> for TokenHolder {
    type Rejection = ApiError;

    /// A route of the API: a token is required (401 without).
    async fn from_request_parts(parts: &mut Parts, hub: &Arc<Hub>) -> Result<TokenHolder, ApiError> {
        token_holder(hub, &parts.headers).await?.ok_or_else(bots::no_such_token)
    }
}

/// Whether an account is a bot (lichess's `BOT` title).
pub async fn is_bot(hub: &Hub, account: &str) -> Result<bool, ApiError> {
    let account = account.to_owned();
    Ok(hub.store().read(move |sql| stored::is_bot(sql, &account)).await?)
}

/// An account as the API shows it, with `"title": "BOT"` for a bot.
pub async fn titled_account_json(hub: &Hub, account: &Account) -> Result<Value, ApiError> {
    let mut shown = account_json(account);
    if is_bot(hub, &account.id).await? {
        shown["title"] = json!("BOT");
    }
    Ok(shown)
}

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
