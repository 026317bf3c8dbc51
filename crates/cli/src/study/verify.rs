//! `menagerie study verify DIR [--games N]`: plays the first N games of a
//! study again with the settings it records and compares each game's
//! fingerprint with the one the study kept. A study's games depend only on
//! its settings and their own numbers (never on how many games the study
//! has, nor on its threads or shards), so any prefix can be checked.

use super::play::{self, StudyPlayer};
use super::provenance::{self, Build};
use super::record::{self, Settings};
use crate::error::CliError;
use crate::typed::{self, TypedCommand};
use menagerie_ai::AgentSpec;
use menagerie_core::{Evaluate, Game, Present, Study};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// Checks the first `games` games (all when `None`) of the study in `dir`
/// on `threads` threads. `Ok` carries the line to print when every game
/// matches; a game that differs is a `Failed` error naming it and the build
/// that made the study.
pub fn verify(dir: &Path, games: Option<u64>, threads: usize) -> Result<String, CliError> {
    let settings = record::read_settings(dir)?;
    if settings.time_ms.is_some() && settings.nodes.is_none() {
        return Err(CliError::BadInput(format!(
            "{}: a study on time (--time without --nodes) depends on the machine and cannot be played again",
            dir.display()
        )));
    }
    let made_by = provenance::read(dir)?.map(|p| p.build);
    let mut digests = provenance::read_digests(dir)?;
    if let Some(n) = games {
        digests.truncate(n as usize);
    }
    if digests.is_empty() {
        return Err(CliError::BadInput(format!("{}: no games to verify", dir.display())));
    }
    let start = typed::Start { variant: settings.variant.clone(), position: None };
    let replayed = typed::run(&start, Replay { settings: &settings, indices: &digests, threads })??;
    let this = Build::this_program();
    let made = made_by.as_ref().map_or("an unrecorded build".to_owned(), |b| b.to_string());
    let differing: Vec<(u64, &str, &str)> = digests
        .iter()
        .zip(&replayed)
        .filter(|((_, kept), again)| kept != *again)
        .map(|((index, kept), again)| (*index, kept.as_str(), again.as_str()))
        .collect();
    match differing.first() {
        None => Ok(format!(
            "{}: {} games played again, all the same (study made by {made}; this program is {this})",
            dir.display(),
            digests.len()
        )),
        Some((index, kept, again)) => Err(CliError::Failed(format!(
            "{}: {} of {} games differ, the first game {index} (digest {kept} in the study, {again} now): \
             the study was made by {made}, this program is {this} and plays differently",
            dir.display(),
            differing.len(),
            digests.len()
        ))),
    }
}

struct Replay<'a> {
    settings: &'a Settings,
    indices: &'a [(u64, String)],
    threads: usize,
}

impl TypedCommand for Replay<'_> {
    type Output = Result<Vec<String>, CliError>;

    fn run<G: Game + Evaluate + Present + Study>(self, start: G, variant: &str) -> Self::Output {
        let settings = self.settings;
        if variant != settings.variant {
            return Err(CliError::BadInput(format!(
                "the study names variant {:?}, read today as {variant:?}",
                settings.variant
            )));
        }
        let spec = AgentSpec::parse(&settings.player).map_err(|e| CliError::BadInput(e.to_string()))?;
        let limits = super::player_limits::<G>(&spec, settings.time_ms, settings.nodes, settings.temperature);
        let player = StudyPlayer { spec, limits };
        let results: Mutex<Vec<Option<Result<String, CliError>>>> =
            Mutex::new((0..self.indices.len()).map(|_| None).collect());
        let next = AtomicUsize::new(0);
        std::thread::scope(|scope| {
            for _ in 0..self.threads.clamp(1, self.indices.len()) {
                scope.spawn(|| loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some((index, _)) = self.indices.get(i) else { break };
                    let digest = play::play_game(&start, settings, &player, *index).map(|game| game.digest);
                    results.lock().unwrap_or_else(|p| p.into_inner())[i] = Some(digest);
                });
            }
        });
        results
            .into_inner()
            .unwrap_or_else(|p| p.into_inner())
            .into_iter()
            .map(|r| r.expect("every game was played"))
            .collect()
    }
}
