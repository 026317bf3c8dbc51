//! Notifications, e-mail addresses and password resets in the store, each
//! query written once ([`super::sql`]). What the rows mean is in
//! `schema.rs`; what is notified and when is `menagerie_server::notify`'s.

use super::error::StoreError;
use super::sql::{Row, Sql};
use crate::sql_params;

/// One thing an account is told.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notification {
    pub id: String,
    pub kind: String,
    pub game: Option<String>,
    /// The notice as JSON text (its words and link).
    pub body: String,
    /// Ms since the epoch.
    pub created: i64,
    /// When the account read it (ms), if it has.
    pub seen: Option<i64>,
}

fn notification(row: &Row) -> Result<Notification, StoreError> {
    Ok(Notification {
        id: row.text(0)?,
        kind: row.text(1)?,
        game: row.opt_text(2)?,
        body: row.text(3)?,
        created: row.int(4)?,
        seen: row.opt_int(5)?,
    })
}

/// A notification about to be stored; `topic` names what it is about (the
/// game and ply of a move), so that telling the same thing twice stores
/// it once.
pub struct NewNotification<'a> {
    pub id: &'a str,
    pub account: &'a str,
    pub topic: &'a str,
    pub kind: &'a str,
    pub game: Option<&'a str>,
    pub body: &'a str,
    pub created: i64,
}

/// Stores a notification; false if the account was already told of its
/// topic (by this node or another).
pub fn add(sql: &mut dyn Sql, new: &NewNotification<'_>) -> Result<bool, StoreError> {
    let added = sql.execute(
        "INSERT INTO notifications (id, account, topic, kind, game, body, created) VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT DO NOTHING",
        sql_params![new.id, new.account, new.topic, new.kind, new.game, new.body, new.created],
    )?;
    Ok(added == 1)
}

/// The account's newest notifications, at most `limit`.
pub fn newest(sql: &mut dyn Sql, account: &str, limit: usize) -> Result<Vec<Notification>, StoreError> {
    let rows = sql.query(
        "SELECT id, kind, game, body, created, seen FROM notifications WHERE account = $1
         ORDER BY created DESC, id LIMIT $2",
        sql_params![account, limit as i64],
    )?;
    rows.iter().map(notification).collect()
}

/// How many of the account's notifications it has not read.
pub fn unread(sql: &mut dyn Sql, account: &str) -> Result<u64, StoreError> {
    let row =
        sql.query_opt("SELECT count(*) FROM notifications WHERE account = $1 AND seen IS NULL", sql_params![account])?;
    Ok(row.map(|row| row.int(0)).transpose()?.unwrap_or(0).max(0) as u64)
}

/// Marks the account's notifications read: those of `ids`, or all.
pub fn mark_read(sql: &mut dyn Sql, account: &str, ids: Option<&[String]>, now: i64) -> Result<u64, StoreError> {
    match ids {
        None => sql.execute(
            "UPDATE notifications SET seen = $2 WHERE account = $1 AND seen IS NULL",
            sql_params![account, now],
        ),
        Some(ids) => {
            let mut marked = 0;
            for id in ids {
                marked += sql.execute(
                    "UPDATE notifications SET seen = $3 WHERE account = $1 AND id = $2 AND seen IS NULL",
                    sql_params![account, id, now],
                )?;
            }
            Ok(marked)
        }
    }
}

/// Sets (or with `None` removes) the account's e-mail address.
pub fn set_email(sql: &mut dyn Sql, account: &str, email: Option<&str>) -> Result<(), StoreError> {
    sql.execute("UPDATE accounts SET email = $2 WHERE id = $1", sql_params![account, email])?;
    Ok(())
}

/// The open account's e-mail address, if it gave one.
pub fn email(sql: &mut dyn Sql, account: &str) -> Result<Option<String>, StoreError> {
    let row = sql.query_opt("SELECT email FROM accounts WHERE id = $1 AND closed IS NULL", sql_params![account])?;
    Ok(row.map(|row| row.opt_text(0)).transpose()?.flatten())
}

/// Starts a password reset (`id`: the hash of the link's token).
pub fn add_reset(sql: &mut dyn Sql, id: &str, account: &str, now: i64, expires: i64) -> Result<(), StoreError> {
    sql.execute(
        "INSERT INTO password_resets (id, account, created, expires) VALUES ($1, $2, $3, $4)",
        sql_params![id, account, now, expires],
    )?;
    Ok(())
}

/// Uses a password reset: the account it resets, if the reset exists, is
/// unused and unexpired and its account open; once only, whichever node
/// is asked.
pub fn use_reset(sql: &mut dyn Sql, id: &str, now: i64) -> Result<Option<String>, StoreError> {
    let row = sql.query_opt(
        "UPDATE password_resets SET used = $2 WHERE id = $1 AND used IS NULL AND expires > $2 RETURNING account",
        sql_params![id, now],
    )?;
    let Some(account) = row.map(|row| row.text(0)).transpose()? else { return Ok(None) };
    let open = sql.query_opt("SELECT id FROM accounts WHERE id = $1 AND closed IS NULL", sql_params![&account])?;
    Ok(open.map(|_| account))
}

/// Sets the account's password hash (a reset).
pub fn set_password(sql: &mut dyn Sql, account: &str, hash: &str) -> Result<(), StoreError> {
    sql.execute("UPDATE accounts SET password = $2 WHERE id = $1 AND closed IS NULL", sql_params![account, hash])?;
    Ok(())
}

/// How many resets the account started since `since` (ms): a cap on the
/// mail one stranger can send it.
pub fn resets_since(sql: &mut dyn Sql, account: &str, since: i64) -> Result<u64, StoreError> {
    let row = sql.query_opt(
        "SELECT count(*) FROM password_resets WHERE account = $1 AND created > $2",
        sql_params![account, since],
    )?;
    Ok(row.map(|row| row.int(0)).transpose()?.unwrap_or(0).max(0) as u64)
}

/// Ends what an account closing takes with it: its unused resets.
pub fn end_resets(sql: &mut dyn Sql, account: &str, now: i64) -> Result<(), StoreError> {
    sql.execute("UPDATE password_resets SET used = $2 WHERE account = $1 AND used IS NULL", sql_params![account, now])?;
    Ok(())
}

/// Forgets `account`'s notification of `topic`, read or not.
pub fn forget(sql: &mut dyn Sql, account: &str, topic: &str) -> Result<(), StoreError> {
    sql.execute("DELETE FROM notifications WHERE account = $1 AND topic = $2", sql_params![account, topic])?;
    Ok(())
}
