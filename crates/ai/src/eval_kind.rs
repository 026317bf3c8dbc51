//! Which of a game's evaluations a searcher uses: the tuned one (the
//! weights in `data/eval/`), or the handwritten one it replaced, kept as
//! a yardstick (`alphabeta:eval=handwritten`).

use menagerie_core::Evaluate;
use std::fmt;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EvalKind {
    #[default]
    Tuned,
    Handwritten,
}

impl EvalKind {
    pub const NAMES: [&'static str; 2] = ["tuned", "handwritten"];

    /// The static score of `game` for its actor.
    #[inline]
    pub fn of<G: Evaluate>(self, game: &G) -> i32 {
        match self {
            EvalKind::Tuned => game.evaluate(),
            EvalKind::Handwritten => game.evaluate_handwritten(),
        }
    }

    pub fn parse(text: &str) -> Option<EvalKind> {
        match text {
            "tuned" => Some(EvalKind::Tuned),
            "handwritten" => Some(EvalKind::Handwritten),
            _ => None,
        }
    }
}

impl fmt::Display for EvalKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EvalKind::Tuned => "tuned",
            EvalKind::Handwritten => "handwritten",
        })
    }
}
