//! Zobrist keys: one per (player, square, slot) token, one per kingstone
//! square, one for Black to move; hand sizes are mixed in by a hash of the
//! count, since a hand can hold any number of tokens.

use super::square::{MAX_SQUARES, SQUARE_ROWS};
use menagerie_core::zobrist::{keys, splitmix64};

const TOKEN_KEYS: [u64; 2 * MAX_SQUARES * 8] = keys(0x11C4_E000_0001);
const KINGSTONE_KEYS: [u64; 2 * MAX_SQUARES] = keys(0x11C4_E000_0002);
const SIDE_KEYS: [u64; 3] = keys(0x11C4_E000_0003);

/// `SLOT_KEYS[player][square][slot]`: the keys of `TOKEN_KEYS` in rows of
/// [`SQUARE_ROWS`], which square indices need no bounds check for.
const SLOT_KEYS: [[[u64; 8]; SQUARE_ROWS]; 2] = slot_keys();

const fn slot_keys() -> [[[u64; 8]; SQUARE_ROWS]; 2] {
    let mut keys = [[[0; 8]; SQUARE_ROWS]; 2];
    let mut i = 0;
    while i < TOKEN_KEYS.len() {
        keys[i / (8 * MAX_SQUARES)][i / 8 % MAX_SQUARES][i % 8] = TOKEN_KEYS[i];
        i += 1;
    }
    keys
}

/// The key of a `player` token (0 White, 1 Black) in `slot` of the stone on `square`.
#[inline]
pub fn token(player: usize, square: usize, slot: usize) -> u64 {
    SLOT_KEYS[player][square][slot]
}

/// `NIBBLE_KEYS[player][square][half][nibble]`: the key of the tokens in
/// the slots `nibble << (4 * half)`, so that a whole stone's key (a stone
/// move, a harvest) is two lookups.
const NIBBLE_KEYS: [[[[u64; 16]; 2]; SQUARE_ROWS]; 2] = nibble_keys();

const fn nibble_keys() -> [[[[u64; 16]; 2]; SQUARE_ROWS]; 2] {
    let mut keys = [[[[0; 16]; 2]; SQUARE_ROWS]; 2];
    let mut i = 0;
    while i < 2 * MAX_SQUARES * 2 * 16 {
        let (player, square, half, nibble) = (i / (MAX_SQUARES * 32), i / 32 % MAX_SQUARES, i / 16 % 2, i % 16);
        let mut slot = 0;
        while slot < 4 {
            if nibble & (1 << slot) != 0 {
                keys[player][square][half][nibble] ^= TOKEN_KEYS[(player * MAX_SQUARES + square) * 8 + 4 * half + slot];
            }
            slot += 1;
        }
        i += 1;
    }
    keys
}

/// The key of all the tokens of `mask` on one stone of `player`.
#[inline]
pub fn tokens(player: usize, square: usize, mask: u8) -> u64 {
    let keys = &NIBBLE_KEYS[player][square];
    keys[0][usize::from(mask & 15)] ^ keys[1][usize::from(mask >> 4)]
}

/// The key of `player`'s kingstone standing on `square`.
#[inline]
pub fn kingstone(player: usize, square: usize) -> u64 {
    KINGSTONE_KEYS[player * MAX_SQUARES + square]
}

/// Present when Black is to move.
#[inline]
pub fn black_to_move() -> u64 {
    SIDE_KEYS[0]
}

/// Hands of fewer tokens than this (all that play reaches: a player owns 20)
/// take their key from a table instead of hashing the count every turn.
const HAND_TABLE: usize = 64;
const HAND_KEYS: [[u64; HAND_TABLE]; 2] = [hand_keys(0), hand_keys(1)];

/// The key of `player`'s hand holding `count` tokens, the same for every count.
const fn hand_key(player: usize, count: u32) -> u64 {
    splitmix64(SIDE_KEYS[1 + player] ^ count as u64).1
}

const fn hand_keys(player: usize) -> [u64; HAND_TABLE] {
    let mut keys = [0; HAND_TABLE];
    let mut count = 0;
    while count < HAND_TABLE {
        keys[count] = hand_key(player, count as u32);
        count += 1;
    }
    keys
}

/// The contribution of `player`'s hand holding `count` tokens.
#[inline]
pub fn hand(player: usize, count: u32) -> u64 {
    match HAND_KEYS[player].get(count as usize) {
        Some(&key) => key,
        None => hand_key(player, count),
    }
}
