//! Closing an account: every table that holds something of it lets go.

use super::error::StoreError;
use super::sql::Sql;
use crate::sql_params;

/// Closes an account: its sessions, API tokens, passkeys, password
/// resets, trusted browsers and blocks end, its password and e-mail
/// address go;
/// its name stays taken and its games stay (shown under a neutral name).
pub fn close_account(sql: &mut dyn Sql, account: &str, now: i64) -> Result<(), StoreError> {
    super::accounts::end_sessions(sql, account)?;
    super::tokens::end_tokens(sql, account)?;
    sql.execute("DELETE FROM passkeys WHERE account = $1", sql_params![account])?;
    sql.execute("DELETE FROM ceremonies WHERE account = $1", sql_params![account])?;
    super::notifications::end_resets(sql, account, now)?;
    super::relations::end_devices(sql, account)?;
    super::relations::end_blocks(sql, account)?;
    sql.execute(
        "UPDATE accounts SET password = NULL, email = NULL, closed = $2 WHERE id = $1 AND closed IS NULL",
        sql_params![account, now],
    )?;
    Ok(())
}
