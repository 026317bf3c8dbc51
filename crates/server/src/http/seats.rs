//! The seats an asker holds: a game's seat secret taken from the account
//! or browser that holds the seat, and seats recorded as held when a game
//! starts or a friend opens its link.

use super::asker::signed_in;
use crate::error::ApiError;
use crate::hub::Hub;
use crate::lobby::identity::Identity;
use crate::store::accounts as stored;
use crate::store::Mode;
use axum::http::HeaderMap;
use menagerie_core::Player;
use serde_json::Value;

/// The seat secret a request acts with: the one it presents, or else the
/// one of the seat its account holds in `game` (if it holds exactly one).
pub async fn seat_for(
    hub: &Hub,
    headers: &HeaderMap,
    game: &str,
    presented: Option<String>,
) -> Result<Option<String>, ApiError> {
    if presented.is_some() {
        return Ok(presented);
    }
    let Some(account) = signed_in(hub, headers).await? else { return Ok(None) };
    let game = game.to_owned();
    let held = hub.store().read(move |sql| stored::held_seat(sql, &game, &account.id)).await?;
    Ok(held.map(|(_, secret)| secret))
}

/// Records who took the seats of a game just started: the browser of
/// `headers` (its anonymous id, if it has one) and its account, if logged
/// in. `seats` are the seats taken (both for a game on one device).
pub async fn hold_seats(hub: &Hub, headers: &HeaderMap, game: &str, seats: Vec<Player>) -> Result<(), ApiError> {
    let player = Identity::existing(headers).map(|me| me.id.key());
    let account = signed_in(hub, headers).await?.map(|a| a.id);
    hold(hub, game, seats, player, account).await
}

/// After a read that presented the seat secret `secret`: the seat is held
/// by the reader's browser and account if nobody holds it yet (a friend
/// opening the link offered to them).
pub async fn hold_presented(hub: &Hub, headers: &HeaderMap, game: &str, secret: &str) -> Result<(), ApiError> {
    let player = Identity::existing(headers).map(|me| me.id.key());
    let account = signed_in(hub, headers).await?.map(|a| a.id);
    if player.is_none() && account.is_none() {
        return Ok(());
    }
    let id = game.to_owned();
    if hub.store().read(move |sql| stored::seats_held(sql, &id)).await? >= 2 {
        return Ok(());
    }
    let (game, secret) = (game.to_owned(), secret.to_owned());
    hub.store()
        .transact(move |sql| stored::hold_seat_of_secret(sql, &game, &secret, player.as_deref(), account.as_deref()))
        .await?;
    Ok(())
}

/// [`hold_seats`] for a player known otherwise (a seek's creator).
pub async fn hold(
    hub: &Hub,
    game: &str,
    seats: Vec<Player>,
    player: Option<String>,
    account: Option<String>,
) -> Result<(), ApiError> {
    if player.is_none() && account.is_none() {
        return Ok(());
    }
    let game = game.to_owned();
    hub.store()
        .transact(move |sql| {
            for seat in &seats {
                stored::hold_seat(sql, &game, seat.index(), player.as_deref(), account.as_deref())?;
            }
            Ok(())
        })
        .await?;
    Ok(())
}

/// The seats a started game's creator took: both on one device, else its own.
pub fn creator_seats(started: &Value) -> Vec<Player> {
    let you = started["you"].as_str().and_then(crate::store::parse_player);
    match (started["mode"].as_str().and_then(Mode::parse), you) {
        (Some(Mode::Local), _) => Player::BOTH.to_vec(),
        (_, Some(you)) => vec![you],
        _ => Vec::new(),
    }
}
