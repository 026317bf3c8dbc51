//! What a Lunch Chess study counts: in random games, First Aid at the last
//! chance (a save) and Humiliations of Humiliations (chains) are counted
//! where the position says they happen, and never more than their kinds.

use menagerie_core::{sample_chance, Game, Study, Tally, VariantSpec};
use menagerie_games::lunch::Lunch;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

fn count(tally: &Tally, name: &str) -> u64 {
    tally.iter().find(|(n, _)| *n == name).map_or(0, |(_, c)| c)
}

#[test]
fn saves_and_humiliation_chains_are_counted_where_they_happen() {
    let variant = Lunch::parse_variant(&VariantSpec::parse("lunch").unwrap()).unwrap();
    let mut whole = Tally::new();
    for seed in 0..60u64 {
        let mut game = Lunch::start(&variant, 0);
        let mut rng = StdRng::seed_from_u64(seed);
        let mut moves = Vec::new();
        while game.outcome().is_none() {
            game.legal_moves(&mut moves);
            let mv = sample_chance(&game, &mut rng).unwrap_or_else(|| moves[rng.random_range(0..moves.len())]);
            let before = game.clone();
            let text = game.to_text();
            game.play(mv);
            let mut tally = Tally::new();
            Lunch::tally_move(&before, mv, &game, &mut tally);
            if count(&tally, "first aid saves") > 0 {
                assert!(text.contains("lastchance"), "a save away from a last chance: {text}");
                assert_eq!(count(&tally, "first aid"), 1);
            }
            if count(&tally, "humiliation chains") > 0 {
                assert!(text.contains(".1."), "a chain started outside a window of a Humiliation: {text}");
                assert_eq!(count(&tally, "humiliations back"), 1);
            }
            if count(&tally, "humiliations back") > 0 {
                assert_eq!(count(&tally, "humiliations"), 1);
            }
            for (name, n) in tally.iter() {
                whole.add(name, n);
            }
        }
    }
    let (saves, aid) = (count(&whole, "first aid saves"), count(&whole, "first aid"));
    let (chains, back, all) =
        (count(&whole, "humiliation chains"), count(&whole, "humiliations back"), count(&whole, "humiliations"));
    assert!(saves > 0 && saves <= aid, "{saves} saves of {aid} First Aid plays");
    assert!(chains > 0 && chains <= back && back <= all, "{chains} chains, {back} back, {all} Humiliations");
}
