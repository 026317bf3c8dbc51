//! Zobrist keys: one per (side, kind, board, cell), one per castling-rights
//! set and one for Black to move. Clocks are not hashed: repetition compares
//! what the position text says about pieces, side and rights.

use super::piece::Kind;
use super::square::Square;
use menagerie_core::zobrist::keys;

static PIECE_KEYS: [u64; 2 * 5 * 128] = keys(0x000A_11CE_0001);
static CASTLING_KEYS: [u64; 16] = keys(0x000A_11CE_0002);
pub const BLACK_TO_MOVE: u64 = keys::<1>(0x000A_11CE_0003)[0];

#[inline(always)]
pub fn piece(side: usize, kind: Kind, square: Square) -> u64 {
    // Square packs board << 6 | cell, so 128 slots per (side, kind).
    let sq = (square.board() << 6) | square.cell();
    PIECE_KEYS[(side * 5 + kind as usize) * 128 + sq]
}

#[inline(always)]
pub fn castling(rights: u8) -> u64 {
    CASTLING_KEYS[rights as usize & 15]
}
