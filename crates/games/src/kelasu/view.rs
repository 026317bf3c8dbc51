//! What people see: the terminal drawing and the board part of the view.

use super::bitboard::Bitboard;
use super::moves::Action;
use super::piece::{colour_name, Kind};
use super::position::State;
use super::square::Square;
use super::tables::VICTORY_TILES;
use super::text::squares_text;
use super::Kelasu;
use menagerie_core::{Counters, Player, Present};
use serde::Serialize;

/// The board, A at the top: Blue upper case, Red lower case, `*` after a
/// spent piece, `[ ]` round a Victory Tile, `.` an empty square.
fn render(state: &State) -> String {
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

/// The board part of Kelasu's view.
///
/// ```json
/// { "ranks": ["A", …, "J"], "files": ["0", …, "9"],
///   "squares": [ { "square": "C0", "piece": "S", "kind": "stone", "colour": "blue", "spent": false } ],
///   "victory_tiles": ["E4", "E5", "F4", "F5"],
///   "energy": 4, "spent": ["C3"], "stones": { "blue": 4, "red": 4 } }
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct KelasuBoard {
    /// Top to bottom.
    pub ranks: [&'static str; 10],
    /// Left to right.
    pub files: [&'static str; 10],
    /// Occupied squares only, ascending.
    pub squares: Vec<PieceView>,
    pub victory_tiles: Vec<String>,
    /// Energy left this turn.
    pub energy: u8,
    /// The acting player's pieces that have acted this turn.
    pub spent: Vec<String>,
    pub stones: Stones,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PieceView {
    pub square: String,
    /// The upper-case letter whatever the colour.
    pub piece: char,
    pub kind: &'static str,
    pub colour: &'static str,
    pub spent: bool,
}

/// Stones per player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Stones {
    pub blue: u32,
    pub red: u32,
}

impl Present for Kelasu {
    type Board = KelasuBoard;

    fn board(&self, _viewer: Option<Player>) -> KelasuBoard {
        let state = &self.state;
        let squares = state
            .board
            .occupied()
            .filter_map(|sq| {
                let (player, kind) = state.board.piece_at(sq)?;
                Some(PieceView {
                    square: sq.to_string(),
                    piece: kind.letter(),
                    kind: kind.name(),
                    colour: colour_name(player),
                    spent: state.spent.contains(sq),
                })
            })
            .collect();
        let names = |set: Bitboard| set.map(|sq| sq.to_string()).collect::<Vec<_>>();
        KelasuBoard {
            ranks: ["A", "B", "C", "D", "E", "F", "G", "H", "I", "J"],
            files: ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"],
            squares,
            victory_tiles: names(VICTORY_TILES),
            energy: state.energy,
            spent: names(state.spent),
            stones: Stones {
                blue: state.board.pieces(Player::First, Kind::Stone).count(),
                red: state.board.pieces(Player::Second, Kind::Stone).count(),
            },
        }
    }

    /// The piece letter (none for a Blank), the squares joined by `-` for
    /// a move, `x` for a capture, `=` for a Diplomat's conversion
    /// (`DE4=D3`); a merge is the new piece `@` its square and the number
    /// of Blanks used (`W@D1(2)`).
    fn move_label(&self, action: Action) -> String {
        let board = &self.state.board;
        if let Some(kind) = action.merged_kind() {
            return format!("{}@{}({})", kind.letter(), action.from(), action.squares().count());
        }
        let mover = board.piece_at(action.from());
        let mut label = String::new();
        if let Some((_, kind)) = mover.filter(|&(_, kind)| kind != Kind::Blank) {
            label.push(kind.letter());
        }
        let taken = board.colour_at(action.to()).is_some_and(|owner| Some(owner) != mover.map(|(p, _)| p));
        let joiner = match mover {
            Some((_, Kind::Diplomat)) if taken => '=',
            _ if taken => 'x',
            _ => '-',
        };
        label.push_str(&format!("{}{joiner}{}", action.from(), action.to()));
        label
    }

    fn counters(&self) -> Counters {
        Counters { turn: Some(self.state.turn), quiet_turns: Some(self.state.quiet), ..Counters::default() }
    }

    fn render(&self, _viewer: Option<Player>) -> String {
        render(&self.state)
    }
}
