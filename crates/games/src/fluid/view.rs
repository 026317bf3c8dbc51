//! What people see: the terminal drawing and the JSON view for the web page.

use super::piece::{Cell, Colour};
use super::position::State;
use super::square::Square;
use super::text::{castling_text, cell_text};
use menagerie_core::Outcome;
use serde_json::{json, Map, Value};

/// Two characters per square: a single piece (`R `), a pair in its colours'
/// cases (`BN`, `Bn`), a queen as `Q `, `. ` for empty.
fn cell_picture(cell: Cell) -> String {
    let text = cell_text(cell).replace(['(', ')'], "");
    if text.is_empty() {
        ". ".into()
    } else {
        format!("{text:<2}")
    }
}

pub fn render(state: &State, in_check: bool, outcome: Option<&Outcome>) -> String {
    let mut out = String::new();
    for rank in (0..8u8).rev() {
        out.push_str(&format!("{} ", rank + 1));
        for file in 0..8u8 {
            out.push(' ');
            out.push_str(&cell_picture(state.board.cell(Square::from_coords(file, rank))));
        }
        out.push('\n');
    }
    out.push_str("   a  b  c  d  e  f  g  h\n");
    out.push_str("(two letters = two pieces on one square; upper case White, lower case Black; Q = Bishop+Rook)\n");
    match outcome {
        Some(outcome) => out.push_str(&format!("game over: {outcome}\n")),
        None => {
            out.push_str(&format!("{} to move{}\n", state.side.name(), if in_check { ", in check" } else { "" }));
        }
    }
    out.push_str(&format!(
        "castling {}, en passant {}, halfmove clock {}, move {}\n",
        castling_text(state.castling),
        state.en_passant.map_or("-".to_string(), |s| s.to_string()),
        state.halfmove_clock,
        state.fullmove_number
    ));
    out
}

fn piece_kind_name(letter: char) -> &'static str {
    match letter {
        'P' => "pawn",
        'N' => "knight",
        'B' => "bishop",
        'R' => "rook",
        _ => "king",
    }
}

pub fn view_json(state: &State, text: String, in_check: bool, outcome: Option<&Outcome>, promotions: &[&str]) -> Value {
    let mut squares = Map::new();
    for square in Square::all() {
        let cell = state.board.cell(square);
        let pieces: Vec<Value> = cell
            .pieces()
            .map(|p| {
                let letter = p.kind().letter();
                json!({ "colour": p.colour().name(), "letter": letter.to_string(), "kind": piece_kind_name(letter) })
            })
            .collect();
        squares.insert(square.to_string(), Value::Array(pieces));
    }
    let mut labels = Map::new();
    for square in Square::all() {
        let label = cell_text(state.board.cell(square)).replace(['(', ')'], "");
        if !label.is_empty() {
            labels.insert(square.to_string(), Value::String(label));
        }
    }
    json!({
        "game": "fluid",
        "text": text,
        "files": ["a", "b", "c", "d", "e", "f", "g", "h"],
        "ranks": ["1", "2", "3", "4", "5", "6", "7", "8"],
        "squares": squares,
        "labels": labels,
        "to_move": state.side.name(),
        "check": in_check,
        "castling": castling_text(state.castling),
        "en_passant": state.en_passant.map(|s| s.to_string()),
        "halfmove_clock": state.halfmove_clock,
        "fullmove_number": state.fullmove_number,
        "promotions": promotions,
        "outcome": outcome.map(|o| json!({
            "winner": o.winner().map(|w| if w == Colour::White.player() { "white" } else { "black" }),
            "reason": o.reason(),
        })),
    })
}
