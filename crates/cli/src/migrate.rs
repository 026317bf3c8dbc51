//! `menagerie migrate`: copies every game of one database into another
//! (a SQLite file into PostgreSQL, usually), each read back and compared.

use crate::error::CliError;
use crate::output::say;
use menagerie_server::store::{copy_games, Database};

pub fn migrate(from: &str, to: &str) -> Result<(), CliError> {
    let (from, to) = (Database::parse(from), Database::parse(to));
    if from == to {
        return Err(CliError::BadInput(format!("--from and --to are the same database ({from})")));
    }
    // Opening a SQLite file creates it: a missing source is a typo.
    if let Database::Sqlite(path) = &from {
        if !path.is_file() {
            return Err(CliError::BadInput(format!("--from {}: no such file", path.display())));
        }
    }
    let source = from.open().map_err(|e| CliError::Failed(format!("cannot open {from}: {e}")))?;
    let destination = to.open().map_err(|e| CliError::Failed(format!("cannot open {to}: {e}")))?;
    let report = copy_games(source.as_ref(), destination.as_ref()).map_err(|e| CliError::Failed(e.to_string()))?;
    say(format_args!(
        "{} games copied ({} moves), {} already there; every game read back from {to} equals {from}; \
         {} rows of accounts, sessions, seats, passkeys, results and ratings copied",
        report.copied, report.moves, report.already_there, report.rows
    ));
    Ok(())
}
