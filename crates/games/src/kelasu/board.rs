//! The board: bitboards per colour and per kind.

use super::bitboard::Bitboard;
use super::piece::Kind;
use super::square::Square;
use super::zobrist;
use menagerie_core::Player;

/// Where every piece stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board {
    pub colours: [Bitboard; 2],
    pub kinds: [Bitboard; 7],
}

impl Board {
    pub const EMPTY: Board = Board { colours: [Bitboard::EMPTY; 2], kinds: [Bitboard::EMPTY; 7] };

    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.colours[0] | self.colours[1]
    }

    #[inline]
    pub fn pieces(&self, player: Player, kind: Kind) -> Bitboard {
        self.colours[player.index()] & self.kinds[kind.index()]
    }

    pub fn kind_at(&self, sq: Square) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| self.kinds[k.index()].contains(sq))
    }

    pub fn colour_at(&self, sq: Square) -> Option<Player> {
        Player::BOTH.into_iter().find(|p| self.colours[p.index()].contains(sq))
    }

    pub fn piece_at(&self, sq: Square) -> Option<(Player, Kind)> {
        Some((self.colour_at(sq)?, self.kind_at(sq)?))
    }

    /// Adds or removes a piece (the same toggle either way).
    #[inline]
    pub fn toggle(&mut self, player: Player, kind: Kind, squares: Bitboard) {
        self.colours[player.index()] ^= squares;
        self.kinds[kind.index()] ^= squares;
    }

    /// The hash of the pieces alone.
    pub fn hash(&self) -> u64 {
        let mut h = 0;
        for player in Player::BOTH {
            for kind in Kind::ALL {
                for sq in self.pieces(player, kind) {
                    h ^= zobrist::piece(player, kind, sq);
                }
            }
        }
        h
    }
}
