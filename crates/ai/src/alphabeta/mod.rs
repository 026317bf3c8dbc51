//! Alpha-beta search for any game: negamax from the view of whoever acts,
//! negating only when the actor changes (a Kelasu turn is several actions
//! by one player), principal variation search with late-move reductions,
//! iterative deepening, a transposition table, TT-move / tactical / killer
//! / history ordering, and a quiescence search over the game's tactical
//! moves (and every move while in check). A chance move is a ply like any
//! other: a chance node is the expectation of its outcomes (expectimax, no
//! pruning below it), weighted by [`Game::chance_probability`] when it has
//! at most [`AlphaBetaConfig::chance_samples`] of them, else estimated from
//! that many outcomes drawn with their probabilities (a card drawn from a
//! pile of twenty kinds, five times in a row, would otherwise multiply the
//! tree by millions); below the nominal depth one outcome is drawn.
//!
//! Scores are centi-units from the actor's view; a won game is
//! `G::WIN - plies to the end`, so shorter wins score higher.

pub(crate) mod ordering;
mod tt;

use crate::info::{Info, Score};
use crate::limits::{Budget, Limits, StopFlag};
use menagerie_core::{sample_weighted, Actor, Evaluate, Game, Outcome, Player};
use ordering::Ordering;
use rand::rngs::SmallRng;
use rand::SeedableRng;
use std::mem::take;
use tt::{from_table, to_table, Bound, Table};

/// Deepest ply (search plus quiescence) the search will enter.
const MAX_PLY: usize = 128;
/// Deepest nominal depth iterative deepening will try.
const MAX_DEPTH: u32 = 100;
/// Larger than any score.
const INFINITY: i32 = i32::MAX / 2;
/// How often (in nodes) the clock and the stop flag are read.
const CHECK_EVERY: u64 = 1024;
/// Mixed into the hash with the actor, so that a game whose hash left out
/// the actor could not confuse the two players' entries.
const ACTOR_SALT: [u64; 2] = [0, 0x9d39_247e_3377_6d41];

// Ordering ranks: the TT move first, then tactical moves, then killers,
// then the rest by history.
const RANK_TT: i32 = 1 << 30;
const RANK_TACTICAL: i32 = 1 << 28;
const RANK_KILLER: i32 = 1 << 26;

/// Settings of an alpha-beta searcher.
#[derive(Clone, Debug)]
pub struct AlphaBetaConfig {
    /// Transposition table size.
    pub hash_megabytes: usize,
    /// How many plies quiescence may go beyond the nominal depth.
    pub quiescence_plies: u32,
    /// Seed for the sample of hidden state (games with hidden information
    /// are searched on one determinization from the actor's view) and of
    /// chance's outcomes.
    pub seed: u64,
    /// A chance node with more outcomes than this is estimated from this
    /// many outcomes drawn with their probabilities.
    pub chance_samples: usize,
}

impl Default for AlphaBetaConfig {
    fn default() -> Self {
        AlphaBetaConfig { hash_megabytes: 16, quiescence_plies: 12, seed: 1, chance_samples: 4 }
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
}

pub struct AlphaBeta<G: Game + Evaluate> {
    config: AlphaBetaConfig,
    table: Table<G::Move>,
    ordering: Ordering<G::Move>,
    moves: Vec<Vec<G::Move>>,
    ranks: Vec<Vec<i32>>,
    pv: Vec<Vec<G::Move>>,
    nodes: u64,
    seldepth: usize,
    budget: Option<Budget>,
    aborted: bool,
    rng: SmallRng,
}

impl<G: Game + Evaluate> Default for AlphaBeta<G> {
    fn default() -> Self {
        Self::new(AlphaBetaConfig::default())
    }
}

impl<G: Game + Evaluate> AlphaBeta<G> {
    pub fn new(config: AlphaBetaConfig) -> Self {
        AlphaBeta {
            table: Table::new(config.hash_megabytes),
            rng: SmallRng::seed_from_u64(config.seed),
            config,
            ordering: Ordering::new(),
            moves: (0..MAX_PLY + 1).map(|_| Vec::new()).collect(),
            ranks: (0..MAX_PLY + 1).map(|_| Vec::new()).collect(),
            pv: (0..MAX_PLY + 1).map(|_| Vec::new()).collect(),
            nodes: 0,
            seldepth: 0,
            budget: None,
            aborted: false,
        }
    }

    /// Forgets everything learnt (for a new game).
    pub fn clear(&mut self) {
        self.table.clear();
        self.ordering.clear();
    }

    /// Nodes visited by the last search.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    fn win_zone() -> i32 {
        G::WIN - 1000
    }

    /// Searches `game` within `limits`, calling `on_info` after every
    /// completed iteration. Returns no move only when the game is over.
    pub fn search(
        &mut self,
        game: &G,
        limits: &Limits,
        stop: &StopFlag,
        on_info: &mut dyn FnMut(&Info),
    ) -> SearchResult<G::Move> {
        self.nodes = 0;
        self.seldepth = 0;
        self.aborted = false;
        self.table.new_search();
        self.ordering.age();
        let budget = Budget::new(limits, stop);
        self.budget = Some(budget.clone());

        let mut root_moves = Vec::new();
        game.legal_moves(&mut root_moves);
        let empty_info =
            |score| Info { depth: 0, seldepth: 0, score, nodes: 0, time: budget.elapsed(), pv: Vec::new() };
        let me = match game.to_act() {
            Actor::Player(p) if !root_moves.is_empty() => p,
            _ => {
                // Over, or chance to act: nothing for a player to decide.
                let info = empty_info(Score::Cp(0));
                return SearchResult { best: root_moves.first().copied(), value: 0, pv: Vec::new(), info };
            }
        };
        let mut position = if G::has_hidden_information() { game.determinize(me, &mut self.rng) } else { game.clone() };

        let mut result = SearchResult {
            best: Some(root_moves[0]),
            value: 0,
            pv: vec![root_moves[0]],
            info: empty_info(Score::Cp(0)),
        };
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        for depth in 1..=max_depth {
            let value = self.node(&mut position, me, depth as i32, 0, -INFINITY, INFINITY);
            let pv = self.pv[0].clone();
            if self.aborted {
                // A root move searched to the end of this iteration that beat
                // the previous best is still the better choice.
                if !pv.is_empty() {
                    result.best = Some(pv[0]);
                    result.pv = pv;
                }
                result.info.nodes = self.nodes;
                result.info.time = budget.elapsed();
                break;
            }
            if let Some(&first) = pv.first() {
                result.best = Some(first);
                result.pv = pv;
            }
            result.value = value;
            result.info = Info {
                depth,
                seldepth: self.seldepth as u32,
                score: Score::from_search(value, G::WIN),
                nodes: self.nodes,
                time: budget.elapsed(),
                pv: pv_texts(&position, &result.pv),
            };
            on_info(&result.info);
            let decided = value.abs() >= Self::win_zone() && (G::WIN - value.abs()) as u32 + 1 < depth;
            let forced = root_moves.len() == 1 && limits.depth.is_none();
            let out_of_time = budget.fraction_used().is_some_and(|f| f > 0.55);
            if decided || forced || out_of_time {
                break;
            }
        }
        self.budget = None;
        result
    }

    /// Counts a node; false (and the search is aborted) when a limit is hit.
    #[inline]
    fn count_node(&mut self) -> bool {
        if self.aborted {
            return false;
        }
        let budget = self.budget.as_ref().expect("a search is running");
        if self.nodes >= budget.node_limit
            || (self.nodes.is_multiple_of(CHECK_EVERY) && self.nodes > 0 && budget.expired())
        {
            self.aborted = true;
            return false;
        }
        self.nodes += 1;
        true
    }

    /// The value of the position after a move, from `me`'s view, where `me`
    /// is who made that move: the same sign if `me` acts again, negated if
    /// the other player acts, averaged at chance. Whether the game is over
    /// is found out below, from an empty move list (the `Game` contract), so
    /// that games whose `outcome` generates moves do not generate twice.
    #[inline]
    fn child(&mut self, g: &mut G, me: Player, depth: Depth, ply: usize, alpha: i32, beta: i32) -> i32 {
        match g.to_act() {
            Actor::Player(p) if p == me => self.enter(g, p, depth, ply, alpha, beta),
            Actor::Player(p) => -self.enter(g, p, depth, ply, -beta, -alpha),
            Actor::Chance => self.chance(g, me, depth, ply),
        }
    }

    #[inline]
    fn enter(&mut self, g: &mut G, actor: Player, depth: Depth, ply: usize, alpha: i32, beta: i32) -> i32 {
        match depth {
            Depth::Full(d) => self.node(g, actor, d, ply, alpha, beta),
            Depth::Quiescence(q) => self.quiescence(g, actor, ply, alpha, beta, q),
        }
    }

    /// The value of a finished game for `view` (who would act, or anyone:
    /// the caller negates consistently), or 0 if the game breaks the
    /// contract and has neither moves nor an outcome.
    fn terminal(&mut self, g: &G, view: Player, ply: usize) -> i32 {
        self.seldepth = self.seldepth.max(ply);
        g.outcome().map_or(0, |outcome| terminal_value(&outcome, view, ply, G::WIN))
    }

    /// A chance node: the expectation of its outcomes' values for `me`.
    fn chance(&mut self, g: &mut G, me: Player, depth: Depth, ply: usize) -> i32 {
        self.pv[ply].clear();
        if !self.count_node() || ply >= MAX_PLY {
            return 0;
        }
        let mut moves = take(&mut self.moves[ply]);
        g.legal_moves(&mut moves);
        if moves.is_empty() {
            self.moves[ply] = moves;
            return self.terminal(g, me, ply);
        }
        // The chance move is a ply; at the horizon one outcome goes on into
        // the quiescence search.
        let (below, samples) = match depth {
            Depth::Full(d) if d > 0 => (Depth::Full(d - 1), self.config.chance_samples.max(1)),
            Depth::Full(_) => (Depth::Quiescence(0), 1),
            Depth::Quiescence(q) => (Depth::Quiescence(q), 1),
        };
        let mut expected = 0.0;
        if moves.len() <= samples {
            for &mv in &moves {
                let p = g.chance_probability(mv);
                g.play(mv);
                let value = self.child(g, me, below, ply + 1, -INFINITY, INFINITY);
                g.undo();
                expected += p * f64::from(value);
            }
        } else {
            for _ in 0..samples {
                let mv = sample_weighted(g, &moves, &mut self.rng);
                g.play(mv);
                let value = self.child(g, me, below, ply + 1, -INFINITY, INFINITY);
                g.undo();
                expected += f64::from(value) / samples as f64;
            }
        }
        self.moves[ply] = moves;
        if self.aborted {
            return 0;
        }
        expected.round() as i32
    }

    fn static_value(g: &G) -> i32 {
        let zone = Self::win_zone() - 1;
        g.evaluate().clamp(-zone, zone)
    }

    /// A full-width node: a player acts, the game is not over.
    fn node(&mut self, g: &mut G, actor: Player, depth: i32, ply: usize, mut alpha: i32, beta: i32) -> i32 {
        if depth <= 0 || ply >= MAX_PLY {
            return self.quiescence(g, actor, ply, alpha, beta, 0);
        }
        self.pv[ply].clear();
        if !self.count_node() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let key = g.hash() ^ ACTOR_SALT[actor.index()];
        let zone = Self::win_zone();
        let mut tt_move = None;
        if let Some(entry) = self.table.probe(key) {
            tt_move = entry.best;
            if ply > 0 && i32::from(entry.depth) >= depth {
                let value = from_table(entry.score, ply, zone);
                let usable = match entry.bound {
                    Bound::Exact => true,
                    Bound::Lower => value >= beta,
                    Bound::Upper => value <= alpha,
                };
                if usable {
                    return value;
                }
            }
        }

        let mut moves = take(&mut self.moves[ply]);
        let mut ranks = take(&mut self.ranks[ply]);
        g.legal_moves(&mut moves);
        if moves.is_empty() {
            self.moves[ply] = moves;
            self.ranks[ply] = ranks;
            return self.terminal(g, actor, ply);
        }
        ranks.clear();
        ranks.extend(moves.iter().map(|&mv| self.rank(g, mv, tt_move, ply)));
        // Only reductions need it, and only deep enough to reduce.
        let in_check = depth >= 3 && g.in_check();

        let original_alpha = alpha;
        let mut best_value = -INFINITY;
        let mut best_move = None;
        for i in 0..moves.len() {
            pick_best(&mut moves, &mut ranks, i);
            let mv = moves[i];
            let rank = ranks[i];
            let quiet_move = rank < RANK_KILLER;
            g.play(mv);
            let value = if i == 0 {
                self.child(g, actor, Depth::Full(depth - 1), ply + 1, alpha, beta)
            } else {
                let reduction = i32::from(depth >= 3 && i >= 3 && quiet_move && !in_check);
                let mut v = self.child(g, actor, Depth::Full(depth - 1 - reduction), ply + 1, alpha, alpha + 1);
                if v > alpha && reduction > 0 && !self.aborted {
                    v = self.child(g, actor, Depth::Full(depth - 1), ply + 1, alpha, alpha + 1);
                }
                if v > alpha && v < beta && !self.aborted {
                    v = self.child(g, actor, Depth::Full(depth - 1), ply + 1, alpha, beta);
                }
                v
            };
            g.undo();
            if self.aborted {
                break;
            }
            if value > best_value {
                best_value = value;
                best_move = Some(mv);
                if value > alpha {
                    alpha = value;
                    self.update_pv(ply, mv);
                    if value >= beta {
                        if rank < RANK_TACTICAL {
                            self.ordering.reward(ply, depth, mv);
                        }
                        break;
                    }
                }
            }
        }
        self.moves[ply] = moves;
        self.ranks[ply] = ranks;
        if self.aborted {
            return 0;
        }
        let bound = if best_value >= beta {
            Bound::Lower
        } else if best_value > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.table.store(key, best_move, to_table(best_value, ply, zone), depth as i16, bound);
        best_value
    }

    /// Quiescence: the static value, improved by tactical moves (every
    /// move when in check), up to `quiescence_plies` deep.
    fn quiescence(&mut self, g: &mut G, actor: Player, ply: usize, mut alpha: i32, beta: i32, qply: u32) -> i32 {
        self.pv[ply].clear();
        if !self.count_node() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let mut moves = take(&mut self.moves[ply]);
        g.legal_moves(&mut moves);
        if moves.is_empty() {
            self.moves[ply] = moves;
            return self.terminal(g, actor, ply);
        }
        let stand = Self::static_value(g);
        let in_check = g.in_check();
        let mut best = -INFINITY;
        if !in_check || ply >= MAX_PLY || qply >= self.config.quiescence_plies {
            if stand >= beta || ply >= MAX_PLY || qply >= self.config.quiescence_plies {
                self.moves[ply] = moves;
                return stand;
            }
            alpha = alpha.max(stand);
            best = stand;
        }
        for &mv in &moves {
            if !in_check && !g.is_tactical(mv) {
                continue;
            }
            g.play(mv);
            let value = self.child(g, actor, Depth::Quiescence(qply + 1), ply + 1, alpha, beta);
            g.undo();
            if self.aborted {
                break;
            }
            if value > best {
                best = value;
                if value > alpha {
                    alpha = value;
                    if value >= beta {
                        break;
                    }
                }
            }
        }
        self.moves[ply] = moves;
        if self.aborted {
            return 0;
        }
        if best == -INFINITY {
            stand
        } else {
            best
        }
    }

    #[inline]
    fn rank(&self, g: &G, mv: G::Move, tt_move: Option<G::Move>, ply: usize) -> i32 {
        if Some(mv) == tt_move {
            RANK_TT
        } else if g.is_tactical(mv) {
            RANK_TACTICAL + self.ordering.history(mv).min(RANK_TACTICAL - 1)
        } else {
            match self.ordering.is_killer(ply, mv) {
                0 => self.ordering.history(mv).min(RANK_KILLER - 1),
                k => RANK_KILLER + i32::from(k),
            }
        }
    }

    fn update_pv(&mut self, ply: usize, mv: G::Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(mv);
        line.extend_from_slice(&tail[0]);
    }
}

/// How much search is left below a node: full-width plies, or quiescence
/// (with the plies of it already made).
#[derive(Clone, Copy, Debug)]
enum Depth {
    Full(i32),
    Quiescence(u32),
}

/// Moves the best-ranked of `moves[from..]` to `from` (selection sort, one
/// step at a time: most nodes cut off after a move or two).
#[inline]
fn pick_best<M>(moves: &mut [M], ranks: &mut [i32], from: usize) {
    let mut best = from;
    for j in from + 1..moves.len() {
        if ranks[j] > ranks[best] {
            best = j;
        }
    }
    moves.swap(from, best);
    ranks.swap(from, best);
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
