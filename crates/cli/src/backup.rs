//! `menagerie backup --db FILE --to COPY`: a consistent copy of a live
//! SQLite store (`menagerie_server::ops::backup`).

use crate::error::CliError;
use crate::output::say;
use std::path::Path;

pub fn backup(db: &Path, to: &Path) -> Result<(), CliError> {
    if db.to_str().is_some_and(|text| text.starts_with("postgres://") || text.starts_with("postgresql://")) {
        return Err(CliError::BadInput("--db: backup copies a SQLite file; for PostgreSQL use pg_dump".into()));
    }
    if !db.is_file() {
        return Err(CliError::BadInput(format!("--db {}: no such file", db.display())));
    }
    let report = menagerie_server::ops::backup::backup_sqlite(db, to).map_err(CliError::Failed)?;
    say(format_args!("{} games backed up to {} ({} bytes)", report.games, to.display(), report.bytes));
    Ok(())
}
