//! Every registered game is playable on the page: its rules page and its
//! renderer are embedded (a new game that forgets one fails here).

use menagerie_server::assets;

#[test]
fn every_variant_has_its_rules_page_and_renderer() {
    let mut missing = Vec::new();
    for info in menagerie_games::variants() {
        let game = info.game();
        if assets::rules(info.id).is_none() {
            missing.push(format!("{}: no rules page docs/{game}.md", info.id));
        }
        if assets::web(&format!("games/{game}.js")).is_none() {
            missing.push(format!("{}: no renderer web/games/{game}.js", info.id));
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

#[test]
fn a_renderer_is_found_by_the_game_of_the_variant() {
    assert!(assets::web("games/index.js").is_some());
    assert!(assets::web("games/no-such-game.js").is_none());
}
