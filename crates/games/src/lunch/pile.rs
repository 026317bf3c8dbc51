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
        // Chance draws a card at almost every other ply: the counts are
        // taken eight at a time, a word's sum by one multiplication (exact
        // while the pile holds fewer than 256 cards, as the decks' piles
        // do: no byte's sum carries into the next).
        if self.total < 256 {
            for (word, chunk) in self.counts.chunks_exact(8).enumerate() {
                let mut bytes = [0u8; 8];
                bytes.copy_from_slice(chunk);
                let sum = (u64::from_le_bytes(bytes).wrapping_mul(0x0101_0101_0101_0101) >> 56) as u32;
                if index < sum {
                    return Self::nth_in(chunk, index).map(|i| Card::new((word * 8 + i) as u8));
                }
                index -= sum;
            }
            return None;
        }
        let (mut at, counts) = (0, &self.counts[..]);
        while let Some(&n) = counts.get(at) {
            match index.checked_sub(u32::from(n)) {
                Some(rest) => index = rest,
                None => return Some(Card::new(at as u8)),
            }
            at += 1;
        }
        None
    }

    /// Where the `index`th card of `counts` lies.
    fn nth_in(counts: &[u8], mut index: u32) -> Option<usize> {
        for (at, &n) in counts.iter().enumerate() {
            match index.checked_sub(u32::from(n)) {
                Some(rest) => index = rest,
                None => return Some(at),
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

    /// The `index`th card, counted eight types at a time, is the one a walk
    /// card by card finds, in piles below and above 256 cards.
    #[test]
    fn the_nth_card_is_the_one_counted_card_by_card() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move |below: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % below
        };
        for round in 0..200 {
            let mut pile = Pile::EMPTY;
            let most = if round % 4 == 0 { 40 } else { 9 };
            for card in 0..MAX_TYPES as u8 {
                for _ in 0..next(most) * next(2) {
                    pile.add(Card::new(card));
                }
            }
            let listed: Vec<Card> =
                pile.cards().flat_map(|(card, n)| std::iter::repeat_n(card, usize::from(n))).collect();
            for (index, &card) in listed.iter().enumerate() {
                assert_eq!(pile.nth_card(index as u32), Some(card), "#{index} of {}", pile.total());
            }
            assert_eq!(pile.nth_card(pile.total()), None);
        }
    }
}
