//! Moves of the game model: every decision a player makes is one move
//! (texts: `notation`).

use super::piece::Kind;
use super::square::Square;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// A movement (castling is the King's two-square move).
    Step { from: Square, to: Square },
    /// Discard 1 to 5 cards: card types in deck order, `NO_CARD` padding.
    Discard([u8; 5]),
    /// First Aid cards (a group of `count`) on a piece: an action or a last chance.
    Aid { square: Square, card: u8, count: u8 },
    /// Open a battle: `from` attacks `to` with `card`; `spin` +1 clockwise, -1 counter-clockwise.
    Attack { from: Square, to: Square, card: u8, spin: i8 },
    /// Free a piece from a hold as the action.
    Break { square: Square, card: u8 },
    /// Humiliate the card in the window; `via` a third piece (options), or `NO_SQUARE`.
    Humiliate { card: u8, via: Square },
    /// Answer an attack (Dodge, Block, Disarm, Freedom).
    Answer { card: u8 },
    /// A free attack on `to` (also a Headlock free attack).
    Free { to: Square, card: u8 },
    /// Grab together with an attack, a weapon or Headlock.
    Grab { grab: u8, with: u8 },
    /// A Knight-or-Bishop choice or a promotion.
    Choose { square: Square, kind: Kind },
    /// Decline, no answer, end the Headlock free attacks.
    Pass,
}
