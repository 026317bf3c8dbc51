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
use super::square::{Direction, Square};

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
        let stones = board.neighbour_marks.get();
        let open = board.geometry.on_board_marks & !stones;
        let colonizable = if board.hand[mover] >= 2 { stones & !board.facing_marks[mover].get() } else { 0 };
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

    #[inline(always)]
    fn own(&self, s: usize) -> u8 {
        self.board.tokens[self.mover][s]
    }

    #[inline(always)]
    fn theirs(&self, s: usize) -> u8 {
        self.board.tokens[self.other][s]
    }

    /// The stones the mover controls once a token is placed in slot `d` of
    /// stone `s`, each with the mover's tokens on it then.
    #[inline(always)]
    fn controlled_after(&self, s: usize, d: usize) -> impl Iterator<Item = (usize, u8)> + '_ {
        let placed = self.own(s) | (1 << d);
        let mut acting = self.board.stones;
        std::iter::from_fn(move || {
            while acting != 0 {
                let a = acting.trailing_zeros() as usize;
                acting &= acting - 1;
                let own = if a == s { placed } else { self.own(a) };
                if own.count_ones() > self.theirs(a).count_ones() {
                    return Some((a, own));
                }
            }
            None
        })
    }

    /// The directions in which stone `a`, holding the mover's `own` tokens,
    /// can colonize after a placement in slot `d` of stone `s`: not the slot
    /// that placement just filled with the mover's own token.
    #[inline(always)]
    fn colonies(&self, a: usize, own: u8, s: usize, d: usize) -> u8 {
        let blocked = if self.board.geometry.neighbour[a][d] as usize == s { 1 << d } else { 0 };
        own & self.colonizable(a) & !blocked
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
    for (a, own) in turn.controlled_after(s, d) {
        let from = Square(a as u8);
        let mut steps = own & turn.open(a);
        while steps != 0 {
            let dir = Direction(steps.trailing_zeros() as u8);
            steps &= steps - 1;
            moves.push(Move { square, slot, act: Act::Step { from, dir } });
        }
        let mut colonies = turn.colonies(a, own, s, d);
        while colonies != 0 {
            let dir = Direction(colonies.trailing_zeros() as u8);
            colonies &= colonies - 1;
            moves.push(Move { square, slot, act: Act::Colonize { from, dir } });
        }
    }
}

/// Lists the same moves as [`generate`] into `moves` (cleared first), in
/// the order of their action indices (`encode.rs`): by placement (stone,
/// then slot), then the pass, the stone moves and the colonizations, each
/// by stone and direction. The Python package lists a turn's actions in
/// that order; the searches keep [`generate`]'s order, which their results
/// depend on.
pub fn generate_by_action(board: &Board, moves: &mut Vec<Move>) {
    moves.clear();
    let acts = Acts::new(board);
    let mut places = board.stones;
    while places != 0 {
        let s = places.trailing_zeros() as usize;
        places &= places - 1;
        let mut empty = board.empty_slots(Square(s as u8));
        while empty != 0 {
            let d = empty.trailing_zeros() as usize;
            empty &= empty - 1;
            acts.placement_moves(s, d, moves);
        }
    }
}

/// The acts of the stones the mover controls before placing, stone by
/// stone, worked out once for all the placements of a turn. A placement
/// changes only those of the stone it goes on (which gains the new
/// token's act, or comes under control with all its acts) and blocks the
/// colonization of the slot it fills.
struct Acts<'a> {
    turn: Turn<'a>,
    /// `steps[s]`: the directions in which the stone on `s` can move.
    steps: [u8; 16],
    /// `colonies[s]`: the directions in which the stone on `s` can colonize.
    colonies: [u8; 16],
    /// The stones with a step in `steps`, and with a colonization in `colonies`.
    stepping: u16,
    colonizing: u16,
    /// The enemy kingstone's square.
    enemy_king: usize,
}

impl<'a> Acts<'a> {
    #[inline(always)]
    fn new(board: &'a Board) -> Acts<'a> {
        let turn = Turn::new(board);
        let (mut steps, mut colonies, mut stepping, mut colonizing) = ([0; 16], [0; 16], 0, 0);
        let mut controlled = board.control[turn.mover];
        while controlled != 0 {
            let a = controlled.trailing_zeros() as usize;
            controlled &= controlled - 1;
            steps[a] = turn.own(a) & turn.open(a);
            colonies[a] = turn.own(a) & turn.colonizable(a);
            stepping |= u16::from(steps[a] != 0) << a;
            colonizing |= u16::from(colonies[a] != 0) << a;
        }
        let enemy_king = board.kingstone[turn.other].index();
        Acts { turn, steps, colonies, stepping, colonizing, enemy_king }
    }

    /// The moves that place a token into slot `d` of stone `s`, in action order.
    #[inline(always)]
    fn placement_moves(&self, s: usize, d: usize, moves: &mut Vec<Move>) {
        let turn = &self.turn;
        let placed = turn.own(s) | (1 << d);
        let square = Square(s as u8);
        let slot = Direction(d as u8);
        moves.push(Move { square, slot, act: Act::Pass });
        let controls = placed.count_ones() > turn.theirs(s).count_ones();
        if s == self.enemy_king && controls {
            // A winning placement is the whole move.
            return;
        }
        // The stone placed on, with the acts the placement gives it.
        let (here_steps, here_colonies) =
            if controls { (placed & turn.open(s), placed & turn.colonizable(s)) } else { (0, 0) };
        let here = 1u16 << s;
        let mut stepping = (self.stepping & !here) | if here_steps != 0 { here } else { 0 };
        while stepping != 0 {
            let a = stepping.trailing_zeros() as usize;
            stepping &= stepping - 1;
            let from = Square(a as u8);
            let mut dirs = if a == s { here_steps } else { self.steps[a] };
            while dirs != 0 {
                let dir = Direction(dirs.trailing_zeros() as u8);
                dirs &= dirs - 1;
                moves.push(Move { square, slot, act: Act::Step { from, dir } });
            }
        }
        let mut colonizing = (self.colonizing & !here) | if here_colonies != 0 { here } else { 0 };
        while colonizing != 0 {
            let a = colonizing.trailing_zeros() as usize;
            colonizing &= colonizing - 1;
            let from = Square(a as u8);
            let mut dirs = if a == s { here_colonies } else { turn.colonies(a, self.colonies[a], s, d) };
            while dirs != 0 {
                let dir = Direction(dirs.trailing_zeros() as u8);
                dirs &= dirs - 1;
                moves.push(Move { square, slot, act: Act::Colonize { from, dir } });
            }
        }
    }
}

/// Lists the moves that quiescence follows (`is_tactical` in `eval.rs`) on
/// `board` (harvest done): a winning placement on the enemy kingstone into
/// its lowest empty slot, and any other placement followed by a
/// colonization of a slot that `targets` marks (`targets[t]`: the slots of
/// stone `t` whose colonization counts). Placements on the enemy kingstone
/// that do not win are left out whatever the act, as `is_tactical` leaves
/// them out. Far fewer than [`generate`] lists, and without its steps.
pub fn generate_tactical(board: &Board, targets: &[u8; 16], moves: &mut Vec<Move>) {
    moves.clear();
    let turn = Turn::new(board);
    let enemy_king = board.kingstone[turn.other].index();
    let mut places = board.stones;
    while places != 0 {
        let s = places.trailing_zeros() as usize;
        places &= places - 1;
        let square = Square(s as u8);
        let empty = board.empty_slots(square);
        if s == enemy_king {
            if turn.own(s).count_ones() + 1 > turn.theirs(s).count_ones() && empty != 0 {
                let slot = Direction(empty.trailing_zeros() as u8);
                moves.push(Move { square, slot, act: Act::Pass });
            }
            continue;
        }
        let mut empty = empty;
        while empty != 0 {
            let d = empty.trailing_zeros() as usize;
            empty &= empty - 1;
            let slot = Direction(d as u8);
            for (a, own) in turn.controlled_after(s, d) {
                let mut colonies = turn.colonies(a, own, s, d);
                while colonies != 0 {
                    let dir = colonies.trailing_zeros() as usize;
                    colonies &= colonies - 1;
                    if targets[board.geometry.neighbour[a][dir] as usize] & (1 << dir) != 0 {
                        let (from, dir) = (Square(a as u8), Direction(dir as u8));
                        moves.push(Move { square, slot, act: Act::Colonize { from, dir } });
                    }
                }
            }
        }
    }
}

/// `SPREAD[bits]`: byte `i` is `0xFF` where bit `i` of `bits` is set.
const SPREAD: [u64; 256] = spread_table();

const fn spread_table() -> [u64; 256] {
    let mut table = [0; 256];
    let mut bits = 0;
    while bits < 256 {
        let mut i = 0;
        while i < 8 {
            if bits & (1 << i) != 0 {
                table[bits] |= 0xFF << (8 * i);
            }
            i += 1;
        }
        bits += 1;
    }
    table
}

/// The bytes of the squares of `squares` set to `0xFF`, the others zero:
/// selects those squares' bytes of the masks that hold a byte per square.
#[inline(always)]
pub(super) fn square_bytes(squares: u16) -> u128 {
    u128::from(SPREAD[usize::from(squares as u8)]) | u128::from(SPREAD[usize::from(squares >> 8)]) << 64
}

/// `NTH_BIT[mask][i]`: the position of the `i`th set bit of `mask` (a
/// table, so that a draw does not loop over the bits it skips).
const NTH_BIT: [[u8; 8]; 256] = nth_bit_table();

const fn nth_bit_table() -> [[u8; 8]; 256] {
    let mut table = [[0; 8]; 256];
    let mut mask = 0;
    while mask < 256 {
        let (mut bit, mut found) = (0, 0);
        while bit < 8 {
            if mask & (1 << bit) != 0 {
                table[mask][found] = bit as u8;
                found += 1;
            }
            bit += 1;
        }
        mask += 1;
    }
    table
}

/// The position of the `index`th set bit of `mask` (which has more).
#[inline(always)]
fn nth_bit(mask: u8, index: u32) -> u8 {
    NTH_BIT[usize::from(mask)][index as usize & 7]
}

/// The sizes of the three groups of moves (see the module doc), and what
/// finding a move by its index in them needs. Every square's masks are
/// bytes of `u128`s, so the groups are counted without a loop over the
/// stones, from the control bits the board keeps.
struct Groups<'a> {
    board: &'a Board,
    mover: usize,
    /// The enemy kingstone's bit when one more token there gives the
    /// mover control (then every placement on it wins), else zero.
    winning: u16,
    /// Placements into the winning stone: each one move.
    wins: u32,
    /// Placements elsewhere.
    places: u32,
    /// `A`: the acts of the stones the mover controls, whatever the placement.
    acts: u32,
    /// The extra moves.
    extras: u32,
    /// Byte `s`: the empty slots of the stone on `s`, the winning stone
    /// left out (the placements of the common moves).
    empty: [u8; 16],
    /// Byte `s`: the directions through which the stone on `s` would act
    /// given a mover token in that slot and control of the stone.
    reach: [u8; 16],
    /// Byte `s`: the directions from `s` to an empty square (a step, not
    /// a colonization).
    open: [u8; 16],
    /// Byte `s`: the acts of `A` of the stone on `s` (zero unless the
    /// mover controls it).
    acting: u128,
    /// Byte `s`: the directions from `s` to a stone whose slot in that
    /// direction holds no mover token, when a colonization is possible.
    colonizable: u128,
}

impl Groups<'_> {
    #[inline(always)]
    fn new(board: &Board) -> Groups<'_> {
        let mover = board.to_move.index();
        let other = 1 - mover;
        let (own, theirs) = (board.token_bytes(mover), board.token_bytes(other));
        // The enemy kingstone is won by one more token unless the
        // opponent controls it.
        let winning = board.kingstone[other].bit() & !board.control[other];
        let king = board.kingstone[other].index();
        let wins = if winning != 0 { board.empty_slots(Square(king as u8)).count_ones() } else { 0 };
        let stones = board.neighbour_marks.get();
        let open = board.geometry.on_board_marks & !stones;
        // A colonization needs a token still in hand after the placement.
        let colonizable = if board.hand[mover] >= 2 { stones & !board.facing_marks[mover].get() } else { 0 };
        let reach = open | colonizable;
        let rest = square_bytes(board.stones & !winning);
        let empty = rest & !(own | theirs);
        let controlled = square_bytes(board.control[mover]);
        let acting = own & reach & controlled;
        // Every placement on a stone the opponent does not control opens
        // the act of the new token; one on a tied stone opens all the
        // acts of the stone too.
        let unopposed = !square_bytes(board.control[other]);
        let mut extras = (empty & reach & unopposed).count_ones();
        if own & reach & unopposed & !controlled & rest != 0 {
            let tied = board.stones & !winning & !(board.control[0] | board.control[1]);
            extras += Self::tied_extras(board, tied, reach.to_le_bytes(), empty.to_le_bytes());
        }
        Groups {
            board,
            mover,
            winning,
            wins,
            places: empty.count_ones(),
            acts: acting.count_ones(),
            extras,
            empty: empty.to_le_bytes(),
            reach: reach.to_le_bytes(),
            open: open.to_le_bytes(),
            acting,
            colonizable,
        }
    }

    /// The extra moves that the mover's tokens already on the `tied`
    /// stones make: each empty slot of such a stone times its acts.
    #[inline(always)]
    fn tied_extras(board: &Board, mut tied: u16, reach: [u8; 16], empty: [u8; 16]) -> u32 {
        let own = &board.tokens[board.to_move.index()];
        let mut extras = 0;
        while tied != 0 {
            let s = tied.trailing_zeros() as usize;
            tied &= tied - 1;
            extras += empty[s].count_ones() * (own[s] & reach[s]).count_ones();
        }
        extras
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
        let board = self.board;
        // `facing` of the other player: their token fills the target slot.
        let into_empty = self.acting & self.colonizable & !board.facing_marks[1 - self.mover].get();
        // The colonizations into the winning stone are those from its
        // neighbours towards it.
        let into_winning = if self.winning != 0 {
            board.geometry.stone_marks[self.winning.trailing_zeros() as usize]
        } else {
            0
        };
        (into_empty & !into_winning).count_ones()
    }

    /// The act of the stone on `from` through `dir`, one of its `reach`.
    #[inline(always)]
    fn act(&self, from: usize, dir: u8) -> Act {
        let (from_square, dir_bit, direction) = (Square(from as u8), 1 << dir, Direction(dir));
        if self.open[from] & dir_bit != 0 {
            Act::Step { from: from_square, dir: direction }
        } else {
            Act::Colonize { from: from_square, dir: direction }
        }
    }

    /// The move of index `index` below [`Groups::superset`], or `None` for
    /// a blocked pair.
    #[inline(always)]
    fn at(&self, index: u32) -> Option<Move> {
        if index < self.wins {
            let s = self.winning.trailing_zeros() as usize;
            let slot = nth_bit(self.board.empty_slots(Square(s as u8)), index);
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
        let board = self.board;
        let (s, d) = nth_in_bytes(&self.empty, board.stones & !self.winning, place);
        let (square, slot) = (Square(s as u8), Direction(d));
        if act == 0 {
            return Some(Move { square, slot, act: Act::Pass });
        }
        let (a, dir) = nth_in_bytes(&self.acting.to_le_bytes(), board.control[self.mover], act - 1);
        if board.geometry.neighbour[a][usize::from(dir)] as usize == s && dir == d {
            // The placement filled the slot this colonization would fill.
            return None;
        }
        Some(Move { square, slot, act: self.act(a, dir) })
    }

    /// The extra move of index `index` below `extras`.
    fn extra_move(&self, mut index: u32) -> Move {
        let board = self.board;
        let controlled = board.control[self.mover];
        let mut stones = board.stones & !self.winning & !board.control[1 - self.mover];
        loop {
            let s = stones.trailing_zeros() as usize;
            stones &= stones - 1;
            let (empty, reach) = (self.empty[s], self.reach[s]);
            let new_token = (empty & reach).count_ones();
            let here = if controlled & (1 << s) != 0 {
                new_token
            } else {
                empty.count_ones() * (board.tokens[self.mover][s] & reach).count_ones() + new_token
            };
            if index < here {
                return self.extra_on(s, controlled & (1 << s) != 0, index);
            }
            index -= here;
        }
    }

    /// The extra move of index `index` on the stone `s`, in the order of
    /// the empty slots, then of the acts each placement opens.
    fn extra_on(&self, s: usize, controlled: bool, mut index: u32) -> Move {
        let square = Square(s as u8);
        let (own, reach) = (self.board.tokens[self.mover][s], self.reach[s]);
        let mut empty = self.empty[s];
        loop {
            let d = empty.trailing_zeros() as u8;
            empty &= empty - 1;
            // The acts this placement opens: the new token's, and on a tied
            // stone (which the placement brings under control) all of them.
            let opened = if controlled { reach & (1 << d) } else { reach & (own | 1 << d) };
            let here = opened.count_ones();
            if index < here {
                let dir = nth_bit(opened, index);
                return Move { square, slot: Direction(d), act: self.act(s, dir) };
            }
            index -= here;
        }
    }
}

/// The `index`th set bit of the bytes of the squares `squares` (in square
/// order, which has more): its square and bit.
#[inline(always)]
fn nth_in_bytes(bytes: &[u8; 16], mut squares: u16, mut index: u32) -> (usize, u8) {
    loop {
        let s = squares.trailing_zeros() as usize;
        squares &= squares - 1;
        let here = bytes[s].count_ones();
        if index < here {
            return (s, nth_bit(bytes[s], index));
        }
        index -= here;
    }
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
