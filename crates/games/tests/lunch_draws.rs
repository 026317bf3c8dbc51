//! Random moves (`Game::random_move`), which random playouts draw without
//! listing every move: a player's drawn move is legal and uniform among the
//! legal moves, chance's card is as likely as its share of the draw pile.

use menagerie_core::testing::assert_random_moves_uniform;
use menagerie_core::{Actor, Game, VariantSpec};
use menagerie_games::lunch::Lunch;
use rand::rngs::StdRng;
use rand::SeedableRng;
use std::collections::HashMap;

fn game(variant: &str, text: &str) -> Lunch {
    let variant = Lunch::parse_variant(&VariantSpec::parse(variant).unwrap()).unwrap();
    Lunch::from_text(&variant, text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Action stages with every group of actions the draw counts: steps,
/// castling, First Aid groups, attacks with spinning cards and a Choke that
/// a held target cannot take, breaking a hold, discards; stunned and held
/// pieces that cannot act or have cards, a Headlock's holder that may.
const ACTIONS: &[(&str, &str)] = &[
    (
        "lunch",
        "r1bqkb1r/ppp2ppp/2n2n2/3pp3/3PP3/2N2N2/PPP2PPP/R1BQKB1R w KQkq jab,kick,dodge,block,humiliation elbow,roundhouse,grab,block,firstaid jab*2,slap,elbow,headbutt,kick,uppercut,combo,poke,stomp,grab*2,dodge*4,block*4,disarm,freedom,firstaid*2,humiliation - - - - turn.action 0,8,0 - white",
    ),
    (
        "lunch",
        "3qk3/3P4/1B3p2/7p/3Q3R/7N{s}/8/R3K3 w Q jab,roundhouse,choke,firstaid*2 dodge,block - - - choke.d8.d7,headlock.h4.h5 - turn.action 0,0,0 - white",
    ),
    (
        "lunch:no-spinning",
        "3qk3/3P4/1B3p2/7p/3Q3R/7N{s}/8/R3K3 w Q jab,roundhouse,choke,firstaid*2 dodge,block - - - choke.d8.d7,headlock.h4.h5 - turn.action 0,0,0 - white",
    ),
    (
        "lunch",
        "4k3/8/8/r7/R7/8/8/4K3 b - jab,kick slap,headbutt,stomp,freedom,humiliation dodge,block - - choke.a4.a5 - turn.action 0,0,0 - black",
    ),
    ("lunch", "4k3/8/8/r7/R7/8/8/4K3 w - - slap,headbutt dodge,block - - - - turn.action 0,0,0 - white"),
];

#[test]
fn drawn_actions_are_legal_and_uniform() {
    for (i, &(variant, text)) in ACTIONS.iter().enumerate() {
        assert_random_moves_uniform(&game(variant, text), 40_000, 5 + i as u64);
    }
}

/// Chance's draws, counted over many draws, against `chance_probability`
/// (a chi-square test like the one for a player's moves).
fn assert_draws_follow_the_pile(game: &Lunch, draws: u32, seed: u64) {
    assert_eq!(game.to_act(), Actor::Chance, "{}", game.to_text());
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    assert!(moves.len() >= 2, "{}", game.to_text());
    let mut rng = StdRng::seed_from_u64(seed);
    let mut counts = HashMap::new();
    for _ in 0..draws {
        let mv = game.random_move(&mut rng, &mut Vec::new()).expect("a card");
        assert!(moves.contains(&mv), "{} is not a legal draw", game.move_text(mv));
        *counts.entry(mv).or_insert(0u32) += 1;
    }
    let chi_square: f64 = moves
        .iter()
        .map(|&mv| {
            let expected = f64::from(draws) * game.chance_probability(mv);
            (f64::from(counts.get(&mv).copied().unwrap_or(0)) - expected).powi(2) / expected
        })
        .sum();
    let freedom = (moves.len() - 1) as f64;
    assert!(
        chi_square < freedom + 6.0 * (2.0 * freedom).sqrt() + 10.0,
        "chi-square {chi_square:.1} with {freedom} degrees of freedom in {}",
        game.to_text()
    );
}

#[test]
fn drawn_cards_are_as_likely_as_their_share_of_the_pile() {
    let variant = Lunch::parse_variant(&VariantSpec::parse("lunch").unwrap()).unwrap();
    // The deal: the whole deck, from 1 to 13 cards a type.
    assert_draws_follow_the_pile(&Lunch::start(&variant, 0), 100_000, 1);
    // Draws back to 5 from a small pile: one Jab, two Kicks.
    let small = "4k3/8/8/q7/8/8/8/R3K3 w - jab,kick,dodge dodge,block,firstaid,humiliation jab,kick*2 slap,elbow - - - turn.draw 1,1,0 - chance";
    assert_draws_follow_the_pile(&game("lunch", small), 30_000, 2);
}
