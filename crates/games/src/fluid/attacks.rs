//! Movement geometry as constant tables: king steps, lame-knight legs,
//! pawn captures, rays for the sliders, and the squares between two squares.
//!
//! Sliders use the classical ray method with "blockers" = the squares the
//! moving side may not pass (everything but empty squares and squares with
//! exactly one friendly non-pawn piece): the reach along a ray runs up to
//! and including the first blocker.

use super::bitboard::Bitboard;
use super::piece::{Colour, Kind};
use super::square::Square;

const fn on_board(file: i32, rank: i32) -> bool {
    file >= 0 && file < 8 && rank >= 0 && rank < 8
}

const fn bit(file: i32, rank: i32) -> u64 {
    1u64 << (rank * 8 + file)
}

const KING_STEPS: [(i32, i32); 8] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)];

const fn king_table() -> [u64; 64] {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (file, rank) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut i = 0;
        while i < 8 {
            let (df, dr) = KING_STEPS[i];
            if on_board(file + df, rank + dr) {
                table[sq] |= bit(file + df, rank + dr);
            }
            i += 1;
        }
        sq += 1;
    }
    table
}

/// One way for a lame knight (a Moo) to reach a square: `target`, and the
/// two squares one of which must be passable. The two intermediate squares
/// of the paths from A to B are the same as from B to A (they are the two
/// squares next to both), so these legs serve moves and attacks alike.
#[derive(Clone, Copy, Debug)]
pub struct KnightLeg {
    pub target: u8,
    pub middles: u64,
}

const KNIGHT_JUMPS: [(i32, i32); 8] = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];

const fn sign(x: i32) -> i32 {
    if x > 0 {
        1
    } else if x < 0 {
        -1
    } else {
        0
    }
}

const fn knight_table() -> ([[KnightLeg; 8]; 64], [u8; 64], [u64; 64]) {
    let mut legs = [[KnightLeg { target: 0, middles: 0 }; 8]; 64];
    let mut counts = [0u8; 64];
    let mut targets = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (file, rank) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut i = 0;
        while i < 8 {
            let (df, dr) = KNIGHT_JUMPS[i];
            if on_board(file + df, rank + dr) {
                // Orthogonal step along the long axis, or the diagonal step.
                let (of, or) = if df.abs() == 2 { (sign(df), 0) } else { (0, sign(dr)) };
                let (gf, gr) = (sign(df), sign(dr));
                let n = counts[sq] as usize;
                legs[sq][n] = KnightLeg {
                    target: ((rank + dr) * 8 + file + df) as u8,
                    middles: bit(file + of, rank + or) | bit(file + gf, rank + gr),
                };
                targets[sq] |= bit(file + df, rank + dr);
                counts[sq] += 1;
            }
            i += 1;
        }
        sq += 1;
    }
    (legs, counts, targets)
}

const KNIGHT_DATA: ([[KnightLeg; 8]; 64], [u8; 64], [u64; 64]) = knight_table();
static KNIGHT_LEGS: [[KnightLeg; 8]; 64] = KNIGHT_DATA.0;
static KNIGHT_LEG_COUNTS: [u8; 64] = KNIGHT_DATA.1;
static KNIGHT_TARGETS: [u64; 64] = KNIGHT_DATA.2;
static KING_ATTACKS: [u64; 64] = king_table();

/// Directions: the first four increase the square index, the last four
/// decrease it.
const DIRECTIONS: [(i32, i32); 8] = [(0, 1), (1, 0), (1, 1), (-1, 1), (0, -1), (-1, 0), (-1, -1), (1, -1)];
const NORTH: usize = 0;
const EAST: usize = 1;
const NORTH_EAST: usize = 2;
const NORTH_WEST: usize = 3;
const SOUTH: usize = 4;
const WEST: usize = 5;
const SOUTH_WEST: usize = 6;
const SOUTH_EAST: usize = 7;

const fn ray_table() -> [[u64; 64]; 8] {
    let mut table = [[0u64; 64]; 8];
    let mut d = 0;
    while d < 8 {
        let (df, dr) = DIRECTIONS[d];
        let mut sq = 0;
        while sq < 64 {
            let (mut file, mut rank) = ((sq % 8) as i32 + df, (sq / 8) as i32 + dr);
            while on_board(file, rank) {
                table[d][sq] |= bit(file, rank);
                file += df;
                rank += dr;
            }
            sq += 1;
        }
        d += 1;
    }
    table
}

static RAYS: [[u64; 64]; 8] = ray_table();

/// The squares strictly between two squares on one line (none when they
/// are not on one line): the ray from `from` up to `to`.
const fn between_table() -> [[u64; 64]; 64] {
    let rays = ray_table();
    let directions = direction_table();
    let mut table = [[0u64; 64]; 64];
    let mut from = 0;
    while from < 64 {
        let mut to = 0;
        while to < 64 {
            let d = directions[from][to] as usize;
            if d != NO_LINE as usize {
                table[from][to] = rays[d][from] & !rays[d][to] & !(1u64 << to);
            }
            to += 1;
        }
        from += 1;
    }
    table
}

static BETWEEN: [[u64; 64]; 64] = between_table();

/// Not on one line: the direction index past the eight.
const NO_LINE: u8 = 8;

/// The direction from one square to another on one line ([`NO_LINE`] when
/// they are not).
const fn direction_table() -> [[u8; 64]; 64] {
    let rays = ray_table();
    let mut table = [[NO_LINE; 64]; 64];
    let mut from = 0;
    while from < 64 {
        let mut d = 0;
        while d < 8 {
            let mut to = 0;
            while to < 64 {
                if rays[d][from] >> to & 1 != 0 {
                    table[from][to] = d as u8;
                }
                to += 1;
            }
            d += 1;
        }
        from += 1;
    }
    table
}

static DIRECTION: [[u8; 64]; 64] = direction_table();

/// How many squares a piece of each kind (by index; pawns none) reaches
/// from each square on an empty board.
const fn empty_board_move_table() -> [[u8; 64]; 6] {
    let rays = ray_table();
    let kings = king_table();
    let knights = knight_table().2;
    let mut table = [[0u8; 64]; 6];
    let mut sq = 0;
    while sq < 64 {
        let orthogonal = rays[NORTH][sq] | rays[EAST][sq] | rays[SOUTH][sq] | rays[WEST][sq];
        let diagonal = rays[NORTH_EAST][sq] | rays[NORTH_WEST][sq] | rays[SOUTH_WEST][sq] | rays[SOUTH_EAST][sq];
        table[Kind::Knight as usize][sq] = knights[sq].count_ones() as u8;
        table[Kind::Bishop as usize][sq] = diagonal.count_ones() as u8;
        table[Kind::Rook as usize][sq] = orthogonal.count_ones() as u8;
        table[Kind::King as usize][sq] = kings[sq].count_ones() as u8;
        sq += 1;
    }
    table
}

static EMPTY_BOARD_MOVES: [[u8; 64]; 6] = empty_board_move_table();

/// How many squares a piece of `kind` on `square` reaches on an empty
/// board (none for a pawn).
#[inline]
pub fn empty_board_moves(kind: Kind, square: Square) -> u32 {
    u32::from(EMPTY_BOARD_MOVES[kind.index()][square.index()])
}

const fn pawn_table() -> [[u64; 64]; 2] {
    let mut table = [[0u64; 64]; 2];
    let mut sq = 0;
    while sq < 64 {
        let (file, rank) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut side = 0;
        while side < 2 {
            let dr = if side == 0 { 1 } else { -1 };
            if on_board(file - 1, rank + dr) {
                table[side][sq] |= bit(file - 1, rank + dr);
            }
            if on_board(file + 1, rank + dr) {
                table[side][sq] |= bit(file + 1, rank + dr);
            }
            side += 1;
        }
        sq += 1;
    }
    table
}

static PAWN_ATTACKS: [[u64; 64]; 2] = pawn_table();

#[inline]
pub fn king(square: Square) -> Bitboard {
    Bitboard(KING_ATTACKS[square.index()])
}

/// Every square a knight could reach from `square` if nothing blocked it.
#[inline]
pub fn knight_targets(square: Square) -> Bitboard {
    Bitboard(KNIGHT_TARGETS[square.index()])
}

#[inline]
pub fn knight_legs(square: Square) -> &'static [KnightLeg] {
    &KNIGHT_LEGS[square.index()][..KNIGHT_LEG_COUNTS[square.index()] as usize]
}

/// The squares a lame knight on `square` reaches when `passable` are the
/// squares it may step over.
#[inline]
pub fn knight(square: Square, passable: Bitboard) -> Bitboard {
    let mut reach = 0;
    for leg in knight_legs(square) {
        if leg.middles & passable.0 != 0 {
            reach |= 1u64 << leg.target;
        }
    }
    Bitboard(reach)
}

/// The squares a pawn of `colour` on `square` captures on.
#[inline]
pub fn pawn(colour: Colour, square: Square) -> Bitboard {
    Bitboard(PAWN_ATTACKS[colour.index()][square.index()])
}

#[inline]
fn positive_ray(direction: usize, square: Square, blockers: Bitboard) -> u64 {
    let ray = RAYS[direction][square.index()];
    // The sentinel bit 63 ends every increasing ray (nothing lies beyond h8).
    let first = (ray & blockers.0 | 1 << 63).trailing_zeros() as usize;
    ray ^ RAYS[direction][first]
}

#[inline]
fn negative_ray(direction: usize, square: Square, blockers: Bitboard) -> u64 {
    let ray = RAYS[direction][square.index()];
    // The sentinel bit 0 ends every decreasing ray (nothing lies beyond a1).
    let first = 63 - (ray & blockers.0 | 1).leading_zeros() as usize;
    ray ^ RAYS[direction][first]
}

#[inline]
pub fn rook(square: Square, blockers: Bitboard) -> Bitboard {
    Bitboard(
        positive_ray(NORTH, square, blockers)
            | positive_ray(EAST, square, blockers)
            | negative_ray(SOUTH, square, blockers)
            | negative_ray(WEST, square, blockers),
    )
}

#[inline]
pub fn bishop(square: Square, blockers: Bitboard) -> Bitboard {
    Bitboard(
        positive_ray(NORTH_EAST, square, blockers)
            | positive_ray(NORTH_WEST, square, blockers)
            | negative_ray(SOUTH_WEST, square, blockers)
            | negative_ray(SOUTH_EAST, square, blockers),
    )
}

/// Each square's rook lines and bishop lines on an empty board.
const fn line_table() -> [[u64; 64]; 2] {
    let rays = ray_table();
    let mut table = [[0u64; 64]; 2];
    let mut sq = 0;
    while sq < 64 {
        table[0][sq] = rays[NORTH][sq] | rays[EAST][sq] | rays[SOUTH][sq] | rays[WEST][sq];
        table[1][sq] = rays[NORTH_EAST][sq] | rays[NORTH_WEST][sq] | rays[SOUTH_WEST][sq] | rays[SOUTH_EAST][sq];
        sq += 1;
    }
    table
}

static LINES: [[u64; 64]; 2] = line_table();

/// Every square a rook on `square` reaches on an empty board.
#[inline]
pub fn rook_rays(square: Square) -> Bitboard {
    Bitboard(LINES[0][square.index()])
}

/// Every square a bishop on `square` reaches on an empty board.
#[inline]
pub fn bishop_rays(square: Square) -> Bitboard {
    Bitboard(LINES[1][square.index()])
}

/// Whether a piece of `kind` and `colour` on `from` could reach `to` on an
/// empty board.
#[inline(always)]
pub fn reaches_on_empty_board(kind: Kind, colour: Colour, from: Square, to: Square) -> bool {
    match kind {
        Kind::Pawn => pawn(colour, from).contains(to),
        Kind::Knight => knight_targets(from).contains(to),
        Kind::Bishop => aligned(from, to, false),
        Kind::Rook => aligned(from, to, true),
        Kind::King => king(from).contains(to),
    }
}

/// The squares strictly between two squares on one line (empty otherwise).
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(BETWEEN[a.index()][b.index()])
}

/// Whether `to` is on a rook's line from `from` (`orthogonal`) or on a
/// bishop's, ignoring what stands between.
#[inline]
pub fn aligned(from: Square, to: Square, orthogonal: bool) -> bool {
    let direction = DIRECTION[from.index()][to.index()];
    direction != NO_LINE && (direction & 2 == 0) == orthogonal
}

/// The squares past `through` on the line from `from` (empty when the two
/// are not on one line), and whether that line is orthogonal (a rook's)
/// rather than diagonal.
#[inline]
pub fn beyond(from: Square, through: Square) -> (Bitboard, bool) {
    let direction = DIRECTION[from.index()][through.index()];
    if direction == NO_LINE {
        return (Bitboard::EMPTY, false);
    }
    // North, east, south and west have bit 1 clear.
    (Bitboard(RAYS[direction as usize][through.index()]), direction & 2 == 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lame_knight_middles_are_the_common_neighbours() {
        let b1 = Square::B1;
        let a3 = Square::parse("a3").unwrap();
        let leg = knight_legs(b1).iter().find(|l| l.target == a3.index() as u8).unwrap();
        let expected =
            Bitboard::from_square(Square::parse("a2").unwrap()) | Bitboard::from_square(Square::parse("b2").unwrap());
        assert_eq!(leg.middles, expected.0);
        assert_eq!(knight_targets(b1).count(), 3);
    }

    #[test]
    fn rays_stop_at_blockers_inclusive() {
        let d1 = Square::D1;
        let blockers = Bitboard::from_square(Square::F1) | Bitboard::from_square(Square::parse("d4").unwrap());
        let reach = rook(d1, blockers);
        assert!(reach.contains(Square::F1) && !reach.contains(Square::G1));
        assert!(reach.contains(Square::parse("d4").unwrap()) && !reach.contains(Square::parse("d5").unwrap()));
        assert!(reach.contains(Square::A1));
        assert_eq!(between(Square::A1, Square::H1).count(), 6);
    }

    #[test]
    fn beyond_runs_past_the_second_square_on_its_line() {
        let (c3, e5) = (Square::parse("c3").unwrap(), Square::parse("e5").unwrap());
        let (past, orthogonal) = beyond(c3, e5);
        assert!(!orthogonal);
        assert_eq!(past, Bitboard::from_square(Square::parse("f6").unwrap()) | Bitboard::from_square(Square::parse("g7").unwrap()) | Bitboard::from_square(Square::parse("h8").unwrap()));
        assert_eq!(beyond(Square::E1, Square::B1), (Bitboard::from_square(Square::A1), true));
        assert_eq!(beyond(Square::E1, Square::parse("f3").unwrap()).0, Bitboard::EMPTY);
    }
}
