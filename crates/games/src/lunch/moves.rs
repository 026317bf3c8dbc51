//! Moves of the game model: every decision a player makes is one move, and
//! so is every card chance deals or draws (texts: `notation`).

use super::deck::Card;
use super::frame::Spin;
use super::piece::Kind;
use super::square::Square;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// A movement (castling is the King's two-square move).
    Step { from: Square, to: Square },
    /// Discard 1 to 5 cards.
    Discard(Discard),
    /// First Aid cards (a group of `count`) on a piece: an action or a last chance.
    Aid { square: Square, card: Card, count: u8 },
    /// Open a battle: `from` attacks `to` with `card`, and the direction a
    /// spinning card passes on if it is Dodged.
    Attack { from: Square, to: Square, card: Card, spin: Option<Spin> },
    /// Free a piece from a hold as the action.
    Break { square: Square, card: Card },
    /// Humiliate the card in the window; `via` a third piece (options).
    Humiliate { card: Card, via: Option<Square> },
    /// Answer an attack (Dodge, Block, Disarm, Freedom).
    Answer { card: Card },
    /// A free attack on `to` (also a Headlock free attack).
    Free { to: Square, card: Card },
    /// Grab together with an attack, a weapon or Headlock.
    Grab { grab: Card, with: Card },
    /// A Knight-or-Bishop choice or a promotion.
    Choose { square: Square, kind: Kind },
    /// Chance: the next card of the draw pile, dealt or drawn into a hand.
    Draw { card: Card },
    /// Decline, no answer, end the Headlock free attacks.
    Pass,
}

/// The cards of a discard: 1 to 5, in deck order. Unused slots hold the
/// first card type, so that equal discards are equal values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Discard {
    cards: [Card; 5],
    len: u8,
}

impl Discard {
    pub const EMPTY: Discard = Discard { cards: [Card::new(0); 5], len: 0 };

    pub fn cards(&self) -> &[Card] {
        &self.cards[..self.len as usize]
    }

    /// Adds a card; false when the discard already has 5.
    pub fn push(&mut self, card: Card) -> bool {
        if self.len as usize >= self.cards.len() {
            return false;
        }
        self.cards[self.len as usize] = card;
        self.len += 1;
        true
    }

    pub fn pop(&mut self) {
        if self.len > 0 {
            self.len -= 1;
            self.cards[self.len as usize] = Card::new(0);
        }
    }
}
