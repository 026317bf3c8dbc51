//! `menagerie train`: fits a game's learned evaluation to `menagerie
//! datagen` files and writes its network file (`data/nnue/<game>.bin` to
//! build it in), with a header that says how it was made.

use crate::error::CliError;
use crate::typed::TypedCommand;
use menagerie_core::nnue::Base;
use menagerie_core::{Evaluate, Game};
use menagerie_train::fit::quantized_loss;
use menagerie_train::{Filter, Samples, Settings};
use std::path::PathBuf;

pub struct Train {
    pub data: Vec<PathBuf>,
    pub out: PathBuf,
    /// The score's share of the target; the result's is the rest.
    pub blend: f64,
    pub settings: Settings,
    pub filter: Filter,
    /// The command line, for the header.
    pub command: String,
}

impl TypedCommand for Train {
    type Output = Result<(), CliError>;

    fn run<G: Game + Evaluate>(self, start: G, variant: &str) -> Self::Output {
        if G::LEARNED_INPUTS == 0 {
            return Err(CliError::BadInput(format!("{variant} has no learned evaluation's inputs to train")));
        }
        let started = std::time::Instant::now();
        let samples = Samples::read(&start, variant, &self.data, self.blend, self.filter)
            .map_err(|error| CliError::BadInput(error.to_string()))?;
        for file in &samples.cut_files {
            eprintln!("train {variant}: {file} ends inside a game; its whole games are used");
        }
        if samples.train.is_empty() || samples.validation.is_empty() {
            return Err(CliError::BadInput(format!(
                "{} positions to train on and {} to validate with: give more data",
                samples.train.len(),
                samples.validation.len()
            )));
        }
        eprintln!(
            "train {variant}: {} games, {} positions to train on, {} held out, {} left out (tactical or in check), read in {:.0} s",
            samples.games,
            samples.train.len(),
            samples.validation.len(),
            samples.skipped,
            started.elapsed().as_secs_f64()
        );
        let k = G::win_scale();
        let (float, mut report) = menagerie_train::train(&samples, G::LEARNED_INPUTS, k, &self.settings, |line| {
            eprintln!("train {variant}: {line}")
        })
        .map_err(|error| CliError::Failed(format!("training failed: {error}")))?;
        let settings = &self.settings;
        let mut about = vec![
            format!("game: {variant}"),
            format!("features: {}", G::LEARNED_FEATURES),
            format!("command: {}", self.command),
        ];
        about.extend(samples.sources.iter().map(|source| format!("data: {source}")));
        about.extend([
            format!("games: {}", samples.games),
            format!("positions: {}", samples.train.len()),
            format!("validation positions: {}", samples.validation.len()),
            format!("blend: {}", self.blend),
            format!("win scale: {k}"),
            format!("base: {}", if settings.base == Base::Tuned { "tuned" } else { "nothing" }),
            format!("hidden: {}", settings.hidden),
            format!("epochs: {}", settings.epochs),
            format!("batch: {}", settings.batch),
            format!("learning rate: {}", settings.learning_rate),
            format!("seed: {}", settings.seed),
            format!("kept epoch: {}", report.best_epoch),
            format!(
                "loss: {:.6}",
                report.train_loss.get(report.best_epoch.wrapping_sub(1)).copied().unwrap_or(f64::NAN)
            ),
            format!("validation loss: {:.6}", best_loss(&report)),
            format!("tuned validation loss: {:.6}", report.tuned_validation_loss),
            format!("seconds: {:.0}", report.seconds),
            format!("build: menagerie {} (commit {})", env!("CARGO_PKG_VERSION"), env!("MENAGERIE_COMMIT")),
        ]);
        let network = float
            .quantize(G::LEARNED_FEATURES, &about.join("\n"), settings.base)
            .map_err(|error| CliError::Failed(format!("quantizing: {error}")))?;
        report.quantized_validation_loss = quantized_loss(&network, &samples.validation, k);
        std::fs::write(&self.out, network.to_bytes())
            .map_err(|error| CliError::Failed(format!("cannot write {}: {error}", self.out.display())))?;
        println!(
            "{variant}: {} positions, {} epochs (kept epoch {}), validation loss {:.6} (integer network {:.6}; the tuned evaluation {:.6}), {:.0} s; wrote {}",
            samples.train.len(),
            settings.epochs,
            report.best_epoch,
            best_loss(&report),
            report.quantized_validation_loss,
            report.tuned_validation_loss,
            report.seconds,
            self.out.display()
        );
        Ok(())
    }
}

/// The validation loss of the epoch kept.
fn best_loss(report: &menagerie_train::Report) -> f64 {
    report.validation_loss.get(report.best_epoch.wrapping_sub(1)).copied().unwrap_or(f64::NAN)
}
