//! Alpha-beta search for any game: negamax from the view of whoever acts,
//! negating only when the actor changes (a Kelasu turn is several actions
//! by one player), principal variation search with late-move reductions,
//! iterative deepening with aspiration windows, a transposition table,
//! TT-move / tactical / killer / history ordering, null-move pruning and
//! check extensions where the game allows them, and a quiescence search
//! over the game's tactical moves (and every move while in check). A chance
//! move is a ply like any other: a chance node is the expectation of its
//! outcomes (expectimax, no pruning below it), weighted by
//! [`Game::chance_probability`] when it has at most
//! [`AlphaBetaConfig::chance_samples`] of them, else estimated from that
//! many outcomes drawn with their probabilities (a card drawn from a pile of
//! twenty kinds, five times in a row, would otherwise multiply the tree by
//! millions); below the nominal depth one outcome is drawn.
//!
//! Several threads search the same position at once ("Lazy SMP"): they
//! share the transposition table, which is how they help each other. So
//! that they do not all walk the same tree in step, the helpers start
//! every other iteration one ply deeper, and a thread puts off the moves
//! another is searching (simplified ABDADA, see `busy`). The main thread
//! decides; a helper's result is used when it completed a deeper iteration.
//!
//! Scores are centi-units from the actor's view; a won game is
//! `G::WIN - plies to the end`, so shorter wins score higher.

mod busy;
pub(crate) mod ordering;
mod tt;
mod worker;

use crate::eval_kind::EvalKind;
use crate::info::{Info, Score};
use crate::limits::{Budget, Limits, StopFlag};
use busy::BusyMoves;
use menagerie_core::{Actor, Evaluate, Game, Outcome, Player};
use rand::rngs::SmallRng;
use rand::SeedableRng;
use std::sync::{Arc, Mutex};
use tt::Table;
use worker::{Completed, Worker};

/// Deepest nominal depth iterative deepening will try.
const MAX_DEPTH: u32 = 100;

/// Settings of an alpha-beta searcher.
#[derive(Clone, Debug)]
pub struct AlphaBetaConfig {
    /// Transposition table size (shared by the threads).
    pub hash_megabytes: usize,
    /// How many plies quiescence may go beyond the nominal depth.
    pub quiescence_plies: u32,
    /// Seed for the sample of hidden state (games with hidden information
    /// are searched on one determinization from the actor's view) and of
    /// chance's outcomes.
    pub seed: u64,
    /// Threads searching at once (Lazy SMP); 1 or more.
    pub threads: usize,
    /// Which evaluation scores the leaves.
    pub eval: EvalKind,
    /// Search the first moves of an iteration in a window around the last
    /// iteration's score.
    pub aspiration: bool,
    /// Try passing (where the game allows it) to prune hopeless lines.
    pub null_move: bool,
    /// Search one ply deeper below a check.
    pub check_extension: bool,
    /// With several threads, a thread puts off the moves another is
    /// searching (see `busy`).
    pub defer: bool,
    /// A chance node with more outcomes than this is estimated from this
    /// many outcomes drawn with their probabilities.
    pub chance_samples: usize,
    /// With the learned evaluation (whose network corrects the tuned one):
    /// where the tuned evaluation lies more than this many centi-units
    /// outside the search's window, the network's correction is assumed
    /// not to bring it back in, and the tuned evaluation alone is the
    /// score. `None`: the network is always computed. A node left out
    /// costs nothing of the network, and the next position the network
    /// judges is brought up to date from the last one it did.
    pub lazy_margin: Option<i32>,
}

impl Default for AlphaBetaConfig {
    fn default() -> Self {
        AlphaBetaConfig {
            hash_megabytes: 16,
            quiescence_plies: 12,
            seed: 1,
            threads: 1,
            eval: EvalKind::Tuned,
            aspiration: true,
            null_move: true,
            check_extension: true,
            defer: true,
            chance_samples: 4,
            lazy_margin: None,
        }
    }
}

/// The result of one alpha-beta search.
#[derive(Clone, Debug)]
pub struct SearchResult<M> {
    pub best: Option<M>,
    /// Score in negamax units from the root actor's view.
    pub value: i32,
    /// The moves of the principal variation.
    pub pv: Vec<M>,
    /// The report of the last completed (or interrupted) iteration.
    pub info: Info,
    /// With [`Limits::near_best`]: the root moves within that margin of
    /// the best and their scores, best first (the chosen move among them).
    pub near_best: Vec<(M, i32)>,
}

pub struct AlphaBeta<G: Game + Evaluate> {
    config: AlphaBetaConfig,
    table: Arc<Table>,
    /// One per thread; kept between searches for their move-ordering memory.
    workers: Vec<Worker<G>>,
    nodes: u64,
    rng: SmallRng,
}

impl<G: Game + Evaluate> Default for AlphaBeta<G> {
    fn default() -> Self {
        Self::new(AlphaBetaConfig::default())
    }
}

impl<G: Game + Evaluate> AlphaBeta<G> {
    pub fn new(config: AlphaBetaConfig) -> Self {
        let table = Arc::new(Table::new(config.hash_megabytes));
        let busy = (config.threads > 1 && config.defer).then(|| Arc::new(BusyMoves::new()));
        let workers =
            (0..config.threads.max(1)).map(|id| Worker::new(id, &config, Arc::clone(&table), busy.clone())).collect();
        AlphaBeta { rng: SmallRng::seed_from_u64(config.seed), table, workers, config, nodes: 0 }
    }

    pub fn config(&self) -> &AlphaBetaConfig {
        &self.config
    }

    /// Forgets everything learnt (for a new game).
    pub fn clear(&mut self) {
        self.table.clear();
        for worker in &mut self.workers {
            worker.clear();
        }
    }

    /// Nodes visited by the last search, every thread's together.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Searches `game` within `limits`, calling `on_info` after every
    /// completed iteration of the main thread. Returns no move only when
    /// the game is over.
    pub fn search(
        &mut self,
        game: &G,
        limits: &Limits,
        stop: &StopFlag,
        on_info: &mut dyn FnMut(&Info),
    ) -> SearchResult<G::Move> {
        self.nodes = 0;
        self.table.new_search();
        let budget = Budget::new(limits, stop);

        let mut root_moves = Vec::new();
        game.legal_moves(&mut root_moves);
        let empty_info =
            |score| Info { depth: 0, seldepth: 0, score, nodes: 0, time: budget.elapsed(), pv: Vec::new() };
        let me = match game.to_act() {
            Actor::Player(p) if !root_moves.is_empty() => p,
            _ => {
                // Over, or chance to act: nothing for a player to decide.
                let info = empty_info(Score::Cp(0));
                return SearchResult {
                    best: root_moves.first().copied(),
                    value: 0,
                    pv: Vec::new(),
                    info,
                    near_best: Vec::new(),
                };
            }
        };
        let position = if G::has_hidden_information() { game.determinize(me, &mut self.rng) } else { game.clone() };
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let plan = Plan {
            me,
            max_depth,
            single_reply: root_moves.len() == 1 && limits.depth.is_none(),
            near_best: limits.near_best.unwrap_or(0),
        };
        let helpers_best: Mutex<Option<Completed<G::Move>>> = Mutex::new(None);

        let (main, helpers) = self.workers.split_first_mut().expect("at least one worker");
        let main_result = if helpers.is_empty() {
            main.iterate(&position, &plan, &budget, on_info, None)
        } else {
            std::thread::scope(|scope| {
                for helper in helpers.iter_mut() {
                    let (position, plan, budget, best) = (&position, &plan, &budget, &helpers_best);
                    scope.spawn(move || helper.iterate(position, plan, budget, &mut |_| {}, Some(best)));
                }
                let result = main.iterate(&position, &plan, &budget, on_info, None);
                budget.finish();
                result
            })
        };
        self.nodes = budget.used();

        // A helper that completed a deeper iteration knows better.
        let chosen = match helpers_best.into_inner().unwrap_or_else(|poisoned| poisoned.into_inner()) {
            Some(helper) if main_result.as_ref().is_none_or(|m| helper.depth > m.depth) => Some(helper),
            _ => main_result,
        };
        let time = budget.elapsed();
        match chosen {
            Some(done) => {
                let best = done.pv.first().copied().or(Some(root_moves[0]));
                let info = Info {
                    depth: done.depth,
                    seldepth: done.seldepth,
                    score: Score::from_search(done.value, G::WIN),
                    nodes: self.nodes,
                    time,
                    pv: pv_texts(&position, &done.pv),
                };
                let mut near_best = done.near_best;
                if let Some(chosen) = best.filter(|_| limits.near_best.is_some()) {
                    if !near_best.iter().any(|&(mv, _)| mv == chosen) {
                        near_best = vec![(chosen, done.value)];
                    }
                }
                SearchResult { best, value: done.value, pv: done.pv, info, near_best }
            }
            None => SearchResult {
                best: Some(root_moves[0]),
                value: 0,
                pv: vec![root_moves[0]],
                info: Info { nodes: self.nodes, ..empty_info(Score::Cp(0)) },
                near_best: Vec::new(),
            },
        }
    }
}

/// What every thread of one search is asked to do.
pub(crate) struct Plan {
    /// Who acts at the root.
    me: Player,
    max_depth: u32,
    /// One legal move and no depth asked for: one iteration is enough.
    single_reply: bool,
    /// [`Limits::near_best`], 0 without.
    near_best: i32,
}

/// The value of a finished game for `me`, `ply` moves from the root.
fn terminal_value(outcome: &Outcome, me: Player, ply: usize, win: i32) -> i32 {
    match outcome.score_for(me) {
        1 => win - ply as i32,
        -1 => -(win - ply as i32),
        _ => 0,
    }
}

/// The texts of a line of moves from `game`.
pub fn pv_texts<G: Game>(game: &G, line: &[G::Move]) -> Vec<String> {
    let mut position = game.clone();
    let mut texts = Vec::with_capacity(line.len());
    let mut legal = Vec::new();
    for &mv in line {
        position.legal_moves(&mut legal);
        if !legal.contains(&mv) {
            break;
        }
        texts.push(position.move_text(mv));
        position.play(mv);
    }
    texts
}
