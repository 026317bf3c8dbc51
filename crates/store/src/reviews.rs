//! Computer reviews of finished games, each kept as the JSON the API
//! answers, so that every node sharing the database answers a review
//! whichever node ran it. Written once for both databases
//! ([`super::sql`]); the table is in `schema.rs`.

use super::error::StoreError;
use super::sql::Sql;
use crate::sql_params;

/// Keeps `review` (JSON) as game `game`'s review, made at `now` (ms), unless
/// one is kept already (then that one stays: both came from the same
/// game with the same budget). True if this one was kept.
pub fn save(sql: &mut dyn Sql, game: &str, review: &str, now: i64) -> Result<bool, StoreError> {
    let added = sql.execute(
        "INSERT INTO game_reviews (game, review, created) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
        sql_params![game, review, now],
    )?;
    Ok(added == 1)
}

/// Game `game`'s review (JSON), if it was reviewed.
pub fn load(sql: &mut dyn Sql, game: &str) -> Result<Option<String>, StoreError> {
    sql.query_opt("SELECT review FROM game_reviews WHERE game = $1", sql_params![game])?
        .map(|row| row.text(0))
        .transpose()
}
