//! Attack tables, computed at compile time: leaper masks per cell, the
//! four lines through every cell for slider attacks, and the cells between
//! two aligned cells. All are geometric (one board); which board a move
//! lands on is decided afterwards by the colours (see `movegen`).

use super::bitboard::Bitboard;
use super::piece::Kind;
use super::square::{cell_is_even, CELLS, FILES, RANKS};

/// Cells with even file + rank index (dark on board 1, light on board 2).
pub const EVEN: Bitboard = Bitboard(even_mask());
/// Cells with odd file + rank index.
pub const ODD: Bitboard = Bitboard(!even_mask() & ((1u64 << CELLS) - 1));

pub const FILE_A: Bitboard = Bitboard(file_mask(0));
pub const FILE_F: Bitboard = Bitboard(file_mask(FILES - 1));

/// Rank masks by rank index (0 = rank 1).
pub const RANK: [Bitboard; RANKS] = rank_masks();

/// Cells a knight leaps to.
pub static KNIGHT: [Bitboard; CELLS] =
    leaper(&[(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]);
/// Cells a king steps to.
pub static KING: [Bitboard; CELLS] = leaper(&[(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]);
/// Cells a pawn of side 0 (White, upwards) or 1 (Black) attacks.
pub static PAWN_ATTACKS: [[Bitboard; CELLS]; 2] = [leaper(&[(-1, 1), (1, 1)]), leaper(&[(-1, -1), (1, -1)])];

/// One line through a cell, split at the cell: the line's cells with a
/// lower index and those with a higher one.
#[derive(Clone, Copy, Debug)]
pub struct Line {
    pub lower: u64,
    pub upper: u64,
}

/// The rank, file, diagonal and anti-diagonal through every cell.
pub static LINES: [[Line; 4]; CELLS] = lines();

/// How many cells a queen, a rook and a cardinal (indexed by their `Kind`)
/// reach from each cell of an empty board off the rank and the file
/// through it (a queen's diagonals, a cardinal's diagonals and leaps; a
/// rook none): the most such targets each can have, which random playouts
/// draw from without computing the targets. Along the rank and the file
/// every cell reaches [`RANK_AND_FILE_REACH`].
pub static EMPTY_BOARD_REACH: [[u8; 4]; CELLS] = empty_board_reach();

/// The cells on a rook's lines (rank and file) and on a bishop's lines
/// (diagonals) through each cell, on an empty board: a slider off them
/// cannot attack the cell, whatever stands between.
pub static ROOK_LINES: [Bitboard; CELLS] = empty_board_lines(0);
pub static BISHOP_LINES: [Bitboard; CELLS] = empty_board_lines(2);

/// How many cells a piece reaches along the rank and the file through
/// its cell on an empty board, wherever it stands: the rank's other five
/// and the file's other six.
pub const RANK_AND_FILE_REACH: u32 = (FILES - 1 + RANKS - 1) as u32;

/// The most cells listed in [`EMPTY_BOARD_TARGETS`] (a cardinal in the
/// middle: diagonals and leaps).
pub const MOST_EMPTY_BOARD_TARGETS: usize = 18;

/// The cells a rook reaches from each cell of an empty board (along the
/// rank and the file), and those a queen and a cardinal reach off them
/// (indexed by their `Kind`), lowest first: the [`EMPTY_BOARD_REACH`]
/// (for a rook [`RANK_AND_FILE_REACH`]) first entries are the targets,
/// so that a random playout finds a piece's `i`-th one in a single lookup.
pub static EMPTY_BOARD_TARGETS: [[[u8; MOST_EMPTY_BOARD_TARGETS]; 4]; CELLS] = empty_board_targets();

/// Cells strictly between two cells on a common line (empty otherwise).
pub static BETWEEN: [[Bitboard; CELLS]; CELLS] = between();

/// The cells a slider on one line reaches from `line`'s cell, blocked by
/// `occupied` (the blocker itself is included). Branch-free "obstruction
/// difference": everything from the nearest blocker below to the nearest
/// one above.
#[inline(always)]
fn line_attacks(line: &Line, occupied: u64) -> u64 {
    let lower = line.lower & occupied;
    let upper = line.upper & occupied;
    let highest_lower = 1u64 << (63 - (lower | 1).leading_zeros());
    let lowest_upper = upper & upper.wrapping_neg();
    (lowest_upper << 1).wrapping_sub(highest_lower) & (line.lower | line.upper)
}

#[inline(always)]
pub fn rook_attacks(cell: usize, occupied: Bitboard) -> Bitboard {
    let lines = &LINES[cell];
    Bitboard(line_attacks(&lines[0], occupied.0) | line_attacks(&lines[1], occupied.0))
}

#[inline(always)]
pub fn bishop_attacks(cell: usize, occupied: Bitboard) -> Bitboard {
    let lines = &LINES[cell];
    Bitboard(line_attacks(&lines[2], occupied.0) | line_attacks(&lines[3], occupied.0))
}

/// Cells of the colour class of `cell` (those a piece there reaches
/// without changing board).
#[inline(always)]
pub fn same_parity(cell: usize) -> Bitboard {
    // A bit test instead of a division (hot in move generation).
    if EVEN.contains_index(cell) {
        EVEN
    } else {
        ODD
    }
}

const fn even_mask() -> u64 {
    let mut mask = 0;
    let mut cell = 0;
    while cell < CELLS {
        if cell_is_even(cell) {
            mask |= 1 << cell;
        }
        cell += 1;
    }
    mask
}

const fn file_mask(file: usize) -> u64 {
    let mut mask = 0;
    let mut rank = 0;
    while rank < RANKS {
        mask |= 1 << (rank * FILES + file);
        rank += 1;
    }
    mask
}

const fn rank_masks() -> [Bitboard; RANKS] {
    let mut out = [Bitboard(0); RANKS];
    let mut rank = 0;
    while rank < RANKS {
        out[rank] = Bitboard(((1u64 << FILES) - 1) << (rank * FILES));
        rank += 1;
    }
    out
}

const fn on_board(file: i32, rank: i32) -> bool {
    file >= 0 && file < FILES as i32 && rank >= 0 && rank < RANKS as i32
}

const fn leaper(steps: &[(i32, i32)]) -> [Bitboard; CELLS] {
    let mut out = [Bitboard(0); CELLS];
    let mut cell = 0;
    while cell < CELLS {
        let (file, rank) = ((cell % FILES) as i32, (cell / FILES) as i32);
        let mut i = 0;
        while i < steps.len() {
            let (f, r) = (file + steps[i].0, rank + steps[i].1);
            if on_board(f, r) {
                out[cell].0 |= 1 << (r as usize * FILES + f as usize);
            }
            i += 1;
        }
        cell += 1;
    }
    out
}

/// Cells reached from `cell` stepping by `(df, dr)` over an empty board.
const fn ray(cell: usize, df: i32, dr: i32) -> u64 {
    let mut mask = 0;
    let (mut f, mut r) = ((cell % FILES) as i32 + df, (cell / FILES) as i32 + dr);
    while on_board(f, r) {
        mask |= 1 << (r as usize * FILES + f as usize);
        f += df;
        r += dr;
    }
    mask
}

const fn lines() -> [[Line; 4]; CELLS] {
    // Each direction with a positive index step, and its opposite.
    const DIRECTIONS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (-1, 1)];
    let mut out = [[Line { lower: 0, upper: 0 }; 4]; CELLS];
    let mut cell = 0;
    while cell < CELLS {
        let mut d = 0;
        while d < 4 {
            let (df, dr) = DIRECTIONS[d];
            out[cell][d] = Line { lower: ray(cell, -df, -dr), upper: ray(cell, df, dr) };
            d += 1;
        }
        cell += 1;
    }
    out
}

/// The lines `first` and `first + 1` of [`LINES`] through each cell.
const fn empty_board_lines(first: usize) -> [Bitboard; CELLS] {
    let lines = lines();
    let mut out = [Bitboard(0); CELLS];
    let mut cell = 0;
    while cell < CELLS {
        let (a, b) = (&lines[cell][first], &lines[cell][first + 1]);
        out[cell] = Bitboard(a.lower | a.upper | b.lower | b.upper);
        cell += 1;
    }
    out
}

/// The cells a rook reaches from each cell of an empty board, and those a
/// queen and a cardinal reach off the rank and the file (indexed by their
/// `Kind`), as bit sets.
const fn empty_board_reach_sets() -> [[u64; 4]; CELLS] {
    let rook_lines = empty_board_lines(0);
    let bishop_lines = empty_board_lines(2);
    let knight = leaper(&[(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]);
    let mut out = [[0; 4]; CELLS];
    let mut cell = 0;
    while cell < CELLS {
        let (rook, bishop) = (rook_lines[cell].0, bishop_lines[cell].0);
        out[cell][Kind::Queen as usize] = bishop;
        out[cell][Kind::Rook as usize] = rook;
        out[cell][Kind::Cardinal as usize] = bishop | knight[cell].0;
        cell += 1;
    }
    out
}

const fn empty_board_targets() -> [[[u8; MOST_EMPTY_BOARD_TARGETS]; 4]; CELLS] {
    let reach = empty_board_reach_sets();
    let mut out = [[[0; MOST_EMPTY_BOARD_TARGETS]; 4]; CELLS];
    let mut cell = 0;
    while cell < CELLS {
        let mut kind = 0;
        while kind < 4 {
            let mut targets = reach[cell][kind];
            let mut n = 0;
            while targets != 0 {
                out[cell][kind][n] = targets.trailing_zeros() as u8;
                targets &= targets - 1;
                n += 1;
            }
            kind += 1;
        }
        cell += 1;
    }
    out
}

const fn empty_board_reach() -> [[u8; 4]; CELLS] {
    let reach = empty_board_reach_sets();
    let mut out = [[0; 4]; CELLS];
    let mut cell = 0;
    while cell < CELLS {
        let mut kind = 0;
        while kind < 4 {
            out[cell][kind] = if kind == Kind::Rook as usize { 0 } else { reach[cell][kind].count_ones() as u8 };
            kind += 1;
        }
        cell += 1;
    }
    out
}

const fn between() -> [[Bitboard; CELLS]; CELLS] {
    let mut out = [[Bitboard(0); CELLS]; CELLS];
    let mut from = 0;
    while from < CELLS {
        let (ff, fr) = ((from % FILES) as i32, (from / FILES) as i32);
        let mut to = 0;
        while to < CELLS {
            let (tf, tr) = ((to % FILES) as i32, (to / FILES) as i32);
            let (df, dr) = (tf - ff, tr - fr);
            let aligned = (df == 0) != (dr == 0) || (df != 0 && (df == dr || df == -dr));
            if aligned {
                let (sf, sr) = (signum(df), signum(dr));
                let (mut f, mut r) = (ff + sf, fr + sr);
                let mut mask = 0;
                while f != tf || r != tr {
                    mask |= 1 << (r as usize * FILES + f as usize);
                    f += sf;
                    r += sr;
                }
                out[from][to] = Bitboard(mask);
            }
            to += 1;
        }
        from += 1;
    }
    out
}

const fn signum(x: i32) -> i32 {
    if x > 0 {
        1
    } else if x < 0 {
        -1
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slow_slider(cell: usize, occupied: u64, dirs: &[(i32, i32)]) -> u64 {
        let mut out = 0;
        for &(df, dr) in dirs {
            let (mut f, mut r) = ((cell % FILES) as i32 + df, (cell / FILES) as i32 + dr);
            while on_board(f, r) {
                let c = r as usize * FILES + f as usize;
                out |= 1 << c;
                if occupied >> c & 1 != 0 {
                    break;
                }
                f += df;
                r += dr;
            }
        }
        out
    }

    #[test]
    fn slider_attacks_match_a_slow_trace() {
        let mut state = 12345u64;
        for _ in 0..2000 {
            let (next, key) = menagerie_core::zobrist::splitmix64(state);
            state = next;
            let occupied = key & key.rotate_left(17) & ((1 << CELLS) - 1);
            for cell in 0..CELLS {
                let rook = slow_slider(cell, occupied, &[(1, 0), (-1, 0), (0, 1), (0, -1)]);
                let bishop = slow_slider(cell, occupied, &[(1, 1), (-1, 1), (1, -1), (-1, -1)]);
                assert_eq!(rook_attacks(cell, Bitboard(occupied)).0, rook, "rook on {cell}");
                assert_eq!(bishop_attacks(cell, Bitboard(occupied)).0, bishop, "bishop on {cell}");
                // The empty-board lines hold every attack (the attack test
                // skips sliders off them).
                assert_eq!(rook_attacks(cell, Bitboard(occupied)) & !ROOK_LINES[cell], Bitboard::EMPTY);
                assert_eq!(bishop_attacks(cell, Bitboard(occupied)) & !BISHOP_LINES[cell], Bitboard::EMPTY);
            }
        }
        for cell in 0..CELLS {
            assert_eq!(ROOK_LINES[cell], rook_attacks(cell, Bitboard::EMPTY), "rook lines of {cell}");
            assert_eq!(BISHOP_LINES[cell], bishop_attacks(cell, Bitboard::EMPTY), "bishop lines of {cell}");
        }
    }

    #[test]
    fn empty_board_targets_list_the_reach() {
        for cell in 0..CELLS {
            let rook = rook_attacks(cell, Bitboard::EMPTY);
            let bishop = bishop_attacks(cell, Bitboard::EMPTY);
            assert_eq!(rook.count(), RANK_AND_FILE_REACH, "rook on {cell}");
            for (kind, reach, count) in [
                (Kind::Queen, bishop, EMPTY_BOARD_REACH[cell][Kind::Queen as usize]),
                (Kind::Rook, rook, RANK_AND_FILE_REACH as u8),
                (Kind::Cardinal, bishop | KNIGHT[cell], EMPTY_BOARD_REACH[cell][Kind::Cardinal as usize]),
            ] {
                let count = usize::from(count);
                assert_eq!(count, reach.count() as usize);
                let listed: Vec<usize> =
                    EMPTY_BOARD_TARGETS[cell][kind as usize][..count].iter().map(|&to| usize::from(to)).collect();
                assert_eq!(listed, reach.into_iter().collect::<Vec<_>>(), "{kind:?} on {cell}");
            }
            assert_eq!(EMPTY_BOARD_REACH[cell][Kind::Rook as usize], 0);
        }
    }

    #[test]
    fn leapers_and_between() {
        assert_eq!(KNIGHT[0].count(), 2);
        assert_eq!(KING[7].count(), 8);
        assert_eq!(BETWEEN[0][5].count(), 4);
        assert_eq!(BETWEEN[0][35].count(), 4); // a1..f6 diagonal
        assert_eq!(BETWEEN[0][13].count(), 0); // a1-b3: not aligned
        assert_eq!(EVEN.count() + ODD.count(), CELLS as u32);
        for cell in 0..CELLS {
            assert_eq!(same_parity(cell), if cell_is_even(cell) { EVEN } else { ODD }, "parity of {cell}");
        }
    }
}
