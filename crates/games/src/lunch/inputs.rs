//! The learned evaluation's inputs for Lunch Chess (`lunch-1`): only what
//! both players see. A piece of a type on a square; its hit points
//! (bucketed one per point, 0 to 15: a King has 15, a Queen 9); and whether
//! it carries a mark (stunned, stomped, just entered...: not plain). The
//! hands are hidden from the other player and the pile from both, so no
//! card is an input: a perspective that saw the other's hand would be
//! trained on what the search, which plays on a sample of it, cannot know.
//! Each perspective sees its own pieces apart from the other's (own first)
//! and the ranks from its side (Black's mirrored).
//!
//! Index: `(theirs × 7 + type) × 64 + square` (896); `896 + (theirs × 7 +
//! type) × 16 + hit points` (224); `1120 + theirs × 64 + square` for a
//! marked piece (128): 1,248 in all.

use super::piece::Kind;
use super::Lunch;
use menagerie_core::Player;

pub const FEATURES: &str = "lunch-1";
const TYPES: usize = 7;
const HIT_POINTS: usize = 2 * TYPES * 64;
const MARKED: usize = HIT_POINTS + 2 * TYPES * 16;
pub const INPUTS: usize = MARKED + 2 * 64;

pub fn learned_inputs(game: &Lunch, perspective: Player, inputs: &mut Vec<u16>) {
    for (square, piece) in game.state().board().pieces() {
        let theirs = usize::from(piece.color != perspective);
        let seen = if perspective == Player::First { square.index() } else { square.index() ^ 56 };
        let code = theirs * TYPES + piece.kind.index();
        inputs.push((code * 64 + seen) as u16);
        let hp = piece.hp.clamp(0, 15) as usize;
        inputs.push((HIT_POINTS + code * 16 + hp) as u16);
        if !piece.is_plain() {
            inputs.push((MARKED + theirs * 64 + seen) as u16);
        }
    }
}

const _: () = assert!(Kind::King as usize == TYPES - 1);
