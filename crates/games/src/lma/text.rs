//! Position text: `<board 1>|<board 2> <side> <castling> <halfmove> <fullmove>`,
//! each board as FEN ranks 7 down to 1, files a→f.

use super::castling::CASTLES;
use super::piece::{rights, Kind, BLACK, WHITE};
use super::position::Position;
use super::square::{Square, FILES, RANKS};
use menagerie_core::PositionError;

/// Reads a position text and checks what the rules need: one king per side
/// and the side not to move not in check. Castling rights whose king or rook
/// is not on its home square are dropped (they could never be used).
/// Returns the position and the fullmove number (kept by the game, not the
/// position, so that the position stays small).
pub fn parse_position(text: &str) -> Result<(Position, u32), PositionError> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.len() != 5 {
        return Err(PositionError::syntax(
            "whole text",
            format!(
                "expected 5 fields `<board 1>|<board 2> <side> <castling> <halfmove> <fullmove>`, found {}",
                fields.len()
            ),
        ));
    }
    let mut pos = Position::empty();
    let boards: Vec<&str> = fields[0].split('|').collect();
    if boards.len() != 2 {
        return Err(PositionError::syntax(
            "field 1 (boards)",
            format!("expected two boards separated by `|`, found {}", boards.len()),
        ));
    }
    for (board, layout) in boards.iter().enumerate() {
        parse_board(&mut pos, board, layout)?;
    }
    match fields[1] {
        "w" => {}
        "b" => pos.set_side_to_move(BLACK),
        other => {
            return Err(PositionError::syntax("field 2 (side to move)", format!("expected w or b, found {other:?}")))
        }
    }
    pos.set_castling(parse_castling(fields[2])?);
    pos.halfmove = fields[3].parse().map_err(|_| {
        PositionError::syntax("field 4 (halfmove clock)", format!("expected a whole number, found {:?}", fields[3]))
    })?;
    let fullmove: u32 = fields[4].parse().map_err(|_| {
        PositionError::syntax("field 5 (fullmove number)", format!("expected a whole number, found {:?}", fields[4]))
    })?;

    for (side, name) in [(WHITE, "White"), (BLACK, "Black")] {
        let kings = pos.pieces(0, side, Kind::King).count() + pos.pieces(1, side, Kind::King).count();
        if kings != 1 {
            return Err(PositionError::invalid(format!("{name} must have exactly one king, found {kings}")));
        }
    }
    if pos.king_attackers(1 - pos.side_to_move()).not_empty() {
        let name = if pos.side_to_move() == WHITE { "Black" } else { "White" };
        return Err(PositionError::invalid(format!("{name} is in check but it is not {name}'s move")));
    }
    let mut usable = pos.castling;
    for castle in &CASTLES {
        let king_home = pos.piece_at(castle.king_from) == Some((castle.side, Kind::King));
        let rook_home = pos.piece_at(castle.rook_from) == Some((castle.side, Kind::Rook));
        if !(king_home && rook_home) {
            usable &= !castle.right;
        }
    }
    pos.set_castling(usable);
    Ok((pos, fullmove))
}

fn parse_board(pos: &mut Position, board: usize, layout: &str) -> Result<(), PositionError> {
    let ranks: Vec<&str> = layout.split('/').collect();
    if ranks.len() != RANKS {
        return Err(PositionError::syntax(
            format!("board {}", board + 1),
            format!("expected {RANKS} ranks separated by `/`, found {}", ranks.len()),
        ));
    }
    for (row, rank_text) in ranks.iter().enumerate() {
        let rank_index = RANKS - 1 - row;
        let location = || format!("board {}, rank {}", board + 1, rank_index + 1);
        let mut file = 0;
        for ch in rank_text.chars() {
            if let Some(run) = ch.to_digit(10) {
                if run == 0 || run as usize > FILES {
                    return Err(PositionError::syntax(
                        location(),
                        format!("empty-square count {ch} must be 1-{FILES}"),
                    ));
                }
                file += run as usize;
            } else {
                let Some((side, kind)) = Kind::from_letter(ch) else {
                    return Err(PositionError::syntax(
                        location(),
                        format!("unknown piece {ch:?} (pieces are K Q R C P, Black in lower case)"),
                    ));
                };
                if file < FILES {
                    pos.put(side, kind, Square::from_coords(board, file, rank_index));
                }
                file += 1;
            }
            if file > FILES {
                return Err(PositionError::syntax(location(), format!("more than {FILES} squares")));
            }
        }
        if file < FILES {
            return Err(PositionError::syntax(location(), format!("only {file} of {FILES} squares described")));
        }
    }
    Ok(())
}

fn parse_castling(text: &str) -> Result<u8, PositionError> {
    let location = "field 3 (castling)";
    if text == "-" {
        return Ok(0);
    }
    let mut found = 0;
    for ch in text.chars() {
        let Some(&(bit, _)) = rights::LETTERS.iter().find(|(_, letter)| *letter == ch) else {
            return Err(PositionError::syntax(location, format!("expected `-` or letters from KQkq, found {ch:?}")));
        };
        if found & bit != 0 {
            return Err(PositionError::syntax(location, format!("{ch} is given twice")));
        }
        found |= bit;
    }
    Ok(found)
}

pub fn position_text(pos: &Position, fullmove: u32) -> String {
    let mut out = String::with_capacity(64);
    for board in 0..2 {
        if board == 1 {
            out.push('|');
        }
        for rank_index in (0..RANKS).rev() {
            let mut empty = 0;
            for file in 0..FILES {
                match pos.piece_at(Square::from_coords(board, file, rank_index)) {
                    None => empty += 1,
                    Some((side, kind)) => {
                        if empty > 0 {
                            out.push(char::from_digit(empty, 10).unwrap_or('?'));
                            empty = 0;
                        }
                        out.push(kind.letter_for(side));
                    }
                }
            }
            if empty > 0 {
                out.push(char::from_digit(empty, 10).unwrap_or('?'));
            }
            if rank_index > 0 {
                out.push('/');
            }
        }
    }
    out.push_str(if pos.side_to_move() == WHITE { " w " } else { " b " });
    out.push_str(&castling_text(pos.castling));
    out.push_str(&format!(" {} {fullmove}", pos.halfmove));
    out
}

pub fn castling_text(castling: u8) -> String {
    let text: String =
        rights::LETTERS.iter().filter(|(bit, _)| castling & bit != 0).map(|&(_, letter)| letter).collect();
    if text.is_empty() {
        "-".to_owned()
    } else {
        text
    }
}
