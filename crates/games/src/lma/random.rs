//! A random playout's move, drawn without listing the moves.
//!
//! Random playouts pick one move a ply, so building the legal list (a
//! push per move, a test per king step) is mostly wasted. The draw is
//! uniform over a superset instead, and a draw outside the legal moves is
//! drawn again, which keeps it uniform among them (rejection sampling):
//! - the king's steps, the castlings and the pawns' moves are generated in
//!   the groups the generator makes (a target set, a pawn shift);
//! - a queen, rook or cardinal counts as many slots as it has targets on an
//!   empty board, one per target; a drawn slot is a move if nothing blocks
//!   the way to its target and the landing square is free;
//! - only the drawn move is tested for the king's safety.
//!
//! In check most pseudo-legal moves are illegal, and a position without
//! legal moves would reject forever: both take the list.

use super::bitboard::Bitboard;
use super::movegen::{generate, Collector, Generator, Sink};
use super::moves::{Move, Special, PROMOTIONS};
use super::piece::Kind;
use super::position::Position;
use super::square::{BoardIndex, Square};
use super::tables::{same_parity, EMPTY_BOARD_REACH, EMPTY_BOARD_TARGETS, RANK_AND_FILE_REACH};
use rand::Rng;
use smallvec::SmallVec;

/// Draws rejected before the list is built instead. Empty slots reject
/// most draws in crowded positions; a long run of rejections means few or
/// no legal moves.
const REJECTIONS_BEFORE_LISTING: u32 = 24;

/// A legal move of `pos` drawn uniformly, `None` if there is none (draw
/// rules are the caller's); `scratch` holds the list when one is built.
pub fn random_legal<R: Rng + ?Sized>(pos: &Position, rng: &mut R, scratch: &mut Vec<Move>) -> Option<Move> {
    let gen = Generator::new(pos);
    if gen.in_check() {
        return random_evasion(&gen, rng, scratch);
    }
    let mut groups = Groups::new();
    gen.king_and_pawn_moves_not_in_check(&mut groups);
    let sliders = Sliders::of(pos);
    let total = groups.total + sliders.slots;
    for _ in 0..if total > 0 { REJECTIONS_BEFORE_LISTING } else { 0 } {
        let index = rng.random_range(0..total);
        let drawn = if index < groups.total { Some(groups.nth(index)) } else { sliders.nth(&gen, index - groups.total) };
        if let Some(mv) = drawn.filter(|&mv| gen.is_legal(mv)) {
            return Some(mv);
        }
    }
    scratch.clear();
    generate(pos, &mut Collector(scratch));
    if scratch.is_empty() {
        return None;
    }
    Some(scratch[rng.random_range(0..scratch.len())])
}

/// In check: the other pieces' legal moves are few and listed (a piece
/// that cannot reach a square ending the check is skipped cheaply), while
/// the king's steps are drawn among its pseudo-legal ones and only the
/// drawn step is tested (rejection sampling again; after many rejections,
/// or with no move at all, the king's legal steps are listed too).
fn random_evasion<R: Rng + ?Sized>(gen: &Generator, rng: &mut R, scratch: &mut Vec<Move>) -> Option<Move> {
    scratch.clear();
    gen.non_king_evasions(&mut Collector(scratch));
    let listed = scratch.len() as u32;
    let steps = gen.king_steps();
    let total = listed + steps[0].count() + steps[1].count();
    for _ in 0..if total > 0 { REJECTIONS_BEFORE_LISTING } else { 0 } {
        let index = rng.random_range(0..total);
        if index < listed {
            return Some(scratch[index as usize]);
        }
        let mut step = index - listed;
        let board = usize::from(step >= steps[0].count());
        if board == 1 {
            step -= steps[0].count();
        }
        let cell = steps[board].nth_index(step);
        if gen.king_step_is_legal(board, cell) {
            return Some(Move::plain(gen.king_square(), Square::new(board, cell)));
        }
    }
    for (board, cells) in steps.into_iter().enumerate() {
        for cell in cells {
            if gen.king_step_is_legal(board, cell) {
                scratch.push(Move::plain(gen.king_square(), Square::new(board, cell)));
            }
        }
    }
    if scratch.is_empty() {
        return None;
    }
    Some(scratch[rng.random_range(0..scratch.len())])
}

/// The queens, rooks and cardinals of the side to move, each with as many
/// slots as it has targets on an empty board. The slots along the ranks and
/// files come first: every queen and rook has the same number of them
/// ([`RANK_AND_FILE_REACH`]), so they are counted from the number of those
/// pieces and a slot's piece is found by division; the queens' and
/// cardinals' other slots follow, in the order [`Sliders::nth`] walks them.
struct Sliders<'a> {
    pos: &'a Position,
    /// The queens and rooks of the side to move, by board.
    straight: [Bitboard; 2],
    /// Their slots along ranks and files.
    straight_slots: u32,
    slots: u32,
}

/// The pieces with slots off the ranks and files.
const CROOKED: [Kind; 2] = [Kind::Queen, Kind::Cardinal];

impl<'a> Sliders<'a> {
    #[inline]
    fn of(pos: &'a Position) -> Sliders<'a> {
        let us = pos.side_to_move();
        let straight = [0, 1].map(|board| {
            (pos.kinds[board][Kind::Queen as usize] | pos.kinds[board][Kind::Rook as usize]) & pos.sides[board][us]
        });
        let straight_slots = RANK_AND_FILE_REACH * (straight[0].count() + straight[1].count());
        let mut slots = straight_slots;
        Self::walk(pos, |_, _, _, reach| {
            slots += reach;
            false
        });
        Sliders { pos, straight, straight_slots, slots }
    }

    /// Calls `visit(board, cell, kind, slots)` for each queen and cardinal
    /// with its slots off the rank and the file, until it returns true.
    #[inline(always)]
    fn walk(pos: &Position, mut visit: impl FnMut(BoardIndex, usize, Kind, u32) -> bool) {
        let us = pos.side_to_move();
        for board in 0..2 {
            for kind in CROOKED {
                for cell in pos.kinds[board][kind as usize] & pos.sides[board][us] {
                    if visit(board, cell, kind, u32::from(EMPTY_BOARD_REACH[cell][kind as usize])) {
                        return;
                    }
                }
            }
        }
    }

    /// The move in slot `index` (below `slots`), or `None` when that slot
    /// is no move: slot `i` of a piece is its `i`-th target on an empty
    /// board, a move if nothing blocks the way there and the landing is
    /// free (one test, instead of computing all the piece's targets).
    #[inline]
    fn nth(&self, gen: &Generator, index: u32) -> Option<Move> {
        if index < self.straight_slots {
            let (mut piece, slot) = (index / RANK_AND_FILE_REACH, index % RANK_AND_FILE_REACH);
            let mut board = 0;
            if piece >= self.straight[0].count() {
                piece -= self.straight[0].count();
                board = 1;
            }
            let cell = self.straight[board].nth_index(piece);
            let to = usize::from(EMPTY_BOARD_TARGETS[cell][Kind::Rook as usize][slot as usize]);
            return gen.slider_move(board, cell, to);
        }
        let mut index = index - self.straight_slots;
        let mut drawn = None;
        Self::walk(self.pos, |board, cell, kind, slots| {
            if index >= slots {
                index -= slots;
                return false;
            }
            let to = usize::from(EMPTY_BOARD_TARGETS[cell][kind as usize][index as usize]);
            drawn = gen.slider_move(board, cell, to);
            true
        });
        drawn
    }
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
    /// The king on `from` to each target cell: one of its colour keeps its
    /// board, one of the other colour lands on the other board (one group
    /// for both, as the king is seldom drawn).
    King { from: Square },
    /// One move (a castling): `targets` is empty.
    One(Move),
}

/// Room for the groups of the king (one), the castlings (up to four) and
/// the pawns (seven shifts per board).
const MAX_GROUPS: usize = 1 + 4 + 2 * 7;

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
                    Move::plain(from, Square::new(usize::from(board), group.targets.nth_index(index)))
                }
                Shape::Shifted { from_board, board, delta, promote } => {
                    let (target, promotion) = if promote { (index / 3, Some(index % 3)) } else { (index, None) };
                    let cell = group.targets.nth_index(target);
                    let from = Square::new(usize::from(from_board), (cell as i32 - i32::from(delta)) as usize);
                    let to = Square::new(usize::from(board), cell);
                    match promotion {
                        Some(kind) => Move { from, to, special: Special::Promote(PROMOTIONS[kind as usize]) },
                        None => Move::plain(from, to),
                    }
                }
                Shape::King { from } => {
                    let cell = group.targets.nth_index(index);
                    let same = same_parity(from.cell()).contains_index(cell);
                    let board = if same { from.board() } else { 1 - from.board() };
                    Move::plain(from, Square::new(board, cell))
                }
                Shape::One(mv) => mv,
            };
        }
        unreachable!("the index is below the total")
    }
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

    #[inline(always)]
    fn king_steps(&mut self, from: Square, targets: Bitboard) {
        self.add(targets, targets.count(), Shape::King { from });
    }
}
