//! Position texts.
//!
//! Position: `<ranks> <mover> <energy> <spent> <quiet> <turn>`, ranks A to
//! J separated by `/`, Blue upper case, Red lower case, digits 1–10 for
//! runs of empty squares, e.g. the start:
//! `BBBBBBBBBB/BBBBBBBBBB/S1S4S1S/10/10/10/10/s1s4s1s/bbbbbbbbbb/bbbbbbbbbb blue 4 - 0 1`.

use super::bitboard::Bitboard;
use super::piece::{colour_name, Kind};
use super::board::Board;
use super::position::State;
use super::square::Square;
use menagerie_core::{Player, PositionError};

/// The board, mover and counters read from a position text (the caller
/// works out the hash and the result).
pub struct ParsedPosition {
    pub board: Board,
    pub mover: Player,
    pub energy: u8,
    pub spent: Bitboard,
    pub quiet: u32,
    pub turn: u32,
}

pub fn parse_position(text: &str) -> Result<ParsedPosition, PositionError> {
    let fields: Vec<&str> = text.trim().split(' ').collect();
    if fields.len() != 6 {
        return Err(PositionError::syntax(
            "whole text",
            format!(
                "expected 6 fields separated by single spaces (<ranks> <mover> <energy> <spent> <quiet> <turn>), found {}",
                fields.len()
            ),
        ));
    }
    let board = parse_board(fields[0])?;
    let mover = match fields[1] {
        "blue" => Player::First,
        "red" => Player::Second,
        other => {
            return Err(PositionError::syntax("field 2 (mover)", format!("expected `blue` or `red`, found {other:?}")))
        }
    };
    let energy = parse_number(fields[2], "field 3 (energy)")?;
    let energy = u8::try_from(energy)
        .map_err(|_| PositionError::syntax("field 3 (energy)", format!("{energy} is more than 255")))?;
    let spent = parse_spent(fields[3], &board, mover)?;
    let quiet = parse_number(fields[4], "field 5 (quiet)")?;
    let turn = parse_number(fields[5], "field 6 (turn)")?;
    if turn == 0 {
        return Err(PositionError::syntax("field 6 (turn)", "turns are numbered from 1"));
    }
    Ok(ParsedPosition { board, mover, energy, spent, quiet, turn })
}

fn parse_number(field: &str, location: &str) -> Result<u32, PositionError> {
    if field.is_empty() || !field.bytes().all(|b| b.is_ascii_digit()) {
        return Err(PositionError::syntax(location, format!("expected a number, found {field:?}")));
    }
    field.parse().map_err(|_| PositionError::syntax(location, format!("{field} is too large")))
}

fn parse_board(field: &str) -> Result<Board, PositionError> {
    let ranks: Vec<&str> = field.split('/').collect();
    if ranks.len() != 10 {
        return Err(PositionError::syntax(
            "field 1 (board)",
            format!("expected 10 ranks separated by `/`, found {}", ranks.len()),
        ));
    }
    let mut board = Board::EMPTY;
    for (rank, row) in ranks.iter().enumerate() {
        let location = format!("rank {}", (b'A' + rank as u8) as char);
        let mut file = 0u32;
        let mut chars = row.char_indices().peekable();
        while let Some((at, c)) = chars.next() {
            if c.is_ascii_digit() {
                let mut end = at + 1;
                while let Some(&(next_at, d)) = chars.peek() {
                    if !d.is_ascii_digit() {
                        break;
                    }
                    end = next_at + 1;
                    chars.next();
                }
                let run: u32 = row[at..end].parse().unwrap_or(u32::MAX);
                if !(1..=10).contains(&run) {
                    return Err(PositionError::syntax(
                        location,
                        format!("a run of empty squares must be 1 to 10, found {:?}", &row[at..end]),
                    ));
                }
                file += run;
            } else {
                let kind = Kind::from_letter(c).filter(|_| c.is_ascii_alphabetic()).ok_or_else(|| {
                    PositionError::syntax(
                        format!("{location}, file {file}"),
                        format!("unknown piece {c:?} (expected one of BWRDCGS, lower case for Red, or a digit)"),
                    )
                })?;
                if file >= 10 {
                    return Err(PositionError::syntax(location, "more than 10 files"));
                }
                let player = if c.is_ascii_uppercase() { Player::First } else { Player::Second };
                board.toggle(player, kind, Bitboard::from_square(Square::at(rank as u8, file as u8)));
                file += 1;
            }
            if file > 10 {
                return Err(PositionError::syntax(location, "more than 10 files"));
            }
        }
        if file != 10 {
            return Err(PositionError::syntax(location, format!("describes {file} files, not 10")));
        }
    }
    Ok(board)
}

fn parse_spent(field: &str, board: &Board, mover: Player) -> Result<Bitboard, PositionError> {
    let location = "field 4 (spent)";
    let mut spent = Bitboard::EMPTY;
    if field == "-" {
        return Ok(spent);
    }
    let mut previous: Option<Square> = None;
    for part in field.split(',') {
        let sq = Square::parse(part).ok_or_else(|| {
            PositionError::syntax(location, format!("expected `-` or squares like `C3,D4`, found {part:?}"))
        })?;
        if previous.is_some_and(|p| p >= sq) {
            return Err(PositionError::syntax(location, format!("squares must be ascending without repeats, at {sq}")));
        }
        previous = Some(sq);
        match board.piece_at(sq) {
            Some((owner, kind)) if owner == mover && kind != Kind::Stone => {}
            _ => {
                return Err(PositionError::syntax(
                    location,
                    format!("{sq} must hold a piece of the mover ({}) that can move", colour_name(mover)),
                ))
            }
        }
        spent |= Bitboard::from_square(sq);
    }
    Ok(spent)
}

pub fn board_text(board: &Board) -> String {
    let mut out = String::with_capacity(80);
    for rank in 0..10u8 {
        if rank > 0 {
            out.push('/');
        }
        let mut empty = 0;
        for file in 0..10u8 {
            match board.piece_at(Square::at(rank, file)) {
                None => empty += 1,
                Some((player, kind)) => {
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                        empty = 0;
                    }
                    let letter = kind.letter();
                    out.push(if player == Player::First { letter } else { letter.to_ascii_lowercase() });
                }
            }
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
    }
    out
}

pub fn squares_text(squares: Bitboard) -> String {
    if squares.is_empty() {
        return "-".to_owned();
    }
    squares.map(|sq| sq.to_string()).collect::<Vec<_>>().join(",")
}

pub fn position_text(state: &State) -> String {
    format!(
        "{} {} {} {} {} {}",
        board_text(&state.board),
        colour_name(state.mover),
        state.energy,
        squares_text(state.spent),
        state.quiet,
        state.turn
    )
}
