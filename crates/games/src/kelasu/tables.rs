//! Precomputed square sets, built at compile time: rays in the eight
//! directions (for sliding pieces, cut at the first blocker), the first
//! three squares of each ray (Diplomat, Champion sideways), single steps
//! and the Victory Tiles and home ranks.

use super::bitboard::Bitboard;
use super::square::Square;
use menagerie_core::Player;

/// A direction as (Δrank, Δfile); rank grows towards J.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Direction(pub usize);

/// North = towards rank A.
pub const NORTH: Direction = Direction(0);
pub const SOUTH: Direction = Direction(1);
pub const EAST: Direction = Direction(2);
pub const WEST: Direction = Direction(3);
pub const NORTH_EAST: Direction = Direction(4);
pub const NORTH_WEST: Direction = Direction(5);
pub const SOUTH_EAST: Direction = Direction(6);
pub const SOUTH_WEST: Direction = Direction(7);

pub const ORTHOGONAL: [Direction; 4] = [NORTH, SOUTH, EAST, WEST];
pub const DIAGONAL: [Direction; 4] = [NORTH_EAST, NORTH_WEST, SOUTH_EAST, SOUTH_WEST];

const DELTAS: [(i32, i32); 8] = [(-1, 0), (1, 0), (0, 1), (0, -1), (-1, 1), (-1, -1), (1, 1), (1, -1)];

impl Direction {
    /// Whether the square index grows along the ray (so the nearest blocker
    /// is the lowest set bit).
    #[inline]
    const fn ascending(self) -> bool {
        let (dr, df) = DELTAS[self.0];
        dr * 10 + df > 0
    }
}

/// Squares from `sq` (excluded) in direction `dir`, at most `limit` of them.
const fn ray(sq: usize, dir: usize, limit: i32) -> u128 {
    let (dr, df) = DELTAS[dir];
    let (mut r, mut f) = ((sq / 10) as i32, (sq % 10) as i32);
    let mut out = 0u128;
    let mut steps = 0;
    while steps < limit {
        r += dr;
        f += df;
        if r < 0 || r > 9 || f < 0 || f > 9 {
            break;
        }
        out |= 1u128 << (r * 10 + f);
        steps += 1;
    }
    out
}

const fn ray_table(limit: i32) -> [[u128; 100]; 8] {
    let mut table = [[0u128; 100]; 8];
    let mut dir = 0;
    while dir < 8 {
        let mut sq = 0;
        while sq < 100 {
            table[dir][sq] = ray(sq, dir, limit);
            sq += 1;
        }
        dir += 1;
    }
    table
}

static RAYS: [[u128; 100]; 8] = ray_table(10);
static SHORT_RAYS: [[u128; 100]; 8] = ray_table(3);
static STEPS: [[u128; 100]; 8] = ray_table(1);

/// The squares a slider on `sq` sees in `dir` over `occupied`: the empty
/// squares up to and including the first occupied one.
#[inline]
pub fn ray_attacks(sq: Square, dir: Direction, occupied: Bitboard) -> Bitboard {
    let ray = RAYS[dir.0][sq.index()];
    let blockers = ray & occupied.0;
    if blockers == 0 {
        return Bitboard(ray);
    }
    let first = if dir.ascending() { blockers.trailing_zeros() } else { 127 - blockers.leading_zeros() };
    Bitboard(ray ^ RAYS[dir.0][first as usize])
}

/// [`ray_attacks`] cut to the first three squares.
#[inline]
pub fn short_ray_attacks(sq: Square, dir: Direction, occupied: Bitboard) -> Bitboard {
    Bitboard(ray_attacks(sq, dir, occupied).0 & SHORT_RAYS[dir.0][sq.index()])
}

/// The square one step from `sq` in `dir`, as a set (empty off the board).
#[inline]
pub fn step(sq: Square, dir: Direction) -> Bitboard {
    Bitboard(STEPS[dir.0][sq.index()])
}

/// The four diagonal neighbours.
#[inline]
pub fn diagonal_steps(sq: Square) -> Bitboard {
    let s = sq.index();
    Bitboard(STEPS[4][s] | STEPS[5][s] | STEPS[6][s] | STEPS[7][s])
}

/// Forward: towards J for Blue, towards A for Red.
#[inline]
pub const fn forward(player: Player) -> Direction {
    match player {
        Player::First => SOUTH,
        Player::Second => NORTH,
    }
}

#[inline]
pub const fn backward(player: Player) -> Direction {
    match player {
        Player::First => NORTH,
        Player::Second => SOUTH,
    }
}

/// The two forward diagonals, as (east-ish, west-ish).
#[inline]
pub const fn forward_diagonals(player: Player) -> [Direction; 2] {
    match player {
        Player::First => [SOUTH_EAST, SOUTH_WEST],
        Player::Second => [NORTH_EAST, NORTH_WEST],
    }
}

/// The Victory Tiles E4, E5, F4, F5.
pub const VICTORY_TILES: Bitboard = Bitboard((0b11u128 << 44) | (0b11u128 << 54));

/// A player's two home ranks, where its Blanks cannot merge.
#[inline]
pub const fn home_ranks(player: Player) -> Bitboard {
    match player {
        Player::First => Bitboard::ranks(0, 1),
        Player::Second => Bitboard::ranks(8, 9),
    }
}

/// The rank of a player's own edge (where a Recall lands): A for Blue.
#[inline]
pub const fn home_edge_rank(player: Player) -> u8 {
    match player {
        Player::First => 0,
        Player::Second => 9,
    }
}

/// The opponent's edge rank (where a Warrior may Recall from): J for Blue.
#[inline]
pub const fn far_rank(player: Player) -> u8 {
    9 - home_edge_rank(player)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rays_stop_at_the_first_blocker() {
        let d2 = Square::at(3, 2);
        let occupied = Bitboard::from_square(Square::at(3, 5)) | Bitboard::from_square(Square::at(6, 2));
        assert_eq!(ray_attacks(d2, EAST, occupied).count(), 3);
        assert_eq!(ray_attacks(d2, WEST, occupied).count(), 2);
        assert_eq!(ray_attacks(d2, SOUTH, occupied).count(), 3);
        assert_eq!(ray_attacks(d2, NORTH, occupied).count(), 3);
        assert_eq!(short_ray_attacks(d2, SOUTH, Bitboard::EMPTY).count(), 3);
        assert_eq!(ray_attacks(d2, NORTH_WEST, Bitboard::EMPTY).count(), 2);
        assert_eq!(diagonal_steps(Square::at(0, 0)).count(), 1);
        assert_eq!(VICTORY_TILES.count(), 4);
        assert!(VICTORY_TILES.contains(Square::parse("E4").unwrap()));
        assert!(VICTORY_TILES.contains(Square::parse("F5").unwrap()));
    }
}
