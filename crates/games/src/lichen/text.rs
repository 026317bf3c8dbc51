//! The position text: `<ranks> <to-move> <white-hand> <black-hand>
//! [<quiet-turns>]`, ranks from 3 down to 1 separated by `/`, each square `.`
//! (no stone) or `[<8 slots>]` with the slots in the order `n ne e se s sw w
//! nw`, each `W`, `B` or `-`, then `K` for White's kingstone or `k` for
//! Black's. Only this canonical form is read, with exactly one `K` and one
//! `k`. The fifth field, the turns in a row without a token leaving the game
//! or returning to a hand (the 200-turn draw counts them), is written when it
//! is not 0; a text without it (every text of the first four-field format)
//! means 0.

use super::position::Board;
use super::square::{Direction, Geometry, Square, RANKS};
use super::QUIET_TURN_LIMIT;
use menagerie_core::{Player, PositionError};

/// Hands larger than this are refused (no game comes near it; it keeps the
/// arithmetic on hands far from overflow).
pub const MAX_HAND: u32 = 1_000_000;

/// The text of `board` with `quiet_turns` turns in a row without a token
/// leaving the game or returning to a hand.
pub fn write(board: &Board, quiet_turns: u32) -> String {
    let geometry = board.geometry;
    let mut text = String::with_capacity(128);
    for rank in (0..RANKS).rev() {
        for file in 0..geometry.files {
            let square = geometry.square(file, rank);
            if !board.has_stone(square) {
                text.push('.');
                continue;
            }
            text.push('[');
            for dir in Direction::all() {
                text.push(if board.slots(Player::First, square) & dir.bit() != 0 {
                    'W'
                } else if board.slots(Player::Second, square) & dir.bit() != 0 {
                    'B'
                } else {
                    '-'
                });
            }
            match board.kingstone_owner(square) {
                Some(Player::First) => text.push('K'),
                Some(Player::Second) => text.push('k'),
                None => {}
            }
            text.push(']');
        }
        if rank > 0 {
            text.push('/');
        }
    }
    text.push_str(if board.to_move == Player::First { " w " } else { " b " });
    text.push_str(&board.hand[0].to_string());
    text.push(' ');
    text.push_str(&board.hand[1].to_string());
    if quiet_turns > 0 {
        text.push(' ');
        text.push_str(&quiet_turns.to_string());
    }
    text
}

/// The board a text describes and its count of quiet turns (0 when the
/// text has no fifth field).
pub fn read(geometry: &'static Geometry, text: &str) -> Result<(Board, u32), PositionError> {
    let fields: Vec<&str> = text.split(' ').collect();
    if !(4..=5).contains(&fields.len()) {
        return Err(PositionError::syntax(
            "whole text",
            format!(
                "expected 4 or 5 fields separated by single spaces \
                 (<ranks> <to-move> <white-hand> <black-hand> [<quiet-turns>]), found {}",
                fields.len()
            ),
        ));
    }
    let mut board = Board::empty(geometry);
    let mut kingstones: [Vec<Square>; 2] = [Vec::new(), Vec::new()];
    let ranks: Vec<&str> = fields[0].split('/').collect();
    if ranks.len() != RANKS as usize {
        return Err(PositionError::syntax(
            "field 1 (ranks)",
            format!("expected {RANKS} ranks separated by `/`, found {}", ranks.len()),
        ));
    }
    for (row, rank_text) in ranks.iter().enumerate() {
        let rank = RANKS - 1 - row as u8;
        read_rank(geometry, &mut board, &mut kingstones, rank, rank_text)?;
    }
    for (player, mark) in [(Player::First, 'K'), (Player::Second, 'k')] {
        let found = &kingstones[player.index()];
        if found.len() != 1 {
            return Err(PositionError::invalid(format!(
                "a position needs exactly one `{mark}` ({} kingstone), found {}",
                if player == Player::First { "White's" } else { "Black's" },
                found.len()
            )));
        }
        board.kingstone[player.index()] = found[0];
    }
    board.to_move = match fields[1] {
        "w" => Player::First,
        "b" => Player::Second,
        other => {
            return Err(PositionError::syntax("field 2 (to move)", format!("expected `w` or `b`, found {other:?}")))
        }
    };
    board.hand[0] = read_hand(fields[2], "field 3 (White's hand)")?;
    board.hand[1] = read_hand(fields[3], "field 4 (Black's hand)")?;
    let quiet_turns = match fields.get(4) {
        Some(field) => read_quiet_turns(field)?,
        None => 0,
    };
    board.hash = board.compute_hash();
    board.recompute_caches();
    Ok((board, quiet_turns))
}

fn read_rank(
    geometry: &Geometry,
    board: &mut Board,
    kingstones: &mut [Vec<Square>; 2],
    rank: u8,
    text: &str,
) -> Result<(), PositionError> {
    let location = |file: u8| format!("rank {}, file {}", rank + 1, (b'a' + file) as char);
    let mut chars = text.chars();
    let mut file = 0u8;
    while let Some(c) = chars.next() {
        if file >= geometry.files {
            return Err(PositionError::syntax(
                format!("rank {}", rank + 1),
                format!("more than {} squares (at {c:?})", geometry.files),
            ));
        }
        let square = geometry.square(file, rank);
        match c {
            '.' => {}
            '[' => {
                board.stones |= square.bit();
                for dir in Direction::all() {
                    match chars.next() {
                        Some('W') => board.tokens[0][square.index()] |= dir.bit(),
                        Some('B') => board.tokens[1][square.index()] |= dir.bit(),
                        Some('-') => {}
                        Some(other) => {
                            return Err(PositionError::syntax(
                                location(file),
                                format!("slot {} must be `W`, `B` or `-`, found {other:?}", dir.name()),
                            ))
                        }
                        None => {
                            return Err(PositionError::syntax(
                                location(file),
                                format!("the stone ends before its slot {}", dir.name()),
                            ))
                        }
                    }
                }
                match chars.next() {
                    Some(']') => {}
                    Some(mark @ ('K' | 'k')) => {
                        kingstones[usize::from(mark == 'k')].push(square);
                        if chars.next() != Some(']') {
                            return Err(PositionError::syntax(location(file), "expected `]` after the kingstone mark"));
                        }
                    }
                    Some(other) => {
                        return Err(PositionError::syntax(
                            location(file),
                            format!("expected `K`, `k` or `]` after the 8 slots, found {other:?}"),
                        ))
                    }
                    None => return Err(PositionError::syntax(location(file), "the stone has no closing `]`")),
                }
            }
            other => {
                return Err(PositionError::syntax(
                    location(file),
                    format!("expected `.` (no stone) or `[` (a stone), found {other:?}"),
                ))
            }
        }
        file += 1;
    }
    if file != geometry.files {
        return Err(PositionError::syntax(
            format!("rank {}", rank + 1),
            format!("expected {} squares, found {file}", geometry.files),
        ));
    }
    Ok(())
}

/// A count written without leading zeros.
fn is_canonical_number(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) && (text == "0" || !text.starts_with('0'))
}

/// The fifth field: at most [`QUIET_TURN_LIMIT`] (at the limit the game is
/// drawn).
fn read_quiet_turns(text: &str) -> Result<u32, PositionError> {
    let location = "field 5 (quiet turns)";
    if !is_canonical_number(text) {
        return Err(PositionError::syntax(location, format!("expected a number of turns without leading zeros, found {text:?}")));
    }
    match text.parse::<u32>() {
        Ok(n) if n <= QUIET_TURN_LIMIT => Ok(n),
        _ => Err(PositionError::syntax(
            location,
            format!("at most {QUIET_TURN_LIMIT} quiet turns (the game is drawn there), found {text}"),
        )),
    }
}

fn read_hand(text: &str, location: &str) -> Result<u32, PositionError> {
    if !is_canonical_number(text) {
        return Err(PositionError::syntax(
            location,
            format!("expected a number of tokens without leading zeros, found {text:?}"),
        ));
    }
    match text.parse::<u32>() {
        Ok(n) if n <= MAX_HAND => Ok(n),
        _ => Err(PositionError::syntax(location, format!("a hand holds at most {MAX_HAND} tokens, found {text}"))),
    }
}
