//! Move texts, `<from square><to file+rank>[q|r|c]`: `2b1c3`, `1c6d7q`.

use super::moves::Move;
use super::piece::Kind;
use super::square::{cell_name, Square};

impl Move {
    /// `2b1c3`, `1c6d7q`, `2d1f1` (castling is the king's move).
    pub fn text(self) -> String {
        let mut text = format!("{}{}", self.from, cell_name(self.to.cell()));
        if let Some(kind) = self.promotion() {
            text.push(kind.letter().to_ascii_lowercase());
        }
        text
    }
}

/// A move text split into its parts, before looking at the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveText {
    pub from: Square,
    pub to_cell: usize,
    pub promotion: Option<Kind>,
}

/// Reads the shape of a move text; `Err` says what is wrong with it.
pub fn parse_move_text(text: &str) -> Result<MoveText, String> {
    use super::square::parse_cell;
    let bytes = text.as_bytes();
    if !text.is_ascii() {
        return Err("only ASCII letters and digits are allowed".into());
    }
    if bytes.len() < 5 || bytes.len() > 6 {
        return Err(format!(
            "expected <board><file><rank><file><rank>[q|r|c], like 2b1c3 or 1c2c1q; found {} characters",
            bytes.len()
        ));
    }
    let board = match bytes[0] {
        b'1' => 0,
        b'2' => 1,
        other => return Err(format!("character 1 must be the board, 1 or 2, not {:?}", other as char)),
    };
    let from = parse_cell(bytes[1], bytes[2])
        .ok_or_else(|| format!("characters 2-3 {:?} are not a square (files a-f, ranks 1-7)", &text[1..3]))?;
    let to_cell = parse_cell(bytes[3], bytes[4])
        .ok_or_else(|| format!("characters 4-5 {:?} are not a square (files a-f, ranks 1-7)", &text[3..5]))?;
    let promotion = match bytes.get(5) {
        None => None,
        Some(b'q') => Some(Kind::Queen),
        Some(b'r') => Some(Kind::Rook),
        Some(b'c') => Some(Kind::Cardinal),
        Some(&other) => {
            return Err(format!(
                "character 6 must be a promotion piece q, r or c (lower case), not {:?}",
                other as char
            ))
        }
    };
    Ok(MoveText { from: Square::new(board, from), to_cell, promotion })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lma::moves::Special;

    #[test]
    fn move_texts_parse_and_print() {
        let m = parse_move_text("1c6d7q").unwrap();
        assert_eq!(m.from.name(), "1c6");
        assert_eq!(cell_name(m.to_cell), "d7");
        assert_eq!(m.promotion, Some(Kind::Queen));
        let mv = Move { from: m.from, to: Square::new(1, m.to_cell), special: Special::Promote(Kind::Queen) };
        assert_eq!(mv.text(), "1c6d7q");
        for bad in ["", "2b1c", "3b1c3", "2g1c3", "2b8c3", "2b1c3k", "2b1c3Q", "2b1c3qq", "2é1c3"] {
            assert!(parse_move_text(bad).is_err(), "{bad}");
        }
    }
}
