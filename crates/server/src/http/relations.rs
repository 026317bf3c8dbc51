//! Blocking a player, at lichess's paths (docs/api.md, "Blocking"): by the
//! page's session or a token with lichess's `follow:write`. A blocked
//! account cannot challenge the blocker, is not paired with it from the
//! lobby, and its notices to it are dropped (`crate::notify`); blocking
//! declines its open challenges to the blocker and forgets their notices.

use super::asker::{tell_accounts, Asker};
use crate::bots::Scope;
use crate::error::ApiError;
use crate::hub::Hub;
use crate::store::accounts::{self as stored_accounts, Account};
use crate::store::{challenges, notifications, relations};
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::Json;
use menagerie_core::shown;
use serde_json::{json, Value};
use std::sync::Arc;

type Shared = State<Arc<Hub>>;

/// The open account `username` names (404 for none, as lichess answers).
async fn player(hub: &Hub, username: &str) -> Result<Account, ApiError> {
    let name = username.to_owned();
    let account = hub.store().read(move |sql| stored_accounts::account_by_name(sql, &name)).await?;
    account.filter(|a| a.closed.is_none()).ok_or_else(|| ApiError::not_found(format!("no player {}", shown(username))))
}

/// Who blocks or unblocks, and whom.
async fn parties(hub: &Hub, headers: &HeaderMap, username: &str) -> Result<(Account, Account), ApiError> {
    let asker = Asker::of(hub, headers).await?;
    asker.require_any(&[Scope::FollowWrite])?;
    let other = player(hub, username).await?;
    if other.id == asker.account.id {
        return Err(ApiError::bad_request("you cannot block yourself"));
    }
    Ok((asker.account, other))
}

/// `POST /api/rel/block/{username}`: blocks the player.
pub async fn block(
    State(hub): Shared,
    headers: HeaderMap,
    Path(username): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let (me, them) = parties(&hub, &headers, &username).await?;
    let (blocker, blocked, now) = (me.id.clone(), them.id.clone(), crate::clock::now_ms());
    hub.store()
        .transact(move |sql| {
            relations::block(sql, &blocker, &blocked, now)?;
            // What they sent before is dropped as what they would send now.
            for challenge in challenges::decline_all_from(sql, &blocked, &blocker, now)? {
                notifications::forget(sql, &blocker, &format!("challenge/{challenge}"))?;
            }
            Ok(())
        })
        .await?;
    hub.notifier().touched(&me.id);
    tell_accounts(&hub, &[&me.id, &them.id]).await;
    Ok(Json(json!({ "ok": true })))
}

/// `POST /api/rel/unblock/{username}`: lifts the block (none: all the same).
pub async fn unblock(
    State(hub): Shared,
    headers: HeaderMap,
    Path(username): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let (me, them) = parties(&hub, &headers, &username).await?;
    hub.store().transact(move |sql| relations::unblock(sql, &me.id, &them.id)).await?;
    Ok(Json(json!({ "ok": true })))
}

/// Whether `viewer` blocks `account` (lichess's `blocking` of a user, shown
/// to whoever asks with a session or token).
pub async fn blocking(hub: &Hub, viewer: &str, account: &str) -> Result<bool, ApiError> {
    let (viewer, account) = (viewer.to_owned(), account.to_owned());
    Ok(hub.store().read(move |sql| relations::blocks(sql, &viewer, &account)).await?)
}

/// Whether either account blocks the other (they are never paired).
pub async fn kept_apart(hub: &Hub, one: &str, other: &str) -> Result<bool, ApiError> {
    let (one, other) = (one.to_owned(), other.to_owned());
    Ok(hub.store().read(move |sql| relations::blocked_either_way(sql, &one, &other)).await?)
}
