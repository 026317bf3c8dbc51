//! Move texts: the placement `<square><slot>` (`a2ne`), then optionally `;`
//! and the act: a stone move `<square>><dir>` (`c1>n`) or a colonization
//! `<square>*<dir>` (`a2*ne`).

use super::moves::{Act, Move};
use super::square::{Direction, Geometry, Square};
use menagerie_core::MoveError;

pub fn write(geometry: &Geometry, mv: Move) -> String {
    let mut text = geometry.square_name(mv.square);
    text.push_str(mv.slot.name());
    match mv.act {
        Act::Pass => {}
        Act::Step { from, dir } => {
            text.push(';');
            text.push_str(&geometry.square_name(from));
            text.push('>');
            text.push_str(dir.name());
        }
        Act::Colonize { from, dir } => {
            text.push(';');
            text.push_str(&geometry.square_name(from));
            text.push('*');
            text.push_str(dir.name());
        }
    }
    text
}

/// Reads a move text's syntax (not its legality).
pub fn read(geometry: &Geometry, text: &str) -> Result<Move, MoveError> {
    let (placement, act) = match text.split_once(';') {
        Some((placement, act)) => (placement, Some(act)),
        None => (text, None),
    };
    let (square, slot) = read_square_and_direction(geometry, text, placement, "the placement", "slot")?;
    let act = match act {
        None => Act::Pass,
        Some(act) => {
            let Some(at) = act.find(['>', '*']) else {
                return Err(MoveError::syntax(
                    text,
                    format!("the act {act:?} must be `<square>><dir>` (stone move) or `<square>*<dir>` (colonization)"),
                ));
            };
            let (from_text, rest) = act.split_at(at);
            let from = read_square(geometry, text, from_text, "the act")?;
            let dir = read_direction(text, &rest[1..], "the act", "direction")?;
            if rest.starts_with('>') {
                Act::Step { from, dir }
            } else {
                Act::Colonize { from, dir }
            }
        }
    };
    Ok(Move { square, slot, act })
}

fn read_square_and_direction(
    geometry: &Geometry,
    text: &str,
    part: &str,
    what: &str,
    direction_word: &str,
) -> Result<(Square, Direction), MoveError> {
    let split = part.char_indices().nth(2).map_or(part.len(), |(i, _)| i);
    let (square, dir) = part.split_at(split);
    Ok((read_square(geometry, text, square, what)?, read_direction(text, dir, what, direction_word)?))
}

fn read_square(geometry: &Geometry, text: &str, square: &str, what: &str) -> Result<Square, MoveError> {
    geometry.parse_square(square).ok_or_else(|| {
        let last_file = (b'a' + geometry.files - 1) as char;
        MoveError::syntax(text, format!("{what} must start with a square a1..{last_file}3, found {square:?}"))
    })
}

fn read_direction(text: &str, dir: &str, what: &str, word: &str) -> Result<Direction, MoveError> {
    Direction::from_name(dir).ok_or_else(|| {
        MoveError::syntax(
            text,
            format!("{what} needs a {word} n, ne, e, se, s, sw, w or nw after the square, found {dir:?}"),
        )
    })
}
