//! `menagerie train`: fits a game's learned evaluation to `menagerie
//! datagen` files and writes its network file (`data/nnue/<game>.bin` to
//! build it in), with a header that says how it was made.

use crate::error::CliError;
use crate::typed::TypedCommand;
use menagerie_core::nnue::{Base, Network};
use menagerie_core::{Evaluate, Game};
use menagerie_train::fit::quantized_loss;
use menagerie_train::{Filter, Samples, Settings};
use std::path::{Path, PathBuf};

pub struct Train {
    pub data: Vec<PathBuf>,
    pub out: PathBuf,
    /// The score's share of the target; the result's is the rest.
    pub blend: f64,
    pub settings: Settings,
    pub filter: Filter,
    /// A network file to go on from instead of random weights.
    pub from: Option<PathBuf>,
    /// `--hidden` when it was given: with `--from` it must be the file's.
    pub hidden_asked: Option<usize>,
    /// The command line, for the header.
    pub command: String,
}

impl TypedCommand for Train {
    type Output = Result<(), CliError>;

    fn run<G: Game + Evaluate>(mut self, start: G, variant: &str) -> Self::Output {
        if G::LEARNED_INPUTS == 0 {
            return Err(CliError::BadInput(format!("{variant} has no learned evaluation's inputs to train")));
        }
        let from = match self.from.clone() {
            Some(path) => Some(self.start_from::<G>(&path, variant)?),
            None => None,
        };
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
        if let (Some(path), Some(from)) = (&self.from, &from) {
            about.push(format!("from: {}", path.display()));
            for key in ["command", "build"] {
                if let Some(value) = from.about_value(key) {
                    about.push(format!("from {key}: {value}"));
                }
            }
        }
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
            match report.best_epoch.checked_sub(1).and_then(|kept| report.train_loss.get(kept)) {
                Some(loss) => format!("loss: {loss:.6}"),
                None => "loss: none (no epoch improved on the network started from)".to_owned(),
            },
            format!("validation loss: {:.6}", report.kept_validation_loss),
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
            report.kept_validation_loss,
            report.quantized_validation_loss,
            report.tuned_validation_loss,
            report.seconds,
            self.out.display()
        );
        Ok(())
    }
}

impl Train {
    /// Reads the network to go on from and makes its weights the start:
    /// it must be this game's inputs, the same base, and `--hidden` (if
    /// given) its size.
    fn start_from<G: Game + Evaluate>(&mut self, path: &Path, variant: &str) -> Result<Network, CliError> {
        let shown = path.display();
        let bytes = std::fs::read(path).map_err(|error| CliError::BadInput(format!("--from {shown}: {error}")))?;
        let network =
            Network::from_bytes(&bytes).map_err(|error| CliError::BadInput(format!("--from {shown}: {error}")))?;
        if network.features != G::LEARNED_FEATURES || network.inputs() != G::LEARNED_INPUTS {
            return Err(CliError::BadInput(format!(
                "--from {shown}: a network of the inputs {}, not {variant}'s {}",
                network.features,
                G::LEARNED_FEATURES
            )));
        }
        if network.base != self.settings.base {
            let (file, asked) = match network.base {
                Base::Tuned => ("a correction to the tuned evaluation", "--alone asks for one alone"),
                Base::Nothing => ("the whole evaluation (--alone)", "without --alone the network is a correction"),
            };
            return Err(CliError::BadInput(format!("--from {shown}: that network is {file}; {asked}")));
        }
        if let Some(hidden) = self.hidden_asked.filter(|&hidden| hidden != network.hidden()) {
            return Err(CliError::BadInput(format!(
                "--from {shown}: that network has {} hidden units, not --hidden {hidden}",
                network.hidden()
            )));
        }
        self.settings.hidden = network.hidden();
        self.settings.start = Some(network.dequantize());
        Ok(network)
    }
}
