//! The learned evaluation's inputs for Kelasu (`kelasu-1`): a piece of a
//! kind on a cell (the Victory Tiles are cells: who stands on them is
//! there), the mover's pieces that have acted this turn, and the Energy
//! left to the mover. Each perspective sees its own pieces apart from the
//! other's (own first) and the ranks from its edge (Red's mirrored).
//!
//! Index: `(theirs × 7 + kind) × 100 + cell` (1,400);
//! `1400 + theirs × 100 + cell` for a piece spent this turn (200);
//! `1600 + theirs × 16 + energy` (Energy past 15 counts 15; 32): 1,632 in
//! all. "theirs" of the last two
//! is whether the mover is the other player.

use super::piece::Kind;
use super::square::Square;
use super::Kelasu;
use menagerie_core::Player;

pub const FEATURES: &str = "kelasu-1";
const CELLS: usize = Square::COUNT;
const PIECES: usize = 2 * Kind::ALL.len() * CELLS;
const SPENT: usize = PIECES;
const ENERGY: usize = SPENT + 2 * CELLS;
const ENERGY_LEVELS: usize = 16;
pub const INPUTS: usize = ENERGY + 2 * ENERGY_LEVELS;

pub fn learned_inputs(game: &Kelasu, perspective: Player, inputs: &mut Vec<u16>) {
    let state = &game.state;
    let seen = |square: Square| {
        if perspective == Player::First {
            square.index()
        } else {
            usize::from(9 - square.rank()) * 10 + usize::from(square.file())
        }
    };
    for player in Player::BOTH {
        let theirs = usize::from(player != perspective);
        for kind in Kind::ALL {
            let base = (theirs * Kind::ALL.len() + kind.index()) * CELLS;
            for square in state.board.pieces(player, kind) {
                inputs.push((base + seen(square)) as u16);
            }
        }
    }
    let mover_theirs = usize::from(state.mover != perspective);
    for square in state.spent {
        inputs.push((SPENT + mover_theirs * CELLS + seen(square)) as u16);
    }
    let energy = usize::from(state.energy).min(ENERGY_LEVELS - 1);
    inputs.push((ENERGY + mover_theirs * ENERGY_LEVELS + energy) as u16);
}
