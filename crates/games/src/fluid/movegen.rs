//! Legal move generation, and counting without building the moves.
//!
//! Moves are generated pseudo-legally and kept when they cannot expose the
//! mover's king; the rest are tried on a copy of the board. A move can only
//! expose the king (when not already in check) by emptying a square on a
//! line or a lame-knight leg between the king and an enemy unit (captures
//! never open lines: the mover stands where it captured), by landing on or
//! leaving the king's square, by en passant, or by castling. The first case
//! is found in bulk: [`danger_squares`] lists the own squares standing in
//! such a line, so every other unit is moved (or counted) without a test.

use super::attacks;
use super::bitboard::Bitboard;
use super::board::{Board, SideMasks};
use super::moves::{Move, Special};
use super::piece::{Colour, Kind, Piece};
use super::position::{Rules, State};
use super::square::Square;

/// Where generated legal moves go: a list, a counter, or the groups a
/// random draw picks from.
pub trait Sink {
    fn push(&mut self, mv: Move);
    /// Takes at once the moves of a single unit of kind `kind` on `from` to
    /// each of `targets`, all known legal (a target in `choices` holds two
    /// moves, one per enemy piece it may capture). `false`: the sink wants
    /// them one by one through [`Sink::push`].
    #[inline]
    fn take_single(&mut self, _from: Square, _kind: Kind, _targets: Bitboard, _choices: Bitboard) -> bool {
        false
    }
    /// The same for a pair `a`+`b` moving together: one move per target.
    #[inline]
    fn take_pair(&mut self, _from: Square, _a: Kind, _b: Kind, _targets: Bitboard) -> bool {
        false
    }
}

impl Sink for Vec<Move> {
    #[inline]
    fn push(&mut self, mv: Move) {
        Vec::push(self, mv);
    }
}

/// Counts legal moves.
#[derive(Default)]
pub struct Counter(pub u64);

impl Sink for Counter {
    #[inline]
    fn push(&mut self, _mv: Move) {
        self.0 += 1;
    }
    #[inline]
    fn take_single(&mut self, _from: Square, _kind: Kind, targets: Bitboard, choices: Bitboard) -> bool {
        self.0 += u64::from(targets.count() + (targets & choices).count());
        true
    }
    #[inline]
    fn take_pair(&mut self, _from: Square, _a: Kind, _b: Kind, targets: Bitboard) -> bool {
        self.0 += u64::from(targets.count());
        true
    }
}

/// The single move of a `kind` on `from` to `to` in `board`, where `side`
/// moves: capturing the enemy piece there, if any; on a square in
/// `choices` (two enemy pieces) capturing the first (`choice` 0) or the
/// second.
#[inline]
pub(super) fn single_move(
    board: &Board,
    side: Colour,
    choices: Bitboard,
    (from, to, kind): (Square, Square, Kind),
    choice: usize,
) -> Move {
    let base = Move::new(from, to, kind, None);
    let cell = board.cell(to);
    if choices.contains(to) {
        let victim = if choice == 0 { cell.first() } else { cell.second() };
        victim.map_or(base, |victim| base.capturing(victim.kind(), true))
    } else {
        cell.piece_of(side.other()).map_or(base, |victim| base.capturing(victim.kind(), false))
    }
}

struct Generator<'a, S: Sink> {
    state: &'a State,
    rules: &'a Rules,
    board: &'a Board,
    side: Colour,
    masks: SideMasks,
    king: Square,
    in_check: bool,
    /// Moves from these squares are tried on a copy before being kept.
    danger: Bitboard,
    /// Moves to these squares are tried too: the king's square when it holds
    /// an enemy piece (capturing it changes who may land on the king).
    risky_targets: Bitboard,
    /// Where a piece other than the king, and not on its square, must land
    /// to end a check (everywhere when not in check). Pawns are not
    /// filtered (few are left when checks are frequent), nor the king.
    evasions: Bitboard,
    /// Keep moves whatever they do to the own king (castling's and en
    /// passant's own conditions still apply).
    pseudo_legal: bool,
    sink: &'a mut S,
}

/// Generates every legal move of the side to move (draw rules aside: the
/// caller checks those).
pub fn generate<S: Sink>(state: &State, rules: &Rules, sink: &mut S) {
    generate_in(state, rules, sink, Mode::Legal);
}

/// How much checking [`generate_in`] does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Legal moves, testing only the moves that could expose the king.
    Legal,
    /// Legal moves, every one tried on a copy (a slow reference for tests).
    #[cfg_attr(not(test), allow(dead_code))]
    TestEverything,
    /// Every pseudo-legal move (the king's safety ignored; castling's own
    /// conditions still apply).
    PseudoLegal,
}

pub fn generate_in<S: Sink>(state: &State, rules: &Rules, sink: &mut S, mode: Mode) {
    let board = &state.board;
    let side = state.side;
    let Some(king) = board.king(side) else { return };
    // Pseudo-legal moves ignore check (castling among them: its test is
    // the caller's), so random playouts need not ask twice.
    let in_check = match mode {
        Mode::Legal => state.in_check,
        // The reference asks the attackers itself.
        Mode::TestEverything => board.attacked(king, side.other(), rules.single_promotions),
        Mode::PseudoLegal => false,
    };
    let masks = board.side_masks(side);
    let (danger, risky_targets) = match mode {
        _ if in_check => (Bitboard::ALL, Bitboard::ALL),
        Mode::Legal => (
            danger_squares(board, king, side) | Bitboard::from_square(king),
            if masks.opp.contains(king) { Bitboard::from_square(king) } else { Bitboard::EMPTY },
        ),
        Mode::TestEverything => (Bitboard::ALL, Bitboard::ALL),
        Mode::PseudoLegal => (Bitboard::EMPTY, Bitboard::EMPTY),
    };
    // The reference mode tries every move, the filter's too.
    let evasions = match mode {
        Mode::Legal if in_check => board.evasions(king, side.other()),
        _ => Bitboard::ALL,
    };
    let pseudo_legal = mode == Mode::PseudoLegal;
    let mut generator = Generator {
        state,
        rules,
        board,
        side,
        masks,
        king,
        in_check,
        danger,
        risky_targets,
        evasions,
        pseudo_legal,
        sink,
    };
    generator.run();
}

/// A generator of pseudo-legal moves (for the playouts' lists).
fn pseudo_legal_generator<'a, S: Sink>(
    state: &'a State,
    rules: &'a Rules,
    masks: SideMasks,
    king: Square,
    sink: &'a mut S,
) -> Generator<'a, S> {
    Generator {
        state,
        rules,
        board: &state.board,
        side: state.side,
        masks,
        king,
        in_check: false,
        danger: Bitboard::EMPTY,
        risky_targets: Bitboard::EMPTY,
        evasions: Bitboard::ALL,
        pseudo_legal: true,
        sink,
    }
}

/// The pseudo-legal promotions and en-passant captures, whose rules do
/// not fit a target set (random playouts draw the other pawn moves from
/// target sets).
pub(super) fn promotions_and_en_passant<S: Sink>(state: &State, rules: &Rules, masks: SideMasks, sink: &mut S) {
    let board = &state.board;
    let side = state.side;
    let Some(king) = board.king(side) else { return };
    let pawns = board.pieces(side, Kind::Pawn);
    let before_last_rank = if side == Colour::White { 6 } else { 1 };
    let mut generator = pseudo_legal_generator(state, rules, masks, king, sink);
    for from in pawns.into_iter().filter(|from| from.rank() == before_last_rank) {
        generator.pawn(from);
    }
    if let Some(target) = state.en_passant {
        for from in attacks::pawn(side.other(), target) & pawns {
            if en_passant_possible(board, side, from, target) {
                generator.sink.push(Move::new(from, target, Kind::Pawn, None).special_kind(Special::EnPassant));
            }
        }
    }
}

/// The castlings whose own conditions hold (the king's safety after it
/// aside).
pub(super) fn castlings<S: Sink>(state: &State, rules: &Rules, masks: SideMasks, sink: &mut S) {
    let Some(king) = state.board.king(state.side) else { return };
    pseudo_legal_generator(state, rules, masks, king, sink).castling();
}

/// What the playouts' legality test knows of the mover's king before the
/// move.
pub(super) struct KingSafety {
    king: Square,
    in_check: bool,
    /// See [`Board::evasions`] (everywhere when not in check).
    evasions: Bitboard,
}

impl KingSafety {
    /// `None` without a king (not in play).
    #[inline]
    pub(super) fn of(state: &State) -> Option<KingSafety> {
        let board = &state.board;
        let king = board.king(state.side)?;
        let in_check = state.in_check;
        let evasions = if in_check { board.evasions(king, state.side.other()) } else { Bitboard::ALL };
        Some(KingSafety { king, in_check, evasions })
    }
}

/// Whether a pseudo-legal move of the side to move is legal: no castling
/// out of check, and the own king safe after it. In check, a move of
/// another unit than the king must land on one of the evasion squares.
/// Out of check, only a move that leaves a square the king's attackers
/// could then pass (see [`Board::uncovers`]; the square it lands on only
/// blocks more), that leaves or lands on the king's square, en passant and
/// castling can expose the king; the others need no test.
#[inline]
pub(super) fn pseudo_legal_is_legal(state: &State, rules: &Rules, safety: &KingSafety, mv: Move) -> bool {
    let king = safety.king;
    // Most tests are of king steps: they take the short way, in check or not.
    if mv.from() == king && mv.first_kind() == Kind::King && !mv.is_pair() && mv.special() != Special::Castle {
        return king_step_is_safe(&state.board, state.side, mv, rules.single_promotions);
    }
    if safety.in_check {
        let may_evade = match mv.special() {
            Special::Castle => false,
            Special::EnPassant => true,
            Special::Normal | Special::DoublePush => mv.from() == king || safety.evasions.contains(mv.to()),
        };
        return may_evade && legal_after(&state.board, state.side, mv, rules);
    }
    let may_expose = matches!(mv.special(), Special::EnPassant | Special::Castle)
        || mv.from() == king
        || mv.to() == king
        || state.board.uncovers(king, mv.from(), state.side.other());
    !may_expose || legal_after(&state.board, state.side, mv, rules)
}

/// Whether the king of `side` is safe after `mv`, the king stepping alone
/// (not castling): [`legal_after`]'s test for it, without the decoding a
/// move of any unit needs. Only the attackers' passability of the square
/// it leaves changes (nothing on its new square attacks it, nor does that
/// square's passability matter), and the piece it captures leaves.
#[inline(always)]
fn king_step_is_safe(board: &Board, side: Colour, mv: Move, single_promotions: bool) -> bool {
    let (from, to) = (mv.from(), mv.to());
    let (king, enemy) = (Piece::new(side, Kind::King), side.other());
    let to_cell = match mv.captured() {
        Some(kind) => board.cell(to).without(Piece::new(enemy, kind)),
        None => board.cell(to),
    };
    let attackers = board.attackers(enemy).with_passable(from, board.cell(from).without(king));
    !attackers.attack(to, to_cell.with(king), single_promotions)
}

/// Whether the side to move has a legal en-passant capture (for repetition).
pub fn en_passant_is_legal(state: &State, rules: &Rules) -> bool {
    let Some(target) = state.en_passant else { return false };
    let side = state.side;
    let board = &state.board;
    let capturers = attacks::pawn(side.other(), target) & board.pieces(side, Kind::Pawn);
    capturers.into_iter().any(|from| {
        en_passant_possible(board, side, from, target)
            && legal_after(
                board,
                side,
                Move::new(from, target, Kind::Pawn, None).special_kind(Special::EnPassant),
                rules,
            )
    })
}

fn en_passant_possible(board: &Board, side: Colour, from: Square, target: Square) -> bool {
    let victim = board.cell(Square::from_coords(target.file(), from.rank()));
    board.cell(target).is_empty()
        && board.colour(side).contains(from)
        && victim.pieces().any(|p| p.colour() != side && p.kind() == Kind::Pawn)
}

/// Whether `side`'s king is safe after `mv`: the attackers are asked with
/// the move's two squares changed (en passant and castling, which change
/// more, are played on a copy).
#[inline]
fn legal_after(board: &Board, side: Colour, mv: Move, rules: &Rules) -> bool {
    if matches!(mv.special(), Special::EnPassant | Special::Castle) {
        let mut copy = *board;
        copy.apply(mv, side);
        return copy.king(side).is_some_and(|king| !copy.attacked(king, side.other(), rules.single_promotions));
    }
    let Some(king) = board.king(side) else { return false };
    let (from, to) = (mv.from(), mv.to());
    let (from_cell, to_cell) = board.cells_after(mv, side);
    // The mover leaves only its own pieces behind.
    let attackers = board.attackers(side.other()).with_passable(from, from_cell);
    if mv.moves_kind(Kind::King) {
        // Nothing on its new square attacks the king, nor does that
        // square's passability matter.
        return !attackers.attack(to, to_cell, rules.single_promotions);
    }
    // Enemy pieces leave the target only by capture.
    let attackers = if mv.captured().is_some() || mv.is_pair() {
        attackers.with_cell(to, to_cell)
    } else {
        attackers.with_passable(to, to_cell)
    };
    let king_cell = match king {
        _ if king == to => to_cell,
        _ if king == from => from_cell,
        _ => board.cell(king),
    };
    !attackers.attack(king, king_cell, rules.single_promotions)
}

/// Own squares whose emptying could let an enemy unit reach the king: the
/// first own blocker on a line from the king with an enemy slider of that
/// line's kind behind it, and own pieces on both middles of an enemy lame
/// knight's legs to the king. A superset is harmless (those moves are
/// tested); a missing square would be a bug.
fn danger_squares(board: &Board, king: Square, side: Colour) -> Bitboard {
    let enemy = side.other();
    let passable = board.passable(enemy);
    let blockers = !passable;
    let own = board.colour(side);
    let mut danger = Bitboard::EMPTY;
    let rooks = board.pieces(enemy, Kind::Rook);
    if rooks.not_empty() {
        let shields = attacks::rook(king, blockers) & own;
        if shields.not_empty() {
            for pinner in attacks::rook(king, blockers & !shields) & rooks {
                danger |= attacks::between(king, pinner) & shields;
            }
        }
    }
    let bishops = board.pieces(enemy, Kind::Bishop);
    if bishops.not_empty() {
        let shields = attacks::bishop(king, blockers) & own;
        if shields.not_empty() {
            for pinner in attacks::bishop(king, blockers & !shields) & bishops {
                danger |= attacks::between(king, pinner) & shields;
            }
        }
    }
    let knights = board.pieces(enemy, Kind::Knight);
    if (attacks::knight_targets(king) & knights).not_empty() {
        for leg in attacks::knight_legs(king) {
            if knights.contains(Square::new(leg.target)) && leg.middles & passable.0 == 0 {
                danger |= Bitboard(leg.middles) & own;
            }
        }
    }
    danger
}

impl<S: Sink> Generator<'_, S> {
    fn run(&mut self) {
        let side = self.side;
        let pairs = self.masks.own & self.board.stacked() & !self.masks.opp;
        let singles = self.masks.own & !pairs;
        for kind in [Kind::Knight, Kind::Bishop, Kind::Rook] {
            for from in self.board.pieces(side, kind) & singles {
                self.single(from, kind);
            }
        }
        // The king, and the units on its square, may end a check by moving.
        let evasions = std::mem::replace(&mut self.evasions, Bitboard::ALL);
        for from in self.board.pieces(side, Kind::King) & singles {
            self.single(from, Kind::King);
        }
        for from in self.board.pieces(side, Kind::Pawn) {
            self.pawn(from);
        }
        for from in pairs {
            self.evasions = if from == self.king { Bitboard::ALL } else { evasions };
            let cell = self.board.cell(from);
            let (Some(a), Some(b)) = (cell.first(), cell.second()) else { continue };
            self.pair(from, a.kind(), b.kind());
            self.single(from, a.kind());
            if b.kind() != a.kind() {
                self.single(from, b.kind());
            }
        }
        if !self.in_check {
            self.castling();
        }
    }

    #[inline]
    fn push_checked(&mut self, mv: Move, test: bool) {
        if !test || legal_after(self.board, self.side, mv, self.rules) {
            self.sink.push(mv);
        }
    }

    /// One piece moving alone (from a single square, a mixed square, or
    /// split from a pair).
    fn single(&mut self, from: Square, kind: Kind) {
        let targets = Board::reach(kind, from, &self.masks) & self.masks.single_targets & self.evasions;
        let careful = self.danger.contains(from);
        if !careful && self.sink.take_single(from, kind, targets & !self.risky_targets, self.masks.choices) {
            for to in targets & self.risky_targets {
                self.land_single(from, to, kind, true);
            }
            return;
        }
        for to in targets {
            self.land_single(from, to, kind, careful || self.risky_targets.contains(to));
        }
    }

    fn land_single(&mut self, from: Square, to: Square, kind: Kind, test: bool) {
        if !self.masks.opp.contains(to) {
            self.push_checked(Move::new(from, to, kind, None), test);
            return;
        }
        let choices = if self.masks.choices.contains(to) { 2 } else { 1 };
        for choice in 0..choices {
            let mv = single_move(self.board, self.side, self.masks.choices, (from, to, kind), choice);
            self.push_checked(mv, test);
        }
    }

    /// Both pieces of a pair moving together, as either piece.
    fn pair(&mut self, from: Square, a: Kind, b: Kind) {
        let reach = Board::reach(a, from, &self.masks) | Board::reach(b, from, &self.masks);
        let targets = reach & self.masks.pair_targets & self.evasions;
        let careful = self.danger.contains(from);
        if !careful && self.sink.take_pair(from, a, b, targets) {
            return;
        }
        for to in targets {
            self.push_checked(Move::new(from, to, a, Some(b)), careful);
        }
    }

    fn pawn(&mut self, from: Square) {
        let side = self.side;
        let (forward, start_rank, last_rank): (i8, u8, u8) = if side == Colour::White { (8, 1, 7) } else { (-8, 6, 0) };
        let careful = self.danger.contains(from);
        let promotions = self.rules.promotions;
        if from.rank() != last_rank {
            let to = from.offset(forward);
            if self.board.cell(to).is_empty() {
                let base = Move::new(from, to, Kind::Pawn, None);
                if to.rank() == last_rank {
                    for &promotion in promotions {
                        self.push_checked(base.promoting(promotion), careful);
                    }
                } else {
                    self.push_checked(base, careful);
                    if from.rank() == start_rank {
                        let double = to.offset(forward);
                        if self.board.cell(double).is_empty() {
                            let mv = Move::new(from, double, Kind::Pawn, None).special_kind(Special::DoublePush);
                            self.push_checked(mv, careful);
                        }
                    }
                }
            }
        }
        for to in attacks::pawn(side, from) & self.masks.opp {
            self.pawn_capture(from, to, to.rank() == last_rank, careful || self.risky_targets.contains(to));
        }
        if let Some(target) = self.state.en_passant {
            if attacks::pawn(side, from).contains(target) && en_passant_possible(self.board, side, from, target) {
                let mv = Move::new(from, target, Kind::Pawn, None).special_kind(Special::EnPassant);
                self.push_checked(mv, !self.pseudo_legal);
            }
        }
    }

    fn pawn_capture(&mut self, from: Square, to: Square, promotes: bool, test: bool) {
        let cell = self.board.cell(to);
        let choice = self.masks.choices.contains(to);
        let mut previous: Option<Kind> = None;
        let side = self.side;
        for victim in cell.pieces().filter(|p| p.colour() != side) {
            if previous == Some(victim.kind()) {
                continue;
            }
            previous = Some(victim.kind());
            let remaining = cell.without(victim);
            let own_left = remaining.piece_of(self.side);
            let base = Move::new(from, to, Kind::Pawn, None).capturing(victim.kind(), choice);
            if promotes {
                for &promotion in self.rules.promotions {
                    let fits = if promotion.is_pair() {
                        remaining.is_empty()
                    } else {
                        own_left.is_none_or(|p: Piece| p.kind() != Kind::Pawn)
                    };
                    if fits {
                        self.push_checked(base.promoting(promotion), test);
                    }
                }
            } else if own_left.is_none() {
                self.push_checked(base, test);
            }
        }
    }

    fn castling(&mut self) {
        let side = self.side;
        let rank = if side == Colour::White { 0 } else { 7 };
        let shift = 2 * side.index();
        let rights = self.state.castling >> shift & 3;
        if rights == 0 {
            return;
        }
        let at = |file: u8| Square::from_coords(file, rank);
        let king_from = at(4);
        if self.king != king_from {
            return;
        }
        let passable = self.masks.passable;
        let empty = !self.board.occupied();
        let rooks = self.board.pieces(side, Kind::Rook);
        // King side: the first to slide lands on an empty square, the second
        // may pass it and land on one friendly non-pawn piece.
        if rights & 1 != 0 && rooks.contains(at(7)) {
            let (f, g) = (at(5), at(6));
            let open = (passable.contains(f) && empty.contains(g)) || (empty.contains(f) && passable.contains(g));
            if open && self.king_safe_on(f) && self.king_safe_on(g) {
                self.push_checked(
                    Move::new(king_from, g, Kind::King, None).special_kind(Special::Castle),
                    !self.pseudo_legal,
                );
            }
        }
        if rights & 2 != 0 && rooks.contains(at(0)) {
            let (b, c, d) = (at(1), at(2), at(3));
            let open = passable.contains(b)
                && ((passable.contains(d) && empty.contains(c)) || (empty.contains(d) && passable.contains(c)));
            if open && self.king_safe_on(d) && self.king_safe_on(c) {
                self.push_checked(
                    Move::new(king_from, c, Kind::King, None).special_kind(Special::Castle),
                    !self.pseudo_legal,
                );
            }
        }
    }

    /// Castling's "not attacked": the king taken from its square and put on
    /// `square`, in the position before castling.
    fn king_safe_on(&self, square: Square) -> bool {
        let king = Piece::new(self.side, Kind::King);
        let landed = self.board.cell(square).with(king);
        let attackers = self
            .board
            .attackers(self.side.other())
            .with_cell(self.king, self.board.cell(self.king).without(king))
            .with_cell(square, landed);
        !attackers.attack(square, landed, self.rules.single_promotions)
    }
}
