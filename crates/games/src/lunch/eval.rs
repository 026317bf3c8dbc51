//! A plain static evaluation for searches: hit points on the board (a Pawn
//! is 100), a King counted heavily since losing it loses the game, and a
//! little for cards in hand. From the view of the player who acts now.

use super::board::Kind;
use super::moves::Move;
use super::Lunch;
use menagerie_core::{Evaluate, Game};

impl Evaluate for Lunch {
    fn evaluate(&self) -> i32 {
        let s = self.state();
        let me = match self.to_act() {
            menagerie_core::Actor::Player(p) => p,
            menagerie_core::Actor::Chance => s.side,
        };
        let mut score = 0i32;
        for piece in s.board.iter().flatten() {
            let value = if piece.kind == Kind::King { 5000 } else { 100 * piece.hp as i32 };
            score += if piece.color == me { value } else { -value };
        }
        score += 10 * (s.hand_size(me) as i32 - s.hand_size(me.other()) as i32);
        score
    }

    fn is_tactical(&self, mv: Move) -> bool {
        matches!(mv, Move::Attack { .. } | Move::Free { .. } | Move::Humiliate { .. } | Move::Answer { .. })
    }
}
