//! The notification routes (docs/api.md, "Notifications"): the account's
//! list and its socket (the page's bell), its e-mail address, and the
//! password reset that mail makes possible.

use super::accounts::BAD_CREDENTIALS;
use super::admission::SocketPass;
use super::asker::SignedIn;
use super::body::Body;
use super::keepalive::LiveSocket;
use crate::accounts;
use crate::challenges::Status;
use crate::error::ApiError;
use crate::hub::Hub;
use crate::limits::{self, Charge};
use crate::notify::{valid_address, Kind};
use crate::store::accounts as stored_accounts;
use crate::store::challenges::{self as stored_challenges, StoredChallenge};
use crate::store::notifications::{self as stored, Notification};
use crate::store::AsyncStore;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Duration;

type Shared = State<Arc<Hub>>;

/// The list's length: the newest this many.
const LISTED: usize = 50;
/// The socket sends the newest few with the count.
const ON_SOCKET: usize = 5;
/// How often a socket looks at the store by itself. Changes wake it at
/// once, this node's through the notifier and other nodes' through the
/// hub's signals; a look now and then covers a signal lost with a node.
const LOOK_EVERY: Duration = Duration::from_secs(60);
/// A client's frames on the socket: pings and a close only.
const MAX_INCOMING: usize = 4 * 1024;
/// How long a reset link works.
pub const RESET_MINUTES: i64 = 30;

fn unauthorized() -> ApiError {
    ApiError::new(StatusCode::UNAUTHORIZED, "not logged in")
}

fn notification_json(notification: &Notification, challenge: Option<&StoredChallenge>) -> Value {
    let body: Value = serde_json::from_str(&notification.body).unwrap_or_else(|_| json!({}));
    let mut shown = json!({
        "id": notification.id,
        "kind": notification.kind,
        "text": body["text"],
        "link": body["link"],
        "game": notification.game,
        "createdAt": notification.created,
        "read": notification.seen.is_some(),
    });
    if let Some(challenge) = challenge {
        shown["challenge"] = challenge_state(challenge);
    }
    shown
}

/// Where a challenge stands, as its notice shows it (the bell offers
/// Accept and Decline while it is `created`): its id, its status as
/// `GET /api/challenge/{id}/show` says it, and its game once accepted.
fn challenge_state(challenge: &StoredChallenge) -> Value {
    let status = if challenge.status == Status::Created.as_str() && challenge.expires <= crate::clock::now_ms() {
        "offline"
    } else {
        challenge.status.as_str()
    };
    json!({ "id": challenge.id, "status": status, "gameId": challenge.game })
}

/// The challenge a challenge's notice is about: its link names it
/// (`/@/<challenger>?challenge=<id>`).
fn challenge_named(notification: &Notification) -> Option<String> {
    if notification.kind != Kind::Challenge.as_str() {
        return None;
    }
    let body: Value = serde_json::from_str(&notification.body).ok()?;
    let (_, query) = body["link"].as_str()?.split_once('?')?;
    query.split('&').find_map(|pair| pair.strip_prefix("challenge=")).map(str::to_owned)
}

/// The newest `limit` notifications and the unread count, each challenge
/// with where it stands now: answered on any node, its notice says so at
/// the next look (an answer signals both accounts).
async fn listing(store: &AsyncStore, account: String, limit: usize) -> Result<Value, ApiError> {
    let (unread, newest) = store
        .read(move |sql| {
            let unread = stored::unread(sql, &account)?;
            let mut newest = Vec::new();
            for notification in stored::newest(sql, &account, limit)? {
                let challenge = match challenge_named(&notification) {
                    Some(id) => stored_challenges::challenge_by_id(sql, &id)?,
                    None => None,
                };
                newest.push((notification, challenge));
            }
            Ok((unread, newest))
        })
        .await?;
    Ok(json!({
        "unread": unread,
        "notifications": newest.iter().map(|(n, c)| notification_json(n, c.as_ref())).collect::<Vec<_>>(),
    }))
}

/// `GET /api/notifications`: the account's newest notifications and how
/// many are unread.
pub async fn list(State(hub): Shared, SignedIn(account): SignedIn) -> Result<Json<Value>, ApiError> {
    let account = account.ok_or_else(unauthorized)?;
    Ok(Json(listing(hub.store(), account.id, LISTED).await?))
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct ReadBody {
    /// The notifications read; all of them when left out.
    #[serde(default)]
    ids: Option<Vec<String>>,
}

/// `POST /api/notifications/read {"ids"?}`: marks notifications read.
pub async fn read(
    State(hub): Shared,
    SignedIn(account): SignedIn,
    Body(body): Body<ReadBody>,
) -> Result<Json<Value>, ApiError> {
    let account = account.ok_or_else(unauthorized)?;
    if body.ids.as_ref().is_some_and(|ids| ids.len() > LISTED * 4) {
        return Err(ApiError::bad_request(format!("at most {} ids at once", LISTED * 4)));
    }
    let id = account.id.clone();
    let unread = hub
        .store()
        .transact(move |sql| {
            stored::mark_read(sql, &id, body.ids.as_deref(), crate::clock::now_ms())?;
            stored::unread(sql, &id)
        })
        .await?;
    hub.notifier().touched(&account.id);
    Ok(Json(json!({ "unread": unread })))
}

/// `GET /api/notifications/ws`: the bell. Sends `{"type": "notifications",
/// "unread", "notifications"}` (the newest few) at once and whenever they
/// change.
pub async fn upgrade(
    State(hub): Shared,
    SignedIn(account): SignedIn,
    upgrade: WebSocketUpgrade,
    pass: SocketPass,
) -> Result<Response, ApiError> {
    let account = account.ok_or_else(unauthorized)?;
    let changes = hub.notifier().subscribe();
    let signals = hub.signals();
    let store = hub.store().clone();
    Ok(pass.upgrade(upgrade, "notifications", MAX_INCOMING, move |socket| {
        serve(store, account.id, changes, signals, socket)
    }))
}

async fn serve(
    store: AsyncStore,
    account: String,
    mut changes: tokio::sync::broadcast::Receiver<String>,
    mut signals: tokio::sync::broadcast::Receiver<String>,
    mut socket: LiveSocket,
) {
    let topic = crate::hub::account_topic(&account);
    let mut sent: Option<Value> = None;
    let mut looks = tokio::time::interval(LOOK_EVERY);
    loop {
        // A store that cannot answer now is asked again at the next look.
        if let Ok(mut message) = listing(&store, account.clone(), ON_SOCKET).await {
            if sent.as_ref() != Some(&message) {
                sent = Some(message.clone());
                message["type"] = json!("notifications");
                if !socket.send_text(message.to_string()).await {
                    return;
                }
            }
        }
        loop {
            tokio::select! {
                changed = changes.recv() => match changed {
                    Ok(who) if who == account => break,
                    Ok(_) => {}
                    // Missed some: look again.
                    Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => break,
                    Err(_) => return,
                },
                // Another node changed them.
                signal = signals.recv() => match signal {
                    Ok(heard) if heard == topic || heard == crate::nodes::EVERY_TOPIC => break,
                    Ok(_) => {}
                    Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => break,
                    Err(_) => return,
                },
                _ = looks.tick() => break,
                incoming = socket.recv() => if incoming.is_none() { return },
            }
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EmailBody {
    /// The address; `null` or `""` removes it.
    email: Option<String>,
    password: String,
}

/// `GET /api/account/email`: the account's address, and whether this
/// server sends mail at all.
pub async fn email(State(hub): Shared, SignedIn(account): SignedIn) -> Result<Json<Value>, ApiError> {
    let account = account.ok_or_else(unauthorized)?;
    let email = hub.store().read(move |sql| stored::email(sql, &account.id)).await?;
    Ok(Json(json!({ "email": email, "mail": hub.notifier().mails() })))
}

/// `POST /api/account/email {"email", "password"}`: sets or removes the
/// account's address (the password proves it is the owner at the keyboard).
pub async fn set_email(
    State(hub): Shared,
    SignedIn(account): SignedIn,
    Body(body): Body<EmailBody>,
) -> Result<Json<Value>, ApiError> {
    let account = account.ok_or_else(unauthorized)?;
    let email = body.email.map(|e| e.trim().to_owned()).filter(|e| !e.is_empty());
    if let Some(email) = &email {
        if !valid_address(email) {
            return Err(ApiError::bad_request("that is not an e-mail address"));
        }
    }
    let username = account.username.clone();
    let found = hub.store().read(move |sql| stored_accounts::account_for_login(sql, &username)).await?;
    let hash = found.map(|(_, hash)| hash);
    let password = body.password;
    let matches = tokio::task::spawn_blocking(move || accounts::password_matches(&password, hash.as_deref()))
        .await
        .map_err(|_| ApiError::internal("the password check failed"))?;
    if !matches {
        return Err(ApiError::new(StatusCode::UNAUTHORIZED, BAD_CREDENTIALS));
    }
    let stored_email = email.clone();
    hub.store().transact(move |sql| stored::set_email(sql, &account.id, stored_email.as_deref())).await?;
    Ok(Json(json!({ "email": email })))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResetBody {
    username: String,
}

/// `POST /api/password-reset {"username"}`: mails the account a link that
/// sets a new password. The answer is the same whether the account exists
/// and has an address or not (202), so it tells a stranger nothing.
pub async fn reset(
    State(hub): Shared,
    super::listen::ClientAddress(address): super::listen::ClientAddress,
    Body(body): Body<ResetBody>,
) -> Result<Response, ApiError> {
    let Some(mailer) = hub.notifier().mailer().cloned() else {
        // Not a failure of the server (5xx): the feature is off here.
        return Err(ApiError::not_found("password reset is off: this server sends no mail (ask its operator)"));
    };
    // One address cannot mail every account (its logins count these too),
    // nor anyone fill one account's mailbox; whether or not the name is an
    // account's, so the limit tells nothing.
    let name = Charge::new(&limits::PASSWORD_RESETS_PER_NAME, stored_accounts::username_key(&body.username));
    limits::count_some(hub.store(), [Charge::address(&limits::LOGINS_PER_ADDRESS, address), Some(name)]).await?;
    let (token, id) = accounts::new_session();
    let username = body.username.clone();
    let now = crate::clock::now_ms();
    let to_mail = hub
        .store()
        .transact(move |sql| {
            let Some((account, _)) = stored_accounts::account_for_login(sql, &username)? else { return Ok(None) };
            let Some(email) = stored::email(sql, &account.id)? else { return Ok(None) };
            stored::add_reset(sql, &id, &account.id, now, now + RESET_MINUTES * 60_000)?;
            Ok(Some((account.username, email)))
        })
        .await?;
    if let Some((username, email)) = to_mail {
        let link = mailer.link(&format!("/account?reset={token}"));
        let text = format!(
            "Someone (we hope you) asked to set a new password for the Menagerie account {username}.\n\n\
             Open this link within {RESET_MINUTES} minutes to choose one (it works once):\n\n{link}\n\n\
             If it was not you, do nothing: your password stays as it is.\n"
        );
        tokio::spawn(async move {
            if let Err(error) = mailer.send(&email, "Your Menagerie password", text).await {
                tracing::warn!(target: "menagerie::notify", %error, "a password reset mail was not sent");
            }
        });
    }
    Ok((StatusCode::ACCEPTED, Json(json!({ "sent": "if the account has an e-mail address" }))).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FinishResetBody {
    token: String,
    password: String,
}

/// `POST /api/password-reset/finish {"token", "password"}`: sets the new
/// password; every session of the account ends (whoever knew the old one
/// is logged out).
pub async fn finish_reset(State(hub): Shared, Body(body): Body<FinishResetBody>) -> Result<StatusCode, ApiError> {
    accounts::checked_password(&body.password)?;
    let password = body.password;
    let hash = tokio::task::spawn_blocking(move || accounts::hash_password(&password))
        .await
        .map_err(|_| ApiError::internal("the password could not be set"))??;
    let id = accounts::session_id(&body.token);
    let now = crate::clock::now_ms();
    let reset = hub
        .store()
        .transact(move |sql| {
            let Some(account) = stored::use_reset(sql, &id, now)? else { return Ok(false) };
            stored::set_password(sql, &account, &hash)?;
            stored_accounts::end_sessions(sql, &account)?;
            Ok(true)
        })
        .await?;
    if !reset {
        return Err(ApiError::bad_request("this link is not valid any more: ask for a new one"));
    }
    Ok(StatusCode::NO_CONTENT)
}
