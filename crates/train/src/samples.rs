//! Positions from data files, as the network sees them: each position's
//! active inputs from both perspectives (the side to act's first) and its
//! target.
//!
//! The target is what the output, read as a win chance, should be:
//! `blend × chance(score) + (1 − blend) × (result + 1) / 2`, where
//! `chance(E) = 1 / (1 + 10^(−K·E/400))` with the game's fitted `K`
//! (`Evaluate::win_scale`, the scale of the tuned weights whose search
//! scored the data). The score says what a search saw, the result what
//! happened; blending them is what NNUE trainers do.

use menagerie_ai::datagen::{flags, DataError, DataReader};
use menagerie_core::{Evaluate, Player};
use std::fs::File;
use std::io::BufReader;
use std::path::Path;
use thiserror::Error;

/// Which positions to train on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Filter {
    /// Keep positions whose chosen move was tactical (a capture, a
    /// promotion...) and positions in check: their static value is what a
    /// quiescence search corrects, so by default they are left out.
    pub keep_noisy: bool,
    /// One game in this many (by index) is held out for validation.
    pub validation_every: u64,
}

impl Default for Filter {
    fn default() -> Self {
        Filter { keep_noisy: false, validation_every: 20 }
    }
}

#[derive(Debug, Error)]
pub enum SamplesError {
    #[error("{file}: {error}")]
    Data { file: String, error: DataError },
    #[error("{file}: {error}")]
    Io { file: String, error: std::io::Error },
    #[error("{file} holds {found} games; this is {wanted}")]
    Variant { file: String, found: String, wanted: String },
    #[error("{file}, game {game}: a position the rules refuse ({error})")]
    Position { file: String, game: u64, error: String },
    #[error("{file}, game {game}: an input {input} of {inputs}")]
    Input { file: String, game: u64, input: u16, inputs: usize },
}

/// Positions as inputs and targets, split into training and validation.
#[derive(Clone, Debug, Default)]
pub struct Samples {
    pub train: Set,
    pub validation: Set,
    /// Games read, and their records left out by the filter.
    pub games: u64,
    pub skipped: u64,
    /// Files that ended inside a game (a run still going, or stopped):
    /// their whole games are used.
    pub cut_files: Vec<String>,
    /// The data files' headers, as datagen commands (for the network's
    /// header).
    pub sources: Vec<String>,
}

/// A set of positions.
#[derive(Clone, Debug, Default)]
pub struct Set {
    /// Every position's inputs, own then theirs, one after another.
    pub inputs: Vec<u16>,
    /// Per position: where its own inputs end and where its others' end,
    /// in `inputs`.
    pub ends: Vec<(u32, u32)>,
    /// Per position: the target win chance for the side to act.
    pub targets: Vec<f32>,
    /// Per position: the tuned evaluation's score (centi-units), for the
    /// yardstick loss.
    pub tuned: Vec<f32>,
}

impl Set {
    pub fn len(&self) -> usize {
        self.targets.len()
    }

    pub fn is_empty(&self) -> bool {
        self.targets.is_empty()
    }

    /// The own and the others' inputs of position `i`.
    pub fn position(&self, i: usize) -> (&[u16], &[u16]) {
        let start = if i == 0 { 0 } else { self.ends[i - 1].1 as usize };
        let (own_end, their_end) = self.ends[i];
        (&self.inputs[start..own_end as usize], &self.inputs[own_end as usize..their_end as usize])
    }

    fn push(&mut self, own: &[u16], theirs: &[u16], target: f32, tuned: f32) {
        self.inputs.extend_from_slice(own);
        let own_end = self.inputs.len() as u32;
        self.inputs.extend_from_slice(theirs);
        self.ends.push((own_end, self.inputs.len() as u32));
        self.targets.push(target);
        self.tuned.push(tuned);
    }
}

/// The win chance of a score on scale `k`.
pub fn chance(score: f64, k: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * score / 400.0))
}

impl Samples {
    /// Reads `files` of `start`'s variant (named `variant`), with targets
    /// blended by `blend`.
    pub fn read<G: Evaluate>(
        start: &G,
        variant: &str,
        files: &[impl AsRef<Path>],
        blend: f64,
        filter: Filter,
    ) -> Result<Samples, SamplesError> {
        let mut samples = Samples::default();
        let k = G::win_scale();
        let (mut own, mut theirs) = (Vec::new(), Vec::new());
        for path in files {
            let path = path.as_ref();
            let file = path.display().to_string();
            let opened = File::open(path).map_err(|error| SamplesError::Io { file: file.clone(), error })?;
            let mut reader = DataReader::new(BufReader::with_capacity(1 << 20, opened))
                .map_err(|error| SamplesError::Data { file: file.clone(), error })?;
            let header = reader.header().clone();
            if header.variant != variant {
                return Err(SamplesError::Variant { file, found: header.variant, wanted: variant.to_owned() });
            }
            samples.sources.push(format!(
                "menagerie datagen {} --first-game {} --games {} --nodes {} --opening-plies {} --max-plies {} --seed {} ({})",
                header.variant,
                header.first_game,
                header.games,
                header.nodes,
                header.opening_plies,
                header.max_plies,
                header.seed,
                header.build
            ));
            loop {
                let game = match reader.next_game() {
                    Ok(Some(game)) => game,
                    Ok(None) => break,
                    Err(DataError::Truncated(_)) => {
                        samples.cut_files.push(file.clone());
                        break;
                    }
                    Err(error) => return Err(SamplesError::Data { file, error }),
                };
                samples.games += 1;
                let held_out = game.index % filter.validation_every.max(1) == 0;
                for record in &game.records {
                    if !filter.keep_noisy && record.flags & (flags::TACTICAL | flags::IN_CHECK) != 0 {
                        samples.skipped += 1;
                        continue;
                    }
                    let position = G::from_text(start.variant(), &record.position).map_err(|error| {
                        SamplesError::Position { file: file.clone(), game: game.index, error: error.to_string() }
                    })?;
                    let us = position.to_act().player().unwrap_or(Player::First);
                    for (list, perspective) in [(&mut own, us), (&mut theirs, us.other())] {
                        list.clear();
                        position.learned_inputs(perspective, list);
                        list.sort_unstable();
                        if let Some(&input) = list.iter().find(|&&input| usize::from(input) >= G::LEARNED_INPUTS) {
                            return Err(SamplesError::Input {
                                file: file.clone(),
                                game: game.index,
                                input,
                                inputs: G::LEARNED_INPUTS,
                            });
                        }
                    }
                    let result = (f64::from(record.result) + 1.0) / 2.0;
                    let target = blend * chance(f64::from(record.score), k) + (1.0 - blend) * result;
                    let set = if held_out { &mut samples.validation } else { &mut samples.train };
                    set.push(&own, &theirs, target as f32, position.evaluate() as f32);
                }
            }
        }
        Ok(samples)
    }
}
