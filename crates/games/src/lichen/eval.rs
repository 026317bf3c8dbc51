//! The evaluation of a Lichen Chess position, for the searches of
//! `menagerie-ai`, from the view of the player to move (the position is
//! taken between turns, before that player's harvest).
//!
//! The game is won by controlling the enemy kingstone, so its safety comes
//! first: each token of margin a player keeps on their own kingstone is
//! worth 80 (a placement moves the margin by one, and control needs the
//! margin to turn negative); each own token on the enemy kingstone 50, and
//! a token pointing at the enemy kingstone from a stone one controls (a
//! colonization threat, which also captures) 40. Then the hand: every
//! token in hand is a future placement (12 each), and an empty hand loses
//! when a placement is due (-400). Controlled stones are 30 each (they can
//! move and colonize), and tokens on the board 6 each.

use super::moves::{Act, Move};
use super::position::Board;
use super::square::{Direction, Square};
use super::Lichen;
use menagerie_core::{Evaluate, Player};

const KINGSTONE_MARGIN: i32 = 80;
const ON_ENEMY_KINGSTONE: i32 = 50;
const COLONIZE_THREAT: i32 = 40;
const HAND_TOKEN: i32 = 12;
const EMPTY_HAND: i32 = 400;
const CONTROLLED_STONE: i32 = 30;
const BOARD_TOKEN: i32 = 6;
/// The player to move places next: a tempo.
const TO_MOVE: i32 = 20;

impl Evaluate for Lichen {
    fn evaluate(&self) -> i32 {
        let board = &self.board;
        let me = board.to_move;
        side_value(board, me) - side_value(board, me.other()) + TO_MOVE
    }

    /// What quiescence follows: a token put on the enemy kingstone (by
    /// placement, with no act after it, or by colonization: that is how
    /// games are won), and
    /// colonizations that capture. Plain colonizations are half of all
    /// moves, too many to follow.
    fn is_tactical(&self, mv: Move) -> bool {
        let board = &self.board;
        let me = board.to_move;
        let enemy_king = board.kingstone[me.other().index()];
        if mv.square == enemy_king {
            // One move per slot is enough to see the threat.
            return mv.act == Act::Pass;
        }
        match mv.act {
            Act::Colonize { from, dir } => match board.geometry.step(from, dir) {
                Some(target) => target == enemy_king || board.slots(me.other(), target) & dir.bit() != 0,
                None => false,
            },
            _ => false,
        }
    }
}

fn side_value(board: &Board, player: Player) -> i32 {
    let other = player.other();
    let own_king = board.kingstone[player.index()];
    let enemy_king = board.kingstone[other.index()];
    let count = |p: Player, s: Square| board.slots(p, s).count_ones() as i32;

    let mut value = KINGSTONE_MARGIN * (count(player, own_king) - count(other, own_king));
    value += ON_ENEMY_KINGSTONE * count(player, enemy_king);
    value += HAND_TOKEN * board.hand[player.index()] as i32;
    if board.hand[player.index()] == 0 {
        value -= EMPTY_HAND;
    }
    let mut stones = board.stones;
    while stones != 0 {
        let square = Square(stones.trailing_zeros() as u8);
        stones &= stones - 1;
        let mine = board.slots(player, square);
        value += BOARD_TOKEN * mine.count_ones() as i32;
        if board.controls(player, square) {
            value += CONTROLLED_STONE;
            for dir in Direction::all() {
                if mine & dir.bit() != 0
                    && board.geometry.step(square, dir) == Some(enemy_king)
                    && board.slots(player, enemy_king) & dir.bit() == 0
                {
                    value += COLONIZE_THREAT;
                }
            }
        }
    }
    value
}
