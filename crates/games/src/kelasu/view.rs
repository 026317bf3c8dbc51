//! The position for people: a terminal drawing and the JSON view for the
//! web page (shape documented in the module above).

use super::bitboard::Bitboard;
use super::piece::{colour_name, Kind};
use super::position::State;
use super::square::Square;
use super::tables::VICTORY_TILES;
use super::text::squares_text;
use menagerie_core::Player;
use serde_json::json;

/// The board, A at the top: Blue upper case, Red lower case, `*` after a
/// spent piece, `[ ]` round a Victory Tile, `.` an empty square.
pub fn render(state: &State) -> String {
    let mut out = String::new();
    out.push_str("    ");
    for file in 0..10 {
        out.push_str(&format!(" {file}  "));
    }
    out.push('\n');
    for rank in 0..10u8 {
        out.push_str(&format!(" {}  ", (b'A' + rank) as char));
        for file in 0..10u8 {
            let sq = Square::at(rank, file);
            let tile = VICTORY_TILES.contains(sq);
            let letter = match state.board.piece_at(sq) {
                Some((Player::First, kind)) => kind.letter(),
                Some((Player::Second, kind)) => kind.letter().to_ascii_lowercase(),
                None => '.',
            };
            out.push(if tile { '[' } else { ' ' });
            out.push(letter);
            out.push(if state.spent.contains(sq) { '*' } else { ' ' });
            out.push(if tile { ']' } else { ' ' });
        }
        out.push('\n');
    }
    let stones = |p| state.board.pieces(p, Kind::Stone).count();
    match state.ending {
        None => out.push_str(&format!(
            "{} to act, Energy {} left, spent {}; Stones blue {} red {}; quiet {}, turn {}\n",
            colour_name(state.mover),
            state.energy,
            squares_text(state.spent),
            stones(Player::First),
            stones(Player::Second),
            state.quiet,
            state.turn
        )),
        Some((Some(winner), reason)) => out.push_str(&format!("{} wins: {reason}\n", colour_name(winner))),
        Some((None, reason)) => out.push_str(&format!("draw: {reason}\n")),
    }
    out
}

pub fn json(state: &State, text: String) -> serde_json::Value {
    let squares: Vec<serde_json::Value> = state
        .board
        .occupied()
        .filter_map(|sq| {
            let (player, kind) = state.board.piece_at(sq)?;
            Some(json!({
                "square": sq.to_string(),
                "piece": kind.letter().to_string(),
                "kind": kind.name(),
                "colour": colour_name(player),
                "spent": state.spent.contains(sq),
            }))
        })
        .collect();
    let names = |set: Bitboard| set.map(|sq| sq.to_string()).collect::<Vec<_>>();
    let outcome = state.ending.map(|(winner, reason)| json!({ "winner": winner.map(colour_name), "reason": reason }));
    json!({
        "game": "kelasu",
        "ranks": ["A", "B", "C", "D", "E", "F", "G", "H", "I", "J"],
        "files": ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"],
        "squares": squares,
        "victory_tiles": names(VICTORY_TILES),
        "mover": colour_name(state.mover),
        "energy": state.energy,
        "spent": names(state.spent),
        "quiet": state.quiet,
        "turn": state.turn,
        "stones": {
            "blue": state.board.pieces(Player::First, Kind::Stone).count(),
            "red": state.board.pieces(Player::Second, Kind::Stone).count(),
        },
        "outcome": outcome,
        "text": text,
    })
}
