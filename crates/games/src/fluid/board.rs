//! The board: a cell (0-2 pieces) per square, plus bitboards kept in step
//! with the cells: per colour "holds a piece of this colour", per colour and
//! kind "holds a piece of this kind", and "holds two pieces". Everything the
//! rules ask (passable squares, where a unit may land) is a few operations
//! on these.

use super::attacks;
use super::bitboard::Bitboard;
use super::moves::{Move, Special};
use super::piece::{Cell, Colour, Kind, Piece};
use super::square::Square;
use super::zobrist;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board {
    cells: [Cell; 64],
    /// Indexed by colour.
    colour: [Bitboard; 2],
    /// Indexed by piece code (colour << 3 | kind); unused codes are scratch.
    kinds: [Bitboard; 16],
    stacked: Bitboard,
    /// Zobrist hash of the cells.
    hash: u64,
}

/// The masks one side's move generation needs, computed once per position.
#[derive(Clone, Copy, Debug)]
pub struct SideMasks {
    pub own: Bitboard,
    pub opp: Bitboard,
    /// Empty, or exactly one own non-pawn piece and nothing else.
    pub passable: Bitboard,
    /// Not passable: where sliders stop (inclusive).
    pub blockers: Bitboard,
    /// Where a single non-pawn piece may end its move.
    pub single_targets: Bitboard,
    /// Where a pair may end its move: empty or only enemy pieces.
    pub pair_targets: Bitboard,
    /// Squares with only enemy pieces, two of different kinds: a single
    /// mover chooses which one it captures (two moves).
    pub choices: Bitboard,
}

/// What decides whether the units of one colour (`by`) attack a square:
/// where they may pass, and their pieces by kind. A legality test changes
/// the squares a move changes here instead of playing it on a copy of the
/// board.
#[derive(Clone, Copy, Debug)]
pub struct Attackers {
    by: Colour,
    passable: Bitboard,
    /// Indexed by kind (index 0 unused).
    pieces: [Bitboard; 6],
}

impl Attackers {
    /// The attackers once `square` holds `cell`.
    #[inline]
    pub fn with_cell(self, square: Square, cell: Cell) -> Attackers {
        let mut attackers = self.with_passable(square, cell);
        let bit = Bitboard::from_square(square);
        for pieces in &mut attackers.pieces {
            *pieces &= !bit;
        }
        for piece in [cell.first(), cell.second()].into_iter().flatten() {
            if piece.colour() == attackers.by {
                attackers.pieces[piece.kind().index()] |= bit;
            }
        }
        attackers
    }

    /// The attackers once `square` holds `cell`, where the pieces of `by`
    /// on `square` stay the same (only who may pass changes).
    #[inline]
    pub fn with_passable(mut self, square: Square, cell: Cell) -> Attackers {
        // Passable: empty, or one piece (one code, below 16) of `by` (its
        // colour bit) that is not a pawn.
        let raw = cell.raw();
        let passable = raw == 0
            || (raw < 16 && raw >> 3 == self.by.index() as u8 && raw & 7 != Kind::Pawn.index() as u8);
        let index = square.index();
        self.passable.0 = self.passable.0 & !(1 << index) | (passable as u64) << index;
        self
    }

    /// Whether some unit of `by` has a pseudo-legal move ending on `square`
    /// (holding `cell`), where a king of the other colour stands.
    #[inline(always)]
    pub fn attack(&self, square: Square, cell: Cell, single_promotions: bool) -> bool {
        let by = self.by;
        let partner = cell.piece_of(by);
        // A piece of `by` already sharing the square: a single mover joins
        // it, which a pawn forbids; a pair may never land (three pieces).
        if partner.is_some_and(|p| p.kind() == Kind::Pawn) {
            return false;
        }
        let passable = self.passable;
        let blockers = !passable;
        let pieces = |kind: Kind| self.pieces[kind.index()];
        // The rays are traced only when a slider stands on their lines.
        let (rooks, bishops) = (pieces(Kind::Rook), pieces(Kind::Bishop));
        if ((attacks::rook_rays(square) & rooks).not_empty() && (attacks::rook(square, blockers) & rooks).not_empty())
            || ((attacks::bishop_rays(square) & bishops).not_empty()
                && (attacks::bishop(square, blockers) & bishops).not_empty())
            || (attacks::king(square) & pieces(Kind::King)).not_empty()
        {
            return true;
        }
        let knights = pieces(Kind::Knight);
        if (attacks::knight_targets(square) & knights).not_empty() {
            for leg in attacks::knight_legs(square) {
                if knights.contains(Square::new(leg.target)) && leg.middles & passable.0 != 0 {
                    return true;
                }
            }
        }
        let victim = by.other();
        if (attacks::pawn(victim, square) & pieces(Kind::Pawn)).not_empty() {
            let last_rank = if by == Colour::White { 7 } else { 0 };
            return if square.rank() == last_rank {
                // A single promoted piece may stay with anything but a pawn;
                // a promoted pair only where nothing else remains.
                single_promotions || cell.len() == 1
            } else {
                // Without promotion, the pawn may not join its own piece.
                partner.is_none()
            };
        }
        false
    }
}

/// What a move removed from the board.
#[derive(Clone, Copy, Debug, Default)]
pub struct Captured {
    pub any: bool,
    /// A rook of the side not moving was captured on the destination.
    pub rook: bool,
}

impl Default for Board {
    fn default() -> Self {
        Board::empty()
    }
}

impl Board {
    pub const fn empty() -> Board {
        Board {
            cells: [Cell::EMPTY; 64],
            colour: [Bitboard::EMPTY; 2],
            kinds: [Bitboard::EMPTY; 16],
            stacked: Bitboard::EMPTY,
            hash: 0,
        }
    }

    #[inline]
    pub fn cell(&self, square: Square) -> Cell {
        self.cells[square.index()]
    }

    #[inline]
    pub fn colour(&self, colour: Colour) -> Bitboard {
        self.colour[colour.index()]
    }

    #[inline]
    pub fn pieces(&self, colour: Colour, kind: Kind) -> Bitboard {
        self.kinds[Piece::new(colour, kind).code() as usize]
    }

    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.colour[0] | self.colour[1]
    }

    #[inline]
    pub fn stacked(&self) -> Bitboard {
        self.stacked
    }

    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The king of `colour`, if there is one (positions in play have one).
    #[inline]
    pub fn king(&self, colour: Colour) -> Option<Square> {
        let kings = self.pieces(colour, Kind::King);
        kings.not_empty().then(|| kings.lowest())
    }

    /// Replaces the content of a square, keeping bitboards and hash in step.
    #[inline]
    pub fn set_cell(&mut self, square: Square, new: Cell) {
        let index = square.index();
        let old = self.cells[index];
        let bit = 1u64 << index;
        let (old_raw, new_raw) = (old.raw() as usize, new.raw() as usize);
        // Code 0 ("no piece") has a scratch entry: no branches.
        self.kinds[old_raw & 15].0 &= !bit;
        self.kinds[old_raw >> 4].0 &= !bit;
        self.kinds[new_raw & 15].0 |= bit;
        self.kinds[new_raw >> 4].0 |= bit;
        // The lower nibble holds the smaller code, so a White piece (codes
        // 1-7) shows there if there is one; Black codes have bit 3 set.
        let white = (new_raw & 15).wrapping_sub(1) < 7;
        let black = new_raw & 0x88 != 0;
        let stacked = new_raw > 15;
        self.colour[0].0 = self.colour[0].0 & !bit | (white as u64) << index;
        self.colour[1].0 = self.colour[1].0 & !bit | (black as u64) << index;
        self.stacked.0 = self.stacked.0 & !bit | (stacked as u64) << index;
        self.hash ^= zobrist::cell(square, old) ^ zobrist::cell(square, new);
        self.cells[index] = new;
    }

    #[inline]
    fn add(&mut self, square: Square, piece: Piece) {
        self.set_cell(square, self.cell(square).with(piece));
    }

    #[inline]
    fn remove(&mut self, square: Square, piece: Piece) {
        self.set_cell(square, self.cell(square).without(piece));
    }

    /// Squares the units of `colour` may pass over: empty, or exactly one
    /// piece of `colour` that is not a pawn.
    #[inline]
    pub fn passable(&self, colour: Colour) -> Bitboard {
        let lone_own = self.colour(colour) & !self.colour(colour.other()) & !self.stacked;
        !self.occupied() | (lone_own & !self.pieces(colour, Kind::Pawn))
    }

    pub fn side_masks(&self, colour: Colour) -> SideMasks {
        let own = self.colour(colour);
        let opp = self.colour(colour.other());
        let passable = self.passable(colour);
        let enemy_only = opp & !own;
        // On a mixed square, the own piece is the only own piece there.
        let mixed_own_piece = own & opp & !self.pieces(colour, Kind::Pawn);
        // Two enemy pieces of different kinds: looked for only where two
        // enemy pieces stand.
        let (mut seen, mut two_kinds) = (Bitboard::EMPTY, Bitboard::EMPTY);
        if (enemy_only & self.stacked).not_empty() {
            for kind in Kind::ALL {
                let bb = self.pieces(colour.other(), kind);
                two_kinds |= seen & bb;
                seen |= bb;
            }
        }
        SideMasks {
            own,
            opp,
            passable,
            blockers: !passable,
            single_targets: passable | enemy_only | mixed_own_piece,
            pair_targets: !self.occupied() | enemy_only,
            choices: enemy_only & two_kinds,
        }
    }

    /// The squares a piece of `kind` and `colour` on `from` reaches (before
    /// asking whether it may land there). Pawns are handled apart.
    #[inline(always)]
    pub fn reach(kind: Kind, from: Square, masks: &SideMasks) -> Bitboard {
        match kind {
            Kind::Knight => attacks::knight(from, masks.passable),
            Kind::Bishop => attacks::bishop(from, masks.blockers),
            Kind::Rook => attacks::rook(from, masks.blockers),
            Kind::King => attacks::king(from),
            Kind::Pawn => Bitboard::EMPTY,
        }
    }

    /// The squares a piece of `kind` on `from` could reach on an empty board:
    /// a superset of [`Board::reach`] (random playouts draw from it).
    #[inline]
    pub fn empty_board_reach(kind: Kind, from: Square) -> Bitboard {
        match kind {
            Kind::Knight => attacks::knight_targets(from),
            Kind::Bishop => attacks::bishop_rays(from),
            Kind::Rook => attacks::rook_rays(from),
            Kind::King => attacks::king(from),
            Kind::Pawn => Bitboard::EMPTY,
        }
    }

    /// Whether some unit of `by` has a pseudo-legal move ending on `square`,
    /// where a king of the other colour stands: it could capture that king.
    /// `single_promotions`: whether a pawn may promote to a single piece (it
    /// matters when a pawn captures onto a last-rank square that keeps
    /// another piece).
    #[inline]
    pub fn attacked(&self, square: Square, by: Colour, single_promotions: bool) -> bool {
        self.attackers(by).attack(square, self.cell(square), single_promotions)
    }

    /// What decides whether the units of `by` attack a square.
    #[inline]
    pub fn attackers(&self, by: Colour) -> Attackers {
        let code = |kind: Kind| Piece::new(by, kind).code() as usize;
        Attackers {
            by,
            passable: self.passable(by),
            pieces: [
                Bitboard::EMPTY,
                self.kinds[code(Kind::Pawn)],
                self.kinds[code(Kind::Knight)],
                self.kinds[code(Kind::Bishop)],
                self.kinds[code(Kind::Rook)],
                self.kinds[code(Kind::King)],
            ],
        }
    }

    /// The new contents of a move's from- and to-squares (castling aside;
    /// en passant's victim is on a third square).
    #[inline(always)]
    pub fn cells_after(&self, mv: Move, mover: Colour) -> (Cell, Cell) {
        let (from_cell, to_cell) = (self.cell(mv.from()), self.cell(mv.to()));
        if mv.is_pair() {
            // A pair is everything on its square, and it lands only where
            // nothing or only enemy pieces stand, capturing all of them.
            return (Cell::EMPTY, from_cell);
        }
        let first = Piece::new(mover, mv.first_kind());
        let to_cell = match mv.captured() {
            Some(kind) => to_cell.without(Piece::new(mover.other(), kind)),
            None => to_cell,
        };
        let to_cell = match mv.promotion() {
            None => to_cell.with(first),
            Some(promotion) => {
                let (a, b) = promotion.kinds();
                let to_cell = to_cell.with(Piece::new(mover, a));
                b.map_or(to_cell, |b| to_cell.with(Piece::new(mover, b)))
            }
        };
        (from_cell.without(first), to_cell)
    }

    /// Where a unit that is not the king and not on its square must land to
    /// end the attack of `by` on the king on `king`: on an attacker,
    /// between a sliding attacker and the king, on the legs of an
    /// attacking lame knight, or on the king's square. A superset.
    pub fn evasions(&self, king: Square, by: Colour) -> Bitboard {
        let blockers = !self.passable(by);
        let mut squares = Bitboard::from_square(king)
            | (attacks::pawn(by.other(), king) & self.pieces(by, Kind::Pawn))
            | (attacks::king(king) & self.pieces(by, Kind::King));
        for slider in attacks::rook(king, blockers) & self.pieces(by, Kind::Rook) {
            squares |= attacks::between(king, slider) | Bitboard::from_square(slider);
        }
        for slider in attacks::bishop(king, blockers) & self.pieces(by, Kind::Bishop) {
            squares |= attacks::between(king, slider) | Bitboard::from_square(slider);
        }
        let knights = self.pieces(by, Kind::Knight);
        for leg in attacks::knight_legs(king) {
            if knights.contains(Square::new(leg.target)) {
                squares |= Bitboard(leg.middles) | Bitboard::from_square(Square::new(leg.target));
            }
        }
        squares
    }

    /// Whether a unit of the other side leaving `square` could let a unit
    /// of `attacker` reach `king`: a slider of `attacker` of that line's
    /// kind stands past `square` on a line from `king`, or `square` is next
    /// to `king` (a lame knight's leg) with a knight of `attacker` a
    /// knight's move from `king`. Blockers are ignored: a superset.
    #[inline]
    pub fn uncovers(&self, king: Square, square: Square, attacker: Colour) -> bool {
        let (past, orthogonal) = attacks::beyond(king, square);
        let sliders = self.pieces(attacker, if orthogonal { Kind::Rook } else { Kind::Bishop });
        (past & sliders).not_empty()
            || (attacks::king(king).contains(square)
                && (attacks::knight_targets(king) & self.pieces(attacker, Kind::Knight)).not_empty())
    }

    /// Plays `mv` (a move of `mover`) on the board. Each changed square is
    /// written once: random playouts apply a move every ply.
    #[inline(always)]
    pub fn apply(&mut self, mv: Move, mover: Colour) -> Captured {
        let (from, to) = (mv.from(), mv.to());
        if mv.is_plain() && self.moves_whole_unit(from, to, mv.is_pair(), mover) {
            // Most moves: decided from the bitboards, without the new
            // cells; the unit takes everything on its target.
            let enemy = mover.other();
            let captured =
                Captured { any: self.occupied().contains(to), rook: self.pieces(enemy, Kind::Rook).contains(to) };
            if captured.any {
                self.clear(to, enemy);
            }
            self.move_unit(from, to, mover);
            return captured;
        }
        let captured = match mv.special() {
            Special::Castle => {
                self.castle(from, to, mover);
                return Captured::default();
            }
            Special::EnPassant => {
                self.remove(Square::from_coords(to.file(), from.rank()), Piece::new(mover.other(), Kind::Pawn));
                Captured { any: true, rook: false }
            }
            Special::Normal | Special::DoublePush if mv.is_pair() => {
                let victims = self.cell(to);
                Captured { any: !victims.is_empty(), rook: victims.holds_kind(Kind::Rook) }
            }
            Special::Normal | Special::DoublePush => {
                Captured { any: mv.captured().is_some(), rook: mv.captured() == Some(Kind::Rook) }
            }
        };
        let (from_cell, to_cell) = self.cells_after(mv, mover);
        if from_cell.is_empty() && to_cell == self.cell(from) {
            // The whole unit moves, capturing everything there if anything.
            if !self.cell(to).is_empty() {
                self.clear(to, mover.other());
            }
            self.move_unit(from, to, mover);
        } else {
            self.set_cell(from, from_cell);
            self.set_cell(to, to_cell);
        }
        captured
    }

    /// Whether a plain move (see [`Move::is_plain`]) from `from` to `to`
    /// carries everything on `from` onto a square it empties: a pair (it
    /// lands only on empty or enemy-only squares, taking all), or a lone
    /// piece onto an empty square or a lone enemy piece (the one it
    /// captures). Leaving or joining a companion takes the general path.
    #[inline(always)]
    fn moves_whole_unit(&self, from: Square, to: Square, pair: bool, mover: Colour) -> bool {
        let lone_or_empty = !(self.stacked | self.colour(mover));
        pair || (!self.stacked.contains(from) && lone_or_empty.contains(to))
    }

    /// Empties `square`, which holds pieces of `colour` only.
    #[inline(always)]
    fn clear(&mut self, square: Square, colour: Colour) {
        let cell = self.cells[square.index()];
        let bit = 1u64 << square.index();
        let raw = cell.raw() as usize;
        self.kinds[raw & 15].0 &= !bit;
        self.kinds[raw >> 4].0 &= !bit;
        self.colour[colour.index()].0 &= !bit;
        self.stacked.0 &= !bit;
        self.hash ^= zobrist::cell(square, cell);
        self.cells[square.index()] = Cell::EMPTY;
    }

    /// Moves everything on `from` (pieces of `mover` only) to the empty
    /// square `to`, unchanged: most moves, where [`Board::set_cell`]'s
    /// colour and stacked bits need no recomputing, each moves.
    #[inline(always)]
    fn move_unit(&mut self, from: Square, to: Square, mover: Colour) {
        let cell = self.cells[from.index()];
        let (from_bit, to_bit) = (1u64 << from.index(), 1u64 << to.index());
        let raw = cell.raw() as usize;
        // A single piece's empty upper nibble moves code 0's scratch entry;
        // two pieces of one kind move the same entry twice.
        for code in [raw & 15, raw >> 4] {
            self.kinds[code].0 = self.kinds[code].0 & !from_bit | to_bit;
        }
        let own = &mut self.colour[mover.index()].0;
        *own = *own & !from_bit | to_bit;
        let stacked = self.stacked.0 >> from.index() & 1;
        self.stacked.0 = self.stacked.0 & !from_bit | stacked << to.index();
        // The empty cell hashes to nothing.
        self.hash ^= zobrist::cell(from, cell) ^ zobrist::cell(to, cell);
        self.cells[from.index()] = Cell::EMPTY;
        self.cells[to.index()] = cell;
    }

    /// King and rook slide to their castled squares (either may leave a
    /// companion behind, and the rook may join a piece).
    fn castle(&mut self, from: Square, to: Square, mover: Colour) {
        let rank = from.rank();
        let (rook_from, rook_to) = if to.file() == 6 { (7, 5) } else { (0, 3) };
        self.remove(from, Piece::new(mover, Kind::King));
        self.add(to, Piece::new(mover, Kind::King));
        self.remove(Square::from_coords(rook_from, rank), Piece::new(mover, Kind::Rook));
        self.add(Square::from_coords(rook_to, rank), Piece::new(mover, Kind::Rook));
    }

    /// Checks that the bitboards and hash agree with the cells and that
    /// every cell keeps the capacity rules.
    pub fn check_consistency(&self) -> Result<(), String> {
        let mut rebuilt = Board::empty();
        for square in Square::all() {
            let cell = self.cell(square);
            if cell.len() == 2 {
                let (a, b) = (cell.first().unwrap_or(Piece::new(Colour::White, Kind::Pawn)), cell.second());
                if let Some(b) = b {
                    if a.colour() == b.colour() && (a.kind() == Kind::Pawn || b.kind() == Kind::Pawn) {
                        return Err(format!("a pawn shares {square} with a friendly piece"));
                    }
                    if a.code() > b.code() {
                        return Err(format!("cell {square} is not in canonical order"));
                    }
                }
            }
            rebuilt.set_cell(square, cell);
        }
        let kinds_agree = [Colour::White, Colour::Black]
            .iter()
            .all(|&c| Kind::ALL.iter().all(|&k| rebuilt.pieces(c, k) == self.pieces(c, k)));
        if rebuilt.cells != self.cells
            || rebuilt.colour != self.colour
            || !kinds_agree
            || rebuilt.stacked != self.stacked
            || rebuilt.hash != self.hash
        {
            return Err("bitboards or hash out of step with the cells".into());
        }
        Ok(())
    }
}
