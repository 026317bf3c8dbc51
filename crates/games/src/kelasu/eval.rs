//! The evaluation of a Kelasu position, for the searches of `menagerie-ai`,
//! from the view of the player who acts now.
//!
//! Material, in centi-units where a Warrior is 100. The merge costs are the
//! exchange rate the rules set (Warrior 2 Blanks, Runner and Diplomat 4,
//! Champion 5, General 10, Stone 21), but a Blank is worth more than half a
//! Warrior: it is the raw material of every piece, and it blocks. So: Blank
//! 45, Warrior 100, Runner 260 (a long-range bishop), Diplomat 240 (it
//! converts anything, Stones too, but dies doing it), Champion 300,
//! General 700 (a queen). A Stone is 800: it never moves, but each one is
//! an action every turn (Energy), merging one costs 21 Blanks, and losing
//! the last one loses the game, so the last Stone is worth a further 2000.
//!
//! Then what decides games: pieces on the four Victory Tiles (all four
//! win), rising steeply with their number; Energy left in the current turn
//! (each is one more action now); fighting pieces near the tiles; Blanks
//! off the two home ranks, where they may merge.

use super::action::Action;
use super::bitboard::Bitboard;
use super::piece::Kind;
use super::position::Board;
use super::tables::VICTORY_TILES;
use super::Kelasu;
use menagerie_core::{Evaluate, Player};

/// Centi-units by [`Kind::index`]: Blank, Warrior, Runner, Diplomat,
/// Champion, General, Stone.
const VALUE: [i32; 7] = [45, 100, 260, 240, 300, 700, 800];
const LAST_STONE: i32 = 2000;
/// Bonus by the number of one's pieces on the Victory Tiles (four win).
const TILES: [i32; 5] = [0, 40, 120, 350, 350];
/// Each action still to make this turn.
const ENERGY: i32 = 60;
/// A Blank out of its home ranks may merge.
const FREE_BLANK: i32 = 8;

impl Evaluate for Kelasu {
    fn evaluate(&self) -> i32 {
        let state = &self.state;
        let me = state.mover;
        side_value(&state.board, me) - side_value(&state.board, me.other()) + ENERGY * i32::from(state.energy)
    }

    /// Captures, Conversions and steps onto a Victory Tile (the fourth one
    /// wins at once).
    fn is_tactical(&self, action: Action) -> bool {
        if action.merged_kind().is_some() {
            return false;
        }
        let enemy = self.state.board.colours[self.state.mover.other().index()];
        enemy.contains(action.to()) || VICTORY_TILES.contains(action.to())
    }

    /// Only the piece moves onto enemy pieces or Victory Tiles: never the
    /// merges, which in a position with many Blanks number thousands.
    fn tactical_moves(&self, moves: &mut Vec<Action>) -> bool {
        moves.clear();
        let state = &self.state;
        if state.ending.is_some() || state.energy == 0 {
            return false;
        }
        let enemy = state.board.colours[state.mover.other().index()];
        state.generate_steps(moves, enemy | VICTORY_TILES);
        true
    }

    /// Piece moves first, merges second (a cut-off by a piece move never
    /// lists the merges).
    fn first_moves(&self, moves: &mut Vec<Action>) -> bool {
        moves.clear();
        let state = &self.state;
        if state.ending.is_some() || state.energy == 0 {
            return false;
        }
        state.generate_steps(moves, Bitboard::ALL);
        true
    }

    fn later_moves(&self, moves: &mut Vec<Action>) {
        let state = &self.state;
        if state.ending.is_none() && state.energy > 0 {
            state.generate_merges(moves);
        }
    }

    /// Energy left, and the Energy the turn started with: one per Stone
    /// (Stones rarely change during a turn).
    fn turn_actions(&self) -> (u32, u32) {
        let left = u32::from(self.state.energy).max(1);
        let stones = self.state.board.pieces(self.state.mover, Kind::Stone).count();
        (left, stones.max(left))
    }
}

fn side_value(board: &Board, player: Player) -> i32 {
    let own = board.colours[player.index()];
    let mut value = 0;
    for kind in Kind::ALL {
        value += VALUE[kind.index()] * board.pieces(player, kind).count() as i32;
    }
    if board.pieces(player, Kind::Stone).count() == 1 {
        value -= LAST_STONE;
    }
    value += TILES[(own & VICTORY_TILES).count() as usize];
    let fighters = own & !board.kinds[Kind::Blank.index()] & !board.kinds[Kind::Stone.index()];
    for square in fighters {
        value += near_tiles(square.rank(), square.file());
    }
    let home = match player {
        Player::First => Bitboard::ranks(0, 1),
        Player::Second => Bitboard::ranks(8, 9),
    };
    value += FREE_BLANK * (board.pieces(player, Kind::Blank) & !home).count() as i32;
    value
}

/// Up to 24 centi-units for a piece on a Victory Tile, less with distance.
fn near_tiles(rank: u8, file: u8) -> i32 {
    let off = |x: u8| if x < 4 { 4 - x } else { x.saturating_sub(5) };
    let distance = i32::from(off(rank) + off(file));
    (8 - distance).max(0) * 3
}
