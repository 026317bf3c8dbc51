//! Squares of the 10×10 board: rank letter `A`–`J` (top to bottom) then
//! file digit `0`–`9` (left to right), `D2`. Index = rank × 10 + file, so
//! that ascending index is the text order A0 < A1 < … < J9.

use std::fmt;

/// One of the 100 squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square(u8);

impl Square {
    pub const COUNT: usize = 100;

    /// The square at `index` (0..100).
    #[inline]
    pub const fn new(index: u8) -> Square {
        debug_assert!(index < 100);
        Square(index)
    }

    #[inline]
    pub const fn at(rank: u8, file: u8) -> Square {
        Square(rank * 10 + file)
    }

    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// 0 for rank A (Blue's edge) to 9 for rank J (Red's edge).
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 / 10
    }

    #[inline]
    pub const fn file(self) -> u8 {
        self.0 % 10
    }

    /// Reads `D2`; `None` for anything else (the caller says where).
    pub fn parse(text: &str) -> Option<Square> {
        let bytes = text.as_bytes();
        if bytes.len() != 2 {
            return None;
        }
        let rank = bytes[0].checked_sub(b'A').filter(|&r| r < 10)?;
        let file = bytes[1].checked_sub(b'0').filter(|&f| f < 10)?;
        Some(Square::at(rank, file))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'A' + self.rank()) as char, self.file())
    }
}

#[cfg(test)]
mod tests {
    use super::Square;

    #[test]
    fn text_round_trips() {
        for i in 0..100 {
            let sq = Square::new(i);
            assert_eq!(Square::parse(&sq.to_string()), Some(sq));
        }
        assert_eq!(Square::at(3, 2).to_string(), "D2");
        for bad in ["", "K0", "A", "A10", "a1", "0A", "é1"] {
            assert_eq!(Square::parse(bad), None, "{bad}");
        }
    }
}
