//! A seek: an open challenge to a friend game, waiting in the lobby for
//! someone to accept it. Its request is read as a new game's would be
//! (`opponent` is always a friend), so a seek that is listed can start.

use crate::clock::TimeControl;
use crate::command::{ClockBody, Colour, NewGame, Setup};
use crate::error::ApiError;
use crate::store::lobby::StoredSeek;
use menagerie_core::Player;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::net::IpAddr;

/// The body of `POST /api/seeks`, as sent: a new game's fields but the
/// opponent and level (the opponent is whoever accepts).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct SeekBody {
    pub variant: String,
    #[serde(default)]
    pub position: Option<String>,
    /// The creator's side: `first`, `second`, a player name, or `random` (default).
    #[serde(default)]
    pub colour: Option<String>,
    #[serde(default)]
    pub seed: Option<u64>,
    #[serde(default)]
    pub clock: Option<ClockBody>,
    /// Whether the game is rated (default: casual). Only between accounts.
    #[serde(default)]
    pub rated: bool,
    /// The ratings that may accept, as lichess writes it: `"1300-1700"`.
    #[serde(default, rename = "ratingRange")]
    pub rating_range: Option<String>,
}

/// A seek's rating range: who may accept it (both ends included).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RatingRange {
    pub min: i64,
    pub max: i64,
}

/// The lowest and highest ratings a range may name.
const RANGE_LIMITS: (i64, i64) = (400, 4000);

impl RatingRange {
    /// `"MIN-MAX"`, each from 400 to 4000, MIN at most MAX.
    pub fn parse(text: &str) -> Result<RatingRange, ApiError> {
        let bad = || {
            ApiError::bad_request(format!(
                "bad ratingRange {}: expected MIN-MAX, from {} to {}, such as \"1300-1700\"",
                menagerie_core::shown(text),
                RANGE_LIMITS.0,
                RANGE_LIMITS.1
            ))
        };
        let (min, max) = text.split_once('-').ok_or_else(bad)?;
        let (min, max): (i64, i64) = (min.trim().parse().map_err(|_| bad())?, max.trim().parse().map_err(|_| bad())?);
        let within = |r: i64| (RANGE_LIMITS.0..=RANGE_LIMITS.1).contains(&r);
        if !within(min) || !within(max) || min > max {
            return Err(bad());
        }
        Ok(RatingRange { min, max })
    }

    pub fn contains(self, rating: i64) -> bool {
        (self.min..=self.max).contains(&rating)
    }

    pub fn text(self) -> String {
        format!("{}-{}", self.min, self.max)
    }
}

/// A listed player's rating in a game's variant: whole points, and whether
/// it is provisional (shown with `?`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShownRating {
    pub rating: i64,
    pub provisional: bool,
}

impl SeekBody {
    /// The friend game this seek would start, checked for form (the hub
    /// checks the rest: [`crate::hub::Hub::check_setup`]).
    pub fn setup(&self) -> Result<Setup, ApiError> {
        let body = self.clone();
        NewGame {
            variant: body.variant,
            position: body.position,
            opponent: Some("friend".into()),
            level: None,
            colour: body.colour,
            seed: body.seed,
            clock: body.clock,
        }
        .parse()
        .map(|setup| Setup { rated: self.rated, ..setup })
    }
}

/// A seek in the lobby.
#[derive(Clone, Debug)]
pub struct Seek {
    pub id: String,
    /// The creator's key ([`super::identity::PlayerId::key`]).
    pub creator: String,
    /// The creator's display name (its username if logged in).
    pub name: String,
    /// The creator's account, if logged in (it holds the creator's seat).
    pub account: Option<String>,
    /// The client address it came from (the lobby caps seeks per address).
    pub address: Option<IpAddr>,
    /// The request it was made from, and the game it starts.
    pub body: SeekBody,
    pub setup: Setup,
    pub rated: bool,
    pub range: Option<RatingRange>,
    /// The creator's rating in the seek's variant, if logged in.
    pub rating: Option<ShownRating>,
    /// Until when it is listed (ms since the epoch): renewed while its
    /// creator is here.
    pub alive_until: i64,
}

impl Seek {
    /// Whether a viewer kept apart from the accounts `apart` (blocks either
    /// way) sees this seek: not one of theirs.
    pub fn visible_to(&self, apart: &std::collections::HashSet<String>) -> bool {
        self.account.as_ref().is_none_or(|account| !apart.contains(account))
    }

    /// The seek as stored, listed until `alive_until`.
    pub fn to_stored(&self, created: i64, alive_until: i64) -> StoredSeek {
        StoredSeek {
            id: self.id.clone(),
            creator: self.creator.clone(),
            account: self.account.clone(),
            name: self.name.clone(),
            address: self.address.map(|a| a.to_string()),
            body: serde_json::to_string(&self.body).expect("a seek's request serializes"),
            rated: self.rated,
            rating_range: self.range.map(RatingRange::text),
            rating: self.rating.map(|r| r.rating),
            provisional: self.rating.map(|r| r.provisional),
            created,
            alive_until,
        }
    }

    /// A stored seek, checked again as when it was made.
    pub fn from_stored(stored: StoredSeek) -> Result<Seek, ApiError> {
        let corrupt = || ApiError::internal(format!("seek {} is stored unreadably", stored.id));
        let body: SeekBody = serde_json::from_str(&stored.body).map_err(|_| corrupt())?;
        let setup = body.setup().map_err(|_| corrupt())?;
        let range = stored.rating_range.as_deref().map(RatingRange::parse).transpose().map_err(|_| corrupt())?;
        let rating =
            stored.rating.map(|rating| ShownRating { rating, provisional: stored.provisional.unwrap_or(true) });
        Ok(Seek {
            id: stored.id,
            creator: stored.creator,
            name: stored.name,
            account: stored.account,
            address: stored.address.and_then(|a| a.parse().ok()),
            body,
            setup,
            rated: stored.rated,
            range,
            rating,
            alive_until: stored.alive_until,
        })
    }

    /// The seek as listed; `yours` when `viewer` made it. Never the creator's id.
    pub fn to_json(&self, viewer: Option<&str>) -> Value {
        let colour = match &self.setup.colour {
            Colour::Random => "random".to_owned(),
            Colour::Player(Player::First) => "first".to_owned(),
            Colour::Player(Player::Second) => "second".to_owned(),
            Colour::Named(name) => name.clone(),
        };
        json!({
            "id": self.id,
            "name": self.name,
            "variant": self.setup.variant,
            "position": self.setup.position,
            "colour": colour,
            "clock": self.setup.time_control.map(clock_json),
            "rated": self.rated,
            "rating": self.rating.map(|r| r.rating),
            "provisional": self.rating.map(|r| r.provisional),
            "ratingRange": self.range.map(RatingRange::text),
            "yours": viewer == Some(self.creator.as_str()),
        })
    }
}

/// A time control as a request gives it: seconds, or days a move.
fn clock_json(control: TimeControl) -> Value {
    match control {
        TimeControl::Fischer { initial_ms, increment_ms } => {
            json!({ "initial": initial_ms as f64 / 1000.0, "increment": increment_ms as f64 / 1000.0 })
        }
        TimeControl::Correspondence { per_move_ms } => json!({ "days": per_move_ms / (24 * 3600 * 1000) }),
    }
}
