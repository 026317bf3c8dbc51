use crate::nnue::Network;
use crate::{Game, Player};

/// Weights of a linear evaluation are stored in 1/16 centi-units, so that
/// small terms (a few centi-units per move of mobility) keep their
/// precision in integer arithmetic.
pub const WEIGHT_SCALE: i32 = 16;

/// What a search needs to know about a game beyond its rules. Every method
/// has a default, so a game is searchable (by MCTS, or by alpha-beta with a
/// flat evaluation) with an empty `impl Evaluate for MyGame {}`; each game
/// refines it in its own `eval.rs`.
///
/// The evaluation is linear: the game names its features
/// ([`Evaluate::FEATURES`]), reports their values in a position
/// ([`Evaluate::features`]), and its weights come from data
/// ([`Evaluate::weights`], fitted by `menagerie tune`).
pub trait Evaluate: Game {
    /// The names of the evaluation's features, in weight order (empty: the
    /// game has no tunable evaluation).
    const FEATURES: &'static [&'static str] = &[];

    /// The name of the weights file under `data/eval/` (without `.toml`),
    /// shared by a game's variants; empty for a game without one.
    const WEIGHTS_FILE: &'static str = "";

    /// The weights of [`Evaluate::FEATURES`], in 1/[`WEIGHT_SCALE`]
    /// centi-units, one per feature.
    fn weights() -> &'static [i32] {
        &[]
    }

    /// Reports each feature of this position that is not zero, from the
    /// view of the player who acts now (typically own minus the other's).
    fn features<T: Terms>(&self, _terms: &mut T) {}

    /// How sure a score is of the result: the scale `K` the tuner fitted
    /// with the weights (data files' `win_scale`), so that a score `E`
    /// predicts the player's expected score as `1 / (1 + 10^(-K·E/400))`.
    /// MCTS turns a cut-off playout's score into a reward with it.
    fn win_scale() -> f64 {
        1.0
    }

    /// A static score of the position for the player who acts now: positive
    /// is good for them. Units are centi-units (a LMA/Fluid pawn is 100); the
    /// search reserves |score| >= [`Evaluate::WIN`] - 1000 for won/lost games.
    /// By default the weighted sum of the features.
    #[inline]
    fn evaluate(&self) -> i32 {
        self.evaluate_with(Self::weights())
    }

    /// The weighted sum of the features with `weights` (in 1/[`WEIGHT_SCALE`]
    /// centi-units, as [`Evaluate::weights`]): the evaluation with weights
    /// given at run time, as tuning by play tries them.
    #[inline]
    fn evaluate_with(&self, weights: &[i32]) -> i32 {
        let mut sum = WeightedSum::new(weights);
        self.features(&mut sum);
        sum.centi_units()
    }

    /// The evaluation the game had before its weights were fitted, kept so
    /// that every change can be measured against it
    /// (`alphabeta:eval=handwritten`). Games without one use [`Evaluate::evaluate`].
    fn evaluate_handwritten(&self) -> i32 {
        self.evaluate()
    }

    /// Whether a move changes material or is otherwise forcing (captures,
    /// promotions, conversions): the moves a quiescence search looks at.
    fn is_tactical(&self, _mv: Self::Move) -> bool {
        false
    }

    /// Whether [`Game::outcome`] alone tells that a game is over, cheaply:
    /// no position without a legal move is ever one it calls going on. Then
    /// quiescence judges the static value first and lists the tactical
    /// moves only when it has to search them. Chess-like games, which find
    /// mate and stalemate by listing moves, keep the default.
    const OUTCOME_KNOWS_THE_END: bool = false;

    /// Fills `moves` with the tactical moves ([`Evaluate::is_tactical`]) for
    /// quiescence, and says whether the game goes on (false: it is over and
    /// `moves` is empty). Games with many quiet moves generate only the
    /// tactical ones.
    fn tactical_moves(&self, moves: &mut Vec<Self::Move>) -> bool {
        self.legal_moves(moves);
        let going_on = !moves.is_empty();
        moves.retain(|&mv| self.is_tactical(mv));
        going_on
    }

    /// The legal moves in two batches, for a search that may stop after the
    /// first: fills `moves` with the first batch and says whether a second
    /// may follow ([`Evaluate::later_moves`]). Games with huge numbers of
    /// similar quiet moves (Kelasu's merges) put those second, so that a
    /// cut-off by an early move never generates them. By default every
    /// legal move comes in the first batch.
    fn first_moves(&self, moves: &mut Vec<Self::Move>) -> bool {
        self.legal_moves(moves);
        false
    }

    /// Appends the second batch of [`Evaluate::first_moves`] to `moves`
    /// (the two batches are the legal moves, each once).
    fn later_moves(&self, _moves: &mut Vec<Self::Move>) {}

    /// The actions left in the current turn, this one included, and how
    /// many the turn had when it started, as far as the position tells: for
    /// sharing one turn's thinking time among its actions (Kelasu). Games
    /// of one move per turn keep `(1, 1)`.
    fn turn_actions(&self) -> (u32, u32) {
        (1, 1)
    }

    /// Whether the search may try passing here (null-move pruning): only
    /// in games where a pass is rarely the best move (no zugzwang), with no
    /// check on the board and material to spare.
    fn null_move_allowed(&self) -> bool {
        false
    }

    /// Passes the move to the other player (only when
    /// [`Evaluate::null_move_allowed`]); [`Evaluate::undo_null`] takes it back.
    fn play_null(&mut self) {}

    fn undo_null(&mut self) {}

    /// The name and version of the learned evaluation's inputs (`lma-1`),
    /// which a network file must have been trained on; empty for a game
    /// without a learned evaluation.
    const LEARNED_FEATURES: &'static str = "";

    /// How many inputs the learned evaluation has (each active input is
    /// below this).
    const LEARNED_INPUTS: usize = 0;

    /// The learned evaluation's network ([`crate::nnue`]), built in from
    /// `data/nnue/`: `None` for a game without one.
    fn network() -> Option<&'static Network> {
        None
    }

    /// The alpha-beta player's default lazy margin with the learned
    /// evaluation (`lazy=N` in a player string): where the tuned evaluation
    /// lies more than this many centi-units outside the window, the
    /// network's correction is left out. Chosen per game by matches against
    /// the tuned evaluation (docs/nnue.md, "Lazy"); `None`: always computed.
    const LEARNED_LAZY_MARGIN: Option<i32> = None;

    /// Appends the inputs active in this position as `perspective` sees it
    /// (in any order, the same way each time: the accumulators skip the
    /// start and end a list shares with the last; one may appear twice and
    /// counts twice). Only what that player may see: a hidden hand is never
    /// an input.
    fn learned_inputs(&self, _perspective: Player, _inputs: &mut Vec<u16>) {}

    /// The learned evaluation from scratch, for the player who acts
    /// (the searches keep accumulators instead: [`crate::nnue::Evaluator`]);
    /// the tuned one for a game without a network.
    fn evaluate_learned(&self) -> i32 {
        match Self::network() {
            Some(network) => {
                let us = self.to_act().player().unwrap_or(Player::First);
                let own = crate::nnue::sorted_inputs(self, us);
                let theirs = crate::nnue::sorted_inputs(self, us.other());
                let output = network.evaluate(&own, &theirs);
                match network.base {
                    crate::nnue::Base::Nothing => output,
                    crate::nnue::Base::Tuned => output.saturating_add(self.evaluate()),
                }
            }
            None => self.evaluate(),
        }
    }

    /// The score of a won game, before distance-to-win adjustment.
    const WIN: i32 = 1_000_000;
}

/// Receives the features of a position: `value` of feature `index`.
pub trait Terms {
    fn add(&mut self, feature: usize, value: i32);
}

/// Sums features times weights: the evaluation.
pub struct WeightedSum<'a> {
    weights: &'a [i32],
    sum: i64,
}

impl<'a> WeightedSum<'a> {
    #[inline]
    pub fn new(weights: &'a [i32]) -> Self {
        WeightedSum { weights, sum: 0 }
    }

    /// The sum in centi-units, rounded towards zero.
    #[inline]
    pub fn centi_units(&self) -> i32 {
        (self.sum / i64::from(WEIGHT_SCALE)).clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
    }
}

impl Terms for WeightedSum<'_> {
    #[inline(always)]
    fn add(&mut self, feature: usize, value: i32) {
        if let Some(&weight) = self.weights.get(feature) {
            self.sum += i64::from(weight) * i64::from(value);
        }
    }
}

/// Collects the features as a dense vector (for tuning and tests).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FeatureVector(pub Vec<i32>);

impl FeatureVector {
    pub fn of<G: Evaluate>(game: &G) -> FeatureVector {
        let mut vector = FeatureVector(vec![0; G::FEATURES.len()]);
        game.features(&mut vector);
        vector
    }
}

impl Terms for FeatureVector {
    fn add(&mut self, feature: usize, value: i32) {
        if let Some(slot) = self.0.get_mut(feature) {
            *slot += value;
        }
    }
}
