//! One thread's search: iterative deepening over the tree, with its own
//! move buffers, principal variation and ordering memory, and the
//! transposition table it shares with the other threads.

use super::busy::BusyMoves;
use super::ordering::Ordering;
use super::tt::{from_table, to_table, Bound, Table, MAX_MOVE_INDEX};
use super::{terminal_value, AlphaBetaConfig, Plan};
use crate::eval_kind::StaticEval;
use crate::info::{Info, Score};
use crate::limits::Budget;
use menagerie_core::{sample_weighted, Actor, Evaluate, Game, Player};
use rand::rngs::SmallRng;
use rand::SeedableRng;
use std::mem::take;
use std::sync::{Arc, Mutex};

/// Deepest ply (search plus quiescence) the search will enter.
const MAX_PLY: usize = 128;
/// Larger than any score.
pub(super) const INFINITY: i32 = i32::MAX / 2;
/// Nodes a thread takes from the shared budget at a time; also how often
/// it reads the clock and the stop flag.
const CHUNK: u64 = 1024;
/// Mixed into the hash with the actor, so that a game whose hash left out
/// the actor could not confuse the two players' entries.
const ACTOR_SALT: [u64; 2] = [0, 0x9d39_247e_3377_6d41];
/// Half-width of the first aspiration window, in centi-units.
const ASPIRATION: i32 = 35;
/// Aspiration windows from this depth on (shallower scores jump about).
const ASPIRATION_DEPTH: u32 = 4;
/// Moves another thread is searching are put off from this depth on;
/// below it a subtree is over before the other thread could help.
const DEFER_DEPTH: i32 = 3;

// Ordering ranks: the TT move first, then tactical moves, then killers,
// then the rest by history.
const RANK_TT: i32 = 1 << 30;
const RANK_TACTICAL: i32 = 1 << 28;
const RANK_KILLER: i32 = 1 << 26;

/// A completed iteration: its depth, score and principal variation.
#[derive(Clone, Debug)]
pub(crate) struct Completed<M> {
    pub depth: u32,
    pub seldepth: u32,
    pub value: i32,
    pub pv: Vec<M>,
    /// The root moves within the plan's margin of the best, with their
    /// scores (empty without a margin).
    pub near_best: Vec<(M, i32)>,
}

/// A root move's score in the iteration under way: `exact` when it fell
/// inside its window (otherwise it is only a bound, below the margin).
#[derive(Clone, Copy, Debug)]
struct RootValue<M> {
    mv: M,
    value: i32,
    exact: bool,
}

/// A move's place in the list, with its ordering rank.
#[derive(Clone, Copy, Debug)]
struct Ranked {
    rank: i32,
    index: u32,
}

pub(crate) struct Worker<G: Game + Evaluate> {
    id: usize,
    table: Arc<Table>,
    /// The moves the threads are searching, when there are several.
    busy: Option<Arc<BusyMoves>>,
    ordering: Ordering<G::Move>,
    moves: Vec<Vec<G::Move>>,
    order: Vec<Vec<Ranked>>,
    /// Moves put off because another thread was searching them.
    deferred: Vec<Vec<Ranked>>,
    pv: Vec<Vec<G::Move>>,
    eval: StaticEval<G>,
    quiescence_plies: u32,
    null_move: bool,
    check_extension: bool,
    aspiration: bool,
    /// A chance node with more outcomes is estimated from this many drawn.
    chance_samples: usize,
    /// Draws those outcomes.
    rng: SmallRng,
    /// Nodes visited in this search, and nodes taken from the budget but
    /// not yet visited.
    nodes: u64,
    allowance: u64,
    seldepth: usize,
    aborted: bool,
    /// Deepest ply a check extension may start at (twice the iteration's
    /// depth), so that long series of checks stay finite.
    extension_ply: usize,
    /// How far below the best a root move is still scored exactly (0: the
    /// plain search, which only proves the other moves worse).
    near_margin: i32,
    /// The root moves' scores of the root search under way.
    root_values: Vec<RootValue<G::Move>>,
}

impl<G: Game + Evaluate> Worker<G> {
    pub fn new(id: usize, config: &AlphaBetaConfig, table: Arc<Table>, busy: Option<Arc<BusyMoves>>) -> Self {
        Worker {
            id,
            table,
            busy,
            ordering: Ordering::new(),
            moves: (0..MAX_PLY + 1).map(|_| Vec::new()).collect(),
            order: (0..MAX_PLY + 1).map(|_| Vec::new()).collect(),
            deferred: (0..MAX_PLY + 1).map(|_| Vec::new()).collect(),
            pv: (0..MAX_PLY + 1).map(|_| Vec::new()).collect(),
            eval: StaticEval::with_lazy_margin(config.eval.clone(), config.lazy_margin),
            quiescence_plies: config.quiescence_plies,
            null_move: config.null_move,
            check_extension: config.check_extension,
            aspiration: config.aspiration,
            chance_samples: config.chance_samples,
            rng: SmallRng::seed_from_u64(config.seed.wrapping_add(id as u64)),
            nodes: 0,
            allowance: 0,
            seldepth: 0,
            aborted: false,
            extension_ply: 0,
            near_margin: 0,
            root_values: Vec::new(),
        }
    }

    pub fn clear(&mut self) {
        self.ordering.clear();
    }

    fn win_zone() -> i32 {
        G::WIN - 1000
    }

    /// Iterative deepening from `root` until the plan's depth or the
    /// budget runs out. The main thread (no `shared_best`) reports each
    /// iteration; a helper records its deepest in `shared_best`. Returns
    /// the last completed iteration, improved by a root move that beat it
    /// in an interrupted one; `None` if not even depth 1 finished.
    pub fn iterate(
        &mut self,
        root: &G,
        plan: &Plan,
        budget: &Budget,
        on_info: &mut dyn FnMut(&Info),
        shared_best: Option<&Mutex<Option<Completed<G::Move>>>>,
    ) -> Option<Completed<G::Move>> {
        self.nodes = 0;
        self.allowance = 0;
        self.seldepth = 0;
        self.aborted = false;
        self.near_margin = plan.near_best.max(0);
        self.ordering.age();
        let mut position = root.clone();
        let mut last: Option<Completed<G::Move>> = None;
        let helper = shared_best.is_some();
        let mut depth = 1;
        while depth <= plan.max_depth {
            // Helpers take every other iteration one ply deeper.
            let searched = if helper && self.id % 2 == 1 && depth < plan.max_depth { depth + 1 } else { depth };
            self.extension_ply = 2 * searched as usize;
            let previous = last.as_ref().map(|l| l.value);
            let value = self.root_search(&mut position, plan.me, searched, previous, budget);
            let pv = self.pv[0].clone();
            if self.aborted {
                if let (Some(done), Some(&first)) = (&mut last, pv.first()) {
                    // A root move searched to the end of this iteration that
                    // beat the previous best is still the better choice
                    // (and the only near-best one known at this depth).
                    if done.pv.first() != Some(&first) {
                        done.pv = pv;
                        if self.near_margin > 0 {
                            done.near_best = vec![(first, value)];
                        }
                    }
                }
                break;
            }
            let near_best = self.near_best(value);
            let done = Completed { depth: searched, seldepth: self.seldepth as u32, value, pv, near_best };
            if let Some(shared) = shared_best {
                let mut best = shared.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
                if best.as_ref().is_none_or(|b| b.depth < done.depth) {
                    *best = Some(done.clone());
                }
            } else {
                on_info(&Info {
                    depth: done.depth,
                    seldepth: done.seldepth,
                    score: Score::from_search(value, G::WIN),
                    nodes: budget.used().saturating_sub(self.allowance),
                    time: budget.elapsed(),
                    pv: super::pv_texts(&position, &done.pv),
                });
            }
            last = Some(done);
            // A time limit is for this move alone (no clock to save time
            // for), so the search goes on to it: an iteration cut short
            // still improves the move when a root move beat the last best.
            // Stopping once 55% of the time was used left two threads no
            // deeper than one at 100 ms a move (1.6x the nodes, +0.1 ply).
            let decided = value.abs() >= Self::win_zone() && (G::WIN - value.abs()) as u32 + 1 < searched;
            if !helper && (decided || plan.single_reply) {
                break;
            }
            if helper && budget.expired() {
                break;
            }
            depth = searched + 1;
        }
        budget.give_back(self.allowance);
        self.allowance = 0;
        last
    }

    /// One iteration at the root, in an aspiration window around the last
    /// iteration's score that widens until the score falls inside. Not in
    /// games of several actions a turn (Kelasu): there the score swings
    /// with the actions left from one depth to the next, the window keeps
    /// failing, and measured 360 Elo weaker at equal nodes.
    fn root_search(&mut self, g: &mut G, me: Player, depth: u32, previous: Option<i32>, budget: &Budget) -> i32 {
        let zone = Self::win_zone();
        let mut delta = ASPIRATION;
        let one_action_turns = g.turn_actions().1 <= 1;
        let (mut alpha, mut beta) = match previous {
            Some(v) if self.aspiration && one_action_turns && depth >= ASPIRATION_DEPTH && v.abs() < zone / 2 => {
                (v - delta, v + delta)
            }
            _ => (-INFINITY, INFINITY),
        };
        loop {
            let value = self.node(g, me, depth as i32, 0, alpha, beta, budget);
            if self.aborted {
                return value;
            }
            if value <= alpha && alpha > -INFINITY {
                alpha = if delta > 1000 { -INFINITY } else { (alpha - delta).max(-INFINITY) };
            } else if value >= beta && beta < INFINITY {
                beta = if delta > 1000 { INFINITY } else { (beta + delta).min(INFINITY) };
            } else {
                return value;
            }
            delta *= 3;
        }
    }

    /// The root moves of the completed iteration worth `best` that scored
    /// within the margin of it, best first.
    fn near_best(&self, best: i32) -> Vec<(G::Move, i32)> {
        if self.near_margin == 0 {
            return Vec::new();
        }
        let mut near: Vec<(G::Move, i32)> = self
            .root_values
            .iter()
            .filter(|r| r.exact && r.value >= best - self.near_margin)
            .map(|r| (r.mv, r.value.min(best)))
            .collect();
        near.sort_by_key(|&(_, value)| std::cmp::Reverse(value));
        near.dedup_by_key(|&mut (mv, _)| mv);
        near
    }

    /// Counts a node; false (and the search is aborted) when a limit is hit.
    #[inline]
    fn count_node(&mut self, budget: &Budget) -> bool {
        if self.aborted {
            return false;
        }
        if self.allowance == 0 {
            self.allowance = if budget.expired() { 0 } else { budget.reserve(CHUNK) };
            if self.allowance == 0 {
                self.aborted = true;
                return false;
            }
        }
        self.allowance -= 1;
        self.nodes += 1;
        true
    }

    /// The value of the position after a move, from `me`'s view, where `me`
    /// is who made that move: the same sign if `me` acts again, negated if
    /// the other player acts, averaged at chance. Whether the game is over
    /// is found out below, from an empty move list (the `Game` contract), so
    /// that games whose `outcome` generates moves do not generate twice.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn child(
        &mut self,
        g: &mut G,
        me: Player,
        depth: Depth,
        ply: usize,
        alpha: i32,
        beta: i32,
        budget: &Budget,
    ) -> i32 {
        match g.to_act() {
            Actor::Player(p) if p == me => self.enter(g, p, depth, ply, alpha, beta, budget),
            Actor::Player(p) => -self.enter(g, p, depth, ply, -beta, -alpha, budget),
            Actor::Chance => self.chance(g, me, depth, ply, budget),
        }
    }

    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn enter(
        &mut self,
        g: &mut G,
        actor: Player,
        depth: Depth,
        ply: usize,
        alpha: i32,
        beta: i32,
        budget: &Budget,
    ) -> i32 {
        match depth {
            Depth::Full(d) => self.node(g, actor, d, ply, alpha, beta, budget),
            Depth::Quiescence(q) => self.quiescence(g, actor, ply, alpha, beta, q, budget),
        }
    }

    /// The value of a finished game for `view` (who would act, or anyone:
    /// the caller negates consistently), or 0 if the game breaks the
    /// contract and has neither moves nor an outcome.
    fn terminal(&mut self, g: &G, view: Player, ply: usize) -> i32 {
        self.seldepth = self.seldepth.max(ply);
        g.outcome().map_or(0, |outcome| terminal_value(&outcome, view, ply, G::WIN))
    }

    fn chance(&mut self, g: &mut G, me: Player, depth: Depth, ply: usize, budget: &Budget) -> i32 {
        self.pv[ply].clear();
        if !self.count_node(budget) || ply >= MAX_PLY {
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
            Depth::Full(d) if d > 0 => (Depth::Full(d - 1), self.chance_samples.max(1)),
            Depth::Full(_) => (Depth::Quiescence(0), 1),
            Depth::Quiescence(q) => (Depth::Quiescence(q), 1),
        };
        let mut expected = 0.0;
        if moves.len() <= samples {
            for &mv in &moves {
                let p = g.chance_probability(mv);
                g.play(mv);
                let value = self.child(g, me, below, ply + 1, -INFINITY, INFINITY, budget);
                g.undo();
                expected += p * f64::from(value);
            }
        } else {
            for _ in 0..samples {
                let mv = sample_weighted(g, &moves, &mut self.rng);
                g.play(mv);
                let value = self.child(g, me, below, ply + 1, -INFINITY, INFINITY, budget);
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

    /// The static score of `g` for a search of window `alpha..beta` (the
    /// window lets a lazy learned evaluation leave its network out).
    fn static_value(&mut self, g: &G, alpha: i32, beta: i32) -> i32 {
        let zone = Self::win_zone() - 1;
        self.eval.within(g, alpha, beta).clamp(-zone, zone)
    }

    /// A full-width node: a player acts, the game is not over.
    #[allow(clippy::too_many_arguments)]
    fn node(
        &mut self,
        g: &mut G,
        actor: Player,
        mut depth: i32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        budget: &Budget,
    ) -> i32 {
        let in_check = g.in_check();
        if in_check && self.check_extension && ply < self.extension_ply {
            depth += 1;
        }
        if depth <= 0 || ply >= MAX_PLY {
            return self.quiescence(g, actor, ply, alpha, beta, 0, budget);
        }
        self.pv[ply].clear();
        if !self.count_node(budget) {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let key = g.hash() ^ ACTOR_SALT[actor.index()];
        let zone = Self::win_zone();
        let mut tt_index = None;
        if let Some(entry) = self.table.probe(key) {
            tt_index = entry.best;
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

        // Null move: if passing still holds beta with a reduced search, a
        // real move will too.
        if self.null_move
            && ply > 0
            && depth >= 3
            && !in_check
            && beta.abs() < zone
            && alpha + 1 == beta
            && g.null_move_allowed()
            && self.static_value(g, beta - 1, beta) >= beta
        {
            let reduction = 2 + depth / 6;
            g.play_null();
            let value = match g.to_act() {
                Actor::Player(p) if p != actor => {
                    -self.node(g, p, depth - 1 - reduction, ply + 1, -beta, -beta + 1, budget)
                }
                _ => alpha,
            };
            g.undo_null();
            if self.aborted {
                return 0;
            }
            if value >= beta {
                return beta;
            }
        }

        let mut moves = take(&mut self.moves[ply]);
        let mut order = take(&mut self.order[ply]);
        let mut deferred = take(&mut self.deferred[ply]);
        deferred.clear();
        // Back at the moves put off, which are not put off again.
        let mut replaying = false;
        let defer = depth >= DEFER_DEPTH && self.busy.is_some();
        let mut later_pending = g.first_moves(&mut moves);
        if later_pending && (moves.is_empty() || tt_index.is_some_and(|i| i as usize >= moves.len())) {
            g.later_moves(&mut moves);
            later_pending = false;
        }
        if moves.is_empty() {
            self.moves[ply] = moves;
            self.order[ply] = order;
            self.deferred[ply] = deferred;
            return self.terminal(g, actor, ply);
        }
        let tt_move = tt_index.and_then(|i| moves.get(i as usize).copied());
        order.clear();
        for (index, &mv) in moves.iter().enumerate() {
            order.push(Ranked { rank: self.rank(g, mv, tt_move, ply), index: index as u32 });
        }

        if ply == 0 {
            self.root_values.clear();
        }
        let original_alpha = alpha;
        let mut best_value = -INFINITY;
        let mut best_index = None;
        let mut i = 0;
        let mut rest_sorted = false;
        loop {
            if i == order.len() && !later_pending {
                if deferred.is_empty() || replaying {
                    break;
                }
                // Back to the moves put off, in the order they were met.
                replaying = true;
                order.append(&mut deferred);
                rest_sorted = true;
            }
            if i == order.len() {
                later_pending = false;
                rest_sorted = false;
                let start = moves.len();
                g.later_moves(&mut moves);
                for (index, &mv) in moves.iter().enumerate().skip(start) {
                    order.push(Ranked { rank: self.rank(g, mv, tt_move, ply), index: index as u32 });
                }
                if i == order.len() {
                    // No later moves; the ones put off may remain.
                    continue;
                }
            }
            if i < SELECT_FIRST {
                pick_best(&mut order, i);
            } else if !rest_sorted {
                // Past the first few moves this node will likely search them
                // all: one sort instead of a quadratic selection.
                order[i..].sort_unstable_by_key(|r| std::cmp::Reverse(r.rank));
                rest_sorted = true;
            }
            let Ranked { rank, index } = order[i];
            let mv = moves[index as usize];
            let pair = defer.then(|| BusyMoves::pair(key, index));
            if let (Some(pair), Some(busy)) = (pair, &self.busy) {
                if i > 0 && !replaying && busy.is_busy(pair) {
                    deferred.push(order[i]);
                    i += 1;
                    continue;
                }
                busy.enter(pair);
            }
            let quiet_move = rank < RANK_KILLER;
            g.play(mv);
            // At the root with a margin, the other moves are searched
            // against the best less the margin, so that those within it get
            // an exact score.
            let floor = if ply == 0 { alpha - self.near_margin } else { alpha };
            let value = if i == 0 {
                self.child(g, actor, Depth::Full(depth - 1), ply + 1, alpha, beta, budget)
            } else {
                let reduction = i32::from(depth >= 3 && i >= 3 && quiet_move && !in_check);
                let mut v = self.child(g, actor, Depth::Full(depth - 1 - reduction), ply + 1, floor, floor + 1, budget);
                if v > floor && reduction > 0 && !self.aborted {
                    v = self.child(g, actor, Depth::Full(depth - 1), ply + 1, floor, floor + 1, budget);
                }
                if v > floor && v < beta && !self.aborted {
                    v = self.child(g, actor, Depth::Full(depth - 1), ply + 1, floor, beta, budget);
                }
                v
            };
            g.undo();
            if ply == 0 && self.near_margin > 0 && !self.aborted {
                let low = if i == 0 { alpha } else { floor };
                self.root_values.push(RootValue { mv, value, exact: value > low && value < beta });
            }
            if let (Some(pair), Some(busy)) = (pair, &self.busy) {
                busy.leave(pair);
            }
            if self.aborted {
                break;
            }
            if value > best_value {
                best_value = value;
                best_index = Some(index);
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
            i += 1;
        }
        self.moves[ply] = moves;
        self.order[ply] = order;
        self.deferred[ply] = deferred;
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
        let best_index = best_index.filter(|&i| i <= MAX_MOVE_INDEX);
        self.table.store(key, best_index, to_table(best_value, ply, zone), depth, bound);
        best_value
    }

    /// Quiescence: the static value, improved by tactical moves (every
    /// move when in check), up to `quiescence_plies` deep.
    #[allow(clippy::too_many_arguments)]
    fn quiescence(
        &mut self,
        g: &mut G,
        actor: Player,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        qply: u32,
        budget: &Budget,
    ) -> i32 {
        self.pv[ply].clear();
        if !self.count_node(budget) {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let mut moves = take(&mut self.moves[ply]);
        let in_check = g.in_check();
        // Listed later, after the stand-pat test, when the outcome alone
        // says whether the game goes on.
        let lazy = G::OUTCOME_KNOWS_THE_END && !in_check;
        let going_on = if lazy {
            g.outcome().is_none()
        } else if in_check {
            g.legal_moves(&mut moves);
            !moves.is_empty()
        } else {
            g.tactical_moves(&mut moves)
        };
        if !going_on {
            self.moves[ply] = moves;
            return self.terminal(g, actor, ply);
        }
        let stand = self.static_value(g, alpha, beta);
        let mut best = -INFINITY;
        let at_limit = ply >= MAX_PLY || qply >= self.quiescence_plies;
        if !in_check || at_limit {
            if stand >= beta || at_limit {
                self.moves[ply] = moves;
                return stand;
            }
            alpha = alpha.max(stand);
            best = stand;
        }
        if lazy {
            g.tactical_moves(&mut moves);
        }
        for &mv in &moves {
            g.play(mv);
            let value = self.child(g, actor, Depth::Quiescence(qply + 1), ply + 1, alpha, beta, budget);
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

/// Moves picked one at a time by [`pick_best`] before the rest are sorted.
const SELECT_FIRST: usize = 12;

/// Moves the best-ranked of `order[from..]` to `from` (selection sort, one
/// step at a time: most nodes cut off after a move or two).
#[inline]
fn pick_best(order: &mut [Ranked], from: usize) {
    let mut best = from;
    for j in from + 1..order.len() {
        if order[j].rank > order[best].rank {
            best = j;
        }
    }
    order.swap(from, best);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::{Limits, StopFlag};
    use menagerie_core::testing::nim::{Nim, NimVariant};

    /// Moves another thread is searching are put off, not dropped: with
    /// every root move but the first (taking 1, which loses) marked busy,
    /// the search still comes back to them and finds the win (taking 3).
    #[test]
    fn moves_put_off_are_searched_in_the_end() {
        let game = Nim::from_text(&NimVariant { stones: 7 }, "7 first").unwrap();
        let config = AlphaBetaConfig { threads: 2, ..AlphaBetaConfig::default() };
        let busy = Arc::new(BusyMoves::new());
        let mut worker = Worker::<Nim>::new(0, &config, Arc::new(Table::new(1)), Some(Arc::clone(&busy)));
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        assert_eq!(moves, [1, 2, 3]);
        let key = game.hash() ^ ACTOR_SALT[Player::First.index()];
        let others = [1, 2].map(|index| BusyMoves::pair(key, index));
        for pair in others {
            busy.enter(pair);
        }
        let budget = Budget::new(&Limits::depth(6), &StopFlag::new());
        let mut position = game.clone();
        let value = worker.node(&mut position, Player::First, 6, 0, -INFINITY, INFINITY, &budget);
        assert!(value >= Worker::<Nim>::win_zone(), "{value}");
        assert_eq!(worker.pv[0].first(), Some(&3));
    }
}
