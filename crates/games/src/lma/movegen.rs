//! Legal move generation.
//!
//! Pseudo-legal targets come from the geometric tables; the colours then
//! split them: a target of the piece's own colour keeps it on its board, a
//! target of the other colour sends it to the twin square on the other
//! board, which must be empty.
//!
//! Legality without making moves: when the side to move is not in check,
//! only a few moves can expose its king, because a move changes the king's
//! board only by vacating its origin and (for an off-colour capture) the
//! captured square, and by landing. Landing only blocks. So a move needs a
//! full test only when it starts on the king's board from a square that is
//! the sole blocker between the king and an enemy slider (or one of two
//! blockers, the other an enemy it might capture), when it captures off-colour
//! such a sole enemy blocker, or when it starts from the twin of the king's
//! square (whose occupant shields the king from off-colour attacks). Every
//! other move of a non-king piece is legal and is counted in bulk. In check,
//! only the moves landing where they could end the check get the full test. King moves are always tested, including
//! the falling-through rule.

use super::bitboard::Bitboard;
use super::castling::CASTLES;
use super::moves::{Move, Special, PROMOTIONS};
use super::piece::{Kind, WHITE};
use super::position::Position;
use super::square::{BoardIndex, Square};
use super::tables::{
    bishop_attacks, rook_attacks, same_parity, BETWEEN, BISHOP_LINES, FILE_A, FILE_F, KING, KNIGHT, RANK, ROOK_LINES,
};

/// The pieces whose moves [`Generator::piece_targets`] gives.
pub const SLIDERS: [Kind; 3] = [Kind::Queen, Kind::Rook, Kind::Cardinal];

/// Where generated moves go: a list, or just a count.
pub trait Sink {
    /// Legal moves from `from` to every cell of `targets`, landing on `board`.
    fn spread(&mut self, from: Square, board: BoardIndex, targets: Bitboard);
    /// Legal pawn moves: each target cell `t` of `targets` comes from cell
    /// `t - delta` of `from_board` and lands on `board`.
    fn shifted(&mut self, from_board: BoardIndex, board: BoardIndex, targets: Bitboard, delta: i32, promote: bool);
    fn one(&mut self, mv: Move);
    /// The king's steps from `from` to every cell of `targets`: those of
    /// the king's colour stay on its board, the others land on the other
    /// board (the caller has left out occupied twins).
    #[inline(always)]
    fn king_steps(&mut self, from: Square, targets: Bitboard) {
        let keep = same_parity(from.cell());
        self.spread(from, from.board(), targets & keep);
        self.spread(from, 1 - from.board(), targets & !keep);
    }
}

/// Counts moves without building them (perft's last ply).
pub struct Counter(pub u64);

impl Sink for Counter {
    #[inline(always)]
    fn spread(&mut self, _from: Square, _board: BoardIndex, targets: Bitboard) {
        self.0 += u64::from(targets.count());
    }
    #[inline(always)]
    fn shifted(&mut self, _from: BoardIndex, _board: BoardIndex, targets: Bitboard, _delta: i32, promote: bool) {
        self.0 += u64::from(targets.count()) * if promote { PROMOTIONS.len() as u64 } else { 1 };
    }
    #[inline(always)]
    fn one(&mut self, _mv: Move) {
        self.0 += 1;
    }
}

/// Appends the moves to a list.
pub struct Collector<'a>(pub &'a mut Vec<Move>);

impl Sink for Collector<'_> {
    #[inline(always)]
    fn spread(&mut self, from: Square, board: BoardIndex, targets: Bitboard) {
        for cell in targets {
            self.0.push(Move::plain(from, Square::new(board, cell)));
        }
    }
    #[inline(always)]
    fn shifted(&mut self, from_board: BoardIndex, board: BoardIndex, targets: Bitboard, delta: i32, promote: bool) {
        for cell in targets {
            let from = Square::new(from_board, (cell as i32 - delta) as usize);
            let to = Square::new(board, cell);
            if promote {
                for kind in PROMOTIONS {
                    self.0.push(Move { from, to, special: Special::Promote(kind) });
                }
            } else {
                self.0.push(Move::plain(from, to));
            }
        }
    }
    #[inline(always)]
    fn one(&mut self, mv: Move) {
        self.0.push(mv);
    }
}

/// Everything generation needs about one position, computed once.
pub(super) struct Generator<'a> {
    pos: &'a Position,
    us: usize,
    them: usize,
    /// The king's board and cell.
    king_board: BoardIndex,
    king_cell: usize,
    occupied: [Bitboard; 2],
    own: [Bitboard; 2],
    enemy: [Bitboard; 2],
    in_check: bool,
}

/// Generates every legal move of the side to move into `sink` (draw rules
/// are the game's business, not this function's).
#[inline]
pub fn generate<S: Sink>(pos: &Position, sink: &mut S) {
    let gen = Generator::new(pos);
    let (kb, kc) = (gen.king_board, gen.king_cell);
    let twin_board = 1 - kb;

    // Own pieces whose every move gets the full test, per board; enemy
    // pieces on the king's board whose off-colour capture gets it; where
    // a tested move may land, per board.
    let mut careful = [Bitboard::EMPTY; 2];
    let mut risky_captures = Bitboard::EMPTY;
    let mut landings = [Bitboard::ALL; 2];
    if gen.in_check {
        careful = gen.own;
        landings = gen.check_resolving_landings();
    } else {
        let kinds = &pos.kinds[kb];
        let queens = kinds[Kind::Queen as usize];
        let snipers = ((ROOK_LINES[kc] & (queens | kinds[Kind::Rook as usize]))
            | (BISHOP_LINES[kc] & (queens | kinds[Kind::Cardinal as usize])))
            & gen.enemy[kb];
        for sniper in snipers {
            let blockers = BETWEEN[kc][sniper] & gen.occupied[kb];
            match blockers.count() {
                1 if (blockers & gen.own[kb]).not_empty() => careful[kb] |= blockers,
                1 => risky_captures |= blockers,
                2 if (blockers & gen.enemy[kb]).not_empty() => careful[kb] |= blockers & gen.own[kb],
                _ => {}
            }
        }
        careful[twin_board] |= gen.own[twin_board] & Bitboard::from_index(kc);
    }

    gen.king_moves(sink);
    if !gen.in_check {
        gen.castlings(sink);
    }
    for (board, careful) in careful.into_iter().enumerate() {
        let risky = if board == kb { risky_captures } else { Bitboard::EMPTY };
        gen.piece_moves(board, careful, risky, landings, sink);
        gen.pawn_moves(board, careful, landings, sink);
    }
}

impl<'a> Generator<'a> {
    /// Always inlined: its fields then stay in registers (a call returned
    /// them through memory, every ply of a playout).
    #[inline(always)]
    pub(super) fn new(pos: &'a Position) -> Generator<'a> {
        let us = pos.side_to_move();
        let them = 1 - us;
        let king = pos.king(us);
        let (king_board, king_cell) = (king.board(), king.cell());
        let occupied = [pos.occupied(0), pos.occupied(1)];
        let twin_occupied = occupied[1 - king_board].contains_index(king_cell);
        let in_check = pos.is_attacked(king_board, king_cell, them, occupied[king_board], twin_occupied, Bitboard::EMPTY);
        Generator {
            pos,
            us,
            them,
            king_board,
            king_cell,
            occupied,
            own: [pos.sides[0][us], pos.sides[1][us]],
            enemy: [pos.sides[0][them], pos.sides[1][them]],
            in_check,
        }
    }

    /// In check, where a non-king move must land to be legal, per board:
    /// on the king's board, on a checker (a same-colour capture) or between
    /// it and the king (a block); on the other board, on a checker's twin
    /// (an off-colour capture) or on the king's twin (which bars the
    /// off-colour attacks). A move can change the attacks on the king only
    /// by what it captures or fills: emptying a square never takes an
    /// attack away.
    fn check_resolving_landings(&self) -> [Bitboard; 2] {
        let (kb, kc) = (self.king_board, self.king_cell);
        let twin_occupied = self.occupied[1 - kb].contains_index(kc);
        let checkers = self.pos.attackers(kb, kc, self.them, self.occupied[kb], twin_occupied);
        let mut blocks = checkers;
        for checker in checkers {
            blocks |= BETWEEN[kc][checker];
        }
        let mut landings = [Bitboard::EMPTY; 2];
        landings[kb] = blocks;
        landings[1 - kb] = checkers | Bitboard::from_index(kc);
        landings
    }

    /// The king's square.
    #[inline(always)]
    pub(super) fn king_square(&self) -> Square {
        Square::new(self.king_board, self.king_cell)
    }

    #[inline(always)]
    pub(super) fn in_check(&self) -> bool {
        self.in_check
    }

    /// The pseudo-legal moves of the king, the castlings and the pawns when
    /// not in check: the legal moves among them and those that leave the
    /// king attacked ([`Self::is_legal`] tells them apart). Castlings come
    /// fully tested, as they are rare and their test is their own. The
    /// other pieces' moves are [`Self::piece_targets`].
    #[inline]
    pub(super) fn king_and_pawn_moves_not_in_check<S: Sink>(&self, sink: &mut S) {
        debug_assert!(!self.in_check());
        let (kb, kc) = (self.king_board, self.king_cell);
        let targets = KING[kc] & !self.own[kb];
        let steps = targets & (same_parity(kc) | !self.occupied[1 - kb]);
        sink.king_steps(Square::new(kb, kc), steps);
        self.castlings(sink);
        for board in 0..2 {
            self.pawn_moves(board, Bitboard::EMPTY, [Bitboard::ALL; 2], sink);
        }
    }

    /// The king's pseudo-legal steps, by landing board: diagonal steps
    /// stay on its board, orthogonal ones land on a free twin. Each needs
    /// [`Self::king_step_is_legal`].
    #[inline(always)]
    pub(super) fn king_steps(&self) -> [Bitboard; 2] {
        let (kb, kc) = (self.king_board, self.king_cell);
        let targets = KING[kc] & !self.own[kb];
        let mut steps = [Bitboard::EMPTY; 2];
        steps[kb] = targets & same_parity(kc);
        steps[1 - kb] = targets & !same_parity(kc) & !self.occupied[1 - kb];
        steps
    }

    /// Whether the king's step to `cell`, landing on `land_board`, is
    /// legal (in check or not).
    #[inline]
    pub(super) fn king_step_is_legal(&self, land_board: BoardIndex, cell: usize) -> bool {
        self.king_step_is_safe(land_board, cell)
    }

    /// In check, the legal moves of the pieces other than the king: those
    /// of [`generate`], with the queens, rooks and cardinals that reach no
    /// square ending the check on an empty board skipped before their
    /// targets are computed (most, as those squares are few).
    pub(super) fn non_king_evasions<S: Sink>(&self, sink: &mut S) {
        debug_assert!(self.in_check);
        let landings = self.check_resolving_landings();
        for board in 0..2 {
            let own = self.own[board];
            for kind in SLIDERS {
                for cell in self.pos.kinds[board][kind as usize] & own {
                    // A target of the piece's colour lands on its board, one
                    // of the other colour on the other board.
                    let keep = same_parity(cell);
                    let ending = (landings[board] & keep) | (landings[1 - board] & !keep);
                    let reach = match kind {
                        Kind::Queen => ROOK_LINES[cell] | BISHOP_LINES[cell],
                        Kind::Rook => ROOK_LINES[cell],
                        _ => BISHOP_LINES[cell] | KNIGHT[cell],
                    };
                    if (reach & ending).is_empty() {
                        continue;
                    }
                    let from = Square::new(board, cell);
                    let (stay, change) = self.piece_targets(board, cell, kind);
                    self.tested(from, board, stay & landings[board], sink);
                    self.tested(from, 1 - board, change & landings[1 - board], sink);
                }
            }
            self.pawn_moves(board, own, landings, sink);
        }
    }

    /// Whether a pseudo-legal move is legal when not in check. As
    /// in [`generate`], a non-king move can expose the king only by leaving
    /// a line through the king's square on its board, or the twin of that
    /// square, or by capturing off-colour on a line through it; the others
    /// need no test.
    #[inline]
    pub(super) fn is_legal(&self, mv: Move) -> bool {
        let (kb, kc) = (self.king_board, self.king_cell);
        if matches!(mv.special, Special::Castle(_)) {
            return true;
        }
        if mv.from == Square::new(kb, kc) {
            return self.king_step_is_safe(mv.to.board(), mv.to.cell());
        }
        let exposing = if mv.from.board() == kb {
            let lines = ROOK_LINES[kc] | BISHOP_LINES[kc];
            let off_colour_capture = mv.to.board() != kb && self.enemy[kb].contains_index(mv.to.cell());
            lines.contains_index(mv.from.cell()) || (off_colour_capture && lines.contains_index(mv.to.cell()))
        } else {
            mv.from.cell() == kc
        };
        !exposing || self.safe_after(mv.from, mv.to.board(), mv.to.cell())
    }

    /// Whether the king may step to `cell`, landing on `land_board`: a
    /// diagonal step keeps the colour and the board; an orthogonal one
    /// lands on the other board, and must be safe both there and, falling
    /// through, on the target of this board with the landing square still
    /// empty.
    #[inline]
    fn king_step_is_safe(&self, land_board: BoardIndex, cell: usize) -> bool {
        let (kb, kc, them) = (self.king_board, self.king_cell, self.them);
        let other = 1 - kb;
        // Attacks through the king's own square count once it has left.
        let lifted = self.occupied[kb] & !Bitboard::from_index(kc);
        if land_board == kb {
            let twin_occupied = self.occupied[other].contains_index(cell);
            !self.pos.is_attacked(kb, cell, them, lifted, twin_occupied, Bitboard::from_index(cell))
        } else {
            !self.pos.is_attacked(other, cell, them, self.occupied[other], false, Bitboard::EMPTY)
                && !self.pos.is_attacked(kb, cell, them, lifted, false, Bitboard::from_index(cell))
        }
    }

    /// Whether the king is safe after the non-king move of the piece on
    /// `from` to `cell`, landing on `land_board` (capturing whatever enemy
    /// stands on `cell` of the source board).
    #[inline]
    fn safe_after(&self, from: Square, land_board: BoardIndex, cell: usize) -> bool {
        let (fb, kb) = (from.board(), self.king_board);
        let mut occupied = self.occupied;
        let captured = self.enemy[fb] & Bitboard::from_index(cell);
        occupied[fb] &= !(Bitboard::from_index(from.cell()) | captured);
        occupied[land_board] |= Bitboard::from_index(cell);
        let gone = if fb == kb { captured } else { Bitboard::EMPTY };
        let twin_occupied = occupied[1 - kb].contains_index(self.king_cell);
        !self.pos.is_attacked(kb, self.king_cell, self.them, occupied[kb], twin_occupied, gone)
    }

    /// Tests each target one by one.
    #[inline]
    fn tested<S: Sink>(&self, from: Square, land_board: BoardIndex, targets: Bitboard, sink: &mut S) {
        for cell in targets {
            if self.safe_after(from, land_board, cell) {
                sink.one(Move::plain(from, Square::new(land_board, cell)));
            }
        }
    }

    fn king_moves<S: Sink>(&self, sink: &mut S) {
        let (kb, kc) = (self.king_board, self.king_cell);
        let other = 1 - kb;
        let from = Square::new(kb, kc);
        let targets = KING[kc] & !self.own[kb];
        for cell in targets & same_parity(kc) {
            if self.king_step_is_safe(kb, cell) {
                sink.one(Move::plain(from, Square::new(kb, cell)));
            }
        }
        for cell in targets & !same_parity(kc) & !self.occupied[other] {
            if self.king_step_is_safe(other, cell) {
                sink.one(Move::plain(from, Square::new(other, cell)));
            }
        }
    }

    /// Called only when not in check.
    fn castlings<S: Sink>(&self, sink: &mut S) {
        let rights = self.pos.castling;
        if rights == 0 {
            return;
        }
        let (kb, kc) = (self.king_board, self.king_cell);
        let lifted = self.occupied[kb] & !Bitboard::from_index(kc);
        for (index, castle) in CASTLES.iter().enumerate() {
            if castle.side != self.us
                || rights & castle.right == 0
                || castle.king_from != Square::new(kb, kc)
                || !self
                    .pos
                    .pieces(castle.rook_from.board(), self.us, Kind::Rook)
                    .contains_index(castle.rook_from.cell())
                || (self.occupied[kb] & castle.between).not_empty()
                || self.occupied[castle.rook_to.board()].contains_index(castle.rook_to.cell())
            {
                continue;
            }
            let attacked = |cell: usize| {
                self.pos.is_attacked(
                    kb,
                    cell,
                    self.them,
                    lifted,
                    self.occupied[1 - kb].contains_index(cell),
                    Bitboard::EMPTY,
                )
            };
            if attacked(castle.cross) || attacked(castle.king_to.cell()) {
                continue;
            }
            sink.one(Move { from: castle.king_from, to: castle.king_to, special: Special::Castle(index as u8) });
        }
    }

    /// The pseudo-legal move of the queen, rook or cardinal on `cell` of
    /// `board` to `to`, a cell it reaches on an empty board, if there is
    /// one: the same moves as [`Self::piece_targets`] gives, one at a
    /// time. A knight's leap has no cells between.
    #[inline(always)]
    pub(super) fn slider_move(&self, board: BoardIndex, cell: usize, to: usize) -> Option<Move> {
        // One branch on the three ways to fail, not one each: which of them
        // a random slot meets is as good as random, and so is the board.
        let changes_board = !same_parity(cell).contains_index(to);
        let blocked = (BETWEEN[cell][to] & self.occupied[board]).not_empty()
            | self.own[board].contains_index(to)
            | (changes_board & self.occupied[1 - board].contains_index(to));
        if blocked {
            return None;
        }
        let land = board ^ usize::from(changes_board);
        Some(Move::plain(Square::new(board, cell), Square::new(land, to)))
    }

    /// Where the queen, rook or cardinal on `cell` of `board` may go: the
    /// targets of its own colour (it stays on `board`) and those of the
    /// other colour (it lands on the other board, which must be free there).
    #[inline(always)]
    pub(super) fn piece_targets(&self, board: BoardIndex, cell: usize, kind: Kind) -> (Bitboard, Bitboard) {
        let occupied = self.occupied[board];
        let attacks = match kind {
            Kind::Queen => rook_attacks(cell, occupied) | bishop_attacks(cell, occupied),
            Kind::Rook => rook_attacks(cell, occupied),
            _ => bishop_attacks(cell, occupied) | KNIGHT[cell],
        };
        let targets = attacks & !self.own[board];
        let keep = same_parity(cell);
        (targets & keep, targets & !keep & !self.occupied[1 - board])
    }

    /// Queens, rooks and cardinals of one board.
    #[inline(always)]
    fn piece_moves<S: Sink>(
        &self,
        board: BoardIndex,
        careful: Bitboard,
        risky: Bitboard,
        landings: [Bitboard; 2],
        sink: &mut S,
    ) {
        let own = self.own[board];
        for kind in SLIDERS {
            for cell in self.pos.kinds[board][kind as usize] & own {
                let from = Square::new(board, cell);
                let (stay, change) = self.piece_targets(board, cell, kind);
                if careful.contains_index(cell) {
                    self.tested(from, board, stay & landings[board], sink);
                    self.tested(from, 1 - board, change & landings[1 - board], sink);
                } else {
                    sink.spread(from, board, stay);
                    sink.spread(from, 1 - board, change & !risky);
                    self.tested(from, 1 - board, change & risky, sink);
                }
            }
        }
    }

    /// Pawns of one board: the one-square step changes colour (so board)
    /// and needs both the step square and its twin empty; the two-square
    /// step and the diagonal captures keep the colour.
    #[inline(always)]
    fn pawn_moves<S: Sink>(&self, board: BoardIndex, careful: Bitboard, landings: [Bitboard; 2], sink: &mut S) {
        let pawns = self.pos.pieces(board, self.us, Kind::Pawn);
        if pawns.is_empty() {
            return;
        }
        if self.us == WHITE {
            self.pawn_moves_towards::<true, S>(board, pawns, careful, landings, sink);
        } else {
            self.pawn_moves_towards::<false, S>(board, pawns, careful, landings, sink);
        }
    }

    /// [`Self::pawn_moves`] for pawns moving up (White's) or down: with the
    /// direction known at compile time, each shift is one instruction
    /// instead of a test of its sign.
    #[inline(always)]
    fn pawn_moves_towards<const UP: bool, S: Sink>(
        &self,
        board: BoardIndex,
        pawns: Bitboard,
        careful: Bitboard,
        landings: [Bitboard; 2],
        sink: &mut S,
    ) {
        let other = 1 - board;
        let (forward, start_rank, last_rank, left, right) =
            if UP { (6, RANK[1], RANK[6], 5, 7) } else { (-6, RANK[5], RANK[0], -7, -5) };
        let empty_here = !self.occupied[board];
        let empty_there = !self.occupied[other];
        let enemy = self.enemy[board];
        let free = pawns & !careful;
        let single = free.shift(forward) & empty_here & empty_there;
        let double = ((free & start_rank).shift(forward) & empty_here).shift(forward) & empty_here;
        let left_captures = (free & !FILE_A).shift(left) & enemy;
        let right_captures = (free & !FILE_F).shift(right) & enemy;
        sink.shifted(board, other, single & !last_rank, forward, false);
        sink.shifted(board, board, double, 2 * forward, false);
        sink.shifted(board, board, left_captures & !last_rank, left, false);
        sink.shifted(board, board, right_captures & !last_rank, right, false);
        // Promotions need a pawn one step from the last rank: mostly none.
        if (free.shift(forward) & last_rank).not_empty() {
            sink.shifted(board, other, single & last_rank, forward, true);
            sink.shifted(board, board, left_captures & last_rank, left, true);
            sink.shifted(board, board, right_captures & last_rank, right, true);
        }

        for cell in pawns & careful {
            let from = Square::new(board, cell);
            let pawn = Bitboard::from_index(cell);
            let single = pawn.shift(forward) & empty_here & empty_there;
            let double = ((pawn & start_rank).shift(forward) & empty_here).shift(forward) & empty_here;
            let captures = ((pawn & !FILE_A).shift(left) | (pawn & !FILE_F).shift(right)) & enemy;
            for (targets, land) in [(single, other), (double, board), (captures, board)] {
                for target in targets & landings[land] {
                    if !self.safe_after(from, land, target) {
                        continue;
                    }
                    let to = Square::new(land, target);
                    if last_rank.contains_index(target) {
                        for kind in PROMOTIONS {
                            sink.one(Move { from, to, special: Special::Promote(kind) });
                        }
                    } else {
                        sink.one(Move::plain(from, to));
                    }
                }
            }
        }
    }
}
