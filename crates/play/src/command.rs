//! What clients ask of the games, typed. The bodies of the API's requests
//! as sent ([`NewGame`], [`MoveBody`], [`SeatBody`], [`DrawBody`]) are parsed
//! once, by the HTTP layer or an in-process caller, into a [`Command`]: from
//! there on nothing reads a request's strings again. What needs a game to
//! check (a variant, a move's legality, a colour's name, a level) is checked
//! where the game is.

use crate::clock::TimeControl;
use crate::error::ApiError;
use crate::store::Mode;
use menagerie_core::{shown, Player};
use serde::Deserialize;

/// A variant string longer than this is refused.
pub const MAX_VARIANT_LEN: usize = 200;
/// A position text longer than this is refused.
pub const MAX_POSITION_LEN: usize = 10_000;
/// A move text longer than this is refused.
pub const MAX_MOVE_LEN: usize = 1_000;

/// A change to the games. Every change goes through [`crate::hub::Hub::run`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Start a game.
    Create(Setup),
    /// What a seat does in its game (`seat` is the secret presented, if any).
    Act { game: String, seat: Option<String>, act: Act },
    /// A new game with the same variant and opponents, sides swapped.
    Rematch { game: String, seat: Option<String> },
}

/// A new game, checked for form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    pub variant: String,
    /// A start position text; `None` for the start.
    pub position: Option<String>,
    pub mode: Mode,
    /// The computer's level, when the request names one.
    pub level: Option<String>,
    pub colour: Colour,
    /// The chance seed, when the request chooses one.
    pub seed: Option<u64>,
    /// The clocks; `None` is unlimited time.
    pub time_control: Option<TimeControl>,
    /// Whether the game is asked to be rated ([`Setup::check_rated`]).
    pub rated: bool,
}

impl Setup {
    /// The rule of rated games, the same on every route that makes one
    /// (lichess's): a rated game starts at the variant's start, dealt by
    /// the server. A chosen position or seed makes a casual game; asking
    /// for it rated is refused, saying so. [`crate::start::new_game`]
    /// applies it to every game it starts.
    pub fn check_rated(&self) -> Result<(), ApiError> {
        if !self.rated {
            return Ok(());
        }
        if self.position.is_some() {
            return Err(ApiError::bad_request(
                "a game from a chosen position is casual: leave out the position, or rated",
            ));
        }
        if self.seed.is_some() {
            return Err(ApiError::bad_request("a rated game is dealt by the server: leave out the seed, or rated"));
        }
        Ok(())
    }
}

/// The side a game's creator asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Colour {
    Random,
    Player(Player),
    /// A player's name in the game (`white`, `blue`), lower case: only the
    /// game knows its names.
    Named(String),
}

/// What a seat does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Act {
    /// Plays a move. `expected_ply`, when given, must equal the number of
    /// moves already played, so that a retried request never plays twice.
    Move {
        text: String,
        expected_ply: Option<usize>,
    },
    Resign,
    /// Ends the game before both sides have moved, counting for nothing.
    Abort,
    Draw(DrawAction),
    /// Asks to take back one's last move, or answers the other side's asking.
    Takeback(DrawAction),
    /// Claims the game the opponent left ([`crate::live::claim`]).
    Claim(Claim),
}

/// A claim of a game the opponent left, with what the nodes know of the
/// opponent's presence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Claim {
    /// A draw rather than the win.
    pub draw: bool,
    /// A socket of the opponent's seat is open on this node.
    pub opponent_here: bool,
    /// When any node last saw the opponent's seat (ms), if ever.
    pub opponent_seen: Option<i64>,
    /// How long the opponent must have been gone.
    pub after: std::time::Duration,
}

impl Act {
    /// The act's name for the logs, without its content (a move's text may
    /// name a hidden card).
    pub fn name(&self) -> &'static str {
        match self {
            Act::Move { .. } => "move",
            Act::Resign => "resign",
            Act::Abort => "abort",
            Act::Draw(DrawAction::Offer) => "draw offer",
            Act::Draw(_) => "draw answer",
            Act::Takeback(DrawAction::Offer) => "takeback offer",
            Act::Takeback(_) => "takeback answer",
            Act::Claim(_) => "abandonment claim",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawAction {
    Offer,
    Accept,
    Decline,
    Withdraw,
}

impl DrawAction {
    pub fn parse(text: &str) -> Result<DrawAction, ApiError> {
        match text {
            "offer" => Ok(DrawAction::Offer),
            "accept" => Ok(DrawAction::Accept),
            "decline" => Ok(DrawAction::Decline),
            "withdraw" => Ok(DrawAction::Withdraw),
            other => Err(ApiError::bad_request(format!(
                "unknown draw action {}: expected offer, accept, decline or withdraw",
                shown(other)
            ))),
        }
    }
}

/// The body of `POST /api/games`, as sent.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    pub variant: String,
    #[serde(default)]
    pub position: Option<String>,
    /// `computer` (default), `friend` or `local`.
    #[serde(default)]
    pub opponent: Option<String>,
    /// The computer's level (default: the opponents' default level).
    #[serde(default)]
    pub level: Option<String>,
    /// The creator's side: `first`, `second`, a player name (`white`), or `random` (default).
    #[serde(default)]
    pub colour: Option<String>,
    /// The chance seed (default: drawn by the server). A friend game with
    /// hidden information takes neither a seed nor a position: the server deals.
    #[serde(default)]
    pub seed: Option<u64>,
    /// The time control (default: unlimited).
    #[serde(default)]
    pub clock: Option<ClockBody>,
}

/// A time control as sent: `{"initial": 300, "increment": 3}` in seconds
/// (fractions allowed), or `{"days": 3}` for correspondence.
#[derive(Clone, Debug, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct ClockBody {
    #[serde(default)]
    pub initial: Option<f64>,
    #[serde(default)]
    pub increment: Option<f64>,
    #[serde(default)]
    pub days: Option<u64>,
}

impl ClockBody {
    pub fn parse(&self) -> Result<TimeControl, ApiError> {
        let control = match (self.initial, self.increment, self.days) {
            (None, None, Some(days)) => TimeControl::Correspondence { per_move_ms: days.saturating_mul(DAY_MS) },
            (Some(initial), increment, None) => TimeControl::Fischer {
                initial_ms: seconds_to_ms(initial)?,
                increment_ms: seconds_to_ms(increment.unwrap_or(0.0))?,
            },
            _ => {
                return Err(ApiError::bad_request(
                    "a clock is {\"initial\": seconds, \"increment\": seconds} or {\"days\": days a move}",
                ))
            }
        };
        control.check().map_err(ApiError::bad_request)?;
        Ok(control)
    }
}

const DAY_MS: u64 = 24 * 3600 * 1000;

fn seconds_to_ms(seconds: f64) -> Result<u64, ApiError> {
    if !(0.0..=1e9).contains(&seconds) {
        return Err(ApiError::bad_request("clock times are seconds, 0 or more"));
    }
    Ok((seconds * 1000.0).round() as u64)
}

impl NewGame {
    pub fn parse(self) -> Result<Setup, ApiError> {
        let mode = match self.opponent.as_deref().unwrap_or("computer") {
            "computer" => Mode::Computer,
            "friend" => Mode::Friend,
            "local" | "same-device" => Mode::Local,
            other => {
                return Err(ApiError::bad_request(format!(
                    "unknown opponent {}: expected computer, friend or local",
                    shown(other)
                )))
            }
        };
        if self.variant.len() > MAX_VARIANT_LEN || self.position.as_ref().is_some_and(|p| p.len() > MAX_POSITION_LEN) {
            return Err(ApiError::bad_request("variant or position text too long"));
        }
        let colour = match self.colour.as_deref().map(str::to_ascii_lowercase).as_deref() {
            None | Some("random") | Some("") => Colour::Random,
            Some("first") => Colour::Player(Player::First),
            Some("second") => Colour::Player(Player::Second),
            Some(name) => Colour::Named(name.to_owned()),
        };
        Ok(Setup {
            variant: self.variant,
            position: self.position.filter(|p| p.trim() != "startpos"),
            mode,
            level: self.level,
            colour,
            seed: self.seed,
            time_control: self.clock.as_ref().map(ClockBody::parse).transpose()?,
            rated: false,
        })
    }
}

/// The body of `POST /api/games/{id}/move`, as sent.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveBody {
    pub seat: Option<String>,
    #[serde(rename = "move")]
    pub text: String,
    pub ply: Option<usize>,
}

impl MoveBody {
    pub fn parse(self, game: String) -> Result<Command, ApiError> {
        if self.text.len() > MAX_MOVE_LEN {
            return Err(ApiError::bad_request("move text too long"));
        }
        Ok(Command::Act { game, seat: self.seat, act: Act::Move { text: self.text, expected_ply: self.ply } })
    }
}

/// The body of requests that need only a seat (`resign`, `rematch`).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatBody {
    pub seat: Option<String>,
}

impl SeatBody {
    pub fn resign(self, game: String) -> Command {
        Command::Act { game, seat: self.seat, act: Act::Resign }
    }

    pub fn rematch(self, game: String) -> Command {
        Command::Rematch { game, seat: self.seat }
    }
}

/// The body of `POST /api/games/{id}/draw`, as sent.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DrawBody {
    pub seat: Option<String>,
    pub action: String,
}

impl DrawBody {
    pub fn parse(self, game: String) -> Result<Command, ApiError> {
        Ok(Command::Act { game, seat: self.seat, act: Act::Draw(DrawAction::parse(&self.action)?) })
    }
}

/// The body of `POST /api/games/{id}/takeback`, as sent.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TakebackBody {
    pub seat: Option<String>,
    pub action: String,
}

impl TakebackBody {
    pub fn parse(self, game: String) -> Result<Command, ApiError> {
        Ok(Command::Act { game, seat: self.seat, act: Act::Takeback(DrawAction::parse(&self.action)?) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn new_game(opponent: &str, colour: Option<&str>) -> NewGame {
        NewGame {
            variant: "nim".into(),
            position: Some("startpos".into()),
            opponent: Some(opponent.into()),
            level: None,
            colour: colour.map(str::to_owned),
            seed: None,
            clock: None,
        }
    }

    #[test]
    fn a_clock_is_read_in_seconds_or_days_and_checked() {
        let clock = |json: &str| {
            let body: ClockBody = serde_json::from_str(json).unwrap();
            NewGame { clock: Some(body), ..new_game("friend", None) }.parse().map(|s| s.time_control)
        };
        assert_eq!(
            clock(r#"{"initial": 300, "increment": 2.5}"#).unwrap(),
            Some(TimeControl::Fischer { initial_ms: 300_000, increment_ms: 2_500 })
        );
        assert_eq!(
            clock(r#"{"initial": 0.5}"#).unwrap(),
            Some(TimeControl::Fischer { initial_ms: 500, increment_ms: 0 })
        );
        assert_eq!(clock(r#"{"days": 2}"#).unwrap(), Some(TimeControl::Correspondence { per_move_ms: 2 * DAY_MS }));
        assert_eq!(new_game("friend", None).parse().unwrap().time_control, None);
        for bad in [
            r#"{"initial": -1}"#,
            r#"{"initial": 0}"#,
            r#"{"days": 0}"#,
            r#"{"days": 31}"#,
            r#"{"initial": 1, "days": 1}"#,
            "{}",
        ] {
            let error = clock(bad).unwrap_err();
            assert_eq!(error.status.as_u16(), 400, "{bad}: {}", error.reason);
        }
    }

    #[test]
    fn a_new_game_request_is_read_once_into_its_setup() {
        let setup = new_game("same-device", Some("White")).parse().unwrap();
        assert_eq!((setup.mode, setup.colour, setup.position), (Mode::Local, Colour::Named("white".into()), None));
        assert_eq!(new_game("friend", Some("")).parse().unwrap().colour, Colour::Random);
        assert_eq!(new_game("computer", Some("SECOND")).parse().unwrap().colour, Colour::Player(Player::Second));
        let error = new_game("robot", None).parse().unwrap_err();
        assert_eq!(
            (error.status.as_u16(), error.reason.as_str()),
            (400, "unknown opponent \"robot\": expected computer, friend or local")
        );
        let long = NewGame { variant: "n".repeat(MAX_VARIANT_LEN + 1), ..new_game("local", None) };
        assert_eq!(long.parse().unwrap_err().reason, "variant or position text too long");
    }

    #[test]
    fn bodies_become_commands_or_form_errors() {
        let body = MoveBody { seat: Some("s".into()), text: "2".into(), ply: Some(3) };
        assert_eq!(
            body.parse("g".into()).unwrap(),
            Command::Act {
                game: "g".into(),
                seat: Some("s".into()),
                act: Act::Move { text: "2".into(), expected_ply: Some(3) }
            }
        );
        let long = MoveBody { seat: None, text: "1".repeat(MAX_MOVE_LEN + 1), ply: None };
        assert_eq!(long.parse("g".into()).unwrap_err().reason, "move text too long");
        let draw = DrawBody { seat: None, action: "withdraw".into() };
        assert!(matches!(draw.parse("g".into()).unwrap(), Command::Act { act: Act::Draw(DrawAction::Withdraw), .. }));
        let dance = DrawBody { seat: None, action: "dance".into() };
        assert_eq!(dance.parse("g".into()).unwrap_err().status.as_u16(), 400);
    }
}
