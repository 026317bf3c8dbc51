//! The learned evaluation's inputs for Lichen Chess (`lichen-1`): the
//! tokens in each slot of each stone (a stone's eight slots, one per
//! direction, are what colonizations fill and harvests empty), where stones
//! stand, where each kingstone stands, and the tokens left in each hand.
//! Each perspective sees its own tokens apart from the other's (own first);
//! the board is not mirrored (its geometry is not the same from both
//! sides), so one input says whether the perspective is White, who moves
//! first and wins more often.
//!
//! Index: `(theirs × 16 + square) × 8 + slot` (256); `256 + square` for a
//! stone (16); `272 + theirs × 16 + square` for a kingstone (32);
//! `304 + theirs × 16 + tokens` in hand (past 15 counts 15; 32); `336` for
//! White: 337 in all.

use super::square::Square;
use super::Lichen;
use menagerie_core::Player;

pub const FEATURES: &str = "lichen-1";
const SQUARES: usize = 16;
const STONES: usize = 2 * SQUARES * 8;
const KINGSTONES: usize = STONES + SQUARES;
const HANDS: usize = KINGSTONES + 2 * SQUARES;
const WHITE: usize = HANDS + 2 * 16;
pub const INPUTS: usize = WHITE + 1;

pub fn learned_inputs(game: &Lichen, perspective: Player, inputs: &mut Vec<u16>) {
    let board = &game.board;
    for square in 0..board.geometry.squares {
        let square = Square(square);
        if !board.has_stone(square) {
            continue;
        }
        inputs.push((STONES + square.index()) as u16);
        for player in Player::BOTH {
            let theirs = usize::from(player != perspective);
            let slots = board.slots(player, square);
            for slot in 0..8 {
                if slots & (1 << slot) != 0 {
                    inputs.push(((theirs * SQUARES + square.index()) * 8 + slot) as u16);
                }
            }
        }
    }
    for player in Player::BOTH {
        let theirs = usize::from(player != perspective);
        inputs.push((KINGSTONES + theirs * SQUARES + board.kingstone[player.index()].index()) as u16);
        let hand = (board.hand[player.index()] as usize).min(15);
        inputs.push((HANDS + theirs * 16 + hand) as u16);
    }
    if perspective == Player::First {
        inputs.push(WHITE as u16);
    }
}
