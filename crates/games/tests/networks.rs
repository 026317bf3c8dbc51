//! Each game's built-in network (`data/nnue/<game>.bin`) reads with this
//! build's inputs and says how it was made. A damaged file, or one trained
//! on other inputs, fails here rather than at a search's first evaluation.

use menagerie_core::Evaluate;
use menagerie_games::{fluid::Fluid, kelasu::Kelasu, lichen::Lichen, lma::Lma, lunch::Lunch};

fn check<G: Evaluate>(game: &str) {
    let network = G::network().unwrap_or_else(|| panic!("data/nnue/{game}.bin is empty"));
    assert_eq!(network.features, G::LEARNED_FEATURES);
    assert_eq!(network.inputs(), G::LEARNED_INPUTS);
    assert_eq!(network.about_value("game"), Some(game));
    let command = network.about_value("command").unwrap_or_default();
    assert!(command.starts_with(&format!("menagerie train {game} ")), "{command}");
    let data = network.about_value("data").unwrap_or_default();
    assert!(data.starts_with(&format!("menagerie datagen {game} ")), "{data}");
}

#[test]
fn every_games_network_is_this_builds_and_says_how_it_was_made() {
    check::<Fluid>("fluid");
    check::<Kelasu>("kelasu");
    check::<Lichen>("lichen");
    check::<Lma>("lma");
    check::<Lunch>("lunch");
}
