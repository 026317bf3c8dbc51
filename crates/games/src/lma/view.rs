//! What people see: the terminal drawing and the board part of the view.

use super::moves::{Move, Special};
use super::piece::{Kind, WHITE};
use super::square::{Square, FILES, RANKS};
use super::text::{castling_text, position_text};
use super::Lma;
use menagerie_core::view::check_suffix;
use menagerie_core::{Counters, Game, Outcome, Player, Present};
use serde::Serialize;

/// Both boards side by side, rank 7 at the top. Dark squares are drawn with
/// `:` (`:::` empty, `:r:` with a piece), light ones with spaces (` . `,
/// ` r `), so the colour rule is visible.
fn render(game: &Lma) -> String {
    let pos = game.pos();
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

/// The board part of LMA's view: both boards, and the castling rights.
///
/// ```json
/// { "boards": [
///     {"board": 1, "squares": [{"square": "1a7", "piece": "r", "dark": true}, ...]},
///     {"board": 2, "squares": [{"square": "2a7", "piece": null, "dark": false}, ...]}
///   ],
///   "castling": "KQkq" }
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LmaBoard {
    /// Board 1, then board 2.
    pub boards: Vec<BoardView>,
    /// As in the position text: `KQkq`, `-`.
    pub castling: String,
}

/// One of the two boards: its 42 squares rank 7 to rank 1, files a to f
/// (reading order).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BoardView {
    /// 1 or 2.
    pub board: usize,
    pub squares: Vec<SquareView>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SquareView {
    /// Named as in move texts: `1a7`.
    pub square: String,
    /// The piece letter (White upper case, Black lower case), or `None`.
    pub piece: Option<char>,
    /// The square's colour (the move rule depends on it).
    pub dark: bool,
}

impl Present for Lma {
    type Board = LmaBoard;

    fn board(&self, _viewer: Option<Player>) -> LmaBoard {
        let pos = self.pos();
        let boards = (0..2)
            .map(|board| BoardView {
                board: board + 1,
                squares: (0..RANKS)
                    .rev()
                    .flat_map(|rank_index| (0..FILES).map(move |file| Square::from_coords(board, file, rank_index)))
                    .map(|square| SquareView {
                        square: square.name(),
                        piece: pos.piece_at(square).map(|(side, kind)| kind.letter_for(side)),
                        dark: square.is_dark(),
                    })
                    .collect(),
            })
            .collect();
        LmaBoard { boards, castling: castling_text(pos.castling) }
    }

    /// Chess-like: the piece letter (none for a Pawn, which names its file
    /// when it takes), `x` for a capture (off-colour ones included), the
    /// landing square with its board, the promotion, `+` or `#`; castling
    /// is `O-O` (towards file f) or `O-O-O`. `Cx1a3` is the Cardinal of
    /// `2b1a3` taking on 2a3 and landing on 1a3.
    fn move_label(&self, mv: Move) -> String {
        let pos = self.pos();
        let mut label = String::new();
        if let Special::Castle(_) = mv.special {
            label.push_str(if mv.to.file() > mv.from.file() { "O-O" } else { "O-O-O" });
        } else {
            let kind = pos.piece_at(mv.from).map_or(Kind::Pawn, |(_, kind)| kind);
            // The square the move is traced to, on the mover's board: what it takes stands there.
            let traced = Square::new(mv.from.board(), mv.to.cell());
            let capture = pos.piece_at(traced).is_some();
            if kind != Kind::Pawn {
                label.push(kind.letter());
            } else if capture {
                label.push(char::from(b'a' + mv.from.file() as u8));
            }
            if capture {
                label.push('x');
            }
            label.push_str(&mv.to.name());
            if let Some(promotion) = mv.promotion() {
                label.push('=');
                label.push(promotion.letter());
            }
        }
        label.push_str(check_suffix(self, mv));
        label
    }

    fn counters(&self) -> Counters {
        Counters { turn: Some(self.fullmove()), halfmove_clock: Some(self.pos().halfmove), ..Counters::default() }
    }

    fn render(&self, _viewer: Option<Player>) -> String {
        render(self)
    }
}
