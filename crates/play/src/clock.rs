//! Game clocks, kept by the server: how much time each player has left,
//! whose clock runs, and when a flag falls. Times are wall-clock
//! milliseconds since the Unix epoch, so that a clock rebuilt from the
//! stored moves after a restart reads what it read before.
//!
//! The clock that runs is the clock of the player who must decide now
//! ([`menagerie_core::DynGame::to_act`]), whoever's turn it is: a Lunch
//! Chess defender answering an attack spends their own time, and a Kelasu
//! player's clock runs through all the actions of their turn. The
//! increment (or, in correspondence, the refill) is given when a player
//! hands the decision to the other: once per Kelasu turn, once per
//! decision of a Lunch Chess battle that passes the word. No clock runs
//! until both players have moved once (lichess's rule: nobody loses on
//! time before the game has begun).

use menagerie_core::Player;
pub use menagerie_store::time_control::{now_ms, TimeControl, DAY_MS, MAX_DAYS, MAX_INCREMENT_MS, MAX_INITIAL_MS};
use serde::Serialize;

/// The clocks of one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clock {
    pub control: TimeControl,
    /// Each player's time left when their clock last stopped.
    left: [u64; 2],
    /// Whose clock runs, since when.
    running: Option<(Player, i64)>,
    /// Whether each player has moved (the clocks start once both have).
    moved: [bool; 2],
}

/// What a page is told about the clocks (docs/api.md).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ClockView {
    /// Initial time and increment in milliseconds, or the days a move.
    pub initial_ms: Option<u64>,
    pub increment_ms: Option<u64>,
    pub days: Option<u64>,
    /// Time left, in milliseconds, at `since` for the running clock and
    /// now for the other.
    pub first_ms: u64,
    pub second_ms: u64,
    /// Whose clock runs (`first`, `second`), `null` when none does.
    pub running: Option<&'static str>,
    /// Since when the running clock runs (ms since the Unix epoch, server time).
    pub since: Option<i64>,
}

impl Clock {
    pub fn new(control: TimeControl) -> Clock {
        let start = control.start_ms();
        Clock { control, left: [start; 2], running: None, moved: [false; 2] }
    }

    /// Halves `player`'s time (a tournament's berserk, before they move).
    pub fn halve(&mut self, player: Player) {
        self.left[player.index()] /= 2;
    }

    /// Whose clock runs.
    pub fn running(&self) -> Option<Player> {
        self.running.map(|(p, _)| p)
    }

    /// `player`'s time left at `now`.
    pub fn left(&self, player: Player, now: i64) -> u64 {
        match self.running {
            Some((p, since)) if p == player => self.left[p.index()].saturating_sub(elapsed(since, now)),
            _ => self.left[player.index()],
        }
    }

    /// The player whose flag falls next, and when.
    pub fn deadline(&self) -> Option<(Player, i64)> {
        self.running.map(|(p, since)| (p, since.saturating_add(self.left[p.index()] as i64)))
    }

    /// Whether the running player's time is up at `now`.
    pub fn flagged(&self, now: i64) -> Option<Player> {
        self.deadline().filter(|&(_, at)| now >= at).map(|(p, _)| p)
    }

    /// A move by `mover` at `now`; `next` is the player who decides after
    /// it (after any chance moves it caused), `None` when the game is over
    /// or waits for chance. The mover's clock stops (and gets its
    /// increment if the decision passes to the other player); the next
    /// player's clock starts, once both players have moved.
    pub fn moved(&mut self, mover: Player, next: Option<Player>, now: i64) {
        let was_running = self.running.is_some();
        self.stop(now);
        let handed_over = next != Some(mover);
        if was_running && handed_over {
            let i = mover.index();
            self.left[i] = match self.control {
                TimeControl::Fischer { increment_ms, .. } => self.left[i].saturating_add(increment_ms),
                TimeControl::Correspondence { per_move_ms } => per_move_ms,
            };
        }
        self.moved[mover.index()] = true;
        if self.moved == [true, true] {
            self.running = next.map(|p| (p, now));
        }
    }

    /// Stops the running clock at `now` (the game ended).
    pub fn stop(&mut self, now: i64) {
        if let Some((p, since)) = self.running.take() {
            self.left[p.index()] = self.left[p.index()].saturating_sub(elapsed(since, now));
        }
    }

    /// Starts the running clock again from `now` (after a takeback, the
    /// player to decide gets their time as it was, counted from now).
    pub fn restart(&mut self, now: i64) {
        if let Some((p, _)) = self.running {
            self.running = Some((p, now));
        }
    }

    pub fn view(&self, now: i64) -> ClockView {
        let (initial_ms, increment_ms, days) = match self.control {
            TimeControl::Fischer { initial_ms, increment_ms } => (Some(initial_ms), Some(increment_ms), None),
            TimeControl::Correspondence { per_move_ms } => (None, None, Some(per_move_ms / DAY_MS)),
        };
        let at = |p: Player| match self.running {
            Some((r, _)) if r == p => self.left[p.index()],
            _ => self.left(p, now),
        };
        ClockView {
            initial_ms,
            increment_ms,
            days,
            first_ms: at(Player::First),
            second_ms: at(Player::Second),
            running: self.running.map(|(p, _)| if p == Player::First { "first" } else { "second" }),
            since: self.running.map(|(_, since)| since),
        }
    }
}

fn elapsed(since: i64, now: i64) -> u64 {
    now.saturating_sub(since).max(0) as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use Player::{First, Second};

    fn fischer(initial_ms: u64, increment_ms: u64) -> Clock {
        Clock::new(TimeControl::Fischer { initial_ms, increment_ms })
    }

    #[test]
    fn no_clock_runs_until_both_players_have_moved() {
        let mut clock = fischer(60_000, 1_000);
        assert_eq!(clock.running(), None);
        clock.moved(First, Some(Second), 10_000);
        assert_eq!(clock.running(), None, "Second's first move is not timed");
        assert_eq!(clock.left(Second, 50_000), 60_000);
        clock.moved(Second, Some(First), 50_000);
        assert_eq!(clock.running(), Some(First));
        assert_eq!(clock.left(Second, 50_000), 60_000, "no increment for an untimed move");
        assert_eq!(clock.left(First, 53_000), 57_000);
        assert_eq!(clock.deadline(), Some((First, 110_000)));
    }

    #[test]
    fn a_hand_over_stops_one_clock_adds_the_increment_and_starts_the_other() {
        let mut clock = fischer(10_000, 2_000);
        clock.moved(First, Some(Second), 0);
        clock.moved(Second, Some(First), 0);
        clock.moved(First, Some(Second), 3_000);
        assert_eq!(clock.left(First, 99_000), 9_000, "10 s - 3 s + 2 s, stopped");
        assert_eq!(clock.running(), Some(Second));
        assert_eq!(clock.left(Second, 4_000), 9_000);
        assert_eq!(clock.flagged(10_999), None);
        assert_eq!(clock.flagged(13_000), Some(Second));
    }

    #[test]
    fn several_decisions_in_a_row_keep_one_clock_running_for_one_increment() {
        // A Kelasu turn of three actions, or a Lunch Chess answer after a
        // window: the same player decides again, no increment until the
        // decision passes to the other.
        let mut clock = fischer(10_000, 2_000);
        clock.moved(First, Some(Second), 0);
        clock.moved(Second, Some(First), 0);
        clock.moved(First, Some(First), 1_000);
        clock.moved(First, Some(First), 2_000);
        assert_eq!(clock.running(), Some(First));
        assert_eq!(clock.left(First, 2_000), 8_000);
        clock.moved(First, Some(Second), 4_000);
        assert_eq!(clock.left(First, 4_000), 8_000, "10 - 4 + one increment of 2");
    }

    #[test]
    fn an_answer_out_of_turn_runs_the_answerers_clock() {
        // White attacks (Black must answer), Black answers, White goes on.
        let mut clock = fischer(30_000, 0);
        clock.moved(First, Some(Second), 0);
        clock.moved(Second, Some(First), 0);
        clock.moved(First, Some(Second), 1_000);
        assert_eq!(clock.running(), Some(Second));
        clock.moved(Second, Some(First), 6_000);
        assert_eq!(clock.left(Second, 6_000), 25_000, "the answer took Black's time");
        assert_eq!(clock.left(First, 6_000), 29_000);
    }

    #[test]
    fn correspondence_refills_at_every_hand_over() {
        let day = 24 * 3600 * 1000;
        let mut clock = Clock::new(TimeControl::Correspondence { per_move_ms: 2 * day });
        clock.moved(First, Some(Second), 0);
        clock.moved(Second, Some(First), 0);
        clock.moved(First, Some(Second), day as i64);
        assert_eq!(clock.left(First, day as i64), 2 * day);
        assert_eq!(clock.deadline(), Some((Second, 3 * day as i64)));
    }

    #[test]
    fn the_end_stops_the_clocks_and_a_restart_counts_from_now() {
        let mut clock = fischer(10_000, 0);
        clock.moved(First, Some(Second), 0);
        clock.moved(Second, Some(First), 0);
        clock.restart(5_000);
        assert_eq!(clock.left(First, 6_000), 9_000);
        clock.moved(First, None, 7_000);
        assert_eq!(clock.running(), None);
        assert_eq!(clock.left(First, 50_000), 8_000);
        assert_eq!(clock.flagged(1_000_000), None);
    }

    #[test]
    fn the_view_gives_the_running_clock_at_its_start() {
        let mut clock = fischer(60_000, 0);
        clock.moved(First, Some(Second), 0);
        clock.moved(Second, Some(First), 1_000);
        let view = clock.view(5_000);
        assert_eq!(
            (view.first_ms, view.second_ms, view.running, view.since),
            (60_000, 60_000, Some("first"), Some(1_000))
        );
        assert_eq!((view.initial_ms, view.increment_ms, view.days), (Some(60_000), Some(0), None));
    }
}
