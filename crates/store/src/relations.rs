//! Relations between accounts and browsers in the store: blocks (one
//! account keeps another away) and trusted devices (the browsers an
//! account logged in from: OWASP's device cookies). Each query written
//! once ([`super::sql`]); what the rows mean is in `schema.rs`.

use super::error::StoreError;
use super::sql::Sql;
use crate::sql_params;

/// `blocker` blocks `blocked` from `now` (ms); false if it did already.
pub fn block(sql: &mut dyn Sql, blocker: &str, blocked: &str, now: i64) -> Result<bool, StoreError> {
    let added = sql.execute(
        "INSERT INTO blocks (blocker, blocked, created) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
        sql_params![blocker, blocked, now],
    )?;
    Ok(added == 1)
}

/// Lifts `blocker`'s block of `blocked`; false if there was none.
pub fn unblock(sql: &mut dyn Sql, blocker: &str, blocked: &str) -> Result<bool, StoreError> {
    let removed =
        sql.execute("DELETE FROM blocks WHERE blocker = $1 AND blocked = $2", sql_params![blocker, blocked])?;
    Ok(removed == 1)
}

/// Whether `blocker` blocks `blocked`.
pub fn blocks(sql: &mut dyn Sql, blocker: &str, blocked: &str) -> Result<bool, StoreError> {
    let row =
        sql.query_opt("SELECT 1 FROM blocks WHERE blocker = $1 AND blocked = $2", sql_params![blocker, blocked])?;
    Ok(row.is_some())
}

/// Whether either account blocks the other.
pub fn blocked_either_way(sql: &mut dyn Sql, one: &str, other: &str) -> Result<bool, StoreError> {
    Ok(blocks(sql, one, other)? || blocks(sql, other, one)?)
}

/// The accounts `blocker` blocks, in the order it blocked them.
pub fn blocked_by(sql: &mut dyn Sql, blocker: &str) -> Result<Vec<String>, StoreError> {
    let rows =
        sql.query("SELECT blocked FROM blocks WHERE blocker = $1 ORDER BY created, blocked", sql_params![blocker])?;
    rows.iter().map(|row| row.text(0)).collect()
}

/// The accounts kept apart from `account`: those it blocks and those
/// that block it.
pub fn kept_apart(sql: &mut dyn Sql, account: &str) -> Result<Vec<String>, StoreError> {
    let rows = sql.query(
        "SELECT blocked FROM blocks WHERE blocker = $1 UNION SELECT blocker FROM blocks WHERE blocked = $1",
        sql_params![account],
    )?;
    rows.iter().map(|row| row.text(0)).collect()
}

/// Forgets the blocks an account made and those made against it (it is closed).
pub fn end_blocks(sql: &mut dyn Sql, account: &str) -> Result<(), StoreError> {
    sql.execute("DELETE FROM blocks WHERE blocker = $1 OR blocked = $1", sql_params![account])?;
    Ok(())
}

/// The browser of device `device` (the hash of its token) logged in to
/// `account` at `now` (ms): it is trusted by that account from now on.
pub fn trust_device(sql: &mut dyn Sql, device: &str, account: &str, now: i64) -> Result<(), StoreError> {
    sql.execute(
        "INSERT INTO devices (id, account, created, seen) VALUES ($1, $2, $3, $3)
         ON CONFLICT (id, account) DO UPDATE SET seen = excluded.seen",
        sql_params![device, account, now],
    )?;
    Ok(())
}

/// Whether `account` trusts the browser of device `device`.
pub fn device_trusted(sql: &mut dyn Sql, device: &str, account: &str) -> Result<bool, StoreError> {
    let row = sql.query_opt("SELECT 1 FROM devices WHERE id = $1 AND account = $2", sql_params![device, account])?;
    Ok(row.is_some())
}

/// Forgets every browser `account` trusts.
pub fn end_devices(sql: &mut dyn Sql, account: &str) -> Result<(), StoreError> {
    sql.execute("DELETE FROM devices WHERE account = $1", sql_params![account])?;
    Ok(())
}
