//! Squares of the two 6×7 boards.
//!
//! A *cell* is a geometric place, `file + 6 * (rank - 1)` (0..42); the same
//! cell exists on both boards (twin squares). A [`Square`] is a cell on one
//! board, packed as `board << 6 | cell` so that the board and the cell are
//! one shift and one mask away.

use std::fmt;

pub const FILES: usize = 6;
pub const RANKS: usize = 7;
pub const CELLS: usize = FILES * RANKS;

/// Which of the two boards: 0 is board `1`, 1 is board `2`.
pub type BoardIndex = usize;

/// One square of one board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    #[inline]
    pub const fn new(board: BoardIndex, cell: usize) -> Square {
        Square(((board as u8) << 6) | cell as u8)
    }

    #[inline]
    pub const fn from_coords(board: BoardIndex, file: usize, rank_index: usize) -> Square {
        Square::new(board, rank_index * FILES + file)
    }

    #[inline]
    pub const fn board(self) -> BoardIndex {
        (self.0 >> 6) as usize
    }

    #[inline]
    pub const fn cell(self) -> usize {
        (self.0 & 63) as usize
    }

    #[inline]
    pub const fn file(self) -> usize {
        self.cell() % FILES
    }

    /// 0 for rank 1 … 6 for rank 7.
    #[inline]
    pub const fn rank_index(self) -> usize {
        self.cell() / FILES
    }

    /// The same file and rank on the other board.
    #[inline]
    pub const fn twin(self) -> Square {
        Square(self.0 ^ 64)
    }

    /// Dark squares: on board 1 where file index + rank is odd (1a1 is
    /// dark), on board 2 where it is even. With rank counted from 0 that
    /// is "file + rank index even" on board 1.
    #[inline]
    pub const fn is_dark(self) -> bool {
        cell_is_even(self.cell()) == (self.board() == 0)
    }

    /// `1a7`: board, file, rank.
    pub fn name(self) -> String {
        format!("{}{}", self.board() + 1, cell_name(self.cell()))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// Whether file index + rank index of `cell` is even. Twin-free: a cell's
/// parity decides which squares a piece standing on it can reach without
/// changing board.
#[inline]
pub const fn cell_is_even(cell: usize) -> bool {
    (cell % FILES + cell / FILES) & 1 == 0
}

/// `a7`: file and rank of a cell.
pub fn cell_name(cell: usize) -> String {
    let file = (b'a' + (cell % FILES) as u8) as char;
    format!("{file}{}", cell / FILES + 1)
}

/// Reads a file letter and a rank digit (`a7`) into a cell.
pub fn parse_cell(file: u8, rank: u8) -> Option<usize> {
    let file = file.checked_sub(b'a').filter(|&f| (f as usize) < FILES)?;
    let rank = rank.checked_sub(b'1').filter(|&r| (r as usize) < RANKS)?;
    Some(rank as usize * FILES + file as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_follow_the_rules() {
        // 1a1 is dark (as a1 in FIDE chess); twins have opposite colours.
        assert!(Square::from_coords(0, 0, 0).is_dark());
        assert!(!Square::from_coords(1, 0, 0).is_dark());
        assert!(!Square::from_coords(0, 1, 0).is_dark());
        for cell in 0..CELLS {
            let sq = Square::new(0, cell);
            assert_ne!(sq.is_dark(), sq.twin().is_dark());
        }
        assert_eq!(Square::from_coords(0, 0, 6).name(), "1a7");
        assert_eq!(Square::from_coords(1, 3, 0).name(), "2d1");
        assert_eq!(parse_cell(b'f', b'7'), Some(41));
        assert_eq!(parse_cell(b'g', b'1'), None);
        assert_eq!(parse_cell(b'a', b'8'), None);
    }
}
