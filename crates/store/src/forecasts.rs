//! The conditional moves a seat queued (`menagerie_server::forecast`), each query
//! written once ([`super::sql`]).

use super::error::StoreError;
use super::sql::Sql;
use crate::sql_params;

/// The lines seat `seat` of `game` queued (none: empty).
pub fn lines(sql: &mut dyn Sql, game: &str, seat: usize) -> Result<Vec<Vec<String>>, StoreError> {
    let row =
        sql.query_opt("SELECT lines FROM forecasts WHERE game = $1 AND seat = $2", sql_params![game, seat as i64])?;
    match row {
        None => Ok(Vec::new()),
        Some(row) => serde_json::from_str(&row.text(0)?)
            .map_err(|e| StoreError::Database(format!("the forecasts of game {game} are unreadable: {e}"))),
    }
}

/// Replaces the lines of seat `seat` of `game` (empty: none).
pub fn set_lines(
    sql: &mut dyn Sql,
    game: &str,
    seat: usize,
    lines: &[Vec<String>],
    now: i64,
) -> Result<(), StoreError> {
    sql.execute("DELETE FROM forecasts WHERE game = $1 AND seat = $2", sql_params![game, seat as i64])?;
    if !lines.is_empty() {
        let text = serde_json::to_string(lines).map_err(|e| StoreError::Database(e.to_string()))?;
        sql.execute(
            "INSERT INTO forecasts (game, seat, lines, updated) VALUES ($1, $2, $3, $4)",
            sql_params![game, seat as i64, text, now],
        )?;
    }
    Ok(())
}
