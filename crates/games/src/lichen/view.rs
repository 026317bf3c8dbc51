//! The position for people: a terminal drawing and the JSON view the web
//! page draws from (its shape is documented in the module doc of `lichen`).

use super::square::{Direction, Square, RANKS};
use super::Lichen;
use menagerie_core::{Game, Outcome, Player};
use serde_json::{json, Map, Value};
use std::fmt::Write;

fn side_name(player: Player) -> &'static str {
    Lichen::player_name(player)
}

fn slot_char(game: &Lichen, square: Square, dir: Direction) -> char {
    let board = &game.board;
    if board.slots(Player::First, square) & dir.bit() != 0 {
        'W'
    } else if board.slots(Player::Second, square) & dir.bit() != 0 {
        'B'
    } else {
        '.'
    }
}

/// The mark in a stone's centre: `K`/`k` for the kingstones, otherwise `w`
/// or `b` for the controller and `=` for a tie.
fn centre_char(game: &Lichen, square: Square) -> char {
    let board = &game.board;
    match (board.kingstone_owner(square), board.controller(square)) {
        (Some(Player::First), _) => 'K',
        (Some(Player::Second), _) => 'k',
        (None, Some(Player::First)) => 'w',
        (None, Some(Player::Second)) => 'b',
        (None, None) => '=',
    }
}

/// Each stone is a 3 x 3 cell: its eight slots around (`W`, `B`, `.` for
/// empty) as seen on the board, the kingstone or control mark in the centre.
pub fn render(game: &Lichen) -> String {
    let board = &game.board;
    let g = board.geometry;
    // Slot directions by row and column of the cell; `None` is the centre.
    const CELL: [[Option<u8>; 3]; 3] =
        [[Some(7), Some(0), Some(1)], [Some(6), None, Some(2)], [Some(5), Some(4), Some(3)]];
    let mut out = String::new();
    let separator = format!("   +{}\n", "-------+".repeat(g.files as usize));
    out.push_str("    ");
    for file in 0..g.files {
        let _ = write!(out, "   {}    ", (b'a' + file) as char);
    }
    out.push('\n');
    out.push_str(&separator);
    for rank in (0..RANKS).rev() {
        for (row, cells) in CELL.iter().enumerate() {
            if row == 1 {
                let _ = write!(out, " {} |", rank + 1);
            } else {
                out.push_str("   |");
            }
            for file in 0..g.files {
                let square = g.square(file, rank);
                out.push(' ');
                for cell in cells {
                    let c = if !board.has_stone(square) {
                        ' '
                    } else {
                        match cell {
                            Some(d) => slot_char(game, square, Direction(*d)),
                            None => centre_char(game, square),
                        }
                    };
                    out.push(c);
                    out.push(' ');
                }
                out.push('|');
            }
            out.push('\n');
        }
        out.push_str(&separator);
    }
    let _ = writeln!(out, "hands: white {}, black {}", board.hand[0], board.hand[1]);
    for player in Player::BOTH {
        let square = board.kingstone[player.index()];
        let controller = board.controller(square).map_or("nobody", side_name);
        let _ =
            writeln!(out, "{} kingstone on {}, controlled by {controller}", side_name(player), g.square_name(square));
    }
    match game.outcome() {
        Some(Outcome::Win { winner, reason }) => {
            let _ = writeln!(out, "game over: {} wins ({reason})", side_name(winner));
        }
        Some(Outcome::Draw { reason }) => {
            let _ = writeln!(out, "game over: draw ({reason})");
        }
        None => {
            let _ = writeln!(out, "{} to move", side_name(board.to_move));
        }
    }
    out
}

pub fn json(game: &Lichen) -> Value {
    let board = &game.board;
    let g = board.geometry;
    let owner = |p: Option<Player>| p.map_or(Value::Null, |p| Value::from(side_name(p)));
    let mut squares = Vec::new();
    let mut stones = Vec::new();
    for rank in 0..RANKS {
        for file in 0..g.files {
            let square = g.square(file, rank);
            squares.push(Value::from(g.square_name(square)));
            if !board.has_stone(square) {
                continue;
            }
            let mut slots = Map::new();
            for dir in Direction::all() {
                let token = Player::BOTH.into_iter().find(|&p| board.slots(p, square) & dir.bit() != 0);
                slots.insert(dir.name().to_owned(), owner(token));
            }
            stones.push(json!({
                "square": g.square_name(square),
                "slots": slots,
                "kingstone": owner(board.kingstone_owner(square)),
                "controller": owner(board.controller(square)),
            }));
        }
    }
    let mut harvest = Vec::new();
    if game.outcome().is_none() {
        let mask = board.harvestable(board.to_move);
        for square in g.all_squares().filter(|s| mask & s.bit() != 0) {
            harvest.push(Value::from(g.square_name(square)));
        }
    }
    let outcome = game.outcome().map_or(Value::Null, |o| json!({ "winner": owner(o.winner()), "reason": o.reason() }));
    json!({
        "game": "lichen",
        "variant": game.variant.id(),
        "files": g.files,
        "ranks": RANKS,
        "squares": squares,
        "directions": Direction::NAMES,
        "stones": stones,
        "hands": { "white": board.hand[0], "black": board.hand[1] },
        "to_move": side_name(board.to_move),
        "harvest": harvest,
        "outcome": outcome,
        "text": game.to_text(),
    })
}
