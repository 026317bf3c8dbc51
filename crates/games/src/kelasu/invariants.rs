//! The rules' invariants, checked by the property tests after every move.

use super::piece::Kind;
use super::position::QUIET_LIMIT;
use super::{bitboard, Kelasu};

pub fn check(game: &Kelasu) -> Result<(), String> {
    let s = &game.state;
    let board = &s.board;
    if (board.colours[0] & board.colours[1]).not_empty() {
        return Err("a square holds pieces of both colours".into());
    }
    let mut kinds = bitboard::Bitboard::EMPTY;
    for kind in Kind::ALL {
        if (kinds & board.kinds[kind.index()]).not_empty() {
            return Err("a square holds two kinds of piece".into());
        }
        kinds |= board.kinds[kind.index()];
    }
    if kinds != board.occupied() {
        return Err("kind and colour bitboards disagree".into());
    }
    let movers = board.colours[s.mover.index()] & !board.kinds[Kind::Stone.index()];
    if (s.spent & !movers).not_empty() {
        return Err("a spent square holds no movable piece of the mover".into());
    }
    if s.hash != s.compute_hash() {
        return Err("incremental hash differs from the recomputed one".into());
    }
    if game.turn_starts.len() != s.recorded_turn_starts as usize {
        return Err("repetition record out of step".into());
    }
    if s.ending.is_none() {
        if s.energy == 0 {
            return Err("the mover has no Energy but the turn has not passed".into());
        }
        if s.win_check().is_some() {
            return Err("a win condition holds but the game goes on".into());
        }
        if s.quiet >= QUIET_LIMIT {
            return Err("the quiet counter reached 128 but the game goes on".into());
        }
        if !s.has_any_action() {
            return Err("the mover has no legal action but the turn has not passed".into());
        }
    }
    Ok(())
}
