//! Challenges at lichess's paths (docs/api.md, "Challenges";
//! [`crate::challenges`] has the rules): made, accepted, declined and
//! canceled by a page's session or an API token, stored so that every node
//! sees them; a challenge is told to its account (the bell, the event
//! stream), and accepting it starts the game between the two accounts.

use super::asker::{is_bot, tell_accounts, Asker};
use super::client::ClientAddress;
use super::ratings::shown_rating_of;
use crate::bots::Scope;
use crate::challenges::{self, ColourChoice, Status, Terms};
use crate::clock::{now_ms, TimeControl};
use crate::command::Command;
use crate::error::ApiError;
use crate::hub::{Answer, Hub};
use crate::limits::{self, Charge};
use crate::notify::{Kind, Notice};
use crate::store::accounts::{self as stored_accounts, username_key, Account};
use crate::store::challenges::{self as stored, StoredChallenge};
use crate::store::ratings::{mark_rated, perf_of};
use crate::store::relations;
use crate::store::Mode;
use axum::extract::{FromRequest, Path, Request, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::Json;
use menagerie_core::{shown, Player};
use serde_json::{json, Map, Value};
use std::sync::Arc;

type Shared = State<Arc<Hub>>;

/// What may answer or make a challenge (lichess's: a challenge token, or a
/// bot's or board's).
const PLAYS: [Scope; 3] = [Scope::ChallengeWrite, Scope::BotPlay, Scope::BoardPlay];

/// A request's fields, as lichess's clients send them: a JSON object, a
/// form (`application/x-www-form-urlencoded`), or nothing.
pub struct Fields(pub Map<String, Value>);

impl<S: Send + Sync> FromRequest<S> for Fields {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Fields, ApiError> {
        let json = super::body::declares_json(request.headers());
        let form = request
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.trim().starts_with("application/x-www-form-urlencoded"));
        let bytes = axum::body::Bytes::from_request(request, state)
            .await
            .map_err(|_| ApiError::bad_request("the request's body could not be read"))?;
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Ok(Fields(Map::new()));
        }
        if json {
            return match serde_json::from_slice::<Value>(&bytes) {
                Ok(Value::Object(fields)) => Ok(Fields(fields)),
                _ => Err(ApiError::bad_request("expected a JSON object")),
            };
        }
        if form {
            let pairs: Vec<(String, String)> =
                serde_urlencoded_pairs(&bytes).ok_or_else(|| ApiError::bad_request("malformed form"))?;
            return Ok(Fields(pairs.into_iter().map(|(k, v)| (k, Value::String(v))).collect()));
        }
        Err(ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "expected a form (application/x-www-form-urlencoded) or JSON body",
        ))
    }
}

/// A form's name-value pairs (`a=1&b=x+y`), decoded.
pub(super) fn serde_urlencoded_pairs(bytes: &[u8]) -> Option<Vec<(String, String)>> {
    let text = std::str::from_utf8(bytes).ok()?;
    text.split('&')
        .filter(|pair| !pair.is_empty())
        .map(|pair| {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            Some((form_decoded(name)?, form_decoded(value)?))
        })
        .collect()
}

fn form_decoded(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' => {
                let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
                out.push(u8::from_str_radix(hex, 16).ok()?);
                i += 2;
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8(out).ok()
}

/// A user as a challenge shows it (lichess's): id, name, title, rating.
async fn user_json(hub: &Hub, account: &Account, variant: &str) -> Result<Value, ApiError> {
    let rating = shown_rating_of(hub, &account.id, variant).await?;
    let mut user = json!({
        "id": username_key(&account.username),
        "name": account.username,
        "rating": rating.rating,
        "provisional": rating.provisional,
        "online": true,
    });
    if is_bot(hub, &account.id).await? {
        user["title"] = json!("BOT");
    }
    Ok(user)
}

/// lichess's `variant` object for a variant string: `key` is the variant
/// string itself, `name` its variant's name.
pub fn variant_json(hub: &Hub, variant: &str) -> Value {
    let id = variant.split(':').next().unwrap_or(variant);
    let name = hub.source().variants().iter().find(|v| v.id == id).map_or(id, |v| v.name);
    json!({ "key": variant, "name": name, "short": name })
}

/// A challenge as lichess shows it, from `viewer`'s side (`direction`).
pub async fn challenge_json(hub: &Hub, challenge: &StoredChallenge, viewer: &str) -> Result<Value, ApiError> {
    let (challenger_id, dest_id) = (challenge.challenger.clone(), challenge.dest.clone());
    let (challenger, dest) = hub
        .store()
        .read(move |sql| {
            Ok((stored_accounts::account_by_id(sql, &challenger_id)?, stored_accounts::account_by_id(sql, &dest_id)?))
        })
        .await?;
    let (Some(challenger), Some(dest)) = (challenger, dest) else {
        return Err(ApiError::not_found("no such challenge"));
    };
    let clock = challenge.clock.as_deref().and_then(TimeControl::parse);
    let status = if challenge.status == Status::Created.as_str() && challenge.expires <= now_ms() {
        "offline"
    } else {
        challenge.status.as_str()
    };
    let mut shown = json!({
        "id": challenge.id,
        "url": format!("/@/{}", dest.username),
        "status": status,
        "challenger": user_json(hub, &challenger, &challenge.variant).await?,
        "destUser": user_json(hub, &dest, &challenge.variant).await?,
        "variant": variant_json(hub, &challenge.variant),
        "rated": challenge.rated,
        "speed": challenges::speed(clock),
        "timeControl": challenges::time_control_json(clock),
        "color": challenge.colour,
        "perf": { "name": variant_json(hub, &challenge.variant)["name"] },
        "direction": if viewer == challenge.challenger { "out" } else { "in" },
        "expiresAt": challenge.expires,
        "createdAt": challenge.created,
    });
    if challenge.colour != ColourChoice::Random.as_str() {
        shown["finalColor"] = json!(challenge.colour);
    }
    if let Some(reason) = &challenge.reason {
        shown["declineReason"] = json!(challenges::decline_words(reason));
        shown["declineReasonKey"] = json!(reason);
    }
    if let Some(game) = &challenge.game {
        shown["gameId"] = json!(game);
    }
    Ok(shown)
}

/// lichess's refusal of a rated game between a bot and a person, unless
/// the operator allows it.
async fn check_bot_rule(hub: &Hub, rated: bool, one: &str, other: &str) -> Result<(), ApiError> {
    if !rated || hub.bots_rated_vs_people() {
        return Ok(());
    }
    if is_bot(hub, one).await? != is_bot(hub, other).await? {
        return Err(ApiError::bad_request(
            "bots play rated games against people only where the operator allows it: challenge casual (rated=false)",
        ));
    }
    Ok(())
}

async fn account_named(hub: &Hub, username: &str) -> Result<Account, ApiError> {
    let name = username.to_owned();
    let account = hub.store().read(move |sql| stored_accounts::account_by_name(sql, &name)).await?;
    account.filter(|a| a.closed.is_none()).ok_or_else(|| ApiError::not_found(format!("no player {}", shown(username))))
}

/// `POST /api/challenge/{username}`: challenges a player (not one who
/// blocks the challenger), within the challenger's limits.
pub async fn create(
    State(hub): Shared,
    headers: HeaderMap,
    ClientAddress(address): ClientAddress,
    Path(username): Path<String>,
    Fields(fields): Fields,
) -> Result<Json<Value>, ApiError> {
    let asker = Asker::of(&hub, &headers).await?;
    asker.require_any(&PLAYS)?;
    let terms = Terms::from_fields(&fields)?;
    let dest = account_named(&hub, &username).await?;
    if dest.id == asker.account.id {
        return Err(ApiError::bad_request("you cannot challenge yourself"));
    }
    hub.check_setup(&terms.setup(Mode::Friend, None))?;
    check_bot_rule(&hub, terms.rated, &asker.account.id, &dest.id).await?;
    let (blocker, blocked) = (dest.id.clone(), asker.account.id.clone());
    if hub.store().read(move |sql| relations::blocks(sql, &blocker, &blocked)).await? {
        // lichess's words: whether the player blocks you or takes no
        // challenges, no more.
        return Err(ApiError::bad_request(format!("You cannot challenge {}.", dest.username)));
    }
    let account = asker.account.id.clone();
    limits::count_some(
        hub.store(),
        [
            Some(Charge::new(&limits::CHALLENGES_PER_ACCOUNT, account.clone())),
            Some(Charge::new(&limits::CHALLENGES_PER_ACCOUNT_DAY, account)),
            Charge::address(&limits::CHALLENGES_PER_ADDRESS, address),
        ],
    )
    .await?;
    let now = now_ms();
    let challenge = StoredChallenge {
        id: crate::secret::game_id(),
        challenger: asker.account.id.clone(),
        dest: dest.id.clone(),
        variant: terms.variant.clone(),
        rated: terms.rated,
        clock: terms.clock.map(TimeControl::text),
        colour: terms.colour.as_str().to_owned(),
        status: Status::Created.as_str().to_owned(),
        reason: None,
        game: None,
        created: now,
        expires: now + challenges::EXPIRES_AFTER_MS,
    };
    let stored_challenge = challenge.clone();
    hub.store().transact(move |sql| stored::add(sql, &stored_challenge)).await?;
    let shown = challenge_json(&hub, &challenge, &asker.account.id).await?;
    let kind = if terms.rated { "rated" } else { "casual" };
    let notice = Notice {
        kind: Kind::Challenge,
        topic: format!("challenge/{}", challenge.id),
        game: None,
        text: format!(
            "{} challenges you to a {kind} game of {} ({})",
            asker.account.username,
            shown["variant"]["name"].as_str().unwrap_or_default(),
            challenges::time_words(terms.clock),
        ),
        link: format!("/@/{}?challenge={}", asker.account.username, challenge.id),
        from: Some(asker.account.id.clone()),
    };
    hub.notifier().tell(hub.store(), &dest.id, notice).await;
    tell_accounts(&hub, &[&asker.account.id, &dest.id]).await;
    Ok(Json(shown))
}

/// The challenge `id` if `asker` is in it (404 otherwise, as for none).
async fn challenge_of(hub: &Hub, id: &str, asker: &Asker) -> Result<StoredChallenge, ApiError> {
    let key = id.to_owned();
    let challenge = hub.store().read(move |sql| stored::challenge_by_id(sql, &key)).await?;
    challenge
        .filter(|c| c.challenger == asker.account.id || c.dest == asker.account.id)
        .ok_or_else(|| ApiError::not_found("no such challenge"))
}

/// Answers the open challenge `challenge` with `status`; 400 if it is no
/// longer open (answered, canceled or expired, through any node).
async fn answer(hub: &Hub, challenge: &StoredChallenge, status: Status, reason: Option<&str>) -> Result<(), ApiError> {
    let (id, reason) = (challenge.id.clone(), reason.map(str::to_owned));
    let answered =
        hub.store().transact(move |sql| stored::answer(sql, &id, status.as_str(), reason.as_deref(), now_ms())).await?;
    if !answered {
        return Err(ApiError::bad_request("this challenge is no longer open"));
    }
    Ok(())
}

/// `POST /api/challenge/{id}/accept`: the challenged player accepts; the
/// game starts between the two accounts.
pub async fn accept(State(hub): Shared, headers: HeaderMap, Path(id): Path<String>) -> Result<Json<Value>, ApiError> {
    let asker = Asker::of(&hub, &headers).await?;
    asker.require_any(&PLAYS)?;
    let challenge = challenge_of(&hub, &id, &asker).await?;
    if challenge.dest != asker.account.id {
        return Err(ApiError::not_found("no such challenge"));
    }
    check_bot_rule(&hub, challenge.rated, &challenge.challenger, &challenge.dest).await?;
    answer(&hub, &challenge, Status::Accepted, None).await?;
    // To its end even if the accepter goes away: the challenger waits for it.
    let started = tokio::spawn(start_game(Arc::clone(&hub), challenge.clone()))
        .await
        .unwrap_or_else(|_| Err(ApiError::internal("the game could not start")));
    let game = match started {
        Ok(game) => game,
        Err(error) => {
            let id = challenge.id.clone();
            hub.store().transact(move |sql| stored::reopen(sql, &id)).await?;
            return Err(error);
        }
    };
    tell_accounts(&hub, &[&challenge.challenger, &challenge.dest]).await;
    Ok(Json(json!({ "ok": true, "id": game })))
}

/// Starts an accepted challenge's game: the challenger its creator, each
/// seat held by its account, rated if asked. Answers the game's id.
async fn start_game(hub: Arc<Hub>, challenge: StoredChallenge) -> Result<String, ApiError> {
    let terms = Terms {
        variant: challenge.variant.clone(),
        rated: challenge.rated,
        clock: challenge.clock.as_deref().and_then(TimeControl::parse),
        colour: ColourChoice::parse(&challenge.colour)?,
    };
    let between = hub.create_between(&terms.setup(Mode::Friend, None)).await?;
    let (game, creator) = (between.id.clone(), between.creator);
    super::seats::hold(&hub, &game, vec![creator], None, Some(challenge.challenger.clone())).await?;
    super::seats::hold(&hub, &game, vec![creator.other()], None, Some(challenge.dest.clone())).await?;
    let (key, id, perf, rated) =
        (challenge.id.clone(), game.clone(), perf_of(&challenge.variant).to_owned(), challenge.rated);
    hub.store()
        .transact(move |sql| {
            if rated {
                mark_rated(sql, &id, &perf)?;
            }
            stored::set_game(sql, &key, &id)
        })
        .await?;
    Ok(game)
}

/// `POST /api/challenge/{id}/decline` (optional `reason`, lichess's keys).
pub async fn decline(
    State(hub): Shared,
    headers: HeaderMap,
    Path(id): Path<String>,
    Fields(fields): Fields,
) -> Result<Json<Value>, ApiError> {
    let asker = Asker::of(&hub, &headers).await?;
    asker.require_any(&PLAYS)?;
    let challenge = challenge_of(&hub, &id, &asker).await?;
    if challenge.dest != asker.account.id {
        return Err(ApiError::not_found("no such challenge"));
    }
    let reason = challenges::decline_reason(challenges::text_field(&fields, "reason")?.as_deref());
    answer(&hub, &challenge, Status::Declined, Some(reason)).await?;
    tell_accounts(&hub, &[&challenge.challenger, &challenge.dest]).await;
    Ok(Json(json!({ "ok": true })))
}

/// `POST /api/challenge/{id}/cancel`: the challenger takes it back.
pub async fn cancel(State(hub): Shared, headers: HeaderMap, Path(id): Path<String>) -> Result<Json<Value>, ApiError> {
    let asker = Asker::of(&hub, &headers).await?;
    asker.require_any(&PLAYS)?;
    let challenge = challenge_of(&hub, &id, &asker).await?;
    if challenge.challenger != asker.account.id {
        return Err(ApiError::not_found("no such challenge"));
    }
    answer(&hub, &challenge, Status::Canceled, None).await?;
    tell_accounts(&hub, &[&challenge.challenger, &challenge.dest]).await;
    Ok(Json(json!({ "ok": true })))
}

/// `GET /api/challenge/{id}/show`: one of the asker's challenges, whatever
/// its status (`gameId` once accepted): what a page waiting for an answer
/// asks.
pub async fn show(State(hub): Shared, headers: HeaderMap, Path(id): Path<String>) -> Result<Json<Value>, ApiError> {
    let asker = Asker::of(&hub, &headers).await?;
    asker.require_any(&[Scope::ChallengeRead, Scope::ChallengeWrite, Scope::BotPlay, Scope::BoardPlay])?;
    let challenge = challenge_of(&hub, &id, &asker).await?;
    Ok(Json(challenge_json(&hub, &challenge, &asker.account.id).await?))
}

/// `GET /api/challenge`: the asker's open challenges, `{in, out}`.
pub async fn list(State(hub): Shared, headers: HeaderMap) -> Result<Json<Value>, ApiError> {
    let asker = Asker::of(&hub, &headers).await?;
    asker.require_any(&[Scope::ChallengeRead])?;
    let account = asker.account.id.clone();
    let open = hub.store().read(move |sql| stored::open_of(sql, &account, now_ms())).await?;
    let (mut incoming, mut outgoing) = (Vec::new(), Vec::new());
    for challenge in &open {
        let shown = challenge_json(&hub, challenge, &asker.account.id).await?;
        if challenge.challenger == asker.account.id {
            outgoing.push(shown);
        } else {
            incoming.push(shown);
        }
    }
    Ok(Json(json!({ "in": incoming, "out": outgoing })))
}

/// `POST /api/challenge/ai`: a game against the computer at `level` (a
/// level id, or lichess's 1 to 8), started at once; never rated.
pub async fn computer(
    State(hub): Shared,
    headers: HeaderMap,
    Fields(fields): Fields,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let asker = Asker::of(&hub, &headers).await?;
    asker.require_any(&PLAYS)?;
    let mut terms = Terms::from_fields(&fields)?;
    terms.rated = false;
    let levels: Vec<String> = hub.opponents().levels().into_iter().map(|l| l.id).collect();
    let level = challenges::computer_level(challenges::text_field(&fields, "level")?.as_deref(), &levels)?;
    let setup = terms.setup(Mode::Computer, level);
    let command = Command::Create(setup);
    let runner = Arc::clone(&hub);
    let answer = tokio::spawn(async move { runner.run(command).await })
        .await
        .unwrap_or_else(|_| Err(ApiError::internal("the game could not start").into()))?;
    let Answer::Started(started) = answer else { return Err(ApiError::internal("the game could not start")) };
    let game = started["id"].as_str().unwrap_or_default().to_owned();
    let seats = super::seats::creator_seats(&started);
    let you = seats.first().copied().unwrap_or(Player::First);
    super::seats::hold(&hub, &game, seats, None, Some(asker.account.id.clone())).await?;
    tell_accounts(&hub, &[&asker.account.id]).await;
    let body = json!({
        "id": game,
        "fullId": game,
        "variant": variant_json(&hub, &terms.variant),
        "speed": challenges::speed(terms.clock),
        "rated": false,
        "source": "ai",
        "status": { "id": 20, "name": "started" },
        "player": challenges::colour_name(you),
        "createdAt": now_ms(),
    });
    Ok((StatusCode::CREATED, Json(body)))
}
