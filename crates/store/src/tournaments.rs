//! Tournaments in the store, each query written once ([`super::sql`]).
//! What the rows mean is in `schema.rs`; what is done with them (pairing,
//! scoring, the standings) is `menagerie_server::tournament`'s.
//!
//! A pairing is stored before its games exist ([`reserve`]), and each of
//! a player's games in a tournament takes a numbered slot once, so a
//! pairing made twice from the same standings (two nodes, a retry) stores
//! once; a game is scored once ([`score_ended`] sets its outcome only
//! while it has none).

use super::error::StoreError;
use super::records::parse_player;
use super::sql::{Row, Sql};
use crate::sql_params;

/// What kind of event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Arena,
    RoundRobin,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Arena => "arena",
            Kind::RoundRobin => "round_robin",
        }
    }

    pub fn parse(text: &str) -> Option<Kind> {
        match text {
            "arena" => Some(Kind::Arena),
            "round_robin" => Some(Kind::RoundRobin),
            _ => None,
        }
    }
}

/// Where a tournament stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Created,
    Started,
    Finished,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Created => "created",
            Status::Started => "started",
            Status::Finished => "finished",
        }
    }

    pub fn parse(text: &str) -> Option<Status> {
        match text {
            "created" => Some(Status::Created),
            "started" => Some(Status::Started),
            "finished" => Some(Status::Finished),
            _ => None,
        }
    }
}

/// A tournament as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tournament {
    pub id: String,
    pub kind: Kind,
    pub name: String,
    pub variant: String,
    /// The time control's stored form (`fischer:60000+0`).
    pub clock: String,
    /// An arena's length.
    pub minutes: Option<i64>,
    /// A round robin's rounds (`None`: everyone meets everyone).
    pub rounds: Option<i64>,
    /// Ms since the epoch.
    pub starts_at: i64,
    /// The password's Argon2id hash, if it has one.
    pub password: Option<String>,
    /// The creating account's id.
    pub creator: String,
    pub status: Status,
    /// Whether players may berserk.
    pub berserk: bool,
    pub created: i64,
    pub started: Option<i64>,
    pub finished: Option<i64>,
}

impl Tournament {
    /// When an arena stops pairing (ms), if it is one.
    pub fn ends_at(&self) -> Option<i64> {
        self.minutes.map(|minutes| self.started.unwrap_or(self.starts_at) + minutes * 60_000)
    }
}

const TOURNAMENT_COLUMNS: &str = "id, kind, name, variant, clock, minutes, rounds, starts_at, password, creator, \
                                  status, berserk, created, started, finished";

fn corrupt(what: &str) -> StoreError {
    StoreError::Database(format!("a tournament's {what} is not one this program writes"))
}

fn tournament(row: &Row) -> Result<Tournament, StoreError> {
    Ok(Tournament {
        id: row.text(0)?,
        kind: Kind::parse(&row.text(1)?).ok_or_else(|| corrupt("kind"))?,
        name: row.text(2)?,
        variant: row.text(3)?,
        clock: row.text(4)?,
        minutes: row.opt_int(5)?,
        rounds: row.opt_int(6)?,
        starts_at: row.int(7)?,
        password: row.opt_text(8)?,
        creator: row.text(9)?,
        status: Status::parse(&row.text(10)?).ok_or_else(|| corrupt("status"))?,
        berserk: row.int(11)? != 0,
        created: row.int(12)?,
        started: row.opt_int(13)?,
        finished: row.opt_int(14)?,
    })
}

/// Stores a new tournament.
pub fn create(sql: &mut dyn Sql, t: &Tournament) -> Result<(), StoreError> {
    sql.execute(
        &format!(
            "INSERT INTO tournaments ({TOURNAMENT_COLUMNS})
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)"
        ),
        sql_params![
            &t.id,
            t.kind.as_str(),
            &t.name,
            &t.variant,
            &t.clock,
            t.minutes,
            t.rounds,
            t.starts_at,
            t.password.as_deref(),
            &t.creator,
            t.status.as_str(),
            t.berserk,
            t.created,
            t.started,
            t.finished
        ],
    )?;
    Ok(())
}

/// The tournament `id`, if there is one.
pub fn get(sql: &mut dyn Sql, id: &str) -> Result<Option<Tournament>, StoreError> {
    let row = sql.query_opt(&format!("SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE id = $1"), sql_params![id])?;
    row.as_ref().map(tournament).transpose()
}

/// The tournaments in `status`, at most `limit`: those to come and running
/// soonest first, finished ones latest first.
pub fn list(sql: &mut dyn Sql, status: Status, limit: usize) -> Result<Vec<Tournament>, StoreError> {
    let order = if status == Status::Finished { "finished DESC, id" } else { "starts_at, id" };
    let rows = sql.query(
        &format!("SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE status = $1 ORDER BY {order} LIMIT $2"),
        sql_params![status.as_str(), limit as i64],
    )?;
    rows.iter().map(tournament).collect()
}

/// The ids of the tournaments not finished (a node's runner claims them).
pub fn unfinished(sql: &mut dyn Sql) -> Result<Vec<String>, StoreError> {
    let rows = sql.query("SELECT id FROM tournaments WHERE status <> 'finished' ORDER BY starts_at, id", &[])?;
    rows.iter().map(|row| row.text(0)).collect()
}

/// Starts the tournament at `now`; false if it was not waiting to start.
pub fn start(sql: &mut dyn Sql, id: &str, now: i64) -> Result<bool, StoreError> {
    let n = sql.execute(
        "UPDATE tournaments SET status = 'started', started = $2 WHERE id = $1 AND status = 'created'",
        sql_params![id, now],
    )?;
    Ok(n == 1)
}

/// Finishes the tournament at `now`; false if it was not running.
pub fn finish(sql: &mut dyn Sql, id: &str, now: i64) -> Result<bool, StoreError> {
    let n = sql.execute(
        "UPDATE tournaments SET status = 'finished', finished = $2 WHERE id = $1 AND status <> 'finished'",
        sql_params![id, now],
    )?;
    Ok(n == 1)
}

/// One entrant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entrant {
    pub account: String,
    pub username: String,
    /// The order they joined in, from 0.
    pub seed: i64,
    pub joined: i64,
    /// When they left, if they did (they are paired no more).
    pub withdrawn: Option<i64>,
}

/// Enters `account` (again, if it had withdrawn); false if it is already in.
pub fn join(sql: &mut dyn Sql, id: &str, account: &str, now: i64) -> Result<bool, StoreError> {
    let back = sql.execute(
        "UPDATE tournament_entrants SET withdrawn = NULL WHERE tournament = $1 AND account = $2
         AND withdrawn IS NOT NULL",
        sql_params![id, account],
    )?;
    if back == 1 {
        return Ok(true);
    }
    let seed = sql
        .query_opt("SELECT count(*) FROM tournament_entrants WHERE tournament = $1", sql_params![id])?
        .map(|row| row.int(0))
        .transpose()?
        .unwrap_or(0);
    let added = sql.execute(
        "INSERT INTO tournament_entrants (tournament, account, seed, joined) VALUES ($1, $2, $3, $4)
         ON CONFLICT DO NOTHING",
        sql_params![id, account, seed, now],
    )?;
    Ok(added == 1)
}

/// Withdraws `account`; false if it was not playing in it.
pub fn withdraw(sql: &mut dyn Sql, id: &str, account: &str, now: i64) -> Result<bool, StoreError> {
    let n = sql.execute(
        "UPDATE tournament_entrants SET withdrawn = $3 WHERE tournament = $1 AND account = $2 AND withdrawn IS NULL",
        sql_params![id, account, now],
    )?;
    Ok(n == 1)
}

/// Everyone who entered, in the order they joined.
pub fn entrants(sql: &mut dyn Sql, id: &str) -> Result<Vec<Entrant>, StoreError> {
    let rows = sql.query(
        "SELECT e.account, a.username, e.seed, e.joined, e.withdrawn FROM tournament_entrants e
         JOIN accounts a ON a.id = e.account WHERE e.tournament = $1 ORDER BY e.seed, e.account",
        sql_params![id],
    )?;
    rows.iter()
        .map(|row| {
            Ok(Entrant {
                account: row.text(0)?,
                username: row.text(1)?,
                seed: row.int(2)?,
                joined: row.int(3)?,
                withdrawn: row.opt_int(4)?,
            })
        })
        .collect()
}

/// How a tournament game went for its first player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameOutcome {
    First,
    Second,
    Draw,
}

impl GameOutcome {
    fn parse(text: &str) -> Option<GameOutcome> {
        match text {
            "first" => Some(GameOutcome::First),
            "second" => Some(GameOutcome::Second),
            "draw" => Some(GameOutcome::Draw),
            _ => None,
        }
    }
}

/// One game of a tournament.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentGame {
    pub game: String,
    pub tournament: String,
    /// An arena's pairing wave or a round robin's round, from 1.
    pub round: i64,
    /// The accounts of the first and second seats.
    pub first: String,
    pub second: String,
    /// When it was paired (ms).
    pub paired: i64,
    /// Which seats berserked.
    pub berserk: [bool; 2],
    /// Once scored, how it went.
    pub outcome: Option<GameOutcome>,
    /// Once scored, the moves each seat made.
    pub moves: [i64; 2],
}

impl TournamentGame {
    /// The seat `account` holds in it (0 first, 1 second), if any.
    pub fn seat_of(&self, account: &str) -> Option<usize> {
        if self.first == account {
            Some(0)
        } else if self.second == account {
            Some(1)
        } else {
            None
        }
    }
}

const GAME_COLUMNS: &str =
    "game, tournament, round, first, second, paired, berserk0, berserk1, outcome, moves0, moves1";

fn tournament_game(row: &Row) -> Result<TournamentGame, StoreError> {
    let outcome = match row.opt_text(8)? {
        Some(text) => Some(GameOutcome::parse(&text).ok_or_else(|| corrupt("game outcome"))?),
        None => None,
    };
    Ok(TournamentGame {
        game: row.text(0)?,
        tournament: row.text(1)?,
        round: row.int(2)?,
        first: row.text(3)?,
        second: row.text(4)?,
        paired: row.int(5)?,
        berserk: [row.int(6)? != 0, row.int(7)? != 0],
        outcome,
        moves: [row.opt_int(9)?.unwrap_or(0), row.opt_int(10)?.unwrap_or(0)],
    })
}

/// A game to reserve: its id, the first and second seats' accounts, and
/// how many games of the tournament each had in the standings it was
/// paired from (the slot its game takes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Paired {
    pub game: String,
    pub first: String,
    pub second: String,
    pub nth: [i64; 2],
}

/// Stores the pairing `games` of `round` at `now`, each player's game in
/// the slot the pairing saw free. Refused with [`StoreError::Stale`] (and,
/// inside [`super::sql::transact`], nothing stored) if a slot is already
/// taken: the same standings were paired already.
pub fn reserve(sql: &mut dyn Sql, id: &str, round: i64, games: &[Paired], now: i64) -> Result<(), StoreError> {
    for paired in games {
        for (account, nth) in [(&paired.first, paired.nth[0]), (&paired.second, paired.nth[1])] {
            let taken = sql.execute(
                "INSERT INTO tournament_slots (tournament, account, nth, game) VALUES ($1, $2, $3, $4)
                 ON CONFLICT DO NOTHING",
                sql_params![id, account, nth, &paired.game],
            )?;
            if taken == 0 {
                return Err(StoreError::Stale { game: paired.game.clone() });
            }
        }
        sql.execute(
            &format!(
                "INSERT INTO tournament_games ({GAME_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, 0, 0, NULL, NULL, NULL)"
            ),
            sql_params![&paired.game, id, round, &paired.first, &paired.second, now],
        )?;
    }
    Ok(())
}

/// The tournament's games, in the order they were paired.
pub fn games(sql: &mut dyn Sql, id: &str) -> Result<Vec<TournamentGame>, StoreError> {
    let rows = sql.query(
        &format!("SELECT {GAME_COLUMNS} FROM tournament_games WHERE tournament = $1 ORDER BY paired, round, game"),
        sql_params![id],
    )?;
    rows.iter().map(tournament_game).collect()
}

/// The tournament game `game`, if it is one.
pub fn game(sql: &mut dyn Sql, game: &str) -> Result<Option<TournamentGame>, StoreError> {
    let row =
        sql.query_opt(&format!("SELECT {GAME_COLUMNS} FROM tournament_games WHERE game = $1"), sql_params![game])?;
    row.as_ref().map(tournament_game).transpose()
}

/// The games reserved and not yet set up (the node that paired them
/// stopped in between), each with whether it was created already: those
/// not created, and those created whose seats are not both held.
pub fn unready(sql: &mut dyn Sql, id: &str) -> Result<Vec<(TournamentGame, bool)>, StoreError> {
    let columns = GAME_COLUMNS.split(", ").map(|c| format!("t.{c}")).collect::<Vec<_>>().join(", ");
    let rows = sql.query(
        &format!(
            "SELECT {columns}, g.id FROM tournament_games t LEFT JOIN games g ON g.id = t.game
             WHERE t.tournament = $1 AND t.outcome IS NULL
             AND (g.id IS NULL OR (SELECT count(*) FROM seat_holders s WHERE s.game = t.game) < 2)
             ORDER BY t.paired, t.game"
        ),
        sql_params![id],
    )?;
    rows.iter().map(|row| Ok((tournament_game(row)?, row.opt_text(11)?.is_some()))).collect()
}

/// Scores the tournament's games that ended since: each takes its stored
/// result and the moves each seat made, once. Answers how many were scored.
pub fn score_ended(sql: &mut dyn Sql, id: &str) -> Result<usize, StoreError> {
    let ended = sql.query(
        "SELECT t.game, r.outcome FROM tournament_games t JOIN results r ON r.game = t.game
         WHERE t.tournament = $1 AND t.outcome IS NULL",
        sql_params![id],
    )?;
    let mut scored = 0;
    for row in &ended {
        let (game, outcome) = (row.text(0)?, row.text(1)?);
        let mut made = [0i64; 2];
        let counts =
            sql.query("SELECT actor, count(*) FROM moves WHERE game = $1 GROUP BY actor", sql_params![&game])?;
        for count in &counts {
            if let Some(player) = parse_player(&count.text(0)?) {
                made[player.index()] = count.int(1)?;
            }
        }
        scored += sql.execute(
            "UPDATE tournament_games SET outcome = $2, moves0 = $3, moves1 = $4 WHERE game = $1 AND outcome IS NULL",
            sql_params![&game, outcome, made[0], made[1]],
        )? as usize;
    }
    Ok(scored)
}

/// Marks `seat` of `game` as berserk; false if it already was.
pub fn berserk(sql: &mut dyn Sql, game: &str, seat: usize) -> Result<bool, StoreError> {
    let column = if seat == 0 { "berserk0" } else { "berserk1" };
    let n = sql.execute(
        &format!("UPDATE tournament_games SET {column} = 1 WHERE game = $1 AND {column} = 0 AND outcome IS NULL"),
        sql_params![game],
    )?;
    Ok(n == 1)
}
