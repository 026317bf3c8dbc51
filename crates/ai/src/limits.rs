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

/// A player's clock when it must decide: the time left on it, and what
/// each hand-over of the decision to the other player adds (Fischer's
/// increment; zero for a clock that adds nothing).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockLeft {
    pub left: Duration,
    pub increment: Duration,
}

impl ClockLeft {
    /// The turns a clock is budgeted as if it still had to play them (a
    /// sudden-death horizon, as engines use when the clock says nothing of
    /// the moves to go): a fraction of what is left goes into each turn,
    /// so the time left shrinks geometrically and never runs out.
    pub const TURNS_TO_GO: u32 = 30;
    /// What every turn costs besides its search, kept back from the clock
    /// for each turn to go: the wait for a search thread, storing the
    /// move, its way to the other player.
    pub const OVERHEAD: Duration = Duration::from_millis(100);
    /// The share of the increment a turn may spend: most of it, not all
    /// (it comes after the move, when the overhead is paid).
    const INCREMENT_SHARE: f64 = 0.75;
    /// The shortest budget: the search returns its first move at once.
    pub const MINIMUM: Duration = Duration::from_millis(1);

    /// The time one turn may take on this clock: what is left after the
    /// overhead of the turns to go, shared among them, plus most of the
    /// increment; never more than half of what is left after one turn's
    /// overhead (a long increment does not tempt it into its last seconds).
    pub fn turn_budget(&self) -> Duration {
        let turns = Self::TURNS_TO_GO;
        let reserved = Self::OVERHEAD * (turns + 2);
        let shared = self.left.saturating_sub(reserved) / turns + self.increment.mul_f64(Self::INCREMENT_SHARE);
        let ceiling = self.left.saturating_sub(Self::OVERHEAD) / 2;
        shared.min(ceiling).max(Self::MINIMUM)
    }
}

impl Limits {
    /// These limits on `clock`: their time for the turn, or the clock's
    /// budget for it when that is shorter ([`ClockLeft::turn_budget`]). A
    /// search bounded by depth or playouts alone gets the clock's budget as
    /// well, so that no level thinks past its clock. The time stays per
    /// turn when it was: a Kelasu turn's actions share the clock's budget
    /// as they share a level's time.
    pub fn on_clock(&self, clock: ClockLeft) -> Limits {
        let budget = clock.turn_budget();
        let mut limits = self.clone();
        match self.time {
            Some(own) => limits.time = Some(own.min(budget)),
            None => {
                limits.time = Some(budget);
                // A depth or a playout count is this decision's alone: the
                // clock's budget is the turn's, shared like a level's time.
                limits.per_turn = true;
            }
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(ms: u64) -> Duration {
        Duration::from_millis(ms)
    }

    fn clock(left: u64, increment: u64) -> ClockLeft {
        ClockLeft { left: ms(left), increment: ms(increment) }
    }

    /// The rule as engines have it: what is left after the overhead of the
    /// turns to go, shared among them, and three quarters of the increment;
    /// at most half of what is left; at least a millisecond.
    #[test]
    fn a_turn_gets_a_share_of_the_clock_plus_most_of_the_increment() {
        // 11 s, no increment: (11 000 - 32 x 100) / 30 = 260 ms.
        assert_eq!(clock(11_000, 0).turn_budget(), ms(260));
        // 5 min + 3 s: (300 000 - 3 200) / 30 + 2 250.
        assert_eq!(clock(300_000, 3_000).turn_budget(), ms(12_143) + Duration::from_nanos(333_333));
        // Little left but a long increment: half of what is left, no more.
        assert_eq!(clock(2_000, 10_000).turn_budget(), ms(950));
        // Nothing left to share: the search answers at once.
        assert_eq!(clock(3_000, 0).turn_budget(), ClockLeft::MINIMUM);
        assert_eq!(clock(0, 0).turn_budget(), ClockLeft::MINIMUM);
        // Only the increment: most of it, within half of what is left.
        assert_eq!(clock(3_200, 2_000).turn_budget(), ms(1_500));
    }

    /// Turns a clock lasts when each is played at its budget and costs
    /// [`ClockLeft::OVERHEAD`] besides (at most `cap`).
    fn turns_lasted(start: u64, increment: u64, cap: u32) -> u32 {
        let mut left = ms(start);
        for turn in 0..cap {
            let spent = clock(left.as_millis() as u64, increment).turn_budget() + ClockLeft::OVERHEAD;
            if spent > left {
                return turn;
            }
            left = left - spent + ms(increment);
        }
        cap
    }

    /// Played at its budget, with the overhead it reserves for, a clock
    /// lasts twice the turns it is budgeted for, and forever when the
    /// quarter of the increment it keeps pays for the overhead (or half of
    /// what is left is all it spends).
    #[test]
    fn a_clock_spent_at_its_budget_lasts() {
        assert!(turns_lasted(11_000, 0, 1_000) >= 2 * ClockLeft::TURNS_TO_GO, "{}", turns_lasted(11_000, 0, 1_000));
        assert!(turns_lasted(60_000, 0, 1_000) >= 2 * ClockLeft::TURNS_TO_GO);
        assert_eq!(turns_lasted(60_000, 1_000, 1_000), 1_000);
        assert_eq!(turns_lasted(1_000, 200, 1_000), 1_000);
        assert_eq!(turns_lasted(11_000, 500, 1_000), 1_000);
    }

    /// A level's own time stands when the clock allows more; the clock's
    /// budget when it allows less; a depth-bound level gets the clock's
    /// budget as a time, shared among a turn's actions.
    #[test]
    fn a_level_thinks_the_shorter_of_its_time_and_the_clocks_budget() {
        let level = Limits { time: Some(ms(5_000)), per_turn: true, ..Limits::default() };
        assert_eq!(level.on_clock(clock(600_000, 0)).time, Some(ms(5_000)));
        assert_eq!(level.on_clock(clock(11_000, 0)).time, Some(ms(260)));
        let shallow = Limits::depth(3);
        let timed = shallow.on_clock(clock(11_000, 0));
        assert_eq!((timed.depth, timed.time, timed.per_turn), (Some(3), Some(ms(260)), true));
        let playouts = Limits::nodes(1_000).on_clock(clock(11_000, 0));
        assert_eq!((playouts.nodes, playouts.time), (Some(1_000), Some(ms(260))));
    }
}
