//! The state a position text describes: stones with their slot masks, the
//! two kingstones, the hands and the player to move, with an incremental
//! Zobrist hash. The rule steps that change it (harvest, placement, stone
//! move, colonization) live here so that each keeps the hash in step.

use super::square::{Direction, Geometry, Square};
use super::zobrist;
use menagerie_core::Player;

/// A byte for each square (one spare), such as the directions from that
/// square to a stone: read and updated as one `u128`, stored as bytes so
/// that the board, which every turn copies for its undo, has no padding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct SquareBytes([u8; 16]);

impl SquareBytes {
    #[inline(always)]
    pub fn get(self) -> u128 {
        u128::from_le_bytes(self.0)
    }

    #[inline(always)]
    fn toggle(&mut self, marks: u128) {
        self.0 = (self.get() ^ marks).to_le_bytes();
    }
}

/// A stone's eight slots are one byte per player: bit `d` is set when that
/// player has a token in slot `d` (see [`Direction`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board {
    pub geometry: &'static Geometry,
    /// `tokens[player][square]`: the slots holding that player's tokens.
    /// Squares without a stone have no tokens. Sixteen bytes (one more than
    /// the squares) so that [`Board::token_bytes`] reads a player's tokens
    /// on every square as one `u128`.
    pub tokens: [[u8; 16]; 2],
    /// `control[player]`: the stones that player controls, one bit per
    /// square, kept in step with `tokens`: the move draw and the win test
    /// read control without counting tokens.
    pub control: [u16; 2],
    /// Squares holding a stone, one bit per square.
    pub stones: u16,
    /// Stones whose eight slots are all filled, kept in step with `tokens`:
    /// only these can be harvested, and when every stone is full no token
    /// can be placed. Every turn asks both, so neither scans the stones.
    pub full: u16,
    /// Byte `s`: the directions from square `s`
    /// (stone or not) to a square holding a stone, kept in step with
    /// `stones`. With `facing_marks` it tells every stone's acts without
    /// looking at its neighbours; one `u128` so that a stone move updates
    /// all the bytes it touches with one XOR.
    pub neighbour_marks: SquareBytes,
    /// Byte `s` of `facing_marks[player]`: the
    /// directions `d` from square `s` whose neighbour holds a `player` token
    /// in its slot `d`, the slot that a colonization from `s` through `d`
    /// would fill. Kept in step with `tokens`.
    pub facing_marks: [SquareBytes; 2],
    /// `kingstone[player]`: where that player's kingstone stands.
    pub kingstone: [Square; 2],
    pub hand: [u32; 2],
    pub to_move: Player,
    pub hash: u64,
    /// Whether full stones are harvested (the rules' step 1; off under the
    /// `no-harvest` option). Not part of the position text or hash: it is
    /// the variant's, the same in every position of a game.
    pub harvests: bool,
}

/// What a harvest did, for the counter of quiet turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Harvest {
    /// The mover's tokens that went back to the hand.
    pub returned: u32,
    /// The opponent's tokens that left the game.
    pub removed: u32,
}

impl Board {
    /// An empty board (no stones, empty hands, White to move), for builders.
    pub fn empty(geometry: &'static Geometry) -> Board {
        let mut board = Board {
            geometry,
            tokens: [[0; 16]; 2],
            control: [0; 2],
            stones: 0,
            full: 0,
            neighbour_marks: SquareBytes::default(),
            facing_marks: [SquareBytes::default(); 2],
            kingstone: [Square(0); 2],
            hand: [0; 2],
            to_move: Player::First,
            hash: 0,
            harvests: true,
        };
        board.hash = board.compute_hash();
        board
    }

    #[inline]
    pub fn has_stone(&self, square: Square) -> bool {
        self.stones & square.bit() != 0
    }

    #[inline]
    pub fn slots(&self, player: Player, square: Square) -> u8 {
        self.tokens[player.index()][square.index()]
    }

    /// Slots of the stone on `square` holding no token.
    #[inline]
    pub fn empty_slots(&self, square: Square) -> u8 {
        !(self.tokens[0][square.index()] | self.tokens[1][square.index()])
    }

    /// Byte `s`: the slots of the stone on square `s` holding `player`
    /// tokens (a player index), every square at once.
    #[inline(always)]
    pub fn token_bytes(&self, player: usize) -> u128 {
        u128::from_le_bytes(self.tokens[player])
    }

    /// Whether `player` has more tokens than the opponent on `square`.
    #[inline]
    pub fn controls(&self, player: Player, square: Square) -> bool {
        self.control[player.index()] & square.bit() != 0
    }

    /// The stones whose control `player` holds by counting their tokens
    /// (the `control` field is kept in step with this).
    fn controlled_stones(&self, player: Player) -> u16 {
        let (own, other) = (player.index(), player.other().index());
        let mut found = 0;
        for s in 0..16 {
            if self.tokens[own][s].count_ones() > self.tokens[other][s].count_ones() {
                found |= 1 << s;
            }
        }
        found
    }

    /// Sets the control bits of `square` from its tokens after they changed.
    #[inline(always)]
    fn update_control(&mut self, square: Square) {
        let s = square.index();
        let (white, black) = (self.tokens[0][s].count_ones(), self.tokens[1][s].count_ones());
        let bit = square.bit();
        self.control[0] = (self.control[0] & !bit) | if white > black { bit } else { 0 };
        self.control[1] = (self.control[1] & !bit) | if black > white { bit } else { 0 };
    }

    /// Who controls the stone on `square`, if anyone.
    pub fn controller(&self, square: Square) -> Option<Player> {
        Player::BOTH.into_iter().find(|&p| self.controls(p, square))
    }

    /// Which player's kingstone stands on `square`, if any.
    pub fn kingstone_owner(&self, square: Square) -> Option<Player> {
        if !self.has_stone(square) {
            return None;
        }
        Player::BOTH.into_iter().find(|p| self.kingstone[p.index()] == square)
    }

    /// Whether `player` controls the opponent's kingstone: the win.
    #[inline]
    pub fn controls_enemy_kingstone(&self, player: Player) -> bool {
        self.controls(player, self.kingstone[player.other().index()])
    }

    /// The stones whose eight slots are all filled, computed from the tokens
    /// (the `full` field is kept in step with this).
    pub fn full_stones(&self) -> u16 {
        let mut found = 0;
        let mut stones = self.stones;
        while stones != 0 {
            let square = Square(stones.trailing_zeros() as u8);
            stones &= stones - 1;
            if self.empty_slots(square) == 0 {
                found |= square.bit();
            }
        }
        found
    }

    /// Sets the masks kept in step with the stones and tokens (`full`,
    /// `control`, `neighbour_marks`, `facing_marks`) from those, for a board
    /// built by hand.
    pub fn recompute_caches(&mut self) {
        self.full = self.full_stones();
        self.control = Player::BOTH.map(|player| self.controlled_stones(player));
        self.neighbour_marks = SquareBytes::default();
        self.facing_marks = [SquareBytes::default(); 2];
        let mut stones = self.stones;
        while stones != 0 {
            let square = Square(stones.trailing_zeros() as u8);
            stones &= stones - 1;
            self.toggle_stone(square);
            for player in Player::BOTH {
                self.toggle_facing(player, square, self.slots(player, square));
            }
        }
    }

    /// Records in `neighbour_marks` that a stone arrives at, or leaves,
    /// `square` (the marks of a square are set exactly when it holds one).
    #[inline]
    fn toggle_stone(&mut self, square: Square) {
        self.neighbour_marks.toggle(self.geometry.stone_marks[square.index()]);
    }

    /// Records in `facing_marks` that `player`'s tokens in the slots `mask`
    /// of the stone on `square` arrive, or leave.
    #[inline]
    fn toggle_facing(&mut self, player: Player, square: Square, mask: u8) {
        let marks = &self.geometry.token_marks[square.index()];
        self.facing_marks[player.index()].toggle(marks[0][usize::from(mask & 15)] ^ marks[1][usize::from(mask >> 4)]);
    }

    /// The stones that `player` would harvest: full and controlled by them.
    #[inline]
    pub fn harvestable(&self, player: Player) -> u16 {
        if self.harvests {
            self.full & self.control[player.index()]
        } else {
            0
        }
    }

    /// The mover's hand once the harvest at the start of the turn is done.
    pub fn hand_after_harvest(&self) -> u32 {
        let mover = self.to_move.index();
        let mut hand = self.hand[mover];
        let mut stones = self.harvestable(self.to_move);
        while stones != 0 {
            let square = stones.trailing_zeros() as usize;
            stones &= stones - 1;
            hand += self.tokens[mover][square].count_ones();
        }
        hand
    }

    /// Step 1 of a turn: every full stone the mover controls is emptied; the
    /// mover's tokens on it go back to the hand, the opponent's leave the game.
    /// Inline, since most turns harvest nothing: then it is one test.
    #[inline(always)]
    pub fn harvest(&mut self) -> Harvest {
        match self.harvestable(self.to_move) {
            0 => Harvest::default(),
            stones => self.harvest_stones(stones),
        }
    }

    /// The harvest of the full controlled `stones`.
    #[inline(never)]
    fn harvest_stones(&mut self, mut stones: u16) -> Harvest {
        let mover = self.to_move;
        let mut done = Harvest::default();
        let old_hand = self.hand[mover.index()];
        while stones != 0 {
            let square = Square(stones.trailing_zeros() as u8);
            stones &= stones - 1;
            let own = self.take_all(mover, square);
            let other = self.take_all(mover.other(), square);
            self.control[mover.index()] &= !square.bit();
            done.returned += own.count_ones();
            done.removed += other.count_ones();
        }
        self.set_hand(mover, old_hand + done.returned);
        done
    }

    /// Takes all `player` tokens off the stone on `square`; the caller sets
    /// the control bits.
    fn take_all(&mut self, player: Player, square: Square) -> u8 {
        let mask = self.tokens[player.index()][square.index()];
        self.tokens[player.index()][square.index()] = 0;
        self.full &= !square.bit();
        self.hash ^= zobrist::tokens(player.index(), square.index(), mask);
        self.toggle_facing(player, square, mask);
        mask
    }

    pub fn set_hand(&mut self, player: Player, count: u32) {
        let p = player.index();
        self.hash ^= zobrist::hand(p, self.hand[p]) ^ zobrist::hand(p, count);
        self.hand[p] = count;
    }

    /// Puts a `player` token into the empty `slot` of the stone on `square`
    /// (the hand is not touched).
    #[inline]
    pub fn put_token(&mut self, player: Player, square: Square, slot: Direction) {
        self.tokens[player.index()][square.index()] |= slot.bit();
        self.hash ^= zobrist::token(player.index(), square.index(), slot.index());
        // One token: one half of the slots is empty, its marks are zero.
        let (half, nibble) = (slot.index() / 4, 1 << (slot.index() % 4));
        self.facing_marks[player.index()].toggle(self.geometry.token_marks[square.index()][half][nibble]);
        self.update_control(square);
        if self.empty_slots(square) == 0 {
            self.full |= square.bit();
        }
    }

    /// Step 2: one token from the mover's hand into an empty slot.
    pub fn place(&mut self, square: Square, slot: Direction) {
        let mover = self.to_move;
        self.set_hand(mover, self.hand[mover.index()] - 1);
        self.put_token(mover, square, slot);
    }

    /// A stone move: the stone on `from` goes one square in `dir`, tokens and
    /// kingstone mark with it. The target is on the board and empty.
    pub fn move_stone(&mut self, from: Square, dir: Direction) {
        let to = self.geometry.step(from, dir).expect("a stone moves onto the board");
        for player in Player::BOTH {
            let mask = self.take_all(player, from);
            self.tokens[player.index()][to.index()] = mask;
            self.hash ^= zobrist::tokens(player.index(), to.index(), mask);
            self.toggle_facing(player, to, mask);
            let controlled = self.control[player.index()] & from.bit() != 0;
            self.control[player.index()] = (self.control[player.index()] & !from.bit()) | u16::from(controlled) << to.0;
            if self.kingstone[player.index()] == from {
                self.kingstone[player.index()] = to;
                self.hash ^=
                    zobrist::kingstone(player.index(), from.index()) ^ zobrist::kingstone(player.index(), to.index());
            }
        }
        self.stones ^= from.bit() | to.bit();
        self.toggle_stone(from);
        self.toggle_stone(to);
        if self.empty_slots(to) == 0 {
            self.full |= to.bit();
        }
    }

    /// A colonization from `from` in `dir`: a token from the mover's hand goes
    /// into slot `dir` of the neighbouring stone, capturing an opponent token
    /// there. Returns whether a token was captured.
    pub fn colonize(&mut self, from: Square, dir: Direction) -> bool {
        let mover = self.to_move;
        let target = self.geometry.step(from, dir).expect("a colonized stone is on the board");
        let other = mover.other();
        let captured = self.slots(other, target) & dir.bit() != 0;
        if captured {
            self.tokens[other.index()][target.index()] &= !dir.bit();
            self.full &= !target.bit();
            self.toggle_facing(other, target, dir.bit());
            self.hash ^= zobrist::token(other.index(), target.index(), dir.index());
        }
        self.set_hand(mover, self.hand[mover.index()] - 1);
        self.put_token(mover, target, dir);
        captured
    }

    /// Hands the turn to the other player.
    pub fn pass_turn(&mut self) {
        self.to_move = self.to_move.other();
        self.hash ^= zobrist::black_to_move();
    }

    /// The hash recomputed from scratch (for parsing and for checks).
    pub fn compute_hash(&self) -> u64 {
        let mut hash = 0;
        for player in Player::BOTH {
            let p = player.index();
            for square in self.geometry.all_squares() {
                hash ^= zobrist::tokens(p, square.index(), self.tokens[p][square.index()]);
            }
            hash ^= zobrist::kingstone(p, self.kingstone[p].index());
            hash ^= zobrist::hand(p, self.hand[p]);
        }
        if self.to_move == Player::Second {
            hash ^= zobrist::black_to_move();
        }
        hash
    }

    /// Every token of `player`, on the board and in hand.
    pub fn tokens_of(&self, player: Player) -> u32 {
        let on_board: u32 = self.tokens[player.index()].iter().map(|m| m.count_ones()).sum();
        on_board + self.hand[player.index()]
    }

    /// Tokens on the board, both players.
    pub fn tokens_on_board(&self) -> u32 {
        self.tokens.iter().flatten().map(|m| m.count_ones()).sum()
    }
}
