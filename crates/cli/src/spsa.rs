//! `menagerie tune <variant> --spsa PAIRS`: tunes a game's evaluation
//! weights by play (`menagerie_ai::spsa`). Each step plays one pair of
//! games from a random opening, colours swapped, between alpha-beta with
//! the weights nudged up and with them nudged down, at a node budget a
//! move (the same search whatever the machine's load); the weights move
//! towards the side that scored better. `--jobs` pairs are played at once,
//! each drawn from the weights as they stand when it starts.

use crate::error::CliError;
use crate::matches::{dealt, game_seed, play_game, random_opening, Side};
use crate::progress::GamesProgress;
use crate::tune::{tuned_features, write_weights};
use crate::typed::TypedCommand;
use menagerie_ai::spsa::{Spsa, SpsaSettings};
use menagerie_ai::tune::weights_in_centi_units;
use menagerie_ai::{AgentKind, AgentSpec, EvalKind, Limits};
use menagerie_core::{Evaluate, Game, WEIGHT_SCALE};
use rand::rngs::SmallRng;
use rand::SeedableRng;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

pub struct TuneByPlay {
    pub settings: SpsaSettings,
    /// Tune only these features (names); empty: all.
    pub only: Vec<String>,
    /// Alpha-beta nodes a move.
    pub nodes: u64,
    pub opening_plies: u32,
    pub max_plies: u32,
    pub jobs: usize,
    pub progress_lines: bool,
    pub seed: u64,
    /// Where to write the weights (default `data/eval/<game>.toml`).
    pub out: Option<PathBuf>,
    /// The command line, for the file's header.
    pub command: String,
}

/// Alpha-beta on one thread judging with `weights` (centi-units).
fn player(weights: &[f64]) -> AgentSpec {
    let scaled: Arc<[i32]> = weights.iter().map(|w| (w * f64::from(WEIGHT_SCALE)).round() as i32).collect();
    AgentSpec { eval: Some(EvalKind::Weights(scaled)), threads: Some(1), ..AgentKind::AlphaBeta { depth: None }.into() }
}

impl TypedCommand for TuneByPlay {
    type Output = Result<(), CliError>;

    fn run<G: Game + Evaluate>(self, start: G, variant: &str) -> Self::Output {
        let mut settings = self.settings.clone();
        settings.only = tuned_features::<G>(variant, &self.only)?;
        let initial = weights_in_centi_units::<G>();
        let pairs = settings.steps;
        let state = Mutex::new((Spsa::new(initial.clone(), settings), SmallRng::seed_from_u64(self.seed)));
        let lock = || state.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let limits = Limits::nodes(self.nodes);
        let progress = GamesProgress::new("pairs", pairs, false, self.progress_lines);
        let report_every = (pairs / 10).max(1);
        eprintln!("tuning {} weights by {pairs} pairs of games at {} nodes a move", G::FEATURES.len(), self.nodes);
        let play_pair = |index: usize| -> Result<f64, CliError> {
            let perturbation = {
                let (spsa, rng) = &mut *lock();
                spsa.perturb(rng)
            };
            let (plus, minus) = (player(&perturbation.plus), player(&perturbation.minus));
            let seed = game_seed(self.seed, index as u64);
            let game = dealt(&start, seed);
            let opening = random_opening(&game, self.opening_plies, seed ^ 0x0be0);
            let side = |spec| Side { spec, limits: &limits };
            let plus_first = play_game(&game, &opening, [side(&plus), side(&minus)], seed, self.max_plies)?;
            let minus_first = play_game(&game, &opening, [side(&minus), side(&plus)], seed, self.max_plies)?;
            let result = f64::from(plus_first.first_score - minus_first.first_score);
            let (spsa, _) = &mut *lock();
            spsa.update(&perturbation, result);
            if spsa.taken() % report_every == 0 {
                let weights: Vec<String> = spsa.weights().iter().map(|w| format!("{w:.1}")).collect();
                eprintln!("after {} pairs: {}", spsa.taken(), weights.join(" "));
            }
            Ok(result)
        };
        let results = crate::matches::run_parallel(pairs as usize, self.jobs, play_pair, |_| progress.inc())?;
        progress.finish();
        let (spsa, _) = state.into_inner().unwrap_or_else(|poisoned| poisoned.into_inner());
        let plus_score: f64 = results.iter().sum();
        println!("{variant}: {pairs} pairs of games at {} nodes a move", self.nodes);
        println!("nudged-up sides scored {plus_score:+} over the nudged-down ones");
        println!("{:<28} {:>10} {:>10}", "feature", "before", "after");
        for (i, name) in G::FEATURES.iter().enumerate() {
            println!("{:<28} {:>10.2} {:>10.2}", name, initial[i], spsa.weights()[i]);
        }
        let header = format!(
            "(the features are described in the game's eval.rs), tuned by play (SPSA).\n\
             Tuned by: {}\n\
             (starting from the weights built into the binary that ran it; the scale K is theirs).\n\
             {pairs} pairs of games, colours swapped, at {} nodes a move.",
            self.command, self.nodes
        );
        write_weights::<G>(self.out.as_deref(), &header, G::win_scale(), spsa.weights())
    }
}
