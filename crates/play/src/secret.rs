//! Random identifiers: game ids (public, short), seat secrets (128 bits),
//! and the chance seeds of games.

use menagerie_store::{random_text as random_string, ID_ALPHABET as ALPHABET};
use rand::Rng;
use sha2::{Digest, Sha256};

/// A public game id: 10 characters, about 58 bits.
pub fn game_id() -> String {
    random_string(10)
}

/// A seat secret: 22 characters, about 128 bits; whoever holds it moves for the seat.
pub fn seat_secret() -> String {
    random_string(22)
}

/// The seed of a game's chance (the deal, the shuffles) when its creator
/// may not choose one: drawn from the thread's generator, which the
/// operating system seeds, so nothing a client knows or sees derives it.
pub fn chance_seed() -> u64 {
    rand::rng().random()
}

/// Compares a presented secret with the stored one in time independent of
/// where they differ, so that timing does not leak a secret's prefix.
pub fn secrets_match(presented: &str, stored: &str) -> bool {
    let (a, b) = (presented.as_bytes(), stored.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// Whether a text looks like an id or secret we made (used to reject junk early).
pub fn well_formed(text: &str, max_len: usize) -> bool {
    !text.is_empty() && text.len() <= max_len && text.bytes().all(|b| ALPHABET.contains(&b))
}

/// The id a secret (a session token, an API token) is stored under: its
/// SHA-256, so a copy of the database opens nothing.
pub fn stored_id(secret: &str) -> String {
    hex(&Sha256::digest(secret.as_bytes()))
}

/// Bytes as lower-case hexadecimal.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_distinct_and_compare_exactly() {
        let (a, b) = (seat_secret(), seat_secret());
        assert_ne!(a, b);
        assert!(secrets_match(&a, &a.clone()));
        assert!(!secrets_match(&a, &b));
        assert!(!secrets_match(&a[1..], &a));
        assert!(well_formed(&game_id(), 10));
        assert!(!well_formed("../etc", 10));
    }
}
