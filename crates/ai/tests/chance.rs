//! Chance in the searches: alpha-beta weighs a chance node's outcomes with
//! their probabilities, MCTS draws them with their probabilities, and both
//! search Lunch Chess, whose deal and draws are chance moves, at a bearable
//! cost.

use menagerie_ai::{AlphaBeta, Limits, Mcts, MctsConfig, StopFlag};
use menagerie_core::testing::coin::{Coin, HEADS, TAILS};
use menagerie_core::{sample_chance, Evaluate, Game, VariantSpec};
use menagerie_games::lunch::Lunch;
use rand::rngs::SmallRng;
use rand::SeedableRng;

fn no_info(_: &menagerie_ai::Info) {}

#[test]
fn alphabeta_weighs_the_outcomes_with_their_probabilities() {
    for (heads, call) in [(0.3, TAILS), (0.7, HEADS), (0.9, HEADS)] {
        let mut search = AlphaBeta::<Coin>::default();
        let result = search.search(&Coin::new(heads), &Limits::depth(2), &StopFlag::new(), &mut no_info);
        assert_eq!(result.best, Some(call), "heads {heads}");
        // A win two plies away, as likely as the likelier side, less a loss.
        let win = f64::from(<Coin as Evaluate>::WIN - 2);
        let edge: f64 = 2.0 * f64::max(heads, 1.0 - heads) - 1.0;
        assert_eq!(result.value, (edge * win).round() as i32, "heads {heads}");
    }
}

#[test]
fn mcts_draws_the_outcomes_with_their_probabilities() {
    for (heads, call) in [(0.3, TAILS), (0.7, HEADS)] {
        let mut mcts = Mcts::<Coin>::new(MctsConfig { seed: 5, ..MctsConfig::default() });
        let result = mcts.search(&Coin::new(heads), &Limits::nodes(3000), &StopFlag::new(), &mut no_info);
        assert_eq!(result.best, Some(call), "heads {heads}: {:?}", result.root_visits);
    }
}

/// The start of a Lunch Chess game after a deal drawn from `seed`.
fn dealt_lunch(seed: u64) -> Lunch {
    let variant = Lunch::parse_variant(&VariantSpec::parse("lunch").unwrap()).unwrap();
    let mut game = Lunch::start(&variant, 0);
    let mut rng = SmallRng::seed_from_u64(seed);
    while let Some(mv) = sample_chance(&game, &mut rng) {
        game.play(mv);
    }
    game
}

#[test]
fn alphabeta_searches_lunch_through_its_draws_at_a_bearable_cost() {
    // After a discard of five cards chance draws five times, from some
    // twenty card types: expectimax over every card would visit millions of
    // positions before the other player moves at all.
    for seed in [1, 2, 3] {
        let game = dealt_lunch(seed);
        let mut search = AlphaBeta::<Lunch>::default();
        let result = search.search(&game, &Limits::depth(4), &StopFlag::new(), &mut no_info);
        assert_eq!(result.info.depth, 4, "seed {seed}");
        assert!(search.nodes() < 300_000, "seed {seed}: {} nodes for depth 4", search.nodes());
        let mut legal = Vec::new();
        game.legal_moves(&mut legal);
        assert!(legal.contains(&result.best.expect("a move")));
    }
}

#[test]
fn mcts_plays_lunch_through_chance() {
    let game = dealt_lunch(4);
    let mut legal = Vec::new();
    game.legal_moves(&mut legal);
    for information_set in [false, true] {
        let config = MctsConfig { information_set, playout_cutoff: Some(40), seed: 3, ..MctsConfig::default() };
        let mut mcts = Mcts::<Lunch>::new(config);
        let result = mcts.search(&game, &Limits::nodes(300), &StopFlag::new(), &mut no_info);
        assert!(legal.contains(&result.best.expect("a move")));
        assert_eq!(result.root_visits.iter().map(|&(_, n)| u64::from(n)).sum::<u64>(), 300);
    }
}

#[test]
fn a_cut_off_playout_lets_chance_act_before_it_is_scored() {
    // One iteration: the call is expanded, then the playout is cut off at
    // once; the coin is tossed anyway, so the call is scored won or lost,
    // not an even 0.5 for a position where chance acts.
    for heads in [0.0, 1.0] {
        let config = MctsConfig { playout_cutoff: Some(0), seed: 2, ..MctsConfig::default() };
        let mut mcts = Mcts::<Coin>::new(config);
        let result = mcts.search(&Coin::new(heads), &Limits::nodes(1), &StopFlag::new(), &mut no_info);
        assert_ne!(result.info.score, menagerie_ai::Score::Cp(0), "heads {heads}");
    }
}

#[test]
fn greedy_looks_past_chances_moves() {
    // Calling heads wins for sure; a greedy player that stopped where chance
    // acts would see two equal calls.
    for seed in 0..8 {
        let mut greedy = menagerie_ai::Greedy::new(seed);
        let decision = menagerie_ai::Agent::<Coin>::decide(
            &mut greedy,
            &Coin::new(1.0),
            &Limits::default(),
            &StopFlag::new(),
            &mut no_info,
        );
        assert_eq!(decision.best, Some(HEADS), "seed {seed}");
    }
}
