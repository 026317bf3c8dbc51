//! Challenges in the store (lichess's, `menagerie_server::challenges`): each query
//! written once ([`super::sql`]); what the rows mean is in `schema.rs`.
//! Every node reads them here, so a challenge made through one node is
//! answered through any.

use super::error::StoreError;
use super::sql::{Row, Sql};
use crate::sql_params;

/// A challenge as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredChallenge {
    pub id: String,
    /// The account that challenges.
    pub challenger: String,
    /// The account challenged.
    pub dest: String,
    pub variant: String,
    pub rated: bool,
    /// A time control's stored form; `None` for unlimited.
    pub clock: Option<String>,
    /// `white`, `black` or `random`: the challenger's choice.
    pub colour: String,
    /// `created`, `accepted`, `declined` or `canceled`.
    pub status: String,
    /// A decline's reason key.
    pub reason: Option<String>,
    /// The game an acceptance started.
    pub game: Option<String>,
    /// Ms since the epoch.
    pub created: i64,
    pub expires: i64,
}

const COLUMNS: &str = "id, challenger, dest, variant, rated, clock, colour, status, reason, game, created, expires";

fn challenge(row: &Row) -> Result<StoredChallenge, StoreError> {
    Ok(StoredChallenge {
        id: row.text(0)?,
        challenger: row.text(1)?,
        dest: row.text(2)?,
        variant: row.text(3)?,
        rated: row.int(4)? != 0,
        clock: row.opt_text(5)?,
        colour: row.text(6)?,
        status: row.text(7)?,
        reason: row.opt_text(8)?,
        game: row.opt_text(9)?,
        created: row.int(10)?,
        expires: row.int(11)?,
    })
}

/// Stores a new challenge.
pub fn add(sql: &mut dyn Sql, new: &StoredChallenge) -> Result<(), StoreError> {
    sql.execute(
        &format!("INSERT INTO challenges ({COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)"),
        sql_params![
            &new.id,
            &new.challenger,
            &new.dest,
            &new.variant,
            new.rated,
            new.clock.as_deref(),
            &new.colour,
            &new.status,
            new.reason.as_deref(),
            new.game.as_deref(),
            new.created,
            new.expires
        ],
    )?;
    Ok(())
}

/// The challenge `id`, whatever its status.
pub fn challenge_by_id(sql: &mut dyn Sql, id: &str) -> Result<Option<StoredChallenge>, StoreError> {
    let row = sql.query_opt(&format!("SELECT {COLUMNS} FROM challenges WHERE id = $1"), sql_params![id])?;
    row.as_ref().map(challenge).transpose()
}

/// The open challenges (unanswered, unexpired at `now`) an account made or
/// received, oldest first.
pub fn open_of(sql: &mut dyn Sql, account: &str, now: i64) -> Result<Vec<StoredChallenge>, StoreError> {
    let rows = sql.query(
        &format!(
            "SELECT {COLUMNS} FROM challenges
             WHERE (challenger = $1 OR dest = $1) AND status = 'created' AND expires > $2
             ORDER BY created, id"
        ),
        sql_params![account, now],
    )?;
    rows.iter().map(challenge).collect()
}

/// The challenges an account made or received that were answered since
/// `since` (ms), or are open: what its event stream follows.
pub fn recent_of(sql: &mut dyn Sql, account: &str, since: i64) -> Result<Vec<StoredChallenge>, StoreError> {
    let rows = sql.query(
        &format!(
            "SELECT {COLUMNS} FROM challenges
             WHERE (challenger = $1 OR dest = $1) AND (status = 'created' OR created >= $2)
             ORDER BY created, id"
        ),
        sql_params![account, since],
    )?;
    rows.iter().map(challenge).collect()
}

/// Answers an open challenge (`accepted`, `declined`, `canceled`) if it is
/// still open at `now`; false if it was answered or expired first (by
/// another request, on any node).
pub fn answer(sql: &mut dyn Sql, id: &str, status: &str, reason: Option<&str>, now: i64) -> Result<bool, StoreError> {
    let changed = sql.execute(
        "UPDATE challenges SET status = $2, reason = $3 WHERE id = $1 AND status = 'created' AND expires > $4",
        sql_params![id, status, reason, now],
    )?;
    Ok(changed == 1)
}

/// Records the game an accepted challenge started.
pub fn set_game(sql: &mut dyn Sql, id: &str, game: &str) -> Result<(), StoreError> {
    sql.execute("UPDATE challenges SET game = $2 WHERE id = $1", sql_params![id, game])?;
    Ok(())
}

/// Opens an accepted challenge again (its game could not start).
pub fn reopen(sql: &mut dyn Sql, id: &str) -> Result<(), StoreError> {
    sql.execute("UPDATE challenges SET status = 'created' WHERE id = $1 AND game IS NULL", sql_params![id])?;
    Ok(())
}

/// Declines every open challenge `challenger` sent `dest` (who blocked
/// them) at `now`; answers their ids.
pub fn decline_all_from(sql: &mut dyn Sql, challenger: &str, dest: &str, now: i64) -> Result<Vec<String>, StoreError> {
    let rows = sql.query(
        "UPDATE challenges SET status = 'declined', reason = 'generic'
         WHERE challenger = $1 AND dest = $2 AND status = 'created' AND expires > $3 RETURNING id",
        sql_params![challenger, dest, now],
    )?;
    rows.iter().map(|row| row.text(0)).collect()
}
