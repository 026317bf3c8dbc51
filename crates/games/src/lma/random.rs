//! A random playout's move, drawn without listing the moves.
//!
//! Random playouts pick one move a ply, so building the legal list (a
//! push per move, a test per king step) is mostly wasted. Here the
//! pseudo-legal moves stay in the groups the generator makes (a piece's
//! target set on one board, a pawn shift); a move is drawn uniformly among
//! them and only that one is tested. An illegal draw is drawn again, which
//! keeps the draw uniform among the legal moves (rejection sampling). In
//! check most pseudo-legal moves are illegal, and a position without legal
//! moves would reject forever: both take the list.

use super::bitboard::Bitboard;
use super::movegen::{generate, Collector, Generator, Sink};
use super::moves::{Move, Special, PROMOTIONS};
use super::position::Position;
use super::square::{BoardIndex, Square};
use rand::Rng;
use smallvec::SmallVec;

/// Draws rejected before the list is built instead: rejections are rare
/// outside check, so a run of them means few or no legal moves.
const REJECTIONS_BEFORE_LISTING: u32 = 8;

/// A legal move of `pos` drawn uniformly, `None` if there is none (draw
/// rules are the caller's); `scratch` holds the list when one is built.
pub fn random_legal<R: Rng + ?Sized>(pos: &Position, rng: &mut R, scratch: &mut Vec<Move>) -> Option<Move> {
    let gen = Generator::new(pos);
    if !gen.in_check() {
        let mut groups = Groups::new();
        gen.pseudo_legal_not_in_check(&mut groups);
        if groups.total == 0 {
            return None;
        }
        for _ in 0..REJECTIONS_BEFORE_LISTING {
            let mv = groups.nth(rng.random_range(0..groups.total));
            if gen.is_legal(mv) {
                return Some(mv);
            }
        }
    }
    scratch.clear();
    generate(pos, &mut Collector(scratch));
    if scratch.is_empty() {
        return None;
    }
    Some(scratch[rng.random_range(0..scratch.len())])
}

/// Moves of one shape: `targets` with everything else they share.
#[derive(Clone, Copy)]
struct Group {
    targets: Bitboard,
    /// The moves it holds: the targets, three per target for promotions.
    count: u8,
    shape: Shape,
}

#[derive(Clone, Copy)]
enum Shape {
    /// The piece on `from` to each target cell, landing on `board`.
    Spread { from: Square, board: u8 },
    /// Pawns: each target cell `t` comes from cell `t - delta` of
    /// `from_board` and lands on `board`.
    Shifted { from_board: u8, board: u8, delta: i8, promote: bool },
    /// One move (a castling): `targets` is empty.
    One(Move),
}

/// Room for every group a side can have: two per queen, rook or cardinal
/// (at most 22 in Double LMA, promotions included), two for the king, up
/// to four castlings and seven pawn shifts per board.
const MAX_GROUPS: usize = 2 * 22 + 2 + 4 + 2 * 7;

struct Groups {
    groups: SmallVec<[Group; MAX_GROUPS]>,
    total: u32,
}

impl Groups {
    #[inline(always)]
    fn new() -> Groups {
        Groups { groups: SmallVec::new(), total: 0 }
    }

    #[inline(always)]
    fn add(&mut self, targets: Bitboard, count: u32, shape: Shape) {
        if count > 0 {
            self.groups.push(Group { targets, count: count as u8, shape });
            self.total += count;
        }
    }

    /// The move at `index` (below `total`) in group order.
    #[inline]
    fn nth(&self, mut index: u32) -> Move {
        for group in &self.groups {
            let count = u32::from(group.count);
            if index >= count {
                index -= count;
                continue;
            }
            return match group.shape {
                Shape::Spread { from, board } => {
                    Move::plain(from, Square::new(usize::from(board), nth_cell(group.targets, index)))
                }
                Shape::Shifted { from_board, board, delta, promote } => {
                    let (target, promotion) = if promote { (index / 3, Some(index % 3)) } else { (index, None) };
                    let cell = nth_cell(group.targets, target);
                    let from = Square::new(usize::from(from_board), (cell as i32 - i32::from(delta)) as usize);
                    let to = Square::new(usize::from(board), cell);
                    match promotion {
                        Some(kind) => Move { from, to, special: Special::Promote(PROMOTIONS[kind as usize]) },
                        None => Move::plain(from, to),
                    }
                }
                Shape::One(mv) => mv,
            };
        }
        unreachable!("the index is below the total")
    }
}

/// The `index`-th lowest cell of `set` (which has more than `index`).
#[inline]
fn nth_cell(mut set: Bitboard, index: u32) -> usize {
    for _ in 0..index {
        set.0 &= set.0 - 1;
    }
    set.lowest_index()
}

impl Sink for Groups {
    #[inline(always)]
    fn spread(&mut self, from: Square, board: BoardIndex, targets: Bitboard) {
        self.add(targets, targets.count(), Shape::Spread { from, board: board as u8 });
    }

    #[inline(always)]
    fn shifted(&mut self, from_board: BoardIndex, board: BoardIndex, targets: Bitboard, delta: i32, promote: bool) {
        let count = targets.count() * if promote { PROMOTIONS.len() as u32 } else { 1 };
        self.add(targets, count, Shape::Shifted { from_board: from_board as u8, board: board as u8, delta: delta as i8, promote });
    }

    #[inline(always)]
    fn one(&mut self, mv: Move) {
        self.add(Bitboard::EMPTY, 1, Shape::One(mv));
    }
}

