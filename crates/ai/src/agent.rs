//! Players the computer can be: a trait over the searches, and the simple
//! players (random, greedy) beside the searching ones.

use crate::alphabeta::AlphaBeta;
use crate::eval_kind::EvalKind;
use crate::info::Info;
use crate::limits::{Limits, StopFlag};
use crate::mcts::Mcts;
use menagerie_core::{sample_chance, sample_weighted, Actor, Evaluate, Game};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::collections::HashMap;

/// What an agent decided: a move (none only when the game is over) and the
/// last report of its search, if it searched.
#[derive(Clone, Debug)]
pub struct Decision<M> {
    pub best: Option<M>,
    pub info: Option<Info>,
    /// With [`Limits::near_best`], alpha-beta's root moves within that
    /// margin of the best and their scores (the best among them); empty
    /// otherwise.
    pub near_best: Vec<(M, i32)>,
}

impl<M> Decision<M> {
    /// A decision without near-best moves (every player but alpha-beta
    /// asked for them).
    pub fn new(best: Option<M>, info: Option<Info>) -> Self {
        Decision { best, info, near_best: Vec::new() }
    }
}

/// A computer player for game `G`.
pub trait Agent<G: Game + Evaluate>: Send {
    /// Chooses a move for whoever acts in `game` (a player, not chance).
    /// A time per turn in `limits` is shared among the turn's actions.
    fn decide(
        &mut self,
        game: &G,
        limits: &Limits,
        stop: &StopFlag,
        on_info: &mut dyn FnMut(&Info),
    ) -> Decision<G::Move>;

    /// Forgets what it learnt from earlier positions (a new game starts).
    fn new_game(&mut self) {}
}

/// Uniformly random legal moves.
pub struct RandomAgent {
    rng: SmallRng,
}

impl RandomAgent {
    pub fn new(seed: u64) -> Self {
        RandomAgent { rng: SmallRng::seed_from_u64(seed) }
    }
}

impl<G: Game + Evaluate> Agent<G> for RandomAgent {
    fn decide(&mut self, game: &G, _: &Limits, _: &StopFlag, _: &mut dyn FnMut(&Info)) -> Decision<G::Move> {
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        let best = match game.to_act() {
            Actor::Chance if !moves.is_empty() => Some(sample_weighted(game, &moves, &mut self.rng)),
            _ if moves.is_empty() => None,
            _ => Some(moves[self.rng.random_range(0..moves.len())]),
        };
        Decision::new(best, None)
    }
}

/// One move ahead: the move after which the evaluation (from the mover's
/// view) is best, a won game first; ties broken at random. In games with
/// hidden information it judges a sample of what it cannot see, and where
/// chance acts after the move, a sample of chance's moves.
pub struct Greedy {
    rng: SmallRng,
    eval: EvalKind,
}

impl Greedy {
    pub fn new(seed: u64) -> Self {
        Greedy::with_eval(seed, EvalKind::Tuned)
    }

    pub fn with_eval(seed: u64, eval: EvalKind) -> Self {
        Greedy { rng: SmallRng::seed_from_u64(seed), eval }
    }
}

impl<G: Game + Evaluate> Agent<G> for Greedy {
    fn decide(&mut self, game: &G, _: &Limits, _: &StopFlag, _: &mut dyn FnMut(&Info)) -> Decision<G::Move> {
        let me = match (game.outcome(), game.to_act()) {
            (Some(_), _) => return Decision::new(None, None),
            (None, Actor::Chance) => return Decision::new(sample_chance(game, &mut self.rng), None),
            (None, Actor::Player(p)) => p,
        };
        let mut position = if G::has_hidden_information() { game.determinize(me, &mut self.rng) } else { game.clone() };
        let mut moves = Vec::new();
        position.legal_moves(&mut moves);
        let mut best = Vec::new();
        let mut best_value = i64::MIN;
        for &mv in &moves {
            position.play(mv);
            // Where chance acts next (a draw), one sample of its moves.
            let mut chance_moves = 0;
            while let Some(outcome) = sample_chance(&position, &mut self.rng) {
                position.play(outcome);
                chance_moves += 1;
            }
            let value = match (position.outcome(), position.to_act()) {
                (Some(outcome), _) => i64::from(outcome.score_for(me)) * i64::from(G::WIN),
                (None, Actor::Player(p)) if p == me => i64::from(self.eval.of(&position)),
                (None, Actor::Player(_)) => -i64::from(self.eval.of(&position)),
                (None, Actor::Chance) => 0,
            };
            for _ in 0..=chance_moves {
                position.undo();
            }
            if value > best_value {
                best_value = value;
                best.clear();
            }
            if value == best_value {
                best.push(mv);
            }
        }
        let choice = (!best.is_empty()).then(|| best[self.rng.random_range(0..best.len())]);
        Decision::new(choice, None)
    }
}

/// Alpha-beta (on as many threads as its configuration says).
pub(crate) struct AlphaBetaAgent<G: Game + Evaluate>(pub AlphaBeta<G>);

impl<G: Game + Evaluate> Agent<G> for AlphaBetaAgent<G> {
    fn decide(
        &mut self,
        game: &G,
        limits: &Limits,
        stop: &StopFlag,
        on_info: &mut dyn FnMut(&Info),
    ) -> Decision<G::Move> {
        let result = self.0.search(game, &limits.for_decision(game), stop, on_info);
        Decision { best: result.best, info: Some(result.info), near_best: result.near_best }
    }
    fn new_game(&mut self) {
        self.0.clear();
    }
}

/// MCTS, one tree per thread ("root parallelism"): the trees grow from
/// different random streams, and their root visit counts are added up.
pub(crate) struct MctsAgent<G: Game + Evaluate> {
    pub trees: Vec<Mcts<G>>,
}

impl<G: Game + Evaluate> Agent<G> for MctsAgent<G> {
    fn decide(
        &mut self,
        game: &G,
        limits: &Limits,
        stop: &StopFlag,
        on_info: &mut dyn FnMut(&Info),
    ) -> Decision<G::Move> {
        if game.outcome().is_none() && game.to_act() == Actor::Chance {
            let mut rng = SmallRng::seed_from_u64(self.trees[0].config.seed);
            return Decision::new(sample_chance(game, &mut rng), None);
        }
        let limits = limits.for_decision(game);
        let (main, helpers) = self.trees.split_first_mut().expect("at least one tree");
        if helpers.is_empty() {
            let result = main.search(game, &limits, stop, on_info);
            return Decision::new(result.best, Some(result.info));
        }
        // A playout budget is split among the trees, adding up to it.
        let threads = helpers.len() as u64 + 1;
        let share = |index: u64| {
            let mut own = limits.clone();
            own.nodes = limits.nodes.map(|n| n / threads + u64::from(index < n % threads));
            own
        };
        let (main_result, helper_results) = std::thread::scope(|scope| {
            let handles: Vec<_> = helpers
                .iter_mut()
                .enumerate()
                .map(|(i, tree)| {
                    let own = share(i as u64 + 1);
                    scope.spawn(move || tree.search(game, &own, stop, &mut |_| {}))
                })
                .collect();
            let main_result = main.search(game, &share(0), stop, on_info);
            let helper_results: Vec<_> = handles.into_iter().filter_map(|h| h.join().ok()).collect();
            (main_result, helper_results)
        });
        let mut visits: HashMap<G::Move, u64> = HashMap::new();
        let mut order = Vec::new();
        let mut playouts = main_result.info.nodes;
        for result in std::iter::once(&main_result).chain(&helper_results) {
            for &(mv, n) in &result.root_visits {
                let total = visits.entry(mv).or_insert_with(|| {
                    order.push(mv);
                    0
                });
                *total += u64::from(n);
            }
        }
        for result in &helper_results {
            playouts += result.info.nodes;
        }
        // The most visited move; among equals, the one seen first.
        let best = order.iter().rev().copied().max_by_key(|mv| visits[mv]).or(main_result.best);
        let mut info = main_result.info;
        info.nodes = playouts;
        Decision::new(best, Some(info))
    }
}
