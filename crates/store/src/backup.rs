//! `menagerie backup`: a consistent copy of a SQLite store while the server
//! runs, by SQLite's online backup API. The whole database is copied in one
//! step, under one read transaction: in WAL mode a reader does not stop the
//! writer, so the server goes on committing moves meanwhile, and the copy
//! is the store as it was at one instant (every move acknowledged before
//! the backup began is in it). The copy is written beside its destination
//! and renamed into place once complete and checked, so a failed backup
//! never leaves half a file where the last good one was. Restoring is
//! serving the copy (`menagerie serve --db COPY`).

use rusqlite::backup::{Backup, StepResult};
use rusqlite::{Connection, OpenFlags};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// What a backup copied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BackupReport {
    pub games: usize,
    pub bytes: u64,
}

/// How long a backup waits for a lock the server holds (a checkpoint)
/// before trying again, and how many times.
const BUSY_WAIT: Duration = Duration::from_millis(50);
const BUSY_TRIES: usize = 200;

/// Copies the SQLite store `from` to `to`.
pub fn backup_sqlite(from: &Path, to: &Path) -> Result<BackupReport, String> {
    if !from.is_file() {
        return Err(format!("--db {}: no such file", from.display()));
    }
    if same_file(from, to) {
        return Err(format!("--to {} is the store itself", to.display()));
    }
    let partial = partial_path(to);
    let copied = copy(from, &partial).and_then(|()| check(&partial));
    let report = match copied {
        Ok(report) => report,
        Err(error) => {
            let _ = std::fs::remove_file(&partial);
            return Err(error);
        }
    };
    std::fs::rename(&partial, to).map_err(|e| format!("cannot move the copy to {}: {e}", to.display()))?;
    Ok(report)
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// Where the copy is written before it is complete: beside `to`, so that
/// the rename is atomic.
fn partial_path(to: &Path) -> PathBuf {
    let mut name = to.file_name().map(|n| n.to_os_string()).unwrap_or_default();
    name.push(".partial");
    to.with_file_name(name)
}

fn copy(from: &Path, partial: &Path) -> Result<(), String> {
    // Read-write (never create): a WAL database's reader takes part in its
    // shared-memory index.
    let source = Connection::open_with_flags(from, OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX)
        .map_err(|e| format!("cannot open {}: {e}", from.display()))?;
    source.busy_timeout(Duration::from_secs(5)).map_err(|e| e.to_string())?;
    let _ = std::fs::remove_file(partial);
    let mut destination = Connection::open(partial).map_err(|e| format!("cannot create {}: {e}", partial.display()))?;
    let backup = Backup::new(&source, &mut destination).map_err(|e| format!("cannot start the backup: {e}"))?;
    for _ in 0..BUSY_TRIES {
        // -1: every page in one step, so the copy is one instant of the store.
        match backup.step(-1).map_err(|e| format!("the backup failed: {e}"))? {
            StepResult::Done => return Ok(()),
            StepResult::More | StepResult::Busy | StepResult::Locked => std::thread::sleep(BUSY_WAIT),
            _ => std::thread::sleep(BUSY_WAIT),
        }
    }
    Err(format!("the backup could not read {} (it stayed locked)", from.display()))
}

/// Checks the copy's pages and counts its games.
fn check(partial: &Path) -> Result<BackupReport, String> {
    let connection = Connection::open(partial).map_err(|e| e.to_string())?;
    let verdict: String = connection
        .query_row("PRAGMA quick_check", [], |row| row.get(0))
        .map_err(|e| format!("the copy cannot be checked: {e}"))?;
    if verdict != "ok" {
        return Err(format!("the copy is damaged: {verdict}"));
    }
    let games: i64 = connection
        .query_row("SELECT count(*) FROM games", [], |row| row.get(0))
        .map_err(|e| format!("the copy holds no games table: {e}"))?;
    connection.close().map_err(|(_, e)| format!("cannot close the copy: {e}"))?;
    let bytes = std::fs::metadata(partial).map(|m| m.len()).unwrap_or(0);
    Ok(BackupReport { games: games as usize, bytes })
}
