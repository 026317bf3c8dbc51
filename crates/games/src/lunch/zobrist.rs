//! Zobrist keys of the incremental hash. The hash is the wrapping sum of the
//! keys of every feature of the state, so a feature that appears adds its
//! key and one that goes subtracts it, and a pile of cards adds one key per
//! card. Features with a handful of values have key tables (a piece on a
//! square, a card in a pile, castling rights, the side to move); those with
//! many values or several parts have keys computed from the feature: the
//! ones that fit a word (hit points and marks, a hold, the battle, the
//! counters: they change in every turn) by one step of SplitMix64's
//! finaliser on the packed feature, the others (a frame of the stack at its
//! depth, the weapons in play, the result) by a fixed hasher.

use super::deck::{Card, MAX_TYPES};
use super::frame::{Battle, Frame, Hold, HoldKind};
use super::piece::Piece;
use super::square::Square;
use menagerie_core::zobrist::{keys, splitmix64};
use menagerie_core::Player;
use std::hash::{Hash, Hasher};

static PIECE_KEYS: [u64; 2 * 7 * 64] = keys(0x4C55_4E43_4800_0001);
/// Per pile (White's hand, Black's hand, draw pile, discard pile) and card type.
static CARD_KEYS: [u64; 4 * MAX_TYPES] = keys(0x4C55_4E43_4800_0002);
static CASTLING_KEYS: [u64; 16] = keys(0x4C55_4E43_4800_0003);
const BLACK_TO_MOVE: u64 = 0x6C75_6E63_6862_6C6B;

// Tags that keep the computed keys of different features apart.
const MARKS: u64 = 1;
const LIMBO: u64 = 2;
const HOLD: u64 = 3;
const BATTLE: u64 = 4;
const FRAME: u64 = 5;
const COUNTERS: u64 = 6;
const RESULT: u64 = 7;

/// A fixed hasher (FxHash's step, SplitMix64's finish): the same input
/// gives the same key in every run, unlike the standard library's.
struct KeyHasher(u64);

impl KeyHasher {
    #[inline]
    fn add(&mut self, value: u64) {
        self.0 = (self.0.rotate_left(5) ^ value).wrapping_mul(0x517C_C1B7_2722_0A95);
    }
}

/// Whole numbers are mixed in one step each (a frame is a few dozen of
/// them, hashed on every change of the stack).
impl Hasher for KeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.add(u64::from(b));
        }
    }

    fn write_u8(&mut self, n: u8) {
        self.add(u64::from(n));
    }

    fn write_u16(&mut self, n: u16) {
        self.add(u64::from(n));
    }

    fn write_u32(&mut self, n: u32) {
        self.add(u64::from(n));
    }

    fn write_u64(&mut self, n: u64) {
        self.add(n);
    }

    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }

    fn write_isize(&mut self, n: isize) {
        self.add(n as u64);
    }

    fn write_i8(&mut self, n: i8) {
        self.add(n as u64);
    }

    fn finish(&self) -> u64 {
        splitmix64(self.0).1
    }
}

/// The key of a feature packed whole into the low 56 bits of a word, its
/// tag in the top byte. The finaliser is a bijection of words: different
/// features, of any tags, get different keys.
#[inline]
fn packed(tag: u64, bits: u64) -> u64 {
    debug_assert!(bits >> 56 == 0);
    splitmix64(tag << 56 | bits).1
}

/// A square or none, in 7 bits.
#[inline]
fn maybe_square(sq: Option<Square>) -> u64 {
    sq.map_or(0, |sq| sq.index() as u64 + 1)
}

fn computed(tag: u64, feature: impl Hash) -> u64 {
    let mut hasher = KeyHasher(splitmix64(tag).1);
    feature.hash(&mut hasher);
    hasher.finish()
}

/// A piece on a square: its kind and colour, and its hit points and marks
/// when they are not those of a plain piece of its kind.
#[inline]
pub fn piece(sq: Square, piece: Piece) -> u64 {
    let key = PIECE_KEYS[(piece.color.index() * 7 + piece.kind.index()) * 64 + sq.index()];
    if piece.hp == piece.kind.value() && piece.flags == 0 {
        key
    } else {
        key ^ packed(MARKS, sq.index() as u64 | u64::from(piece.hp as u8) << 8 | u64::from(piece.flags) << 16)
    }
}

/// One card of a type in a pile (`pile` 0..4: White's hand, Black's hand,
/// the draw pile, the discard pile).
#[inline]
pub fn card(pile: usize, card: Card) -> u64 {
    CARD_KEYS[pile * MAX_TYPES + card.index()]
}

#[inline]
pub fn castling(rights: u8) -> u64 {
    CASTLING_KEYS[usize::from(rights & 15)]
}

#[inline]
pub fn side(side: Player) -> u64 {
    if side == Player::Second {
        BLACK_TO_MOVE
    } else {
        0
    }
}

/// The weapons in play, in their order.
pub fn limbo(weapons: &[(Player, Card)]) -> u64 {
    if weapons.is_empty() {
        0
    } else {
        computed(LIMBO, weapons)
    }
}

pub fn hold(hold: Hold) -> u64 {
    let kind = u64::from(hold.kind == HoldKind::Headlock);
    packed(HOLD, kind | (hold.holder.index() as u64) << 1 | (hold.held.index() as u64) << 7)
}

pub fn battle(battle: Option<Battle>) -> u64 {
    battle.map_or(0, |b| {
        let squares = b.a.index() as u64 | (b.t.index() as u64) << 6;
        let ends = maybe_square(b.a_from) | maybe_square(b.result) << 7;
        let marks = u64::from(b.attacker == Player::Second) | u64::from(b.blocked) << 1 | u64::from(b.void) << 2;
        packed(BATTLE, squares | ends << 12 | (b.card.index() as u64) << 26 | marks << 34)
    })
}

/// A frame at its depth in the stack (0 at the bottom).
pub fn frame(depth: usize, frame: Frame) -> u64 {
    computed(FRAME, (depth, frame))
}

pub fn counters(quiet: u16, turns: u16, eventful: bool) -> u64 {
    packed(COUNTERS, u64::from(quiet) | u64::from(turns) << 16 | u64::from(eventful) << 32)
}

/// The game's result (`-`, a winner, a draw's reason).
pub fn result(result: impl Hash) -> u64 {
    computed(RESULT, result)
}
