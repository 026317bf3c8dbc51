//! `menagerie tune`: fits a game's evaluation weights to game results (the
//! Texel method, `menagerie_ai::tune`) and writes them as the game's data
//! file, with the command that produced them in its header.
//!
//! The positions come from a file (`--positions`: one a line, the first
//! player's result, a tab, the position text) or from self-play: alpha-beta
//! with a node budget against itself, from random openings, keeping the
//! quiet positions (not in check, the move chosen not tactical), each
//! labelled with the result of its game. With `--label-nodes` the label
//! blends that result with the expected score of a deeper search from the
//! position: one game's result says little about one position, and in a
//! game as tactical as Lichen a fit to results alone played worse.

use crate::error::CliError;
use crate::matches::{dealt, game_seed, random_opening, run_parallel};
use crate::progress::GamesProgress;
use crate::typed::TypedCommand;
use menagerie_ai::tune::{weights_in_centi_units, Sample, TuneSettings, Tuner};
use menagerie_ai::{AlphaBeta, AlphaBetaConfig, Limits, Score, StopFlag};
use menagerie_core::sample_chance;
use menagerie_core::{Actor, Evaluate, Game, Player};
use rand::rngs::SmallRng;
use rand::SeedableRng;
use std::fmt::Write as _;
use std::path::PathBuf;

pub struct Tune {
    /// Fit only these features (names); empty: all.
    pub only: Vec<String>,
    /// Read the positions from this file instead of playing.
    pub positions: Option<PathBuf>,
    /// Self-play: games, nodes per move, random opening moves, move cap.
    pub games: u32,
    pub nodes: u64,
    pub opening_plies: u32,
    pub max_plies: u32,
    pub jobs: usize,
    /// Progress as lines on stderr instead of a bar on a terminal.
    pub progress_lines: bool,
    pub seed: u64,
    pub settings: TuneSettings,
    /// Where to write the weights (default `data/eval/<game>.toml`).
    pub out: Option<PathBuf>,
    /// Also write the self-play positions, in the `--positions` format.
    pub save_positions: Option<PathBuf>,
    /// Label each position with a search of this many nodes too (0: the
    /// game results alone).
    pub label_nodes: u64,
    /// With `label_nodes`: the share of the game result in the label, the
    /// rest the search's expected score.
    pub result_weight: f64,
    /// The command line, for the file's header.
    pub command: String,
}

/// A recorded position: its features, its text, who acted, and (once the
/// game is over) the first player's result.
struct Recorded {
    sample: Sample,
    text: String,
    actor: Player,
}

impl TypedCommand for Tune {
    type Output = Result<(), CliError>;

    fn run<G: Game + Evaluate>(self, start: G, variant: &str) -> Self::Output {
        let mut settings = self.settings.clone();
        settings.only = tuned_features::<G>(variant, &self.only)?;
        let (mut samples, texts, source) = match &self.positions {
            Some(path) => {
                let (samples, texts) = read_positions::<G>(start.variant(), path)?;
                (samples, texts, format!("the positions of {}", path.display()))
            }
            None => {
                let (samples, lines) = self.self_play(&start)?;
                let texts =
                    lines.lines().filter_map(|line| line.split_once('\t')).map(|(_, t)| t.to_string()).collect();
                if let Some(path) = &self.save_positions {
                    std::fs::write(path, lines)
                        .map_err(|e| CliError::Failed(format!("writing {}: {e}", path.display())))?;
                    eprintln!("positions saved in {}", path.display());
                }
                (samples, texts, format!("{} self-play games", self.games))
            }
        };
        let source = if self.label_nodes > 0 {
            self.label::<G>(start.variant(), &mut samples, &texts)?;
            format!(
                "{source}, labelled {:.2} game result + {:.2} a {}-node search's expected score",
                self.result_weight,
                1.0 - self.result_weight,
                self.label_nodes
            )
        } else {
            source
        };
        if samples.is_empty() {
            return Err(CliError::BadInput("no positions to tune on".into()));
        }
        let initial = weights_in_centi_units::<G>();
        let tuner = Tuner::new(samples, G::FEATURES.len());
        eprintln!("tuning {} weights on {} positions from {source}", G::FEATURES.len(), tuner.len());
        let fit = tuner.tune(&initial, &settings, &mut |iteration, error| {
            if iteration % 500 == 0 {
                eprintln!("  iteration {iteration}: error {error:.6}");
            }
        });
        println!("{variant}: {} positions from {source}", tuner.len());
        println!("scale K = {:.4}", fit.scale);
        println!("error before {:.6}, after {:.6}", fit.error_before, fit.error_after);
        println!("{:<28} {:>10} {:>10}", "feature", "before", "after");
        for (i, name) in G::FEATURES.iter().enumerate() {
            println!("{:<28} {:>10.2} {:>10.2}", name, initial[i], fit.weights[i]);
        }
        let target = if self.label_nodes > 0 { "game results and search scores" } else { "game results" };
        let header = format!(
            "(the features are described in the game's eval.rs), fitted to {target}.\n\
             Tuned by: {}\n\
             (starting from the weights built into the binary that ran it).\n\
             {} positions from {source}; scale K = {:.4}; mean squared error {:.6} before, {:.6} after.",
            self.command,
            tuner.len(),
            fit.scale,
            fit.error_before,
            fit.error_after
        );
        write_weights::<G>(self.out.as_deref(), &header, fit.scale, &fit.weights)?;
        Ok(())
    }
}

/// The indices of the features `names` (`--only`; empty: none named,
/// which tunes them all); an error if `variant` has no tunable evaluation
/// or no feature of one of the names.
pub fn tuned_features<G: Evaluate>(variant: &str, names: &[String]) -> Result<Vec<usize>, CliError> {
    if G::FEATURES.is_empty() || G::WEIGHTS_FILE.is_empty() {
        return Err(CliError::BadInput(format!("{variant} has no tunable evaluation")));
    }
    names
        .iter()
        .map(|name| {
            G::FEATURES.iter().position(|f| f == name).ok_or_else(|| {
                CliError::BadInput(format!(
                    "--only: {variant} has no feature {name:?}; its features: {}",
                    G::FEATURES.join(", ")
                ))
            })
        })
        .collect()
}

/// Writes a game's weights file (to `out`, else `data/eval/<game>.toml`):
/// `header` (lines, each becoming a comment), the scale, the weights.
pub fn write_weights<G: Evaluate>(
    out: Option<&std::path::Path>,
    header: &str,
    scale: f64,
    weights: &[f64],
) -> Result<(), CliError> {
    let path = out.map_or_else(|| PathBuf::from(format!("data/eval/{}.toml", G::WEIGHTS_FILE)), PathBuf::from);
    let mut text = String::new();
    let _ = writeln!(text, "# Evaluation weights of {}: centi-units per unit of each feature", G::WEIGHTS_FILE);
    for line in header.lines() {
        let _ = writeln!(text, "# {line}");
    }
    let _ = writeln!(text, "\n# How sure a score is of the result (MCTS rewards): 1 / (1 + 10^(-K·E/400)).");
    let _ = writeln!(text, "win_scale = {scale:.4}");
    let _ = writeln!(text, "\n[weights]");
    for (name, weight) in G::FEATURES.iter().zip(weights) {
        let _ = writeln!(text, "{name} = {weight:.2}");
    }
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| CliError::Failed(format!("creating {}: {e}", dir.display())))?;
    }
    std::fs::write(&path, text).map_err(|e| CliError::Failed(format!("writing {}: {e}", path.display())))?;
    println!("weights written to {}", path.display());
    Ok(())
}

impl Tune {
    /// Blends each sample's game result with the expected score of a search
    /// of `label_nodes` nodes from its position (the score through the
    /// game's fitted scale): a deeper look than the static evaluation's,
    /// with far less noise than one game's result.
    fn label<G: Game + Evaluate>(
        &self,
        variant: &G::Variant,
        samples: &mut [Sample],
        texts: &[String],
    ) -> Result<(), CliError> {
        let progress = GamesProgress::new("label", texts.len() as u64, false, self.progress_lines);
        let expected = |index: usize| -> Result<f64, CliError> {
            let game = G::from_text(variant, &texts[index]).map_err(|e| CliError::BadInput(e.to_string()))?;
            let config = AlphaBetaConfig { seed: self.seed, hash_megabytes: 1, ..AlphaBetaConfig::default() };
            let result = AlphaBeta::<G>::new(config).search(
                &game,
                &Limits::nodes(self.label_nodes),
                &StopFlag::new(),
                &mut |_| {},
            );
            Ok(match result.info.score {
                Score::Cp(cp) => 1.0 / (1.0 + 10f64.powf(-G::win_scale() * f64::from(cp) / 400.0)),
                Score::Win(_) => 1.0,
                Score::Loss(_) => 0.0,
            })
        };
        let scores = run_parallel(texts.len(), self.jobs, expected, |_| progress.inc())?;
        progress.finish();
        for (sample, score) in samples.iter_mut().zip(scores) {
            sample.result = self.result_weight * sample.result + (1.0 - self.result_weight) * score;
        }
        Ok(())
    }

    /// Plays the self-play games; returns the samples and the positions as
    /// lines of the `--positions` format.
    fn self_play<G: Game + Evaluate>(&self, start: &G) -> Result<(Vec<Sample>, String), CliError> {
        let progress = GamesProgress::new("tune", u64::from(self.games), false, self.progress_lines);
        let play = |index: usize| -> Result<Vec<(Recorded, f64)>, CliError> {
            let seed = game_seed(self.seed, index as u64);
            let game = dealt(start, seed);
            Ok(self.play_one(game, seed))
        };
        let games = run_parallel(self.games as usize, self.jobs, play, |_| progress.inc())?;
        progress.finish();
        let mut samples = Vec::new();
        let mut lines = String::new();
        for (recorded, first_result) in games.into_iter().flatten() {
            let _ = writeln!(lines, "{first_result}\t{}", recorded.text);
            samples.push(recorded.sample);
        }
        Ok((samples, lines))
    }

    /// One self-play game: its quiet positions, each with the first
    /// player's result (their samples carry the actor's).
    fn play_one<G: Game + Evaluate>(&self, mut game: G, seed: u64) -> Vec<(Recorded, f64)> {
        for mv in random_opening(&game, self.opening_plies, seed ^ 0x0be0) {
            game.play(mv);
        }
        let config = AlphaBetaConfig { seed, hash_megabytes: 4, ..AlphaBetaConfig::default() };
        let mut search = AlphaBeta::<G>::new(config);
        let limits = Limits::nodes(self.nodes);
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut recorded = Vec::new();
        let mut plies = 0;
        while game.outcome().is_none() && plies < self.max_plies {
            let mv = match game.to_act() {
                Actor::Chance => sample_chance(&game, &mut rng),
                Actor::Player(actor) => {
                    let best = search.search(&game, &limits, &StopFlag::new(), &mut |_| {}).best;
                    if best.is_some_and(|mv| !game.in_check() && !game.is_tactical(mv)) {
                        recorded.push(Recorded { sample: Sample::of(&game, 0.5), text: game.to_text(), actor });
                    }
                    best
                }
            };
            let Some(mv) = mv else { break };
            game.play(mv);
            plies += 1;
        }
        let first = game.outcome().map_or(0.5, |o| f64::from(o.score_for(Player::First) + 1) / 2.0);
        recorded
            .into_iter()
            .map(|mut r| {
                r.sample.result = if r.actor == Player::First { first } else { 1.0 - first };
                (r, first)
            })
            .collect()
    }
}

/// Reads `<result>\t<position text>` lines (the result is the first
/// player's: 1, 0.5 or 0, or 1-0, 1/2-1/2, 0-1); blank lines and lines
/// starting with `#` are skipped.
fn read_positions<G: Game + Evaluate>(
    variant: &G::Variant,
    path: &PathBuf,
) -> Result<(Vec<Sample>, Vec<String>), CliError> {
    let text =
        std::fs::read_to_string(path).map_err(|e| CliError::BadInput(format!("reading {}: {e}", path.display())))?;
    let (mut samples, mut texts) = (Vec::new(), Vec::new());
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = |problem: String| CliError::BadInput(format!("{}:{}: {problem}", path.display(), number + 1));
        let (result, position) =
            line.split_once('\t').ok_or_else(|| at("expected a result, a tab and a position text".into()))?;
        let first = match result.trim() {
            "1" | "1.0" | "1-0" => 1.0,
            "0" | "0.0" | "0-1" => 0.0,
            "0.5" | "1/2-1/2" => 0.5,
            other => return Err(at(format!("unknown result {other:?}; expected 1, 0.5 or 0"))),
        };
        let game = G::from_text(variant, position.trim()).map_err(|e| at(e.to_string()))?;
        let Actor::Player(actor) = game.to_act() else { continue };
        if game.outcome().is_some() {
            continue;
        }
        samples.push(Sample::of(&game, if actor == Player::First { first } else { 1.0 - first }));
        texts.push(position.trim().to_string());
    }
    Ok((samples, texts))
}
