//! Drawing for the terminal and the JSON view for the web page.

use super::piece::WHITE;
use super::square::{Square, FILES, RANKS};
use super::text::{castling_text, position_text};
use super::Lma;
use menagerie_core::{Game, Outcome, Player};
use serde_json::json;

/// Both boards side by side, rank 7 at the top. Dark squares are drawn with
/// `:` (`:::` empty, `:r:` with a piece), light ones with spaces (` . `,
/// ` r `), so the colour rule is visible.
pub fn render(game: &Lma) -> String {
    let pos = &game.pos;
    let files: String = (0..FILES).map(|f| format!(" {} ", (b'a' + f as u8) as char)).collect();
    let width = 3 * FILES;
    let mut out = String::new();
    let header = format!("  {files}        {files}");
    let header = header.trim_end();
    out.push_str(format!("  {:^width$}        {:^width$}", "board 1", "board 2").trim_end());
    out.push('\n');
    out.push_str(header);
    out.push('\n');
    for rank_index in (0..RANKS).rev() {
        let rank = rank_index + 1;
        let mut line = String::new();
        for board in 0..2 {
            if board == 1 {
                line.push_str("   ");
            }
            line.push_str(&format!("{rank} "));
            for file in 0..FILES {
                let square = Square::from_coords(board, file, rank_index);
                let fill = if square.is_dark() { ':' } else { ' ' };
                let middle = match pos.piece_at(square) {
                    Some((side, kind)) => kind.letter_for(side),
                    None if square.is_dark() => ':',
                    None => '.',
                };
                line.push(fill);
                line.push(middle);
                line.push(fill);
            }
            line.push_str(&format!(" {rank}"));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out.push_str(header);
    out.push('\n');
    let side = if pos.side_to_move() == WHITE { "White" } else { "Black" };
    match game.outcome() {
        Some(Outcome::Win { winner, reason }) => {
            let name = if winner == Player::First { "White" } else { "Black" };
            out.push_str(&format!("Game over: {name} wins by {reason}\n"));
        }
        Some(Outcome::Draw { reason }) => out.push_str(&format!("Game over: draw by {reason}\n")),
        None => {
            let check = if game.in_check() { ", in check" } else { "" };
            out.push_str(&format!("{side} to move{check}\n"));
        }
    }
    out.push_str(&format!(
        "castling {}, halfmove clock {}, move {}\n",
        castling_text(pos.castling),
        pos.halfmove,
        game.fullmove()
    ));
    out.push_str(&position_text(pos, game.fullmove()));
    out.push('\n');
    out
}

/// The shape is documented in the module doc of `lma`.
pub fn view_json(game: &Lma) -> serde_json::Value {
    let pos = &game.pos;
    let boards: Vec<serde_json::Value> = (0..2)
        .map(|board| {
            let squares: Vec<serde_json::Value> = (0..RANKS)
                .rev()
                .flat_map(|rank_index| (0..FILES).map(move |file| Square::from_coords(board, file, rank_index)))
                .map(|square| {
                    let piece = pos.piece_at(square).map(|(side, kind)| kind.letter_for(side).to_string());
                    json!({ "square": square.name(), "piece": piece, "dark": square.is_dark() })
                })
                .collect();
            json!({ "board": board + 1, "squares": squares })
        })
        .collect();
    let outcome = game.outcome().map(|outcome| {
        let winner = outcome.winner().map(|p| if p == Player::First { "white" } else { "black" });
        json!({ "winner": winner, "reason": outcome.reason() })
    });
    json!({
        "variant": game.variant.id(),
        "boards": boards,
        "to_move": if pos.side_to_move() == WHITE { "white" } else { "black" },
        "check": game.in_check(),
        "castling": castling_text(pos.castling),
        "halfmove": pos.halfmove,
        "fullmove": game.fullmove(),
        "outcome": outcome,
        "text": position_text(pos, game.fullmove()),
    })
}
