//! The rules' invariants, checked by the property tests after every move.

use super::bitboard::Bitboard;
use super::castling::CASTLES;
use super::piece::{Kind, BLACK, KINDS, WHITE};
use super::position::Position;
use super::tables::{EVEN, ODD};
use super::text::castling_text;

/// `before` is the position before the last move, when there is one.
pub fn check(pos: &Position, before: Option<&Position>) -> Result<(), String> {
    for board in 0..2 {
        if (pos.sides[board][0] & pos.sides[board][1]).not_empty() {
            return Err(format!("board {}: a square holds pieces of both sides", board + 1));
        }
        let mut union = Bitboard::EMPTY;
        for kind in KINDS {
            let bits = pos.kinds[board][kind as usize];
            if (union & bits).not_empty() {
                return Err(format!("board {}: a square holds two kinds", board + 1));
            }
            union |= bits;
        }
        if union != pos.occupied(board) || (union & !Bitboard::ALL).not_empty() {
            return Err(format!("board {}: kind and side bitboards disagree", board + 1));
        }
    }
    for side in [WHITE, BLACK] {
        let kings = pos.pieces(0, side, Kind::King).count() + pos.pieces(1, side, Kind::King).count();
        if kings != 1 {
            return Err(format!("{} has {kings} kings", side_name(side)));
        }
    }
    if pos.king_attackers(1 - pos.side_to_move()).not_empty() {
        return Err("the side that just moved left its king attacked".into());
    }
    if pos.hash != pos.compute_hash() {
        return Err("incremental hash differs from the recomputed one".into());
    }
    for castle in &CASTLES {
        if pos.castling & castle.right != 0
            && (pos.piece_at(castle.king_from) != Some((castle.side, Kind::King))
                || pos.piece_at(castle.rook_from) != Some((castle.side, Kind::Rook)))
        {
            return Err(format!("castling right {} without its king and rook at home", castling_text(castle.right)));
        }
    }
    // Monochromatic: a move never changes the colour of the squares a
    // piece stands on, so per side and colour the pieces can only get
    // fewer, and the mover's side keeps all of its own.
    if let Some(before) = before {
        let mover = before.side_to_move();
        for side in [WHITE, BLACK] {
            for dark in [false, true] {
                let (was, now) = (count_on_colour(before, side, dark), count_on_colour(pos, side, dark));
                if now > was || (side == mover && now != was) {
                    return Err(format!(
                        "{} pieces on {} squares went from {was} to {now}",
                        side_name(side),
                        if dark { "dark" } else { "light" }
                    ));
                }
            }
        }
    }
    Ok(())
}

fn side_name(side: usize) -> &'static str {
    if side == WHITE {
        "white"
    } else {
        "black"
    }
}

/// How many pieces of `side` stand on dark (or light) squares.
fn count_on_colour(pos: &Position, side: usize, dark: bool) -> u32 {
    // Dark on board 1 is an even cell, on board 2 an odd one.
    let (first, second) = if dark { (EVEN, ODD) } else { (ODD, EVEN) };
    (pos.sides[0][side] & first).count() + (pos.sides[1][side] & second).count()
}
