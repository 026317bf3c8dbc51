//! A seek: an open challenge to a friend game, waiting in the lobby for
//! someone to accept it. Its request is read as a new game's would be
//! (`opponent` is always a friend), so a seek that is listed can start.

use super::identity::PlayerId;
use crate::clock::TimeControl;
use crate::command::{ClockBody, Colour, NewGame, Setup};
use crate::error::ApiError;
use menagerie_core::Player;
use serde::Deserialize;
use serde_json::{json, Value};
use std::net::IpAddr;

/// The body of `POST /api/seeks`, as sent: a new game's fields but the
/// opponent and level (the opponent is whoever accepts).
#[derive(Clone, Debug, Deserialize)]
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
}

impl SeekBody {
    /// The friend game this seek would start, checked for form (the hub
    /// checks the rest: [`crate::hub::Hub::check_setup`]).
    pub fn setup(self) -> Result<Setup, ApiError> {
        NewGame {
            variant: self.variant,
            position: self.position,
            opponent: Some("friend".into()),
            level: None,
            colour: self.colour,
            seed: self.seed,
            clock: self.clock,
        }
        .parse()
    }
}

/// A seek in the lobby.
#[derive(Clone, Debug)]
pub struct Seek {
    pub id: String,
    pub creator: PlayerId,
    /// The creator's display name (its username if logged in).
    pub name: String,
    /// The creator's account, if logged in (it holds the creator's seat).
    pub account: Option<String>,
    /// The client address it came from (the lobby caps seeks per address).
    pub address: Option<IpAddr>,
    pub setup: Setup,
}

impl Seek {
    /// The seek as listed; `yours` when `viewer` made it. Never the creator's id.
    pub fn to_json(&self, viewer: Option<&PlayerId>) -> Value {
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
            "yours": viewer == Some(&self.creator),
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
