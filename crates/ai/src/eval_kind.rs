//! Which of a game's evaluations a searcher uses: the tuned one (the
//! weights in `data/eval/`), the learned one (the network in `data/nnue/`,
//! `alphabeta:eval=learned`), the handwritten one the tuned one replaced,
//! kept as a yardstick (`alphabeta:eval=handwritten`), or the game's
//! features with weights given at run time (for tuning by play,
//! `menagerie tune --spsa`).

use menagerie_core::nnue::{Base, Evaluator, Network};
use menagerie_core::Evaluate;
use std::fmt;
use std::sync::Arc;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum EvalKind {
    #[default]
    Tuned,
    /// The game's network; a game without one uses the tuned evaluation.
    Learned,
    Handwritten,
    /// The game's features with these weights, in 1/`WEIGHT_SCALE`
    /// centi-units (as [`Evaluate::weights`]).
    Weights(Arc<[i32]>),
}

impl EvalKind {
    /// The names a player string may give (the weights are given only in code).
    pub const NAMES: [&'static str; 3] = ["tuned", "learned", "handwritten"];

    /// The static score of `game` for its actor. The learned evaluation is
    /// computed from scratch here; a search keeps accumulators instead
    /// ([`StaticEval`]).
    #[inline]
    pub fn of<G: Evaluate>(&self, game: &G) -> i32 {
        match self {
            EvalKind::Tuned => game.evaluate(),
            EvalKind::Learned => game.evaluate_learned(),
            EvalKind::Handwritten => game.evaluate_handwritten(),
            EvalKind::Weights(weights) => game.evaluate_with(weights),
        }
    }

    pub fn parse(text: &str) -> Option<EvalKind> {
        match text {
            "tuned" => Some(EvalKind::Tuned),
            "learned" => Some(EvalKind::Learned),
            "handwritten" => Some(EvalKind::Handwritten),
            _ => None,
        }
    }
}

impl fmt::Display for EvalKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EvalKind::Tuned => "tuned",
            EvalKind::Learned => "learned",
            EvalKind::Handwritten => "handwritten",
            EvalKind::Weights(_) => "weights",
        })
    }
}

/// The evaluation of one search thread: for the learned one, the
/// network's accumulators, brought by difference from the last position
/// evaluated to each new one (`menagerie_core::nnue`), so that a search
/// pays for the inputs a move changed, not for all of them.
#[derive(Clone, Debug)]
pub struct StaticEval<G: Evaluate> {
    kind: EvalKind,
    learned: Option<(&'static Network, Evaluator)>,
    /// See [`crate::alphabeta::AlphaBetaConfig::lazy_margin`]; only for a
    /// network that corrects the tuned evaluation.
    lazy_margin: Option<i32>,
    game: std::marker::PhantomData<fn(&G)>,
}

impl<G: Evaluate> StaticEval<G> {
    pub fn new(kind: EvalKind) -> Self {
        Self::with_lazy_margin(kind, None)
    }

    /// With the learned evaluation, leaves the network out where the tuned
    /// evaluation is more than `margin` outside the window ([`Self::within`]).
    pub fn with_lazy_margin(kind: EvalKind, margin: Option<i32>) -> Self {
        let learned = match kind {
            EvalKind::Learned => G::network().map(|network| (network, Evaluator::new())),
            _ => None,
        };
        let lazy_margin = margin.filter(|_| learned.as_ref().is_some_and(|(network, _)| network.base == Base::Tuned));
        StaticEval { kind, learned, lazy_margin, game: std::marker::PhantomData }
    }

    /// The static score of `game` for its actor.
    #[inline]
    pub fn of(&mut self, game: &G) -> i32 {
        match &mut self.learned {
            Some((network, evaluator)) => evaluator.evaluate(network, game),
            None => self.kind.of(game),
        }
    }

    /// The static score of `game` for its actor, for a search whose window
    /// is `alpha..beta`: with a lazy margin, the tuned evaluation alone
    /// where it is more than the margin outside the window.
    #[inline]
    pub fn within(&mut self, game: &G, alpha: i32, beta: i32) -> i32 {
        match (&mut self.learned, self.lazy_margin) {
            (Some((network, evaluator)), Some(margin)) => {
                let tuned = game.evaluate();
                if tuned.saturating_sub(margin) >= beta || tuned.saturating_add(margin) <= alpha {
                    tuned
                } else {
                    evaluator.output(network, game).saturating_add(tuned)
                }
            }
            _ => self.of(game),
        }
    }
}
