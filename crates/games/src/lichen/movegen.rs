//! Move generation, bulk counting and random draws, all on a board whose
//! harvest is done.
//!
//! A move is a whole turn: a placement, then (unless the placement wins) a
//! pass, a stone move or a colonization. The act is judged on the board after
//! the placement: the placement may give the mover control of the stone it
//! went on (opening that stone's acts), and a token placed in slot `d` of a
//! stone T blocks the colonization of T's slot `d` by the stone behind it.
//! Everything else about the acts is the same for every placement, which is
//! what lets [`count`] count a position's moves without listing them and
//! [`random`] draw one without counting each placement's.
//!
//! The moves fall into three groups, which [`Groups`] counts:
//! - the *winning* placements (on the enemy kingstone, when one more token
//!   there gives control), each a whole move;
//! - the *common* moves: every other placement, combined with the pass or
//!   with any act of a stone the mover controls before placing (`A` acts).
//!   Such an act stays legal after any placement, except a colonization
//!   of the very slot the placement filled: that pair is *blocked*;
//! - the *extra* moves: acts that only a placement opens, on the stone it
//!   went on (a stone the mover controlled gains the act of the new token;
//!   a tied stone comes under control with all its acts).

use rand::Rng;
use super::moves::{Act, Move};
use super::position::Board;
use super::square::{Direction, Square, MAX_SQUARES};

/// The mover's view of the board: which acts each stone could make.
struct Turn<'a> {
    board: &'a Board,
    mover: usize,
    other: usize,
    /// `open[s]`: directions from `s` to an empty square of the board.
    open: [u8; 16],
    /// `colonizable[s]`: directions from `s` to a stone whose slot in that
    /// direction holds no token of the mover (none when the mover keeps no
    /// token in hand after placing: a colonization needs one).
    colonizable: [u8; 16],
}

impl Turn<'_> {
    #[inline(always)]
    fn new(board: &Board) -> Turn<'_> {
        let mover = board.to_move.index();
        // All squares at once, a byte each, from the masks the board keeps.
        let stones = board.neighbour_marks;
        let open = board.geometry.on_board_marks & !stones;
        let colonizable = if board.hand[mover] >= 2 { stones & !board.facing_marks[mover] } else { 0 };
        Turn {
            board,
            mover,
            other: 1 - mover,
            open: open.to_le_bytes(),
            colonizable: colonizable.to_le_bytes(),
        }
    }

    /// Directions from `s` to an empty square of the board.
    #[inline(always)]
    fn open(&self, s: usize) -> u8 {
        self.open[s]
    }

    /// Directions from `s` to a stone that a colonization can reach.
    #[inline(always)]
    fn colonizable(&self, s: usize) -> u8 {
        self.colonizable[s]
    }

    /// The directions through which the stone on `s` acts, given a token of
    /// the mover in that slot and control of the stone.
    #[inline(always)]
    fn acts(&self, s: usize) -> u8 {
        self.open(s) | self.colonizable(s)
    }

    #[inline(always)]
    fn own(&self, s: usize) -> u8 {
        self.board.tokens[self.mover][s]
    }

    #[inline(always)]
    fn theirs(&self, s: usize) -> u8 {
        self.board.tokens[self.other][s]
    }

    /// The act of the stone on `from` through `dir`, one of its `acts`.
    #[inline(always)]
    fn act(&self, from: usize, dir: u8) -> Act {
        let (from, dir_bit, dir) = (Square(from as u8), 1 << dir, Direction(dir));
        if self.open(from.index()) & dir_bit != 0 {
            Act::Step { from, dir }
        } else {
            Act::Colonize { from, dir }
        }
    }

    /// The enemy kingstone, if one more token there would give the mover
    /// control: then every placement on it wins and is a whole move.
    #[inline(always)]
    fn winning_stone(&self) -> Option<usize> {
        let king = self.board.kingstone[self.other].index();
        (self.own(king).count_ones() + 1 > self.theirs(king).count_ones()).then_some(king)
    }
}

/// Lists every legal move of `board` (harvest done, mover with a token in
/// hand) into `moves`, which is cleared first.
pub fn generate(board: &Board, moves: &mut Vec<Move>) {
    moves.clear();
    let turn = Turn::new(board);
    let mut places = board.stones;
    while places != 0 {
        let s = places.trailing_zeros() as usize;
        places &= places - 1;
        let mut empty = board.empty_slots(Square(s as u8));
        while empty != 0 {
            let d = empty.trailing_zeros() as usize;
            empty &= empty - 1;
            placement_moves(&turn, s, d, moves);
        }
    }
}

/// The moves that place a token into slot `d` of stone `s`, the pass first.
fn placement_moves(turn: &Turn, s: usize, d: usize, moves: &mut Vec<Move>) {
    let board = turn.board;
    let placed = turn.own(s) | (1 << d);
    let square = Square(s as u8);
    let slot = Direction(d as u8);
    moves.push(Move { square, slot, act: Act::Pass });
    if s == board.kingstone[turn.other].index() && placed.count_ones() > turn.theirs(s).count_ones() {
        // A winning placement is the whole move.
        return;
    }
    let mut acting = board.stones;
    while acting != 0 {
        let a = acting.trailing_zeros() as usize;
        acting &= acting - 1;
        let own = if a == s { placed } else { turn.own(a) };
        if own.count_ones() <= turn.theirs(a).count_ones() {
            continue;
        }
        let from = Square(a as u8);
        let mut steps = own & turn.open(a);
        while steps != 0 {
            let dir = Direction(steps.trailing_zeros() as u8);
            steps &= steps - 1;
            moves.push(Move { square, slot, act: Act::Step { from, dir } });
        }
        let mut colonies = own & turn.colonizable(a);
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

/// The sizes of the three groups of moves (see the module doc), and what
/// finding a move by its index in them needs, computed in one pass over
/// the stones.
struct Groups<'a> {
    turn: Turn<'a>,
    winning: Option<usize>,
    /// Placements into the winning stone: each one move.
    wins: u32,
    /// Placements elsewhere.
    places: u32,
    /// `acting[a]`: the directions through which the stone on `a`, which
    /// the mover controls, acts whatever the placement (else zero).
    acting: [u8; MAX_SQUARES],
    /// `A`: the acts of all of them.
    acts: u32,
    /// The extra moves.
    extras: u32,
}

impl Groups<'_> {
    #[inline(always)]
    fn new(board: &Board) -> Groups<'_> {
        let turn = Turn::new(board);
        let winning = turn.winning_stone();
        let mut groups = Groups { turn, winning, wins: 0, places: 0, acting: [0; MAX_SQUARES], acts: 0, extras: 0 };
        if let Some(s) = winning {
            groups.wins = board.empty_slots(Square(s as u8)).count_ones();
            groups.add_acting(s);
        }
        let mut stones = board.stones & !winning.map_or(0, |s| 1 << s);
        while stones != 0 {
            let s = stones.trailing_zeros() as usize;
            stones &= stones - 1;
            groups.add_stone(s);
        }
        groups
    }

    /// Adds the acts of the winning stone, if the mover controls it.
    fn add_acting(&mut self, s: usize) {
        let turn = &self.turn;
        if turn.own(s).count_ones() > turn.theirs(s).count_ones() {
            self.acting[s] = turn.own(s) & turn.acts(s);
            self.acts += self.acting[s].count_ones();
        }
    }

    /// Adds the stone on `s` (not the winning one): its placements, its
    /// acts if the mover controls it, its extra moves.
    #[inline(always)]
    fn add_stone(&mut self, s: usize) {
        let turn = &self.turn;
        let (own, theirs) = (turn.own(s), turn.theirs(s));
        let empty = !(own | theirs);
        let (own_count, their_count) = (own.count_ones(), theirs.count_ones());
        self.places += empty.count_ones();
        if own_count < their_count {
            // Not even a placement here gives the mover control.
            return;
        }
        let acts = turn.acts(s);
        let controlled = own_count > their_count;
        if controlled {
            self.acting[s] = own & acts;
            self.acts += (own & acts).count_ones();
        }
        self.extras += Self::extras_of(controlled, own, empty, acts);
    }

    /// The extra moves of a stone the mover controls (`controlled`) or ties.
    #[inline(always)]
    fn extras_of(controlled: bool, own: u8, empty: u8, acts: u8) -> u32 {
        let new_token = (empty & acts).count_ones();
        if controlled {
            new_token
        } else {
            empty.count_ones() * (own & acts).count_ones() + new_token
        }
    }

    /// The common moves, blocked pairs included.
    #[inline(always)]
    fn common(&self) -> u32 {
        self.places * (1 + self.acts)
    }

    /// Every move of the three groups, blocked pairs included.
    #[inline(always)]
    fn superset(&self) -> u32 {
        self.wins + self.common() + self.extras
    }

    /// The blocked pairs: colonizations (in `A`) of an empty slot of a stone
    /// other than the winning one.
    fn blocked(&self) -> u32 {
        let board = self.turn.board;
        let mut blocked = 0;
        let mut stones = board.stones;
        while stones != 0 {
            let a = stones.trailing_zeros() as usize;
            stones &= stones - 1;
            // `facing` of the other player: their token fills the target slot.
            let mut dirs = self.acting[a] & self.turn.colonizable(a) & !board.facing(self.turn.other, a);
            while dirs != 0 {
                let dir = dirs.trailing_zeros() as usize;
                dirs &= dirs - 1;
                blocked += u32::from(Some(board.geometry.neighbour[a][dir] as usize) != self.winning);
            }
        }
        blocked
    }

    /// The move of index `index` below [`Groups::superset`], or `None` for
    /// a blocked pair.
    #[inline(always)]
    fn at(&self, index: u32) -> Option<Move> {
        if index < self.wins {
            let s = self.winning.expect("wins need a winning stone");
            let slot = nth_bit(self.turn.board.empty_slots(Square(s as u8)), index);
            return Some(Move { square: Square(s as u8), slot: Direction(slot), act: Act::Pass });
        }
        let index = index - self.wins;
        if index < self.common() {
            self.common_move(index / (1 + self.acts), index % (1 + self.acts))
        } else {
            Some(self.extra_move(index - self.common()))
        }
    }

    /// The placement of index `place` (the winning stone skipped) with the
    /// pass (`act` 0) or the act of index `act - 1` of `A`.
    #[inline(always)]
    fn common_move(&self, place: u32, act: u32) -> Option<Move> {
        let board = self.turn.board;
        let (s, d) = self.nth_place(place);
        let (square, slot) = (Square(s as u8), Direction(d));
        if act == 0 {
            return Some(Move { square, slot, act: Act::Pass });
        }
        let (a, dir) = self.nth_act(act - 1);
        if board.geometry.neighbour[a][usize::from(dir)] as usize == s && dir == d {
            // The placement filled the slot this colonization would fill.
            return None;
        }
        Some(Move { square, slot, act: self.turn.act(a, dir) })
    }

    /// The `index`th empty slot of the stones other than the winning one.
    #[inline(always)]
    fn nth_place(&self, mut index: u32) -> (usize, u8) {
        let board = self.turn.board;
        let mut stones = board.stones & !self.winning.map_or(0, |s| 1 << s);
        loop {
            let s = stones.trailing_zeros() as usize;
            stones &= stones - 1;
            let empty = board.empty_slots(Square(s as u8));
            let here = empty.count_ones();
            if index < here {
                return (s, nth_bit(empty, index));
            }
            index -= here;
        }
    }

    /// The `index`th act of `A`: its stone and direction.
    #[inline(always)]
    fn nth_act(&self, mut index: u32) -> (usize, u8) {
        let mut stones = self.turn.board.stones;
        loop {
            let a = stones.trailing_zeros() as usize;
            stones &= stones - 1;
            let here = self.acting[a].count_ones();
            if index < here {
                return (a, nth_bit(self.acting[a], index));
            }
            index -= here;
        }
    }

    /// The extra move of index `index` below `extras`.
    fn extra_move(&self, mut index: u32) -> Move {
        let turn = &self.turn;
        let mut stones = turn.board.stones & !self.winning.map_or(0, |s| 1 << s);
        loop {
            let s = stones.trailing_zeros() as usize;
            stones &= stones - 1;
            let (own, theirs) = (turn.own(s), turn.theirs(s));
            let (own_count, their_count) = (own.count_ones(), theirs.count_ones());
            if own_count < their_count {
                continue;
            }
            let (empty, acts) = (!(own | theirs), turn.acts(s));
            let here = Self::extras_of(own_count > their_count, own, empty, acts);
            if index < here {
                return self.extra_on(s, own_count > their_count, index);
            }
            index -= here;
        }
    }

    /// The extra move of index `index` on the stone `s`, in the order of
    /// the empty slots, then of the acts each placement opens.
    fn extra_on(&self, s: usize, controlled: bool, mut index: u32) -> Move {
        let turn = &self.turn;
        let square = Square(s as u8);
        let (own, acts) = (turn.own(s), turn.acts(s));
        let mut empty = turn.board.empty_slots(square);
        loop {
            let d = empty.trailing_zeros() as u8;
            empty &= empty - 1;
            // The acts this placement opens: the new token's, and on a tied
            // stone (which the placement brings under control) all of them.
            let opened = if controlled { acts & (1 << d) } else { acts & (own | 1 << d) };
            let here = opened.count_ones();
            if index < here {
                let dir = nth_bit(opened, index);
                return Move { square, slot: Direction(d), act: turn.act(s, dir) };
            }
            index -= here;
        }
    }
}

/// The position of the `index`th set bit of `mask` (which has more).
#[inline(always)]
fn nth_bit(mut mask: u8, index: u32) -> u8 {
    for _ in 0..index {
        mask &= mask - 1;
    }
    mask.trailing_zeros() as u8
}

/// The number of legal moves of `board` (harvest done, mover with a token in
/// hand), without listing them: the three groups, less the blocked pairs.
pub fn count(board: &Board) -> u64 {
    let groups = Groups::new(board);
    u64::from(groups.superset() - groups.blocked())
}

/// How many blocked pairs [`random`] draws before it lists the moves
/// instead. A blocked pair is at most one of the common moves of a
/// placement (which has the pass too), so this is about never reached.
const DRAWS: usize = 8;

/// A legal move of `board` drawn uniformly (`None` if it has none):
/// random playouts draw one every turn. Draws an index below the size of
/// the three groups and draws again when it names a blocked pair: every
/// legal move has exactly one index, so each is as likely. After
/// [`DRAWS`] blocked pairs it lists the moves into `scratch` and draws
/// from the list (also uniform).
pub fn random<R: Rng + ?Sized>(board: &Board, rng: &mut R, scratch: &mut Vec<Move>) -> Option<Move> {
    let groups = Groups::new(board);
    let superset = groups.superset();
    if superset == 0 {
        return None;
    }
    for _ in 0..DRAWS {
        if let Some(mv) = groups.at(rng.random_range(0..superset)) {
            return Some(mv);
        }
    }
    random_listed(board, rng, scratch)
}

/// A legal move of `board` drawn uniformly from the full list.
pub fn random_listed<R: Rng + ?Sized>(board: &Board, rng: &mut R, scratch: &mut Vec<Move>) -> Option<Move> {
    generate(board, scratch);
    (!scratch.is_empty()).then(|| scratch[rng.random_range(0..scratch.len())])
}

/// Every move of the three groups in index order, `None` for the blocked
/// pairs: tests check that each legal move comes exactly once.
#[cfg(test)]
pub fn indexed(board: &Board) -> Vec<Option<Move>> {
    let groups = Groups::new(board);
    (0..groups.superset()).map(|index| groups.at(index)).collect()
}
