//! When a player may claim a game its opponent left: the rule alone, as a
//! plain function of what the game and the nodes know.

use std::time::Duration;

/// What decides a claim.
#[derive(Clone, Copy, Debug)]
pub struct Situation {
    /// Days a move: nobody is expected to stay.
    pub correspondence: bool,
    /// The opponent is the computer (it never leaves).
    pub opponent_is_computer: bool,
    /// Each side has made a move (before that a game is aborted, not won).
    pub both_moved: bool,
    /// The game waits for the opponent.
    pub opponent_to_act: bool,
    /// When the opponent was last seen (a socket, a read, a move), in ms;
    /// `None` while one of its sockets is open on this node.
    pub opponent_seen: Option<i64>,
    pub now: i64,
}

/// Why a claim is refused, said to the claimer.
pub fn refusal(situation: Situation, after: Duration) -> Option<String> {
    let after_ms = after.as_millis() as i64;
    if situation.correspondence {
        return Some("a correspondence game cannot be claimed: your opponent has days to move".into());
    }
    if situation.opponent_is_computer {
        return Some("the computer never leaves its game".into());
    }
    if !situation.both_moved {
        return Some("each side must have moved before a game can be claimed".into());
    }
    if !situation.opponent_to_act {
        return Some("you can claim only while the game waits for your opponent".into());
    }
    match situation.opponent_seen {
        None => Some("your opponent is still here".into()),
        Some(seen) if situation.now - seen < after_ms => Some(format!(
            "your opponent left {} s ago: you can claim after {} s",
            (situation.now - seen).max(0) / 1000,
            after_ms / 1000
        )),
        Some(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const AFTER: Duration = Duration::from_secs(30);

    fn left(seconds_ago: i64) -> Situation {
        Situation {
            correspondence: false,
            opponent_is_computer: false,
            both_moved: true,
            opponent_to_act: true,
            opponent_seen: Some(1_000_000 - seconds_ago * 1000),
            now: 1_000_000,
        }
    }

    #[test]
    fn an_opponent_gone_long_enough_while_the_game_waits_for_it_may_be_claimed() {
        assert_eq!(refusal(left(30), AFTER), None);
        assert_eq!(refusal(left(300), AFTER), None);
    }

    #[test]
    fn every_other_case_is_refused_and_says_why() {
        let refused = |situation: Situation, why: &str| {
            let said = refusal(situation, AFTER).expect("refused");
            assert!(said.contains(why), "{said}");
        };
        refused(left(29), "left 29 s ago: you can claim after 30 s");
        refused(Situation { opponent_seen: None, ..left(300) }, "still here");
        refused(Situation { correspondence: true, ..left(300) }, "correspondence");
        refused(Situation { opponent_is_computer: true, ..left(300) }, "computer");
        refused(Situation { both_moved: false, ..left(300) }, "each side must have moved");
        refused(Situation { opponent_to_act: false, ..left(300) }, "waits for your opponent");
    }
}
