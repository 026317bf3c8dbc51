//! The games and their moves: every statement written once, run on either
//! database through the query layer ([`crate::sql`]). A backend decides how
//! a write reaches the database (SQLite's group commit, PostgreSQL's pool
//! and the note it sends the other nodes after); what is written, and the
//! guards that keep two writers from both succeeding, are here.
//!
//! Every write to a game is guarded by what its writer saw: a move is
//! stored after exactly `ply` moves, and the rest of a game (its meta) is
//! written only if it is still as seen. Each write adds one to the game's
//! version and answers it.
//!
//! The tables themselves were made by each database's own first migrations
//! (`sqlite.rs`, `postgres.rs`; shipped migrations never change): a flag is
//! an integer in SQLite and a `BOOLEAN` in PostgreSQL, which the statements
//! here only test (`NOT finished`) or bind (a [`crate::Value::Int`] binds to
//! either).

use super::backend::Refused;
use super::error::StoreError;
use super::records::{
    parse_player, player_str, Ending, GameData, GameMeta, GameRecord, Mode, MoveActor, Seat, SeatKind, Seen,
    StoredGame, StoredMove,
};
use super::sql::{Row, Sql};
use crate::sql_params;
use crate::time_control::TimeControl;
use std::sync::Arc;

/// Stores a new game (version 0), with the data its options named, each
/// text stored once however many games use it.
pub fn create(sql: &mut dyn Sql, record: &GameRecord) -> Result<(), StoreError> {
    let has_computer = record.seats.iter().any(|s| matches!(s.kind, SeatKind::Computer { .. }));
    sql.execute(
        "INSERT INTO games (id, variant, position, seed, mode, seat0, secret0, seat1, secret1, created,
                            has_computer, time_control)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
        sql_params![
            &record.id,
            &record.variant,
            record.position.as_deref(),
            // Both databases' integers are signed: the seed's bits.
            record.seed as i64,
            record.mode.as_str(),
            seat_text(&record.seats[0]),
            record.seats[0].secret.as_deref(),
            seat_text(&record.seats[1]),
            record.seats[1].secret.as_deref(),
            record.created,
            has_computer,
            record.time_control.map(|c| c.text()),
        ],
    )?;
    for data in &record.data {
        let text: &str = &data.text;
        // Whichever unique index the database keeps on the text (SQLite's
        // on the text, PostgreSQL's on its hash) finds the copy.
        sql.execute("INSERT INTO data (text) VALUES ($1) ON CONFLICT DO NOTHING", sql_params![text])?;
        sql.execute(
            "INSERT INTO game_data (game, option, name, data) SELECT $1, $2, $3, id FROM data WHERE text = $4",
            sql_params![&record.id, &data.option, &data.name, text],
        )?;
    }
    Ok(())
}

/// Stores `moves` as the game's moves from `first_ply` on; answers the
/// game's version after them (its stored version when there are none).
pub fn append_moves(sql: &mut dyn Sql, game: &str, first_ply: usize, moves: &[StoredMove]) -> Result<u64, StoreError> {
    let mut version = None;
    for (ply, mv) in (first_ply..).zip(moves) {
        version = Some(append_move(sql, game, ply, mv)?);
    }
    match version {
        Some(version) => Ok(version),
        None => match sql.query_opt("SELECT version FROM games WHERE id = $1", sql_params![game])? {
            Some(row) => version_of(&row, 0),
            None => Err(StoreError::NoSuchGame(game.to_owned())),
        },
    }
}

/// Stores move `ply` of `game` if the game has exactly `ply` moves. The
/// guard is the game's row: its update takes the row until the
/// transaction ends, so a second writer of the same ply waits, then finds
/// the count moved on and is refused.
pub fn append_move(sql: &mut dyn Sql, game: &str, ply: usize, mv: &StoredMove) -> Result<u64, StoreError> {
    let ply_number = ply_number(ply)?;
    let Some(row) = sql.query_opt(
        "UPDATE games SET plies = plies + 1, version = version + 1 WHERE id = $1 AND plies = $2 RETURNING version",
        sql_params![game, ply_number],
    )?
    else {
        return Err(refused(sql, game, ply, Refused::Move));
    };
    let version = version_of(&row, 0)?;
    let stored = sql.execute(
        "INSERT INTO moves (game, ply, text, actor, at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING",
        sql_params![game, ply_number, &mv.text, mv.actor.as_str(), mv.at],
    )?;
    if stored == 0 {
        // A move row the count did not know of: never a second copy.
        return Err(StoreError::DuplicateMove { game: game.to_owned(), ply });
    }
    Ok(version)
}

/// Sets what changed besides the moves, if the game is still as `seen`:
/// one statement, so the check and the write see the same row.
pub fn set_meta(sql: &mut dyn Sql, game: &str, seen: Seen<'_>, meta: &GameMeta) -> Result<u64, StoreError> {
    let before = seen.meta;
    let changed = sql.query_opt(
        "UPDATE games SET winner = $2, reason = $3, draw_offer = $4, rematch = $5, finished = $6, clock_at = $7,
                          takeback_offer = $15, version = version + 1
         WHERE id = $1 AND plies = $8 AND winner IS NOT DISTINCT FROM $9 AND reason IS NOT DISTINCT FROM $10
           AND draw_offer IS NOT DISTINCT FROM $11 AND rematch IS NOT DISTINCT FROM $12 AND finished = $13
           AND clock_at IS NOT DISTINCT FROM $14 AND takeback_offer IS NOT DISTINCT FROM $16
         RETURNING version",
        sql_params![
            game,
            meta.ending.as_ref().and_then(|e| e.winner).map(player_str),
            meta.ending.as_ref().map(|e| e.reason.as_str()),
            meta.draw_offer.map(player_str),
            meta.rematch.as_deref(),
            meta.finished,
            meta.clock_at,
            ply_number(seen.plies)?,
            before.ending.as_ref().and_then(|e| e.winner).map(player_str),
            before.ending.as_ref().map(|e| e.reason.as_str()),
            before.draw_offer.map(player_str),
            before.rematch.as_deref(),
            before.finished,
            before.clock_at,
            meta.takeback_offer.map(player_str),
            before.takeback_offer.map(player_str),
        ],
    )?;
    match changed {
        Some(row) => version_of(&row, 0),
        None => Err(refused(sql, game, seen.plies, Refused::Meta)),
    }
}

/// A takeback: the moves from ply `keep` on removed and `meta` set, if the
/// game is still as `seen`.
pub fn take_back(
    sql: &mut dyn Sql,
    game: &str,
    seen: Seen<'_>,
    keep: usize,
    meta: &GameMeta,
) -> Result<u64, StoreError> {
    let version = set_meta(sql, game, seen, meta)?;
    let keep = ply_number(keep)?;
    sql.execute("UPDATE games SET plies = $2 WHERE id = $1", sql_params![game, keep])?;
    sql.execute("DELETE FROM moves WHERE game = $1 AND ply >= $2", sql_params![game, keep])?;
    Ok(version)
}

/// The game as stored: its record, moves, meta and version. Run it in one
/// transaction (a snapshot), so the moves and the meta are of one moment.
pub fn load(sql: &mut dyn Sql, game: &str) -> Result<Option<StoredGame>, StoreError> {
    let Some(row) = sql.query_opt(
        "SELECT variant, position, seed, mode, seat0, secret0, seat1, secret1, created,
                winner, reason, draw_offer, rematch, finished, time_control, clock_at,
                takeback_offer, version
         FROM games WHERE id = $1",
        sql_params![game],
    )?
    else {
        return Ok(None);
    };
    let corrupt = |problem: String| StoreError::Corrupt { game: game.to_owned(), problem };
    let mode = row.text(3)?;
    let mode = Mode::parse(&mode).ok_or_else(|| corrupt(format!("unknown mode {mode:?}")))?;
    let kind =
        |text: String| serde_json::from_str::<SeatKind>(&text).map_err(|e| corrupt(format!("seat {text:?}: {e}")));
    let seats = [
        Seat { kind: kind(row.text(4)?)?, secret: row.opt_text(5)? },
        Seat { kind: kind(row.text(6)?)?, secret: row.opt_text(7)? },
    ];
    let winner = row.opt_text(9)?;
    let ending = row.opt_text(10)?.map(|reason| Ending { winner: winner.as_deref().and_then(parse_player), reason });
    let time_control = match row.opt_text(14)? {
        None => None,
        Some(text) => Some(TimeControl::parse(&text).ok_or_else(|| corrupt(format!("unknown time control {text:?}")))?),
    };
    let mut moves = Vec::new();
    for mv in sql.query("SELECT ply, text, actor, at FROM moves WHERE game = $1 ORDER BY ply", sql_params![game])? {
        if mv.int(0)? != moves.len() as i64 {
            return Err(corrupt(format!("move {} missing", moves.len())));
        }
        let actor = mv.text(2)?;
        let actor = MoveActor::parse(&actor).ok_or_else(|| corrupt(format!("unknown actor {actor:?}")))?;
        moves.push(StoredMove { text: mv.text(1)?, actor, at: mv.opt_int(3)? });
    }
    let data = sql
        .query(
            "SELECT game_data.option, game_data.name, data.text FROM game_data JOIN data ON data.id = game_data.data
             WHERE game_data.game = $1 ORDER BY game_data.option, game_data.name",
            sql_params![game],
        )?
        .iter()
        .map(|r| Ok(GameData { option: r.text(0)?, name: r.text(1)?, text: Arc::from(r.text(2)?) }))
        .collect::<Result<Vec<_>, StoreError>>()?;
    Ok(Some(StoredGame {
        record: GameRecord {
            id: game.to_owned(),
            variant: row.text(0)?,
            position: row.opt_text(1)?,
            seed: row.int(2)? as u64,
            mode,
            seats,
            created: row.int(8)?,
            data,
            time_control,
        },
        moves,
        meta: GameMeta {
            ending,
            draw_offer: row.opt_text(11)?.as_deref().and_then(parse_player),
            takeback_offer: row.opt_text(16)?.as_deref().and_then(parse_player),
            rematch: row.opt_text(12)?,
            finished: row.int(13)? != 0,
            clock_at: row.opt_int(15)?,
        },
        version: version_of(&row, 17)?,
    }))
}

/// Ids of unfinished games in which the computer holds a seat.
pub fn computer_games_in_progress(sql: &mut dyn Sql) -> Result<Vec<String>, StoreError> {
    ids(sql, "SELECT id FROM games WHERE NOT finished AND has_computer")
}

/// Ids of unfinished games with a time control.
pub fn timed_games_in_progress(sql: &mut dyn Sql) -> Result<Vec<String>, StoreError> {
    ids(sql, "SELECT id FROM games WHERE NOT finished AND time_control IS NOT NULL")
}

/// Ids of every game, oldest first.
pub fn game_ids(sql: &mut dyn Sql) -> Result<Vec<String>, StoreError> {
    ids(sql, "SELECT id FROM games ORDER BY created, id")
}

fn ids(sql: &mut dyn Sql, query: &str) -> Result<Vec<String>, StoreError> {
    sql.query(query, &[])?.iter().map(|row| row.text(0)).collect()
}

/// Why a guarded write of `game` after `expected` moves changed nothing.
pub(crate) fn refused(sql: &mut dyn Sql, game: &str, expected: usize, write: Refused) -> StoreError {
    match sql.query_opt("SELECT plies FROM games WHERE id = $1", sql_params![game]) {
        Err(error) => error,
        Ok(None) => StoreError::NoSuchGame(game.to_owned()),
        Ok(Some(row)) => match row.int(0) {
            Ok(stored) => write.error(game, expected, usize::try_from(stored).unwrap_or(0)),
            Err(error) => error,
        },
    }
}

/// A ply as the moves' `ply` column holds it (PostgreSQL's is an `INTEGER`).
fn ply_number(ply: usize) -> Result<i64, StoreError> {
    i32::try_from(ply).map(i64::from).map_err(|_| StoreError::Database(format!("ply {ply} is too large")))
}

fn version_of(row: &Row, index: usize) -> Result<u64, StoreError> {
    Ok(row.int(index)? as u64)
}

fn seat_text(seat: &Seat) -> String {
    serde_json::to_string(&seat.kind).expect("seat kinds serialize")
}
