//! A pile of cards counted per card type: a hand, the draw pile, the discard
//! pile. Cards of one type are indistinguishable and no pile's order is part
//! of the state (the draw pile's next card is chance), so counts are all.

use super::deck::{Card, MAX_TYPES};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Pile([u8; MAX_TYPES]);

impl Pile {
    pub const EMPTY: Pile = Pile([0; MAX_TYPES]);

    #[inline]
    pub fn count(&self, card: Card) -> u8 {
        self.0[card.index()]
    }

    #[inline]
    pub fn contains(&self, card: Card) -> bool {
        self.0[card.index()] > 0
    }

    /// The number of cards.
    #[inline]
    pub fn total(&self) -> u32 {
        self.0.iter().map(|&n| u32::from(n)).sum()
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&n| n == 0)
    }

    /// The card types present, with their counts, in deck order.
    pub fn cards(&self) -> impl Iterator<Item = (Card, u8)> + '_ {
        self.0.iter().enumerate().filter(|(_, &n)| n > 0).map(|(i, &n)| (Card::new(i as u8), n))
    }

    /// The counts of the first `types` card types (the deck's), in deck order.
    pub fn counts(&self, types: usize) -> &[u8] {
        &self.0[..types.min(MAX_TYPES)]
    }

    /// Adds one card (saturating: a count never wraps).
    #[inline]
    pub fn add(&mut self, card: Card) {
        let n = &mut self.0[card.index()];
        *n = n.saturating_add(1);
    }

    /// Takes one card out; false (and nothing changes) if there is none.
    #[inline]
    pub fn take(&mut self, card: Card) -> bool {
        let n = &mut self.0[card.index()];
        if *n == 0 {
            return false;
        }
        *n -= 1;
        true
    }
}
