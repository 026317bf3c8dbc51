//! The action space and observation tensor (documented in docs/kelasu.md).
//!
//! Squares are numbered `10 * rank + file` (A0 = 0, J9 = 99). The actions:
//! - 0..10,000: a piece move `<from>-<to>`, `from * 100 + to`;
//! - merges into a Warrior, Runner, Diplomat or Champion (2, 4, 4 and 5
//!   Blanks): the target square times the shape of the Blanks around it,
//!   every connected set of that many squares holding the target, as
//!   offsets (ranks, files) from it, numbered in sorted order ([`shapes`]);
//!   such an index always names one text;
//! - merges into a General or a Stone (10 and 21 Blanks): too many shapes
//!   to number, so the index is the merge's rank among the legal merges
//!   into that kind in this position (by target, then Blanks), below
//!   [`RANKED_MERGES`]; such an index names a text only in its position.

use super::bitboard::Bitboard;
use super::moves::Action;
use super::piece::Kind;
use super::square::Square;
use super::{Kelasu, KelasuVariant};
use menagerie_core::encode::{fill_plane, set_plane};
use menagerie_core::{Encode, Game, Player};
use std::collections::{BTreeSet, HashMap};
use std::sync::OnceLock;

const STEPS: usize = Square::COUNT * Square::COUNT;
/// The kinds whose merges are numbered by shape, and their sizes.
const SHAPED: [(Kind, usize); 4] = [(Kind::Warrior, 2), (Kind::Runner, 4), (Kind::Diplomat, 4), (Kind::Champion, 5)];
const RANKED: [Kind; 2] = [Kind::General, Kind::Stone];
/// How many legal merges into a General (or a Stone) one position may
/// have and still be numbered.
pub const RANKED_MERGES: usize = 4096;

type Shape = Vec<(i8, i8)>;

struct Shapes {
    /// Per size (2, 4, 5), the shapes in sorted order, and their numbers.
    by_size: HashMap<usize, (Vec<Shape>, HashMap<Shape, usize>)>,
    /// Per merge kind, where its block of the action space starts and its size.
    blocks: Vec<(Kind, usize, usize)>,
}

/// Every connected set of `size` cells (edge to edge) holding (0, 0), as
/// sorted offsets, in sorted order.
fn connected_sets(size: usize) -> Vec<Shape> {
    let mut level: BTreeSet<Shape> = BTreeSet::from([vec![(0, 0)]]);
    for _ in 1..size {
        let mut next = BTreeSet::new();
        for shape in &level {
            for &(r, f) in shape {
                for (dr, df) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
                    let cell = (r + dr, f + df);
                    if !shape.contains(&cell) {
                        let mut grown = shape.clone();
                        grown.push(cell);
                        grown.sort_unstable();
                        next.insert(grown);
                    }
                }
            }
        }
        level = next;
    }
    level.into_iter().collect()
}

fn shapes() -> &'static Shapes {
    static SHAPES: OnceLock<Shapes> = OnceLock::new();
    SHAPES.get_or_init(|| {
        let by_size: HashMap<usize, (Vec<Shape>, HashMap<Shape, usize>)> = [2, 4, 5]
            .into_iter()
            .map(|size| {
                let list = connected_sets(size);
                let numbers = list.iter().cloned().enumerate().map(|(i, shape)| (shape, i)).collect();
                (size, (list, numbers))
            })
            .collect();
        let mut blocks = Vec::new();
        let mut base = STEPS;
        for (kind, size) in SHAPED {
            let count = Square::COUNT * by_size[&size].0.len();
            blocks.push((kind, base, count));
            base += count;
        }
        for kind in RANKED {
            blocks.push((kind, base, RANKED_MERGES));
            base += RANKED_MERGES;
        }
        Shapes { by_size, blocks }
    })
}

/// Where each kind's merges start in the action space, and how many.
fn merge_blocks() -> impl Iterator<Item = (Kind, usize, usize)> {
    shapes().blocks.iter().copied()
}

fn offsets(target: Square, squares: Bitboard) -> Shape {
    let mut shape: Shape =
        squares.map(|sq| (sq.rank() as i8 - target.rank() as i8, sq.file() as i8 - target.file() as i8)).collect();
    shape.sort_unstable();
    shape
}

fn merge_text(kind: Kind, target: Square, squares: &[Square]) -> String {
    let list: Vec<String> = squares.iter().map(|sq| sq.to_string()).collect();
    format!("{}@{target}:{}", kind.letter(), list.join(","))
}

/// Planes: each kind of each player (Blue's B W R D C G S, then Red's), the
/// spent pieces, whose turn it is (1 when Red), the Energy left / 10, the
/// quiet counter / 128.
const PIECE_PLANES: usize = 2 * Kind::ALL.len();
const PLANES: usize = PIECE_PLANES + 4;

impl Encode for Kelasu {
    fn num_distinct_actions(_variant: &KelasuVariant) -> usize {
        merge_blocks().map(|(_, _, count)| count).sum::<usize>() + STEPS
    }

    fn action(&self, mv: Action) -> usize {
        let Some(kind) = mv.merged_kind() else {
            return mv.from().index() * Square::COUNT + mv.to().index();
        };
        let (_, base, _) = merge_blocks().find(|&(k, _, _)| k == kind).expect("every merge kind has a block");
        if let Some(&(_, size)) = SHAPED.iter().find(|&&(k, _)| k == kind) {
            let number = shapes().by_size[&size].1[&offsets(mv.from(), mv.squares())];
            return base + mv.from().index() * shapes().by_size[&size].0.len() + number;
        }
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        let mut merges: Vec<(usize, u128)> = moves
            .into_iter()
            .filter(|m| m.merged_kind() == Some(kind))
            .map(|m| (m.from().index(), m.squares().0))
            .collect();
        merges.sort_unstable();
        let rank = merges.binary_search(&(mv.from().index(), mv.squares().0)).unwrap_or(0);
        base + rank
    }

    fn action_text(_variant: &KelasuVariant, action: usize) -> Option<String> {
        if action < STEPS {
            let (from, to) = (Square::new((action / Square::COUNT) as u8), Square::new((action % Square::COUNT) as u8));
            return Some(format!("{from}-{to}"));
        }
        let (kind, base, _) = merge_blocks().find(|&(_, base, count)| (base..base + count).contains(&action))?;
        let &(_, size) = SHAPED.iter().find(|&&(k, _)| k == kind)?;
        let list = &shapes().by_size[&size].0;
        let (target, shape) = ((action - base) / list.len(), &list[(action - base) % list.len()]);
        let target = Square::new(target as u8);
        let mut squares = Vec::new();
        for &(dr, df) in shape {
            let (rank, file) = (target.rank() as i8 + dr, target.file() as i8 + df);
            if !(0..10).contains(&rank) || !(0..10).contains(&file) {
                return None;
            }
            squares.push(Square::at(rank as u8, file as u8));
        }
        squares.sort_unstable_by_key(|sq| sq.index());
        Some(merge_text(kind, target, &squares))
    }

    /// Not proven: a draw comes after 128 turns without a Blank moving, a
    /// merge, a capture or a conversion, or at a fourth repetition, but
    /// Blanks may step sideways again and again. Random play ends far
    /// sooner (the encoding test checks its games against it).
    fn max_game_length(_variant: &KelasuVariant) -> usize {
        100_000
    }

    fn observation_shape(_variant: &KelasuVariant) -> Vec<usize> {
        vec![PLANES, 10, 10]
    }

    fn observe(&self, _viewer: Player, out: &mut [f32]) {
        let state = &self.state;
        for index in 0..Square::COUNT {
            let square = Square::new(index as u8);
            if let Some((player, kind)) = state.board.piece_at(square) {
                set_plane(out, Square::COUNT, player.index() * Kind::ALL.len() + kind.index(), index);
            }
        }
        for square in state.spent {
            set_plane(out, Square::COUNT, PIECE_PLANES, square.index());
        }
        fill_plane(out, Square::COUNT, PIECE_PLANES + 1, state.mover.index() as f32);
        fill_plane(out, Square::COUNT, PIECE_PLANES + 2, f32::from(state.energy) / 10.0);
        fill_plane(out, Square::COUNT, PIECE_PLANES + 3, state.quiet as f32 / super::QUIET_LIMIT as f32);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_are_the_fixed_polyominoes_around_a_cell() {
        // Fixed polyominoes of 2, 4 and 5 cells (1 x 2, 19, 63), each
        // placed on any of its cells.
        assert_eq!(connected_sets(2).len(), 2 * 2);
        assert_eq!(connected_sets(4).len(), 19 * 4);
        assert_eq!(connected_sets(5).len(), 63 * 5);
    }
}
