//! Writing a game as a record.

use super::turns::TurnNumbers;
use super::{Ending, RecordResult};
use crate::{Actor, DynGame};

/// The tags a record carries besides those the game itself gives (result,
/// variant, start, termination). `None` is written `?` (unknown).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RecordInfo {
    pub event: Option<String>,
    pub site: Option<String>,
    /// `YYYY.MM.DD`
    pub date: Option<String>,
    pub round: Option<String>,
    /// Who played the first player (White, Blue).
    pub white: Option<String>,
    /// Who played the second player (Black, Red).
    pub black: Option<String>,
    /// PGN's form: `-` for none, `300+5` for 300 s plus 5 s a move.
    pub time_control: Option<String>,
    /// Further tags, written in this order after the others (a site's
    /// `GameId`, the players' `WhiteElo`, ...).
    pub extra: Vec<(String, String)>,
}

/// Movetext lines are cut before this many characters, as PGN asks.
const LINE_WIDTH: usize = 80;

/// The record of `game`, whose moves ([`DynGame::history`]) were all played
/// through it from `start` (`None`: the variant's start position).
/// `ending` is an end the rules did not decide (a resignation, an agreed
/// or adjudicated draw); without it the rules' outcome is the result.
///
/// A game with hidden information that is not over gets only its public
/// part: chance's moves (the cards dealt and drawn) are left out, and a
/// start position other than the variant's is written `?` (it holds the
/// hands). Such a record cannot be replayed until the game is over.
pub fn write_record(game: &dyn DynGame, start: Option<&str>, info: &RecordInfo, ending: Option<&Ending>) -> String {
    let ending = ending
        .cloned()
        .or_else(|| game.outcome().map(|o| Ending { winner: o.winner(), reason: o.reason().to_owned() }));
    let result = match &ending {
        Some(ending) => RecordResult::finished(ending.winner),
        None => RecordResult::Unfinished,
    };
    let public_only = game.has_hidden_information() && ending.is_none();
    let or_unknown = |value: &Option<String>| value.clone().unwrap_or_else(|| "?".to_owned());
    let mut tags = vec![
        ("Event", or_unknown(&info.event)),
        ("Site", or_unknown(&info.site)),
        ("Date", info.date.clone().unwrap_or_else(|| "????.??.??".to_owned())),
        ("Round", or_unknown(&info.round)),
        ("White", or_unknown(&info.white)),
        ("Black", or_unknown(&info.black)),
        ("Result", result.token().to_owned()),
        ("Variant", game.variant().to_owned()),
    ];
    if let Some(start) = start {
        tags.push(("SetUp", "1".to_owned()));
        tags.push(("FEN", if public_only { "?".to_owned() } else { start.to_owned() }));
    }
    tags.push(("TimeControl", or_unknown(&info.time_control)));
    if let Some(ending) = &ending {
        tags.push(("Termination", ending.reason.clone()));
    }
    tags.extend(info.extra.iter().map(|(name, value)| (name.as_str(), value.clone())));
    let mut out = String::new();
    for (name, value) in tags {
        out.push_str(&format!("[{name} \"{}\"]\n", escape(&value)));
    }
    out.push('\n');
    let mut tokens = movetext(game, public_only);
    tokens.push(result.token().to_owned());
    let mut line_length = 0;
    for token in tokens {
        if line_length > 0 && line_length + 1 + token.len() >= LINE_WIDTH {
            out.push('\n');
            line_length = 0;
        } else if line_length > 0 {
            out.push(' ');
            line_length += 1;
        }
        line_length += token.len();
        out.push_str(&token);
    }
    out.push_str("\n\n");
    out
}

/// The moves of `game` with their turn numbers, as the units lines are
/// cut between (a label with the move after it). A turn's label
/// is left out only where PGN leaves it out: a one-move turn of the second
/// player right after a one-move turn of the first (`1. e4 e5`).
fn movetext(game: &dyn DynGame, public_only: bool) -> Vec<String> {
    let moves = game.history().to_vec();
    let mut walk = game.box_clone();
    while walk.undo() {}
    // Every move with its turn, chance's hidden ones dropped.
    let mut turns: Vec<(super::TurnLabel, Vec<String>)> = Vec::new();
    let mut numbers = TurnNumbers::default();
    for text in moves {
        let (label, begins) = numbers.next(walk.turn_player());
        let hidden = public_only && walk.to_act() == Actor::Chance;
        if begins {
            turns.push((label, Vec::new()));
        }
        if walk.play(&text).is_err() {
            // The history came from this game's own moves, so this cannot
            // happen; a record cut short is the least harm if it did.
            break;
        }
        if !hidden {
            if let Some((_, texts)) = turns.last_mut() {
                texts.push(text);
            }
        }
    }
    turns.retain(|(_, texts)| !texts.is_empty());
    let mut tokens = Vec::new();
    let mut previous_single_first = false;
    for (label, texts) in turns {
        let single = texts.len() == 1;
        let elide = previous_single_first && single && label.player == crate::Player::Second;
        previous_single_first = single && label.player == crate::Player::First;
        let mut texts = texts.into_iter();
        let first = texts.next().unwrap_or_default();
        // A label stays on the line of its turn's first move.
        tokens.push(if elide { first } else { format!("{label} {first}") });
        tokens.extend(texts);
    }
    tokens
}

/// A tag value as PGN writes it: `\` and `"` escaped, no line breaks.
fn escape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '\\' | '"' => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// A `Date` tag's value, `YYYY.MM.DD` in UTC, for a time in seconds since
/// the Unix epoch.
pub fn pgn_date(unix_seconds: i64) -> String {
    // Days to a civil date (Howard Hinnant's algorithm), for the proleptic
    // Gregorian calendar.
    let days = unix_seconds.div_euclid(86_400) + 719_468;
    let era = days.div_euclid(146_097);
    let day_of_era = days - era * 146_097;
    let year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let shifted_month = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * shifted_month + 2) / 5 + 1;
    let month = if shifted_month < 10 { shifted_month + 3 } else { shifted_month - 9 };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    format!("{year:04}.{month:02}.{day:02}")
}
