//! The Lunch Chess perft corpus recounted another way. `tests/perft.rs` runs
//! the corpus with the game's perft (play and undo, the last ply counted in
//! bulk); here a slow counter that is plainly right recounts it: every
//! position is rebuilt from its text, every move played on a clone, every
//! move listed and counted one by one. A count that leans on something the
//! text leaves out, on `undo`, or on the bulk count of discards and draws
//! would differ. The deal is also counted without the rules at all, as
//! sequences of card types that the deck can give.

use menagerie_core::perft::parse_corpus;
use menagerie_core::{Game, VariantSpec};
use menagerie_games::lunch::deck::Deck;
use menagerie_games::lunch::{Lunch, LunchVariant};

const CORPUS: &str = include_str!("perft/lunch.perft");

/// The slow counter recounts every corpus count up to this many paths.
const REFERENCE_LIMIT: u64 = 100_000;

fn variant(spec: &str) -> LunchVariant {
    Lunch::parse_variant(&VariantSpec::parse(spec).unwrap()).unwrap()
}

/// The number of move paths of length `depth` from the position `text`.
fn reference_perft(variant: &LunchVariant, text: &str, depth: u32) -> u64 {
    let game = Lunch::from_text(variant, text).unwrap_or_else(|e| panic!("{text}: {e}"));
    if depth == 0 {
        return 1;
    }
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|&mv| {
            let mut child = game.clone();
            child.play(mv);
            reference_perft(variant, &child.to_text(), depth - 1)
        })
        .sum()
}

#[test]
fn a_slow_counter_agrees_with_every_small_count_of_the_corpus() {
    let entries = parse_corpus(CORPUS).unwrap();
    assert!(entries.len() >= 20, "the corpus lost entries");
    for entry in &entries {
        let variant = variant(&entry.variant);
        let text = match &entry.position {
            Some(text) => text.clone(),
            None => Lunch::start(&variant, 0).to_text(),
        };
        let small: Vec<(u32, u64)> = entry.counts.iter().copied().filter(|&(_, n)| n <= REFERENCE_LIMIT).collect();
        assert!(small.len() >= 2, "{}: recount at least two depths", entry.id);
        for (depth, expected) in small {
            assert_eq!(reference_perft(&variant, &text, depth), expected, "{} perft {depth}", entry.id);
        }
    }
}

/// The number of sequences of `length` card types that can be drawn from a
/// pile holding `counts` cards of each type.
fn draw_sequences(counts: &mut [u8], length: u32) -> u64 {
    if length == 0 {
        return 1;
    }
    let mut total = 0;
    for i in 0..counts.len() {
        if counts[i] > 0 {
            counts[i] -= 1;
            total += draw_sequences(counts, length - 1);
            counts[i] += 1;
        }
    }
    total
}

#[test]
fn the_deal_counts_the_sequences_of_card_types_the_deck_can_give() {
    let mut counts: Vec<u8> = Deck::standard().types.iter().map(|t| t.count).collect();
    let entries = parse_corpus(CORPUS).unwrap();
    let start = entries.iter().find(|e| e.position.is_none()).expect("a startpos entry");
    assert!(start.counts.len() >= 4);
    for &(depth, expected) in &start.counts {
        // The first ten plies are the deal: five cards to each hand.
        assert!(depth <= 10);
        assert_eq!(draw_sequences(&mut counts, depth), expected, "startpos perft {depth}");
    }
}
