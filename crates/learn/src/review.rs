//! A computer review of a finished game, as lichess gives one: an
//! evaluation and the best move for every ply, a judgment where a move lost
//! enough win chance, and for each player the counts, an average loss and
//! an accuracy.
//!
//! How it judges, and why so:
//! - Every position of the game is searched once with the same budget
//!   ([`ReviewBudget`]); its score is the value of best play there, from
//!   the view of whoever acts. A move's loss is the mover's expected score
//!   before it (best play) minus the expected score of the position it led
//!   to, seen from the mover, through the game's fitted win scale
//!   ([`crate::chances`]): the same thresholds then serve all five games.
//!   A move that is the search's best loses nothing (the two searches
//!   disagree only by their horizon).
//! - Judgments at lichess's thresholds (its `Advice`), on winning chances
//!   from -1 to 1: a loss of 0.1 is an Inaccuracy, 0.2 a Mistake, 0.3 a
//!   Blunder. A forced win counts as winning chances 1, a forced loss -1.
//! - Accuracy is lichess's (`AccuracyPercent`): each move's accuracy from
//!   the mover's win percent before and after it, and a player's accuracy
//!   the mean of the volatility-weighted mean and the harmonic mean of
//!   their moves' accuracies, the weights being the spread of the win
//!   percents in a window round each move.
//! - Kelasu: a turn is several actions, and each action is a move of the
//!   game model: each is judged on its own, for the player who made it
//!   (who acted, not whose ply number is odd).
//! - Lunch Chess is not reviewed: a decision must be judged by what its
//!   player could see, which needs many determinizations of the hidden
//!   hands at every ply (the information-set searcher) and chance's draws
//!   weighed in between; a single alpha-beta search on one sampled deal
//!   would call good decisions mistakes by luck. [`review`] says so.

use crate::chances::{negate, WinScale};
use menagerie_ai::{AlphaBeta, AlphaBetaConfig, Limits, Score, StopFlag};
use menagerie_core::{Actor, Evaluate, Game, GameVisitor, Player, VariantSpec};
use serde::Serialize;

/// lichess's thresholds on the loss of winning chances (-1 .. 1).
pub const INACCURACY: f64 = 0.1;
pub const MISTAKE: f64 = 0.2;
pub const BLUNDER: f64 = 0.3;

/// How much search each position of the game gets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReviewBudget {
    /// Nodes of alpha-beta for each position (deterministic on one thread).
    pub nodes: u64,
    /// Threads of each search.
    pub threads: usize,
    /// Transposition table, shared by the searches of one review.
    pub hash_megabytes: usize,
}

impl ReviewBudget {
    /// The budget a review of `game` (`lma`, `kelasu`: a variant's game)
    /// gets by default: a 60-ply game takes under 5 seconds on one core of
    /// the development machine (docs/learn.md, "Reviews", has the figures).
    pub fn for_game(game: &str) -> ReviewBudget {
        let nodes = match game {
            "kelasu" => 60_000,
            "lichen" => 80_000,
            _ => 150_000,
        };
        ReviewBudget { nodes, threads: 1, hash_megabytes: 32 }
    }
}

/// An evaluation of a position, from the first player's view, as lichess
/// writes one: centi-units of the game, or a forced result in plies (moves
/// of the game model), positive when the first player wins.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Eval {
    Cp(i32),
    Mate(i32),
}

impl Eval {
    fn of(score: Score) -> Eval {
        match score {
            Score::Cp(cp) => Eval::Cp(cp),
            Score::Win(n) => Eval::Mate(n.max(1) as i32),
            Score::Loss(n) => Eval::Mate(-(n.max(1) as i32)),
        }
    }
}

/// lichess's names of a judged move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub enum JudgmentName {
    Inaccuracy,
    Mistake,
    Blunder,
}

impl JudgmentName {
    /// The judgment of a loss of winning chances (-1 .. 1 scale), if any.
    pub fn of_loss(loss: f64) -> Option<JudgmentName> {
        if loss >= BLUNDER {
            Some(JudgmentName::Blunder)
        } else if loss >= MISTAKE {
            Some(JudgmentName::Mistake)
        } else if loss >= INACCURACY {
            Some(JudgmentName::Inaccuracy)
        } else {
            None
        }
    }

    /// The move list's mark: `?!`, `?`, `??`.
    pub fn glyph(self) -> &'static str {
        match self {
            JudgmentName::Inaccuracy => "?!",
            JudgmentName::Mistake => "?",
            JudgmentName::Blunder => "??",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Judgment {
    pub name: JudgmentName,
}

/// One move of the game, reviewed.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlyReview {
    /// The move's number in the game, from 1.
    pub ply: usize,
    /// The position after the move.
    pub eval: Eval,
    /// The search's best move in the position before it (`None` where
    /// chance acted).
    pub best: Option<String>,
    pub judgment: Option<Judgment>,
    /// Who made the move: `first`, `second`, or `None` for chance.
    #[serde(skip)]
    pub mover: Option<Player>,
    /// Winning chances (-1 .. 1) the move lost, for its mover.
    #[serde(skip)]
    pub loss: f64,
}

/// One player's figures.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlayerReview {
    pub inaccuracy: u32,
    pub mistake: u32,
    pub blunder: u32,
    /// The average loss a move in the game's centi-units, each score held
    /// within ±1000 and a forced result counted as ±1000 (lichess's ACPL,
    /// in this game's units).
    pub acpl: u32,
    /// lichess's game accuracy, 0 .. 100 (`None` without a move).
    pub accuracy: Option<f64>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Players {
    pub first: PlayerReview,
    pub second: PlayerReview,
}

/// The review: the shape of `GET /api/games/<id>/analysis` when done.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Review {
    pub plies: Vec<PlyReview>,
    pub players: Players,
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ReviewError {
    #[error("the review was cancelled")]
    Cancelled,
    #[error("{0}")]
    BadGame(String),
    #[error("{0} is not reviewed: its decisions must be judged by what each player could see (hidden hands), which a review at this budget cannot do fairly")]
    HiddenInformation(String),
}

/// Progress: positions searched so far, and how many there are.
pub type Progress<'a> = &'a mut dyn FnMut(usize, usize);

/// Reviews the game `variant` (a variant string) played from `start` (a
/// position text, `None` for the variant's start) with `moves` (move
/// texts), every move checked by the rules. `progress` is told after each
/// position; raising `stop` cancels the review.
pub fn review(
    variant: &str,
    start: Option<&str>,
    moves: &[String],
    budget: &ReviewBudget,
    progress: Progress<'_>,
    stop: &StopFlag,
) -> Result<Review, ReviewError> {
    struct Visit<'a> {
        start: Option<&'a str>,
        moves: &'a [String],
        budget: &'a ReviewBudget,
        progress: Progress<'a>,
        stop: &'a StopFlag,
        variant: String,
    }
    impl GameVisitor for Visit<'_> {
        type Output = Result<Review, ReviewError>;
        fn visit<G: Game + Evaluate + menagerie_core::Present + menagerie_core::Study + menagerie_core::Encode>(
            self,
            variant: G::Variant,
        ) -> Self::Output {
            if G::has_hidden_information() {
                return Err(ReviewError::HiddenInformation(self.variant));
            }
            let game = match self.start.map(str::trim).filter(|s| *s != "startpos") {
                Some(text) => G::from_text(&variant, text).map_err(|e| ReviewError::BadGame(e.to_string()))?,
                None => G::start(&variant, 0),
            };
            let mut line = Vec::with_capacity(self.moves.len());
            let mut position = game.clone();
            for (i, text) in self.moves.iter().enumerate() {
                let mv = position.parse_move(text).map_err(|e| ReviewError::BadGame(format!("move {}: {e}", i + 1)))?;
                position.play(mv);
                line.push(mv);
            }
            review_game(&game, &line, self.budget, self.progress, self.stop)
        }
    }
    let spec = VariantSpec::parse(variant).map_err(|e| ReviewError::BadGame(e.to_string()))?;
    let visit = Visit { start, moves, budget, progress, stop, variant: spec.to_string() };
    menagerie_games::visit(&spec, visit).map_err(|e| ReviewError::BadGame(e.to_string()))?
}

/// What the search says of one position of the game.
struct Judged<M> {
    /// From the view of the player who acts; `None` where chance acts.
    score: Option<Score>,
    best: Option<M>,
    actor: Actor,
}

/// [`review`] on the typed game: `line` are legal moves from `start`.
pub fn review_game<G: Game + Evaluate>(
    start: &G,
    line: &[G::Move],
    budget: &ReviewBudget,
    progress: Progress<'_>,
    stop: &StopFlag,
) -> Result<Review, ReviewError> {
    let scale = WinScale(G::win_scale());
    let mut searcher: AlphaBeta<G> = AlphaBeta::new(AlphaBetaConfig {
        threads: budget.threads.max(1),
        hash_megabytes: budget.hash_megabytes.max(1),
        ..AlphaBetaConfig::default()
    });
    let limits = Limits::nodes(budget.nodes.max(1));
    let mut positions = Vec::with_capacity(line.len() + 1);
    let mut position = start.clone();
    positions.push(position.clone());
    for &mv in line {
        position.play(mv);
        positions.push(position.clone());
    }
    let total = positions.len();
    let mut judged: Vec<Judged<G::Move>> = Vec::with_capacity(total);
    for (i, position) in positions.iter().enumerate() {
        if stop.is_stopped() {
            return Err(ReviewError::Cancelled);
        }
        judged.push(judge(position, &mut searcher, &limits, stop));
        if stop.is_stopped() {
            return Err(ReviewError::Cancelled);
        }
        progress(i + 1, total);
    }

    // Win percents of the first player at every position (chance's
    // positions take the value of the position before).
    let mut first_view: Vec<Score> = Vec::with_capacity(total);
    for j in &judged {
        let score = match (j.score, j.actor) {
            (Some(s), Actor::Player(Player::First)) => s,
            (Some(s), Actor::Player(Player::Second)) => negate(s),
            _ => first_view.last().copied().unwrap_or(Score::Cp(0)),
        };
        first_view.push(score);
    }

    let mut plies = Vec::with_capacity(line.len());
    for (i, &mv) in line.iter().enumerate() {
        let before = &judged[i];
        let mover = before.actor.player();
        let after_first = first_view[i + 1];
        let loss = match (mover, before.score) {
            (Some(player), Some(best_score)) if before.best != Some(mv) => {
                let after = if player == Player::First { after_first } else { negate(after_first) };
                (scale.winning_chances(best_score) - scale.winning_chances(after)).max(0.0)
            }
            _ => 0.0,
        };
        plies.push(PlyReview {
            ply: i + 1,
            eval: Eval::of(after_first),
            best: before.best.map(|b| positions[i].move_text(b)),
            judgment: mover.and(JudgmentName::of_loss(loss)).map(|name| Judgment { name }),
            mover,
            loss,
        });
    }
    let players = Players {
        first: player_review(Player::First, &plies, &first_view, &judged, scale),
        second: player_review(Player::Second, &plies, &first_view, &judged, scale),
    };
    Ok(Review { plies, players })
}

fn judge<G: Game + Evaluate>(
    position: &G,
    searcher: &mut AlphaBeta<G>,
    limits: &Limits,
    stop: &StopFlag,
) -> Judged<G::Move> {
    let actor = position.to_act();
    if let Some(outcome) = position.outcome() {
        // Seen from the player who would act: who that is no longer matters
        // once it is over, so take the first player.
        let score = match outcome.winner() {
            Some(Player::First) => Score::Win(0),
            Some(Player::Second) => Score::Loss(0),
            None => Score::Cp(0),
        };
        return Judged { score: Some(score), best: None, actor: Actor::Player(Player::First) };
    }
    match actor {
        Actor::Chance => Judged { score: None, best: None, actor },
        Actor::Player(_) => {
            let result = searcher.search(position, limits, stop, &mut |_| {});
            Judged { score: Some(result.info.score), best: result.best, actor }
        }
    }
}

/// A move's accuracy from the mover's win percent before and after it
/// (lichess's curve, fitted to its games, with its one point of allowance).
pub fn move_accuracy(before: f64, after: f64) -> f64 {
    if after >= before {
        return 100.0;
    }
    let raw = 103.1668100711649 * (-0.04354415386753951 * (before - after)).exp() - 3.166924740191411;
    (raw + 1.0).clamp(0.0, 100.0)
}

fn std_dev(values: &[f64]) -> f64 {
    let mean = values.iter().sum::<f64>() / values.len() as f64;
    (values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / values.len() as f64).sqrt()
}

/// The weight of each move: the spread (standard deviation, held within
/// 0.5 .. 12) of the first player's win percents in a window round it, as
/// lichess weighs them: calm positions count less than sharp ones.
pub fn volatility_weights(win_percents: &[f64]) -> Vec<f64> {
    let moves = win_percents.len().saturating_sub(1);
    let size = (moves / 10).clamp(2, 8).min(win_percents.len());
    if size < 2 {
        return vec![1.0; moves];
    }
    let first = &win_percents[..size];
    let mut windows: Vec<&[f64]> = vec![first; size - 2];
    windows.extend(win_percents.windows(size));
    windows.iter().take(moves).map(|w| std_dev(w).clamp(0.5, 12.0)).collect()
}

/// lichess's game accuracy of one player: the mean of the weighted mean and
/// the harmonic mean of the accuracies of their moves (a 0 counts as 1 in
/// the harmonic mean, which would otherwise be 0 for one lost piece).
pub fn game_accuracy(moves: &[(f64, f64)]) -> Option<f64> {
    if moves.is_empty() {
        return None;
    }
    let weight: f64 = moves.iter().map(|(_, w)| w).sum();
    let weighted = moves.iter().map(|(a, w)| a * w).sum::<f64>() / weight;
    let harmonic = moves.len() as f64 / moves.iter().map(|(a, _)| 1.0 / a.max(1.0)).sum::<f64>();
    Some((weighted + harmonic) / 2.0)
}

fn player_review<M>(
    player: Player,
    plies: &[PlyReview],
    first_view: &[Score],
    judged: &[Judged<M>],
    scale: WinScale,
) -> PlayerReview {
    let win_percents: Vec<f64> = first_view.iter().map(|&s| scale.win_percent(s)).collect();
    let weights = volatility_weights(&win_percents);
    let mut review = PlayerReview { inaccuracy: 0, mistake: 0, blunder: 0, acpl: 0, accuracy: None };
    let mut accuracies = Vec::new();
    let mut loss_sum = 0i64;
    for (i, ply) in plies.iter().enumerate() {
        if ply.mover != Some(player) {
            continue;
        }
        match ply.judgment.map(|j| j.name) {
            Some(JudgmentName::Inaccuracy) => review.inaccuracy += 1,
            Some(JudgmentName::Mistake) => review.mistake += 1,
            Some(JudgmentName::Blunder) => review.blunder += 1,
            None => {}
        }
        let own = |s: Score| if player == Player::First { s } else { negate(s) };
        let after = own(first_view[i + 1]);
        // Before: best play as the search saw it, from the mover's view (the
        // mover acted there); a best move lost nothing.
        let before = if ply.loss == 0.0 { after } else { judged[i].score.unwrap_or(after) };
        loss_sum += i64::from((clamped_cp(before) - clamped_cp(after)).max(0));
        let accuracy = move_accuracy(scale.win_percent(before), scale.win_percent(after));
        accuracies.push((accuracy, weights.get(i).copied().unwrap_or(1.0)));
    }
    if !accuracies.is_empty() {
        review.acpl = (loss_sum as f64 / accuracies.len() as f64).round() as u32;
    }
    review.accuracy = game_accuracy(&accuracies);
    review
}

fn clamped_cp(score: Score) -> i32 {
    match score {
        Score::Cp(cp) => cp.clamp(-1000, 1000),
        Score::Win(_) => 1000,
        Score::Loss(_) => -1000,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thresholds_are_lichess_s() {
        assert_eq!(JudgmentName::of_loss(0.09), None);
        assert_eq!(JudgmentName::of_loss(0.1), Some(JudgmentName::Inaccuracy));
        assert_eq!(JudgmentName::of_loss(0.25), Some(JudgmentName::Mistake));
        assert_eq!(JudgmentName::of_loss(0.3), Some(JudgmentName::Blunder));
        assert_eq!(JudgmentName::Blunder.glyph(), "??");
    }

    #[test]
    fn accuracy_follows_the_curve() {
        assert_eq!(move_accuracy(50.0, 60.0), 100.0);
        assert_eq!(move_accuracy(50.0, 50.0), 100.0);
        // A loss of 10 win percent: 103.17·e^-0.4354 - 3.17 + 1, about 64.6.
        let ten = move_accuracy(60.0, 50.0);
        assert!((ten - 64.58).abs() < 0.05, "{ten}");
        assert_eq!(move_accuracy(100.0, 0.0), 0.0);
        // The harmonic mean punishes one bad move more than the mean does.
        let steady = game_accuracy(&[(90.0, 1.0), (90.0, 1.0)]).unwrap();
        let uneven = game_accuracy(&[(100.0, 1.0), (80.0, 1.0)]).unwrap();
        assert!((steady - 90.0).abs() < 1e-9 && uneven < steady, "{steady} {uneven}");
        assert_eq!(game_accuracy(&[]), None);
    }

    #[test]
    fn calm_positions_weigh_less_than_sharp_ones() {
        let mut wins = vec![50.0; 30];
        wins.extend([80.0, 20.0, 90.0, 10.0]);
        let weights = volatility_weights(&wins);
        assert_eq!(weights.len(), wins.len() - 1);
        assert_eq!(weights[0], 0.5);
        assert!(weights[weights.len() - 1] > 10.0, "{weights:?}");
    }
}
