//! Players and their ratings in lichess's shapes (docs/api.md, "Ratings"):
//! `GET /api/user/{username}`, its rating history, its games as one
//! records file, and the leaderboards. Also the ratings other routes show
//! (seeks, the lobby's games, a game's players).

use super::asker::CLOSED_NAME;
use crate::clock::now_ms;
use crate::error::ApiError;
use crate::hub::Hub;
use crate::lobby::ShownRating;
use crate::store::accounts::{self as stored, Account};
use crate::store::ratings::{self, GameFilter, Perf};
use crate::store::Sql;
use crate::store::StoreError;
use axum::body::Body as ResponseBody;
use axum::extract::{Path, Query, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::Json;
use menagerie_league::glicko2;
use serde::Deserialize;
use serde_json::{json, Map, Value};
use std::sync::Arc;

type Shared = State<Arc<Hub>>;

/// Leaderboards list the players whose deviation is below this: lichess
/// asks for less (it has players enough), a small community needs
/// players who play now and then to appear.
pub const LEADERBOARD_DEVIATION: f64 = 150.0;
/// The most players one leaderboard request lists.
pub const MAX_LEADERS: usize = 200;

/// A rating as lichess shows it: whole points.
fn points(value: f64) -> i64 {
    value.round() as i64
}

/// One variant's rating as `perfs` shows it (lichess's shape).
fn perf_json(sql: &mut dyn Sql, player: &str, perf: &Perf, now: i64) -> Result<Value, StoreError> {
    let rating = perf.now(now);
    let recent = ratings::recent_ratings(sql, player, &perf.perf, glicko2::PROGRESS_GAMES)?;
    Ok(json!({
        "games": perf.games,
        "rating": points(rating.rating),
        "rd": points(rating.deviation),
        "prog": glicko2::progress(&recent),
        "prov": rating.provisional(),
    }))
}

/// A player's `perfs`: one entry per variant id it has played rated.
pub fn perfs_json(sql: &mut dyn Sql, player: &str, now: i64) -> Result<Value, StoreError> {
    let mut perfs = Map::new();
    for perf in ratings::perfs(sql, player)? {
        perfs.insert(perf.perf.clone(), perf_json(sql, player, &perf, now)?);
    }
    Ok(Value::Object(perfs))
}

/// An account's rating in `variant`'s id now, as listed beside its name.
pub fn shown_rating(sql: &mut dyn Sql, player: &str, variant: &str, now: i64) -> Result<ShownRating, StoreError> {
    let rating = ratings::rating_now(sql, player, ratings::perf_of(variant), now)?;
    Ok(ShownRating { rating: points(rating.rating), provisional: rating.provisional() })
}

/// [`shown_rating`] through the hub's store.
pub async fn shown_rating_of(hub: &Hub, player: &str, variant: &str) -> Result<ShownRating, ApiError> {
    let (player, variant) = (player.to_owned(), variant.to_owned());
    Ok(hub.store().read(move |sql| shown_rating(sql, &player, &variant, now_ms())).await?)
}

async fn account_named(hub: &Hub, username: &str) -> Result<Account, ApiError> {
    let name = username.to_owned();
    let account = hub.store().read(move |sql| stored::account_by_name(sql, &name)).await?;
    account.ok_or_else(|| ApiError::not_found(format!("no player {}", menagerie_core::shown(username))))
}

/// `GET /api/user/{username}`: a player's public profile (lichess's shape).
pub async fn user(
    State(hub): Shared,
    headers: axum::http::HeaderMap,
    Path(username): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let account = account_named(&hub, &username).await?;
    if account.closed.is_some() {
        return Ok(Json(json!({
            "id": stored::username_key(&account.username),
            "username": account.username,
            "closed": true,
        })));
    }
    let id = account.id.clone();
    let (perfs, counts, seen) = hub
        .store()
        .read(move |sql| {
            Ok((perfs_json(sql, &id, now_ms())?, ratings::counts(sql, &id)?, stored::last_seen(sql, &id)?))
        })
        .await?;
    let [all, rated, win, loss, draw] = counts;
    let mut body = json!({
        "id": stored::username_key(&account.username),
        "username": account.username,
        "createdAt": account.created,
        "perfs": perfs,
        "count": { "all": all, "rated": rated, "win": win, "loss": loss, "draw": draw },
    });
    if let Some(seen) = seen {
        body["seenAt"] = json!(seen);
    }
    if super::asker::is_bot(&hub, &account.id).await? {
        body["title"] = json!("BOT");
    }
    // lichess's `blocking`, for a viewer who asks with a session or a token.
    let viewer = match super::asker::token_holder(&hub, &headers).await.ok().flatten() {
        Some(holder) => Some(holder.account),
        None => super::asker::signed_in(&hub, &headers).await?,
    };
    if let Some(viewer) = viewer.filter(|viewer| viewer.id != account.id) {
        body["blocking"] = json!(super::relations::blocking(&hub, &viewer.id, &account.id).await?);
    }
    Ok(Json(body))
}

/// `GET /api/user/{username}/rating-history`: the rating after each rated
/// game, per variant id: `[{"name", "points": [[year, month0, day, rating]]}]`
/// (lichess's shape: months from 0).
pub async fn rating_history(State(hub): Shared, Path(username): Path<String>) -> Result<Json<Value>, ApiError> {
    let account = account_named(&hub, &username).await?;
    let history = hub.store().read(move |sql| ratings::history(sql, &account.id)).await?;
    let mut series: Vec<(String, Vec<Value>)> = Vec::new();
    for point in history {
        let (year, month, day) = civil_date(point.at);
        let entry = json!([year, month - 1, day, points(point.rating.rating)]);
        match series.last_mut() {
            Some((name, points)) if *name == point.perf => points.push(entry),
            _ => series.push((point.perf, vec![entry])),
        }
    }
    Ok(Json(Value::Array(series.into_iter().map(|(name, points)| json!({ "name": name, "points": points })).collect())))
}

/// The UTC calendar date of `ms` since the epoch: (year, month 1-12, day).
fn civil_date(ms: i64) -> (i64, i64, i64) {
    // Howard Hinnant's days-to-civil.
    let days = ms.div_euclid(86_400_000) + 719_468;
    let era = days.div_euclid(146_097);
    let day_of_era = days - era * 146_097;
    let year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let mp = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GamesQuery {
    max: Option<usize>,
    rated: Option<bool>,
    variant: Option<String>,
    result: Option<String>,
}

/// PGN's media type (several games: one after another).
const PGN: &str = "application/vnd.chess-pgn; charset=utf-8";

/// `GET /api/games/user/{username}`: the player's finished games, newest
/// first, as one records file (each game's record, a blank line between),
/// written game by game as it is sent. `?max=N`, `?rated=true|false`,
/// `?variant=ID`, `?result=win|loss|draw` keep some.
pub async fn user_games(
    State(hub): Shared,
    Path(username): Path<String>,
    Query(query): Query<GamesQuery>,
) -> Result<Response, ApiError> {
    if let Some(result) = &query.result {
        if !matches!(result.as_str(), "win" | "loss" | "draw") {
            return Err(ApiError::bad_request(format!(
                "bad result {}: expected win, loss or draw",
                menagerie_core::shown(result)
            )));
        }
    }
    if let Some(variant) = &query.variant {
        check_variant(&hub, variant)?;
    }
    let account = account_named(&hub, &username).await?;
    let filter =
        GameFilter { rated: query.rated, perf: query.variant.clone(), result: query.result.clone(), max: query.max };
    let games = hub.store().read(move |sql| ratings::account_games(sql, &account.id, &filter)).await?;
    let ids: Vec<String> = games.into_iter().map(|g| g.game).collect();
    let stream = futures_util::stream::unfold((hub, ids.into_iter()), |(hub, mut ids)| async move {
        let id = ids.next()?;
        let text = match record_with_players(&hub, &id, true).await {
            Ok(text) => format!("{}\n\n", text.trim_end()),
            // A game that cannot be written now is left out, not the rest.
            Err(_) => String::new(),
        };
        Some((Ok::<_, std::convert::Infallible>(text), (hub, ids)))
    });
    let disposition = format!("attachment; filename=\"menagerie-{}.pgn\"", stored::username_key(&username));
    Ok((
        [(header::CONTENT_TYPE, PGN.to_owned()), (header::CONTENT_DISPOSITION, disposition)],
        ResponseBody::from_stream(stream),
    )
        .into_response())
}

/// A game's record with its players as accounts know them (lichess's
/// tags): the usernames as `White` and `Black`, a rated game's `Event`
/// saying so, with each side's rating before it (`WhiteElo`) and change
/// (`WhiteRatingDiff`). Among a player's games (`named`) each also names
/// its game (`GameId`); a game's own record does not, so that importing it
/// and writing it again gives the same text.
pub async fn record_with_players(hub: &Hub, id: &str, named: bool) -> Result<String, ApiError> {
    hub.slot(id).await?;
    let shown = seats_json(hub, id).await?;
    let game = id.to_owned();
    hub.record_with(id, move |info| {
        if named {
            info.extra.push(("GameId".to_owned(), game));
        }
        let rated = shown["rated"].as_bool() == Some(true);
        if rated {
            info.event = info.event.take().map(|event| format!("Rated {event}"));
        }
        for (side, tag) in [("first", "White"), ("second", "Black")] {
            let seat = &shown["players"][side];
            if let Some(name) = seat["username"].as_str() {
                match side {
                    "first" => info.white = Some(name.to_owned()),
                    _ => info.black = Some(name.to_owned()),
                }
            }
            if !rated {
                continue;
            }
            if let Some(rating) = seat["rating"].as_i64() {
                info.extra.push((format!("{tag}Elo"), rating.to_string()));
            }
            if let Some(diff) = seat["ratingDiff"].as_i64() {
                info.extra.push((format!("{tag}RatingDiff"), format!("{diff:+}")));
            }
        }
    })
    .await
    .map_err(ApiError::from)
}

/// A variant id this server offers (ratings are kept per id, options aside).
fn check_variant(hub: &Hub, variant: &str) -> Result<(), ApiError> {
    let ids: Vec<&str> = hub.source().variants().into_iter().map(|v| v.id).collect();
    if ids.contains(&variant) {
        return Ok(());
    }
    Err(ApiError::bad_request(format!(
        "unknown variant {}: expected one of {}",
        menagerie_core::shown(variant),
        ids.join(", ")
    )))
}

/// `GET /api/player/top/{nb}/{variant}`: the `nb` best rated players of a
/// variant id (at most [`MAX_LEADERS`]) whose deviation is below
/// [`LEADERBOARD_DEVIATION`] (lichess's shape).
pub async fn leaderboard(
    State(hub): Shared,
    Path((nb, variant)): Path<(String, String)>,
) -> Result<Json<Value>, ApiError> {
    let nb: usize = nb
        .parse()
        .ok()
        .filter(|n| (1..=MAX_LEADERS).contains(n))
        .ok_or_else(|| ApiError::bad_request(format!("bad number of players: expected 1 to {MAX_LEADERS}")))?;
    check_variant(&hub, &variant)?;
    let perf_id = variant.clone();
    let leaders = hub
        .store()
        .read(move |sql| {
            let now = now_ms();
            let mut users = Vec::new();
            for (username, perf) in ratings::leaders(sql, &perf_id, LEADERBOARD_DEVIATION, nb)? {
                let Some(account) = stored::account_by_name(sql, &username)? else { continue };
                let recent = ratings::recent_ratings(sql, &account.id, &perf_id, glicko2::PROGRESS_GAMES)?;
                let mut user = json!({
                    "id": stored::username_key(&username),
                    "username": username,
                    "perfs": { &perf_id: {
                        "rating": points(perf.now(now).rating),
                        "progress": glicko2::progress(&recent),
                    } },
                });
                if crate::store::tokens::is_bot(sql, &account.id)? {
                    user["title"] = json!("BOT");
                }
                users.push(user);
            }
            Ok(users)
        })
        .await?;
    Ok(Json(json!({ "users": leaders })))
}

/// A seat of a game as [`seats_json`] reads it.
struct SeatShown {
    account: Option<Account>,
    rating: Option<ShownRating>,
}

/// The players of a game as its JSON shows them: per seat (`first`,
/// `second`) the username (`null`: anonymous or nobody; a closed account's
/// neutral name), the rating in the game's variant (at its start for a
/// rated game that ended; now otherwise) and, once rated, its change.
pub async fn seats_json(hub: &Hub, game: &str) -> Result<Value, ApiError> {
    let id = game.to_owned();
    let (seats, rated) = hub
        .store()
        .read(move |sql| {
            let variant = sql
                .query_opt("SELECT variant FROM games WHERE id = $1", crate::sql_params![&id])?
                .map(|row| row.text(0))
                .transpose()?;
            let now = now_ms();
            let mut seats = Vec::new();
            for seat in 0..2 {
                let account = stored::seat_account(sql, &id, seat)?;
                let rating = match (&account, &variant) {
                    (Some(account), Some(variant)) if account.closed.is_none() => {
                        Some(shown_rating(sql, &account.id, variant, now)?)
                    }
                    _ => None,
                };
                seats.push(SeatShown { account, rating });
            }
            Ok((seats, ratings::rated_game(sql, &id)?))
        })
        .await?;
    let mut players = Map::new();
    for (index, seat) in seats.into_iter().enumerate() {
        let name = seat.account.map(|a| if a.closed.is_some() { CLOSED_NAME.to_owned() } else { a.username });
        let mut entry = json!({ "username": name });
        match rated.as_ref().and_then(|r| r.seats[index].as_ref()) {
            Some(rated_seat) => {
                entry["rating"] = json!(points(rated_seat.before));
                entry["provisional"] = json!(rated_seat.deviation >= glicko2::PROVISIONAL_DEVIATION);
                entry["ratingDiff"] = json!(rated_seat.diff);
            }
            None => {
                if let Some(rating) = seat.rating {
                    entry["rating"] = json!(rating.rating);
                    entry["provisional"] = json!(rating.provisional);
                }
            }
        }
        players.insert(crate::store::player_str(menagerie_core::Player::BOTH[index]).to_owned(), entry);
    }
    Ok(json!({ "rated": rated.is_some(), "players": players }))
}
