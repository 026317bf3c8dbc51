//! How much time the players have: chosen when a game is created, kept
//! with it in the store as text (`fischer:300000+2000`, `days:3`). The
//! clocks that run on it are the server's (`menagerie_server::clock`).

/// The longest time control accepted: a week for the game, a day of
/// increment, thirty days a move.
pub const MAX_INITIAL_MS: u64 = 7 * 24 * 3600 * 1000;
pub const MAX_INCREMENT_MS: u64 = 24 * 3600 * 1000;
pub const MAX_DAYS: u64 = 30;

/// How much time the players have, chosen when the game is created.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// `initial_ms` for the whole game, plus `increment_ms` each time a
    /// player hands the decision over.
    Fischer { initial_ms: u64, increment_ms: u64 },
    /// Correspondence: `per_move_ms` for each decision (the clock refills
    /// at every hand-over).
    Correspondence { per_move_ms: u64 },
}

impl TimeControl {
    /// Reads the stored form (`fischer:300000+2000`, `days:3`).
    pub fn parse(text: &str) -> Option<TimeControl> {
        if let Some(days) = text.strip_prefix("days:") {
            let days: u64 = days.parse().ok()?;
            return (1..=MAX_DAYS)
                .contains(&days)
                .then_some(TimeControl::Correspondence { per_move_ms: days * DAY_MS });
        }
        let (initial, increment) = text.strip_prefix("fischer:")?.split_once('+')?;
        let control = TimeControl::Fischer { initial_ms: initial.parse().ok()?, increment_ms: increment.parse().ok()? };
        control.check().ok()?;
        Some(control)
    }

    /// The stored form, read back by [`TimeControl::parse`].
    pub fn text(self) -> String {
        match self {
            TimeControl::Fischer { initial_ms, increment_ms } => format!("fischer:{initial_ms}+{increment_ms}"),
            TimeControl::Correspondence { per_move_ms } => format!("days:{}", per_move_ms / DAY_MS),
        }
    }

    /// Says what is wrong with a time control, if anything.
    pub fn check(self) -> Result<(), String> {
        match self {
            TimeControl::Fischer { initial_ms, increment_ms } => {
                if initial_ms == 0 && increment_ms == 0 {
                    Err("a clock needs some time: initial and increment are both 0".into())
                } else if initial_ms == 0 {
                    Err("the initial time must be more than 0".into())
                } else if initial_ms > MAX_INITIAL_MS {
                    Err(format!("the initial time is at most {} seconds", MAX_INITIAL_MS / 1000))
                } else if increment_ms > MAX_INCREMENT_MS {
                    Err(format!("the increment is at most {} seconds", MAX_INCREMENT_MS / 1000))
                } else {
                    Ok(())
                }
            }
            TimeControl::Correspondence { per_move_ms } => {
                let days = per_move_ms / DAY_MS;
                if per_move_ms % DAY_MS != 0 || !(1..=MAX_DAYS).contains(&days) {
                    Err(format!("correspondence days are 1 to {MAX_DAYS}"))
                } else {
                    Ok(())
                }
            }
        }
    }

    /// What each clock shows before the first move.
    pub fn start_ms(self) -> u64 {
        match self {
            TimeControl::Fischer { initial_ms, .. } => initial_ms,
            TimeControl::Correspondence { per_move_ms } => per_move_ms,
        }
    }

    /// Whether `control` is a correspondence game's (days a move: nobody is
    /// expected to stay, so no claims, and the players are told by notice).
    pub fn is_correspondence(control: Option<TimeControl>) -> bool {
        matches!(control, Some(TimeControl::Correspondence { .. }))
    }
}

/// A day, the unit of correspondence.
pub const DAY_MS: u64 = 24 * 3600 * 1000;

/// Now, in milliseconds since the Unix epoch: the time of the clocks and of
/// every stored moment.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_are_checked_and_stored_as_text() {
        for control in [
            TimeControl::Fischer { initial_ms: 1_000, increment_ms: 0 },
            TimeControl::Fischer { initial_ms: 300_000, increment_ms: 3_000 },
            TimeControl::Correspondence { per_move_ms: 3 * 24 * 3600 * 1000 },
        ] {
            assert_eq!(control.check(), Ok(()));
            assert_eq!(TimeControl::parse(&control.text()), Some(control));
        }
        assert!(TimeControl::Fischer { initial_ms: 0, increment_ms: 0 }.check().is_err());
        assert!(TimeControl::Fischer { initial_ms: 0, increment_ms: 1_000 }.check().is_err());
        assert!(TimeControl::Fischer { initial_ms: MAX_INITIAL_MS + 1, increment_ms: 0 }.check().is_err());
        assert!(TimeControl::Correspondence { per_move_ms: 0 }.check().is_err());
        for bad in ["", "fischer:", "fischer:1+", "fischer:x+1", "days:0", "days:31", "days:-1", "blitz"] {
            assert_eq!(TimeControl::parse(bad), None, "{bad}");
        }
    }
}
