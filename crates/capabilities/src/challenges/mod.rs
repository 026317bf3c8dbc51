//! Challenges (lichess's, docs/api.md "Challenges"): one account asks
//! another for a game with a variant, a clock and a colour; the other
//! accepts (the game starts, each seat held by its account) or declines,
//! and the challenger may cancel. An unanswered challenge expires. The
//! rules here are pure; what is stored is [`crate::store::challenges`],
//! the routes `http/challenges.rs`.

use crate::clock::TimeControl;
use crate::command::{ClockBody, Colour, Setup};
use crate::error::ApiError;
use crate::store::Mode;
use menagerie_core::{shown, Player};
use serde_json::{json, Map, Value};

/// An unanswered challenge ends this long after it was made (lichess's
/// challenges last about as long while the challenger waits).
pub const EXPIRES_AFTER_MS: i64 = 20 * 60 * 1000;

/// The variant of a challenge that names none (lichess's default is
/// `standard`, which Menagerie does not have).
pub const DEFAULT_VARIANT: &str = "lma";

/// Where a challenge stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Created,
    Accepted,
    Declined,
    Canceled,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Created => "created",
            Status::Accepted => "accepted",
            Status::Declined => "declined",
            Status::Canceled => "canceled",
        }
    }

    pub fn parse(text: &str) -> Option<Status> {
        [Status::Created, Status::Accepted, Status::Declined, Status::Canceled]
            .into_iter()
            .find(|status| status.as_str() == text)
    }
}

/// The colour the challenger asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColourChoice {
    White,
    Black,
    Random,
}

impl ColourChoice {
    pub fn as_str(self) -> &'static str {
        match self {
            ColourChoice::White => "white",
            ColourChoice::Black => "black",
            ColourChoice::Random => "random",
        }
    }

    pub fn parse(text: &str) -> Result<ColourChoice, ApiError> {
        match text {
            "white" => Ok(ColourChoice::White),
            "black" => Ok(ColourChoice::Black),
            "random" | "" => Ok(ColourChoice::Random),
            other => Err(ApiError::bad_request(format!("color {}: expected white, black or random", shown(other)))),
        }
    }

    /// The creator's side of a game (white is the first player, whatever
    /// the game calls it: Kelasu's Blue).
    fn colour(self) -> Colour {
        match self {
            ColourChoice::White => Colour::Player(Player::First),
            ColourChoice::Black => Colour::Player(Player::Second),
            ColourChoice::Random => Colour::Random,
        }
    }
}

/// lichess's name of a side: the first player is `white`, the second
/// `black`, whatever the game calls them.
pub fn colour_name(player: Player) -> &'static str {
    match player {
        Player::First => "white",
        Player::Second => "black",
    }
}

/// lichess's reasons to decline, by key, and the words it shows.
pub const DECLINE_REASONS: [(&str, &str); 11] = [
    ("generic", "I'm not accepting challenges at the moment."),
    ("later", "This is not the right time for me, please ask again later."),
    ("tooFast", "This time control is too fast for me, please challenge again with a slower game."),
    ("tooSlow", "This time control is too slow for me, please challenge again with a faster game."),
    ("timeControl", "I'm not accepting challenges with this time control."),
    ("rated", "Please send me a rated challenge instead."),
    ("casual", "Please send me a casual challenge instead."),
    ("standard", "I'm not accepting variant challenges right now."),
    ("variant", "I'm not willing to play this variant right now."),
    ("noBot", "I'm not accepting challenges from bots."),
    ("onlyBot", "I'm only accepting challenges from bots."),
];

/// A decline's reason key: one of lichess's (in any case), `generic` for
/// none or one it does not know (as lichess does).
pub fn decline_reason(text: Option<&str>) -> &'static str {
    let text = text.unwrap_or("").trim();
    DECLINE_REASONS.iter().find(|(key, _)| key.eq_ignore_ascii_case(text)).map_or("generic", |(key, _)| key)
}

/// The words of a decline's reason key.
pub fn decline_words(key: &str) -> &'static str {
    DECLINE_REASONS.iter().find(|(k, _)| *k == key).map_or(DECLINE_REASONS[0].1, |(_, words)| words)
}

/// What a challenge asks for, checked for form (the hub checks the
/// variant: [`crate::hub::Hub::check_setup`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Terms {
    pub variant: String,
    pub rated: bool,
    pub clock: Option<TimeControl>,
    pub colour: ColourChoice,
}

impl Terms {
    /// The terms of a request's fields, as lichess names them (`rated`,
    /// `clock.limit` and `clock.increment` in seconds, `days`, `color`,
    /// `variant`), each a JSON value or a form's text; a `null` is absent.
    pub fn from_fields(fields: &Map<String, Value>) -> Result<Terms, ApiError> {
        let variant = text_field(fields, "variant")?.unwrap_or_else(|| DEFAULT_VARIANT.to_owned());
        if variant.len() > crate::command::MAX_VARIANT_LEN {
            return Err(ApiError::bad_request("variant text too long"));
        }
        let rated = bool_field(fields, "rated")?.unwrap_or(false);
        let colour = ColourChoice::parse(&text_field(fields, "color")?.unwrap_or_default())?;
        let clock = clock_of(fields)?;
        if let Some(fen) = text_field(fields, "fen")? {
            if !fen.is_empty() {
                return Err(ApiError::bad_request("a challenge starts from the variant's start position: no fen"));
            }
        }
        Ok(Terms { variant, rated, clock, colour })
    }

    /// The game this challenge starts, the challenger its creator.
    pub fn setup(&self, mode: Mode, level: Option<String>) -> Setup {
        Setup {
            variant: self.variant.clone(),
            position: None,
            mode,
            level,
            colour: self.colour.colour(),
            seed: None,
            time_control: self.clock,
            rated: self.rated,
        }
    }
}

/// A request's time control: `clock.limit` (+ `clock.increment`) seconds,
/// or `days` a move, or neither (unlimited).
pub fn clock_of(fields: &Map<String, Value>) -> Result<Option<TimeControl>, ApiError> {
    let limit = number_field(fields, "clock.limit")?;
    let increment = number_field(fields, "clock.increment")?;
    let days = number_field(fields, "days")?;
    if limit.is_none() && increment.is_none() && days.is_none() {
        return Ok(None);
    }
    if days.is_some() && (limit.is_some() || increment.is_some()) {
        return Err(ApiError::bad_request("a challenge has a clock (clock.limit, clock.increment) or days, not both"));
    }
    if increment.is_some() && limit.is_none() {
        return Err(ApiError::bad_request("clock.increment needs clock.limit"));
    }
    let days = days
        .map(|d| {
            if d.fract() == 0.0 && d >= 0.0 {
                Ok(d as u64)
            } else {
                Err(ApiError::bad_request("days: a whole number"))
            }
        })
        .transpose()?;
    ClockBody { initial: limit, increment, days }.parse().map(Some)
}

/// A field given as text (JSON string or form), if present and not null.
pub fn text_field(fields: &Map<String, Value>, name: &str) -> Result<Option<String>, ApiError> {
    match fields.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(text)) => Ok(Some(text.clone())),
        Some(Value::Number(n)) => Ok(Some(n.to_string())),
        Some(_) => Err(ApiError::bad_request(format!("{name}: expected text"))),
    }
}

fn bool_field(fields: &Map<String, Value>, name: &str) -> Result<Option<bool>, ApiError> {
    match fields.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Bool(b)) => Ok(Some(*b)),
        Some(Value::String(text)) if text == "true" => Ok(Some(true)),
        Some(Value::String(text)) if text == "false" => Ok(Some(false)),
        Some(_) => Err(ApiError::bad_request(format!("{name}: expected true or false"))),
    }
}

fn number_field(fields: &Map<String, Value>, name: &str) -> Result<Option<f64>, ApiError> {
    let number = match fields.get(name) {
        None | Some(Value::Null) => return Ok(None),
        Some(Value::Number(n)) => n.as_f64(),
        Some(Value::String(text)) => text.trim().parse::<f64>().ok(),
        Some(_) => None,
    };
    match number {
        Some(n) if n.is_finite() && n >= 0.0 => Ok(Some(n)),
        _ => Err(ApiError::bad_request(format!("{name}: expected a number, 0 or more"))),
    }
}

/// lichess's speed of a time control (its estimate: the limit plus 40
/// increments).
pub fn speed(clock: Option<TimeControl>) -> &'static str {
    match clock {
        None => "correspondence",
        Some(TimeControl::Correspondence { .. }) => "correspondence",
        Some(TimeControl::Fischer { initial_ms, increment_ms }) => {
            let estimate = (initial_ms + 40 * increment_ms) / 1000;
            match estimate {
                0..30 => "ultraBullet",
                30..180 => "bullet",
                180..480 => "blitz",
                480..1500 => "rapid",
                _ => "classical",
            }
        }
    }
}

/// lichess's `timeControl` of a challenge.
pub fn time_control_json(clock: Option<TimeControl>) -> Value {
    match clock {
        None => json!({ "type": "unlimited" }),
        Some(TimeControl::Correspondence { per_move_ms }) => {
            json!({ "type": "correspondence", "daysPerTurn": per_move_ms / (24 * 3600 * 1000) })
        }
        Some(TimeControl::Fischer { initial_ms, increment_ms }) => json!({
            "type": "clock",
            "limit": initial_ms / 1000,
            "increment": increment_ms / 1000,
            "show": format!("{}+{}", shown_minutes(initial_ms), increment_ms / 1000),
        }),
    }
}

/// A time control in words, for people (a notification).
pub fn time_words(clock: Option<TimeControl>) -> String {
    match clock {
        None => "unlimited time".into(),
        Some(TimeControl::Correspondence { per_move_ms }) => {
            let days = per_move_ms / (24 * 3600 * 1000);
            format!("{days} day{} a move", if days == 1 { "" } else { "s" })
        }
        Some(TimeControl::Fischer { initial_ms, increment_ms }) => {
            format!("{}+{}", shown_minutes(initial_ms), increment_ms / 1000)
        }
    }
}

fn shown_minutes(ms: u64) -> String {
    match ms {
        15_000 => "¼".into(),
        30_000 => "½".into(),
        45_000 => "¾".into(),
        90_000 => "1.5".into(),
        _ if ms.is_multiple_of(60_000) => (ms / 60_000).to_string(),
        _ => format!("{:.1}", ms as f64 / 60_000.0),
    }
}

/// The computer level a `POST /api/challenge/ai` names: a level id, or
/// lichess's number 1 to 8, counted along `levels` (weakest first; past
/// the last, the strongest).
pub fn computer_level(named: Option<&str>, levels: &[String]) -> Result<Option<String>, ApiError> {
    let Some(named) = named.map(str::trim).filter(|n| !n.is_empty()) else { return Ok(None) };
    if levels.iter().any(|l| l == named) {
        return Ok(Some(named.to_owned()));
    }
    match named.parse::<usize>() {
        Ok(n) if (1..=8).contains(&n) && !levels.is_empty() => Ok(Some(levels[(n - 1).min(levels.len() - 1)].clone())),
        _ => Err(ApiError::bad_request(format!(
            "level {}: expected 1 to 8 or one of {}",
            shown(named),
            levels.join(", ")
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(value: Value) -> Map<String, Value> {
        value.as_object().unwrap().clone()
    }

    #[test]
    fn terms_read_lichess_fields_from_json_or_forms() {
        let terms = Terms::from_fields(&fields(json!({
            "rated": true, "clock.limit": 300, "clock.increment": 2, "days": null,
            "color": "black", "variant": "kelasu", "fen": null
        })))
        .unwrap();
        assert_eq!(
            terms,
            Terms {
                variant: "kelasu".into(),
                rated: true,
                clock: Some(TimeControl::Fischer { initial_ms: 300_000, increment_ms: 2000 }),
                colour: ColourChoice::Black,
            }
        );
        let form = Terms::from_fields(&fields(json!({ "rated": "false", "days": "3" }))).unwrap();
        assert_eq!(form.variant, DEFAULT_VARIANT);
        assert_eq!(form.clock, Some(TimeControl::Correspondence { per_move_ms: 3 * 24 * 3600 * 1000 }));
        assert_eq!(form.colour, ColourChoice::Random);
        assert_eq!(Terms::from_fields(&Map::new()).unwrap().clock, None);
    }

    #[test]
    fn bad_terms_are_refused_saying_why() {
        for (bad, says) in [
            (json!({ "color": "green" }), "color"),
            (json!({ "rated": "yes" }), "rated"),
            (json!({ "clock.limit": -5 }), "clock.limit"),
            (json!({ "clock.limit": 60, "days": 2 }), "not both"),
            (json!({ "clock.increment": 2 }), "clock.limit"),
            (json!({ "days": 1.5 }), "days"),
            (json!({ "fen": "8/8/8" }), "fen"),
        ] {
            let error = Terms::from_fields(&fields(bad.clone())).unwrap_err();
            assert_eq!(error.status.as_u16(), 400, "{bad}");
            assert!(error.reason.contains(says), "{bad}: {}", error.reason);
        }
    }

    #[test]
    fn speeds_and_time_controls_are_lichess_s() {
        let clock = |s: u64, i: u64| Some(TimeControl::Fischer { initial_ms: s * 1000, increment_ms: i * 1000 });
        assert_eq!(speed(clock(15, 0)), "ultraBullet");
        assert_eq!(speed(clock(60, 1)), "bullet");
        assert_eq!(speed(clock(180, 2)), "blitz");
        assert_eq!(speed(clock(600, 5)), "rapid");
        assert_eq!(speed(clock(1800, 0)), "classical");
        assert_eq!(speed(None), "correspondence");
        assert_eq!(time_control_json(clock(300, 3))["show"], "5+3");
        assert_eq!(time_control_json(None)["type"], "unlimited");
        assert_eq!(time_words(None), "unlimited time");
        assert_eq!(time_words(Some(TimeControl::Correspondence { per_move_ms: 86_400_000 })), "1 day a move");
        assert_eq!(time_words(clock(300, 3)), "5+3");
    }

    #[test]
    fn decline_reasons_are_lichess_keys_else_generic() {
        assert_eq!(decline_reason(Some("tooFast")), "tooFast");
        assert_eq!(decline_reason(Some("toofast")), "tooFast");
        assert_eq!(decline_reason(Some("whatever")), "generic");
        assert_eq!(decline_reason(None), "generic");
        assert!(decline_words("noBot").contains("bots"));
    }

    #[test]
    fn computer_levels_are_ids_or_lichess_numbers() {
        let levels = ["random", "easy", "hard"].map(String::from);
        assert_eq!(computer_level(Some("easy"), &levels).unwrap().as_deref(), Some("easy"));
        assert_eq!(computer_level(Some("1"), &levels).unwrap().as_deref(), Some("random"));
        assert_eq!(computer_level(Some("8"), &levels).unwrap().as_deref(), Some("hard"));
        assert_eq!(computer_level(None, &levels).unwrap(), None);
        assert_eq!(computer_level(Some("9"), &levels).unwrap_err().status.as_u16(), 400);
    }
}
