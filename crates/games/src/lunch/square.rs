//! Squares: `a1` = 0 ... `h8` = 63, their names and coordinates.

/// A square 0..64 (a1 = 0, b1 = 1, ..., h8 = 63); [`NO_SQUARE`] for none.
pub type Square = u8;
pub const NO_SQUARE: Square = 64;

pub fn file_of(sq: Square) -> i8 {
    (sq & 7) as i8
}

pub fn rank_of(sq: Square) -> i8 {
    (sq >> 3) as i8
}

pub fn square_at(file: i8, rank: i8) -> Option<Square> {
    ((0..8).contains(&file) && (0..8).contains(&rank)).then(|| (rank * 8 + file) as Square)
}

pub fn square_name(sq: Square) -> String {
    if sq >= 64 {
        return "-".into();
    }
    format!("{}{}", (b'a' + (sq & 7)) as char, (sq >> 3) + 1)
}

pub fn parse_square(text: &str) -> Option<Square> {
    let b = text.as_bytes();
    if b.len() != 2 || !(b'a'..=b'h').contains(&b[0]) || !(b'1'..=b'8').contains(&b[1]) {
        return None;
    }
    Some((b[1] - b'1') * 8 + (b[0] - b'a'))
}
