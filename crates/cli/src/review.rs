//! `menagerie review`: the computer's review of a recorded game (the same
//! review the server gives a finished game, docs/learn.md "Reviews"): an
//! evaluation and the best move for every ply, lichess's judgments and each
//! player's accuracy, as JSON on stdout; how long it took on stderr.

use crate::error::CliError;
use crate::progress::GamesProgress;
use menagerie_ai::StopFlag;
use menagerie_core::record::read_records;
use menagerie_core::VariantSpec;
use menagerie_learn::review::{review, ReviewBudget, ReviewError};
use std::path::PathBuf;

pub struct ReviewArgs {
    pub file: PathBuf,
    /// Which game of the file, from 1.
    pub game: usize,
    pub nodes: Option<u64>,
    pub threads: Option<usize>,
    pub progress_lines: bool,
}

pub fn run(args: ReviewArgs) -> Result<(), CliError> {
    let bad = |e: String| CliError::BadInput(format!("{}: {e}", args.file.display()));
    let text = std::fs::read_to_string(&args.file).map_err(|e| bad(e.to_string()))?;
    let records = read_records(&text).map_err(|e| bad(e.to_string()))?;
    let count = records.len();
    let record = records
        .into_iter()
        .nth(args.game.saturating_sub(1))
        .filter(|_| args.game >= 1)
        .ok_or_else(|| bad(format!("no game {} (the file holds {count})", args.game)))?;
    let variant = record.tag("Variant").map(str::trim).ok_or_else(|| bad("the game has no Variant tag".into()))?;
    let spec = VariantSpec::parse(variant).map_err(|e| bad(e.to_string()))?;
    // The game of a variant id (`lma-double` is LMA's).
    let game = spec.id.split('-').next().unwrap_or(&spec.id);
    let mut budget = ReviewBudget::for_game(game);
    if let Some(nodes) = args.nodes {
        budget.nodes = nodes.max(1);
    }
    if let Some(threads) = args.threads {
        budget.threads = threads.max(1);
    }
    let start = record.tag("FEN").map(str::trim).filter(|f| !f.is_empty());
    let moves: Vec<String> = record.moves.iter().map(|m| m.text.clone()).collect();
    let started = std::time::Instant::now();
    let bar = GamesProgress::new("review", moves.len() as u64 + 1, false, args.progress_lines);
    let mut progress = |_done: usize, _total: usize| bar.inc();
    let result = review(&spec.to_string(), start, &moves, &budget, &mut progress, &StopFlag::default());
    bar.finish();
    let reviewed = result.map_err(|e| match e {
        ReviewError::Cancelled => CliError::Failed(e.to_string()),
        other => CliError::BadInput(other.to_string()),
    })?;
    println!("{}", serde_json::to_string(&reviewed).map_err(|e| CliError::Failed(e.to_string()))?);
    eprintln!(
        "reviewed {} plies of {spec} in {:.1} s ({} nodes a position, {} thread{})",
        moves.len(),
        started.elapsed().as_secs_f64(),
        budget.nodes,
        budget.threads,
        if budget.threads == 1 { "" } else { "s" }
    );
    Ok(())
}
