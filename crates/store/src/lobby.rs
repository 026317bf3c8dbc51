//! The lobby as every node shares it (`menagerie_server::lobby`): open seeks with
//! the lease that keeps them listed, the games started from them, and the
//! messages waiting for a seek's creator. Each query written once
//! ([`super::sql`]); times are ms since the epoch.

use super::error::StoreError;
use super::sql::{Row, Sql};
use crate::sql_params;

/// A seek as stored: plain data, checked again when read
/// (`menagerie_server::lobby::Seek::from_stored`).
#[derive(Clone, Debug, PartialEq)]
pub struct StoredSeek {
    pub id: String,
    /// The SHA-256 (hex) of the creator's browser id.
    pub creator: String,
    pub account: Option<String>,
    pub name: String,
    pub address: Option<String>,
    /// The seek's request, as JSON.
    pub body: String,
    pub rated: bool,
    pub rating_range: Option<String>,
    pub rating: Option<i64>,
    pub provisional: Option<bool>,
    pub created: i64,
    pub alive_until: i64,
}

const SEEK_COLUMNS: &str =
    "id, creator, account, name, address, body, rated, rating_range, rating, provisional, created, alive_until";

fn seek_of(row: &Row) -> Result<StoredSeek, StoreError> {
    Ok(StoredSeek {
        id: row.text(0)?,
        creator: row.text(1)?,
        account: row.opt_text(2)?,
        name: row.text(3)?,
        address: row.opt_text(4)?,
        body: row.text(5)?,
        rated: row.int(6)? != 0,
        rating_range: row.opt_text(7)?,
        rating: row.opt_int(8)?,
        provisional: row.opt_int(9)?.map(|p| p != 0),
        created: row.int(10)?,
        alive_until: row.int(11)?,
    })
}

/// How many live seeks there are in all, from `creator`, and from `address`.
pub struct SeekCounts {
    pub all: usize,
    pub creator: usize,
    pub address: usize,
}

/// Counts the live seeks at `now` (to cap a new one).
pub fn count_seeks(
    sql: &mut dyn Sql,
    creator: &str,
    address: Option<&str>,
    now: i64,
) -> Result<SeekCounts, StoreError> {
    let row = sql.query_opt(
        "SELECT count(*),
                coalesce(sum(CASE WHEN creator = $2 THEN 1 ELSE 0 END), 0),
                coalesce(sum(CASE WHEN address = $3 THEN 1 ELSE 0 END), 0)
         FROM seeks WHERE alive_until > $1",
        sql_params![now, creator, address],
    )?;
    let row = row.ok_or_else(|| StoreError::Database("a count answered no row".into()))?;
    let count = |i| row.int(i).map(|n| n.max(0) as usize);
    Ok(SeekCounts { all: count(0)?, creator: count(1)?, address: count(2)? })
}

/// Stores a seek (and forgets the seeks whose lease ended before `now`).
pub fn insert_seek(sql: &mut dyn Sql, seek: &StoredSeek, now: i64) -> Result<(), StoreError> {
    sql.execute("DELETE FROM seeks WHERE alive_until <= $1", sql_params![now])?;
    sql.execute(
        &format!("INSERT INTO seeks ({SEEK_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)"),
        sql_params![
            &seek.id,
            &seek.creator,
            seek.account.as_deref(),
            &seek.name,
            seek.address.as_deref(),
            &seek.body,
            seek.rated,
            seek.rating_range.as_deref(),
            seek.rating,
            seek.provisional,
            seek.created,
            seek.alive_until,
        ],
    )?;
    Ok(())
}

/// The seeks listed at `now`, oldest first.
pub fn live_seeks(sql: &mut dyn Sql, now: i64) -> Result<Vec<StoredSeek>, StoreError> {
    sql.query(
        &format!("SELECT {SEEK_COLUMNS} FROM seeks WHERE alive_until > $1 ORDER BY created, id"),
        sql_params![now],
    )?
    .iter()
    .map(seek_of)
    .collect()
}

/// Seek `id` if it is listed at `now`.
pub fn live_seek(sql: &mut dyn Sql, id: &str, now: i64) -> Result<Option<StoredSeek>, StoreError> {
    sql.query_opt(
        &format!("SELECT {SEEK_COLUMNS} FROM seeks WHERE id = $1 AND alive_until > $2"),
        sql_params![id, now],
    )?
    .as_ref()
    .map(seek_of)
    .transpose()
}

/// Removes seek `id`; answers whether it was there.
pub fn delete_seek(sql: &mut dyn Sql, id: &str) -> Result<bool, StoreError> {
    Ok(sql.execute("DELETE FROM seeks WHERE id = $1", sql_params![id])? > 0)
}

/// Removes every seek of `creator`; answers how many.
pub fn delete_seeks_of(sql: &mut dyn Sql, creator: &str) -> Result<u64, StoreError> {
    sql.execute("DELETE FROM seeks WHERE creator = $1", sql_params![creator])
}

/// Keeps `creator`'s live seeks listed until `until` at least.
pub fn renew(sql: &mut dyn Sql, creator: &str, now: i64, until: i64) -> Result<u64, StoreError> {
    sql.execute(
        "UPDATE seeks SET alive_until = $3 WHERE creator = $1 AND alive_until > $2 AND alive_until < $3",
        sql_params![creator, now, until],
    )
}

/// Ends `creator`'s seeks by `until` at the latest (its creator left).
pub fn cut_short(sql: &mut dyn Sql, creator: &str, until: i64) -> Result<u64, StoreError> {
    sql.execute(
        "UPDATE seeks SET alive_until = $2 WHERE creator = $1 AND alive_until > $2",
        sql_params![creator, until],
    )
}

/// Sets the name shown on `creator`'s seeks.
pub fn rename(sql: &mut dyn Sql, creator: &str, name: &str) -> Result<u64, StoreError> {
    sql.execute("UPDATE seeks SET name = $2 WHERE creator = $1", sql_params![creator, name])
}

/// A game started from a seek, as listed.
#[derive(Clone, Debug, PartialEq)]
pub struct ListedGame {
    pub id: String,
    pub variant: String,
    /// The seats as JSON.
    pub seats: String,
    pub rated: bool,
    pub listed: i64,
    /// Moves made so far.
    pub plies: i64,
}

/// Lists a game started from a seek.
pub fn list_game(sql: &mut dyn Sql, game: &ListedGame) -> Result<(), StoreError> {
    sql.execute(
        "INSERT INTO lobby_games (id, variant, seats, rated, listed) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (id) DO NOTHING",
        sql_params![&game.id, &game.variant, &game.seats, game.rated, game.listed],
    )?;
    Ok(())
}

/// The games being played, newest first, at most `limit`: unfinished, and
/// changed (listed, or a move made) after `active_since`. A read only: the
/// games that left the list stay stored until [`forget_resting_games`].
pub fn listed_games(sql: &mut dyn Sql, active_since: i64, limit: usize) -> Result<Vec<ListedGame>, StoreError> {
    let rows = sql.query(
        "SELECT l.id, l.variant, l.seats, l.rated, l.listed, (SELECT count(*) FROM moves m WHERE m.game = l.id)
         FROM lobby_games l JOIN games g ON g.id = l.id
         WHERE NOT g.finished AND coalesce((SELECT max(m.at) FROM moves m WHERE m.game = l.id), l.listed) > $1
         ORDER BY l.listed DESC, l.id LIMIT $2",
        sql_params![active_since, limit as i64],
    )?;
    rows.iter()
        .map(|row| {
            Ok(ListedGame {
                id: row.text(0)?,
                variant: row.text(1)?,
                seats: row.text(2)?,
                rated: row.int(3)? != 0,
                listed: row.int(4)?,
                plies: row.int(5)?,
            })
        })
        .collect()
}

/// Forgets the listed games that left the list (finished, or without a
/// change since `active_since`): the lobby's sweep, a job of its own.
/// Answers how many.
pub fn forget_resting_games(sql: &mut dyn Sql, active_since: i64) -> Result<u64, StoreError> {
    sql.execute(
        "DELETE FROM lobby_games WHERE id IN (
             SELECT l.id FROM lobby_games l JOIN games g ON g.id = l.id
             WHERE g.finished OR coalesce((SELECT max(m.at) FROM moves m WHERE m.game = l.id), l.listed) <= $1)",
        sql_params![active_since],
    )
}

/// Keeps `message` for `player`'s lobby socket, on whichever node it is.
pub fn post_message(sql: &mut dyn Sql, id: &str, player: &str, message: &str, now: i64) -> Result<(), StoreError> {
    sql.execute(
        "INSERT INTO lobby_messages (id, player, message, created) VALUES ($1, $2, $3, $4)",
        sql_params![id, player, message, now],
    )?;
    Ok(())
}

/// Takes the messages waiting for `player` that were posted after
/// `posted_since`, oldest first (and forgets older ones nobody took).
pub fn take_messages(sql: &mut dyn Sql, player: &str, posted_since: i64) -> Result<Vec<String>, StoreError> {
    sql.execute("DELETE FROM lobby_messages WHERE created <= $1", sql_params![posted_since])?;
    let rows =
        sql.query("DELETE FROM lobby_messages WHERE player = $1 RETURNING message, created, id", sql_params![player])?;
    let mut messages =
        rows.iter().map(|row| Ok((row.int(1)?, row.text(2)?, row.text(0)?))).collect::<Result<Vec<_>, StoreError>>()?;
    messages.sort();
    Ok(messages.into_iter().map(|(_, _, message)| message).collect())
}
