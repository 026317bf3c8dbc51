//! Personal API tokens and bot accounts in the store (the bot and board
//! API, `crate::bots`): each query written once ([`super::sql`]). A token
//! is kept as its hash, like a session; what the rows mean is in
//! `schema.rs`.

use super::accounts::Account;
use super::error::StoreError;
use super::sql::{Row, Sql};
use crate::sql_params;

/// A token as stored (never the token itself).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredToken {
    /// The SHA-256 (hex) of the token.
    pub id: String,
    /// The public id it is listed and revoked by.
    pub handle: String,
    pub account: String,
    pub description: String,
    /// Space-separated scopes (`bot:play board:play`).
    pub scopes: String,
    /// Ms since the epoch.
    pub created: i64,
}

fn token(row: &Row) -> Result<StoredToken, StoreError> {
    Ok(StoredToken {
        id: row.text(0)?,
        handle: row.text(1)?,
        account: row.text(2)?,
        description: row.text(3)?,
        scopes: row.text(4)?,
        created: row.int(5)?,
    })
}

/// Adds a token.
pub fn add_token(sql: &mut dyn Sql, new: &StoredToken) -> Result<(), StoreError> {
    sql.execute(
        "INSERT INTO api_tokens (id, handle, account, description, scopes, created) VALUES ($1, $2, $3, $4, $5, $6)",
        sql_params![&new.id, &new.handle, &new.account, &new.description, &new.scopes, new.created],
    )?;
    Ok(())
}

/// The tokens of an account, oldest first.
pub fn tokens(sql: &mut dyn Sql, account: &str) -> Result<Vec<StoredToken>, StoreError> {
    let rows = sql.query(
        "SELECT id, handle, account, description, scopes, created FROM api_tokens
         WHERE account = $1 ORDER BY created, handle",
        sql_params![account],
    )?;
    rows.iter().map(token).collect()
}

/// Revokes the token `handle` of `account`; false if it has none such.
pub fn revoke_token(sql: &mut dyn Sql, account: &str, handle: &str) -> Result<bool, StoreError> {
    Ok(sql.execute("DELETE FROM api_tokens WHERE account = $1 AND handle = $2", sql_params![account, handle])? == 1)
}

/// Ends one token (by its hash: the one a request presents).
pub fn end_token(sql: &mut dyn Sql, id: &str) -> Result<(), StoreError> {
    sql.execute("DELETE FROM api_tokens WHERE id = $1", sql_params![id])?;
    Ok(())
}

/// Ends every token of an account (it is closed); answers how many.
pub fn end_tokens(sql: &mut dyn Sql, account: &str) -> Result<u64, StoreError> {
    sql.execute("DELETE FROM api_tokens WHERE account = $1", sql_params![account])
}

/// The open account a token (by its hash) authenticates, and its scopes.
pub fn token_account(sql: &mut dyn Sql, id: &str) -> Result<Option<(Account, String)>, StoreError> {
    let row = sql.query_opt(
        "SELECT accounts.id, accounts.username, accounts.created, accounts.closed, api_tokens.scopes
         FROM api_tokens JOIN accounts ON accounts.id = api_tokens.account
         WHERE api_tokens.id = $1 AND accounts.closed IS NULL",
        sql_params![id],
    )?;
    row.map(|row| {
        let account =
            Account { id: row.text(0)?, username: row.text(1)?, created: row.int(2)?, closed: row.opt_int(3)? };
        Ok((account, row.text(4)?))
    })
    .transpose()
}

/// Whether an account is a bot.
pub fn is_bot(sql: &mut dyn Sql, account: &str) -> Result<bool, StoreError> {
    Ok(sql.query_opt("SELECT upgraded FROM bots WHERE account = $1", sql_params![account])?.is_some())
}

/// Makes an account a bot, unless it holds a seat of any game (lichess:
/// only an account that has played no game); answers whether it is one now.
pub fn upgrade_to_bot(sql: &mut dyn Sql, account: &str, now: i64) -> Result<bool, StoreError> {
    if is_bot(sql, account)? {
        return Ok(true);
    }
    if sql.query_opt("SELECT game FROM seat_holders WHERE account = $1 LIMIT 1", sql_params![account])?.is_some() {
        return Ok(false);
    }
    sql.execute(
        "INSERT INTO bots (account, upgraded) VALUES ($1, $2) ON CONFLICT DO NOTHING",
        sql_params![account, now],
    )?;
    Ok(true)
}
