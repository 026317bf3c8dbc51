//! A pile of cards counted per card type: a hand, the draw pile, the discard
//! pile. Cards of one type are indistinguishable and no pile's order is part
//! of the state (the draw pile's next card is chance), so counts are all.

use super::deck::{Card, CardSet, MAX_TYPES};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Pile {
    counts: [u8; MAX_TYPES],
    /// The sum of the counts (hand sizes are asked for all the time).
    total: u16,
    /// The types whose count is not 0 (a hand holds a few of a deck's
    /// types: the rules look only at those).
    held: CardSet,
}

impl Pile {
    pub const EMPTY: Pile = Pile { counts: [0; MAX_TYPES], total: 0, held: CardSet::EMPTY };

    #[inline]
    pub fn count(&self, card: Card) -> u8 {
        self.counts[card.index()]
    }

    /// The number of cards.
    #[inline]
    pub fn total(&self) -> u32 {
        u32::from(self.total)
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.total == 0
    }

    /// The card types present, with their counts, in deck order.
    pub fn cards(&self) -> impl Iterator<Item = (Card, u8)> + '_ {
        self.held.iter().map(|card| (card, self.count(card)))
    }

    /// The card types present.
    #[inline]
    pub fn held(&self) -> CardSet {
        self.held
    }

    /// The type of the `index`th card (from 0) with the cards in deck
    /// order; `None` at or past the total.
    pub fn nth_card(&self, mut index: u32) -> Option<Card> {
        for (card, n) in self.cards() {
            match index.checked_sub(u32::from(n)) {
                Some(rest) => index = rest,
                None => return Some(card),
            }
        }
        None
    }

    /// The counts of the first `types` card types (the deck's), in deck order.
    pub fn counts(&self, types: usize) -> &[u8] {
        &self.counts[..types.min(MAX_TYPES)]
    }

    /// Adds one card (saturating: a count never wraps).
    #[inline]
    pub fn add(&mut self, card: Card) {
        let n = &mut self.counts[card.index()];
        if *n < u8::MAX {
            *n += 1;
            self.total += 1;
            self.held.insert(card);
        }
    }

    /// Takes one card out; false (and nothing changes) if there is none.
    #[inline]
    pub fn take(&mut self, card: Card) -> bool {
        let n = &mut self.counts[card.index()];
        if *n == 0 {
            return false;
        }
        *n -= 1;
        self.total -= 1;
        if *n == 0 {
            self.held.remove(card);
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_total_follows_the_counts() {
        let (jab, kick) = (Card::new(0), Card::new(4));
        let mut pile = Pile::EMPTY;
        assert!(pile.is_empty() && !pile.take(jab));
        for _ in 0..300 {
            pile.add(jab);
        }
        pile.add(kick);
        assert_eq!((pile.count(jab), pile.count(kick), pile.total()), (255, 1, 256), "a count saturates");
        assert!(pile.take(kick) && !pile.take(kick));
        assert_eq!(pile.total(), 255);
        assert_eq!(pile.cards().collect::<Vec<_>>(), [(jab, 255)]);
        assert!(pile.held().contains(jab) && !pile.held().contains(kick));
        pile.add(kick);
        assert_eq!([0, 254, 255, 256].map(|i| pile.nth_card(i)), [Some(jab), Some(jab), Some(kick), None]);
    }
}
