//! Accounts, sessions and seat holders in the store: each query written
//! once ([`super::sql`]) and run on either database through
//! [`super::Store::transact`]. What the rows mean is in `schema.rs`; the
//! rules (names, passwords, limits) are in `menagerie_server::accounts`.

use super::error::StoreError;
use super::sql::{Row, Sql};
use crate::sql_params;

/// An account as stored (never its password).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Account {
    pub id: String,
    pub username: String,
    /// Ms since the epoch.
    pub created: i64,
    /// When it was closed (ms), if it was.
    pub closed: Option<i64>,
}

const ACCOUNT_COLUMNS: &str = "id, username, created, closed";

fn account(row: &Row) -> Result<Account, StoreError> {
    Ok(Account { id: row.text(0)?, username: row.text(1)?, created: row.int(2)?, closed: row.opt_int(3)? })
}

/// A name's key: unique among accounts whatever its case.
pub fn username_key(username: &str) -> String {
    username.to_lowercase()
}

/// Adds an account; false if its name (in any case) is taken.
pub fn create_account(sql: &mut dyn Sql, new: &Account, password_hash: &str) -> Result<bool, StoreError> {
    let added = sql.execute(
        "INSERT INTO accounts (id, username, username_key, password, created) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT DO NOTHING",
        sql_params![&new.id, &new.username, username_key(&new.username), password_hash, new.created],
    )?;
    Ok(added == 1)
}

/// The open account of this name (any case) and its password hash.
pub fn account_for_login(sql: &mut dyn Sql, username: &str) -> Result<Option<(Account, String)>, StoreError> {
    let row = sql.query_opt(
        &format!(
            "SELECT {ACCOUNT_COLUMNS}, password FROM accounts
             WHERE username_key = $1 AND closed IS NULL AND password IS NOT NULL"
        ),
        sql_params![username_key(username)],
    )?;
    row.map(|row| Ok((account(&row)?, row.text(4)?))).transpose()
}

/// The account of this id, open or closed.
pub fn account_by_id(sql: &mut dyn Sql, id: &str) -> Result<Option<Account>, StoreError> {
    let row = sql.query_opt(&format!("SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE id = $1"), sql_params![id])?;
    row.as_ref().map(account).transpose()
}

/// The account of this name (any case), open or closed.
pub fn account_by_name(sql: &mut dyn Sql, username: &str) -> Result<Option<Account>, StoreError> {
    let row = sql.query_opt(
        &format!("SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE username_key = $1"),
        sql_params![username_key(username)],
    )?;
    row.as_ref().map(account).transpose()
}

/// When the account's sessions were last seen (ms), if it has any.
pub fn last_seen(sql: &mut dyn Sql, account: &str) -> Result<Option<i64>, StoreError> {
    let row = sql.query_opt("SELECT max(seen) FROM sessions WHERE account = $1", sql_params![account])?;
    Ok(row.map(|r| r.opt_int(0)).transpose()?.flatten())
}

/// Opens a session (`id`: the hash of its token) for `account`.
pub fn create_session(sql: &mut dyn Sql, id: &str, account: &str, now: i64) -> Result<(), StoreError> {
    sql.execute(
        "INSERT INTO sessions (id, account, created, seen) VALUES ($1, $2, $3, $3)",
        sql_params![id, account, now],
    )?;
    Ok(())
}

/// The open account whose session this is, if the session is still open.
pub fn session_account(sql: &mut dyn Sql, session: &str) -> Result<Option<Account>, StoreError> {
    let row = sql.query_opt(
        "SELECT accounts.id, accounts.username, accounts.created, accounts.closed
         FROM sessions JOIN accounts ON accounts.id = sessions.account
         WHERE sessions.id = $1 AND accounts.closed IS NULL",
        sql_params![session],
    )?;
    row.as_ref().map(account).transpose()
}

/// Ends one session.
pub fn end_session(sql: &mut dyn Sql, session: &str) -> Result<(), StoreError> {
    sql.execute("DELETE FROM sessions WHERE id = $1", sql_params![session])?;
    Ok(())
}

/// Ends every session of an account; answers how many there were.
pub fn end_sessions(sql: &mut dyn Sql, account: &str) -> Result<u64, StoreError> {
    sql.execute("DELETE FROM sessions WHERE account = $1", sql_params![account])
}

/// Records who took seat `seat` (0 or 1) of `game`: the browser (the hash
/// of its anonymous id) and its account, if any.
pub fn hold_seat(
    sql: &mut dyn Sql,
    game: &str,
    seat: usize,
    player: Option<&str>,
    account: Option<&str>,
) -> Result<(), StoreError> {
    sql.execute(
        "INSERT INTO seat_holders (game, seat, player, account) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
        sql_params![game, seat as i64, player, account],
    )?;
    Ok(())
}

/// [`hold_seat`] for the seat of `game` whose secret is `secret` (a friend
/// opening the link of the seat offered to them), unless someone holds it.
/// The secret must have been checked already.
pub fn hold_seat_of_secret(
    sql: &mut dyn Sql,
    game: &str,
    secret: &str,
    player: Option<&str>,
    account: Option<&str>,
) -> Result<(), StoreError> {
    sql.execute(
        "INSERT INTO seat_holders (game, seat, player, account)
         SELECT id, CASE WHEN secret0 = $2 THEN 0 ELSE 1 END, $3, $4 FROM games
         WHERE id = $1 AND (secret0 = $2 OR secret1 = $2)
         ON CONFLICT DO NOTHING",
        sql_params![game, secret, player, account],
    )?;
    Ok(())
}

/// How many of `game`'s seats are held.
pub fn seats_held(sql: &mut dyn Sql, game: &str) -> Result<usize, StoreError> {
    let row = sql.query_opt("SELECT count(*) FROM seat_holders WHERE game = $1", sql_params![game])?;
    Ok(row.map(|r| r.int(0)).transpose()?.unwrap_or(0) as usize)
}

/// Gives `account` the seats the browser `player` took while anonymous;
/// answers how many.
pub fn claim_seats(sql: &mut dyn Sql, player: &str, account: &str) -> Result<u64, StoreError> {
    sql.execute(
        "UPDATE seat_holders SET account = $2 WHERE player = $1 AND account IS NULL",
        sql_params![player, account],
    )
}

/// The seat (0 or 1) `account` holds in `game` and its secret, if it holds
/// exactly one (both seats of a game on one device leave the choice to the
/// request).
pub fn held_seat(sql: &mut dyn Sql, game: &str, account: &str) -> Result<Option<(usize, String)>, StoreError> {
    let rows = sql.query(
        "SELECT seat_holders.seat, games.secret0, games.secret1
         FROM seat_holders JOIN games ON games.id = seat_holders.game
         WHERE seat_holders.game = $1 AND seat_holders.account = $2",
        sql_params![game, account],
    )?;
    let [row] = rows.as_slice() else { return Ok(None) };
    let seat = usize::from(row.int(0)? != 0);
    Ok(row.opt_text(1 + seat)?.map(|secret| (seat, secret)))
}

/// Which account, if any, holds seat `seat` of `game` (ratings and names
/// ask this).
pub fn seat_account(sql: &mut dyn Sql, game: &str, seat: usize) -> Result<Option<Account>, StoreError> {
    let row = sql.query_opt(
        "SELECT accounts.id, accounts.username, accounts.created, accounts.closed
         FROM seat_holders JOIN accounts ON accounts.id = seat_holders.account
         WHERE seat_holders.game = $1 AND seat_holders.seat = $2",
        sql_params![game, seat as i64],
    )?;
    row.as_ref().map(account).transpose()
}

/// A seat an account holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeldSeat {
    pub game: String,
    pub seat: usize,
    pub variant: String,
    /// Seconds since the epoch, as games store it.
    pub created: i64,
    pub finished: bool,
}

/// The seats `account` holds, newest game first; only the unfinished ones
/// if `playing`.
pub fn held_seats(sql: &mut dyn Sql, account: &str, playing: bool) -> Result<Vec<HeldSeat>, StoreError> {
    let filter = if playing { "AND NOT games.finished" } else { "" };
    let rows = sql.query(
        &format!(
            "SELECT seat_holders.game, seat_holders.seat, games.variant, games.created, games.finished
             FROM seat_holders JOIN games ON games.id = seat_holders.game
             WHERE seat_holders.account = $1 {filter}
             ORDER BY games.created DESC, seat_holders.game, seat_holders.seat"
        ),
        sql_params![account],
    )?;
    rows.iter()
        .map(|row| {
            Ok(HeldSeat {
                game: row.text(0)?,
                seat: usize::from(row.int(1)? != 0),
                variant: row.text(2)?,
                created: row.int(3)?,
                finished: row.int(4)? != 0,
            })
        })
        .collect()
}

/// The sessions of an account: when each was opened and last seen (ms).
pub fn sessions(sql: &mut dyn Sql, account: &str) -> Result<Vec<(i64, i64)>, StoreError> {
    let rows =
        sql.query("SELECT created, seen FROM sessions WHERE account = $1 ORDER BY created", sql_params![account])?;
    rows.iter().map(|row| Ok((row.int(0)?, row.int(1)?))).collect()
}

/// A passkey as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredPasskey {
    /// The credential id (hex).
    pub id: String,
    pub account: String,
    pub user_handle: String,
    /// The passkey as webauthn-rs serialises it (JSON).
    pub credential: String,
    pub created: i64,
}

fn passkey(row: &Row) -> Result<StoredPasskey, StoreError> {
    Ok(StoredPasskey {
        id: row.text(0)?,
        account: row.text(1)?,
        user_handle: row.text(2)?,
        credential: row.text(3)?,
        created: row.int(4)?,
    })
}

/// Adds a passkey; false if its credential is registered already.
pub fn add_passkey(sql: &mut dyn Sql, key: &StoredPasskey) -> Result<bool, StoreError> {
    let added = sql.execute(
        "INSERT INTO passkeys (id, account, user_handle, credential, created) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT DO NOTHING",
        sql_params![&key.id, &key.account, &key.user_handle, &key.credential, key.created],
    )?;
    Ok(added == 1)
}

/// The passkeys of an open account, oldest first.
pub fn passkeys(sql: &mut dyn Sql, account: &str) -> Result<Vec<StoredPasskey>, StoreError> {
    let rows = sql.query(
        "SELECT id, account, user_handle, credential, created FROM passkeys WHERE account = $1 ORDER BY created, id",
        sql_params![account],
    )?;
    rows.iter().map(passkey).collect()
}

/// The passkey a login presents (its credential id and user handle), if
/// its account is open.
pub fn passkey_for_login(sql: &mut dyn Sql, id: &str, user_handle: &str) -> Result<Option<StoredPasskey>, StoreError> {
    let row = sql.query_opt(
        "SELECT passkeys.id, passkeys.account, passkeys.user_handle, passkeys.credential, passkeys.created
         FROM passkeys JOIN accounts ON accounts.id = passkeys.account
         WHERE passkeys.id = $1 AND passkeys.user_handle = $2 AND accounts.closed IS NULL",
        sql_params![id, user_handle],
    )?;
    row.as_ref().map(passkey).transpose()
}

/// Replaces a passkey's credential (its signature counter moves on).
pub fn update_passkey(sql: &mut dyn Sql, id: &str, credential: &str) -> Result<(), StoreError> {
    sql.execute("UPDATE passkeys SET credential = $2 WHERE id = $1", sql_params![id, credential])?;
    Ok(())
}

/// Keeps a ceremony's state until its second request; forgets the ones
/// older than `expired` (ms since the epoch).
pub fn begin_ceremony(
    sql: &mut dyn Sql,
    id: &str,
    account: Option<&str>,
    state: &str,
    now: i64,
    expired: i64,
) -> Result<(), StoreError> {
    sql.execute("DELETE FROM ceremonies WHERE created < $1", sql_params![expired])?;
    sql.execute(
        "INSERT INTO ceremonies (id, account, state, created) VALUES ($1, $2, $3, $4)",
        sql_params![id, account, state, now],
    )?;
    Ok(())
}

/// Takes a ceremony's state (once: it is forgotten), if it was begun by
/// `account` (none: a login) after `expired`.
pub fn take_ceremony(
    sql: &mut dyn Sql,
    id: &str,
    account: Option<&str>,
    expired: i64,
) -> Result<Option<String>, StoreError> {
    let row =
        sql.query_opt("DELETE FROM ceremonies WHERE id = $1 RETURNING account, state, created", sql_params![id])?;
    let Some(row) = row else { return Ok(None) };
    let fits = row.opt_text(0)?.as_deref() == account && row.int(2)? >= expired;
    fits.then(|| row.text(1)).transpose()
}
