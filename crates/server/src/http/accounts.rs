//! The account routes (docs/api.md, "Accounts"): sign-up, login, logout,
//! the logged-in account, its games in progress, closing it and
//! downloading what is stored about it. Also the session of a request
//! ([`SignedIn`]) and the seat an account holds ([`seat_for`]), which the
//! game and lobby routes use.

use super::asker::{account_json, signed_in, SignedIn};
use super::body::Body;
use super::client::ClientAddress;
use super::lobby::KnownPlayer;
use crate::accounts::{self, Accounts};
use crate::error::ApiError;
use crate::hub::Hub;
use crate::limits::{self, Charge};
use crate::store::accounts::{self as stored, Account};
use crate::store::player_str;
use crate::store::relations;
use axum::extract::{Extension, Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use menagerie_core::Player;
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::Arc;

type Shared = State<Arc<Hub>>;
type TheAccounts = Extension<Arc<Accounts>>;

/// The one answer to a login that does not open a session, whether the
/// name is unknown or the password wrong.
pub(super) const BAD_CREDENTIALS: &str = "wrong username or password";

/// `GET /api/games/{id}/players`: the username of the account holding each
/// seat (`null`: nobody's, or anonymous; a closed account's: a neutral name).
/// Also whether the game is `rated`, and under `seats` each seat's
/// username, rating and, once rated, rating change (docs/api.md), and
/// `titles`: lichess's title of each seat that has one (`BOT`).
pub async fn players(State(hub): Shared, Path(id): Path<String>) -> Result<Json<Value>, ApiError> {
    hub.slot(&id).await?;
    let shown = super::ratings::seats_json(&hub, &id).await?;
    let mut players = serde_json::Map::new();
    let mut titles = serde_json::Map::new();
    for player in Player::BOTH {
        let seat = &shown["players"][player_str(player)];
        players.insert(player_str(player).into(), seat["username"].clone());
        if let Some(account) = hub.seat_account(&id, player).await?.filter(|a| a.closed.is_none()) {
            if super::asker::is_bot(&hub, &account.id).await? {
                titles.insert(player_str(player).into(), json!("BOT"));
            }
        }
    }
    players.insert("rated".into(), shown["rated"].clone());
    players.insert("seats".into(), shown["players"].clone());
    players.insert("titles".into(), Value::Object(titles));
    if let Some((tournament, name)) = tournament_of_game(&hub, &id).await? {
        players.insert("tournament".into(), json!({ "id": tournament, "name": name }));
    }
    Ok(Json(Value::Object(players)))
}

/// The tournament game `game` belongs to, if any: its id and name.
pub(super) async fn tournament_of_game(hub: &Hub, game: &str) -> Result<Option<(String, String)>, ApiError> {
    use crate::store::tournaments;
    let game = game.to_owned();
    Ok(hub
        .store()
        .read(move |sql| {
            let Some(paired) = tournaments::game(sql, &game)? else { return Ok(None) };
            Ok(tournaments::get(sql, &paired.tournament)?.map(|t| (t.id, t.name)))
        })
        .await?)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Credentials {
    username: String,
    password: String,
}

pub(super) fn with_cookie(status: StatusCode, cookie: axum::http::HeaderValue, body: Value) -> Response {
    let mut response = (status, Json(body)).into_response();
    response.headers_mut().append(header::SET_COOKIE, cookie);
    response
}

/// Opens a session for `account` in the browser of `headers`, which the
/// account trusts from now on (its device cookie: a new one if it has
/// none); answers the response with both cookies.
pub(super) async fn logged_in(
    hub: &Hub,
    accounts: &Accounts,
    headers: &HeaderMap,
    account: &str,
    status: StatusCode,
    body: Value,
) -> Result<Response, ApiError> {
    let (session_token, session) = accounts::new_session();
    let (device_token, device) = match accounts::presented_device(headers) {
        Some(token) => (None, accounts::device_id(&token)),
        None => {
            let (token, id) = accounts::new_device();
            (Some(token), id)
        }
    };
    let (account, now) = (account.to_owned(), crate::clock::now_ms());
    hub.store()
        .transact(move |sql| {
            stored::create_session(sql, &session, &account, now)?;
            relations::trust_device(sql, &device, &account, now)
        })
        .await?;
    let mut response = with_cookie(status, accounts.session_cookie(&session_token), body);
    if let Some(token) = device_token {
        response.headers_mut().append(header::SET_COOKIE, accounts.device_cookie(&token));
    }
    Ok(response)
}

/// Hashing takes tens of milliseconds of CPU: off the async threads.
async fn blocking<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(work).await.map_err(|_| ApiError::internal("the password check failed"))
}

/// `POST /api/register {"username", "password"}`: a new account, logged
/// in; the games this browser played anonymously become the account's.
pub async fn register(
    State(hub): Shared,
    Extension(accounts): TheAccounts,
    ClientAddress(address): ClientAddress,
    KnownPlayer(known): KnownPlayer,
    headers: HeaderMap,
    Body(body): Body<Credentials>,
) -> Result<Response, ApiError> {
    let username = accounts::checked_username(&body.username)?;
    accounts::checked_password(&body.password)?;
    // Each sign-up is an Argon2 hash: counted per address before it.
    limits::count_some(
        hub.store(),
        [
            Charge::address(&limits::SIGNUPS_PER_ADDRESS, address),
            Charge::address(&limits::SIGNUPS_PER_ADDRESS_DAY, address),
        ],
    )
    .await?;
    let password = body.password;
    let hash = blocking(move || accounts::hash_password(&password)).await??;
    let account = Account {
        id: crate::secret::game_id(),
        username: username.clone(),
        created: crate::clock::now_ms(),
        closed: None,
    };
    let player = known.map(|me| me.id.key());
    let created = account.clone();
    let added = hub
        .store()
        .transact(move |sql| {
            if !stored::create_account(sql, &created, &hash)? {
                return Ok(false);
            }
            if let Some(player) = &player {
                stored::claim_seats(sql, player, &created.id)?;
            }
            Ok(true)
        })
        .await?;
    if !added {
        return Err(ApiError::conflict(format!("the name {username} is taken")));
    }
    logged_in(&hub, &accounts, &headers, &account.id, StatusCode::CREATED, json!({ "username": account.username }))
        .await
}

/// Whom a login's failure is counted against (OWASP's device cookie): a
/// browser the account trusts counts its own failures; any other counts
/// against the name, with every stranger's, and against its address.
async fn login_charges(
    hub: &Hub,
    headers: &HeaderMap,
    address: Option<std::net::IpAddr>,
    username: &str,
    account: Option<&Account>,
) -> Result<(Option<Charge>, Charge), ApiError> {
    if let (Some(token), Some(account)) = (accounts::presented_device(headers), account) {
        let (device, id) = (accounts::device_id(&token), account.id.clone());
        let trusted = hub.store().read(move |sql| relations::device_trusted(sql, &device, &id)).await?;
        if trusted {
            let actor = format!("{}:{}", accounts::device_id(&token), account.id);
            return Ok((None, Charge::new(&limits::LOGIN_FAILURES_PER_DEVICE, actor)));
        }
    }
    let name = Charge::new(&limits::LOGIN_FAILURES_PER_NAME, stored::username_key(username));
    Ok((Charge::address(&limits::LOGINS_PER_ADDRESS, address), name))
}

/// `POST /api/login {"username", "password"}`: opens a session. A browser
/// the account trusts (it logged in to it before) is never locked out by
/// strangers' failures: its own count against it alone.
pub async fn login(
    State(hub): Shared,
    Extension(accounts): TheAccounts,
    ClientAddress(address): ClientAddress,
    KnownPlayer(known): KnownPlayer,
    headers: HeaderMap,
    Body(body): Body<Credentials>,
) -> Result<Response, ApiError> {
    let username = body.username.clone();
    let found = hub.store().read(move |sql| stored::account_for_login(sql, &username)).await?;
    let (account, hash) = match found {
        Some((account, hash)) => (Some(account), Some(hash)),
        None => (None, None),
    };
    let (by_address, failures) = login_charges(&hub, &headers, address, &body.username, account.as_ref()).await?;
    // Every attempt counts against the address, admitted for the name or not.
    limits::count_some(hub.store(), [by_address]).await?;
    // The attempt counts as a failure at once (until it succeeds):
    // attempts in flight together cannot pass the limit before the first
    // of them is judged.
    let counted = limits::count(hub.store(), vec![failures]).await?;
    let password = body.password;
    let matches = blocking(move || accounts::password_matches(&password, hash.as_deref())).await?;
    let Some(account) = account.filter(|_| matches) else {
        return Err(ApiError::new(StatusCode::UNAUTHORIZED, BAD_CREDENTIALS));
    };
    limits::uncount(hub.store(), counted).await?;
    // The games this browser played anonymously become the account's too.
    if let Some(player) = known.map(|me| me.id.key()) {
        let id = account.id.clone();
        hub.store().transact(move |sql| stored::claim_seats(sql, &player, &id)).await?;
    }
    logged_in(&hub, &accounts, &headers, &account.id, StatusCode::OK, json!({ "username": account.username })).await
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct LogoutBody {
    /// End every session of the account, not only this one.
    #[serde(default)]
    everywhere: bool,
}

/// `POST /api/logout {"everywhere"?}`: ends this session, or all of the account's.
pub async fn logout(
    State(hub): Shared,
    Extension(accounts): TheAccounts,
    headers: HeaderMap,
    Body(body): Body<LogoutBody>,
) -> Result<Response, ApiError> {
    if let Some(token) = accounts::presented_session(&headers) {
        let session = accounts::session_id(&token);
        let account = signed_in(&hub, &headers).await?;
        hub.store()
            .transact(move |sql| match (&account, body.everywhere) {
                (Some(account), true) => stored::end_sessions(sql, &account.id).map(drop),
                _ => stored::end_session(sql, &session),
            })
            .await?;
    }
    let mut response = StatusCode::NO_CONTENT.into_response();
    response.headers_mut().append(header::SET_COOKIE, accounts.ended_cookie());
    Ok(response)
}

fn unauthorized() -> ApiError {
    ApiError::new(StatusCode::UNAUTHORIZED, "not logged in")
}

/// `GET /api/account`: the logged-in account, or the one an API token
/// (`Authorization: Bearer`, any scope) authenticates, with its ratings; a
/// bot's has `"title": "BOT"`.
pub async fn account(State(hub): Shared, headers: HeaderMap) -> Result<Json<Value>, ApiError> {
    let account = match super::asker::token_holder(&hub, &headers).await? {
        Some(holder) => holder.account,
        None => signed_in(&hub, &headers).await?.ok_or_else(unauthorized)?,
    };
    Ok(Json(account_with_perfs(&hub, &account).await?))
}

/// `GET /api/session`: the account this browser's session cookie is
/// logged in to, as `GET /api/account` shows it, or `null`: 200 either
/// way, so that a logged-out page asks without an error (API clients keep
/// `GET /api/account`'s 401).
pub async fn session(State(hub): Shared, headers: HeaderMap) -> Result<Json<Value>, ApiError> {
    match signed_in(&hub, &headers).await? {
        Some(account) => Ok(Json(account_with_perfs(&hub, &account).await?)),
        None => Ok(Json(Value::Null)),
    }
}

async fn account_with_perfs(hub: &Hub, account: &Account) -> Result<Value, ApiError> {
    let mut body = super::asker::titled_account_json(hub, account).await?;
    let id = account.id.clone();
    body["perfs"] = hub.store().read(move |sql| super::ratings::perfs_json(sql, &id, crate::clock::now_ms())).await?;
    Ok(body)
}

/// `GET /api/account/playing`: the account's games in progress (lichess's
/// `nowPlaying`).
pub async fn playing(State(hub): Shared, SignedIn(account): SignedIn) -> Result<Json<Value>, ApiError> {
    let account = account.ok_or_else(unauthorized)?;
    let seats = hub.store().read(move |sql| stored::held_seats(sql, &account.id, true)).await?;
    let mut now_playing = Vec::new();
    for held in seats {
        let player = Player::BOTH[held.seat];
        let mut entry = json!({
            "gameId": held.game,
            "fullId": held.game,
            "color": player_str(player),
            "variant": held.variant,
        });
        // Whose turn it is, from the game itself (it may have just ended).
        if let Ok(state) = hub.state(&held.game, None).await {
            let state = state.to_value();
            if !state["result"].is_null() {
                continue;
            }
            entry["isMyTurn"] = json!(state["to_act"].as_str() == Some(player_str(player)));
        }
        now_playing.push(entry);
    }
    Ok(Json(json!({ "nowPlaying": now_playing })))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CloseBody {
    password: String,
}

/// `POST /api/account/close {"password"}`: closes the account. Its games
/// stay (under a neutral name); its sessions end; its name is never given
/// to anyone else.
pub async fn close(
    State(hub): Shared,
    Extension(accounts): TheAccounts,
    SignedIn(account): SignedIn,
    Body(body): Body<CloseBody>,
) -> Result<Response, ApiError> {
    let account = account.ok_or_else(unauthorized)?;
    let username = account.username.clone();
    let found = hub.store().read(move |sql| stored::account_for_login(sql, &username)).await?;
    let hash = found.map(|(_, hash)| hash);
    let password = body.password;
    if !blocking(move || accounts::password_matches(&password, hash.as_deref())).await? {
        return Err(ApiError::new(StatusCode::UNAUTHORIZED, BAD_CREDENTIALS));
    }
    hub.store()
        .transact(move |sql| crate::store::closing::close_account(sql, &account.id, crate::clock::now_ms()))
        .await?;
    let mut response = StatusCode::NO_CONTENT.into_response();
    response.headers_mut().append(header::SET_COOKIE, accounts.ended_cookie());
    Ok(response)
}

/// `GET /api/account/export`: everything stored about the account (never
/// its password hash or session tokens, which are not its data but keys).
pub async fn export(State(hub): Shared, SignedIn(account): SignedIn) -> Result<Response, ApiError> {
    let account = account.ok_or_else(unauthorized)?;
    let id = account.id.clone();
    let (sessions, seats, passkeys, puzzle_rounds, lessons) = hub
        .store()
        .read(move |sql| {
            Ok((
                stored::sessions(sql, &id)?,
                stored::held_seats(sql, &id, false)?,
                stored::passkeys(sql, &id)?,
                crate::store::puzzles::rounds(sql, &id)?,
                crate::store::lessons::progress(sql, &id)?,
            ))
        })
        .await?;
    let body = json!({
        "account": account_json(&account),
        "passkeys": passkeys.iter().map(|k| json!({ "createdAt": k.created })).collect::<Vec<_>>(),
        "sessions": sessions.iter().map(|(created, seen)| json!({ "createdAt": created, "seenAt": seen })).collect::<Vec<_>>(),
        "games": seats.iter().map(|s| json!({
            "gameId": s.game,
            "color": player_str(Player::BOTH[s.seat]),
            "variant": s.variant,
            "createdAt": s.created * 1000,
            "finished": s.finished,
            "record": format!("/api/games/{}/record", s.game),
        })).collect::<Vec<_>>(),
        "puzzles": puzzle_rounds.iter().map(|(puzzle, win, diff, at)| json!({
            "id": puzzle, "win": win, "ratingDiff": diff, "playedAt": at,
        })).collect::<Vec<_>>(),
        "lessons": lessons.iter().map(|(lesson, steps)| json!({ "id": lesson, "stepsDone": steps })).collect::<Vec<_>>(),
    });
    let disposition = format!("attachment; filename=\"menagerie-{}.json\"", stored::username_key(&account.username));
    Ok(([(header::CONTENT_DISPOSITION, disposition)], Json(body)).into_response())
}
