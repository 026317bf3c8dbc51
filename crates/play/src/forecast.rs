//! Conditional moves (lichess's forecasts) of correspondence games, as pure
//! rules: a player waiting for the opponent queues lines (the opponent's
//! expected moves and the player's replies, in the order they would be
//! played); when the opponent plays the first move of some lines, the
//! player's replies that follow in them are played at once.
//!
//! What is stored, and the routes, are elsewhere (`store/forecasts.rs`,
//! `http/forecasts.rs`); the hub applies [`after_opponent_move`].

use menagerie_core::{Actor, DynGame, Player};

/// Lines a seat may queue, at most.
pub const MAX_LINES: usize = 20;
/// Moves in one line, at most.
pub const MAX_LINE_MOVES: usize = 40;

/// Checks `lines` for `seat` at the game's position: the opponent is to
/// move, every move is legal where the line plays it, and every line ends
/// with one of `seat`'s moves. Answers the lines in canonical move texts.
pub fn check(game: &dyn DynGame, seat: Player, lines: &[Vec<String>]) -> Result<Vec<Vec<String>>, String> {
    if game.has_hidden_information() {
        return Err("conditional moves are for games without chance or hidden cards".into());
    }
    if game.outcome().is_some() {
        return Err("the game is over".into());
    }
    if game.to_act() != Actor::Player(seat.other()) {
        return Err("conditional moves are queued while the opponent is to move".into());
    }
    if lines.len() > MAX_LINES {
        return Err(format!("at most {MAX_LINES} lines"));
    }
    let mut checked = Vec::with_capacity(lines.len());
    for (number, line) in lines.iter().enumerate() {
        let number = number + 1;
        if line.len() < 2 || line.len() > MAX_LINE_MOVES {
            return Err(format!("line {number}: 2 to {MAX_LINE_MOVES} moves (the opponent's, then yours)"));
        }
        let mut played = game.box_clone();
        let mut canonical = Vec::with_capacity(line.len());
        let mut last_mover = None;
        for text in line {
            let mover = match played.to_act() {
                Actor::Player(p) => p,
                Actor::Chance => return Err(format!("line {number}: chance moves before {text:?}")),
            };
            if played.outcome().is_some() {
                return Err(format!("line {number}: the game ends before {text:?}"));
            }
            played.play(text).map_err(|e| format!("line {number}: {e}"))?;
            canonical.push(played.history().last().cloned().unwrap_or_else(|| text.clone()));
            last_mover = Some(mover);
        }
        if last_mover != Some(seat) {
            return Err(format!("line {number} must end with one of your moves"));
        }
        checked.push(canonical);
    }
    Ok(checked)
}

/// After the opponent of a forecasting seat played `played`: the lines
/// that expected it, with it taken off (the others are dropped).
pub fn expected(lines: Vec<Vec<String>>, played: &str) -> Vec<Vec<String>> {
    lines
        .into_iter()
        .filter(|line| line.first().is_some_and(|first| first == played))
        .map(|line| line[1..].to_vec())
        .filter(|line| !line.is_empty())
        .collect()
}

/// The reply to play now from `lines` (each starting with the seat's next
/// move): the first line's, and the lines that agree with it, with it
/// taken off. `None` when no line is left.
pub fn reply(lines: Vec<Vec<String>>) -> Option<(String, Vec<Vec<String>>)> {
    let next = lines.first()?.first()?.clone();
    let rest = lines
        .into_iter()
        .filter(|line| line.first() == Some(&next))
        .map(|line| line[1..].to_vec())
        .filter(|line| !line.is_empty())
        .collect();
    Some((next, rest))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(texts: &[&[&str]]) -> Vec<Vec<String>> {
        texts.iter().map(|line| line.iter().map(|t| t.to_string()).collect()).collect()
    }

    #[test]
    fn the_lines_that_expected_a_move_go_on_and_the_others_are_dropped() {
        let queued = lines(&[&["a", "b", "c", "d"], &["a", "x"], &["e", "f"]]);
        assert_eq!(expected(queued.clone(), "a"), lines(&[&["b", "c", "d"], &["x"]]));
        assert!(expected(queued, "z").is_empty());
    }

    #[test]
    fn a_reply_follows_the_first_line_and_keeps_the_lines_that_agree() {
        let (next, rest) = reply(lines(&[&["b", "c", "d"], &["x"], &["b", "e", "f"]])).unwrap();
        assert_eq!(next, "b");
        assert_eq!(rest, lines(&[&["c", "d"], &["e", "f"]]));
        let (next, rest) = reply(lines(&[&["x"]])).unwrap();
        assert_eq!((next.as_str(), rest.len()), ("x", 0));
        assert!(reply(Vec::new()).is_none());
    }
}
