//! The tournament routes (docs/api.md, "Tournaments"), lichess's arena
//! paths where it has them: one `POST /api/tournament` creates an arena or,
//! with `"kind": "round_robin"`, a round robin (lichess's Swiss has no
//! place here: a round robin is the small event's format). Accounts only;
//! running them is [`crate::tournament`]'s.

use super::asker::token_holder;
use super::asker::{signed_in, SignedIn};
use super::body::Body;
use super::challenges::{serde_urlencoded_pairs, Fields};
use super::client::ClientAddress;
use crate::accounts::{hash_password, password_matches};
use crate::bots::Scope;
use crate::challenges::text_field;
use crate::clock::now_ms;
use crate::clock::TimeControl;
use crate::error::ApiError;
use crate::hub::Hub;
use crate::limits::{self, Charge};
use crate::store::accounts::Account;
use crate::store::tournaments::{self as stored, Kind, Status, Tournament, TournamentGame};
use crate::tournament::{self, standings::Line};
use axum::extract::{Path, RawQuery, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use menagerie_core::shown;
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

type Shared = State<Arc<Hub>>;

const MAX_NAME_LEN: usize = 60;
/// A tournament's password, at most this many bytes.
const MAX_PASSWORD_LEN: usize = 200;
const MAX_MINUTES: i64 = 24 * 60;
const MAX_ROUNDS: i64 = 50;
/// The furthest ahead a tournament may start.
const MAX_WAIT_MS: i64 = 30 * 24 * 3600 * 1000;
/// Tournaments listed per status.
const LISTED: usize = 50;
/// How often the live stream looks at the standings without being told
/// of a change (a signal wakes it at once): the clock of "playing".
const STREAM_EVERY: Duration = Duration::from_secs(5);

fn needs_account() -> ApiError {
    ApiError::new(StatusCode::UNAUTHORIZED, "tournaments need an account: log in or sign up")
}

/// The body of `POST /api/tournament`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CreateBody {
    name: Option<String>,
    /// `arena` (default) or `round_robin`.
    kind: Option<String>,
    variant: String,
    /// The clock: minutes for the game (may be a fraction) and seconds added a move.
    clock_time: f64,
    clock_increment: u64,
    /// An arena's length.
    minutes: Option<i64>,
    /// A round robin's rounds (left out: everyone meets everyone).
    rounds: Option<i64>,
    /// When it starts (ms since the epoch); or `waitMinutes` from now.
    start_date: Option<i64>,
    wait_minutes: Option<i64>,
    password: Option<String>,
    #[serde(default = "yes")]
    berserkable: bool,
}

fn yes() -> bool {
    true
}

/// `POST /api/tournament`: creates a tournament, its creator joined
/// (lichess's: they may withdraw); answers it as `GET /api/tournament/{id}`
/// does (201). Within the creator's limits.
pub async fn create(
    State(hub): Shared,
    SignedIn(account): SignedIn,
    ClientAddress(address): ClientAddress,
    Body(body): Body<CreateBody>,
) -> Result<Response, ApiError> {
    let account = account.ok_or_else(needs_account)?;
    let now = now_ms();
    let kind = match body.kind.as_deref() {
        None | Some("arena") => Kind::Arena,
        Some("round_robin") => Kind::RoundRobin,
        Some(other) => {
            return Err(ApiError::bad_request(format!("unknown kind {}: arena or round_robin", shown(other))))
        }
    };
    let name = body.name.unwrap_or_default().trim().to_owned();
    let name = if name.is_empty() { format!("{} {}", account.username, kind_name(kind)) } else { name };
    if name.chars().count() > MAX_NAME_LEN || name.chars().any(char::is_control) {
        return Err(ApiError::bad_request(format!("a name is at most {MAX_NAME_LEN} characters, on one line")));
    }
    let initial_ms = body.clock_time * 60_000.0;
    if !initial_ms.is_finite() || initial_ms < 0.0 {
        return Err(ApiError::bad_request("clockTime is the minutes of the game"));
    }
    let clock =
        TimeControl::Fischer { initial_ms: initial_ms.round() as u64, increment_ms: body.clock_increment * 1000 };
    clock.check().map_err(ApiError::bad_request)?;
    let (minutes, rounds) = match kind {
        Kind::Arena => {
            let minutes = body.minutes.ok_or_else(|| ApiError::bad_request("an arena needs its minutes"))?;
            if !(1..=MAX_MINUTES).contains(&minutes) {
                return Err(ApiError::bad_request(format!("an arena lasts 1 to {MAX_MINUTES} minutes")));
            }
            if body.rounds.is_some() {
                return Err(ApiError::bad_request("an arena has minutes, not rounds"));
            }
            (Some(minutes), None)
        }
        Kind::RoundRobin => {
            if body.minutes.is_some() {
                return Err(ApiError::bad_request("a round robin has rounds, not minutes"));
            }
            if body.rounds.is_some_and(|r| !(1..=MAX_ROUNDS).contains(&r)) {
                return Err(ApiError::bad_request(format!("a round robin has 1 to {MAX_ROUNDS} rounds")));
            }
            (None, body.rounds)
        }
    };
    let starts_at = match (body.start_date, body.wait_minutes) {
        (Some(_), Some(_)) => return Err(ApiError::bad_request("give startDate or waitMinutes, not both")),
        (Some(at), None) => at.max(now),
        (None, Some(wait)) if (0..=MAX_WAIT_MS / 60_000).contains(&wait) => now + wait * 60_000,
        (None, Some(_)) => return Err(ApiError::bad_request("waitMinutes is 0 to 30 days")),
        (None, None) => now + 5 * 60_000,
    };
    if starts_at > now + MAX_WAIT_MS {
        return Err(ApiError::bad_request("a tournament starts within 30 days"));
    }
    // The variant must start a game (its options too).
    let setup = crate::command::Setup {
        variant: body.variant.clone(),
        position: None,
        mode: crate::store::Mode::Friend,
        level: None,
        colour: crate::command::Colour::Random,
        seed: None,
        time_control: Some(clock),
        rated: true,
    };
    hub.check_setup(&setup)?;
    if body.password.as_ref().is_some_and(|p| p.len() > MAX_PASSWORD_LEN) {
        return Err(ApiError::bad_request("a password is at most 200 bytes"));
    }
    limits::count_some(
        hub.store(),
        [
            Some(Charge::new(&limits::TOURNAMENTS_PER_ACCOUNT, account.id.clone())),
            Charge::address(&limits::TOURNAMENTS_PER_ADDRESS, address),
        ],
    )
    .await?;
    let password = match body.password.filter(|p| !p.is_empty()) {
        Some(password) => Some(
            tokio::task::spawn_blocking(move || hash_password(&password))
                .await
                .map_err(|_| ApiError::internal("the password could not be hashed"))??,
        ),
        None => None,
    };
    let created = Tournament {
        id: crate::secret::game_id(),
        kind,
        name,
        variant: body.variant,
        clock: clock.text(),
        minutes,
        rounds,
        starts_at,
        password,
        creator: account.id.clone(),
        status: Status::Created,
        berserk: body.berserkable && kind == Kind::Arena,
        created: now,
        started: None,
        finished: None,
    };
    let row = created.clone();
    // The creator plays in it (lichess's), unless the rule of bots keeps
    // them out of its rated games.
    let joins = join_refusal(&hub, &account).await?.is_none();
    let (creator, now) = (account.id.clone(), now_ms());
    hub.store()
        .transact(move |sql| {
            stored::create(sql, &row)?;
            if joins {
                stored::join(sql, &row.id, &creator, now)?;
            }
            Ok(())
        })
        .await?;
    hub.signal(tournament::topic(&created.id)).await;
    let answer = full(&hub, &created, Some(&account)).await?;
    Ok((StatusCode::CREATED, Json(answer)).into_response())
}

fn kind_name(kind: Kind) -> &'static str {
    match kind {
        Kind::Arena => "Arena",
        Kind::RoundRobin => "Round Robin",
    }
}

/// A tournament as lists show it (lichess's fields where it has them).
fn summary(t: &Tournament, players: usize) -> Value {
    let (limit, increment) = match TimeControl::parse(&t.clock) {
        Some(TimeControl::Fischer { initial_ms, increment_ms }) => (initial_ms / 1000, increment_ms / 1000),
        _ => (0, 0),
    };
    json!({
        "id": t.id,
        "kind": t.kind.as_str(),
        "fullName": t.name,
        "variant": t.variant,
        "clock": { "limit": limit, "increment": increment },
        "minutes": t.minutes,
        "rounds": t.rounds,
        "startsAt": t.starts_at,
        "finishesAt": if t.status == Status::Created { None } else { t.ends_at() },
        "status": t.status.as_str(),
        "rated": true,
        "berserkable": t.berserk,
        "hasPassword": t.password.is_some(),
        "nbPlayers": players,
    })
}

/// `GET /api/tournament`: the tournaments created (to come), started and
/// finished, at most 50 of each.
pub async fn list(State(hub): Shared) -> Result<Json<Value>, ApiError> {
    let listed = hub
        .store()
        .read(|sql| {
            let mut lists = Vec::new();
            for status in [Status::Created, Status::Started, Status::Finished] {
                let mut list = Vec::new();
                for t in stored::list(sql, status, LISTED)? {
                    let players = stored::entrants(sql, &t.id)?.iter().filter(|e| e.withdrawn.is_none()).count();
                    list.push(summary(&t, players));
                }
                lists.push(list);
            }
            Ok(lists)
        })
        .await?;
    Ok(Json(json!({ "created": listed[0], "started": listed[1], "finished": listed[2] })))
}

async fn tournament_of(hub: &Hub, id: &str) -> Result<Tournament, ApiError> {
    let key = id.to_owned();
    hub.store()
        .read(move |sql| stored::get(sql, &key))
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no tournament {}", shown(id))))
}

fn line_json(line: &Line, unready: &HashSet<String>) -> Value {
    // A game is shown once its seats are held: before, its players could
    // not yet move in it.
    let playing = line.playing.as_ref().filter(|game| !unready.contains(*game));
    json!({
        "name": line.username,
        "rank": line.rank,
        "score": line.score,
        "rating": line.rating,
        "sheet": { "scores": line.sheet, "fire": line.fire },
        "nbGames": line.games,
        "withdraw": line.withdrawn,
        "playing": playing,
    })
}

fn game_json(game: &TournamentGame, names: &dyn Fn(&str) -> String) -> Value {
    let result = game.outcome.map(|o| match o {
        stored::GameOutcome::First => "1-0",
        stored::GameOutcome::Second => "0-1",
        stored::GameOutcome::Draw => "½-½",
    });
    json!({
        "id": game.game,
        "round": game.round,
        "white": names(&game.first),
        "black": names(&game.second),
        "berserk": { "white": game.berserk[0], "black": game.berserk[1] },
        "result": result,
    })
}

/// The whole of a tournament: its summary, standings, games, podium once
/// finished, and what `viewer` may do.
async fn full(hub: &Hub, t: &Tournament, viewer: Option<&Account>) -> Result<Value, ApiError> {
    let (table, games) = tournament::state(hub.store(), t, now_ms()).await?;
    let id = t.id.clone();
    let unready: HashSet<String> =
        hub.store().read(move |sql| stored::unready(sql, &id)).await?.into_iter().map(|(g, _)| g.game).collect();
    let games: Vec<TournamentGame> = games.into_iter().filter(|g| !unready.contains(&g.game)).collect();
    let names = |account: &str| {
        table.iter().find(|l| l.account == account).map_or_else(|| "?".to_owned(), |l| l.username.clone())
    };
    let active = table.iter().filter(|l| !l.withdrawn).count();
    let mut answer = summary(t, active);
    answer["standing"] = json!({ "players": table.iter().map(|l| line_json(l, &unready)).collect::<Vec<_>>() });
    answer["games"] = json!(games.iter().rev().map(|g| game_json(g, &names)).collect::<Vec<_>>());
    if t.status == Status::Finished {
        answer["podium"] = json!(table.iter().take(3).map(|l| line_json(l, &unready)).collect::<Vec<_>>());
    }
    if let Some(viewer) = viewer {
        let mine = table.iter().find(|l| l.account == viewer.id);
        answer["me"] = json!({
            "joined": mine.is_some_and(|l| !l.withdrawn),
            "gameId": mine.and_then(|l| l.playing.clone()).filter(|game| !unready.contains(game)),
            "rank": mine.map(|l| l.rank),
        });
    }
    Ok(answer)
}

/// `GET /api/tournament/{id}`: the tournament with its standings.
pub async fn read(
    State(hub): Shared,
    SignedIn(account): SignedIn,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let t = tournament_of(&hub, &id).await?;
    Ok(Json(full(&hub, &t, account.as_ref()).await?))
}

/// The player a join or a withdrawal is for: the account of a token with
/// lichess's `tournament:write`, or of the page's session.
async fn entrant(hub: &Hub, headers: &HeaderMap) -> Result<Account, ApiError> {
    if let Some(holder) = token_holder(hub, headers).await? {
        holder.require(Scope::TournamentWrite)?;
        return Ok(holder.account);
    }
    signed_in(hub, headers).await?.ok_or_else(needs_account)
}

/// Why `account` may not play in tournaments, if it may not: every
/// tournament game is rated, and people play in them.
async fn join_refusal(hub: &Hub, account: &Account) -> Result<Option<ApiError>, ApiError> {
    if !hub.bots_rated_vs_people() && super::asker::is_bot(hub, &account.id).await? {
        return Ok(Some(ApiError::bad_request(
            "bots may not play rated games against people on this server, and tournament games are rated",
        )));
    }
    Ok(None)
}

/// The fields `POST /api/tournament/{id}/join` takes (lichess's: `team` and
/// `pairMeAsap` mean nothing here and are let be).
const JOIN_FIELDS: [&str; 3] = ["password", "team", "pairMeAsap"];

/// `POST /api/tournament/{id}/join` (session, or a token with
/// `tournament:write`; a JSON or form body, or none, with `password` for a
/// private one): enters (or comes back to) a tournament not finished; a
/// round robin only before it starts. Within the player's limit of joins,
/// and the address's of passwords tried.
pub async fn join(
    State(hub): Shared,
    headers: HeaderMap,
    ClientAddress(address): ClientAddress,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
    Fields(mut fields): Fields,
) -> Result<Json<Value>, ApiError> {
    let account = entrant(&hub, &headers).await?;
    // lichess reads the fields from the query string too (berserk sends
    // them there); the body's win.
    let queried = query.as_deref().map(|q| serde_urlencoded_pairs(q.as_bytes())).unwrap_or(Some(Vec::new()));
    for (name, value) in queried.ok_or_else(|| ApiError::bad_request("malformed query string"))? {
        fields.entry(name).or_insert(Value::String(value));
    }
    if let Some(unknown) = fields.keys().find(|k| !JOIN_FIELDS.contains(&k.as_str())) {
        return Err(ApiError::bad_request(format!("unknown field {}: a join takes password", shown(unknown))));
    }
    let password = text_field(&fields, "password")?;
    let t = tournament_of(&hub, &id).await?;
    if let Some(refusal) = join_refusal(&hub, &account).await? {
        return Err(refusal);
    }
    match (t.status, t.kind) {
        (Status::Finished, _) => return Err(ApiError::conflict("this tournament is over")),
        (Status::Started, Kind::RoundRobin) => return Err(ApiError::conflict("this round robin has started")),
        _ => {}
    }
    let guesses = t.password.as_ref().and_then(|_| Charge::address(&limits::TOURNAMENT_PASSWORDS_PER_ADDRESS, address));
    limits::count_some(
        hub.store(),
        [Some(Charge::new(&limits::TOURNAMENT_JOINS_PER_ACCOUNT, account.id.clone())), guesses],
    )
    .await?;
    if let Some(hash) = t.password.clone() {
        let given = password.unwrap_or_default();
        if given.len() > MAX_PASSWORD_LEN {
            return Err(ApiError::forbidden("wrong tournament password"));
        }
        let matches = tokio::task::spawn_blocking(move || password_matches(&given, Some(&hash)))
            .await
            .map_err(|_| ApiError::internal("the password could not be checked"))?;
        if !matches {
            return Err(ApiError::forbidden("wrong tournament password"));
        }
    }
    let (key, who, now) = (t.id.clone(), account.id.clone(), now_ms());
    hub.store().transact(move |sql| stored::join(sql, &key, &who, now)).await?;
    hub.signal(tournament::topic(&t.id)).await;
    Ok(Json(json!({ "ok": true })))
}

/// `POST /api/tournament/{id}/withdraw` (session, or a token with
/// `tournament:write`; any body or none): leaves a tournament (an arena's
/// player may come back with join; their game in play goes on).
pub async fn withdraw(State(hub): Shared, headers: HeaderMap, Path(id): Path<String>) -> Result<Json<Value>, ApiError> {
    let account = entrant(&hub, &headers).await?;
    let t = tournament_of(&hub, &id).await?;
    if t.status == Status::Finished {
        return Err(ApiError::conflict("this tournament is over"));
    }
    let (key, who, now) = (t.id.clone(), account.id.clone(), now_ms());
    if !hub.store().transact(move |sql| stored::withdraw(sql, &key, &who, now)).await? {
        return Err(ApiError::conflict("you are not playing in this tournament"));
    }
    hub.signal(tournament::topic(&t.id)).await;
    Ok(Json(json!({ "ok": true })))
}

/// `GET /api/tournament/{id}/stream`: NDJSON, the tournament as
/// `GET /api/tournament/{id}` answers it, at once and after every change,
/// until it is finished.
pub async fn stream(
    State(hub): Shared,
    SignedIn(account): SignedIn,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    // Listening before the first read: no change after it is missed.
    let mut signals = hub.signals();
    let t = tournament_of(&hub, &id).await?;
    let topic = tournament::topic(&t.id);
    let (lines, receiver) = tokio::sync::mpsc::channel::<Result<String, std::io::Error>>(4);
    tokio::spawn(async move {
        let mut last = String::new();
        let mut t = t;
        loop {
            let Ok(value) = full(&hub, &t, account.as_ref()).await else { return };
            let text = value.to_string();
            if text != last {
                if lines.send(Ok(format!("{text}\n"))).await.is_err() {
                    return;
                }
                last = text;
            }
            if t.status == Status::Finished {
                return;
            }
            let wake = tokio::time::sleep(STREAM_EVERY);
            tokio::pin!(wake);
            loop {
                tokio::select! {
                    _ = &mut wake => break,
                    _ = lines.closed() => return,
                    heard = signals.recv() => match heard {
                        Ok(heard) if heard == topic || heard == "*" => break,
                        Ok(_) => {}
                        Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => break,
                        Err(tokio::sync::broadcast::error::RecvError::Closed) => return,
                    },
                }
            }
            match tournament_of(&hub, &t.id).await {
                Ok(now) => t = now,
                Err(_) => return,
            }
        }
    });
    let stream = futures_util::stream::unfold(receiver, |mut receiver| async move {
        receiver.recv().await.map(|line| (line, receiver))
    });
    let body = axum::body::Body::from_stream(stream);
    Ok(([(header::CONTENT_TYPE, "application/x-ndjson")], body).into_response())
}

/// `POST /api/tournament/{id}/berserk`: halves the player's clock in their
/// game in play, before their first move, for one more point on a win
/// (with enough moves: `menagerie_league::arena`).
pub async fn berserk(
    State(hub): Shared,
    SignedIn(account): SignedIn,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let account = account.ok_or_else(needs_account)?;
    let t = tournament_of(&hub, &id).await?;
    if !t.berserk {
        return Err(ApiError::bad_request("this tournament does not allow berserk"));
    }
    let key = t.id.clone();
    let games = hub.store().read(move |sql| stored::games(sql, &key)).await?;
    let Some((game, seat)) =
        games.iter().filter(|g| g.outcome.is_none()).find_map(|g| Some((g.game.clone(), g.seat_of(&account.id)?)))
    else {
        return Err(ApiError::conflict("you have no game in play in this tournament"));
    };
    let player = menagerie_core::Player::BOTH[seat];
    let slot = hub.slot(&game).await?;
    let mut live = slot.live.lock().await;
    // Under the game's lock, and as the store holds it (a first move may
    // have been made through another node): no move of this seat comes
    // between the check and the write.
    slot.catch_up_locked(&mut live, hub.store()).await?;
    if live.is_over() || live.moves.iter().any(|m| m.actor.player() == Some(player)) {
        return Err(ApiError::conflict("berserk is chosen before your first move"));
    }
    let key = game.clone();
    hub.store().transact(move |sql| stored::berserk(sql, &key, seat)).await?;
    let mut halved = [false; 2];
    halved[seat] = true;
    if live.halve_clocks(halved) {
        // A new version of the game is how the other nodes holding it hear
        // of the berserk (they read it again, `LiveGame::read_berserk`).
        let meta = live.meta.clone();
        if let Err(error) = live.commit_meta(hub.store(), meta).await {
            tracing::warn!(target: "menagerie::tournaments", %game, %error, "other nodes not told of a berserk");
        }
        slot.publish(&mut live);
    }
    drop(live);
    hub.signal(tournament::topic(&t.id)).await;
    Ok(Json(json!({ "ok": true, "gameId": game })))
}
