//! The generic random-play, parser and encoding properties, for every registered
//! variant: one test per variant string (the id, and the id with all its
//! flag options on), named by it, from the registry. A new game needs no
//! line here. `MENAGERIE_SOAK=<factor>` plays more games.

use libtest_mimic::{Arguments, Failed, Trial};
use menagerie_core::testing::{self, Soak};
use menagerie_core::{Encode, Evaluate, Game, GameVisitor, Present, VariantSpec};

struct Properties;

impl GameVisitor for Properties {
    type Output = ();

    fn visit<G: Game + Evaluate + Present + Encode>(self, variant: G::Variant) {
        testing::random_play::<G>(&variant, Soak::default().scaled_by_env());
        testing::check_encoding::<G>(&variant, Soak::default().scaled_by_env());
        let learned = Soak { games: 6, max_plies: 200, ..Soak::default() };
        testing::check_learned_inputs::<G>(&variant, learned.scaled_by_env());
        let cuts = Soak { games: 8, max_plies: 400, ..Soak::default() };
        testing::check_text_is_whole::<G>(&variant, cuts.scaled_by_env());
        let start = G::start(&variant, 7).to_text();
        let mut seeds: Vec<&str> = G::bench_positions(&variant);
        seeds.push(&start);
        testing::mutated_texts::<G>(&variant, &seeds, 400, 11);
    }
}

fn check(variant: &str) -> Result<(), Failed> {
    let spec = VariantSpec::parse(variant).map_err(|e| e.to_string())?;
    menagerie_games::visit(&spec, Properties).map_err(|e| e.to_string())?;
    Ok(())
}

fn main() {
    let trials = menagerie_games::variants()
        .iter()
        .flat_map(|info| info.test_strings())
        .map(|variant| Trial::test(format!("properties {variant}"), move || check(&variant)))
        .collect();
    libtest_mimic::run(&Arguments::from_args(), trials).exit();
}
