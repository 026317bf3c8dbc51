//! The four castlings and which squares take castling rights away.
//!
//! The king moves two squares towards a rook on its own board; the rook
//! goes to the square the king crossed *by the move rule*: king-side it
//! steps one square (the other colour) and so lands on the other board,
//! queen-side it moves two (same colour) and stays.

use super::bitboard::Bitboard;
use super::piece::{rights, BLACK, WHITE};
use super::square::{cell_is_even, Square, FILES};

#[derive(Clone, Copy, Debug)]
pub struct Castle {
    pub right: u8,
    pub side: usize,
    pub king_from: Square,
    pub king_to: Square,
    pub rook_from: Square,
    pub rook_to: Square,
    /// Cells on the king's board that must be empty.
    pub between: Bitboard,
    /// The cell the king crosses (where the rook goes, on some board).
    pub cross: usize,
}

/// White's king starts on 2d1, Black's on 1d7, in both variants.
pub const KING_HOME: [Square; 2] = [Square::from_coords(1, 3, 0), Square::from_coords(0, 3, 6)];

const fn castle(right: u8, side: usize, rook_file: usize) -> Castle {
    let king_from = KING_HOME[side];
    let board = king_from.board();
    let rank_start = king_from.rank_index() * FILES;
    let king_file = king_from.file();
    let (king_to_file, cross_file) =
        if rook_file > king_file { (king_file + 2, king_file + 1) } else { (king_file - 2, king_file - 1) };
    let rook_from = Square::new(board, rank_start + rook_file);
    let cross = rank_start + cross_file;
    // The rook's move follows the move rule: a change of colour means the
    // other board.
    let rook_board = if cell_is_even(cross) == cell_is_even(rook_from.cell()) { board } else { 1 - board };
    let (low, high) = if rook_file > king_file { (king_file + 1, rook_file) } else { (rook_file + 1, king_file) };
    let mut between = 0u64;
    let mut file = low;
    while file < high {
        between |= 1 << (rank_start + file);
        file += 1;
    }
    Castle {
        right,
        side,
        king_from,
        king_to: Square::new(board, rank_start + king_to_file),
        rook_from,
        rook_to: Square::new(rook_board, cross),
        between: Bitboard(between),
        cross,
    }
}

/// In the order of [`rights::LETTERS`].
pub static CASTLES: [Castle; 4] = [
    castle(rights::WHITE_KING_SIDE, WHITE, 5),
    castle(rights::WHITE_QUEEN_SIDE, WHITE, 0),
    castle(rights::BLACK_KING_SIDE, BLACK, 5),
    castle(rights::BLACK_QUEEN_SIDE, BLACK, 0),
];

/// The rights that survive a move touching a square (`board << 6 | cell`):
/// leaving, landing on or capturing on a king's or rook's home square
/// removes the rights that need it.
pub static RIGHTS_KEPT: [u8; 128] = rights_kept();

const fn rights_kept() -> [u8; 128] {
    let mut out = [rights::ALL; 128];
    let mut i = 0;
    while i < 4 {
        let c = &CASTLES[i];
        let king = (c.king_from.board() << 6) | c.king_from.cell();
        let rook = (c.rook_from.board() << 6) | c.rook_from.cell();
        out[king] &= !c.right;
        out[rook] &= !c.right;
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn castlings_are_the_rules_ones() {
        let names: Vec<String> =
            CASTLES.iter().map(|c| format!("{}-{} {}-{}", c.king_from, c.king_to, c.rook_from, c.rook_to)).collect();
        assert_eq!(names, ["2d1-2f1 2f1-1e1", "2d1-2b1 2a1-2c1", "1d7-1f7 1f7-2e7", "1d7-1b7 1a7-1c7"]);
        assert_eq!(CASTLES[1].between.count(), 2);
        assert_eq!(CASTLES[0].between.count(), 1);
    }
}
