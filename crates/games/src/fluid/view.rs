//! What people see: the terminal drawing and the board part of the view.

use super::moves::{Move, Special};
use super::piece::{Cell, Promotion};
use super::position::State;
use super::square::Square;
use super::text::{castling_text, cell_text};
use super::Fluid;
use menagerie_core::view::check_suffix;
use menagerie_core::{Counters, Game, Outcome, Player, Present};
use serde::Serialize;
use std::collections::BTreeMap;

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

fn render(state: &State, in_check: bool, outcome: Option<&Outcome>) -> String {
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

/// The board part of Fluid Chess's view.
///
/// ```text
/// { "files": ["a".."h"], "ranks": ["1".."8"],
///   "squares": { "a1": [ {"colour": "white", "letter": "R", "kind": "rook"} ], "e4": [], ... },
///   "labels": { "d1": "Q", "e5": "Bn", ... },
///   "castling": "KQkq" | "-", "en_passant": "e3" | null,
///   "promotions": ["BR", "R", "B", "N"] }
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FluidBoard {
    pub files: [&'static str; 8],
    pub ranks: [&'static str; 8],
    /// All 64 squares, named as in move texts; each a list of 0-2 pieces.
    pub squares: BTreeMap<String, Vec<PieceView>>,
    /// Occupied squares only: what to print on the square (a queen is `Q`;
    /// a pair two letters in their colours' cases).
    pub labels: BTreeMap<String, String>,
    pub castling: String,
    pub en_passant: Option<String>,
    /// What a pawn may become in this variant.
    pub promotions: Vec<&'static str>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PieceView {
    pub colour: &'static str,
    pub letter: char,
    pub kind: &'static str,
}

impl Present for Fluid {
    type Board = FluidBoard;

    fn board(&self, _viewer: Option<Player>) -> FluidBoard {
        let state = self.state();
        let mut squares = BTreeMap::new();
        let mut labels = BTreeMap::new();
        for square in Square::all() {
            let cell = state.board.cell(square);
            let pieces = cell
                .pieces()
                .map(|p| {
                    let letter = p.kind().letter();
                    PieceView { colour: p.colour().name(), letter, kind: piece_kind_name(letter) }
                })
                .collect();
            squares.insert(square.to_string(), pieces);
            let label = cell_text(cell).replace(['(', ')'], "");
            if !label.is_empty() {
                labels.insert(square.to_string(), label);
            }
        }
        FluidBoard {
            files: ["a", "b", "c", "d", "e", "f", "g", "h"],
            ranks: ["1", "2", "3", "4", "5", "6", "7", "8"],
            squares,
            labels,
            castling: castling_text(state.castling),
            en_passant: state.en_passant.map(|s| s.to_string()),
            promotions: self.rules.promotions.iter().map(|p| p.text()).collect(),
        }
    }

    /// Chess-like: the unit's letters (`Q` for a Bishop and Rook moving
    /// together, none for a Pawn, which names its file when it takes),
    /// `x` and the destination, the piece taken when the mover chose it
    /// (`Nxe6(B)`), `=` and the promotion, `+` or `#`; castling `O-O`,
    /// `O-O-O`.
    fn move_label(&self, mv: Move) -> String {
        let state = self.state();
        let mut label = String::new();
        if mv.special() == Special::Castle {
            label.push_str(if mv.to().file() > mv.from().file() { "O-O" } else { "O-O-O" });
        } else {
            let unit = mv.unit_text();
            let capture = mv.special() == Special::EnPassant
                || state.board.cell(mv.to()).pieces().any(|p| p.colour() != state.side);
            match unit.as_str() {
                "P" if capture => label.push(char::from(b'a' + mv.from().file())),
                "P" => {}
                "BR" => label.push('Q'),
                _ => label.push_str(&unit),
            }
            if capture {
                label.push('x');
            }
            label.push_str(&mv.to().to_string());
            if mv.shows_capture() {
                if let Some(kind) = mv.captured() {
                    label.push_str(&format!("({})", kind.letter()));
                }
            }
            if let Some(promotion) = mv.promotion() {
                label.push('=');
                label.push_str(if promotion == Promotion::Queen { "Q" } else { promotion.text() });
            }
        }
        label.push_str(check_suffix(self, mv));
        label
    }

    fn counters(&self) -> Counters {
        let state = self.state();
        Counters {
            turn: Some(state.fullmove_number),
            halfmove_clock: Some(state.halfmove_clock),
            ..Counters::default()
        }
    }

    fn render(&self, _viewer: Option<Player>) -> String {
        render(self.state(), self.side_in_check(), self.outcome().as_ref())
    }
}
