//! A random playout's move, drawn without listing the moves.
//!
//! Random playouts pick one move a ply, so building every move is mostly
//! wasted. The draw is uniform over a superset instead, and a draw outside
//! the legal moves is drawn again, which keeps it uniform among them
//! (rejection sampling):
//! - the pawns' moves and the castlings are listed (their rules do not fit
//!   a target set, and they are few);
//! - every other unit (a single piece, a pair moving together, a piece
//!   splitting from its pair) has as many slots as its moves could number
//!   on an empty board; a drawn slot computes that unit's targets alone,
//!   and is a move if the unit has that many;
//! - only the drawn move is tested for the king's safety.
//!
//! A long run of rejections (few or no legal moves) takes the list.

use super::bitboard::Bitboard;
use super::board::{Board, SideMasks};
use super::movegen::{self, pawn_and_castling_moves, pseudo_legal_is_legal, single_move, Sink};
use super::moves::Move;
use super::piece::Kind;
use super::position::{Rules, State};
use super::square::Square;
use rand::Rng;
use smallvec::SmallVec;

/// Draws rejected before the list is built instead. Empty slots reject
/// many draws in crowded positions.
const REJECTIONS_BEFORE_LISTING: u32 = 24;

/// A legal move drawn uniformly (`None` if there is none; draw rules
/// aside); `scratch` holds the list when one is built.
pub fn random_legal<R: Rng + ?Sized>(state: &State, rules: &Rules, rng: &mut R, scratch: &mut Vec<Move>) -> Option<Move> {
    let king = state.board.king(state.side)?;
    let in_check = state.board.attacked(king, state.side.other(), rules.single_promotions);
    let masks = state.board.side_masks(state.side);
    let mut listed = Listed(SmallVec::new());
    pawn_and_castling_moves(state, rules, masks, &mut listed);
    let units = Units::of(state, &masks);
    let listed_count = listed.0.len() as u32;
    let total = listed_count + units.slots;
    for _ in 0..if total > 0 { REJECTIONS_BEFORE_LISTING } else { 0 } {
        let index = rng.random_range(0..total);
        let drawn = if index < listed_count { Some(listed.0[index as usize]) } else { units.nth(index - listed_count) };
        if let Some(mv) = drawn.filter(|&mv| pseudo_legal_is_legal(state, rules, in_check, mv)) {
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

/// The listed moves: room for the usual number inline.
struct Listed(SmallVec<[Move; 32]>);

impl Sink for Listed {
    #[inline]
    fn push(&mut self, mv: Move) {
        self.0.push(mv);
    }
}

/// A unit that moves by a target set.
#[derive(Clone, Copy)]
enum Unit {
    /// One piece of `kind` on `from`: alone there, or split from its pair.
    Single { from: Square, kind: Kind },
    /// Both pieces on `from` moving together.
    Pair { from: Square, first: Kind, second: Kind },
}

/// The units of the side to move, each with as many slots as its moves
/// could number on an empty board, in the order of the move generator:
/// single pieces by kind, then each pair as a pair and as its pieces.
struct Units<'a> {
    state: &'a State,
    masks: &'a SideMasks,
    units: SmallVec<[(Unit, u32); 24]>,
    slots: u32,
}

impl<'a> Units<'a> {
    #[inline]
    fn of(state: &'a State, masks: &'a SideMasks) -> Units<'a> {
        let board = &state.board;
        let side = state.side;
        let mut units = SmallVec::new();
        // A single mover may capture either of two enemy pieces: two moves.
        let single_slots = |kind: Kind, from: Square| {
            let reach = Board::empty_board_reach(kind, from);
            reach.count() + (reach & masks.choices).count()
        };
        let pairs = masks.own & board.stacked() & !masks.opp;
        let singles = masks.own & !pairs;
        for kind in [Kind::Knight, Kind::Bishop, Kind::Rook, Kind::King] {
            for from in board.pieces(side, kind) & singles {
                units.push((Unit::Single { from, kind }, single_slots(kind, from)));
            }
        }
        for from in pairs {
            let cell = board.cell(from);
            let (Some(a), Some(b)) = (cell.first(), cell.second()) else { continue };
            let (first, second) = (a.kind(), b.kind());
            let together = (Board::empty_board_reach(first, from) | Board::empty_board_reach(second, from)).count();
            units.push((Unit::Pair { from, first, second }, together));
            units.push((Unit::Single { from, kind: first }, single_slots(first, from)));
            if second != first {
                units.push((Unit::Single { from, kind: second }, single_slots(second, from)));
            }
        }
        let slots = units.iter().map(|&(_, slots)| slots).sum();
        Units { state, masks, units, slots }
    }

    /// The move in slot `index` (below `slots`), or `None` when its unit
    /// has fewer moves than that.
    #[inline]
    fn nth(&self, mut index: u32) -> Option<Move> {
        let (state, masks) = (self.state, self.masks);
        let &(unit, _) = self.units.iter().find(|&&(_, slots)| {
            let here = index < slots;
            if !here {
                index -= slots;
            }
            here
        })?;
        match unit {
            Unit::Single { from, kind } => {
                let targets = Board::reach(kind, from, masks) & masks.single_targets;
                nth_with_choices(targets, masks.choices, index)
                    .map(|(to, choice)| single_move(&state.board, state.side, masks.choices, (from, to, kind), choice))
            }
            Unit::Pair { from, first, second } => {
                let targets = (Board::reach(first, from, masks) | Board::reach(second, from, masks)) & masks.pair_targets;
                (index < targets.count()).then(|| Move::new(from, Square::new(targets.nth_index(index) as u8), first, Some(second)))
            }
        }
    }
}

/// The target and victim choice of a single unit's `index`-th move, where
/// each target in `choices` holds two moves; `None` when it has fewer.
#[inline]
fn nth_with_choices(targets: Bitboard, choices: Bitboard, mut index: u32) -> Option<(Square, usize)> {
    if (targets & choices).is_empty() {
        return (index < targets.count()).then(|| (Square::new(targets.nth_index(index) as u8), 0));
    }
    for to in targets {
        let moves = if choices.contains(to) { 2 } else { 1 };
        if index < moves {
            return Some((to, index as usize));
        }
        index -= moves;
    }
    None
}
