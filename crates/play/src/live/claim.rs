//! When a player may claim a game its opponent left: the rule alone, as a
//! plain function of what the game and the nodes know.

use menagerie_core::Player;
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

/// How long a tournament game waits for a player's first move, by default
/// ([`crate::hub::HubConfig::first_move_within`]): then that player loses it
/// ([`no_start`]; the tournament withdraws them: lichess's "noStart").
pub const FIRST_MOVE_WITHIN: Duration = Duration::from_secs(30);

/// A game that waits for a player's first move.
#[derive(Clone, Copy, Debug)]
pub struct Start {
    /// The player the game waits for (`None`: chance, or the game is over).
    pub to_act: Option<Player>,
    /// Whether each player has made a move, by [`Player::index`].
    pub moved: [bool; 2],
    /// Since when the game has waited (ms): its creation, or the last move.
    pub waiting_since: i64,
    pub now: i64,
}

/// The player who did not start the game (lichess's "noStart"): the one it
/// waits for, once it has waited `within` or longer, before both players
/// have moved. Until then no clock runs (`crate::clock`), so this is what
/// ends a game nobody plays. The player it waits for may have moved already
/// (in Kelasu a turn is several actions): it is still the one holding it up.
pub fn no_start(start: Start, within: Duration) -> Option<Player> {
    let player = start.to_act?;
    if start.moved.iter().all(|&moved| moved) {
        return None;
    }
    (start.now - start.waiting_since >= within.as_millis() as i64).then_some(player)
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

    fn waiting(to_act: Option<Player>, moved: [bool; 2], seconds: i64) -> Start {
        Start { to_act, moved, waiting_since: 1_000_000 - seconds * 1000, now: 1_000_000 }
    }

    #[test]
    fn a_player_who_makes_no_first_move_in_time_did_not_start() {
        assert_eq!(no_start(waiting(Some(Player::First), [false, false], 30), AFTER), Some(Player::First));
        assert_eq!(no_start(waiting(Some(Player::Second), [true, false], 31), AFTER), Some(Player::Second));
        assert_eq!(no_start(waiting(Some(Player::First), [false, false], 29), AFTER), None, "not yet");
        // One action of a Kelasu turn of several, and no more.
        assert_eq!(no_start(waiting(Some(Player::First), [true, false], 30), AFTER), Some(Player::First));
    }

    #[test]
    fn a_started_game_or_one_that_waits_for_chance_is_not_one() {
        assert_eq!(no_start(waiting(Some(Player::First), [true, true], 300), AFTER), None);
        assert_eq!(no_start(waiting(None, [false, false], 300), AFTER), None);
    }
}
