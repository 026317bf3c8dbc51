//! Who attacks a square. An enemy piece on the square's board attacks it
//! when it could capture there by the move rule: traced on that board, and
//! for an off-colour capture only if the square's twin is empty (the
//! capturer has to land there). Pieces on the other board never attack.

use super::bitboard::Bitboard;
use super::piece::Kind;
use super::position::Position;
use super::square::BoardIndex;
use super::tables::{
    bishop_attacks, rook_attacks, same_parity, BETWEEN, BISHOP_LINES, KING, KNIGHT, PAWN_ATTACKS, ROOK_LINES,
};

impl Position {
    /// The pieces of side `by` on `board` attacking `cell` of that board,
    /// with `occupied` as that board's occupancy (callers pass a modified
    /// one to test a move) and `twin_occupied` saying whether the twin of
    /// `cell` is occupied (then only same-colour captures count).
    #[inline(always)]
    pub fn attackers(
        &self,
        board: BoardIndex,
        cell: usize,
        by: usize,
        occupied: Bitboard,
        twin_occupied: bool,
    ) -> Bitboard {
        let mine = self.sides[board][by];
        let kinds = &self.kinds[board];
        let queens = kinds[Kind::Queen as usize];
        let cardinals = kinds[Kind::Cardinal as usize];
        let diagonal = (queens | cardinals) & mine & BISHOP_LINES[cell];
        let orthogonal = (queens | kinds[Kind::Rook as usize]) & mine & ROOK_LINES[cell];
        let mut found = (KNIGHT[cell] & cardinals & mine)
            | (KING[cell] & kinds[Kind::King as usize] & mine)
            // A pawn of `by` attacks `cell` from where a pawn of the other
            // side on `cell` would attack.
            | (PAWN_ATTACKS[1 - by][cell] & kinds[Kind::Pawn as usize] & mine);
        if diagonal.not_empty() {
            found |= bishop_attacks(cell, occupied) & diagonal;
        }
        if orthogonal.not_empty() {
            found |= rook_attacks(cell, occupied) & orthogonal;
        }
        if twin_occupied {
            found &= same_parity(cell);
        }
        found
    }

    /// Whether some piece of `by` on `board`, other than those in
    /// `ignored` (a piece being captured), attacks `cell`: [`Self::attackers`]
    /// as a yes/no question, with the cheap leapers asked first.
    #[inline(always)]
    pub fn is_attacked(
        &self,
        board: BoardIndex,
        cell: usize,
        by: usize,
        occupied: Bitboard,
        twin_occupied: bool,
        ignored: Bitboard,
    ) -> bool {
        let mut mine = self.sides[board][by] & !ignored;
        if twin_occupied {
            mine &= same_parity(cell);
        }
        let kinds = &self.kinds[board];
        let cardinals = kinds[Kind::Cardinal as usize];
        let leapers = (KNIGHT[cell] & cardinals)
            | (KING[cell] & kinds[Kind::King as usize])
            | (PAWN_ATTACKS[1 - by][cell] & kinds[Kind::Pawn as usize]);
        if (leapers & mine).not_empty() {
            return true;
        }
        // Only sliders on the cell's lines (on an empty board) can attack
        // it, and one does when nothing stands between: a table lookup
        // each, cheaper than tracing the rays for the few there are.
        let queens = kinds[Kind::Queen as usize];
        let sliders = ((queens | cardinals) & BISHOP_LINES[cell]) | ((queens | kinds[Kind::Rook as usize]) & ROOK_LINES[cell]);
        (sliders & mine).into_iter().any(|slider| (BETWEEN[cell][slider] & occupied).is_empty())
    }

    /// The enemy pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        self.king_attackers(self.side_to_move())
    }

    /// The pieces attacking `side`'s king.
    #[inline]
    pub fn king_attackers(&self, side: usize) -> Bitboard {
        let king = self.king(side);
        let (board, cell) = (king.board(), king.cell());
        self.attackers(board, cell, 1 - side, self.occupied(board), self.occupied(1 - board).contains_index(cell))
    }
}
