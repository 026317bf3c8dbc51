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
