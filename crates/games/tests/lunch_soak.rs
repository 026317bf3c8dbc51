//! Random play of whole Lunch Chess games across option combinations: no
//! panic, every game ends (by a King's fall or the turn limits), and the
//! rules' invariants hold at every decision. Players move at random, and
//! chance deals and draws with its probabilities. `MENAGERIE_SOAK=<factor>`
//! multiplies the number of games.

use menagerie_core::{sample_chance, Game, VariantSpec};
use menagerie_games::lunch::Lunch;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

const VARIANTS: [&str; 8] = [
    "lunch",
    "lunch:princess",
    "lunch:no-spinning",
    "lunch:humiliate-kings",
    "lunch:humiliation-interventions",
    "lunch:personal-first-aid-humiliation",
    "lunch:no-discard-in-check",
    "lunch:princess,no-spinning,humiliate-kings,humiliation-interventions,personal-first-aid-humiliation,no-discard-in-check",
];

fn games_per_variant() -> usize {
    let factor = std::env::var("MENAGERIE_SOAK").ok().and_then(|v| v.parse::<usize>().ok()).unwrap_or(1).max(1);
    150 * factor
}

#[test]
fn random_games_end_without_panics() {
    let mut finished = [0usize; 5];
    for (v, name) in VARIANTS.iter().enumerate() {
        let variant = Lunch::parse_variant(&VariantSpec::parse(name).unwrap()).unwrap();
        for game_index in 0..games_per_variant() {
            let seed = (v * 100_000 + game_index) as u64;
            let mut game = Lunch::start(&variant, 0);
            let mut rng = StdRng::seed_from_u64(seed);
            let mut moves = Vec::new();
            let mut plies = 0u64;
            while game.outcome().is_none() {
                game.legal_moves(&mut moves);
                assert!(!moves.is_empty(), "{name} seed {seed}: no move in {}", game.to_text());
                let mv = sample_chance(&game, &mut rng).unwrap_or_else(|| moves[rng.random_range(0..moves.len())]);
                game.play(mv);
                plies += 1;
                if plies.is_multiple_of(64) {
                    game.check_invariants().unwrap_or_else(|e| panic!("{name} seed {seed}: {e} in {}", game.to_text()));
                }
                assert!(plies < 200_000, "{name} seed {seed}: the game does not end");
            }
            let reason = game.outcome().unwrap().reason();
            let slot = match reason {
                r if r.contains("no King") => 0,
                r if r.contains("both") => 1,
                r if r.contains("100") => 2,
                _ => 3,
            };
            finished[slot] += 1;
        }
    }
    eprintln!("won, both Kings gone, quiet, turn limit: {finished:?}");
    // Random play must see Kings fall, not only the turn limits.
    assert!(finished[0] > 0, "no game was won: {finished:?}");
}
