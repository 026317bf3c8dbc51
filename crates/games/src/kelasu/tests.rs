//! Unit tests that need the inside of the state.

use super::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// The quick "any action left?" test (which decides when the turn
/// passes) agrees with the full generator after every action of random
/// games, and so does the bulk count.
#[test]
fn any_action_agrees_with_the_generator() {
    let mut moves = Vec::new();
    let mut after = Vec::new();
    for seed in 0..30 {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut g = Kelasu::start(&KelasuVariant, 0);
        for _ in 0..300 {
            g.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            for &mv in &moves {
                let mut state = g.state;
                state.apply(mv);
                if state.ending.is_none() && state.energy > 0 {
                    state.generate(&mut after);
                    assert_eq!(state.has_any_action(), !after.is_empty(), "after {mv} in {}", g.to_text());
                    assert_eq!(state.count(), after.len() as u64, "after {mv} in {}", g.to_text());
                }
            }
            g.play(moves[rng.random_range(0..moves.len())]);
        }
    }
}

/// Random playouts draw an index: each index names the action the list
/// holds there, and none past the last names one, in random games and in a
/// merge-rich position (merges into Warriors, Runners, Diplomats and
/// Champions).
#[test]
fn each_index_names_the_action_the_list_holds_there() {
    let mut moves = Vec::new();
    let check = |g: &Kelasu, moves: &mut Vec<Action>| {
        g.legal_moves(moves);
        let drawn: Vec<Action> = (0..moves.len() as u64)
            .map(|i| g.state.nth_action(i).unwrap_or_else(|| panic!("no action {i} in {}", g.to_text())))
            .collect();
        assert_eq!(&drawn, moves, "in {}", g.to_text());
        assert_eq!(g.state.nth_action(moves.len() as u64), None, "an action past the last in {}", g.to_text());
        // A draw is the action at an index drawn uniformly below the count.
        let seed = moves.len() as u64;
        let expected = (!moves.is_empty())
            .then(|| moves[StdRng::seed_from_u64(seed).random_range(0..moves.len() as u64) as usize]);
        let drawn = g.random_move(&mut StdRng::seed_from_u64(seed), &mut Vec::new());
        assert_eq!(drawn, expected, "in {}", g.to_text());
    };
    let merge_rich = "BBBBBBB1BB/1BB1BB1BBB/SBS3BSBS/1BBBBBBB2/2BBBBBB2/10/3bbbb3/s1sbbbbs1s/bb1bbbbbbb/bbbbbbbbbb red 4 - 0 8";
    let g = Kelasu::from_text(&KelasuVariant, merge_rich).unwrap();
    check(&g, &mut moves);
    let kinds: std::collections::HashSet<_> = moves.iter().filter_map(|m| m.merged_kind()).collect();
    assert_eq!(kinds.len(), 4, "merges into {kinds:?}");
    for seed in 0..10 {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut g = Kelasu::start(&KelasuVariant, 0);
        for _ in 0..300 {
            check(&g, &mut moves);
            if moves.is_empty() {
                break;
            }
            g.play(moves[rng.random_range(0..moves.len())]);
        }
    }
}
