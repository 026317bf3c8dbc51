//! Move generation and bulk counting, both on a board whose harvest is done.
//!
//! A move is a whole turn: a placement, then (unless the placement wins) a
//! pass, a stone move or a colonization. The act is judged on the board after
//! the placement: the placement may give the mover control of the stone it
//! went on (opening that stone's acts), and a token placed in slot `d` of a
//! stone T blocks the colonization of T's slot `d` by the stone behind it.
//! Everything else about the acts is the same for every placement, which is
//! what lets [`count`] count a position's moves without listing them.

use super::moves::{Act, Move};
use super::position::Board;
use super::square::{Direction, Square, MAX_SQUARES, OFF_BOARD};

/// Per-stone facts about the acts of a board, independent of the placement.
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
            let mut dirs = geometry.on_board[s];
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
    let mover = board.to_move.index();
    let other = 1 - mover;
    let colonizing = board.hand[mover] >= 2;
    let targets = ActTargets::new(board, colonizing);
    let enemy_kingstone = board.kingstone[other].index();
    let mut places = board.stones;
    while places != 0 {
        let s = places.trailing_zeros() as usize;
        places &= places - 1;
        let mut empty = board.empty_slots(Square(s as u8));
        while empty != 0 {
            let d = empty.trailing_zeros() as usize;
            empty &= empty - 1;
            let placed = board.tokens[mover][s] | (1 << d);
            let square = Square(s as u8);
            let slot = Direction(d as u8);
            moves.push(Move { square, slot, act: Act::Pass });
            if s == enemy_kingstone && placed.count_ones() > board.tokens[other][s].count_ones() {
                // A winning placement is the whole move.
                continue;
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
                    moves.push(Move { square, slot, act: Act::Step { from, dir } });
                }
                let mut colonies = own & targets.colonizable[a];
                while colonies != 0 {
                    let dir = colonies.trailing_zeros() as usize;
                    colonies &= colonies - 1;
                    // The placement just filled the target slot with our own token.
                    if board.geometry.neighbour[a][dir] as usize == s && dir == d {
                        continue;
                    }
                    moves.push(Move { square, slot, act: Act::Colonize { from, dir: Direction(dir as u8) } });
                }
            }
        }
    }
}

/// The number of legal moves of `board` (harvest done, mover with a token in
/// hand), without listing them.
///
/// With `A` the number of acts on the board before any placement, a
/// placement into slot `d` of stone `s` allows
/// `1 + A - from(s) + from'(s) - blocked(s, d)` moves: the pass, the acts,
/// corrected for the acts of `s` itself (whose control and tokens changed)
/// and for the colonization of the very slot just filled. A winning
/// placement is exactly one move.
pub fn count(board: &Board) -> u64 {
    let mover = board.to_move.index();
    let other = 1 - mover;
    let colonizing = board.hand[mover] >= 2;
    let targets = ActTargets::new(board, colonizing);
    let geometry = board.geometry;

    // Acts before any placement, and the slots whose filling blocks one.
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
            let t = geometry.neighbour[s][d];
            debug_assert_ne!(t, OFF_BOARD);
            blocking[t as usize] |= 1 << d;
        }
    }

    let enemy_kingstone = board.kingstone[other].index();
    let mut total = 0u64;
    let mut stones = board.stones;
    while stones != 0 {
        let s = stones.trailing_zeros() as usize;
        stones &= stones - 1;
        let empty = board.empty_slots(Square(s as u8));
        if empty == 0 {
            continue;
        }
        let places = u64::from(empty.count_ones());
        let own = board.tokens[mover][s].count_ones();
        let theirs = board.tokens[other][s].count_ones();
        if s == enemy_kingstone && own + 1 > theirs {
            total += places;
            continue;
        }
        let acts = targets.acts(s);
        let blocked = u64::from((empty & blocking[s]).count_ones());
        let new_acts = u64::from((empty & acts).count_ones());
        total += places * (1 + all_acts) - blocked;
        if own > theirs {
            // Still controlled: the placed token may open one more act.
            total += new_acts;
        } else if own == theirs {
            // The placement gives control: all of the stone's acts open.
            total += places * u64::from((board.tokens[mover][s] & acts).count_ones()) + new_acts;
        }
    }
    total
}
