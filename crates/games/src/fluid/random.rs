//! A random playout's move, drawn without listing the moves.
//!
//! Random playouts pick one move a ply, so building every move is mostly
//! wasted. Here the pseudo-legal moves of single units and pairs stay as
//! target sets (pawns, castling and en passant are listed: they are few),
//! a move is drawn uniformly among them and only that one is tested. An
//! illegal draw is drawn again, which keeps the draw uniform among the
//! legal moves (rejection sampling); a run of rejections (few or no legal
//! moves) falls back to the list.

use super::bitboard::Bitboard;
use super::movegen::{self, generate_in, pseudo_legal_is_legal, single_move, Mode, Sink};
use super::moves::Move;
use super::piece::Kind;
use super::position::{Rules, State};
use super::square::Square;
use rand::Rng;
use smallvec::SmallVec;

/// Draws rejected before the list is built instead.
const REJECTIONS_BEFORE_LISTING: u32 = 8;

/// A legal move drawn uniformly (`None` if there is none; draw rules
/// aside); `scratch` holds the list when one is built.
pub fn random_legal<R: Rng + ?Sized>(state: &State, rules: &Rules, rng: &mut R, scratch: &mut Vec<Move>) -> Option<Move> {
    let king = state.board.king(state.side)?;
    let in_check = state.board.attacked(king, state.side.other(), rules.single_promotions);
    let mut groups = Groups { groups: SmallVec::new(), total: 0, choices: Bitboard::EMPTY };
    generate_in(state, rules, &mut groups, Mode::PseudoLegal);
    if groups.total == 0 {
        return None;
    }
    for _ in 0..REJECTIONS_BEFORE_LISTING {
        let mv = groups.nth(state, rng.random_range(0..groups.total));
        if pseudo_legal_is_legal(state, rules, in_check, mv) {
            return Some(mv);
        }
    }
    scratch.clear();
    movegen::generate(state, rules, scratch);
    if scratch.is_empty() {
        return None;
    }
    Some(scratch[rng.random_range(0..scratch.len())])
}

#[derive(Clone, Copy)]
enum Group {
    /// A single unit of `kind` on `from` to each of `targets` (two moves to
    /// a target where it chooses its victim).
    Single { from: Square, kind: Kind, targets: Bitboard, count: u8 },
    /// A pair on `from` moving together to each of `targets`.
    Pair { from: Square, first: Kind, second: Kind, targets: Bitboard },
    One(Move),
}

/// Room for the groups of a usual position; more spill to the heap.
const INLINE_GROUPS: usize = 64;

struct Groups {
    groups: SmallVec<[Group; INLINE_GROUPS]>,
    total: u32,
    /// The squares where a single mover chooses its victim.
    choices: Bitboard,
}

impl Groups {
    /// The move at `index` (below `total`) in group order.
    fn nth(&self, state: &State, mut index: u32) -> Move {
        for group in &self.groups {
            match *group {
                Group::Single { from, kind, targets, count } => {
                    if index >= u32::from(count) {
                        index -= u32::from(count);
                        continue;
                    }
                    let (to, choice) = if (targets & self.choices).is_empty() {
                        (nth_square(targets, index), 0)
                    } else {
                        nth_with_choices(targets, self.choices, index)
                    };
                    return single_move(&state.board, state.side, self.choices, (from, to, kind), choice);
                }
                Group::Pair { from, first, second, targets } => {
                    if index >= targets.count() {
                        index -= targets.count();
                        continue;
                    }
                    return Move::new(from, nth_square(targets, index), first, Some(second));
                }
                Group::One(mv) => {
                    if index == 0 {
                        return mv;
                    }
                    index -= 1;
                }
            }
        }
        unreachable!("the index is below the total")
    }
}

/// The `index`-th lowest square of `set` (which has more than `index`).
#[inline]
fn nth_square(mut set: Bitboard, index: u32) -> Square {
    for _ in 0..index {
        set.0 &= set.0 - 1;
    }
    set.lowest()
}

/// The target and victim choice of a single unit's `index`-th move, where
/// each target in `choices` holds two moves.
fn nth_with_choices(targets: Bitboard, choices: Bitboard, mut index: u32) -> (Square, usize) {
    for to in targets {
        let moves = if choices.contains(to) { 2 } else { 1 };
        if index < moves {
            return (to, index as usize);
        }
        index -= moves;
    }
    unreachable!("the index is below the count")
}

impl Sink for Groups {
    #[inline]
    fn push(&mut self, mv: Move) {
        self.groups.push(Group::One(mv));
        self.total += 1;
    }

    #[inline]
    fn take_single(&mut self, from: Square, kind: Kind, targets: Bitboard, choices: Bitboard) -> bool {
        let count = targets.count() + (targets & choices).count();
        self.choices = choices;
        if count > 0 {
            self.groups.push(Group::Single { from, kind, targets, count: count as u8 });
            self.total += count;
        }
        true
    }

    #[inline]
    fn take_pair(&mut self, from: Square, first: Kind, second: Kind, targets: Bitboard) -> bool {
        if targets.not_empty() {
            self.groups.push(Group::Pair { from, first, second, targets });
            self.total += targets.count();
        }
        true
    }
}
