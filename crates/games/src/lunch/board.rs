//! The board (what stands on each square), movement without capture and
//! threats.

use super::piece::{Kind, Piece};
use super::square::Square;
use menagerie_core::Player;

/// What stands on each square, and the same as bit sets by colour (kept
/// together by [`Board::set`], so that threat questions need no scan of
/// the 64 squares). Only the position changes it (it keeps the hash).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    squares: [Option<Piece>; 64],
    occupancy: Occupancy,
    /// The squares of the Pawns and of the Kings (random moves count the
    /// Pawns' moves all at once; the win check asks for the Kings after
    /// every action).
    pawns: u64,
    kings: u64,
    /// The squares of the pieces that are not plain ([`Piece::is_plain`]):
    /// the only ones that rounding, the end of an action and the end of a
    /// turn can change, so those steps need not look at the others.
    marked: u64,
}

impl Board {
    pub const EMPTY: Board =
        Board { squares: [None; 64], occupancy: Occupancy { all: 0, colour: [0; 2] }, pawns: 0, kings: 0, marked: 0 };

    #[inline]
    pub fn get(&self, sq: Square) -> Option<Piece> {
        self.squares[sq.index()]
    }

    #[inline]
    pub(super) fn set(&mut self, sq: Square, piece: Option<Piece>) {
        let bit = 1u64 << sq.index();
        if let Some(old) = self.squares[sq.index()] {
            self.occupancy.colour[old.color.index()] &= !bit;
        }
        self.pawns &= !bit;
        self.kings &= !bit;
        self.marked &= !bit;
        if let Some(new) = piece {
            self.occupancy.colour[new.color.index()] |= bit;
            match new.kind {
                Kind::Pawn => self.pawns |= bit,
                Kind::King => self.kings |= bit,
                _ => {}
            }
            if !new.is_plain() {
                self.marked |= bit;
            }
        }
        self.occupancy.all = self.occupancy.colour[0] | self.occupancy.colour[1];
        self.squares[sq.index()] = piece;
    }

    /// Moves the piece on `from` to the empty square `to`, as `moved` (its
    /// marks may change): the bit sets change by the two squares at once.
    #[inline]
    pub(super) fn step(&mut self, from: Square, to: Square, moved: Piece) {
        debug_assert!(self.is_empty(to) && self.get(from).is_some());
        let both = 1u64 << from.index() | 1u64 << to.index();
        self.occupancy.colour[moved.color.index()] ^= both;
        self.occupancy.all ^= both;
        match moved.kind {
            Kind::Pawn => self.pawns ^= both,
            Kind::King => self.kings ^= both,
            _ => {}
        }
        self.marked &= !(1u64 << from.index());
        if !moved.is_plain() {
            self.marked |= 1u64 << to.index();
        }
        self.squares[from.index()] = None;
        self.squares[to.index()] = Some(moved);
    }

    /// The squares of `player`'s Kings.
    #[inline]
    pub fn kings(&self, player: Player) -> u64 {
        self.kings & self.occupancy.colour[player.index()]
    }

    /// The squares of the Pawns.
    #[inline]
    pub fn pawns(&self) -> u64 {
        self.pawns
    }

    /// The squares of the pieces that are not plain ([`Piece::is_plain`]).
    #[inline]
    pub fn marked(&self) -> u64 {
        self.marked
    }

    /// Which squares hold pieces, by colour.
    #[inline]
    pub fn occupancy(&self) -> &Occupancy {
        &self.occupancy
    }

    /// The pieces with their squares, a1 to h8.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.pieces_in(self.occupancy.all)
    }

    /// The pieces on the squares of `set`, with their squares, a1 to h8.
    #[inline]
    pub fn pieces_in(&self, set: u64) -> impl Iterator<Item = (Square, Piece)> + '_ {
        squares(set).filter_map(|sq| self.squares[sq.index()].map(|p| (sq, p)))
    }

    #[inline]
    fn is_empty(&self, sq: Square) -> bool {
        self.occupancy.all & (1 << sq.index()) == 0
    }
}

/// The squares of a bit set (bit `i` for the square of index `i`), a1 to h8.
#[inline]
pub fn squares(mut set: u64) -> impl Iterator<Item = Square> {
    std::iter::from_fn(move || {
        if set == 0 {
            return None;
        }
        let sq = Square::new(set.trailing_zeros() as u8);
        set &= set - 1;
        Some(sq)
    })
}

pub const KING_STEPS: [(i8, i8); 8] = [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)];
/// Knight leaps in clockwise order as White sees the board, from north-north-east.
pub const KNIGHT_LEAPS: [(i8, i8); 8] = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];
const ROOK_DIRS: [(i8, i8); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
const BISHOP_DIRS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, -1), (-1, 1)];

/// The sliding directions and range of a piece type (`None` for leapers and pawns).
fn slides(kind: Kind) -> Option<(&'static [(i8, i8)], i8)> {
    match kind {
        Kind::Bishop => Some((&BISHOP_DIRS, 7)),
        Kind::Rook => Some((&ROOK_DIRS, 7)),
        Kind::Queen => Some((&KING_STEPS, 7)),
        Kind::Princess => Some((&KING_STEPS, 2)),
        _ => None,
    }
}

pub fn forward(color: Player) -> i8 {
    if color == Player::First {
        1
    } else {
        -1
    }
}

pub fn last_rank(color: Player) -> i8 {
    if color == Player::First {
        7
    } else {
        0
    }
}

/// Every empty square a piece on `from` may move to (no castling: see the
/// rules). Calls `emit(to)`.
pub fn for_each_step(board: &Board, from: Square, mut emit: impl FnMut(Square)) {
    let Some(piece) = board.get(from) else { return };
    match piece.kind {
        Kind::Pawn => {
            let dir = forward(piece.color);
            if let Some(one) = from.offset(0, dir).filter(|&s| board.is_empty(s)) {
                emit(one);
                let second_rank = if piece.color == Player::First { 1 } else { 6 };
                if from.rank() == second_rank {
                    if let Some(two) = from.offset(0, 2 * dir).filter(|&s| board.is_empty(s)) {
                        emit(two);
                    }
                }
            }
        }
        Kind::Knight | Kind::King => {
            let steps = if piece.kind == Kind::Knight { &KNIGHT_LEAPS } else { &KING_STEPS };
            for &(df, dr) in steps {
                if let Some(to) = from.offset(df, dr).filter(|&s| board.is_empty(s)) {
                    emit(to);
                }
            }
        }
        kind => {
            let (dirs, range) = slides(kind).expect("a slider");
            for &(df, dr) in dirs {
                for n in 1..=range {
                    match from.offset(df * n, dr * n) {
                        Some(to) if board.is_empty(to) => emit(to),
                        _ => break,
                    }
                }
            }
        }
    }
}

/// Whether the piece on `from` threatens the piece on `to` (could capture it
/// in FIDE chess). When it does, returns the square the attacker moves to
/// before the battle: the square next to the target on the line of attack
/// (its own square for Knights, Pawns, Kings and adjacent pieces).
pub fn threat(board: &Board, from: Square, to: Square) -> Option<Square> {
    let piece = board.get(from)?;
    let target = board.get(to)?;
    if target.color == piece.color || from == to {
        return None;
    }
    let (df, dr) = (to.file() - from.file(), to.rank() - from.rank());
    match piece.kind {
        Kind::Pawn => (dr == forward(piece.color) && df.abs() == 1).then_some(from),
        Kind::Knight => KNIGHT_LEAPS.contains(&(df, dr)).then_some(from),
        Kind::King => (df.abs() <= 1 && dr.abs() <= 1).then_some(from),
        kind => {
            let (dirs, range) = slides(kind)?;
            let distance = df.abs().max(dr.abs());
            let step = (df.signum(), dr.signum());
            if !(df == 0 || dr == 0 || df.abs() == dr.abs()) || !dirs.contains(&step) || distance > range {
                return None;
            }
            for n in 1..distance {
                if !board.is_empty(from.offset(step.0 * n, step.1 * n)?) {
                    return None;
                }
            }
            if distance == 1 {
                Some(from)
            } else {
                to.offset(-step.0, -step.1)
            }
        }
    }
}

/// The `index`th square (from 0) [`for_each_step`] lists for `piece` on
/// `from`, found without listing the squares before it: a drawn step of a
/// random playout. A slider's steps are counted line by line from bit sets
/// (the squares of one line are listed outwards: the lowest first on a line
/// towards higher squares, the highest first on one towards lower squares).
pub fn nth_step(board: &Board, from: Square, piece: Piece, index: u32) -> Option<Square> {
    let (at, all) = (from.index(), board.occupancy.all);
    let lines: &[usize] = match piece.kind {
        Kind::Bishop => &[NE, SE, SW, NW],
        Kind::Rook => &[N, E, S, W],
        Kind::Queen | Kind::Princess => &[N, NE, E, SE, S, SW, W, NW],
        Kind::Knight | Kind::King => {
            let (leaps, reach) =
                if piece.kind == Kind::Knight { (&KNIGHT_LEAPS, KNIGHT_SETS[at]) } else { (&KING_STEPS, KING_SETS[at]) };
            let open = reach & !all;
            let mut index = index;
            for &(df, dr) in leaps {
                // A leap off the board lands on no square of `reach`: the
                // leaps' offsets differ, so a wrapped one cannot land where
                // another leap does.
                let to = at as i32 + i32::from(df) + 8 * i32::from(dr);
                if (0..64).contains(&to) && open & 1 << to != 0 {
                    if index == 0 {
                        return Some(Square::new(to as u8));
                    }
                    index -= 1;
                }
            }
            return None;
        }
        Kind::Pawn => {
            let mut found = None;
            let mut left = index;
            for_each_step(board, from, |to| {
                if left == 0 && found.is_none() {
                    found = Some(to);
                }
                left = left.wrapping_sub(1);
            });
            return found;
        }
    };
    let reach = if piece.kind == Kind::Princess { NEAR_SETS[at] } else { u64::MAX };
    let mut index = index;
    for &d in lines {
        let up = matches!(d, N | NE | E | NW);
        let line = if up { ray_up(d, at, all) } else { ray_down(d, at, all) } & !all & reach;
        let here = line.count_ones();
        if index < here {
            let from_low = if up { index } else { here - 1 - index };
            return Some(Square::new(nth_lowest(line, from_low)));
        }
        index -= here;
    }
    None
}

/// The index of the `n`th lowest set bit of `set` (which has more than `n`).
#[inline]
fn nth_lowest(mut set: u64, n: u32) -> u8 {
    for _ in 0..n {
        set &= set - 1;
    }
    set.trailing_zeros() as u8
}

/// Which squares hold pieces, by colour.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Occupancy {
    pub all: u64,
    pub colour: [u64; 2],
}

/// Bit sets of the squares a step (or leap) list reaches from each square.
const fn step_table(steps: &[(i8, i8)]) -> [u64; 64] {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = ((sq % 8) as i8, (sq / 8) as i8);
        let mut i = 0;
        while i < steps.len() {
            let (df, dr) = steps[i];
            let (tf, tr) = (f + df, r + dr);
            if tf >= 0 && tf < 8 && tr >= 0 && tr < 8 {
                table[sq] |= 1 << (tr * 8 + tf);
            }
            i += 1;
        }
        sq += 1;
    }
    table
}

/// The squares of the eight rays from each square, by `KING_STEPS` direction.
const fn ray_table() -> [[u64; 64]; 8] {
    let mut table = [[0u64; 64]; 8];
    let mut d = 0;
    while d < 8 {
        let (df, dr) = KING_STEPS[d];
        let mut sq = 0;
        while sq < 64 {
            let (mut f, mut r) = ((sq % 8) as i8 + df, (sq / 8) as i8 + dr);
            while f >= 0 && f < 8 && r >= 0 && r < 8 {
                table[d][sq] |= 1 << (r * 8 + f);
                f += df;
                r += dr;
            }
            sq += 1;
        }
        d += 1;
    }
    table
}

static KNIGHT_SETS: [u64; 64] = step_table(&KNIGHT_LEAPS);
static KING_SETS: [u64; 64] = step_table(&KING_STEPS);
/// Squares a Pawn of White (0) or Black (1) threatens.
static PAWN_SETS: [[u64; 64]; 2] = [step_table(&[(-1, 1), (1, 1)]), step_table(&[(-1, -1), (1, -1)])];
static RAYS: [[u64; 64]; 8] = ray_table();
/// Squares within two king steps: a Princess's reach along its lines.
static NEAR_SETS: [u64; 64] = step_table(&[
    (-2, -2),
    (-1, -2),
    (0, -2),
    (1, -2),
    (2, -2),
    (-2, -1),
    (-1, -1),
    (0, -1),
    (1, -1),
    (2, -1),
    (-2, 0),
    (-1, 0),
    (1, 0),
    (2, 0),
    (-2, 1),
    (-1, 1),
    (0, 1),
    (1, 1),
    (2, 1),
    (-2, 2),
    (-1, 2),
    (0, 2),
    (1, 2),
    (2, 2),
]);

/// Indices into `KING_STEPS` (and `RAYS`), which run N, NE, E, SE, S, SW,
/// W, NW.
const N: usize = 0;
const NE: usize = 1;
const E: usize = 2;
const SE: usize = 3;
const S: usize = 4;
const SW: usize = 5;
const W: usize = 6;
const NW: usize = 7;

/// The squares along ray `d` (one running towards higher squares) from
/// `from`, up to and including the first occupied one. The extra bit on
/// h8 stands for "no blocker": no such ray goes on from h8.
#[inline(always)]
fn ray_up(d: usize, from: usize, occupied: u64) -> u64 {
    let ray = RAYS[d][from];
    let first = ((ray & occupied) | 1 << 63).trailing_zeros() as usize;
    ray & !RAYS[d][first]
}

/// [`ray_up`] for a ray towards lower squares, with a1 as the extra bit.
#[inline(always)]
fn ray_down(d: usize, from: usize, occupied: u64) -> u64 {
    let ray = RAYS[d][from];
    let first = 63 - ((ray & occupied) | 1).leading_zeros() as usize;
    ray & !RAYS[d][first]
}

#[inline]
fn orthogonal_reach(from: usize, occupied: u64) -> u64 {
    ray_up(N, from, occupied) | ray_up(E, from, occupied) | ray_down(S, from, occupied) | ray_down(W, from, occupied)
}

#[inline]
fn diagonal_reach(from: usize, occupied: u64) -> u64 {
    ray_up(NE, from, occupied) | ray_up(NW, from, occupied) | ray_down(SE, from, occupied) | ray_down(SW, from, occupied)
}

/// The squares of the enemy pieces `piece`, standing on `from`, threatens
/// (as [`threat`] would say for each), one bit per square.
#[inline]
pub fn threatened_from(board: &Board, from: Square, piece: Piece) -> u64 {
    let occupancy = board.occupancy();
    let (at, all) = (from.index(), occupancy.all);
    let reach = match piece.kind {
        Kind::Pawn => PAWN_SETS[piece.color.index()][at],
        Kind::Knight => KNIGHT_SETS[at],
        Kind::King => KING_SETS[at],
        Kind::Bishop => diagonal_reach(at, all),
        Kind::Rook => orthogonal_reach(at, all),
        Kind::Queen => diagonal_reach(at, all) | orthogonal_reach(at, all),
        Kind::Princess => (diagonal_reach(at, all) | orthogonal_reach(at, all)) & NEAR_SETS[at],
    };
    reach & occupancy.colour[piece.color.other().index()]
}

/// The empty squares a piece on `from` may move to, as [`for_each_step`]
/// lists them, one bit per square (the first of [`steps_and_threats`]).
#[cfg(test)]
pub fn step_set(board: &Board, from: Square, piece: Piece) -> u64 {
    steps_and_threats(board, from, piece).0
}

/// The empty squares a piece on `from` may move to, as [`for_each_step`]
/// lists them, one bit per square (to count them without listing), and
/// [`threatened_from`], at once: a piece's lines are walked once for both.
#[inline(always)]
pub fn steps_and_threats(board: &Board, from: Square, piece: Piece) -> (u64, u64) {
    let occupancy = board.occupancy();
    let (at, all) = (from.index(), occupancy.all);
    let enemies = occupancy.colour[piece.color.other().index()];
    let reach = match piece.kind {
        Kind::Pawn => return (pawn_steps(at, piece.color, all), PAWN_SETS[piece.color.index()][at] & enemies),
        Kind::Knight => KNIGHT_SETS[at],
        Kind::King => KING_SETS[at],
        Kind::Bishop => diagonal_reach(at, all),
        Kind::Rook => orthogonal_reach(at, all),
        Kind::Queen => diagonal_reach(at, all) | orthogonal_reach(at, all),
        Kind::Princess => (diagonal_reach(at, all) | orthogonal_reach(at, all)) & NEAR_SETS[at],
    };
    (reach & !all, reach & enemies)
}

/// The moves of the Pawns of `color` on `pawns`, all at once: the squares
/// their single and their double steps reach, and the enemy pieces they
/// threaten towards the a-file and towards the h-file (each square reached
/// or threatened in one set by one Pawn only, so that counting the bits
/// counts the moves).
pub struct PawnMoves {
    pub singles: u64,
    pub doubles: u64,
    pub threats: [u64; 2],
}

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;

pub fn pawn_moves(board: &Board, pawns: u64, color: Player) -> PawnMoves {
    let all = board.occupancy.all;
    let enemies = board.occupancy.colour[color.other().index()];
    match color {
        // The second rank's Pawns step once onto the third, then the fourth.
        Player::First => {
            let singles = (pawns << 8) & !all;
            let doubles = ((singles & (pawns & 0xFF00) << 8) << 8) & !all;
            PawnMoves { singles, doubles, threats: [((pawns & !FILE_A) << 7) & enemies, ((pawns & !FILE_H) << 9) & enemies] }
        }
        Player::Second => {
            let singles = (pawns >> 8) & !all;
            let doubles = ((singles & (pawns & 0x00FF_0000_0000_0000) >> 8) >> 8) & !all;
            PawnMoves { singles, doubles, threats: [((pawns & !FILE_A) >> 9) & enemies, ((pawns & !FILE_H) >> 7) & enemies] }
        }
    }
}

/// A Pawn's one step forward onto an empty square, and its two steps from
/// its second rank when both squares are empty.
#[inline]
fn pawn_steps(at: usize, color: Player, all: u64) -> u64 {
    let (one, second_rank) = match color {
        Player::First => ((1u64 << at) << 8, 1),
        Player::Second => ((1u64 << at) >> 8, 6),
    };
    let one = one & !all;
    if one == 0 || at / 8 != second_rank {
        return one;
    }
    let two = if color == Player::First { one << 8 } else { one >> 8 };
    one | (two & !all)
}

/// The squares next to `at`, one bit each (a King's steps).
pub fn neighbours(at: Square) -> u64 {
    KING_SETS[at.index()]
}

/// [`threatened_from`] for one question.
#[cfg(test)]
pub fn threatened_squares(board: &Board, from: Square) -> u64 {
    board.get(from).map_or(0, |piece| threatened_from(board, from, piece))
}

/// Whether any piece of `by` threatens `to`.
pub fn threatened_by(board: &Board, to: Square, by: Player) -> bool {
    board.pieces().any(|(from, p)| p.color == by && threatened_from(board, from, p) & (1 << to.index()) != 0)
}

/// The ring a spinning attack travels: the 8 squares next to the attacker
/// (its 8 leaps for a Knight), clockwise as White sees the board.
pub fn ring(center: Square, knight: bool) -> [Option<Square>; 8] {
    let steps = if knight { &KNIGHT_LEAPS } else { &KING_STEPS };
    steps.map(|(df, dr)| center.offset(df, dr))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::SmallRng;
    use rand::{Rng, RngCore, SeedableRng};

    /// A board with a piece of `kinds` (either colour) on about a third of
    /// the squares; with `marked`, a quarter of them carry one mark.
    fn crowded_board(rng: &mut SmallRng, kinds: &[Kind], marked: bool) -> Board {
        let mut board = Board::EMPTY;
        for sq in Square::all() {
            if rng.random_ratio(1, 3) {
                let kind = kinds[rng.random_range(0..kinds.len())];
                let color = if rng.random_bool(0.5) { Player::First } else { Player::Second };
                let mut piece = Piece::new(kind, color);
                if marked && rng.random_ratio(1, 4) {
                    piece.flags = 1 << rng.random_range(0..8);
                }
                board.set(sq, Some(piece));
            }
        }
        board
    }

    /// A step to an empty square leaves the board the two squares' changes
    /// one by one leave (its bit sets too), marks gained or lost included.
    #[test]
    fn a_step_is_the_two_squares_changed() {
        let kinds = [Kind::Pawn, Kind::Knight, Kind::Bishop, Kind::Rook, Kind::Queen, Kind::King];
        let seed = 0x2545_f491_4f6c_dd1du64;
        let mut rng = SmallRng::seed_from_u64(seed);
        for _ in 0..2000 {
            let mut board = crowded_board(&mut rng, &kinds, true);
            let mut next = || rng.next_u64();
            let (Some(from), Some(to)) =
                (squares(board.occupancy.all).nth((next() % 64) as usize), squares(!board.occupancy.all).nth((next() % 64) as usize))
            else {
                continue;
            };
            let mut moved = board.get(from).expect("a piece");
            moved.flags = if next() % 2 == 0 { 0 } else { 1 << (next() % 8) };
            let mut stepped = board;
            stepped.step(from, to, moved);
            board.set(from, None);
            board.set(to, Some(moved));
            assert_eq!(stepped, board, "{moved:?} from {from} to {to}");
        }
    }

    /// The walk along the lines finds exactly the squares `threat` accepts,
    /// the step sets the squares `for_each_step` lists, `nth_step` each of
    /// them at its index in that list, for every piece
    /// of boards crowded with both colours; the Pawns' moves taken all at
    /// once are as many as taken one Pawn at a time.
    #[test]
    fn threatened_squares_agree_with_threat() {
        let kinds = [Kind::Pawn, Kind::Knight, Kind::Bishop, Kind::Rook, Kind::Princess, Kind::Queen, Kind::King];
        let seed = 0x2545_f491_4f6c_dd1du64;
        let mut rng = SmallRng::seed_from_u64(seed);
        for _ in 0..300 {
            let board = crowded_board(&mut rng, &kinds, false);
            for from in Square::all() {
                let expected = Square::all()
                    .filter(|&to| threat(&board, from, to).is_some())
                    .fold(0u64, |s, to| s | 1 << to.index());
                assert_eq!(threatened_squares(&board, from), expected, "from {from}");
            }
            for (from, piece) in board.pieces() {
                let mut listed = 0u64;
                for_each_step(&board, from, |to| listed |= 1 << to.index());
                assert_eq!(step_set(&board, from, piece), listed, "steps from {from}");
                assert_eq!(steps_and_threats(&board, from, piece).1, threatened_squares(&board, from), "from {from}");
                let mut order = Vec::new();
                for_each_step(&board, from, |to| order.push(to));
                for (index, &to) in order.iter().enumerate() {
                    assert_eq!(nth_step(&board, from, piece, index as u32), Some(to), "step #{index} from {from}");
                }
                assert_eq!(nth_step(&board, from, piece, order.len() as u32), None, "past the steps from {from}");
            }
            for color in [Player::First, Player::Second] {
                let pawns = board.pawns() & board.occupancy().colour[color.index()];
                let bulk = pawn_moves(&board, pawns, color);
                let (mut steps, mut threats) = (0, 0);
                for (from, piece) in board.pieces_in(pawns) {
                    let (s, t) = steps_and_threats(&board, from, piece);
                    (steps, threats) = (steps + s.count_ones(), threats + t.count_ones());
                }
                assert_eq!(bulk.singles.count_ones() + bulk.doubles.count_ones(), steps, "{color:?} Pawns' steps");
                assert_eq!(bulk.threats[0].count_ones() + bulk.threats[1].count_ones(), threats, "{color:?} Pawns");
            }
            for to in Square::all() {
                for by in [Player::First, Player::Second] {
                    let expected = board.pieces().any(|(from, p)| p.color == by && threat(&board, from, to).is_some());
                    assert_eq!(threatened_by(&board, to, by), expected, "{to} threatened by {by:?}");
                }
            }
        }
    }
}
