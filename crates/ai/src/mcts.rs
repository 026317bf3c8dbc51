//! Monte Carlo tree search (UCT) for any game, and its information-set
//! form (single-observer ISMCTS, Cowling, Powley and Whitehouse 2012).
//!
//! The tree is keyed by moves. In information-set mode every iteration
//! starts from a fresh [`Game::determinize`] of the root for the player who
//! must decide, so the search never looks at the real hidden state: a child
//! is "available" when its move is legal in this iteration's sample, and
//! UCB uses availability counts in place of the parent's visits. Chance
//! moves are sampled with [`Game::chance_probability`].
//!
//! Playouts are uniformly random to the end of the game, or, with a
//! cut-off, stopped after that many plies (and chance's moves after them)
//! and scored by the game's evaluation through a logistic curve.

use crate::alphabeta::ordering::FxHasher;
use crate::eval_kind::EvalKind;
use crate::info::{Info, Score};
use crate::limits::{Budget, Limits, StopFlag};
use menagerie_core::{sample_weighted, Actor, Evaluate, Game, Player};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::collections::HashMap;
use std::hash::BuildHasherDefault;

#[derive(Clone, Debug)]
pub struct MctsConfig {
    /// The UCB exploration constant (rewards are in 0..=1).
    pub exploration: f64,
    /// Determinize the root for the deciding player every iteration.
    pub information_set: bool,
    /// Stop playouts after this many plies and score them with the evaluation.
    pub playout_cutoff: Option<u32>,
    /// The tree stops growing at this many nodes (playouts go on).
    pub max_tree_nodes: usize,
    pub seed: u64,
    /// Which evaluation scores a playout stopped at the cut-off.
    pub eval: EvalKind,
    /// Information sets: sample with what the game's past made public
    /// (cards seen going back into a hand), not from the position alone.
    pub remember_public: bool,
    /// Turn a cut-off playout's score into a win chance with the scale the
    /// tuner fitted ([`Evaluate::win_scale`]), not as if 400 centi-units
    /// were 10 to 1 whatever the game.
    pub calibrated: bool,
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig {
            exploration: 1.0,
            information_set: false,
            playout_cutoff: None,
            max_tree_nodes: 4_000_000,
            seed: 1,
            eval: EvalKind::Tuned,
            remember_public: true,
            calibrated: true,
        }
    }
}

struct Node<M> {
    /// The move that led here (none at the root).
    mv: Option<M>,
    /// Who made that move (none for the root and chance moves).
    mover: Option<Player>,
    visits: u32,
    /// Times this node's move was legal when its parent was visited.
    available: u32,
    /// Sum of the mover's rewards over the playouts through this node.
    reward: f64,
    first_child: u32,
    next_sibling: u32,
}

const NONE: u32 = u32::MAX;

/// The result of one MCTS decision.
#[derive(Clone, Debug)]
pub struct MctsResult<M> {
    pub best: Option<M>,
    /// Visits of each root move, most visited first.
    pub root_visits: Vec<(M, u32)>,
    pub info: Info,
}

pub struct Mcts<G: Game + Evaluate> {
    pub config: MctsConfig,
    rng: SmallRng,
    nodes: Vec<Node<G::Move>>,
    children: HashMap<(u32, G::Move), u32, BuildHasherDefault<FxHasher>>,
}

impl<G: Game + Evaluate> Mcts<G> {
    pub fn new(config: MctsConfig) -> Self {
        Mcts { rng: SmallRng::seed_from_u64(config.seed), config, nodes: Vec::new(), children: HashMap::default() }
    }

    /// Restarts the random generator (for reproducible tests).
    pub fn reseed(&mut self, seed: u64) {
        self.rng = SmallRng::seed_from_u64(seed);
    }

    /// Decides for whoever acts in `root`. In information-set mode the only
    /// things read from `root` itself are who acts, whether the game is
    /// over, and the determinizations it hands out.
    pub fn search(
        &mut self,
        root: &G,
        limits: &Limits,
        stop: &StopFlag,
        on_info: &mut dyn FnMut(&Info),
    ) -> MctsResult<G::Move> {
        let budget = Budget::new(limits, stop);
        self.nodes.clear();
        self.children.clear();
        self.nodes.push(Node {
            mv: None,
            mover: None,
            visits: 0,
            available: 0,
            reward: 0.0,
            first_child: NONE,
            next_sibling: NONE,
        });
        let me = match (root.outcome(), root.to_act()) {
            (None, Actor::Player(p)) => p,
            _ => {
                let info =
                    Info { depth: 0, seldepth: 0, score: Score::Cp(0), nodes: 0, time: budget.elapsed(), pv: vec![] };
                return MctsResult { best: None, root_visits: Vec::new(), info };
            }
        };
        let information_set = self.config.information_set || G::has_hidden_information();
        // Forgetting the past: the root as if set up from its text, which
        // carries no history.
        let forgetful;
        let root = match (information_set, self.config.remember_public) {
            (true, false) => {
                forgetful = G::from_text(root.variant(), &root.to_text()).unwrap_or_else(|_| root.clone());
                &forgetful
            }
            _ => root,
        };
        // The first sample names the moves of the reports; in perfect
        // information it is the root itself, played forward and back.
        let first_sample = if information_set { root.determinize(me, &mut self.rng) } else { root.clone() };
        let mut work = first_sample.clone();
        let mut moves = Vec::new();
        let mut untried = Vec::new();
        let mut path = Vec::new();
        let mut iterations = 0u64;
        let mut next_report = 1024u64;
        let max_iterations = budget.node_limit;
        while iterations < max_iterations && !(iterations > 0 && budget.expired()) {
            if information_set && iterations > 0 {
                work = root.determinize(me, &mut self.rng);
            }
            let played = self.iterate(&mut work, &mut moves, &mut untried, &mut path);
            if !information_set {
                for _ in 0..played {
                    work.undo();
                }
            }
            iterations += 1;
            if iterations == next_report {
                next_report *= 4;
                let info = self.info(&first_sample, me, iterations, &budget);
                on_info(&info);
            }
        }
        let info = self.info(&first_sample, me, iterations, &budget);
        let mut root_visits: Vec<(G::Move, u32)> = self
            .child_indices(0)
            .map(|c| (self.nodes[c as usize].mv.expect("a child has a move"), self.nodes[c as usize].visits))
            .collect();
        root_visits.sort_by_key(|&(_, visits)| std::cmp::Reverse(visits));
        let best = self.most_visited_child(0).and_then(|c| self.nodes[c as usize].mv);
        MctsResult { best, root_visits, info }
    }

    fn child_indices(&self, node: u32) -> impl Iterator<Item = u32> + '_ {
        let mut next = self.nodes[node as usize].first_child;
        std::iter::from_fn(move || {
            (next != NONE).then(|| {
                let current = next;
                next = self.nodes[current as usize].next_sibling;
                current
            })
        })
    }

    /// The most visited child; among equals, the best average reward.
    fn most_visited_child(&self, node: u32) -> Option<u32> {
        self.child_indices(node).max_by(|&a, &b| {
            let (a, b) = (&self.nodes[a as usize], &self.nodes[b as usize]);
            let mean = |n: &Node<G::Move>| n.reward / f64::from(n.visits.max(1));
            a.visits.cmp(&b.visits).then(mean(a).total_cmp(&mean(b)))
        })
    }

    /// One selection-expansion-playout-backpropagation pass; returns how
    /// many moves it played on `state`.
    fn iterate(
        &mut self,
        state: &mut G,
        moves: &mut Vec<G::Move>,
        untried: &mut Vec<G::Move>,
        path: &mut Vec<u32>,
    ) -> usize {
        path.clear();
        path.push(0);
        let mut node = 0u32;
        let mut played = 0usize;
        // Selection and expansion (an empty move list means the game is over).
        loop {
            state.legal_moves(moves);
            if moves.is_empty() {
                break;
            }
            let actor = state.to_act();
            let player = match actor {
                Actor::Chance => {
                    let mv = sample_weighted(state, moves, &mut self.rng);
                    node = self.child_or_new(node, mv, None);
                    state.play(mv);
                    played += 1;
                    path.push(node);
                    continue;
                }
                Actor::Player(p) => p,
            };
            untried.clear();
            let mut best = None;
            let mut best_ucb = f64::NEG_INFINITY;
            let c = self.config.exploration;
            for &mv in moves.iter() {
                match self.children.get(&(node, mv)) {
                    Some(&child) => {
                        let n = &mut self.nodes[child as usize];
                        n.available += 1;
                        let visits = f64::from(n.visits.max(1));
                        let ucb = n.reward / visits + c * (f64::from(n.available).ln() / visits).sqrt();
                        if ucb > best_ucb {
                            best_ucb = ucb;
                            best = Some((child, mv));
                        }
                    }
                    None => untried.push(mv),
                }
            }
            if !untried.is_empty() && self.nodes.len() < self.config.max_tree_nodes {
                let mv = untried[self.rng.random_range(0..untried.len())];
                let child = self.child_or_new(node, mv, Some(player));
                self.nodes[child as usize].available += 1;
                state.play(mv);
                played += 1;
                path.push(child);
                break;
            }
            let Some((child, mv)) = best else { break };
            state.play(mv);
            played += 1;
            node = child;
            path.push(child);
        }
        // Playout. A cut-off playout is scored where a player acts: chance
        // goes on acting past the cut-off (the evaluation is a player's).
        let mut plies = 0u32;
        let cutoff = self.config.playout_cutoff.unwrap_or(u32::MAX);
        while plies < cutoff || state.to_act() == Actor::Chance {
            let Some(mv) = state.random_move(&mut self.rng, moves) else { break };
            state.play(mv);
            played += 1;
            plies += 1;
        }
        let rewards = playout_rewards(state, &self.config.eval, self.config.calibrated);
        // Backpropagation.
        for &index in path.iter() {
            let n = &mut self.nodes[index as usize];
            n.visits += 1;
            if let Some(p) = n.mover {
                n.reward += rewards[p.index()];
            }
        }
        played
    }

    fn child_or_new(&mut self, parent: u32, mv: G::Move, mover: Option<Player>) -> u32 {
        if let Some(&child) = self.children.get(&(parent, mv)) {
            return child;
        }
        let index = self.nodes.len() as u32;
        let sibling = self.nodes[parent as usize].first_child;
        self.nodes.push(Node {
            mv: Some(mv),
            mover,
            visits: 0,
            available: 0,
            reward: 0.0,
            first_child: NONE,
            next_sibling: sibling,
        });
        self.nodes[parent as usize].first_child = index;
        self.children.insert((parent, mv), index);
        index
    }

    /// A report: the most visited line, its win rate as a score.
    fn info(&self, sample: &G, me: Player, iterations: u64, budget: &Budget) -> Info {
        let mut line = Vec::new();
        let mut node = 0u32;
        while let Some(child) = self.most_visited_child(node) {
            if self.nodes[child as usize].visits < 2 && !line.is_empty() {
                break;
            }
            line.push(self.nodes[child as usize].mv.expect("a child has a move"));
            node = child;
        }
        let score = match self.most_visited_child(0) {
            Some(best) => {
                let n = &self.nodes[best as usize];
                let rate = n.reward / f64::from(n.visits.max(1));
                // The reward is the mover's, and the root mover is `me`.
                debug_assert!(n.mover.is_none() || n.mover == Some(me));
                Score::from_probability(rate)
            }
            None => Score::Cp(0),
        };
        let pv = crate::alphabeta::pv_texts(sample, &line);
        Info { depth: pv.len() as u32, seldepth: pv.len() as u32, score, nodes: iterations, time: budget.elapsed(), pv }
    }
}

/// Each player's reward for the state a playout ended in: 1 win, 0.5 draw,
/// 0 loss; at a cut-off, the evaluation through a logistic curve: with the
/// game's fitted scale `K` ([`Evaluate::win_scale`]), 400/K centi-units are
/// odds of ten to one (400 when uncalibrated).
fn playout_rewards<G: Game + Evaluate>(state: &G, eval: &EvalKind, calibrated: bool) -> [f64; 2] {
    if let Some(outcome) = state.outcome() {
        return Player::BOTH.map(|p| f64::from(outcome.score_for(p) + 1) / 2.0);
    }
    match state.to_act() {
        Actor::Player(p) => {
            // The fitted scale belongs to the tuned weights and to the
            // network, which is trained on that scale.
            let fitted = matches!(eval, EvalKind::Tuned | EvalKind::Learned);
            let scale = if calibrated && fitted { G::win_scale() } else { 1.0 };
            let mine = win_chance(eval.of(state), scale);
            let mut rewards = [0.0; 2];
            rewards[p.index()] = mine;
            rewards[p.other().index()] = 1.0 - mine;
            rewards
        }
        Actor::Chance => [0.5, 0.5],
    }
}

/// The expected score of a player whose position scores `score`
/// centi-units, at win scale `scale`.
fn win_chance(score: i32, scale: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-scale * f64::from(score) / 400.0))
}

#[cfg(test)]
mod tests {
    use super::win_chance;

    #[test]
    fn a_score_means_what_its_scale_says() {
        assert!((win_chance(400, 1.0) - 10.0 / 11.0).abs() < 1e-12);
        assert_eq!(win_chance(0, 0.074), 0.5);
        // Lunch Chess's fit: 400 centi-units are a small edge, not 10 to 1.
        let lunch = win_chance(400, 0.074);
        assert!(lunch > 0.54 && lunch < 0.55, "{lunch}");
        assert!((win_chance(-400, 0.074) - (1.0 - lunch)).abs() < 1e-12);
    }
}
