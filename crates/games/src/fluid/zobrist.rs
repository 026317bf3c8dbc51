//! Zobrist keys. A cell hashes as the key of its lower piece plus the key of
//! its upper piece from a second table, so that a pair of two like pieces
//! (two rooks) does not cancel out.

use super::piece::Cell;
use super::square::Square;
use menagerie_core::zobrist::keys;

const fn cell_table(seed: u64) -> [[u64; 16]; 64] {
    let raw: [u64; 1024] = keys(seed);
    let mut table = [[0u64; 16]; 64];
    let mut sq = 0;
    while sq < 64 {
        // Code 0 is "no piece": it hashes to nothing.
        let mut code = 1;
        while code < 16 {
            table[sq][code] = raw[sq * 16 + code];
            code += 1;
        }
        sq += 1;
    }
    table
}

static LOW: [[u64; 16]; 64] = cell_table(0xF1_0001);
static HIGH: [[u64; 16]; 64] = cell_table(0xF1_0002);
static MISC: [u64; 32] = keys(0xF1_0003);

#[inline]
pub fn cell(square: Square, cell: Cell) -> u64 {
    let raw = cell.raw() as usize;
    LOW[square.index()][raw & 15] ^ HIGH[square.index()][raw >> 4]
}

#[inline]
pub fn black_to_move() -> u64 {
    MISC[0]
}

/// The key of each set of castling rights (a 4-bit set): every play
/// hashes the rights, so they are looked up rather than combined.
static CASTLING: [u64; 16] = {
    let misc: [u64; 32] = keys(0xF1_0003);
    let mut table = [0u64; 16];
    let mut rights = 0;
    while rights < 16 {
        let mut i = 0;
        while i < 4 {
            if rights >> i & 1 != 0 {
                table[rights] ^= misc[1 + i];
            }
            i += 1;
        }
        rights += 1;
    }
    table
};

/// Castling rights as a 4-bit set.
#[inline]
pub fn castling(rights: u8) -> u64 {
    CASTLING[rights as usize & 15]
}

#[inline]
pub fn en_passant_file(file: u8) -> u64 {
    MISC[8 + file as usize]
}
