//! `menagerie study`: a variant against itself, many games in parallel, and
//! a report of what the games show (balance, length, complexity, openings,
//! piece values, the game's own mechanics) with honest intervals.
//!
//! A study lives in a folder: its settings, the finished games (appended as
//! they finish, so a rerun continues) and the report built from them.
//! `--shard I/N` plays a slice; `study merge` joins slices; `--compare` runs
//! the same study on several variants and prints the differences.

mod chart;
mod compare;
mod fit;
mod play;
mod provenance;
mod record;
mod report;
mod strength;
mod unit;
mod verify;

use crate::error::CliError;
use crate::typed::{self, TypedCommand};
use indicatif::{ProgressBar, ProgressStyle};
use menagerie_ai::{AgentSpec, Limits};
use menagerie_core::{Evaluate, Game, Present, Study};
use play::StudyPlayer;
use record::{GameRecord, Settings};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;

pub use compare::compare;
pub use play::MAX_TEMPERATURE;
pub use report::Report;
pub use strength::{rung_folder, write as write_strength, Rung};
pub use verify::verify;

/// The node budget of a move when neither `--nodes` nor `--time` is given:
/// fast enough for thousands of games, strong enough to beat a weaker
/// budget (docs/insights/).
pub const DEFAULT_NODES: u64 = 2000;

/// What `menagerie study` was asked.
#[derive(Clone, Debug)]
pub struct StudyOptions {
    pub games: u64,
    pub player: AgentSpec,
    pub time_ms: Option<u64>,
    pub nodes: Option<u64>,
    pub threads: usize,
    pub seed: u64,
    pub opening: Vec<String>,
    pub random_plies: u32,
    pub max_plies: u32,
    /// Centi-units; 0 plays the best move (see `play::choose`).
    pub temperature: u32,
    /// The slice `(i, n)` (1-based `i`) of the games this run plays.
    pub shard: (u64, u64),
    pub progress: bool,
    /// The command as typed, recorded in the study's `build.json`.
    pub command: String,
}

impl StudyOptions {
    fn limits<G: Game>(&self) -> Limits {
        let nodes = match (self.nodes, self.time_ms) {
            (None, None) => Some(DEFAULT_NODES),
            (nodes, _) => nodes,
        };
        player_limits::<G>(&self.player, self.time_ms, nodes, self.temperature)
    }
}

/// The study player's limits from its recorded budget (a node budget
/// replaces the player's time) and temperature.
fn player_limits<G: Game>(player: &AgentSpec, time_ms: Option<u64>, nodes: Option<u64>, temperature: u32) -> Limits {
    let mut limits = player.limits::<G>(time_ms.map(Duration::from_millis));
    limits.near_best = play::near_best_margin(temperature);
    if nodes.is_some() {
        limits.nodes = nodes;
        if time_ms.is_none() {
            limits.time = None;
        }
    }
    limits
}

/// Reads `--shard I/N`.
pub fn parse_shard(text: &str) -> Result<(u64, u64), String> {
    let bad = || format!("--shard {text:?}: expected I/N with 1 <= I <= N, e.g. 2/4");
    let (i, n) = text.split_once('/').ok_or_else(bad)?;
    let (i, n) = (i.trim().parse::<u64>().map_err(|_| bad())?, n.trim().parse::<u64>().map_err(|_| bad())?);
    if i == 0 || n == 0 || i > n {
        return Err(bad());
    }
    Ok((i, n))
}

/// The folder a variant's study goes to by default: `study/lichen-no-harvest`.
pub fn default_folder(variant: &str) -> PathBuf {
    let name: String = variant.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' { c } else { '-' }).collect();
    Path::new("study").join(name)
}

/// Runs (or continues) the study of `variant` in `dir`, then writes its report.
pub fn run(variant: &str, dir: &Path, options: &StudyOptions) -> Result<Report, CliError> {
    let start = typed::Start { variant: variant.to_owned(), position: None };
    typed::run(&start, Run { dir, options })?
}

struct Run<'a> {
    dir: &'a Path,
    options: &'a StudyOptions,
}

impl TypedCommand for Run<'_> {
    type Output = Result<Report, CliError>;

    fn run<G: Game + Evaluate + Present + Study>(self, start: G, variant: &str) -> Self::Output {
        let options = self.options;
        let limits = options.limits::<G>();
        let settings = Settings {
            variant: variant.to_owned(),
            player: options.player.to_string(),
            time_ms: options.time_ms,
            nodes: limits.nodes,
            seed: options.seed,
            opening: options.opening.clone(),
            random_plies: options.random_plies,
            max_plies: options.max_plies,
            temperature: options.temperature,
            material_kinds: start.material().into_iter().map(|(name, _)| name.to_owned()).collect(),
        };
        record::prepare(self.dir, &settings)?;
        let done: BTreeSet<u64> = record::read_games(self.dir)?.iter().map(|g| g.index).collect();
        let (shard, shards) = options.shard;
        let pending: Vec<u64> = (0..options.games).filter(|i| i % shards == shard - 1 && !done.contains(i)).collect();
        // Only a run that plays games must be the build that made them; a
        // rerun with nothing left to play rewrites the report.
        if !pending.is_empty() || provenance::read(self.dir)?.is_none() {
            provenance::claim(self.dir, &settings, &options.command)?;
        }
        let player = StudyPlayer { spec: options.player.clone(), limits };
        play_all(&start, &settings, &player, &pending, self.dir, options)?;
        write_report(self.dir, &settings)
    }
}

/// Plays `pending` games on `options.threads` threads, one game each,
/// appending each to the games file as it finishes.
fn play_all<G: Game + Evaluate + Study>(
    start: &G,
    settings: &Settings,
    player: &StudyPlayer,
    pending: &[u64],
    dir: &Path,
    options: &StudyOptions,
) -> Result<(), CliError> {
    if pending.is_empty() {
        return Ok(());
    }
    let progress = if options.progress { ProgressBar::new(pending.len() as u64) } else { ProgressBar::hidden() };
    progress.set_style(
        ProgressStyle::with_template(
            "{spinner} {prefix} [{elapsed_precise}] {bar:30} {pos}/{len} games  {msg}  eta {eta}",
        )
        .expect("a valid template"),
    );
    progress.set_prefix(settings.variant.clone());
    let mut appender = record::Appender::open(dir)?;
    let next = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let threads = options.threads.clamp(1, pending.len());
    let (sender, receiver) = mpsc::channel::<Result<GameRecord, CliError>>();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let sender = sender.clone();
            let (next, failed) = (&next, &failed);
            scope.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= pending.len() || failed.load(Ordering::Relaxed) {
                    break;
                }
                if sender.send(play::play_game(start, settings, player, pending[i])).is_err() {
                    break;
                }
            });
        }
        drop(sender);
        let (mut wins, mut draws, mut losses) = (0, 0, 0);
        for result in receiver {
            let game = match result {
                Ok(game) => game,
                Err(e) => {
                    failed.store(true, Ordering::Relaxed);
                    return Err(e);
                }
            };
            if let Err(e) = appender.append(&game) {
                failed.store(true, Ordering::Relaxed);
                return Err(e);
            }
            match game.first_score {
                1 => wins += 1,
                0 => draws += 1,
                _ => losses += 1,
            }
            progress.inc(1);
            progress.set_message(format!("first player +{wins} ={draws} -{losses}"));
        }
        progress.finish_and_clear();
        Ok(())
    })
}

/// Builds the report from every game in `dir` and writes `report.md`,
/// `report.json` and the charts.
pub fn write_report(dir: &Path, settings: &Settings) -> Result<Report, CliError> {
    let mut games = record::read_games(dir)?;
    games.sort_by_key(|g| g.index);
    games.dedup_by_key(|g| g.index);
    let made_by = provenance::read(dir)?;
    let report = report::build(settings, made_by, &games);
    let json = serde_json::to_string_pretty(&report).expect("a report is plain data") + "\n";
    let write = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).map_err(|e| record::failed(&path, e))
    };
    write("report.json", &json)?;
    write("report.md", &report::markdown(&report))?;
    write("length.svg", &chart::length_histogram(&report)?)?;
    provenance::write_digests(dir, &games)?;
    Ok(report)
}

/// `menagerie study merge DIR... --out DIR`: the games of several slices
/// (or runs) of one study in one folder, with its report.
pub fn merge(dirs: &[PathBuf], out: &Path, command: &str) -> Result<Report, CliError> {
    let first = dirs.first().ok_or_else(|| CliError::BadInput("study merge: name the folders to merge".into()))?;
    let settings = record::read_settings(first)?;
    let made_by = provenance::read(first)?;
    let mut games: Vec<GameRecord> = Vec::new();
    let mut commands: Vec<String> = Vec::new();
    for dir in dirs {
        let found = record::read_settings(dir)?;
        if found != settings {
            return Err(CliError::BadInput(format!(
                "{} and {} hold studies with different settings; only slices of one study merge",
                first.display(),
                dir.display()
            )));
        }
        let provenance = provenance::read(dir)?;
        if provenance.as_ref().map(|p| &p.build) != made_by.as_ref().map(|p| &p.build) {
            return Err(CliError::BadInput(format!(
                "{} and {} were made by different builds of the program; only slices of one build merge",
                first.display(),
                dir.display()
            )));
        }
        for command in provenance.into_iter().flat_map(|p| p.commands) {
            if !commands.contains(&command) {
                commands.push(command);
            }
        }
        games.extend(record::read_games(dir)?);
    }
    record::prepare(out, &settings)?;
    if let Some(made_by) = &made_by {
        let mut merged = match provenance::read(out)? {
            Some(found) if found.build != made_by.build => {
                return Err(CliError::BadInput(format!(
                    "{} holds games of another build ({}); choose another --out folder",
                    out.display(),
                    found.build
                )))
            }
            Some(found) => found,
            None => provenance::Provenance { commands: Vec::new(), ..made_by.clone() },
        };
        for command in commands.into_iter().chain([command.to_owned()]) {
            if !merged.commands.contains(&command) {
                merged.commands.push(command);
            }
        }
        provenance::write(out, &merged)?;
    }
    games.sort_by_key(|g| g.index);
    games.dedup_by_key(|g| g.index);
    record::prepare(out, &settings)?;
    let have: BTreeSet<u64> = record::read_games(out)?.iter().map(|g| g.index).collect();
    let mut appender = record::Appender::open(out)?;
    for game in games.iter().filter(|g| !have.contains(&g.index)) {
        appender.append(game)?;
    }
    write_report(out, &settings)
}

/// The lines `menagerie study` prints when done.
pub fn summary(report: &Report, dir: &Path) -> String {
    let f = &report.first_player;
    format!(
        "{}: {} games, first player +{} ={} -{}, score {:.1}% [{:.1}%, {:.1}%], decisive {:.1}% [{:.1}%, {:.1}%], \
         median length {:.0} moves\nreport: {}",
        report.variant,
        report.games,
        f.wins,
        f.draws,
        f.losses,
        100.0 * f.score.value,
        100.0 * f.score.low,
        100.0 * f.score.high,
        100.0 * f.decisive.value,
        100.0 * f.decisive.low,
        100.0 * f.decisive.high,
        report.length.median,
        dir.join("report.md").display()
    )
}
