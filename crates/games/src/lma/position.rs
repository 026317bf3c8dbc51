//! The position: per board, one bitboard per side and one per kind, plus
//! side to move, castling rights, clocks and the incremental hash. It is
//! `Copy` (about 140 bytes): the game keeps a stack of copies for undo and
//! repetition, which measured cheaper than unmaking moves.

use super::bitboard::Bitboard;
use super::castling::{CASTLES, RIGHTS_KEPT};
use super::moves::{Move, Special};
use super::piece::{Kind, BLACK, KINDS};
use super::square::{BoardIndex, Square};
use super::zobrist;

#[derive(Clone, Copy, Debug)]
pub struct Position {
    /// `sides[board][side]`: every piece of a side on a board.
    pub sides: [[Bitboard; 2]; 2],
    /// `kinds[board][kind]`: every piece of a kind (both sides) on a board.
    pub kinds: [[Bitboard; 5]; 2],
    /// 0 White, 1 Black (a byte, to keep the position within 128 bytes:
    /// copies of it are the undo stack).
    side: u8,
    pub castling: u8,
    /// Plies since the last capture or pawn move.
    pub halfmove: u32,
    pub hash: u64,
}

impl Position {
    pub fn empty() -> Position {
        Position {
            sides: [[Bitboard::EMPTY; 2]; 2],
            kinds: [[Bitboard::EMPTY; 5]; 2],
            side: 0,
            castling: 0,
            halfmove: 0,
            hash: zobrist::castling(0),
        }
    }

    /// 0 White, 1 Black.
    #[inline(always)]
    pub fn side_to_move(&self) -> usize {
        self.side as usize
    }

    pub fn set_side_to_move(&mut self, side: usize) {
        if side != self.side_to_move() {
            self.side = side as u8;
            self.hash ^= zobrist::BLACK_TO_MOVE;
        }
    }

    #[inline(always)]
    pub fn occupied(&self, board: BoardIndex) -> Bitboard {
        self.sides[board][0] | self.sides[board][1]
    }

    #[inline(always)]
    pub fn pieces(&self, board: BoardIndex, side: usize, kind: Kind) -> Bitboard {
        self.sides[board][side] & self.kinds[board][kind as usize]
    }

    /// The kind on an occupied square.
    #[inline(always)]
    pub fn kind_at(&self, board: BoardIndex, cell: usize) -> Kind {
        let kinds = &self.kinds[board];
        // Pawns first: they are the most common.
        if kinds[Kind::Pawn as usize].contains_index(cell) {
            Kind::Pawn
        } else if kinds[Kind::Cardinal as usize].contains_index(cell) {
            Kind::Cardinal
        } else if kinds[Kind::Rook as usize].contains_index(cell) {
            Kind::Rook
        } else if kinds[Kind::Queen as usize].contains_index(cell) {
            Kind::Queen
        } else {
            Kind::King
        }
    }

    pub fn piece_at(&self, square: Square) -> Option<(usize, Kind)> {
        let (board, cell) = (square.board(), square.cell());
        let side = (0..2).find(|&side| self.sides[board][side].contains_index(cell))?;
        Some((side, self.kind_at(board, cell)))
    }

    /// The king of `side` (the position must have one).
    #[inline(always)]
    pub fn king(&self, side: usize) -> Square {
        let on_first = self.pieces(0, side, Kind::King);
        if on_first.not_empty() {
            Square::new(0, on_first.lowest_index())
        } else {
            Square::new(1, self.pieces(1, side, Kind::King).lowest_index())
        }
    }

    #[inline(always)]
    pub fn put(&mut self, side: usize, kind: Kind, square: Square) {
        let bit = Bitboard::from_index(square.cell());
        self.sides[square.board()][side] |= bit;
        self.kinds[square.board()][kind as usize] |= bit;
        self.hash ^= zobrist::piece(side, kind, square);
    }

    #[inline(always)]
    pub fn remove(&mut self, side: usize, kind: Kind, square: Square) {
        let bit = Bitboard::from_index(square.cell());
        self.sides[square.board()][side] ^= bit;
        self.kinds[square.board()][kind as usize] ^= bit;
        self.hash ^= zobrist::piece(side, kind, square);
    }

    pub fn set_castling(&mut self, rights: u8) {
        self.hash ^= zobrist::castling(self.castling) ^ zobrist::castling(rights);
        self.castling = rights;
    }

    /// Same pieces on the same squares, same side to move, same rights:
    /// what threefold repetition compares.
    #[inline]
    pub fn same_game_state(&self, other: &Position) -> bool {
        self.hash == other.hash
            && self.sides == other.sides
            && self.kinds == other.kinds
            && self.side == other.side
            && self.castling == other.castling
    }

    /// The hash computed from scratch (the incremental one must equal it).
    pub fn compute_hash(&self) -> u64 {
        let mut hash = zobrist::castling(self.castling);
        if self.side_to_move() == BLACK {
            hash ^= zobrist::BLACK_TO_MOVE;
        }
        for board in 0..2 {
            for side in 0..2 {
                for kind in KINDS {
                    for cell in self.pieces(board, side, kind) {
                        hash ^= zobrist::piece(side, kind, Square::new(board, cell));
                    }
                }
            }
        }
        hash
    }

    /// Plays a legal move. A capture always takes the enemy piece on the
    /// *source* board at the target cell, whichever board the mover lands on.
    #[inline]
    pub fn apply(&mut self, mv: Move) {
        let us = self.side_to_move();
        let them = 1 - us;
        let kind = self.kind_at(mv.from.board(), mv.from.cell());
        let captured_on = Square::new(mv.from.board(), mv.to.cell());
        let mut irreversible = kind == Kind::Pawn;
        if self.sides[captured_on.board()][them].contains_index(captured_on.cell()) {
            let victim = self.kind_at(captured_on.board(), captured_on.cell());
            self.remove(them, victim, captured_on);
            irreversible = true;
        }
        self.remove(us, kind, mv.from);
        match mv.special {
            Special::Plain => self.put(us, kind, mv.to),
            Special::Promote(promoted) => self.put(us, promoted, mv.to),
            Special::Castle(index) => {
                let castle = &CASTLES[index as usize];
                // King-side the king lands on the rook's home square:
                // move the rook out first.
                self.remove(us, Kind::Rook, castle.rook_from);
                self.put(us, Kind::Rook, castle.rook_to);
                self.put(us, Kind::King, mv.to);
            }
        }
        // Most plies of a game come after both sides lost their rights.
        if self.castling != 0 {
            let index = |sq: Square| (sq.board() << 6) | sq.cell();
            let rights = self.castling
                & RIGHTS_KEPT[index(mv.from)]
                & RIGHTS_KEPT[index(mv.to)]
                & RIGHTS_KEPT[index(captured_on)];
            if rights != self.castling {
                self.set_castling(rights);
            }
        }
        self.halfmove = if irreversible { 0 } else { self.halfmove.saturating_add(1) };
        self.side = them as u8;
        self.hash ^= zobrist::BLACK_TO_MOVE;
    }
}
const _: () = assert!(std::mem::size_of::<Position>() <= 128, "the undo stack copies positions: keep them small");
