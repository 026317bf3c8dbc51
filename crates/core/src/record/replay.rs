//! Replaying a record through the rules.

use super::turns::TurnNumbers;
use super::{Ending, Record, RecordError, RecordResult};
use crate::{shown, Actor, DynGame, MoveError};

/// Makes a game from a variant string and a start position text (`None`:
/// the variant's start). `Err` is a one-line reason for people.
pub type MakeGame<'a> = dyn Fn(&str, Option<&str>) -> Result<Box<dyn DynGame>, String> + 'a;

/// A record replayed: the game after its last move, and what it began from
/// and how it ended.
pub struct Replayed {
    pub game: Box<dyn DynGame>,
    /// The `FEN` tag, when the record does not begin at the variant's start.
    pub start: Option<String>,
    /// The record's result.
    pub result: RecordResult,
    /// How the game ended: the rules' outcome, or else the record's result
    /// with its `Termination` tag (a resignation, an agreed draw); `None`
    /// while unfinished.
    pub ending: Option<Ending>,
}

impl std::fmt::Debug for Replayed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Replayed")
            .field("variant", &self.game.variant())
            .field("moves", &self.game.history())
            .field("start", &self.start)
            .field("result", &self.result)
            .field("ending", &self.ending)
            .finish()
    }
}

/// The reason an ending the rules did not decide gets when the record names none.
pub const UNNAMED_ENDING: &str = "result as recorded";

/// Plays `record` through the rules of the game `make` builds from its
/// `Variant` and `FEN` tags. The first malformed or illegal move is an
/// error naming its turn number, text and ply; a result that contradicts
/// the rules (a mate recorded as a draw, an ended game recorded as going
/// on) is an error too. Nothing is returned but a whole game.
pub fn replay(record: &Record, make: &MakeGame) -> Result<Replayed, RecordError> {
    let game_index = record.index;
    let header = |problem: String| RecordError::Header { game: game_index, problem };
    let variant = record
        .tag("Variant")
        .map(str::trim)
        .filter(|v| !v.is_empty())
        .ok_or_else(|| header("no Variant tag: it names the game (`[Variant \"lma\"]`)".into()))?;
    let start = match (record.tag("FEN").map(str::trim), record.tag("SetUp").map(str::trim)) {
        (Some("?"), _) => {
            return Err(header(
                "the start position is not given (FEN \"?\"): a record of a game with hidden \
                 information that is not over holds only its public part"
                    .into(),
            ))
        }
        (Some(_), Some("0")) => return Err(header("SetUp \"0\" says the standard start, but a FEN is given".into())),
        (None, Some("1")) => return Err(header("SetUp \"1\" needs a FEN tag with the start position".into())),
        (Some(fen), _) if fen != "startpos" => Some(fen.to_owned()),
        _ => None,
    };
    if let Some(tagged) = record.tag("Result") {
        match RecordResult::parse(tagged.trim()) {
            Some(result) if result == record.result => {}
            Some(result) => {
                return Err(header(format!(
                    "the Result tag says {} but the moves end with {}",
                    result.token(),
                    record.result.token()
                )))
            }
            None => return Err(header(format!("Result tag {}: expected 1-0, 0-1, 1/2-1/2 or *", shown(tagged)))),
        }
    }
    let mut game = make(variant, start.as_deref()).map_err(header)?;
    let mut numbers = TurnNumbers::default();
    for (index, mv) in record.moves.iter().enumerate() {
        let (label, _) = numbers.next(game.turn_player());
        let actor = game.to_act();
        if let Err(error) = game.play(&mv.text) {
            let mut problem = match error {
                MoveError::Syntax { problem, .. } => format!("malformed: {problem}"),
                MoveError::Illegal { reason, .. } => format!("illegal: {reason}"),
                MoveError::GameOver => "the game is already over".to_owned(),
            };
            if actor == Actor::Chance && game.has_hidden_information() {
                problem.push_str(
                    " (chance acts here: a record of a game with hidden information that is not over \
                     holds only its public part, without chance's moves)",
                );
            }
            return Err(RecordError::Move {
                game: game_index,
                ply: index + 1,
                number: label.to_string(),
                text: shown(&mv.text),
                problem,
            });
        }
    }
    let result = record.result;
    let ending = match (game.outcome(), result.winner()) {
        (Some(outcome), Some(winner)) if outcome.winner() == winner => {
            Some(Ending { winner, reason: outcome.reason().to_owned() })
        }
        (Some(outcome), _) => {
            let by_rules = RecordResult::finished(outcome.winner());
            return Err(RecordError::Result {
                game: game_index,
                problem: format!(
                    "the moves end the game ({}, {}) but the record's result is {}",
                    by_rules.token(),
                    outcome.reason(),
                    result.token()
                ),
            });
        }
        (None, Some(winner)) => {
            let reason = record.tag("Termination").map(str::trim).filter(|r| !r.is_empty() && *r != "?");
            Some(Ending { winner, reason: reason.unwrap_or(UNNAMED_ENDING).to_owned() })
        }
        (None, None) => None,
    };
    Ok(Replayed { game, start, result, ending })
}
