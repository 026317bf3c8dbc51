//! How far each account has come in each lesson (docs/learn.md): the
//! steps done, which only grows (a lesson played again does not undo it).
//! Written once ([`super::sql`]); the table is in `schema.rs`.

use super::error::StoreError;
use super::sql::Sql;
use crate::sql_params;

/// `account` has done the first `steps` steps of `lesson` (at `now`, ms);
/// a lower count than the one stored changes nothing.
pub fn record(sql: &mut dyn Sql, account: &str, lesson: &str, steps: i64, now: i64) -> Result<(), StoreError> {
    sql.execute(
        "INSERT INTO lesson_progress (account, lesson, steps, at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (account, lesson) DO UPDATE SET steps = $3, at = $4 WHERE lesson_progress.steps < $3",
        sql_params![account, lesson, steps, now],
    )?;
    Ok(())
}

/// `account`'s lessons begun: each lesson's id and its steps done, by id.
pub fn progress(sql: &mut dyn Sql, account: &str) -> Result<Vec<(String, i64)>, StoreError> {
    sql.query("SELECT lesson, steps FROM lesson_progress WHERE account = $1 ORDER BY lesson", sql_params![account])?
        .iter()
        .map(|row| Ok((row.text(0)?, row.int(1)?)))
        .collect()
}
