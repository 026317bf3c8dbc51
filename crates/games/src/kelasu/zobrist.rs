//! Zobrist keys: a piece (colour, kind) on a square, a spent square, the
//! Energy left, Red to move. The quiet counter and turn number are not
//! hashed: positions that differ only there play the same.

use super::piece::Kind;
use super::square::Square;
use menagerie_core::zobrist::keys;
use menagerie_core::Player;

static PIECE_KEYS: [u64; 2 * 7 * 100] = keys(0x4B45_4C41_5355_0001);
static SPENT_KEYS: [u64; 100] = keys(0x4B45_4C41_5355_0002);
static ENERGY_KEYS: [u64; 256] = keys(0x4B45_4C41_5355_0003);
pub const RED_TO_MOVE: u64 = 0x9D3A_61C2_F00D_5EED;

#[inline]
pub fn piece(player: Player, kind: Kind, sq: Square) -> u64 {
    PIECE_KEYS[(player.index() * 7 + kind.index()) * 100 + sq.index()]
}

#[inline]
pub fn spent(sq: Square) -> u64 {
    SPENT_KEYS[sq.index()]
}

#[inline]
pub fn energy(energy: u8) -> u64 {
    ENERGY_KEYS[energy as usize]
}
