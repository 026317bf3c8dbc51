//! Move generation and bulk counting, both on a board whose harvest is done.
//!
//! A move is a whole turn: a placement, then (unless the placement wins) a
//! pass, a stone move or a colonization. The act is judged on the board after
//! the placement: the placement may give the mover control of the stone it
//! went on (opening that stone's acts), and a token placed in slot `d` of a
//! stone T blocks the colonization of T's slot `d` by the stone behind it.
//! Everything else about the acts is the same for every placement, which is
//! what lets [`count`] count a position's moves without listing them.

use rand::Rng;
use super::moves::{Act, Move};
use super::position::Board;
use super::square::{Direction, Square, MAX_SQUARES, OFF_BOARD};

/// Per-stone facts about the acts of a board, independent of the placement.
/// Only a stone that the mover controls or ties can act after a placement,
/// and only through a slot without an enemy token: the masks hold nothing
/// else (the others are never asked for).
struct ActTargets {
    /// `open[s]`: directions from `s` to an empty square of the board.
    open: [u8; MAX_SQUARES],
    /// `colonizable[s]`: directions from `s` to a stone whose slot in that
    /// direction holds no token of the mover (empty when the mover will
    /// have no token left in hand after placing).
    colonizable: [u8; MAX_SQUARES],
}

impl ActTargets {
    fn new(board: &Board, colonizing: bool) -> ActTargets {
        let mover = board.to_move.index();
        let geometry = board.geometry;
        let mut targets = ActTargets { open: [0; MAX_SQUARES], colonizable: [0; MAX_SQUARES] };
        let mut stones = board.stones;
        while stones != 0 {
            let s = stones.trailing_zeros() as usize;
            stones &= stones - 1;
            let theirs = board.tokens[1 - mover][s];
            if board.tokens[mover][s].count_ones() < theirs.count_ones() {
                continue;
            }
            let mut dirs = geometry.on_board[s] & !theirs;
            while dirs != 0 {
                let d = dirs.trailing_zeros() as usize;
                dirs &= dirs - 1;
                let t = geometry.neighbour[s][d];
                if board.stones & (1 << t) == 0 {
                    targets.open[s] |= 1 << d;
                } else if colonizing && board.tokens[mover][t as usize] & (1 << d) == 0 {
                    targets.colonizable[s] |= 1 << d;
                }
            }
        }
        targets
    }

    #[inline]
    fn acts(&self, square: usize) -> u8 {
        self.open[square] | self.colonizable[square]
    }
}

/// Lists every legal move of `board` (harvest done, mover with a token in
/// hand) into `moves`, which is cleared first.
pub fn generate(board: &Board, moves: &mut Vec<Move>) {
    moves.clear();
    let targets = ActTargets::new(board, board.hand[board.to_move.index()] >= 2);
    let mut places = board.stones;
    while places != 0 {
        let s = places.trailing_zeros() as usize;
        places &= places - 1;
        let mut empty = board.empty_slots(Square(s as u8));
        while empty != 0 {
            let d = empty.trailing_zeros() as usize;
            empty &= empty - 1;
            placement_moves(board, &targets, s, d, &mut |mv| {
                moves.push(mv);
                false
            });
        }
    }
}

/// The moves that place a token into slot `d` of stone `s`, the pass first,
/// each given to `emit` until it answers true.
#[inline(always)]
fn placement_moves(board: &Board, targets: &ActTargets, s: usize, d: usize, emit: &mut impl FnMut(Move) -> bool) {
    let mover = board.to_move.index();
    let other = 1 - mover;
    let placed = board.tokens[mover][s] | (1 << d);
    let square = Square(s as u8);
    let slot = Direction(d as u8);
    if emit(Move { square, slot, act: Act::Pass }) {
        return;
    }
    if s == board.kingstone[other].index() && placed.count_ones() > board.tokens[other][s].count_ones() {
        // A winning placement is the whole move.
        return;
    }
    let mut acting = board.stones;
    while acting != 0 {
        let a = acting.trailing_zeros() as usize;
        acting &= acting - 1;
        let own = if a == s { placed } else { board.tokens[mover][a] };
        if own.count_ones() <= board.tokens[other][a].count_ones() {
            continue;
        }
        let from = Square(a as u8);
        let mut steps = own & targets.open[a];
        while steps != 0 {
            let dir = Direction(steps.trailing_zeros() as u8);
            steps &= steps - 1;
            if emit(Move { square, slot, act: Act::Step { from, dir } }) {
                return;
            }
        }
        let mut colonies = own & targets.colonizable[a];
        while colonies != 0 {
            let dir = colonies.trailing_zeros() as usize;
            colonies &= colonies - 1;
            // The placement just filled the target slot with our own token.
            if board.geometry.neighbour[a][dir] as usize == s && dir == d {
                continue;
            }
            if emit(Move { square, slot, act: Act::Colonize { from, dir: Direction(dir as u8) } }) {
                return;
            }
        }
    }
}

/// What counting the moves of each placement needs, computed once a board.
///
/// With `A` the number of acts on the board before any placement, a
/// placement into slot `d` of stone `s` allows
/// `1 + A - from(s) + from'(s) - blocked(s, d)` moves: the pass, the acts,
/// corrected for the acts of `s` itself (whose control and tokens changed)
/// and for the colonization of the very slot just filled. A winning
/// placement is exactly one move.
struct Tally<'a> {
    board: &'a Board,
    mover: usize,
    enemy_kingstone: usize,
    targets: ActTargets,
    /// `A`.
    all_acts: u64,
    /// `blocking[t]`: the slots of `t` whose filling blocks a colonization.
    blocking: [u8; MAX_SQUARES],
}

impl Tally<'_> {
    #[inline(always)]
    fn new(board: &Board) -> Tally<'_> {
        let mover = board.to_move.index();
        let other = 1 - mover;
        let targets = ActTargets::new(board, board.hand[mover] >= 2);
        let mut all_acts = 0u64;
        let mut blocking = [0u8; MAX_SQUARES];
        let mut stones = board.stones;
        while stones != 0 {
            let s = stones.trailing_zeros() as usize;
            stones &= stones - 1;
            let own = board.tokens[mover][s];
            if own.count_ones() <= board.tokens[other][s].count_ones() {
                continue;
            }
            all_acts += u64::from((own & targets.acts(s)).count_ones());
            let mut colonies = own & targets.colonizable[s];
            while colonies != 0 {
                let d = colonies.trailing_zeros() as usize;
                colonies &= colonies - 1;
                let t = board.geometry.neighbour[s][d];
                debug_assert_ne!(t, OFF_BOARD);
                blocking[t as usize] |= 1 << d;
            }
        }
        Tally { board, mover, enemy_kingstone: board.kingstone[other].index(), targets, all_acts, blocking }
    }

    /// The moves of the placements into the empty slots `slots` of stone `s`.
    #[inline(always)]
    fn placing(&self, s: usize, slots: u8) -> u64 {
        let board = self.board;
        let (mover, other) = (self.mover, 1 - self.mover);
        let places = u64::from(slots.count_ones());
        let own = board.tokens[mover][s].count_ones();
        let theirs = board.tokens[other][s].count_ones();
        if s == self.enemy_kingstone && own + 1 > theirs {
            return places;
        }
        let acts = self.targets.acts(s);
        let blocked = u64::from((slots & self.blocking[s]).count_ones());
        let new_acts = u64::from((slots & acts).count_ones());
        let mut total = places * (1 + self.all_acts) - blocked;
        if own > theirs {
            // Still controlled: the placed token may open one more act.
            total += new_acts;
        } else if own == theirs {
            // The placement gives control: all of the stone's acts open.
            total += places * u64::from((board.tokens[mover][s] & acts).count_ones()) + new_acts;
        }
        total
    }

    /// The moves of each stone's placements, and their sum.
    #[inline(always)]
    fn per_stone(&self) -> ([u64; MAX_SQUARES], u64) {
        let mut on_stone = [0u64; MAX_SQUARES];
        let mut total = 0u64;
        let mut stones = self.board.stones;
        while stones != 0 {
            let s = stones.trailing_zeros() as usize;
            stones &= stones - 1;
            let empty = self.board.empty_slots(Square(s as u8));
            if empty != 0 {
                on_stone[s] = self.placing(s, empty);
                total += on_stone[s];
            }
        }
        (on_stone, total)
    }
}

/// The number of legal moves of `board` (harvest done, mover with a token in
/// hand), without listing them.
pub fn count(board: &Board) -> u64 {
    Tally::new(board).per_stone().1
}

/// The `index`th legal move of `board` in [`generate`]'s order (`None` at
/// or past [`count`]), found by counting whole stones, then slots, and
/// listing only the moves of one placement. (Tests pin [`random`] by it.)
#[cfg(test)]
pub fn nth(board: &Board, index: u64) -> Option<Move> {
    pick(board, |_| index)
}

/// A legal move of `board` drawn uniformly (`None` if it has none):
/// random playouts draw one every turn. Counts once, then finds the drawn
/// index in those counts.
pub fn random<R: Rng + ?Sized>(board: &Board, rng: &mut R) -> Option<Move> {
    pick(board, |total| rng.random_range(0..total))
}

/// The move at the index `choose` names, given the number of moves (above
/// zero), in [`generate`]'s order.
#[inline(always)]
fn pick(board: &Board, choose: impl FnOnce(u64) -> u64) -> Option<Move> {
    let tally = Tally::new(board);
    let (on_stone, total) = tally.per_stone();
    if total == 0 {
        return None;
    }
    let mut index = choose(total);
    let mut stones = board.stones;
    while stones != 0 {
        let s = stones.trailing_zeros() as usize;
        stones &= stones - 1;
        if index >= on_stone[s] {
            index -= on_stone[s];
            continue;
        }
        let mut slots = board.empty_slots(Square(s as u8));
        while slots != 0 {
            let d = slots.trailing_zeros() as usize;
            slots &= slots - 1;
            let in_slot = tally.placing(s, 1 << d);
            if index >= in_slot {
                index -= in_slot;
                continue;
            }
            let mut found = None;
            placement_moves(board, &tally.targets, s, d, &mut |mv| {
                if index == 0 {
                    found = Some(mv);
                    return true;
                }
                index -= 1;
                false
            });
            return found;
        }
    }
    None
}
