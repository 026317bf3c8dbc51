//! Action texts: `B3-C3` (moves, Recall, captures, Conversions) and
//! `W@D1:C1,D1` (merges: letter, new square, the Blanks ascending).

use super::bitboard::Bitboard;
use super::merge::is_connected;
use super::moves::Action;
use super::piece::{colour_name, Kind};
use super::position::State;
use super::square::Square;
use menagerie_core::MoveError;
use std::fmt;

/// The action text: `B3-C3`, or `W@D1:C1,D1`.
impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.merged_kind() {
            None => write!(f, "{}-{}", self.from(), self.to()),
            Some(kind) => {
                write!(f, "{}@{}:", kind.letter(), self.from())?;
                for (i, sq) in self.squares().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{sq}")?;
                }
                Ok(())
            }
        }
    }
}

fn parse_square(text: &str, part: &str, what: &str) -> Result<Square, MoveError> {
    Square::parse(part).ok_or_else(|| {
        MoveError::syntax(text, format!("{what}: expected a square like `D2` (rank A-J, file 0-9), found {part:?}"))
    })
}

/// Reads an action text and checks it is legal in `state`.
pub fn parse_action(state: &State, text: &str) -> Result<Action, MoveError> {
    let action = match text.split_once('@') {
        Some((letter, rest)) => parse_merge(state, text, letter, rest)?,
        None => {
            let (from, to) = text.split_once('-').ok_or_else(|| {
                MoveError::syntax(text, "expected `<from>-<to>` (like `B3-C3`) or a merge `<piece>@<square>:<squares>`")
            })?;
            let from = parse_square(text, from, "origin")?;
            let to = parse_square(text, to, "destination")?;
            check_step(state, text, from, to)?;
            Action::step(from, to)
        }
    };
    if state.ending.is_some() {
        return Err(MoveError::GameOver);
    }
    Ok(action)
}

fn check_step(state: &State, text: &str, from: Square, to: Square) -> Result<(), MoveError> {
    if state.ending.is_some() {
        return Err(MoveError::GameOver);
    }
    let mover = colour_name(state.mover);
    let kind = match state.board.piece_at(from) {
        Some((owner, kind)) if owner == state.mover => kind,
        _ => return Err(MoveError::illegal(text, format!("{from} holds no {mover} piece"))),
    };
    if kind == Kind::Stone {
        return Err(MoveError::illegal(text, "a Stone never moves"));
    }
    if state.spent.contains(from) {
        return Err(MoveError::illegal(text, format!("the piece on {from} has already acted this turn")));
    }
    if !state.targets(kind, from).contains(to) {
        return Err(MoveError::illegal(text, format!("the {} on {from} cannot go to {to}", kind.name())));
    }
    Ok(())
}

fn parse_merge(state: &State, text: &str, letter: &str, rest: &str) -> Result<Action, MoveError> {
    let mut letters = letter.chars();
    let kind = match (letters.next(), letters.next()) {
        (Some(c), None) if c.is_ascii_uppercase() => Kind::from_letter(c),
        (Some(c), None) if c.is_ascii_lowercase() => {
            return Err(MoveError::syntax(text, "the piece letter of a merge is always upper case"))
        }
        _ => None,
    }
    .ok_or_else(|| {
        MoveError::syntax(text, format!("expected a piece letter W R D C G or S before `@`, found {letter:?}"))
    })?;
    let cost = kind.merge_cost().ok_or_else(|| MoveError::syntax(text, "a merge cannot make a Blank"))?;
    let (target, list) = rest
        .split_once(':')
        .ok_or_else(|| MoveError::syntax(text, "expected `:` and the merged squares after the new piece's square"))?;
    let target = parse_square(text, target, "new piece's square")?;
    let mut squares = Bitboard::EMPTY;
    let mut previous: Option<Square> = None;
    for part in list.split(',') {
        let sq = parse_square(text, part, "merged square")?;
        if previous.is_some_and(|p| p >= sq) {
            return Err(MoveError::syntax(text, format!("merged squares must be ascending without repeats, at {sq}")));
        }
        previous = Some(sq);
        squares |= Bitboard::from_square(sq);
    }
    if state.ending.is_some() {
        return Err(MoveError::GameOver);
    }
    if squares.count() != cost {
        return Err(MoveError::illegal(
            text,
            format!("a {} takes exactly {cost} Blanks, not {}", kind.name(), squares.count()),
        ));
    }
    if !squares.contains(target) {
        return Err(MoveError::illegal(
            text,
            format!("the new piece must stand on one of the merged squares, not {target}"),
        ));
    }
    let mergeable = state.mergeable_blanks();
    if let Some(bad) = (squares & !mergeable).next() {
        let why = match state.board.piece_at(bad) {
            Some((owner, Kind::Blank)) if owner == state.mover => {
                if state.spent.contains(bad) {
                    "has already acted this turn"
                } else {
                    "stands on the mover's home ranks"
                }
            }
            _ => "holds no Blank of the mover",
        };
        return Err(MoveError::illegal(text, format!("{bad} {why}")));
    }
    if !is_connected(squares) {
        return Err(MoveError::illegal(text, "the merged Blanks are not connected edge to edge"));
    }
    Ok(Action::merge(kind, target, squares))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts() {
        let sq = |t| Square::parse(t).unwrap();
        assert_eq!(Action::step(sq("B3"), sq("C3")).to_string(), "B3-C3");
        let squares = Bitboard::from_square(sq("C1")) | Bitboard::from_square(sq("D1"));
        let merge = Action::merge(Kind::Warrior, sq("D1"), squares);
        assert_eq!(merge.to_string(), "W@D1:C1,D1");
        assert_eq!(merge.merged_kind(), Some(Kind::Warrior));
        assert_eq!(Action::step(sq("J9"), sq("A9")).merged_kind(), None);
    }
}
