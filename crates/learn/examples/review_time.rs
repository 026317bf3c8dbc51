//! Measures a computer review of a 60-ply game of each game of perfect
//! information at its default budget (`ReviewBudget::for_game`):
//! `cargo run --release -p menagerie-learn --example review_time [PLIES]`.
//! The games are self-played and seeded, so every run reviews the same ones.

use menagerie_ai::StopFlag;
use menagerie_core::{Game, GameVisitor};
use menagerie_learn::puzzle::selfplay::{play_game, SelfplayConfig};
use menagerie_learn::review::{review, ReviewBudget};
use std::time::Instant;

struct Texts(usize);

impl GameVisitor for Texts {
    type Output = Vec<String>;
    fn visit<
        G: Game + menagerie_core::Evaluate + menagerie_core::Present + menagerie_core::Study + menagerie_core::Encode,
    >(
        self,
        variant: G::Variant,
    ) -> Vec<String> {
        let start = G::start(&variant, 0);
        let config = SelfplayConfig { max_plies: self.0, random_rate: 0.05, ..SelfplayConfig::default() };
        let game = play_game(&start, 1, 0, &config);
        let mut position = start;
        game.moves
            .iter()
            .map(|&mv| {
                let text = position.move_text(mv);
                position.play(mv);
                text
            })
            .collect()
    }
}

fn main() {
    let plies: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(60);
    for variant in ["lma", "fluid", "lichen", "kelasu"] {
        let spec = menagerie_core::VariantSpec::parse(variant).unwrap();
        let moves = menagerie_games::visit(&spec, Texts(plies)).unwrap();
        let budget = ReviewBudget::for_game(variant);
        let started = Instant::now();
        let done = review(variant, None, &moves, &budget, &mut |_, _| {}, &StopFlag::new()).unwrap();
        let seconds = started.elapsed().as_secs_f64();
        let p = &done.players;
        println!(
            "{variant}: {} plies reviewed in {seconds:.1} s at {} nodes a position; first {}/{}/{} (?!/?/??) accuracy {:.0}, second {}/{}/{} accuracy {:.0}",
            done.plies.len(),
            budget.nodes,
            p.first.inaccuracy,
            p.first.mistake,
            p.first.blunder,
            p.first.accuracy.unwrap_or(0.0),
            p.second.inaccuracy,
            p.second.mistake,
            p.second.blunder,
            p.second.accuracy.unwrap_or(0.0)
        );
    }
}
