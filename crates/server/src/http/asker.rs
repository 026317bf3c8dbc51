//! Who asks: the account of a request's session ([`SignedIn`]) or of its
//! API token ([`TokenHolder`]), either of them ([`Asker`]), and how an
//! account is shown to the asker. Every route that needs to know who asks
//! takes it from here.

use crate::accounts;
use crate::bots::{self, Scope};
use crate::error::ApiError;
use crate::hub::Hub;
use crate::store::accounts::{self as stored, Account};
use crate::store::tokens;
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{HeaderMap, StatusCode};
use serde_json::{json, Value};
use std::sync::Arc;

/// The account of the request's session, if it presents an open one.
pub struct SignedIn(pub Option<Account>);

impl FromRequestParts<Arc<Hub>> for SignedIn {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, hub: &Arc<Hub>) -> Result<SignedIn, ApiError> {
        signed_in(hub, &parts.headers).await.map(SignedIn)
    }
}

/// The account of the session `headers` present, if open.
pub async fn signed_in(hub: &Hub, headers: &HeaderMap) -> Result<Option<Account>, ApiError> {
    let Some(token) = accounts::presented_session(headers) else { return Ok(None) };
    let session = accounts::session_id(&token);
    Ok(hub.store().read(move |sql| stored::session_account(sql, &session)).await?)
}

/// The name a closed account's seats are shown under.
pub const CLOSED_NAME: &str = "closed account";

/// An account as the API shows it (lichess's shape).
pub fn account_json(account: &Account) -> Value {
    json!({
        "id": stored::username_key(&account.username),
        "username": account.username,
        "createdAt": account.created,
        "perfs": {},
    })
}

/// The account an API token authenticates, and what the token may do.
pub struct TokenHolder {
    pub account: Account,
    pub scopes: Vec<Scope>,
    /// The token's id in the store (its hash).
    pub(super) token: String,
}

impl TokenHolder {
    /// Refuses, as lichess does (403), a token without `scope`.
    pub fn require(&self, scope: Scope) -> Result<(), ApiError> {
        if self.scopes.contains(&scope) {
            Ok(())
        } else {
            Err(bots::missing_scope(scope).into())
        }
    }
}

/// The holder of the token a request presents: none without one; 401 for
/// one that is malformed, unknown, revoked or of a closed account.
pub async fn token_holder(hub: &Hub, headers: &HeaderMap) -> Result<Option<TokenHolder>, ApiError> {
    let token = match bots::presented_token(headers) {
        bots::Presented::Nothing => return Ok(None),
        bots::Presented::Malformed => return Err(bots::no_such_token().into()),
        bots::Presented::Token(token) => bots::token_id(&token),
    };
    let id = token.clone();
    let found = hub.store().read(move |sql| tokens::token_account(sql, &id)).await?;
    let (account, scopes) = found.ok_or_else(bots::no_such_token)?;
    Ok(Some(TokenHolder { account, scopes: bots::stored_scopes(&scopes), token }))
}

impl FromRequestParts<Arc<Hub>> for TokenHolder {
    type Rejection = ApiError;

    /// A route of the API: a token is required (401 without).
    async fn from_request_parts(parts: &mut Parts, hub: &Arc<Hub>) -> Result<TokenHolder, ApiError> {
        Ok(token_holder(hub, &parts.headers).await?.ok_or_else(bots::no_such_token)?)
    }
}

/// Whether an account is a bot (lichess's `BOT` title).
pub async fn is_bot(hub: &Hub, account: &str) -> Result<bool, ApiError> {
    let account = account.to_owned();
    Ok(hub.store().read(move |sql| tokens::is_bot(sql, &account)).await?)
}

/// An account as the API shows it, with `"title": "BOT"` for a bot.
pub async fn titled_account_json(hub: &Hub, account: &Account) -> Result<Value, ApiError> {
    let mut shown = account_json(account);
    if is_bot(hub, &account.id).await? {
        shown["title"] = json!("BOT");
    }
    Ok(shown)
}

/// Who asks: the account of an API token (with its scopes), or of the
/// page's session (which may do all a token may).
pub struct Asker {
    pub account: Account,
    scopes: Option<Vec<Scope>>,
}

impl Asker {
    /// The asker of a request: its token's account, or else its session's;
    /// 401 with neither.
    pub async fn of(hub: &Hub, headers: &HeaderMap) -> Result<Asker, ApiError> {
        if let Some(holder) = token_holder(hub, headers).await? {
            return Ok(Asker { account: holder.account, scopes: Some(holder.scopes) });
        }
        match signed_in(hub, headers).await? {
            Some(account) => Ok(Asker { account, scopes: None }),
            None => Err(ApiError::new(StatusCode::UNAUTHORIZED, "not logged in")),
        }
    }

    /// Refuses (403, lichess's answer) a token with none of `scopes`.
    pub fn require_any(&self, scopes: &[Scope]) -> Result<(), ApiError> {
        match &self.scopes {
            Some(held) if !scopes.iter().any(|s| held.contains(s)) => Err(bots::missing_scope(scopes[0]).into()),
            _ => Ok(()),
        }
    }
}

/// Tells the accounts' event streams and bells, on every node, that
/// something of theirs changed.
pub async fn tell_accounts(hub: &Hub, accounts: &[&str]) {
    for account in accounts {
        hub.signal(format!("account/{account}")).await;
    }
}
