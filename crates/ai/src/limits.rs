//! How long a search may run: time, depth, nodes, and a stop flag another
//! thread may raise (the engine protocol's `stop`).

use menagerie_core::Evaluate;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Limits of one search; a search stops at the first one reached. With none
/// set, a search runs until its [`StopFlag`] is raised (or, for alpha-beta,
/// until it reaches its maximum depth).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Wall-clock time for the whole decision.
    pub time: Option<Duration>,
    /// Alpha-beta: nominal depth in moves of the game model.
    pub depth: Option<u32>,
    /// Alpha-beta: nodes visited; MCTS: playouts (iterations).
    pub nodes: Option<u64>,
    /// `time` is for the actor's whole turn: in a game of several actions
    /// a turn (Kelasu), each action takes its share
    /// ([`Limits::for_decision`]). Otherwise it is for this decision alone.
    pub per_turn: bool,
    /// Alpha-beta: also score exactly every root move within this many
    /// centi-units of the best ([`crate::Decision::near_best`]), for a
    /// player that chooses among near-best moves. It widens the root's
    /// windows, so a node budget searches less deep.
    pub near_best: Option<i32>,
}

impl Limits {
    pub fn time_ms(ms: u64) -> Limits {
        Limits { time: Some(Duration::from_millis(ms)), ..Limits::default() }
    }
    pub fn depth(depth: u32) -> Limits {
        Limits { depth: Some(depth), ..Limits::default() }
    }
    pub fn nodes(nodes: u64) -> Limits {
        Limits { nodes: Some(nodes), ..Limits::default() }
    }
    /// Whether nothing but a stop flag would end the search.
    pub fn is_infinite(&self) -> bool {
        self.time.is_none() && self.depth.is_none() && self.nodes.is_none()
    }

    /// The limits of the decision in `game`: with a time per turn, this
    /// action's share of it. Earlier actions of a turn get more (the first
    /// searches the whole turn ahead): with `n` actions to a turn, the
    /// action with `k` left gets `k / (1 + 2 + ... + n)` of the time, so
    /// the shares of one turn add up to the whole. The share follows from
    /// the position alone, so a player that keeps no memory between
    /// actions (the web server's) spends the same.
    pub fn for_decision<G: Evaluate>(&self, game: &G) -> Limits {
        let mut limits = self.clone();
        if let (true, Some(time)) = (self.per_turn, self.time) {
            let (left, total) = game.turn_actions();
            let total = total.max(left).max(1);
            let share = f64::from(2 * left) / f64::from(total * (total + 1));
            limits.time = Some(time.mul_f64(share.min(1.0)));
        }
        limits.per_turn = false;
        limits
    }
}

/// A flag shared with the thread that may ask a running search to stop.
#[derive(Clone, Debug, Default)]
pub struct StopFlag(Arc<AtomicBool>);

impl StopFlag {
    pub fn new() -> StopFlag {
        StopFlag::default()
    }
    pub fn stop(&self) {
        self.0.store(true, Ordering::Relaxed);
    }
    pub fn clear(&self) {
        self.0.store(false, Ordering::Relaxed);
    }
    pub fn is_stopped(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// The deadline and node budget of a running search, checked cheaply, and
/// shared by its threads: they take nodes from the budget in chunks, so the
/// total never exceeds the limit whatever the number of threads.
#[derive(Debug)]
pub(crate) struct Budget {
    pub started: Instant,
    deadline: Option<Instant>,
    pub node_limit: u64,
    stop: StopFlag,
    /// Nodes handed out to the threads so far.
    issued: AtomicU64,
    /// Raised when the main thread has decided: the helpers stop.
    finished: AtomicBool,
}

impl Budget {
    pub fn new(limits: &Limits, stop: &StopFlag) -> Budget {
        let started = Instant::now();
        Budget {
            started,
            deadline: limits.time.map(|t| started + t),
            node_limit: limits.nodes.unwrap_or(u64::MAX),
            stop: stop.clone(),
            issued: AtomicU64::new(0),
            finished: AtomicBool::new(false),
        }
    }

    /// Whether time is up or someone asked to stop (call it every few
    /// thousand nodes: reading the clock costs tens of nanoseconds).
    pub fn expired(&self) -> bool {
        self.finished.load(Ordering::Relaxed)
            || self.stop.is_stopped()
            || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Ends the search for every thread (the main thread has its move).
    pub fn finish(&self) {
        self.finished.store(true, Ordering::Relaxed);
    }

    /// Takes up to `chunk` nodes from the budget; 0 when it is spent.
    pub fn reserve(&self, chunk: u64) -> u64 {
        let mut granted = 0;
        let _ = self.issued.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |issued| {
            granted = chunk.min(self.node_limit.saturating_sub(issued));
            (granted > 0).then_some(issued + granted)
        });
        granted
    }

    /// Returns nodes taken but not used.
    pub fn give_back(&self, unused: u64) {
        self.issued.fetch_sub(unused, Ordering::Relaxed);
    }

    /// Nodes taken so far (exact once every thread has given back its rest).
    pub fn used(&self) -> u64 {
        self.issued.load(Ordering::Relaxed)
    }

    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }
}
