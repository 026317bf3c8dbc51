//! The action space and observation tensor (documented in docs/lunch.md).
//!
//! Every move text has its index, chance's `draw:<card>` included; with T
//! the number of card types of the deck (24 in the standard deck), squares
//! numbered `file + 8 * rank` (a1 = 0, h8 = 63) and cards by their place in
//! the deck, the blocks follow one another in this order:
//!
//! | block | size | index within it |
//! |---|---|---|
//! | `<from><to>` | 64 × 64 | `from * 64 + to` |
//! | `discard:...` | multisets of 1 to 5 cards | by size, then the rank of the multiset ([`multiset_rank`]) |
//! | `aid:<sq>:<card>[*n]` | 64 × T × 10 | `(sq * T + card) * 10 + n - 1` |
//! | `attack:<from><to>:<card>[:cw|:ccw]` | 64 × 64 × T × 3 | `((from * 64 + to) * T + card) * 3 + spin` (none, cw, ccw) |
//! | `break:<sq>:<card>` | 64 × T | `sq * T + card` |
//! | `humiliate:<card>[:<sq>]` | T × 65 | `card * 65 + via` (0 none, `1 + sq`) |
//! | `answer:<card>` | T | `card` |
//! | `free:<sq>:<card>` | 64 × T | `sq * T + card` |
//! | `grab:<grab>+<with>` | T × T | `grab * T + with` |
//! | `choose:<sq>:<kind>` | 64 × 5 | `sq * 5 + kind` (q, r, b, n, i) |
//! | `promote:<sq>:<kind>` | 64 × 5 | as `choose` |
//! | `draw:<card>` | T | `card` |
//! | `pass` | 1 | |
//!
//! An index always names one text.

use super::deck::{Card, Deck, MAX_TYPES};
use super::frame::Spin;
use super::moves::{Discard, Move};
use super::notation;
use super::piece::Kind;
use super::position::Zone;
use super::square::Square;
use super::{Lunch, LunchVariant};
use menagerie_core::encode::fill_plane;
use menagerie_core::{Encode, Game, Player};

const SQUARES: usize = 64;
const MAX_DISCARD: usize = 5;
/// The most First Aid cards of one group.
const MAX_AID: usize = 10;
const SPINS: [Option<Spin>; 3] = [None, Some(Spin::Clockwise), Some(Spin::CounterClockwise)];
const CHOICES: [Kind; 5] = [Kind::Queen, Kind::Rook, Kind::Bishop, Kind::Knight, Kind::Princess];

/// `n` choose `k`, for `k` up to [`MAX_DISCARD`] (the discards' sizes),
/// from a table for every `n` a deck's card indices reach: numbering a
/// discard takes a binomial per card, and a listing numbers many discards.
fn binomial(n: usize, k: usize) -> usize {
    match BINOMIALS.get(n) {
        Some(row) => row[k],
        None => (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1)),
    }
}

/// `BINOMIALS[n][k]` = `n` choose `k` (Pascal's triangle).
const BINOMIALS: [[usize; MAX_DISCARD + 1]; MAX_TYPES + MAX_DISCARD] = binomial_table();

const fn binomial_table() -> [[usize; MAX_DISCARD + 1]; MAX_TYPES + MAX_DISCARD] {
    let mut table = [[0; MAX_DISCARD + 1]; MAX_TYPES + MAX_DISCARD];
    let mut n = 0;
    while n < table.len() {
        table[n][0] = 1;
        let mut k = 1;
        while k <= MAX_DISCARD && n > 0 {
            table[n][k] = table[n - 1][k - 1] + table[n - 1][k];
            k += 1;
        }
        n += 1;
    }
    table
}

/// The number of multisets of `k` cards of `types` types.
fn multisets(types: usize, k: usize) -> usize {
    binomial(types + k - 1, k)
}

/// The rank of a multiset of card indices, ascending, among the multisets
/// of its size (colex order of the combination `c_i + i`).
fn multiset_rank(cards: impl IntoIterator<Item = usize>) -> usize {
    cards.into_iter().enumerate().map(|(i, c)| binomial(c + i, i + 1)).sum()
}

/// The multiset of `k` cards of the given rank, ascending.
fn multiset_unrank(mut rank: usize, k: usize) -> Vec<usize> {
    let mut cards = vec![0; k];
    for i in (0..k).rev() {
        let mut d = i;
        while binomial(d + 1, i + 1) <= rank {
            d += 1;
        }
        rank -= binomial(d, i + 1);
        cards[i] = d - i;
    }
    cards
}

/// The sizes of the blocks, in the order of the table above.
fn blocks(t: usize) -> [usize; 13] {
    let discards = (1..=MAX_DISCARD).map(|k| multisets(t, k)).sum();
    [
        SQUARES * SQUARES,
        discards,
        SQUARES * t * MAX_AID,
        SQUARES * SQUARES * t * SPINS.len(),
        SQUARES * t,
        t * (SQUARES + 1),
        t,
        SQUARES * t,
        t * t,
        SQUARES * CHOICES.len(),
        SQUARES * CHOICES.len(),
        t,
        1,
    ]
}

fn choice(kind: Kind) -> usize {
    CHOICES.iter().position(|&k| k == kind).unwrap_or(0)
}

/// Where each block starts, for a deck of `t` card types: worked out once
/// for a whole listing (the discards' block takes binomials), not per move.
struct Numbering {
    t: usize,
    bases: [usize; 13],
    /// `discards[k]`: where the discards of `k` cards start in their block.
    discards: [usize; MAX_DISCARD + 1],
}

impl Numbering {
    fn new(t: usize) -> Numbering {
        let mut bases = [0; 13];
        let mut next = 0;
        for (base, size) in bases.iter_mut().zip(blocks(t)) {
            *base = next;
            next += size;
        }
        let mut discards = [0; MAX_DISCARD + 1];
        for k in 2..=MAX_DISCARD {
            discards[k] = discards[k - 1] + multisets(t, k - 1);
        }
        Numbering { t, bases, discards }
    }

    /// The index of `mv`, a `promote:` choice when `promotion`.
    fn index(&self, mv: Move, promotion: bool) -> usize {
        let t = self.t;
        let (block, within) = match mv {
            Move::Step { from, to } => (0, from.index() * SQUARES + to.index()),
            Move::Discard(discard) => {
                let cards = discard.cards();
                (1, self.discards[cards.len()] + multiset_rank(cards.iter().map(|c| c.index())))
            }
            Move::Aid { square, card, count } => {
                (2, (square.index() * t + card.index()) * MAX_AID + usize::from(count).clamp(1, MAX_AID) - 1)
            }
            Move::Attack { from, to, card, spin } => {
                let spin = SPINS.iter().position(|&s| s == spin).unwrap_or(0);
                (3, ((from.index() * SQUARES + to.index()) * t + card.index()) * SPINS.len() + spin)
            }
            Move::Break { square, card } => (4, square.index() * t + card.index()),
            Move::Humiliate { card, via } => (5, card.index() * (SQUARES + 1) + via.map_or(0, |sq| 1 + sq.index())),
            Move::Answer { card } => (6, card.index()),
            Move::Free { to, card } => (7, to.index() * t + card.index()),
            Move::Grab { grab, with } => (8, grab.index() * t + with.index()),
            Move::Choose { square, kind } => {
                (if promotion { 10 } else { 9 }, square.index() * CHOICES.len() + choice(kind))
            }
            Move::Draw { card } => (11, card.index()),
            Move::Pass => (12, 0),
        };
        self.bases[block] + within
    }
}

/// The move and whether it is a promotion (`promote:` rather than `choose:`).
fn decode(t: usize, action: usize) -> Option<(Move, bool)> {
    let sizes = blocks(t);
    let (mut block, mut i) = (0, action);
    while i >= sizes[block] {
        i -= sizes[block];
        block += 1;
        if block == sizes.len() {
            return None;
        }
    }
    let card = |index: usize| Card::new(index as u8);
    let square = |index: usize| Square::new(index as u8);
    let mv = match block {
        0 => Move::Step { from: square(i / SQUARES), to: square(i % SQUARES) },
        1 => {
            let mut k = 1;
            while i >= multisets(t, k) {
                i -= multisets(t, k);
                k += 1;
            }
            let mut discard = Discard::EMPTY;
            for c in multiset_unrank(i, k) {
                discard.push(card(c));
            }
            Move::Discard(discard)
        }
        2 => Move::Aid { square: square(i / MAX_AID / t), card: card(i / MAX_AID % t), count: (i % MAX_AID + 1) as u8 },
        3 => {
            let (pair, rest) = (i / (t * SPINS.len()), i % (t * SPINS.len()));
            Move::Attack {
                from: square(pair / SQUARES),
                to: square(pair % SQUARES),
                card: card(rest / SPINS.len()),
                spin: SPINS[rest % SPINS.len()],
            }
        }
        4 => Move::Break { square: square(i / t), card: card(i % t) },
        5 => Move::Humiliate {
            card: card(i / (SQUARES + 1)),
            via: (i % (SQUARES + 1)).checked_sub(1).map(square),
        },
        6 => Move::Answer { card: card(i) },
        7 => Move::Free { to: square(i / t), card: card(i % t) },
        8 => Move::Grab { grab: card(i / t), with: card(i % t) },
        9 | 10 => Move::Choose { square: square(i / CHOICES.len()), kind: CHOICES[i % CHOICES.len()] },
        11 => Move::Draw { card: card(i) },
        _ => Move::Pass,
    };
    Some((mv, block == 10))
}

/// Planes of 8 × 8: each kind of each player's pieces (White's P N B R I Q
/// K, then Black's, 14), the pieces' hit points / 10, whose turn it is (1
/// when Black), who must decide now (1 when Black, 0.5 for chance); then
/// per card type (T planes each) the viewer's hand and the discard pile,
/// each a count / 4; then the draw pile's size / 40, the other hand's size / 10, the quiet turns / 100,
/// the turns / 1000. Nothing else of the other hand or of the draw pile's
/// order: a tensor depends only on what the viewer may see.
const PIECE_PLANES: usize = 2 * 7;
const KINDS: [Kind; 7] = [Kind::Pawn, Kind::Knight, Kind::Bishop, Kind::Rook, Kind::Princess, Kind::Queen, Kind::King];

fn planes(t: usize) -> usize {
    PIECE_PLANES + 3 + 2 * t + 4
}

impl Encode for Lunch {
    fn has_chance() -> bool {
        true
    }

    fn num_distinct_actions(variant: &LunchVariant) -> usize {
        blocks(variant.deck.len()).iter().sum()
    }

    fn action(&self, mv: Move) -> usize {
        Numbering::new(self.deck().len()).index(mv, self.is_promotion(mv))
    }

    /// Numbered with the blocks' starts worked out once for the listing.
    fn numbered_moves(&self, moves: &mut Vec<Move>, actions: &mut Vec<usize>) {
        self.legal_moves(moves);
        let numbering = Numbering::new(self.deck().len());
        actions.clear();
        actions.extend(moves.iter().map(|&mv| numbering.index(mv, self.is_promotion(mv))));
        menagerie_core::encode::sort_numbered(moves, actions);
    }

    fn action_text(variant: &LunchVariant, action: usize) -> Option<String> {
        let deck: &Deck = &variant.deck;
        let (mv, promotion) = decode(deck.len(), action)?;
        Some(notation::move_text(deck, mv, promotion))
    }

    /// Not proven for plies: the game is drawn after 1000 turns, and a turn
    /// takes a bounded but large number of decisions (its action, the
    /// draws back to five, the windows of its battles); 100 a turn is far
    /// more than random play takes (the encoding test checks its games).
    fn max_game_length(_variant: &LunchVariant) -> usize {
        1000 * 100
    }

    fn observation_shape(variant: &LunchVariant) -> Vec<usize> {
        vec![planes(variant.deck.len()), 8, 8]
    }

    fn observe(&self, viewer: Player, out: &mut [f32]) {
        let state = self.state();
        let t = self.deck().len();
        for sq in 0..SQUARES {
            if let Some(piece) = state.piece(Square::new(sq as u8)) {
                let kind = KINDS.iter().position(|&k| k == piece.kind).unwrap_or(0);
                out[(piece.color.index() * KINDS.len() + kind) * SQUARES + sq] = 1.0;
                out[PIECE_PLANES * SQUARES + sq] = f32::from(piece.hp) / 10.0;
            }
        }
        fill_plane(out, SQUARES, PIECE_PLANES + 1, state.side().index() as f32);
        let actor = match self.to_act().player() {
            Some(player) => player.index() as f32,
            None => 0.5,
        };
        fill_plane(out, SQUARES, PIECE_PLANES + 2, actor);
        let cards = PIECE_PLANES + 3;
        for card in self.deck().cards() {
            let c = card.index();
            fill_plane(out, SQUARES, cards + c, f32::from(state.hand(viewer).count(card)) / 4.0);
            fill_plane(out, SQUARES, cards + t + c, f32::from(state.pile(Zone::DISCARD).count(card)) / 4.0);
        }
        let counters = cards + 2 * t;
        fill_plane(out, SQUARES, counters, state.pile(Zone::DRAW).total() as f32 / 40.0);
        fill_plane(out, SQUARES, counters + 1, state.hand_size(viewer.other()) as f32 / 10.0);
        fill_plane(out, SQUARES, counters + 2, f32::from(state.quiet()) / 100.0);
        fill_plane(out, SQUARES, counters + 3, f32::from(state.turns()) / 1000.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_binomial_table_is_pascals_triangle() {
        for n in 0..MAX_TYPES + MAX_DISCARD + 3 {
            for k in 0..=MAX_DISCARD {
                let expected = if k > n { 0 } else { (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1)) };
                assert_eq!(binomial(n, k), expected, "{n} choose {k}");
            }
        }
    }

    #[test]
    fn multisets_rank_and_unrank_in_order() {
        for k in 1..=MAX_DISCARD {
            for rank in 0..multisets(6, k) {
                let cards = multiset_unrank(rank, k);
                assert!(cards.windows(2).all(|w| w[0] <= w[1]) && cards.iter().all(|&c| c < 6), "{cards:?}");
                assert_eq!(multiset_rank(cards.iter().copied()), rank, "{cards:?}");
            }
        }
    }
}
