//! Zobrist keys: one per (player, square, slot) token, one per kingstone
//! square, one for Black to move; hand sizes are mixed in by a hash of the
//! count, since a hand can hold any number of tokens.

use super::square::MAX_SQUARES;
use menagerie_core::zobrist::{keys, splitmix64};

const TOKEN_KEYS: [u64; 2 * MAX_SQUARES * 8] = keys(0x11C4_E000_0001);
const KINGSTONE_KEYS: [u64; 2 * MAX_SQUARES] = keys(0x11C4_E000_0002);
const SIDE_KEYS: [u64; 3] = keys(0x11C4_E000_0003);

/// The key of a `player` token (0 White, 1 Black) in `slot` of the stone on `square`.
#[inline]
pub fn token(player: usize, square: usize, slot: usize) -> u64 {
    TOKEN_KEYS[(player * MAX_SQUARES + square) * 8 + slot]
}

/// The key of all the tokens of `mask` on one stone of `player`.
#[inline]
pub fn tokens(player: usize, square: usize, mut mask: u8) -> u64 {
    let mut key = 0;
    while mask != 0 {
        key ^= token(player, square, mask.trailing_zeros() as usize);
        mask &= mask - 1;
    }
    key
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
