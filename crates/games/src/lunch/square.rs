//! Squares: `a1` = 0 ... `h8` = 63, their names and coordinates.

use std::fmt;

/// One of the 64 squares (a1 = 0, b1 = 1, ..., h8 = 63). "No square" is
/// `Option<Square>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square(u8);

impl Square {
    pub const COUNT: usize = 64;

    /// The square at `index` (0..64).
    #[inline]
    pub const fn new(index: u8) -> Square {
        debug_assert!(index < 64);
        Square(index)
    }

    /// Every square, a1 to h8 (the order of "square order" in the rules).
    pub fn all() -> impl Iterator<Item = Square> {
        (0..64).map(Square)
    }

    /// Masked to 6 bits (every square is below 64: see [`Square::new`]), so
    /// that the board and the per-square tables are read without a bounds
    /// check.
    #[inline]
    pub const fn index(self) -> usize {
        (self.0 & 63) as usize
    }

    /// 0 for the a-file to 7 for the h-file.
    #[inline]
    pub const fn file(self) -> i8 {
        (self.0 & 7) as i8
    }

    /// 0 for the first rank to 7 for the eighth.
    #[inline]
    pub const fn rank(self) -> i8 {
        (self.0 >> 3) as i8
    }

    /// The square at a file and rank, `None` off the board.
    #[inline]
    pub fn at(file: i8, rank: i8) -> Option<Square> {
        ((0..8).contains(&file) && (0..8).contains(&rank)).then(|| Square((rank * 8 + file) as u8))
    }

    /// The square `df` files and `dr` ranks away, `None` off the board.
    #[inline]
    pub fn offset(self, df: i8, dr: i8) -> Option<Square> {
        Square::at(self.file() + df, self.rank() + dr)
    }

    /// Reads `e4`; `None` for anything else (the caller says where).
    pub fn parse(text: &str) -> Option<Square> {
        let b = text.as_bytes();
        if b.len() != 2 || !(b'a'..=b'h').contains(&b[0]) || !(b'1'..=b'8').contains(&b[1]) {
            return None;
        }
        Some(Square((b[1] - b'1') * 8 + (b[0] - b'a')))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + (self.0 & 7)) as char, (self.0 >> 3) + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::Square;

    #[test]
    fn names_round_trip() {
        for sq in Square::all() {
            assert_eq!(Square::parse(&sq.to_string()), Some(sq));
        }
        assert_eq!(Square::new(0).to_string(), "a1");
        assert_eq!(Square::new(63).to_string(), "h8");
        assert_eq!(Square::at(4, 3).map(|s| s.to_string()).as_deref(), Some("e4"));
        for bad in ["", "i1", "a9", "a", "a10", "A1", "é1"] {
            assert_eq!(Square::parse(bad), None, "{bad}");
        }
        assert_eq!(Square::new(7).offset(1, 0), None, "off the h-file");
        assert_eq!(Square::new(0).offset(-1, 0), None, "off the a-file");
    }
}
