//! Which of a game's evaluations a searcher uses: the tuned one (the
//! weights in `data/eval/`), the handwritten one it replaced, kept as a
//! yardstick (`alphabeta:eval=handwritten`), or the game's features with
//! weights given at run time (for tuning by play, `menagerie tune --spsa`).

use menagerie_core::Evaluate;
use std::fmt;
use std::sync::Arc;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum EvalKind {
    #[default]
    Tuned,
    Handwritten,
    /// The game's features with these weights, in 1/`WEIGHT_SCALE`
    /// centi-units (as [`Evaluate::weights`]).
    Weights(Arc<[i32]>),
}

impl EvalKind {
    /// The names a player string may give (the weights are given only in code).
    pub const NAMES: [&'static str; 2] = ["tuned", "handwritten"];

    /// The static score of `game` for its actor.
    #[inline]
    pub fn of<G: Evaluate>(&self, game: &G) -> i32 {
        match self {
            EvalKind::Tuned => game.evaluate(),
            EvalKind::Handwritten => game.evaluate_handwritten(),
            EvalKind::Weights(weights) => game.evaluate_with(weights),
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
            EvalKind::Weights(_) => "weights",
        })
    }
}
