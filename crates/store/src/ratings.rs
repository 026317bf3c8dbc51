//! Results and Glicko-2 ratings in the store: each query written once
//! ([`super::sql`]) for both databases. What the rows mean is in
//! `schema.rs`; the arithmetic is `menagerie_league::glicko2`.
//!
//! [`game_ended`] runs inside the transaction that stores a game's end
//! (`Store::finish`), so a result and its rating changes are committed
//! together, once: a second node ending the same game is refused by the
//! end's own guard before it gets here, and `rated_games.status` is set
//! once besides.

use super::error::StoreError;
use super::records::{parse_player, player_str, SeatKind};
use super::sql::{Row, Sql};
use crate::sql_params;
use menagerie_core::Player;
use menagerie_league::glicko2::{self, Rating};
use menagerie_league::Outcome;

/// Ms in a day (the deviation grows by days since the last rated game).
const DAY_MS: f64 = 24.0 * 3600.0 * 1000.0;

/// A rated game counts once each side has made at least this many moves
/// (fewer: aborted, as on lichess).
pub const MOVES_TO_COUNT: i64 = 2;

/// The variant id a variant string is rated under: its options left off
/// (`lunch:princess` is rated as `lunch`), ids kept apart
/// (`fluid-single-promo`, `lichen-3x3`).
pub fn perf_of(variant: &str) -> &str {
    variant.split_once(':').map_or(variant, |(id, _)| id)
}

/// The rating key of the computer at `level`.
pub fn computer_player(level: &str) -> String {
    format!("computer:{level}")
}

/// A player's rating in one variant, as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct Perf {
    pub perf: String,
    pub rating: Rating,
    pub games: i64,
    pub wins: i64,
    pub losses: i64,
    pub draws: i64,
    /// Ms of the last rated game.
    pub last_game: i64,
}

impl Perf {
    /// The rating as it stands at `now`: its deviation grown with the time
    /// since the last rated game.
    pub fn now(&self, now: i64) -> Rating {
        self.rating.after_idle((now - self.last_game) as f64 / DAY_MS)
    }
}

const PERF_COLUMNS: &str = "perf, rating, rd, volatility, games, wins, losses, draws, last_game";

fn perf(row: &Row) -> Result<Perf, StoreError> {
    Ok(Perf {
        perf: row.text(0)?,
        rating: Rating { rating: row.real(1)?, deviation: row.real(2)?, volatility: row.real(3)? },
        games: row.int(4)?,
        wins: row.int(5)?,
        losses: row.int(6)?,
        draws: row.int(7)?,
        last_game: row.int(8)?,
    })
}

/// Marks `game` as rated under `perf` (at its creation).
pub fn mark_rated(sql: &mut dyn Sql, game: &str, perf: &str) -> Result<(), StoreError> {
    sql.execute(
        "INSERT INTO rated_games (game, perf) VALUES ($1, $2) ON CONFLICT DO NOTHING",
        sql_params![game, perf],
    )?;
    Ok(())
}

/// Every rating of `player`, by variant id.
pub fn perfs(sql: &mut dyn Sql, player: &str) -> Result<Vec<Perf>, StoreError> {
    let rows =
        sql.query(&format!("SELECT {PERF_COLUMNS} FROM ratings WHERE player = $1 ORDER BY perf"), sql_params![player])?;
    rows.iter().map(perf).collect()
}

/// The computer's ratings: each level's, by variant id.
pub fn computer_perfs(sql: &mut dyn Sql) -> Result<Vec<(String, Perf)>, StoreError> {
    let rows = sql.query(
        &format!("SELECT player, {PERF_COLUMNS} FROM ratings WHERE player LIKE 'computer:%' ORDER BY player, perf"),
        &[],
    )?;
    rows.iter()
        .map(|row| {
            let level = row.text(0)?.trim_start_matches("computer:").to_owned();
            Ok((level, perf(&Row(row.0[1..].to_vec()))?))
        })
        .collect()
}

/// `player`'s rating in `perf`, if it has one.
pub fn perf_of_player(sql: &mut dyn Sql, player: &str, perf_id: &str) -> Result<Option<Perf>, StoreError> {
    let row = sql.query_opt(
        &format!("SELECT {PERF_COLUMNS} FROM ratings WHERE player = $1 AND perf = $2"),
        sql_params![player, perf_id],
    )?;
    row.as_ref().map(perf).transpose()
}

/// `player`'s rating in `perf` at `now` (a newcomer's start rating if none).
pub fn rating_now(sql: &mut dyn Sql, player: &str, perf_id: &str, now: i64) -> Result<Rating, StoreError> {
    Ok(perf_of_player(sql, player, perf_id)?.map_or(Rating::START, |p| p.now(now)))
}

/// One point of a rating's history.
#[derive(Clone, Debug, PartialEq)]
pub struct HistoryPoint {
    pub perf: String,
    pub game: String,
    pub rating: Rating,
    /// Ms.
    pub at: i64,
}

/// `player`'s rating after each rated game, by variant id then oldest first.
pub fn history(sql: &mut dyn Sql, player: &str) -> Result<Vec<HistoryPoint>, StoreError> {
    let rows = sql.query(
        "SELECT perf, game, rating, rd, volatility, at FROM rating_history WHERE player = $1
         ORDER BY perf, at, game",
        sql_params![player],
    )?;
    rows.iter()
        .map(|row| {
            Ok(HistoryPoint {
                perf: row.text(0)?,
                game: row.text(1)?,
                rating: Rating { rating: row.real(2)?, deviation: row.real(3)?, volatility: row.real(4)? },
                at: row.int(5)?,
            })
        })
        .collect()
}

/// The accounts best rated in `perf` whose deviation was below
/// `max_deviation` at their last game, best first, at most `limit`:
/// (username, rating, ratings after their recent games, oldest first).
pub fn leaders(
    sql: &mut dyn Sql,
    perf_id: &str,
    max_deviation: f64,
    limit: usize,
) -> Result<Vec<(String, Perf)>, StoreError> {
    let rows = sql.query(
        "SELECT accounts.username, ratings.perf, ratings.rating, ratings.rd, ratings.volatility, ratings.games,
                ratings.wins, ratings.losses, ratings.draws, ratings.last_game
         FROM ratings JOIN accounts ON accounts.id = ratings.player
         WHERE ratings.perf = $1 AND ratings.rd < $2 AND accounts.closed IS NULL
         ORDER BY ratings.rating DESC, accounts.username_key LIMIT $3",
        sql_params![perf_id, max_deviation, limit as i64],
    )?;
    rows.iter()
        .map(|row| {
            let rest = Row(row.0[1..].to_vec());
            Ok((row.text(0)?, perf(&rest)?))
        })
        .collect()
}

/// `player`'s ratings in `perf` after its last `n` rated games, oldest first
/// (`prog`).
pub fn recent_ratings(sql: &mut dyn Sql, player: &str, perf_id: &str, n: usize) -> Result<Vec<f64>, StoreError> {
    let rows = sql.query(
        "SELECT rating FROM rating_history WHERE player = $1 AND perf = $2 ORDER BY at DESC, game DESC LIMIT $3",
        sql_params![player, perf_id, n as i64],
    )?;
    let mut ratings = rows.iter().map(|r| r.real(0)).collect::<Result<Vec<_>, _>>()?;
    ratings.reverse();
    Ok(ratings)
}

/// How a game went for each seat, as stored in `results`.
pub fn outcome_str(winner: Option<Player>) -> &'static str {
    winner.map_or("draw", player_str)
}

/// A rated game as stored: its variant id, status once ended, and per seat
/// the player, rating before and change once rated.
#[derive(Clone, Debug, PartialEq)]
pub struct RatedGame {
    pub perf: String,
    /// `None` while it is played; `rated` or `aborted`.
    pub status: Option<String>,
    pub seats: [Option<RatedSeat>; 2],
}

#[derive(Clone, Debug, PartialEq)]
pub struct RatedSeat {
    pub player: String,
    pub before: f64,
    pub deviation: f64,
    pub diff: i64,
}

/// Whether and how `game` is rated.
pub fn rated_game(sql: &mut dyn Sql, game: &str) -> Result<Option<RatedGame>, StoreError> {
    let row = sql.query_opt(
        "SELECT perf, status, player0, before0, rd0, diff0, player1, before1, rd1, diff1
         FROM rated_games WHERE game = $1",
        sql_params![game],
    )?;
    let Some(row) = row else { return Ok(None) };
    let seat = |at: usize| -> Result<Option<RatedSeat>, StoreError> {
        let Some(player) = row.opt_text(at)? else { return Ok(None) };
        let (Some(diff), Ok(before), Ok(deviation)) = (row.opt_int(at + 3)?, row.real(at + 1), row.real(at + 2)) else {
            return Ok(None);
        };
        Ok(Some(RatedSeat { player, before, deviation, diff }))
    };
    Ok(Some(RatedGame { perf: row.text(0)?, status: row.opt_text(1)?, seats: [seat(2)?, seat(6)?] }))
}

/// The rating key of whoever holds `seat` of `game`: its account, or the
/// computer's level; `None` for an anonymous player.
fn seat_player(sql: &mut dyn Sql, game: &str, seat: Player) -> Result<Option<String>, StoreError> {
    let column = if seat == Player::First { "seat0" } else { "seat1" };
    let row = sql.query_opt(
        &format!(
            "SELECT games.{column}, seat_holders.account, accounts.closed FROM games
             LEFT JOIN seat_holders ON seat_holders.game = games.id AND seat_holders.seat = $2
             LEFT JOIN accounts ON accounts.id = seat_holders.account
             WHERE games.id = $1"
        ),
        sql_params![game, seat.index() as i64],
    )?;
    let Some(row) = row else { return Ok(None) };
    if let Ok(SeatKind::Computer { level }) = serde_json::from_str::<SeatKind>(&row.text(0)?) {
        return Ok(Some(computer_player(&level)));
    }
    Ok(match (row.opt_text(1)?, row.opt_int(2)?) {
        (Some(account), None) => Some(account),
        _ => None,
    })
}

/// Moves each side of `game` has made.
fn moves_made(sql: &mut dyn Sql, game: &str) -> Result<[i64; 2], StoreError> {
    let rows = sql.query("SELECT actor, count(*) FROM moves WHERE game = $1 GROUP BY actor", sql_params![game])?;
    let mut made = [0; 2];
    for row in &rows {
        if let Some(player) = parse_player(&row.text(0)?) {
            made[player.index()] = row.int(1)?;
        }
    }
    Ok(made)
}

/// Stores how `game` ended (`winner`, `None` a draw) at `now`, and if it
/// was to be rated, rates it: both players' new ratings, their history, and
/// the game's changes. Part of the transaction that ends the game.
pub fn game_ended(sql: &mut dyn Sql, game: &str, winner: Option<Player>, now: i64) -> Result<(), StoreError> {
    sql.execute(
        "INSERT INTO results (game, outcome, ended) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
        sql_params![game, outcome_str(winner), now],
    )?;
    let Some(row) =
        sql.query_opt("SELECT perf FROM rated_games WHERE game = $1 AND status IS NULL", sql_params![game])?
    else {
        return Ok(());
    };
    let perf_id = row.text(0)?;
    let players = [seat_player(sql, game, Player::First)?, seat_player(sql, game, Player::Second)?];
    let made = moves_made(sql, game)?;
    let [Some(first), Some(second)] = players else { return set_status(sql, game, "aborted") };
    if made.iter().any(|&n| n < MOVES_TO_COUNT) || first == second {
        return set_status(sql, game, "aborted");
    }
    // Lock both ratings (in one order: two games ending at once never wait
    // on each other in a circle) before reading them, so that another game
    // of the same player ending meanwhile on another node is rated after
    // this one, from what this one stores, never from the same old rating.
    let mut locked = [&first, &second];
    locked.sort();
    for player in locked {
        sql.execute("UPDATE ratings SET games = games WHERE player = $1 AND perf = $2", sql_params![player, &perf_id])?;
    }
    let stored = [perf_of_player(sql, &first, &perf_id)?, perf_of_player(sql, &second, &perf_id)?];
    let idle = |p: &Option<Perf>| p.as_ref().map_or(0.0, |p| (now - p.last_game) as f64 / DAY_MS);
    let base = |p: &Option<Perf>| p.as_ref().map_or(Rating::START, |p| p.rating);
    let first_outcome = match winner {
        None => Outcome::Draw,
        Some(Player::First) => Outcome::Win,
        Some(Player::Second) => Outcome::Loss,
    };
    let before = [base(&stored[0]).after_idle(idle(&stored[0])), base(&stored[1]).after_idle(idle(&stored[1]))];
    let after =
        glicko2::rate_game(base(&stored[0]), idle(&stored[0]), base(&stored[1]), idle(&stored[1]), first_outcome);
    for (seat, player) in [(0usize, &first), (1, &second)] {
        let outcome = if seat == 0 { first_outcome } else { first_outcome.reversed() };
        let (wins, losses, draws) = match outcome {
            Outcome::Win => (1, 0, 0),
            Outcome::Loss => (0, 1, 0),
            Outcome::Draw => (0, 0, 1),
        };
        let new = after[seat];
        sql.execute(
            "INSERT INTO ratings (player, perf, rating, rd, volatility, games, wins, losses, draws, last_game)
             VALUES ($1, $2, $3, $4, $5, 1, $6, $7, $8, $9)
             ON CONFLICT (player, perf) DO UPDATE SET rating = $3, rd = $4, volatility = $5,
                 games = ratings.games + 1, wins = ratings.wins + $6, losses = ratings.losses + $7,
                 draws = ratings.draws + $8, last_game = $9",
            sql_params![player, &perf_id, new.rating, new.deviation, new.volatility, wins, losses, draws, now],
        )?;
        sql.execute(
            "INSERT INTO rating_history (player, perf, game, rating, rd, volatility, at)
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
            sql_params![player, &perf_id, game, new.rating, new.deviation, new.volatility, now],
        )?;
    }
    // Changes as lichess shows them: whole points, before to after.
    let diff = |seat: usize| after[seat].rating.round() as i64 - before[seat].rating.round() as i64;
    sql.execute(
        "UPDATE rated_games SET status = 'rated', player0 = $2, player1 = $3, before0 = $4, before1 = $5,
             rd0 = $6, rd1 = $7, diff0 = $8, diff1 = $9
         WHERE game = $1 AND status IS NULL",
        sql_params![
            game,
            &first,
            &second,
            before[0].rating,
            before[1].rating,
            before[0].deviation,
            before[1].deviation,
            diff(0),
            diff(1)
        ],
    )?;
    Ok(())
}

fn set_status(sql: &mut dyn Sql, game: &str, status: &str) -> Result<(), StoreError> {
    sql.execute("UPDATE rated_games SET status = $2 WHERE game = $1 AND status IS NULL", sql_params![game, status])?;
    Ok(())
}

/// How an account's games went: (all, rated, wins, losses, draws), counting
/// the games whose end was stored with its result.
pub fn counts(sql: &mut dyn Sql, account: &str) -> Result<[i64; 5], StoreError> {
    let row = sql.query_opt(
        "SELECT count(*),
                count(CASE WHEN rated_games.status = 'rated' THEN 1 END),
                count(CASE WHEN results.outcome = 'first' AND seat_holders.seat = 0
                             OR results.outcome = 'second' AND seat_holders.seat = 1 THEN 1 END),
                count(CASE WHEN results.outcome = 'first' AND seat_holders.seat = 1
                             OR results.outcome = 'second' AND seat_holders.seat = 0 THEN 1 END),
                count(CASE WHEN results.outcome = 'draw' THEN 1 END)
         FROM seat_holders JOIN results ON results.game = seat_holders.game
         LEFT JOIN rated_games ON rated_games.game = seat_holders.game
         WHERE seat_holders.account = $1",
        sql_params![account],
    )?;
    let Some(row) = row else { return Ok([0; 5]) };
    Ok([row.int(0)?, row.int(1)?, row.int(2)?, row.int(3)?, row.int(4)?])
}

/// One finished or unfinished game of an account, for its list of games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AccountGame {
    pub game: String,
    pub seat: usize,
    pub variant: String,
    /// Seconds, as games store it.
    pub created: i64,
    /// `first`, `second`, `draw`, if its end was stored with its result.
    pub outcome: Option<String>,
    pub rated: bool,
}

/// What [`account_games`] keeps.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameFilter {
    pub rated: Option<bool>,
    /// A variant id: the games of it, whatever their options.
    pub perf: Option<String>,
    /// `win`, `loss` or `draw` for the account.
    pub result: Option<String>,
    pub max: Option<usize>,
}

/// The finished games an account played, newest first, as `filter` keeps.
pub fn account_games(sql: &mut dyn Sql, account: &str, filter: &GameFilter) -> Result<Vec<AccountGame>, StoreError> {
    let rows = sql.query(
        "SELECT seat_holders.game, seat_holders.seat, games.variant, games.created, results.outcome,
                rated_games.status
         FROM seat_holders JOIN games ON games.id = seat_holders.game
         LEFT JOIN results ON results.game = seat_holders.game
         LEFT JOIN rated_games ON rated_games.game = seat_holders.game
         WHERE seat_holders.account = $1 AND games.finished
         ORDER BY games.created DESC, seat_holders.game DESC, seat_holders.seat",
        sql_params![account],
    )?;
    let mut games = Vec::new();
    for row in &rows {
        let game = AccountGame {
            game: row.text(0)?,
            seat: usize::from(row.int(1)? != 0),
            variant: row.text(2)?,
            created: row.int(3)?,
            outcome: row.opt_text(4)?,
            rated: row.opt_text(5)?.as_deref() == Some("rated"),
        };
        if games.last().is_some_and(|g: &AccountGame| g.game == game.game) {
            continue;
        }
        if filter.rated.is_some_and(|rated| rated != game.rated)
            || filter.perf.as_deref().is_some_and(|p| p != perf_of(&game.variant))
            || filter.result.as_deref().is_some_and(|r| Some(r) != game.result_for_account())
        {
            continue;
        }
        games.push(game);
        if filter.max.is_some_and(|max| games.len() >= max) {
            break;
        }
    }
    Ok(games)
}

impl AccountGame {
    /// `win`, `loss` or `draw` for the account, if known.
    pub fn result_for_account(&self) -> Option<&'static str> {
        let outcome = self.outcome.as_deref()?;
        if outcome == "draw" {
            return Some("draw");
        }
        let winner = parse_player(outcome)?;
        Some(if winner.index() == self.seat { "win" } else { "loss" })
    }
}
