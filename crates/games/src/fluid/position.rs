//! The full state of a game at one moment (what the position text says,
//! plus the repetition key), and how a move changes it.

use super::attacks;
use super::bitboard::Bitboard;
use super::board::{Board, Captured};
use super::moves::{Move, Special};
use super::piece::{Colour, Kind, Promotion};
use super::square::Square;
use super::zobrist;

/// Castling-right bits: White king side, White queen side, Black king side,
/// Black queen side.
pub const WHITE_KING_SIDE: u8 = 1;
pub const WHITE_QUEEN_SIDE: u8 = 2;
pub const BLACK_KING_SIDE: u8 = 4;
pub const BLACK_QUEEN_SIDE: u8 = 8;

/// The king-side and queen-side castling bits of `colour`.
pub const fn rights_of(colour: Colour) -> (u8, u8) {
    match colour {
        Colour::White => (WHITE_KING_SIDE, WHITE_QUEEN_SIDE),
        Colour::Black => (BLACK_KING_SIDE, BLACK_QUEEN_SIDE),
    }
}

/// Which promotion rule a variant plays: the only thing the three variant
/// ids change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PromotionRule {
    /// `fluid`: Queen (B+R), Rook, Bishop or Knight.
    Standard,
    /// `fluid-single-promo` (Optional Rule 1): Rook, Bishop or Knight.
    SingleOnly,
    /// `fluid-double-promo` (Optional Rule 2): Queen, Paladin (B+N) or
    /// Chancellor (R+N).
    PairsOnly,
}

/// The variant data the rules need in the hot paths.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    pub promotion: PromotionRule,
    pub promotions: &'static [Promotion],
    /// Whether a pawn may promote to a single piece.
    pub single_promotions: bool,
}

impl Rules {
    pub const fn new(promotion: PromotionRule) -> Rules {
        match promotion {
            PromotionRule::Standard => Rules {
                promotion,
                promotions: &[Promotion::Queen, Promotion::Rook, Promotion::Bishop, Promotion::Knight],
                single_promotions: true,
            },
            PromotionRule::SingleOnly => Rules {
                promotion,
                promotions: &[Promotion::Rook, Promotion::Bishop, Promotion::Knight],
                single_promotions: true,
            },
            PromotionRule::PairsOnly => Rules {
                promotion,
                promotions: &[Promotion::Queen, Promotion::Paladin, Promotion::Chancellor],
                single_promotions: false,
            },
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct State {
    pub board: Board,
    pub side: Colour,
    pub castling: u8,
    /// The square a pawn skipped with the last move's double step.
    pub en_passant: Option<Square>,
    pub halfmove_clock: u32,
    pub fullmove_number: u32,
    /// The hash, without the en-passant square unless an en-passant
    /// capture is legal: equal keys are "the same position" for repetition.
    pub repetition_key: u64,
    /// Whether the side to move stands in check: kept by [`State::play`],
    /// which asks the attackers only after a move that could give check.
    pub in_check: bool,
}

impl State {
    /// The hash of everything the position text says.
    #[inline]
    pub fn hash(&self) -> u64 {
        let mut hash = self.board.hash() ^ zobrist::castling(self.castling);
        if self.side == Colour::Black {
            hash ^= zobrist::black_to_move();
        }
        if let Some(square) = self.en_passant {
            hash ^= zobrist::en_passant_file(square.file());
        }
        hash
    }

    /// Plays a legal move. The repetition key becomes the plain hash: the
    /// game drops the en-passant square from it when no capture there is
    /// legal (that takes move generation).
    pub fn play(&mut self, mv: Move, rules: &Rules) {
        let side = self.side;
        let captured = self.board.apply(mv, side);
        if self.castling != 0 && touches_castling_home(mv) {
            self.update_castling(mv, side, captured);
        }
        self.en_passant = match mv.special() {
            Special::DoublePush => Some(Square::from_coords(mv.from().file(), (mv.from().rank() + mv.to().rank()) / 2)),
            _ => None,
        };
        if captured.any || mv.first_kind() == Kind::Pawn {
            self.halfmove_clock = 0;
        } else {
            self.halfmove_clock = self.halfmove_clock.saturating_add(1);
        }
        if side == Colour::Black {
            self.fullmove_number = self.fullmove_number.saturating_add(1);
        }
        self.side = side.other();
        self.repetition_key = self.hash();
        self.in_check = self.board.king(self.side).is_some_and(|king| {
            may_give_check(&self.board, mv, side, king, captured.any)
                && self.board.attacked(king, side, rules.single_promotions)
        });
    }

    /// Drops the castling rights `mv` (just played by `side`) ends: its
    /// king moved, or a rook left its corner or was captured there.
    #[inline]
    fn update_castling(&mut self, mv: Move, side: Colour, captured: Captured) {
        let home_rank = if side == Colour::White { 0 } else { 7 };
        let (king_side, queen_side) = rights_of(side);
        if mv.moves_kind(Kind::King) {
            self.castling &= !(king_side | queen_side);
        } else if mv.moves_kind(Kind::Rook) && mv.from().rank() == home_rank {
            match mv.from().file() {
                7 => self.castling &= !king_side,
                0 => self.castling &= !queen_side,
                _ => {}
            }
        }
        let enemy_rank = 7 - home_rank;
        if captured.rook && mv.to().rank() == enemy_rank {
            let (enemy_king_side, enemy_queen_side) = rights_of(side.other());
            match mv.to().file() {
                7 => self.castling &= !enemy_king_side,
                0 => self.castling &= !enemy_queen_side,
                _ => {}
            }
        }
    }
}

/// Whether `mv` leaves or lands on a king's or rook's home square: the
/// castling rights change only then (a right stands only while its king
/// and rook stand there, see the position text and
/// [`State::update_castling`]), so most moves skip decoding their kinds.
#[inline]
fn touches_castling_home(mv: Move) -> bool {
    const HOMES: Bitboard = Bitboard(1 | 1 << 4 | 1 << 7 | 1 << 56 | 1 << 60 | 1 << 63);
    (HOMES & (Bitboard::from_square(mv.from()) | Bitboard::from_square(mv.to()))).not_empty()
}

/// Whether `mv`, just played by `mover` onto `board`, could have given
/// check to the king on `king`: the moved unit could reach it from its
/// new square on an empty board, or the move left a square (or captured
/// on one, which a single piece may then leave passable) on a line or a
/// lame knight's leg between the king and a piece of `mover` (see
/// [`Board::uncovers`]), or left the king's own square; promotions, en
/// passant and castling always could. A superset: the attackers are asked
/// only when it holds.
fn may_give_check(board: &Board, mv: Move, mover: Colour, king: Square, captured: bool) -> bool {
    if !mv.is_plain() {
        return true;
    }
    let (from, to) = (mv.from(), mv.to());
    from == king
        || attacks::reaches_on_empty_board(mv.first_kind(), mover, to, king)
        || mv.second_kind().is_some_and(|kind| attacks::reaches_on_empty_board(kind, mover, to, king))
        || board.uncovers(king, from, mover)
        || (captured && board.uncovers(king, to, mover))
}
