//! Game records on the command line (docs/records.md): `selfplay --records`
//! writes them, `menagerie replay` checks and replays a file of them.

use crate::error::CliError;
use crate::files::DataFiles;
use menagerie_core::record::{read_records, replay, write_record, Ending, RecordInfo, RecordResult};
use menagerie_core::{DynGame, Erased, Present};
use std::path::Path;

/// The record of a game played from `start` (whose position text is
/// `start_text` when it is not the variant's start) by `moves`.
pub fn record_of<G: Present>(
    start: &G,
    start_text: Option<&str>,
    variant: &str,
    moves: &[G::Move],
    info: &RecordInfo,
    ending: Option<&Ending>,
) -> Result<String, CliError> {
    let mut game = Erased::new(start.clone(), variant);
    for &mv in moves {
        let text = game.game().move_text(mv);
        game.play(&text).map_err(|e| CliError::Failed(format!("a played move does not replay: {e}")))?;
    }
    Ok(write_record(&game, start_text, info, ending))
}

/// Writes `records` to `path`, one after another.
pub fn write_file(path: &Path, records: &[String]) -> Result<(), CliError> {
    std::fs::write(path, records.concat())
        .map_err(|e| CliError::Failed(format!("cannot write {}: {e}", path.display())))
}

fn make(variant: &str, start: Option<&str>) -> Result<Box<dyn DynGame>, String> {
    menagerie_games::new_game(variant, start, 0, &DataFiles).map_err(|e| e.to_string())
}

/// `menagerie replay FILE`: replays every record of the file through the
/// rules and prints each game's result; the first fault is the error.
pub fn replay_file(path: &Path) -> Result<(), CliError> {
    let text = std::fs::read_to_string(path).map_err(|e| CliError::BadInput(format!("{}: {e}", path.display())))?;
    let records = read_records(&text).map_err(|e| CliError::BadInput(format!("{}: {e}", path.display())))?;
    if records.is_empty() {
        return Err(CliError::BadInput(format!("{}: no game records", path.display())));
    }
    for record in &records {
        let replayed = replay(record, &make).map_err(|e| CliError::BadInput(format!("{}: {e}", path.display())))?;
        let how = match (&replayed.ending, replayed.result) {
            (Some(ending), result) => format!("{} {}", result.token(), ending.reason),
            (None, _) => format!("{} going on", RecordResult::Unfinished.token()),
        };
        println!("game {}: {} {how} ({} moves)", record.index, replayed.game.variant(), replayed.game.history().len());
    }
    println!("{} games replayed", records.len());
    Ok(())
}
