//! Enumeration of the Blank groups a merge may use: every set of exactly
//! `k` squares of a given set that is connected edge to edge by itself.
//!
//! Each connected set is produced once, rooted at its lowest square: for each
//! root (ascending), the search grows a set from it, branching on the lowest
//! frontier square (taken, or excluded from then on), with only squares
//! above the root allowed. The last square is not branched on: every
//! frontier square completes a distinct set, so counting needs only a
//! popcount there. A branch is cut as soon as the allowed squares reachable
//! from the set cannot bring it to `k`.

use super::bitboard::Bitboard;

/// The number of edge-connected subsets of `cells` with exactly `k` squares.
pub fn count_connected_sets(cells: Bitboard, k: u32) -> u64 {
    match k {
        0 => return 0,
        1 => return u64::from(cells.count()),
        2 => return u64::from((cells & cells.east()).count() + (cells & cells.south()).count()),
        _ => {}
    }
    let mut total = 0;
    for_each_component(cells, k, |component| {
        if component.count() == k {
            total += 1;
            return;
        }
        let mut allowed = component;
        while allowed.count() >= k {
            let root = Bitboard::from_square(allowed.lowest());
            allowed ^= root;
            if reachable_at_least(root, allowed, k) {
                total += count_from(root, 1, allowed, k);
            }
        }
    });
    total
}

/// Calls `visit` once with each edge-connected subset of `cells` of exactly
/// `k` squares (`k` ≥ 1).
pub fn for_each_connected_set(cells: Bitboard, k: u32, visit: &mut impl FnMut(Bitboard)) {
    if k == 0 {
        return;
    }
    if k == 2 {
        // The common case, straight from the pairs of neighbours.
        for sq in cells & cells.west() {
            let b = Bitboard::from_square(sq);
            visit(b | b.east());
        }
        for sq in cells & cells.north() {
            let b = Bitboard::from_square(sq);
            visit(b | b.south());
        }
        return;
    }
    for_each_component(cells, k, |component| {
        if component.count() == k {
            visit(component);
            return;
        }
        let mut allowed = component;
        while allowed.count() >= k {
            let root = Bitboard::from_square(allowed.lowest());
            allowed ^= root;
            if k == 1 {
                visit(root);
            } else if reachable_at_least(root, allowed, k) {
                visit_from(root, 1, allowed, k, visit);
            }
        }
    });
}

/// Calls `f` with each edge-connected component of `cells` of at least `k` squares.
fn for_each_component(cells: Bitboard, k: u32, mut f: impl FnMut(Bitboard)) {
    let mut rest = cells;
    while rest.count() >= k {
        let component = flood(Bitboard::from_square(rest.lowest()), rest);
        rest ^= component;
        if component.count() >= k {
            f(component);
        }
    }
}

/// Everything of `within` connected to `seed` (which it includes).
#[inline]
fn flood(seed: Bitboard, within: Bitboard) -> Bitboard {
    let mut reached = seed;
    loop {
        let next = reached | (reached.orthogonal_neighbours() & within);
        if next == reached {
            return reached;
        }
        reached = next;
    }
}

/// Whether `set` plus the squares of `allowed` connected to it reach `k`.
#[inline]
fn reachable_at_least(set: Bitboard, allowed: Bitboard, k: u32) -> bool {
    if set.count() + allowed.count() < k {
        return false;
    }
    let within = set | allowed;
    let mut reached = set;
    loop {
        if reached.count() >= k {
            return true;
        }
        let next = reached | (reached.orthogonal_neighbours() & within);
        if next == reached {
            return false;
        }
        reached = next;
    }
}

fn count_from(set: Bitboard, size: u32, mut allowed: Bitboard, k: u32) -> u64 {
    let mut frontier = set.orthogonal_neighbours() & allowed;
    if size + 1 == k {
        return u64::from(frontier.count());
    }
    let mut total = 0;
    while frontier.not_empty() {
        let w = Bitboard::from_square(frontier.lowest());
        frontier ^= w;
        allowed ^= w;
        total += count_from(set | w, size + 1, allowed, k);
        if !reachable_at_least(set, allowed, k) {
            break;
        }
    }
    total
}

fn visit_from(set: Bitboard, size: u32, mut allowed: Bitboard, k: u32, visit: &mut impl FnMut(Bitboard)) {
    let mut frontier = set.orthogonal_neighbours() & allowed;
    if size + 1 == k {
        for w in frontier {
            visit(set | Bitboard::from_square(w));
        }
        return;
    }
    while frontier.not_empty() {
        let w = Bitboard::from_square(frontier.lowest());
        frontier ^= w;
        allowed ^= w;
        visit_from(set | w, size + 1, allowed, k, visit);
        if !reachable_at_least(set, allowed, k) {
            break;
        }
    }
}

/// Whether `set` is connected edge to edge by itself.
pub fn is_connected(set: Bitboard) -> bool {
    set.is_empty() || flood(Bitboard::from_square(set.lowest()), set) == set
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kelasu::square::Square;

    /// Brute force over all subsets of a small set, for comparison.
    fn brute(cells: Bitboard, k: u32) -> u64 {
        let squares: Vec<Square> = cells.collect();
        let mut n = 0;
        for mask in 0u32..(1 << squares.len()) {
            if mask.count_ones() != k {
                continue;
            }
            let set = squares
                .iter()
                .enumerate()
                .filter(|(i, _)| mask >> i & 1 != 0)
                .fold(Bitboard::EMPTY, |b, (_, &s)| b | Bitboard::from_square(s));
            if is_connected(set) {
                n += 1;
            }
        }
        n
    }

    fn board(rows: &[&str]) -> Bitboard {
        let mut b = Bitboard::EMPTY;
        for (r, row) in rows.iter().enumerate() {
            for (f, c) in row.chars().enumerate() {
                if c == 'x' {
                    b |= Bitboard::from_square(Square::at(r as u8 + 2, f as u8));
                }
            }
        }
        b
    }

    #[test]
    fn matches_brute_force() {
        let shapes = [
            board(&["xxxx", "xxxx", "xxxx", "xxxx"]),
            board(&["xxx.xxxxx", "x.x.x...x", "xxxxx.xxx"]),
            board(&["x.x.x", ".x.x.", "x.x.x"]),
            board(&["xxxxxxxxx", ".........", "xxxxxxxxx"]),
            board(&["xxxxxxxxxx", "xxxxxxxxxx"]),
        ];
        for cells in shapes {
            for k in 1..=cells.count().min(21) {
                let mut seen = Vec::new();
                for_each_connected_set(cells, k, &mut |s| seen.push(s.0));
                let n = seen.len() as u64;
                seen.sort_unstable();
                seen.dedup();
                assert_eq!(seen.len() as u64, n, "duplicates for k = {k}");
                let expected = brute(cells, k);
                assert_eq!(n, expected, "k = {k}");
                assert_eq!(count_connected_sets(cells, k), expected, "count, k = {k}");
            }
        }
    }

    /// Big sets are checked from their complements: a set of `n - m`
    /// squares is fixed by the `m` squares it leaves out.
    #[test]
    fn big_sets_match_their_complements() {
        let cells = board(&["xxxxxxxxxx", "xxxxxxxxxx", "xx.x......"]);
        let squares: Vec<Square> = cells.collect();
        let n = squares.len();
        assert_eq!(n, 23);
        let mut expected = 0;
        for a in 0..n {
            for b in a + 1..n {
                let set = cells ^ Bitboard::from_square(squares[a]) ^ Bitboard::from_square(squares[b]);
                if is_connected(set) {
                    expected += 1;
                }
            }
        }
        assert_eq!(count_connected_sets(cells, 21), expected);
        let mut seen = 0;
        for_each_connected_set(cells, 21, &mut |s| {
            assert!(s.count() == 21 && is_connected(s));
            seen += 1;
        });
        assert_eq!(seen, expected);
    }

    #[test]
    fn known_polyomino_counts() {
        // Fixed polyominoes of size n fit in an n×n box; counting the sets of
        // a 2×2 square and a straight line are easy checks by hand.
        let square = board(&["xx", "xx"]);
        assert_eq!(count_connected_sets(square, 3), 4);
        let line = board(&["xxxxxxxxxx"]);
        assert_eq!(count_connected_sets(line, 4), 7);
    }
}
