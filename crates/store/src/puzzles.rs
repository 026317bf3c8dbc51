//! Puzzles in the store: each with its Glicko-2 rating, which play
//! corrects, and each account's puzzle rating per variant, as lichess rates
//! them: a round is a rated game between the solver and the puzzle (won if
//! solved), the first round of an account on a puzzle only. Each query
//! written once ([`super::sql`]); what the rows mean is in `schema.rs`.

use super::error::StoreError;
use super::sql::{Row, Sql};
use crate::sql_params;
use menagerie_league::glicko2::{rate_game, Rating};
use menagerie_league::Outcome;

/// A puzzle as stored: what it is and its rating now.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredPuzzle {
    pub id: String,
    pub variant: String,
    /// The position text before the solver's first move.
    pub position: String,
    /// The solver's moves and the other side's replies in turn, the
    /// solver's first move first.
    pub solution: Vec<String>,
    pub themes: Vec<String>,
    /// Where it was mined (JSON, as the puzzles file gives it).
    pub source: String,
    pub rating: Rating,
    /// Rated rounds played.
    pub plays: i64,
}

/// A new puzzle, rated `rating` to start with (a guess play corrects).
pub struct NewPuzzle<'a> {
    pub id: &'a str,
    pub variant: &'a str,
    pub position: &'a str,
    pub solution: &'a [String],
    pub themes: &'a [String],
    pub source: &'a str,
    pub rating: f64,
}

/// How sure a new puzzle's rating is: less than a new player's (a guess
/// from its length), so its first rounds move it, but not wildly.
pub const NEW_PUZZLE_DEVIATION: f64 = 300.0;

const COLUMNS: &str = "id, variant, position, solution, themes, source, rating, deviation, volatility, plays";

/// Adds a puzzle unless one of its id is stored (then its rating and
/// plays are kept); true if added.
pub fn add(sql: &mut dyn Sql, puzzle: &NewPuzzle<'_>) -> Result<bool, StoreError> {
    let json = |texts: &[String]| serde_json::to_string(texts).unwrap_or_else(|_| "[]".into());
    let added = sql.execute(
        &format!(
            "INSERT INTO puzzles ({COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 0) ON CONFLICT DO NOTHING"
        ),
        sql_params![
            puzzle.id,
            puzzle.variant,
            puzzle.position,
            json(puzzle.solution),
            json(puzzle.themes),
            puzzle.source,
            puzzle.rating,
            NEW_PUZZLE_DEVIATION,
            Rating::START.volatility,
        ],
    )?;
    Ok(added == 1)
}

/// Puzzle `id`, if stored.
pub fn puzzle(sql: &mut dyn Sql, id: &str) -> Result<Option<StoredPuzzle>, StoreError> {
    sql.query_opt(&format!("SELECT {COLUMNS} FROM puzzles WHERE id = $1"), sql_params![id])?
        .map(|row| puzzle_of(&row))
        .transpose()
}

/// The variants with puzzles, in order.
pub fn variants(sql: &mut dyn Sql) -> Result<Vec<String>, StoreError> {
    sql.query("SELECT DISTINCT variant FROM puzzles ORDER BY variant", &[])?.iter().map(|row| row.text(0)).collect()
}

/// At most `limit` puzzles of `variant` nearest to `rating`, nearest first,
/// leaving out those `account` has played.
pub fn nearest(
    sql: &mut dyn Sql,
    variant: &str,
    rating: f64,
    account: Option<&str>,
    limit: usize,
) -> Result<Vec<StoredPuzzle>, StoreError> {
    sql.query(
        &format!(
            "SELECT {COLUMNS} FROM puzzles p WHERE variant = $1
               AND NOT EXISTS (SELECT 1 FROM puzzle_rounds r WHERE r.account = $2 AND r.puzzle = p.id)
             ORDER BY abs(rating - $3), id LIMIT $4"
        ),
        sql_params![variant, account, rating, limit as i64],
    )?
    .iter()
    .map(puzzle_of)
    .collect()
}

/// `account`'s puzzle rating in `variant` and its rated rounds there (a
/// new player's rating and none if it played none).
pub fn player_rating(sql: &mut dyn Sql, account: &str, variant: &str) -> Result<(Rating, i64), StoreError> {
    let row = sql.query_opt(
        "SELECT rating, deviation, volatility, plays FROM puzzle_ratings WHERE account = $1 AND variant = $2",
        sql_params![account, variant],
    )?;
    match row {
        None => Ok((Rating::START, 0)),
        Some(row) => Ok((rating_at(&row, 0)?, row.int(3)?)),
    }
}

/// What a round did.
#[derive(Clone, Debug, PartialEq)]
pub struct Round {
    pub puzzle: String,
    pub win: bool,
    /// Whether it was rated (an account's first round on the puzzle).
    pub rated: bool,
    /// The solver's rating change, whole points (0 when not rated).
    pub rating_diff: i64,
    /// The solver's puzzle rating in the puzzle's variant after it.
    pub rating: Rating,
}

/// `account` played puzzle `id` at `now` (ms), solving it or not. The
/// first round of an account on a puzzle is rated (`rated`): both ratings
/// change as after a game between them, and the puzzle counts a play;
/// later rounds change nothing. `None` for no such puzzle.
pub fn play_round(
    sql: &mut dyn Sql,
    account: &str,
    id: &str,
    win: bool,
    rated: bool,
    now: i64,
) -> Result<Option<Round>, StoreError> {
    let Some(puzzle) = puzzle(sql, id)? else { return Ok(None) };
    let (before, plays) = player_rating(sql, account, &puzzle.variant)?;
    let first = sql.execute(
        "INSERT INTO puzzle_rounds (account, puzzle, win, rating_diff, at) VALUES ($1, $2, $3, 0, $4)
         ON CONFLICT DO NOTHING",
        sql_params![account, id, win, now],
    )? == 1;
    let unchanged = Round { puzzle: puzzle.id.clone(), win, rated: false, rating_diff: 0, rating: before };
    if !(first && rated) {
        return Ok(Some(unchanged));
    }
    let outcome = if win { Outcome::Win } else { Outcome::Loss };
    let [solver, rated_puzzle] = rate_game(before, 0.0, puzzle.rating, 0.0, outcome);
    let rating_diff = (solver.rating.round() - before.rating.round()) as i64;
    sql.execute(
        "INSERT INTO puzzle_ratings (account, variant, rating, deviation, volatility, plays)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (account, variant) DO UPDATE SET rating = $3, deviation = $4, volatility = $5, plays = $6",
        sql_params![account, &puzzle.variant, solver.rating, solver.deviation, solver.volatility, plays + 1],
    )?;
    sql.execute(
        "UPDATE puzzles SET rating = $2, deviation = $3, volatility = $4, plays = plays + 1 WHERE id = $1",
        sql_params![id, rated_puzzle.rating, rated_puzzle.deviation, rated_puzzle.volatility],
    )?;
    sql.execute(
        "UPDATE puzzle_rounds SET rating_diff = $3 WHERE account = $1 AND puzzle = $2",
        sql_params![account, id, rating_diff],
    )?;
    Ok(Some(Round { rated: true, rating_diff, rating: solver, ..unchanged }))
}

/// `account`'s rounds, newest first: the puzzle, solved or not, the rating
/// change and when (ms).
pub fn rounds(sql: &mut dyn Sql, account: &str) -> Result<Vec<(String, bool, i64, i64)>, StoreError> {
    sql.query(
        "SELECT puzzle, win, rating_diff, at FROM puzzle_rounds WHERE account = $1 ORDER BY at DESC, puzzle",
        sql_params![account],
    )?
    .iter()
    .map(|row| Ok((row.text(0)?, row.int(1)? != 0, row.int(2)?, row.int(3)?)))
    .collect()
}

fn rating_at(row: &Row, first: usize) -> Result<Rating, StoreError> {
    Ok(Rating { rating: row.real(first)?, deviation: row.real(first + 1)?, volatility: row.real(first + 2)? })
}

fn texts(row: &Row, index: usize) -> Result<Vec<String>, StoreError> {
    let text = row.text(index)?;
    serde_json::from_str(&text).map_err(|e| StoreError::Database(format!("a puzzle's column {index}: {e}")))
}

fn puzzle_of(row: &Row) -> Result<StoredPuzzle, StoreError> {
    Ok(StoredPuzzle {
        id: row.text(0)?,
        variant: row.text(1)?,
        position: row.text(2)?,
        solution: texts(row, 3)?,
        themes: texts(row, 4)?,
        source: row.text(5)?,
        rating: rating_at(row, 6)?,
        plays: row.int(9)?,
    })
}
