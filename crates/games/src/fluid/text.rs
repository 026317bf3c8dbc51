//! Position texts (FEN with `(XY)` for two pieces on a square and `Q` for
//! a same-colour Bishop + Rook).

use super::board::Board;
use super::piece::{Cell, Colour, Kind, Piece};
use super::position::{Rules, State, BLACK_KING_SIDE, BLACK_QUEEN_SIDE, WHITE_KING_SIDE, WHITE_QUEEN_SIDE};
use super::square::Square;
use menagerie_core::PositionError;

const CASTLING_LETTERS: [(char, u8); 4] =
    [('K', WHITE_KING_SIDE), ('Q', WHITE_QUEEN_SIDE), ('k', BLACK_KING_SIDE), ('q', BLACK_QUEEN_SIDE)];

fn file_name(file: usize) -> char {
    (b'a' + file as u8) as char
}

fn piece_letter(letter: char, location: &dyn Fn() -> String) -> Result<Piece, PositionError> {
    Piece::from_letter(letter).ok_or_else(|| {
        PositionError::syntax(
            location(),
            format!("{letter:?} is not a piece letter (PNBRK, pnbrk, or Q/q for a queen)"),
        )
    })
}

/// Reads the board field: eight ranks from the 8th down, separated by `/`.
fn parse_board(field: &str) -> Result<Board, PositionError> {
    let ranks: Vec<&str> = field.split('/').collect();
    if ranks.len() != 8 {
        return Err(PositionError::syntax(
            "field 1 (board)",
            format!("expected 8 ranks separated by '/', found {}", ranks.len()),
        ));
    }
    let mut board = Board::empty();
    for (row, rank_text) in ranks.iter().enumerate() {
        let rank = 7 - row;
        let mut file = 0usize;
        let mut chars = rank_text.chars();
        while let Some(ch) = chars.next() {
            let here = || format!("rank {}, file {}", rank + 1, if file < 8 { file_name(file) } else { '?' });
            if let Some(run) = ch.to_digit(10) {
                if run == 0 || run > 8 {
                    return Err(PositionError::syntax(here(), format!("{ch:?} is not a run of 1 to 8 empty squares")));
                }
                file += run as usize;
                if file > 8 {
                    return Err(PositionError::syntax(format!("rank {}", rank + 1), "more than 8 squares"));
                }
                continue;
            }
            if file >= 8 {
                return Err(PositionError::syntax(format!("rank {}", rank + 1), "more than 8 squares"));
            }
            let cell = match ch {
                '(' => {
                    let (Some(a), Some(b), Some(close)) = (chars.next(), chars.next(), chars.next()) else {
                        return Err(PositionError::syntax(here(), "unfinished '(XY)' pair"));
                    };
                    if close != ')' {
                        return Err(PositionError::syntax(here(), "a '(' holds exactly two piece letters and ')'"));
                    }
                    let (a, b) = (piece_letter(a, &here)?, piece_letter(b, &here)?);
                    if a.colour() == b.colour() && (a.kind() == Kind::Pawn || b.kind() == Kind::Pawn) {
                        return Err(PositionError::invalid(format!(
                            "{}: a pawn may not share its square with a friendly piece",
                            Square::from_coords(file as u8, rank as u8)
                        )));
                    }
                    Cell::EMPTY.with(a).with(b)
                }
                'Q' | 'q' => {
                    let colour = if ch == 'Q' { Colour::White } else { Colour::Black };
                    Cell::EMPTY.with(Piece::new(colour, Kind::Bishop)).with(Piece::new(colour, Kind::Rook))
                }
                _ => Cell::EMPTY.with(piece_letter(ch, &here)?),
            };
            board.set_cell(Square::from_coords(file as u8, rank as u8), cell);
            file += 1;
        }
        if file != 8 {
            return Err(PositionError::syntax(format!("rank {}", rank + 1), format!("{file} squares instead of 8")));
        }
    }
    Ok(board)
}

fn parse_number(field: Option<&str>, index: usize, name: &str, default: u32) -> Result<u32, PositionError> {
    match field {
        None => Ok(default),
        Some(text) => text.parse::<u32>().map_err(|_| {
            PositionError::syntax(format!("field {index} ({name})"), format!("{text:?} is not a non-negative number"))
        }),
    }
}

/// Reads a position text. The last two fields (clocks) may be left out.
pub fn parse_position(rules: &Rules, text: &str) -> Result<State, PositionError> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.len() < 4 || fields.len() > 6 {
        return Err(PositionError::syntax(
            "position text",
            format!(
                "expected 6 fields (board, side, castling, en passant, halfmove clock, move number), found {}",
                fields.len()
            ),
        ));
    }
    let board = parse_board(fields[0])?;
    let side = match fields[1] {
        "w" => Colour::White,
        "b" => Colour::Black,
        other => {
            return Err(PositionError::syntax("field 2 (side to move)", format!("expected w or b, found {other:?}")))
        }
    };
    let mut castling = 0u8;
    if fields[2] != "-" {
        for ch in fields[2].chars() {
            let Some(&(_, bit)) = CASTLING_LETTERS.iter().find(|(letter, _)| *letter == ch) else {
                return Err(PositionError::syntax("field 3 (castling)", format!("{ch:?} is not one of K, Q, k, q")));
            };
            if castling & bit != 0 {
                return Err(PositionError::syntax("field 3 (castling)", format!("{ch:?} is given twice")));
            }
            castling |= bit;
        }
    }
    let en_passant = match fields[3] {
        "-" => None,
        name => {
            let square = Square::parse(name).ok_or_else(|| {
                PositionError::syntax("field 4 (en passant)", format!("expected - or a square like e3, found {name:?}"))
            })?;
            let expected_rank = if side == Colour::White { 5 } else { 2 };
            if square.rank() != expected_rank {
                return Err(PositionError::syntax(
                    "field 4 (en passant)",
                    format!(
                        "{name} cannot be skipped by the last move: with {} to move it is on rank {}",
                        side.name(),
                        expected_rank + 1
                    ),
                ));
            }
            Some(square)
        }
    };
    let halfmove_clock = parse_number(fields.get(4).copied(), 5, "halfmove clock", 0)?;
    let fullmove_number = parse_number(fields.get(5).copied(), 6, "move number", 1)?;

    for colour in [Colour::White, Colour::Black] {
        let kings: usize = Square::all()
            .map(|sq| board.cell(sq).pieces().filter(|p| *p == Piece::new(colour, Kind::King)).count())
            .sum();
        if kings != 1 {
            return Err(PositionError::invalid(format!(
                "{} has {kings} kings; each side needs exactly one",
                colour.name()
            )));
        }
    }
    // Rights without their king and rook on their squares mean nothing: drop them.
    for (colour, rank) in [(Colour::White, 0u8), (Colour::Black, 7u8)] {
        let (king_side, queen_side) = super::position::rights_of(colour);
        let rooks = board.pieces(colour, Kind::Rook);
        if !board.pieces(colour, Kind::King).contains(Square::from_coords(4, rank)) {
            castling &= !(king_side | queen_side);
        }
        if !rooks.contains(Square::from_coords(7, rank)) {
            castling &= !king_side;
        }
        if !rooks.contains(Square::from_coords(0, rank)) {
            castling &= !queen_side;
        }
    }
    let in_check = board.king(side).is_some_and(|king| board.attacked(king, side.other(), rules.single_promotions));
    let mut state =
        State { board, side, castling, en_passant, halfmove_clock, fullmove_number, repetition_key: 0, in_check };
    let other = side.other();
    if let Some(king) = state.board.king(other) {
        if state.board.attacked(king, side, rules.single_promotions) {
            return Err(PositionError::invalid(format!("{} is not to move but stands in check", other.name())));
        }
    }
    state.repetition_key = state.hash();
    Ok(state)
}

/// The text of one square's content.
pub fn cell_text(cell: Cell) -> String {
    match (cell.first(), cell.second()) {
        (None, _) => String::new(),
        (Some(a), None) => a.letter().to_string(),
        (Some(a), Some(b)) => {
            let kinds = (a.kind(), b.kind());
            if a.colour() == b.colour() && matches!(kinds, (Kind::Bishop, Kind::Rook) | (Kind::Rook, Kind::Bishop)) {
                return if a.colour() == Colour::White { "Q".into() } else { "q".into() };
            }
            // Alphabetical by upper-case letter; White first on a tie.
            let key = |p: Piece| (p.kind().letter(), p.colour().index());
            let (x, y) = if key(a) <= key(b) { (a, b) } else { (b, a) };
            format!("({}{})", x.letter(), y.letter())
        }
    }
}

pub fn position_text(state: &State) -> String {
    let mut text = String::with_capacity(80);
    for rank in (0..8u8).rev() {
        let mut empty = 0;
        for file in 0..8u8 {
            let cell = state.board.cell(Square::from_coords(file, rank));
            if cell.is_empty() {
                empty += 1;
                continue;
            }
            if empty > 0 {
                text.push_str(&empty.to_string());
                empty = 0;
            }
            text.push_str(&cell_text(cell));
        }
        if empty > 0 {
            text.push_str(&empty.to_string());
        }
        if rank > 0 {
            text.push('/');
        }
    }
    text.push_str(if state.side == Colour::White { " w " } else { " b " });
    text.push_str(&castling_text(state.castling));
    text.push(' ');
    match state.en_passant {
        Some(square) => text.push_str(&square.to_string()),
        None => text.push('-'),
    }
    text.push_str(&format!(" {} {}", state.halfmove_clock, state.fullmove_number));
    text
}

pub fn castling_text(rights: u8) -> String {
    let text: String =
        CASTLING_LETTERS.iter().filter(|(_, bit)| rights & bit != 0).map(|(letter, _)| *letter).collect();
    if text.is_empty() {
        "-".into()
    } else {
        text
    }
}
