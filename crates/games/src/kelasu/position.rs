//! The state of a turn (the board, mover, Energy left, spent pieces,
//! counters), with the effect of one action, the end-of-game checks and the
//! passing of the turn.

use super::bitboard::Bitboard;
use super::board::Board;
use super::moves::Action;
use super::piece::Kind;
use super::square::Square;
use super::tables::VICTORY_TILES;
use super::zobrist;
use menagerie_core::Player;

/// How a game ended: the winner (`None` for a draw) and why.
pub type Ending = (Option<Player>, &'static str);

/// Everything the position text says, plus the hash and the result.
#[derive(Clone, Copy, Debug)]
pub struct State {
    pub board: Board,
    /// The mover's pieces that have acted this turn.
    pub spent: Bitboard,
    pub mover: Player,
    pub energy: u8,
    pub quiet: u32,
    pub turn: u32,
    pub hash: u64,
    pub ending: Option<Ending>,
    /// How many turn-start hashes the repetition record held in this state.
    pub recorded_turn_starts: u32,
}

/// Draws when the quiet counter reaches this.
pub const QUIET_LIMIT: u32 = 128;

impl State {
    /// The hash from scratch (the incremental one must equal it).
    pub fn compute_hash(&self) -> u64 {
        let mut h = self.board.hash() ^ zobrist::energy(self.energy);
        for sq in self.spent {
            h ^= zobrist::spent(sq);
        }
        if self.mover == Player::Second {
            h ^= zobrist::RED_TO_MOVE;
        }
        h
    }

    #[inline]
    fn toggle_piece(&mut self, player: Player, kind: Kind, sq: Square) {
        self.board.toggle(player, kind, Bitboard::from_square(sq));
        self.hash ^= zobrist::piece(player, kind, sq);
    }

    #[inline]
    fn set_energy(&mut self, energy: u8) {
        self.hash ^= zobrist::energy(self.energy) ^ zobrist::energy(energy);
        self.energy = energy;
    }

    /// The kind of the mover's piece on `sq`; `sq` must hold one.
    #[inline]
    fn own_kind_at(&self, sq: Square) -> Kind {
        self.board.kind_at(sq).unwrap_or(Kind::Blank)
    }

    /// Whether this is the very start of a turn: nothing spent, all Energy
    /// left (one per Stone). Only such positions count for repetition.
    pub fn is_turn_start(&self) -> bool {
        self.spent.is_empty() && u32::from(self.energy) == self.board.pieces(self.mover, Kind::Stone).count()
    }

    /// Plays one legal action of the mover and checks for a win. Does not
    /// pass the turn (the caller does, see [`State::pass_turn`]).
    pub fn apply(&mut self, action: Action) {
        let us = self.mover;
        let them = us.other();
        match action.merged_kind() {
            Some(kind) => {
                let squares = action.squares();
                for sq in squares {
                    self.toggle_piece(us, Kind::Blank, sq);
                }
                self.toggle_piece(us, kind, action.from());
                let cost = squares.count().min(255) as u8;
                self.set_energy(self.energy.saturating_sub(cost));
                self.quiet = 0;
            }
            None => {
                let (from, to) = (action.from(), action.to());
                let kind = self.own_kind_at(from);
                let target = self.board.kind_at(to);
                if kind == Kind::Diplomat && target.is_some() {
                    // Conversion: the Diplomat leaves the board and the
                    // enemy piece changes colour where it stands, unspent.
                    let converted = target.unwrap_or(Kind::Blank);
                    self.toggle_piece(us, Kind::Diplomat, from);
                    self.toggle_piece(them, converted, to);
                    self.toggle_piece(us, converted, to);
                    self.quiet = 0;
                } else {
                    if let Some(captured) = target {
                        self.toggle_piece(them, captured, to);
                        self.quiet = 0;
                    }
                    self.toggle_piece(us, kind, from);
                    self.toggle_piece(us, kind, to);
                    self.spent |= Bitboard::from_square(to);
                    self.hash ^= zobrist::spent(to);
                    if kind == Kind::Blank {
                        self.quiet = 0;
                    }
                }
                self.set_energy(self.energy - 1);
            }
        }
        self.ending = self.win_check();
    }

    /// The rules' win checks after an action, in order: the mover on all
    /// four Victory Tiles; the opponent without Stones or without other
    /// pieces; the mover without Stones or without other pieces.
    pub fn win_check(&self) -> Option<Ending> {
        let us = self.mover;
        let them = us.other();
        let ours = self.board.colours[us.index()];
        let theirs = self.board.colours[them.index()];
        let stones = self.board.kinds[Kind::Stone.index()];
        if (ours & VICTORY_TILES) == VICTORY_TILES {
            return Some((Some(us), "holds all four Victory Tiles"));
        }
        if (theirs & stones).is_empty() {
            return Some((Some(us), "the opponent has no Stones left"));
        }
        if (theirs & !stones).is_empty() {
            return Some((Some(us), "the opponent has only Stones left"));
        }
        if (ours & stones).is_empty() {
            return Some((Some(them), "the mover has no Stones left"));
        }
        if (ours & !stones).is_empty() {
            return Some((Some(them), "the mover has only Stones left"));
        }
        None
    }

    /// Hands the turn to the opponent: nothing spent, Energy = the new
    /// mover's Stones, the quiet counter and turn number up by one.
    pub fn pass_turn(&mut self) {
        for sq in self.spent {
            self.hash ^= zobrist::spent(sq);
        }
        self.spent = Bitboard::EMPTY;
        self.mover = self.mover.other();
        self.hash ^= zobrist::RED_TO_MOVE;
        let stones = self.board.pieces(self.mover, Kind::Stone).count().min(255) as u8;
        self.set_energy(stones);
        self.quiet = self.quiet.saturating_add(1);
        self.turn = self.turn.saturating_add(1);
    }
}
