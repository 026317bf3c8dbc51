use thiserror::Error;

/// A position text that cannot be turned into a position.
///
/// `Syntax` errors say where (`"board 1, rank 7"`, `"field 3 (hands)"`) and
/// what was wrong; `Invalid` is a well-formed text that leaves the rules
/// undefined (two white kings, the side not to move in check).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PositionError {
    #[error("bad position text at {location}: {problem}")]
    Syntax { location: String, problem: String },
    #[error("invalid position: {0}")]
    Invalid(String),
}

impl PositionError {
    pub fn syntax(location: impl Into<String>, problem: impl Into<String>) -> Self {
        PositionError::Syntax { location: location.into(), problem: problem.into() }
    }

    pub fn invalid(reason: impl Into<String>) -> Self {
        PositionError::Invalid(reason.into())
    }
}

/// A move text that is not a legal move in the position it was given for.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MoveError {
    #[error("malformed move text {text:?}: {problem}")]
    Syntax { text: String, problem: String },
    #[error("illegal move {text:?}: {reason}")]
    Illegal { text: String, reason: String },
    #[error("no move can be played: the game is over")]
    GameOver,
}

impl MoveError {
    pub fn syntax(text: &str, problem: impl Into<String>) -> Self {
        MoveError::Syntax { text: text.to_owned(), problem: problem.into() }
    }

    pub fn illegal(text: &str, reason: impl Into<String>) -> Self {
        MoveError::Illegal { text: text.to_owned(), reason: reason.into() }
    }
}
