//! What people see: the terminal drawing and the board part of the view.

use super::moves::{Act, Move};
use super::square::{Direction, Square, RANKS};
use super::Lichen;
use menagerie_core::view::check_suffix;
use menagerie_core::{Counters, Game, Outcome, Player, Present};
use serde::Serialize;
use std::collections::BTreeMap;
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
fn render(game: &Lichen) -> String {
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

/// The board part of Lichen Chess's view. North (`n`) is towards rank 3;
/// White sits at rank 1.
///
/// ```json
/// { "files": 5, "ranks": 3,
///   "squares": ["a1", "b1", ...],
///   "directions": ["n","ne","e","se","s","sw","w","nw"],
///   "stones": [ { "square": "c1", "slots": { "n": "white", "ne": null, ... },
///                 "kingstone": "white", "controller": "white" } ],
///   "hands": { "white": 20, "black": 20 },
///   "harvest": ["b1"] }
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LichenBoard {
    pub files: u8,
    pub ranks: u8,
    /// Every square, rank 1 first, files a.. within a rank.
    pub squares: Vec<String>,
    pub directions: [&'static str; 8],
    /// One per stone, in square order.
    pub stones: Vec<StoneView>,
    pub hands: Hands,
    /// The stones the mover harvests at the start of the turn.
    pub harvest: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StoneView {
    pub square: String,
    /// Per direction: whose token is in that slot (`white`, `black`), or `None`.
    pub slots: BTreeMap<&'static str, Option<&'static str>>,
    /// Whose kingstone this is, if anyone's.
    pub kingstone: Option<&'static str>,
    /// Who controls the stone (`None`: a tie).
    pub controller: Option<&'static str>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Hands {
    pub white: u32,
    pub black: u32,
}

/// A direction as an arrow, north up: `n` is `↑`, `ne` is `↗`.
fn arrow(dir: Direction) -> char {
    match dir.name() {
        "n" => '↑',
        "ne" => '↗',
        "e" => '→',
        "se" => '↘',
        "s" => '↓',
        "sw" => '↙',
        "w" => '←',
        _ => '↖',
    }
}

impl Present for Lichen {
    type Board = LichenBoard;

    /// The placement as the stone and an arrow for the slot (`a2↗`), then
    /// the act: a stone's move (`c1↑`) or a colonization (`a2*↗`); `#`
    /// when the turn wins.
    fn move_label(&self, mv: Move) -> String {
        let g = self.board.geometry;
        let mut label = format!("{}{}", g.square_name(mv.square), arrow(mv.slot));
        match mv.act {
            Act::Pass => {}
            Act::Step { from, dir } => label.push_str(&format!(" {}{}", g.square_name(from), arrow(dir))),
            Act::Colonize { from, dir } => label.push_str(&format!(" {}*{}", g.square_name(from), arrow(dir))),
        }
        label.push_str(check_suffix(self, mv));
        label
    }

    fn board(&self, _viewer: Option<Player>) -> LichenBoard {
        let board = &self.board;
        let g = board.geometry;
        let mut squares = Vec::new();
        let mut stones = Vec::new();
        for rank in 0..RANKS {
            for file in 0..g.files {
                let square = g.square(file, rank);
                squares.push(g.square_name(square));
                if !board.has_stone(square) {
                    continue;
                }
                let slots = Direction::all()
                    .map(|dir| {
                        let token = Player::BOTH.into_iter().find(|&p| board.slots(p, square) & dir.bit() != 0);
                        (dir.name(), token.map(side_name))
                    })
                    .collect();
                stones.push(StoneView {
                    square: g.square_name(square),
                    slots,
                    kingstone: board.kingstone_owner(square).map(side_name),
                    controller: board.controller(square).map(side_name),
                });
            }
        }
        let mut harvest = Vec::new();
        if self.outcome().is_none() {
            let mask = board.harvestable(board.to_move);
            harvest.extend(g.all_squares().filter(|s| mask & s.bit() != 0).map(|s| g.square_name(s)));
        }
        LichenBoard {
            files: g.files,
            ranks: RANKS,
            squares,
            directions: Direction::NAMES,
            stones,
            hands: Hands { white: board.hand[0], black: board.hand[1] },
            harvest,
        }
    }

    fn counters(&self) -> Counters {
        Counters { quiet_turns: Some(self.quiet_turns()), ..Counters::default() }
    }

    fn render(&self, _viewer: Option<Player>) -> String {
        render(self)
    }
}
