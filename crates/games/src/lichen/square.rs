//! Squares, the eight directions and the neighbour tables of the two boards.
//!
//! A square is an index `rank * files + file` (rank 0 = rank 1 of the text).
//! Both boards have 3 ranks; `lichen` has 5 files, `lichen-3x3` 3. The
//! neighbour of every square in every direction is looked up in a constant
//! table, so move generation never does coordinate arithmetic.

/// The most squares a board has (5 x 3).
pub const MAX_SQUARES: usize = 15;
/// Rows of the tables indexed by square: one for every value of the four
/// bits that [`Square::index`] keeps, so that the hot paths index them
/// without bounds checks (the row of index 15 is unused).
pub const SQUARE_ROWS: usize = 16;
/// Every board has three ranks.
pub const RANKS: u8 = 3;

/// A square of the board, `rank * files + file`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(pub u8);

impl Square {
    /// The index, masked to four bits (a no-op: squares are below 15) so
    /// that tables of [`SQUARE_ROWS`] rows need no bounds check.
    #[inline]
    pub const fn index(self) -> usize {
        (self.0 & 15) as usize
    }

    #[inline]
    pub const fn bit(self) -> u16 {
        1 << self.0
    }
}

/// One of the eight compass directions, which also name a stone's slots.
/// The numbering follows the order of the slots in the position text:
/// `n ne e se s sw w nw` = 0..8, so slot `d` is bit `d` of a slot mask.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Direction(pub u8);

impl Direction {
    pub const NAMES: [&'static str; 8] = ["n", "ne", "e", "se", "s", "sw", "w", "nw"];
    /// `(file step, rank step)` of each direction; `n` is towards rank 3.
    const STEPS: [(i8, i8); 8] = [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)];

    pub fn all() -> impl Iterator<Item = Direction> {
        (0..8).map(Direction)
    }

    /// The index, masked to three bits (a no-op: directions are below 8)
    /// so that tables of eight need no bounds check.
    #[inline]
    pub const fn index(self) -> usize {
        (self.0 & 7) as usize
    }

    #[inline]
    pub const fn bit(self) -> u8 {
        1 << self.0
    }

    #[inline]
    pub const fn opposite(self) -> Direction {
        Direction((self.0 + 4) & 7)
    }

    pub const fn name(self) -> &'static str {
        Self::NAMES[self.0 as usize]
    }

    pub fn from_name(name: &str) -> Option<Direction> {
        Self::NAMES.iter().position(|&n| n == name).map(|i| Direction(i as u8))
    }
}

/// Marks "off the board" in the neighbour tables.
pub const OFF_BOARD: u8 = u8::MAX;

/// The shape of one board: its files and, for every square and direction,
/// the neighbouring square (or [`OFF_BOARD`]).
#[derive(Debug, PartialEq, Eq)]
pub struct Geometry {
    pub files: u8,
    pub squares: u8,
    /// `neighbour[square][direction]`.
    pub neighbour: [[u8; 8]; SQUARE_ROWS],
    /// `on_board[square]`: the directions (as a slot mask) that lead to a
    /// square of the board, i.e. through which a stone may act.
    pub on_board: [u8; SQUARE_ROWS],
    /// `on_board`, byte `s` for square `s`, in one `u128`.
    pub on_board_marks: u128,
    /// `stone_marks[s]`: bit `8 n + opposite(d)` for the neighbour `n` of `s`
    /// in each direction `d`: what a stone on `s` adds to the board's
    /// neighbour masks (byte `n`: the directions from `n` to a stone).
    pub stone_marks: [u128; SQUARE_ROWS],
    /// `token_marks[s][half][nibble]`: for the tokens of the stone on `s` in
    /// the slots `nibble << (4 * half)`, bit `8 f + d` for each such slot `d`
    /// whose square `f` behind (the neighbour of `s` in the opposite
    /// direction) is on the board: from `f`, a colonization through `d`
    /// lands in that slot. What those tokens add to the board's facing masks.
    pub token_marks: [[[u128; 16]; 2]; SQUARE_ROWS],
}

impl Geometry {
    const fn new(files: u8) -> Geometry {
        let squares = files * RANKS;
        let mut neighbour = [[OFF_BOARD; 8]; SQUARE_ROWS];
        let mut on_board = [0u8; SQUARE_ROWS];
        let mut sq = 0;
        while sq < squares {
            let (file, rank) = ((sq % files) as i8, (sq / files) as i8);
            let mut d = 0;
            while d < 8 {
                let (df, dr) = Direction::STEPS[d];
                let (f, r) = (file + df, rank + dr);
                if f >= 0 && f < files as i8 && r >= 0 && r < RANKS as i8 {
                    neighbour[sq as usize][d] = (r as u8) * files + f as u8;
                    on_board[sq as usize] |= 1 << d;
                }
                d += 1;
            }
            sq += 1;
        }
        let mut on_board_marks = 0u128;
        let mut sq = 0;
        while sq < MAX_SQUARES {
            on_board_marks |= (on_board[sq] as u128) << (8 * sq);
            sq += 1;
        }
        let (stone_marks, token_marks) = Self::marks(squares, &neighbour);
        Geometry { files, squares, neighbour, on_board, on_board_marks, stone_marks, token_marks }
    }

    /// The tables `stone_marks` and `token_marks` from the neighbours.
    #[allow(clippy::type_complexity)]
    const fn marks(
        squares: u8,
        neighbour: &[[u8; 8]; SQUARE_ROWS],
    ) -> ([u128; SQUARE_ROWS], [[[u128; 16]; 2]; SQUARE_ROWS]) {
        let mut stone_marks = [0u128; SQUARE_ROWS];
        let mut token_marks = [[[0u128; 16]; 2]; SQUARE_ROWS];
        let mut sq = 0;
        while sq < squares as usize {
            let mut d = 0;
            while d < 8 {
                let n = neighbour[sq][d];
                if n != OFF_BOARD {
                    stone_marks[sq] |= 1 << (8 * n as usize + (d + 4) % 8);
                }
                let behind = neighbour[sq][(d + 4) % 8];
                if behind != OFF_BOARD {
                    let mark = 1u128 << (8 * behind as usize + d);
                    let (half, bit) = (d / 4, d % 4);
                    let mut nibble = 0;
                    while nibble < 16 {
                        if nibble & (1 << bit) != 0 {
                            token_marks[sq][half][nibble] |= mark;
                        }
                        nibble += 1;
                    }
                }
                d += 1;
            }
            sq += 1;
        }
        (stone_marks, token_marks)
    }

    /// The neighbour of `square` in direction `dir`, if it is on the board.
    #[inline]
    pub fn step(&self, square: Square, dir: Direction) -> Option<Square> {
        let n = self.neighbour[square.index()][dir.index()];
        (n != OFF_BOARD).then_some(Square(n))
    }

    pub fn square(&self, file: u8, rank: u8) -> Square {
        Square(rank * self.files + file)
    }

    pub fn file_of(&self, square: Square) -> u8 {
        square.0 % self.files
    }

    pub fn rank_of(&self, square: Square) -> u8 {
        square.0 / self.files
    }

    /// `a1`, `e3`, ...
    pub fn square_name(&self, square: Square) -> String {
        let mut name = String::with_capacity(2);
        name.push((b'a' + self.file_of(square)) as char);
        name.push((b'1' + self.rank_of(square)) as char);
        name
    }

    /// Reads a square name of this board.
    pub fn parse_square(&self, name: &str) -> Option<Square> {
        let bytes = name.as_bytes();
        if bytes.len() != 2 {
            return None;
        }
        let file = bytes[0].wrapping_sub(b'a');
        let rank = bytes[1].wrapping_sub(b'1');
        (file < self.files && rank < RANKS).then(|| self.square(file, rank))
    }

    pub fn all_squares(&self) -> impl Iterator<Item = Square> {
        (0..self.squares).map(Square)
    }
}

/// The 5 x 3 board of `lichen`.
pub static WIDE: Geometry = Geometry::new(5);
/// The 3 x 3 board of `lichen-3x3`.
pub static SQUARE: Geometry = Geometry::new(3);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbours_follow_the_compass() {
        let g = &WIDE;
        let a2 = g.parse_square("a2").unwrap();
        let name = |d: &str| g.step(a2, Direction::from_name(d).unwrap()).map(|s| g.square_name(s));
        assert_eq!(name("n").as_deref(), Some("a3"));
        assert_eq!(name("ne").as_deref(), Some("b3"));
        assert_eq!(name("e").as_deref(), Some("b2"));
        assert_eq!(name("se").as_deref(), Some("b1"));
        assert_eq!(name("s").as_deref(), Some("a1"));
        assert_eq!(name("sw"), None);
        assert_eq!(name("w"), None);
        assert_eq!(name("nw"), None);
        assert_eq!(g.on_board[a2.index()].count_ones(), 5);
        let c3 = SQUARE.parse_square("c3").unwrap();
        assert_eq!(SQUARE.on_board[c3.index()].count_ones(), 3);
        assert_eq!(SQUARE.parse_square("d1"), None);
        assert_eq!(WIDE.square_name(WIDE.parse_square("e3").unwrap()), "e3");
    }
}
