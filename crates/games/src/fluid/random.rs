//! A random playout's move, drawn without listing the moves.
//!
//! Random playouts pick one move a ply, so building every move is mostly
//! wasted. The draw is uniform over slots instead, each slot a pseudo-legal
//! move or nothing, and a draw that is not a legal move is drawn again,
//! which keeps it uniform among the legal moves (rejection sampling):
//! - the pawns' pushes, double steps and captures (promotions aside) are
//!   target sets, one slot per move;
//! - promotions and en passant are listed (their rules do not fit a target
//!   set, and they are rare); each castling right is one slot;
//! - every other unit (a single piece, a piece splitting from its pair, a
//!   pair moving together) has as many slots as its kind could ever have
//!   moves (a rook 14, a pair 27...), so the slots need no list: a drawn
//!   slot names its unit by arithmetic, is rejected at once when beyond
//!   the unit's moves on an empty board, and otherwise computes that
//!   unit's targets alone;
//! - only the drawn move is tested for the king's safety.
//!
//! A long run of rejections (few or no legal moves) takes the list.

use super::attacks;
use super::bitboard::Bitboard;
use super::board::{Board, SideMasks};
use super::movegen::{
    self, castlings, promotions_and_en_passant, pseudo_legal_is_legal, single_move, KingSafety, Sink,
};
use super::moves::{Move, Special};
use super::piece::{Colour, Kind};
use super::position::{Rules, State};
use super::square::Square;
use rand::Rng;

/// Draws rejected before the list is built instead.
const REJECTIONS_BEFORE_LISTING: u32 = 32;

/// The kinds of single units, with the most moves a piece of that kind
/// has on an empty board (a bishop in the centre has 13).
const SINGLE_SLOTS: [(Kind, u32); 4] = [(Kind::Knight, 8), (Kind::Bishop, 13), (Kind::Rook, 14), (Kind::King, 8)];

/// The most moves of a pair on an empty board: a queen in the centre.
const PAIR_SLOTS: u32 = 27;

/// A legal move drawn uniformly (`None` if there is none; draw rules
/// aside); `scratch` holds the listed moves, or the full list when one is
/// built.
pub fn random_legal<R: Rng + ?Sized>(state: &State, rules: &Rules, rng: &mut R, scratch: &mut Vec<Move>) -> Option<Move> {
    let safety = KingSafety::of(state)?;
    let masks = state.board.side_masks(state.side);
    scratch.clear();
    let slots = Slots::of(state, rules, &masks, scratch);
    let total = slots.total();
    let mut indices = Indices { rng: &mut *rng, spare: None };
    for _ in 0..if total > 0 { REJECTIONS_BEFORE_LISTING } else { 0 } {
        let drawn = slots.nth(indices.below(total), scratch);
        if let Some(mv) = drawn.filter(|&mv| pseudo_legal_is_legal(state, rules, &safety, mv)) {
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

/// Uniform slot indices, two from each 64-bit word of the generator
/// (`random_range` takes a word a draw, and a ply draws 2.3 on average),
/// by Lemire's multiply-and-reject: exactly uniform.
struct Indices<'r, R: ?Sized> {
    rng: &'r mut R,
    /// The unused half of the last word.
    spare: Option<u32>,
}

impl<R: Rng + ?Sized> Indices<'_, R> {
    /// A uniform index below `bound` (positive).
    #[inline]
    fn below(&mut self, bound: u32) -> u32 {
        loop {
            let product = u64::from(self.next_half()) * u64::from(bound);
            let low = product as u32;
            // The `2^32 mod bound` lowest products' words would make some
            // results more frequent; that remainder is below `bound`, so
            // it is computed only for the rare low products below `bound`.
            if low >= bound || low >= bound.wrapping_neg() % bound {
                return (product >> 32) as u32;
            }
        }
    }

    /// 32 random bits: the high half of a new word, then its low half.
    #[inline]
    fn next_half(&mut self) -> u32 {
        match self.spare.take() {
            Some(half) => half,
            None => {
                let word = self.rng.next_u64();
                self.spare = Some(word as u32);
                (word >> 32) as u32
            }
        }
    }
}

/// The slots of one position, in this order: the single units by kind,
/// the pairs, and the rest: pawn pushes, double steps, captures towards the
/// a-file and towards the h-file, the listed moves, the castling rights.
/// The rest is drawn seldom, so only its size is kept (its sets are
/// computed again when a slot there is drawn): the draw loop keeps fewer
/// values at hand.
struct Slots<'a> {
    state: &'a State,
    rules: &'a Rules,
    masks: &'a SideMasks,
    /// Slots each single unit gets besides its kind's: a single mover
    /// chooses its victim on each square of `masks.choices`.
    choice_slots: u32,
    pairs: Bitboard,
    /// The pawn moves without promotion: the first slots of the rest.
    pawn_moves: u32,
    /// The side's castling rights, in the low two bits.
    castling: u8,
    /// Where each group's slots end: the four kinds of single units, the
    /// pairs and the rest (the total).
    ends: [u32; GROUPS],
}

const GROUPS: usize = 6;
const PAIRS: usize = 4;
const REST: usize = 5;

/// The pawn moves without promotion (en passant aside), as target sets.
struct PawnMoves {
    /// The index change of a pawn's step forward.
    forward: i8,
    pushes: Bitboard,
    doubles: Bitboard,
    /// Captures, and the index change of each direction.
    captures: [(Bitboard, i8); 2],
}

impl PawnMoves {
    #[inline(always)]
    fn of(board: &Board, side: Colour, masks: &SideMasks) -> PawnMoves {
        let pawns = board.pieces(side, Kind::Pawn);
        let empty = !board.occupied();
        let (forward, double_rank, last_rank) = match side {
            Colour::White => (8, RANK_3, RANK_8),
            Colour::Black => (-8, RANK_6, RANK_1),
        };
        let pushes = shift(pawns, forward) & empty & !last_rank;
        let doubles = shift(pushes & double_rank, forward) & empty;
        // A pawn captures without promotion where only enemy pieces stand.
        let victims = masks.opp & !masks.own & !last_rank;
        let (towards_a, towards_h) = (forward - 1, forward + 1);
        let captures = [
            (shift(pawns & !FILE_A, towards_a) & victims, towards_a),
            (shift(pawns & !FILE_H, towards_h) & victims, towards_h),
        ];
        PawnMoves { forward, pushes, doubles, captures }
    }

    /// How many moves (a capture on a square of `choices` is two).
    #[inline(always)]
    fn count(&self, choices: Bitboard) -> u32 {
        let [(west, _), (east, _)] = self.captures;
        self.pushes.count()
            + self.doubles.count()
            + west.count()
            + (west & choices).count()
            + east.count()
            + (east & choices).count()
    }

    /// The move in slot `index` (below the count): pushes, double steps,
    /// then the captures of each direction.
    #[inline]
    fn nth(&self, board: &Board, side: Colour, choices: Bitboard, mut index: u32) -> Option<Move> {
        let step = |to: Square, back: i8| Move::new(to.offset(-back), to, Kind::Pawn, None);
        let pushes = self.pushes.count();
        if index < pushes {
            return Some(step(nth_square(self.pushes, index), self.forward));
        }
        index -= pushes;
        let doubles = self.doubles.count();
        if index < doubles {
            return Some(step(nth_square(self.doubles, index), 2 * self.forward).special_kind(Special::DoublePush));
        }
        index -= doubles;
        for (targets, delta) in self.captures {
            let size = targets.count() + (targets & choices).count();
            if index < size {
                let (to, choice) = nth_with_choices(targets, choices, index)?;
                return Some(single_move(board, side, choices, (to.offset(-delta), to, Kind::Pawn), choice));
            }
            index -= size;
        }
        None
    }
}

impl<'a> Slots<'a> {
    /// Counts the slots, and lists promotions and en passant into `listed`.
    #[inline]
    fn of(state: &'a State, rules: &'a Rules, masks: &'a SideMasks, listed: &mut Vec<Move>) -> Slots<'a> {
        let board = &state.board;
        let side = state.side;
        let pawns = board.pieces(side, Kind::Pawn);
        let before_last = if side == Colour::White { RANK_7 } else { RANK_2 };
        if (pawns & before_last).not_empty() || state.en_passant.is_some() {
            promotions_and_en_passant(state, rules, *masks, &mut Listing(&mut *listed));
        }
        let pawn_moves = PawnMoves::of(board, side, masks).count(masks.choices);
        let castling = state.castling >> (2 * side.index()) & 3;
        let choice_slots = masks.choices.count();
        let pairs = masks.own & board.stacked() & !masks.opp;
        let mut ends = [0; GROUPS];
        let mut total = 0;
        for (group, (kind, slots)) in SINGLE_SLOTS.into_iter().enumerate() {
            total += board.pieces(side, kind).count() * (slots + choice_slots);
            ends[group] = total;
        }
        total += pairs.count() * PAIR_SLOTS;
        ends[PAIRS] = total;
        ends[REST] = total + pawn_moves + listed.len() as u32 + castling.count_ones();
        Slots { state, rules, masks, choice_slots, pairs, pawn_moves, castling, ends }
    }

    /// How many slots there are.
    #[inline]
    fn total(&self) -> u32 {
        self.ends[REST]
    }

    /// The move in slot `index` (below the total), or `None` for an empty
    /// slot.
    #[inline]
    fn nth(&self, index: u32, listed: &[Move]) -> Option<Move> {
        let ends = &self.ends;
        let group = ends.iter().position(|&end| index < end)?;
        let index = index - if group == 0 { 0 } else { ends[group - 1] };
        match group {
            PAIRS => self.pair(index),
            REST => self.rest(index, listed),
            _ => self.single(SINGLE_SLOTS[group].0, SINGLE_SLOTS[group].1, index),
        }
    }

    /// The move in slot `index` of the rest: the pawn moves, the listed
    /// moves, the castlings. Out of line: the draw loop stays small.
    #[inline(never)]
    fn rest(&self, index: u32, listed: &[Move]) -> Option<Move> {
        let (board, side) = (&self.state.board, self.state.side);
        if index < self.pawn_moves {
            return PawnMoves::of(board, side, self.masks).nth(board, side, self.masks.choices, index);
        }
        let index = index - self.pawn_moves;
        match listed.get(index as usize) {
            Some(&mv) => Some(mv),
            None => self.castling(index - listed.len() as u32),
        }
    }

    /// The move in slot `index` of the single units of `kind` (`slots`
    /// each, besides the choice slots).
    #[inline]
    fn single(&self, kind: Kind, slots: u32, mut index: u32) -> Option<Move> {
        let slots = slots + self.choice_slots;
        let from = self.state.board.pieces(self.state.side, kind).into_iter().find(|_| {
            let here = index < slots;
            if !here {
                index -= slots;
            }
            here
        })?;
        let masks = self.masks;
        // Beyond its moves on an empty board: rejected without its targets.
        if index >= attacks::empty_board_moves(kind, from) + self.choice_slots {
            return None;
        }
        let targets = Board::reach(kind, from, masks) & masks.single_targets;
        let (to, choice) = nth_with_choices(targets, masks.choices, index)?;
        Some(single_move(&self.state.board, self.state.side, masks.choices, (from, to, kind), choice))
    }

    /// The move in slot `index` of the pairs moving together.
    #[inline]
    fn pair(&self, index: u32) -> Option<Move> {
        let from = nth_square(self.pairs, index / PAIR_SLOTS);
        let index = index % PAIR_SLOTS;
        let cell = self.state.board.cell(from);
        let (a, b) = (cell.first()?.kind(), cell.second()?.kind());
        if index >= (Board::empty_board_reach(a, from) | Board::empty_board_reach(b, from)).count() {
            return None;
        }
        let reach = Board::reach(a, from, self.masks) | Board::reach(b, from, self.masks);
        let targets = reach & self.masks.pair_targets;
        (index < targets.count()).then(|| Move::new(from, nth_square(targets, index), a, Some(b)))
    }

    /// The castling of the `index`-th right (king side first), if its own
    /// conditions hold.
    #[cold]
    fn castling(&self, index: u32) -> Option<Move> {
        let king_side = index == 0 && self.castling & 1 != 0;
        let mut found = Castling { king_side, found: None };
        castlings(self.state, self.rules, *self.masks, &mut found);
        found.found
    }
}

/// The `index`-th square of `squares` (there are more).
#[inline]
fn nth_square(squares: Bitboard, index: u32) -> Square {
    Square::new(squares.nth_index(index) as u8)
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

/// `squares` moved `delta` indices (up the board when positive); the
/// caller masks off the files that would wrap.
#[inline]
fn shift(squares: Bitboard, delta: i8) -> Bitboard {
    if delta >= 0 {
        Bitboard(squares.0 << delta)
    } else {
        Bitboard(squares.0 >> -delta)
    }
}

const RANK_1: Bitboard = Bitboard(0xFF);
const RANK_2: Bitboard = Bitboard(0xFF << 8);
const RANK_3: Bitboard = Bitboard(0xFF << 16);
const RANK_6: Bitboard = Bitboard(0xFF << 40);
const RANK_7: Bitboard = Bitboard(0xFF << 48);
const RANK_8: Bitboard = Bitboard(0xFF << 56);
const FILE_A: Bitboard = Bitboard(0x0101_0101_0101_0101);
const FILE_H: Bitboard = Bitboard(0x8080_8080_8080_8080);

/// Listed moves go to the scratch list.
struct Listing<'a>(&'a mut Vec<Move>);

impl Sink for Listing<'_> {
    #[inline]
    fn push(&mut self, mv: Move) {
        self.0.push(mv);
    }
}

/// Keeps the castling to one side.
struct Castling {
    king_side: bool,
    found: Option<Move>,
}

impl Sink for Castling {
    fn push(&mut self, mv: Move) {
        if (mv.to().file() == 6) == self.king_side {
            self.found = Some(mv);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Indices;
    use rand::RngCore;

    /// Hands out the given words, then zeros.
    struct Words(Vec<u64>);

    impl RngCore for Words {
        fn next_u32(&mut self) -> u32 {
            self.next_u64() as u32
        }
        fn next_u64(&mut self) -> u64 {
            if self.0.is_empty() {
                0
            } else {
                self.0.remove(0)
            }
        }
        fn fill_bytes(&mut self, bytes: &mut [u8]) {
            for chunk in bytes.chunks_mut(8) {
                chunk.copy_from_slice(&self.next_u64().to_le_bytes()[..chunk.len()]);
            }
        }
    }

    fn indices(words: &[u64], bound: u32, count: usize) -> Vec<u32> {
        let mut rng = Words(words.to_vec());
        let mut indices = Indices { rng: &mut rng, spare: None };
        (0..count).map(|_| indices.below(bound)).collect()
    }

    #[test]
    fn indices_scale_each_half_word_high_half_first() {
        // Just past a half and three quarters of 2^32.
        assert_eq!(indices(&[0x8000_0001_C000_0001], 10, 2), [5, 7]);
        assert_eq!(indices(&[0xFFFF_FFFF_0000_0001, 0x4000_0000_0000_0000], 7, 3), [6, 0, 1]);
    }

    #[test]
    fn indices_reject_the_words_that_would_bias() {
        // Bound 3: 2^32 mod 3 = 1 word must go, the one whose product's
        // low half is 0: word 0. The next half decides.
        assert_eq!(indices(&[0x0000_0000_FFFF_FFFF], 3, 1), [2]);
        // Bound 2^31 + 1 rejects the words whose products' low halves
        // fall below 2^31 - 1: word 2 (it would be 1, low half 2) goes,
        // word 2^31 (low half 2^31) stays.
        assert_eq!(indices(&[0x0000_0002_8000_0000], (1 << 31) + 1, 1), [1 << 30]);
    }
}
