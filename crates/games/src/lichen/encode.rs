//! The action space and observation tensor (documented in docs/lichen.md).
//!
//! A move is a whole turn: the placement `<square><slot>` then the act.
//! Action = `(square * 8 + slot) * (1 + 2 * S * 8) + act` where S is the
//! number of squares (15, or 9 on 3x3), squares are numbered
//! `file + files * (rank - 1)` and directions n, ne, e, se, s, sw, w, nw
//! are 0..8; `act` is 0 for none, `1 + from * 8 + dir` for a stone move
//! `;<from>><dir>` and `1 + S * 8 + from * 8 + dir` for a colonization
//! `;<from>*<dir>`. An index always names one text.

use super::moves::{Act, Move};
use super::{movegen, notation};
use super::square::{Direction, Square, RANKS};
use super::{Lichen, LichenVariant, QUIET_TURN_LIMIT};
use menagerie_core::encode::fill_plane;
use menagerie_core::{Encode, Game, Player};

fn acts(squares: usize) -> usize {
    1 + 2 * squares * 8
}

/// Planes, each player's in turn (the one to move first): a plane per
/// slot with that player's tokens (8), the kingstone, the tokens in hand
/// / 16; then the stones, whose turn it is (1 when Black) and the quiet
/// turns / 200.
const PLAYER_PLANES: usize = 8 + 1 + 1;
const PLANES: usize = 2 * PLAYER_PLANES + 3;

impl Encode for Lichen {
    fn num_distinct_actions(variant: &LichenVariant) -> usize {
        let squares = variant.geometry().squares as usize;
        squares * 8 * acts(squares)
    }

    fn action(&self, mv: Move) -> usize {
        let squares = self.variant.geometry().squares as usize;
        let act = match mv.act {
            Act::Pass => 0,
            Act::Step { from, dir } => 1 + from.index() * 8 + dir.index(),
            Act::Colonize { from, dir } => 1 + (squares + from.index()) * 8 + dir.index(),
        };
        (mv.square.index() * 8 + mv.slot.index()) * acts(squares) + act
    }

    /// Listed in action order ([`movegen::generate_by_action`]): a turn
    /// has hundreds of moves, and sorting them cost a Python playout more
    /// than listing them.
    fn numbered_moves(&self, moves: &mut Vec<Move>, actions: &mut Vec<usize>) {
        moves.clear();
        if self.ending.is_none() {
            self.with_harvested(|board| movegen::generate_by_action(board, moves));
        }
        actions.clear();
        actions.extend(moves.iter().map(|&mv| self.action(mv)));
        debug_assert!(actions.is_sorted(), "moves listed out of action order in {}", self.to_text());
    }

    fn action_text(variant: &LichenVariant, action: usize) -> Option<String> {
        if action >= Self::num_distinct_actions(variant) {
            return None;
        }
        let geometry = variant.geometry();
        let squares = geometry.squares as usize;
        let placement = action / acts(squares);
        let square = Square((placement / 8) as u8);
        let slot = Direction((placement % 8) as u8);
        let act = match action % acts(squares) {
            0 => Act::Pass,
            a if a <= squares * 8 => Act::Step { from: Square(((a - 1) / 8) as u8), dir: Direction(((a - 1) % 8) as u8) },
            a => {
                let c = a - 1 - squares * 8;
                Act::Colonize { from: Square((c / 8) as u8), dir: Direction((c % 8) as u8) }
            }
        };
        Some(notation::write(geometry, Move { square, slot, act }))
    }

    /// Not proven: the game ends after 200 quiet turns and at a third
    /// repetition, and a token that leaves the game never comes back, but
    /// tokens may go back to a hand again and again. Random play ends far
    /// sooner (the encoding test checks its games against it).
    fn max_game_length(_variant: &LichenVariant) -> usize {
        100 * QUIET_TURN_LIMIT as usize
    }

    fn observation_shape(variant: &LichenVariant) -> Vec<usize> {
        let geometry = variant.geometry();
        vec![PLANES, RANKS as usize, geometry.files as usize]
    }

    fn observe(&self, _viewer: Player, out: &mut [f32]) {
        let board = &self.board;
        let cells = board.geometry.squares as usize;
        let mover = board.to_move;
        for (seat, player) in [mover, mover.other()].into_iter().enumerate() {
            let base = seat * PLAYER_PLANES;
            for square in 0..cells {
                let slots = board.tokens[player.index()][square];
                for slot in 0..8 {
                    if slots & (1 << slot) != 0 {
                        out[(base + slot) * cells + square] = 1.0;
                    }
                }
            }
            out[(base + 8) * cells + board.kingstone[player.index()].index()] = 1.0;
            fill_plane(out, cells, base + 9, board.hand[player.index()] as f32 / 16.0);
        }
        let stones = 2 * PLAYER_PLANES;
        for square in 0..cells {
            if board.stones & (1 << square) != 0 {
                out[stones * cells + square] = 1.0;
            }
        }
        fill_plane(out, cells, stones + 1, mover.index() as f32);
        fill_plane(out, cells, stones + 2, self.quiet_turns as f32 / QUIET_TURN_LIMIT as f32);
    }
}
