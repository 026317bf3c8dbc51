//! The generic random-play and parser properties, for every variant. Adding
//! a game is one `properties!` line. `MENAGERIE_SOAK=<factor>` plays more games.

use menagerie_core::testing::{self, Soak};
use menagerie_core::{Evaluate, Game, GameVisitor, VariantSpec};

struct Properties;

impl GameVisitor for Properties {
    type Output = ();

    fn visit<G: Game + Evaluate>(self, variant: G::Variant) {
        testing::random_play::<G>(&variant, Soak::default().scaled_by_env());
        let start = G::start(&variant, 7).to_text();
        let mut seeds: Vec<&str> = G::bench_positions(&variant);
        seeds.push(&start);
        testing::mutated_texts::<G>(&variant, &seeds, 400, 11);
    }
}

#[allow(dead_code)]
fn check(variant: &str) {
    menagerie_games::visit(&VariantSpec::parse(variant).unwrap(), Properties).unwrap();
}

#[allow(unused_macros)]
macro_rules! properties {
    ($($name:ident => $variant:literal),* $(,)?) => {
        $( #[test] fn $name() { check($variant) } )*
    };
}

// One line per variant, e.g. `properties!(lma => "lma");`
properties!(kelasu => "kelasu");
properties!(lichen => "lichen", lichen_3x3 => "lichen-3x3");
properties!(lma => "lma", lma_double => "lma-double");
properties!(fluid => "fluid", fluid_single_promo => "fluid-single-promo", fluid_double_promo => "fluid-double-promo");
properties!(lunch => "lunch", lunch_all => "lunch:princess,no-spinning,humiliate-kings,humiliation-interventions,personal-first-aid-humiliation,no-discard-in-check");
