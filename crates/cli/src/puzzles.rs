//! `menagerie puzzles`: mines puzzles from records files and self-played
//! games (menagerie-learn's miner) and writes them as JSON lines.

use crate::error::CliError;
use crate::progress::GamesProgress;
use menagerie_core::record::read_records;
use menagerie_core::VariantSpec;
use menagerie_learn::puzzle::mine::MineConfig;
use menagerie_learn::puzzle::selfplay::SelfplayConfig;
use menagerie_learn::puzzle::{mine_variant, read_puzzles, MineError, MineJob, Puzzle, RecordedGame};
use std::io::Write;
use std::path::{Path, PathBuf};

pub struct PuzzlesArgs {
    pub variant: String,
    pub records: Vec<PathBuf>,
    pub selfplay: usize,
    pub seed: u64,
    pub out: Option<PathBuf>,
    pub solve_nodes: Option<u64>,
    pub scan_nodes: Option<u64>,
    pub progress_lines: bool,
    pub enough: Option<usize>,
}

/// The games of `variant` in a records file.
fn recorded_games(path: &Path, variant: &str) -> Result<Vec<RecordedGame>, CliError> {
    let bad = |e: String| CliError::BadInput(format!("{}: {e}", path.display()));
    let text = std::fs::read_to_string(path).map_err(|e| bad(e.to_string()))?;
    let records = read_records(&text).map_err(|e| bad(e.to_string()))?;
    let file = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    Ok(records
        .into_iter()
        .filter(|r| {
            r.tag("Variant").and_then(|v| VariantSpec::parse(v.trim()).ok()).is_some_and(|v| v.to_string() == variant)
        })
        .map(|r| RecordedGame {
            file: file.clone(),
            game: r.index,
            start: r.tag("FEN").map(|f| f.trim().to_owned()).filter(|f| !f.is_empty()),
            moves: r.moves.iter().map(|m| m.text.clone()).collect(),
        })
        .collect())
}

pub fn run(args: PuzzlesArgs) -> Result<(), CliError> {
    let variant = VariantSpec::parse(&args.variant).map_err(|e| CliError::BadInput(e.to_string()))?.to_string();
    let mut records = Vec::new();
    for path in &args.records {
        records.extend(recorded_games(path, &variant)?);
    }
    if records.is_empty() && args.selfplay == 0 {
        return Err(CliError::BadInput(format!(
            "nothing to mine: no game of {variant} in the records given, and no --selfplay games"
        )));
    }
    let mut mine = MineConfig::default();
    if let Some(nodes) = args.solve_nodes {
        mine.solve_nodes = nodes.max(1);
    }
    if let Some(nodes) = args.scan_nodes {
        mine.scan_nodes = nodes.max(1);
    }
    // The ids already in the output file are not written again.
    let mut known = std::collections::HashSet::new();
    if let Some(out) = &args.out {
        if let Ok(text) = std::fs::read_to_string(out) {
            let puzzles = read_puzzles(&text).map_err(|e| CliError::BadInput(format!("{}: {e}", out.display())))?;
            known.extend(puzzles.into_iter().map(|p| p.id));
        }
    }
    let mut sink: Box<dyn Write> = match &args.out {
        Some(out) => Box::new(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(out)
                .map_err(|e| CliError::BadInput(format!("{}: {e}", out.display())))?,
        ),
        None => Box::new(std::io::stdout().lock()),
    };
    let job = MineJob {
        variant: &variant,
        records: &records,
        selfplay_games: args.selfplay,
        seed: args.seed,
        mine,
        selfplay: SelfplayConfig::default(),
        enough: args.enough,
    };
    let started = std::time::Instant::now();
    let bar = GamesProgress::new("puzzles", (records.len() + args.selfplay) as u64, true, args.progress_lines);
    let mut written = 0usize;
    let mut failed: Option<std::io::Error> = None;
    let mut found = |puzzle: Puzzle| {
        if failed.is_some() || !known.insert(puzzle.id.clone()) {
            return;
        }
        let line = serde_json::to_string(&puzzle).expect("puzzles serialise");
        match writeln!(sink, "{line}").and_then(|_| sink.flush()) {
            Ok(()) => written += 1,
            Err(e) => failed = Some(e),
        }
    };
    let mut progress = |_done: usize, _total: usize| bar.inc();
    let result = mine_variant(&job, &mut found, &mut progress);
    bar.finish();
    if let Some(e) = failed {
        return Err(CliError::Failed(format!("writing the puzzles: {e}")));
    }
    match result {
        Ok(stats) => {
            eprintln!(
                "{written} puzzles of {variant} from {} games in {:.1} s ({} positions, {} candidates: {} ambiguous, {} not winning, {} achieving nothing nameable)",
                stats.games,
                started.elapsed().as_secs_f64(),
                stats.positions,
                stats.candidates,
                stats.ambiguous,
                stats.not_winning,
                stats.nothing_achieved
            );
            Ok(())
        }
        Err(e @ (MineError::Variant(_) | MineError::HiddenInformation(_) | MineError::Record { .. })) => {
            Err(CliError::BadInput(e.to_string()))
        }
    }
}
