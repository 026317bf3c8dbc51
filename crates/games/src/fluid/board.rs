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
    /// Indexed by colour; slot 2 is scratch, written for "no piece" so that
    /// [`Board::set_cell`] needs no branches.
    colour: [Bitboard; 3],
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
            colour: [Bitboard::EMPTY; 3],
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
        // Colour slot of a piece code: 0 White, 1 Black, 2 for "no piece".
        const COLOUR_SLOT: [usize; 16] = [2, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1];
        let old = self.cells[square.index()];
        let bit = Bitboard::from_square(square);
        let (old_low, old_high) = ((old.raw() & 15) as usize, (old.raw() >> 4) as usize);
        let (new_low, new_high) = ((new.raw() & 15) as usize, (new.raw() >> 4) as usize);
        self.colour[COLOUR_SLOT[old_low]] &= !bit;
        self.colour[COLOUR_SLOT[old_high]] &= !bit;
        self.kinds[old_low] &= !bit;
        self.kinds[old_high] &= !bit;
        self.colour[COLOUR_SLOT[new_low]] |= bit;
        self.colour[COLOUR_SLOT[new_high]] |= bit;
        self.kinds[new_low] |= bit;
        self.kinds[new_high] |= bit;
        self.stacked = Bitboard(self.stacked.0 & !bit.0 | ((new_high != 0) as u64) << square.index());
        self.hash ^= zobrist::cell(square, old) ^ zobrist::cell(square, new);
        self.cells[square.index()] = new;
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
        let (mut seen, mut two_kinds) = (Bitboard::EMPTY, Bitboard::EMPTY);
        for kind in Kind::ALL {
            let bb = self.pieces(colour.other(), kind);
            two_kinds |= seen & bb;
            seen |= bb;
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
    #[inline]
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
    pub fn attacked(&self, square: Square, by: Colour, single_promotions: bool) -> bool {
        let cell = self.cell(square);
        let partner = cell.piece_of(by);
        // A piece of `by` already sharing the square: a single mover joins
        // it, which a pawn forbids; a pair may never land (three pieces).
        if partner.is_some_and(|p| p.kind() == Kind::Pawn) {
            return false;
        }
        let passable = self.passable(by);
        let blockers = !passable;
        if (attacks::rook(square, blockers) & self.pieces(by, Kind::Rook)).not_empty()
            || (attacks::bishop(square, blockers) & self.pieces(by, Kind::Bishop)).not_empty()
            || (attacks::king(square) & self.pieces(by, Kind::King)).not_empty()
        {
            return true;
        }
        let knights = self.pieces(by, Kind::Knight);
        if (attacks::knight_targets(square) & knights).not_empty() {
            for leg in attacks::knight_legs(square) {
                if knights.contains(Square::new(leg.target)) && leg.middles & passable.0 != 0 {
                    return true;
                }
            }
        }
        let victim = by.other();
        if (attacks::pawn(victim, square) & self.pieces(by, Kind::Pawn)).not_empty() {
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
    /// written once: random playouts apply a move every ply, and legality
    /// tests apply some more on copies.
    pub fn apply(&mut self, mv: Move, mover: Colour) -> Captured {
        let (from, to) = (mv.from(), mv.to());
        let enemy = mover.other();
        let (from_cell, mut to_cell) = (self.cell(from), self.cell(to));
        let mut captured = Captured::default();
        match mv.special() {
            Special::Castle => {
                self.castle(from, to, mover);
                return captured;
            }
            Special::EnPassant => {
                self.remove(Square::from_coords(to.file(), from.rank()), Piece::new(enemy, Kind::Pawn));
                captured.any = true;
            }
            Special::Normal | Special::DoublePush => {}
        }
        if mv.is_pair() {
            // A pair is everything on its square, and it lands only where
            // nothing or only enemy pieces stand, capturing all of them.
            captured.any = !to_cell.is_empty();
            captured.rook = to_cell.holds_kind(Kind::Rook);
            self.set_cell(from, Cell::EMPTY);
            self.set_cell(to, from_cell);
            return captured;
        }
        let first = Piece::new(mover, mv.first_kind());
        self.set_cell(from, from_cell.without(first));
        if let Some(kind) = mv.captured() {
            to_cell = to_cell.without(Piece::new(enemy, kind));
            captured.any = true;
            captured.rook = kind == Kind::Rook;
        }
        to_cell = match mv.promotion() {
            None => to_cell.with(first),
            Some(promotion) => {
                let (a, b) = promotion.kinds();
                let to_cell = to_cell.with(Piece::new(mover, a));
                b.map_or(to_cell, |b| to_cell.with(Piece::new(mover, b)))
            }
        };
        self.set_cell(to, to_cell);
        captured
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
            || rebuilt.colour[..2] != self.colour[..2]
            || !kinds_agree
            || rebuilt.stacked != self.stacked
            || rebuilt.hash != self.hash
        {
            return Err("bitboards or hash out of step with the cells".into());
        }
        Ok(())
    }
}
