//! The counts of `menagerie_server::limits` in the store, so that a limit holds
//! across nodes: each query written once ([`super::sql`]). What the rows
//! mean is in `schema.rs`.
//!
//! A count locks its key's row (`limit_keys`) before it reads: on
//! PostgreSQL a second node counting the same actor waits for the first
//! to commit, and SQLite runs one writing transaction at a time, so two
//! requests never both take the last place of a window.

use super::error::StoreError;
use super::sql::Sql;
use crate::sql_params;

/// One limit's count for one actor, as [`count`] takes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Key<'a> {
    /// The limit's name.
    pub name: &'a str,
    /// Whom it counts, hashed (`menagerie_server::limits::Limit::actor_key`).
    pub actor: &'a str,
    /// Its window (ms) and what it allows in one.
    pub window_ms: i64,
    pub count: u32,
}

/// What a count answers: each key counted (the id of its hit, to take
/// back with [`uncount`]), or the first key that is full and when a place
/// frees in its window (ms since the epoch).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Counted {
    Yes(Vec<String>),
    Full { key: usize, free_at: i64 },
}

/// Counts one request at `now` against every key, all or none: if any key
/// has its `count` of hits in its window, nothing is counted and the first
/// such is answered. Each hit is stored under its id in `ids` (one a key).
/// A key's hits older than its window are deleted as it is counted; with
/// `sweep`, every hit and key last seen before that time (ms) as well (the
/// keys that stopped coming: now and then, not on every count).
pub fn count(
    sql: &mut dyn Sql,
    keys: &[Key<'_>],
    ids: &[String],
    now: i64,
    sweep: Option<i64>,
) -> Result<Counted, StoreError> {
    if ids.len() != keys.len() {
        return Err(StoreError::Database(format!("{} hit ids for {} limits", ids.len(), keys.len())));
    }
    for (index, key) in keys.iter().enumerate() {
        // The key's row first: it is what two counts of one actor queue on.
        sql.execute(
            "INSERT INTO limit_keys (name, actor, touched) VALUES ($1, $2, $3)
             ON CONFLICT (name, actor) DO UPDATE SET touched = excluded.touched",
            sql_params![key.name, key.actor, now],
        )?;
        let since = now - key.window_ms;
        sql.execute(
            "DELETE FROM limit_hits WHERE name = $1 AND actor = $2 AND at <= $3",
            sql_params![key.name, key.actor, since],
        )?;
        let rows = sql.query(
            "SELECT at FROM limit_hits WHERE name = $1 AND actor = $2 ORDER BY at LIMIT $3",
            sql_params![key.name, key.actor, i64::from(key.count)],
        )?;
        if rows.len() >= key.count as usize {
            let oldest = rows.first().map(|row| row.int(0)).transpose()?.unwrap_or(now);
            return Ok(Counted::Full { key: index, free_at: oldest + key.window_ms });
        }
    }
    for (key, id) in keys.iter().zip(ids) {
        sql.execute(
            "INSERT INTO limit_hits (id, name, actor, at) VALUES ($1, $2, $3, $4)",
            sql_params![id, key.name, key.actor, now],
        )?;
    }
    if let Some(before) = sweep {
        sql.execute("DELETE FROM limit_hits WHERE at <= $1", sql_params![before])?;
        sql.execute("DELETE FROM limit_keys WHERE touched <= $1", sql_params![before])?;
    }
    Ok(Counted::Yes(ids.to_vec()))
}

/// Takes back a hit (a login admitted and then successful counts no
/// failure).
pub fn uncount(sql: &mut dyn Sql, hit: &str) -> Result<(), StoreError> {
    sql.execute("DELETE FROM limit_hits WHERE id = $1", sql_params![hit])?;
    Ok(())
}

/// How many hits `actor` has against limit `name` since `since`.
pub fn hits(sql: &mut dyn Sql, name: &str, actor: &str, since: i64) -> Result<u64, StoreError> {
    let row = sql.query_opt(
        "SELECT count(*) FROM limit_hits WHERE name = $1 AND actor = $2 AND at > $3",
        sql_params![name, actor, since],
    )?;
    Ok(row.map(|r| r.int(0)).transpose()?.unwrap_or(0) as u64)
}
