//! When each seat of a game was last seen by any node (a socket open on
//! its game, a read of its state), for abandonment claims
//! (`menagerie_server::abandonment`). Each query written once ([`super::sql`]).

use super::error::StoreError;
use super::sql::Sql;
use crate::sql_params;

/// Seat `seat` of `game` was seen at `now` (ms).
pub fn saw(sql: &mut dyn Sql, game: &str, seat: usize, now: i64) -> Result<(), StoreError> {
    sql.execute(
        "INSERT INTO seat_presence (game, seat, seen) VALUES ($1, $2, $3)
         ON CONFLICT (game, seat) DO UPDATE SET seen = excluded.seen WHERE seat_presence.seen < excluded.seen",
        sql_params![game, seat as i64, now],
    )?;
    Ok(())
}

/// When seat `seat` of `game` was last seen, if ever.
pub fn last_seen(sql: &mut dyn Sql, game: &str, seat: usize) -> Result<Option<i64>, StoreError> {
    sql.query_opt("SELECT seen FROM seat_presence WHERE game = $1 AND seat = $2", sql_params![game, seat as i64])?
        .map(|row| row.int(0))
        .transpose()
}
