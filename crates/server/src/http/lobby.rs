//! The lobby's routes (docs/api.md, "Lobby"): who the browser is
//! (`/api/me`), the seeks (`/api/seeks`), and the lobby socket
//! (`/api/lobby/ws`) that pushes the seeks and the games being played.

use super::admission::SocketPass;
use super::asker::SignedIn;
use super::body::Body;
use super::client::{client_address, ClientAddress};
use super::keepalive::LiveSocket;
use super::ratings;
use crate::error::ApiError;
use crate::hub::Hub;
use crate::lobby::identity::{checked_name, Identity};
use crate::lobby::{ListedSeat, Lobby, Membership, RatingRange, Seek, SeekBody, ShownRating};
use crate::secret;
use crate::store::ratings::{self as stored_ratings, perf_of};
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{Extension, FromRequestParts, Path, State};
use axum::http::request::Parts;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::HashSet;
use std::sync::Arc;

type Shared = State<Arc<Hub>>;
type TheLobby = Extension<Arc<Lobby>>;

/// The largest frame or message a client may send on the lobby socket (it
/// only listens: a pong, a close).
const MAX_INCOMING: usize = 4096;

/// The request's player if its identity cookie names one: no new player,
/// no cookie set (a read, a cancel, a socket).
pub struct KnownPlayer(pub Option<Identity>);

impl<S: Send + Sync> FromRequestParts<S> for KnownPlayer {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<KnownPlayer, Self::Rejection> {
        Ok(KnownPlayer(Identity::existing(&parts.headers)))
    }
}

/// The request's player (its identity cookie), or a new one (whose cookie
/// the answer sets) within the lobby's limit of new players per client
/// address.
pub struct Player(pub Identity);

impl<S: Send + Sync> FromRequestParts<S> for Player {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Player, ApiError> {
        if let Some(me) = Identity::existing(&parts.headers) {
            return Ok(Player(me));
        }
        if let Some(lobby) = parts.extensions.get::<Arc<Lobby>>() {
            lobby.admit_new_player(client_address(&parts.extensions))?;
        }
        Ok(Player(Identity::new_player()))
    }
}

/// An answer with the cookies that go with it.
fn answer(status: StatusCode, cookies: Vec<HeaderValue>, body: Value) -> Response {
    let mut response = (status, Json(body)).into_response();
    for cookie in cookies {
        response.headers_mut().append(header::SET_COOKIE, cookie);
    }
    response
}

fn me_json(me: &Identity) -> Value {
    json!({ "name": me.name })
}

/// `GET /api/me`: the browser's display name (a new browser gets its identity cookie).
pub async fn me(SignedIn(account): SignedIn, Player(me): Player) -> Response {
    let mut body = me_json(&me);
    body["username"] = json!(account.map(|a| a.username));
    answer(StatusCode::OK, me.cookies(), body)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NameBody {
    name: String,
}

/// `POST /api/me {"name": ...}`: sets the display name.
pub async fn rename(
    Extension(lobby): TheLobby,
    Player(me): Player,
    Body(body): Body<NameBody>,
) -> Result<Response, ApiError> {
    let me = Identity { name: checked_name(&body.name)?, ..me };
    lobby.rename(&me.id, &me.name).await?;
    Ok(answer(StatusCode::OK, me.cookies_with_name(), me_json(&me)))
}

/// `GET /api/seeks`: the open seeks (`yours` marks the asker's).
pub async fn seeks(
    Extension(lobby): TheLobby,
    SignedIn(account): SignedIn,
    KnownPlayer(me): KnownPlayer,
) -> Result<Json<Value>, ApiError> {
    let apart = lobby.apart_from(account.as_ref().map(|a| a.id.as_str())).await?;
    Ok(Json(json!({ "seeks": lobby.seeks(me.as_ref().map(|m| &m.id), &apart).await? })))
}

/// `POST /api/seeks`: opens a seek, checked as a new friend game is.
pub async fn create(
    State(hub): Shared,
    Extension(lobby): TheLobby,
    ClientAddress(address): ClientAddress,
    SignedIn(account): SignedIn,
    Player(me): Player,
    Body(body): Body<SeekBody>,
) -> Result<Response, ApiError> {
    let rated = body.rated;
    let range = body.rating_range.as_deref().map(RatingRange::parse).transpose()?;
    let setup = body.setup()?;
    hub.check_setup(&setup)?;
    if rated && account.is_none() {
        return Err(needs_account("a rated seek"));
    }
    let rating = match &account {
        Some(account) => Some(ratings::shown_rating_of(&hub, &account.id, &setup.variant).await?),
        None => None,
    };
    let name = account.as_ref().map_or_else(|| me.name.clone(), |a| a.username.clone());
    let account = account.map(|a| a.id);
    let seek = Seek {
        id: secret::game_id(),
        creator: me.id.key(),
        name,
        account,
        address,
        body,
        setup,
        rated,
        range,
        rating,
        alive_until: 0,
    };
    let listed = lobby.add(seek).await?;
    Ok(answer(StatusCode::CREATED, me.cookies(), listed))
}

/// The refusal of a rated game to a player who is not logged in.
pub fn needs_account(what: &str) -> ApiError {
    ApiError::new(StatusCode::UNAUTHORIZED, format!("{what} needs an account: log in or sign up"))
}

/// `DELETE /api/seeks/{id}`: the creator cancels its seek.
pub async fn cancel(
    Extension(lobby): TheLobby,
    KnownPlayer(me): KnownPlayer,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    lobby.cancel(me.as_ref().map(|m| &m.id), &id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `POST /api/seeks/{id}/accept`: starts the seek's game. The accepter
/// gets its seat here; the creator gets its own on its lobby socket.
pub async fn accept(
    State(hub): Shared,
    Extension(lobby): TheLobby,
    SignedIn(account): SignedIn,
    Player(me): Player,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let wanted = lobby.seek(&id).await?;
    // Players kept apart (a block either way) are never paired: to them
    // the seek is not there.
    if let (Some(creator), Some(accepter)) = (&wanted.account, &account) {
        if super::relations::kept_apart(&hub, creator, &accepter.id).await? {
            return Err(ApiError::not_found(format!("no seek {}", menagerie_core::shown(&id))));
        }
    }
    let accepter_rating = match &account {
        Some(account) => Some(ratings::shown_rating_of(&hub, &account.id, &wanted.setup.variant).await?),
        None => None,
    };
    if wanted.rated && account.is_none() {
        return Err(needs_account("accepting a rated seek"));
    }
    if let Some(range) = wanted.range {
        // An anonymous player counts as a newcomer.
        let rating = accepter_rating.unwrap_or(ShownRating { rating: 1500, provisional: true });
        if !range.contains(rating.rating) {
            return Err(ApiError::forbidden(format!(
                "your rating {} is outside this seek's range {}",
                rating.rating,
                range.text()
            )));
        }
    }
    let seek = lobby.take(&me.id, &id).await?;
    let accepter = account.as_ref().map_or_else(|| me.name.clone(), |a| a.username.clone());
    let accepter_holds = (me.id.key(), account.map(|a| a.id));
    // To its end even if the accepter goes away: the creator waits for it.
    let started = tokio::spawn(async move {
        let between = match hub.create_between(&seek.setup).await {
            Ok(between) => between,
            Err(error) => {
                lobby.restore(seek).await;
                return Err(error);
            }
        };
        // Each seat is held by its player's browser and account.
        let (player, account) = accepter_holds;
        super::seats::hold(&hub, &between.id, vec![between.creator.other()], Some(player), account).await?;
        let creator = (Some(seek.creator.clone()), seek.account.clone());
        super::seats::hold(&hub, &between.id, vec![between.creator], creator.0, creator.1).await?;
        if seek.rated {
            let (game, perf) = (between.id.clone(), perf_of(&seek.setup.variant).to_owned());
            hub.store().transact(move |sql| stored_ratings::mark_rated(sql, &game, &perf)).await?;
        }
        let mut names = [(accepter.clone(), accepter_rating), (accepter.clone(), accepter_rating)];
        names[between.creator.index()] = (seek.name.clone(), seek.rating);
        let seats =
            [0, 1].map(|i| ListedSeat { side: between.sides[i].clone(), name: names[i].0.clone(), rating: names[i].1 });
        lobby.list_game(between.id, between.variant, seats, seek.rated).await;
        let mut for_creator = between.for_creator;
        for_creator["opponent"] = json!(accepter);
        for_creator["variant"] = json!(seek.setup.variant);
        for_creator["rated"] = json!(seek.rated);
        lobby.tell(&seek.creator, json!({ "type": "started", "seek": seek.id, "game": for_creator })).await?;
        let mut for_accepter = between.for_other;
        for_accepter["opponent"] = json!(seek.name);
        for_accepter["seek"] = json!(seek.id);
        for_accepter["variant"] = json!(seek.setup.variant);
        for_accepter["rated"] = json!(seek.rated);
        Ok(for_accepter)
    })
    .await
    .unwrap_or_else(|_| Err(ApiError::internal("the game could not start").into()))?;
    Ok(answer(StatusCode::CREATED, me.cookies(), started))
}

/// `GET /api/lobby/ws`: the lobby socket. It sends the lobby at once and
/// after every change, and a started game to the seek's creator only.
pub async fn upgrade(
    Extension(lobby): TheLobby,
    SignedIn(account): SignedIn,
    KnownPlayer(me): KnownPlayer,
    upgrade: WebSocketUpgrade,
    pass: SocketPass,
) -> Result<Response, ApiError> {
    // Who is kept apart from this player, as the socket opens (a block made
    // later shows at the next opening; accepting is checked every time).
    let apart = lobby.apart_from(account.as_ref().map(|a| a.id.as_str())).await?;
    let membership = lobby.join(me.as_ref().map(|m| &m.id))?;
    Ok(pass.upgrade(upgrade, "lobby", MAX_INCOMING, move |socket| serve(lobby, me, apart, membership, socket)))
}

async fn serve(
    lobby: Arc<Lobby>,
    me: Option<Identity>,
    apart: HashSet<String>,
    mut membership: Membership,
    mut socket: LiveSocket,
) {
    let viewer = me.as_ref().map(|m| &m.id);
    let mut outgoing = Some(lobby_message(&lobby, &mut membership, viewer, &apart));
    loop {
        if let Some(message) = outgoing.take() {
            if !socket.send_text(message.to_string()).await {
                return;
            }
        }
        outgoing = tokio::select! {
            changed = membership.changes.changed() => match changed {
                Ok(()) => Some(lobby_message(&lobby, &mut membership, viewer, &apart)),
                Err(_) => return,
            },
            Some(message) = membership.addressed.recv() => Some(message),
            incoming = socket.recv() => match incoming {
                None => return,
                Some(_) => None,
            },
        };
    }
}

fn lobby_message(
    lobby: &Lobby,
    membership: &mut Membership,
    viewer: Option<&crate::lobby::identity::PlayerId>,
    apart: &HashSet<String>,
) -> Value {
    membership.changes.borrow_and_update();
    let mut message = lobby.snapshot(viewer, apart);
    message["type"] = json!("lobby");
    message
}
