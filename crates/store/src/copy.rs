//! Copying every game from one store to another (`menagerie migrate`, from
//! a SQLite file to PostgreSQL), each game read back from the destination
//! and compared with its source; then the tables written once for both
//! databases (accounts, sessions, seats, passkeys, results, ratings,
//! blocks, trusted browsers, puzzles and their rounds, games' reviews), row
//! by row.

use super::backend::Store;
use super::error::StoreError;
use super::records::{GameMeta, Seen};
use super::sql;

/// What a copy did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CopyReport {
    /// Games written (whole, or finished after an interrupted copy).
    pub copied: usize,
    /// Games the destination already held exactly.
    pub already_there: usize,
    /// Moves written.
    pub moves: usize,
    /// Rows of the other tables written (accounts, ratings, ...).
    pub rows: usize,
}

/// The tables of `schema.rs` and their columns, in an order that keeps
/// their references (the games come first). A ceremony lasts minutes: not
/// copied.
const SHARED_TABLES: &[(&str, &str)] = &[
    ("accounts", "id, username, username_key, password, created, closed"),
    ("sessions", "id, account, created, seen"),
    ("seat_holders", "game, seat, player, account"),
    ("passkeys", "id, account, user_handle, credential, created"),
    ("results", "game, outcome, ended"),
    ("rated_games", "game, perf, status, player0, player1, before0, before1, rd0, rd1, diff0, diff1"),
    ("ratings", "player, perf, rating, rd, volatility, games, wins, losses, draws, last_game"),
    ("rating_history", "player, perf, game, rating, rd, volatility, at"),
    ("blocks", "blocker, blocked, created"),
    ("devices", "id, account, created, seen"),
    ("puzzles", "id, variant, position, solution, themes, source, rating, deviation, volatility, plays"),
    ("puzzle_ratings", "account, variant, rating, deviation, volatility, plays"),
    ("puzzle_rounds", "account, puzzle, win, rating_diff, at"),
    ("lesson_progress", "account, lesson, steps, at"),
    ("game_reviews", "game, review, created"),
];

/// Copies the rows of [`SHARED_TABLES`] the destination lacks (a row whose
/// key it holds is kept as it is); answers how many it wrote.
fn copy_shared_tables(from: &dyn Store, to: &dyn Store) -> Result<usize, StoreError> {
    let mut written = 0;
    for (table, columns) in SHARED_TABLES {
        let rows = sql::read(from, |sql| sql.query(&format!("SELECT {columns} FROM {table}"), &[]))?;
        let width = columns.split(',').count();
        let placeholders = (1..=width).map(|i| format!("${i}")).collect::<Vec<_>>().join(", ");
        let insert = format!("INSERT INTO {table} ({columns}) VALUES ({placeholders}) ON CONFLICT DO NOTHING");
        written += sql::transact(to, |sql| {
            let mut added = 0;
            for row in &rows {
                added += sql.execute(&insert, &row.0)? as usize;
            }
            Ok(added)
        })?;
    }
    Ok(written)
}

/// Copies every game of `from` into `to`, oldest first, and checks each:
/// read back from `to`, it must equal what `from` holds. Running it again
/// copies nothing twice: a game already there is checked and kept, and one
/// an interrupted copy left with fewer moves is finished. A game that
/// differs otherwise stops the copy with an error naming it.
pub fn copy_games(from: &dyn Store, to: &dyn Store) -> Result<CopyReport, StoreError> {
    let mut report = CopyReport::default();
    for id in from.game_ids()? {
        let source = from.load(&id)?.ok_or_else(|| StoreError::NoSuchGame(id.clone()))?;
        let differs = |problem: &str| StoreError::Corrupt {
            game: id.clone(),
            problem: format!("the destination already holds this game, {problem}"),
        };
        let (held, held_meta) = match to.load(&id)? {
            Some(existing) if existing.same_game(&source) => {
                report.already_there += 1;
                continue;
            }
            Some(existing) => {
                if existing.record != source.record {
                    return Err(differs("made differently"));
                }
                if existing.moves.len() > source.moves.len()
                    || existing.moves[..] != source.moves[..existing.moves.len()]
                {
                    return Err(differs("with other moves"));
                }
                (existing.moves.len(), existing.meta)
            }
            None => {
                to.create(&source.record)?;
                (0, GameMeta::default())
            }
        };
        to.append_moves(&id, held, &source.moves[held..])?;
        report.moves += source.moves.len() - held;
        to.set_meta(&id, Seen { plies: source.moves.len(), meta: &held_meta }, &source.meta)?;
        let copied = to.load(&id)?.ok_or_else(|| differs("but it cannot be read back"))?;
        if !copied.same_game(&source) {
            return Err(StoreError::Corrupt {
                game: id.clone(),
                problem: "the copy read back differs from the source".into(),
            });
        }
        report.copied += 1;
    }
    report.rows = copy_shared_tables(from, to)?;
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract::{fill, record, same_games};
    use crate::{GameRecord, MoveActor, SqliteStore, StoredMove};

    #[test]
    fn every_game_is_copied_checked_and_never_twice() {
        let dir = tempfile::tempdir().unwrap();
        let from = SqliteStore::open(&dir.path().join("from.sqlite")).unwrap();
        let to = SqliteStore::open(&dir.path().join("to.sqlite")).unwrap();
        fill(&from);
        // An interrupted copy left g1 with two of its moves.
        to.create(&GameRecord { created: 1, ..record("g1") }).unwrap();
        for ply in 0..2 {
            to.append_move("g1", ply, &from.load("g1").unwrap().unwrap().moves[ply]).unwrap();
        }
        let report = copy_games(&from, &to).unwrap();
        assert_eq!(report, CopyReport { copied: 3, already_there: 0, moves: 3 + 1, rows: 0 });
        same_games(&from, &to);
        assert_eq!(copy_games(&from, &to).unwrap(), CopyReport { copied: 0, already_there: 3, moves: 0, rows: 0 });
        // A destination game that differs is named, not overwritten.
        from.append_move("g3", 0, &StoredMove { text: "a".into(), actor: MoveActor::First, at: None }).unwrap();
        to.append_move("g3", 0, &StoredMove { text: "b".into(), actor: MoveActor::First, at: None }).unwrap();
        let error = copy_games(&from, &to).unwrap_err();
        assert!(error.to_string().contains("g3") && error.to_string().contains("other moves"), "{error}");
    }

    #[test]
    fn accounts_and_ratings_are_copied_with_the_games_once() {
        use crate::{accounts, ratings, Ending, GameMeta, Seen};
        use menagerie_core::Player;
        let dir = tempfile::tempdir().unwrap();
        let from = SqliteStore::open(&dir.path().join("from.sqlite")).unwrap();
        let to = SqliteStore::open(&dir.path().join("to.sqlite")).unwrap();
        fill(&from);
        let ada = accounts::Account { id: "a1".into(), username: "Ada".into(), created: 1, closed: None };
        let bob = accounts::Account { id: "a2".into(), username: "Bob".into(), created: 1, closed: None };
        sql::transact(&from, |s| {
            accounts::create_account(s, &ada, "hash")?;
            accounts::create_account(s, &bob, "hash")?;
            accounts::create_session(s, "session", "a1", 5)?;
            accounts::hold_seat(s, "g3", 0, None, Some("a1"))?;
            ratings::mark_rated(s, "g3", "nim")
        })
        .unwrap();
        for ply in 0..4 {
            let actor = [MoveActor::First, MoveActor::Second][ply % 2];
            from.append_move("g3", ply, &StoredMove { text: format!("m{ply}"), actor, at: None }).unwrap();
        }
        // The computer holds g3's other seat: a rated game of Ada and a level.
        let ending = Ending { winner: Some(Player::First), reason: "resignation".into() };
        let meta = GameMeta { ending: Some(ending), finished: true, ..GameMeta::default() };
        from.finish("g3", Seen { plies: 4, meta: &GameMeta::default() }, &meta, Some(Player::First), 9).unwrap();
        let report = copy_games(&from, &to).unwrap();
        // 2 accounts, a session, a seat, a result, a rated game, 2 ratings, 2 points of history.
        assert_eq!(report.rows, 10, "{report:?}");
        sql::transact(&from, |s| crate::reviews::save(s, "g3", r#"{"plies":[]}"#, 10)).unwrap();
        assert_eq!(copy_games(&from, &to).unwrap().rows, 1, "the review, once the game is there");
        let copied = sql::read(&to as &dyn Store, |s| crate::reviews::load(s, "g3")).unwrap();
        assert_eq!(copied.as_deref(), Some(r#"{"plies":[]}"#));
        for store in [&from as &dyn Store, &to] {
            let (perfs, history, found) = sql::read(store, |s| {
                Ok((ratings::perfs(s, "a1")?, ratings::history(s, "a1")?, accounts::session_account(s, "session")?))
            })
            .unwrap();
            assert_eq!((perfs.len(), history.len(), found.map(|a| a.username)), (1, 1, Some("Ada".into())));
        }
        assert_eq!(copy_games(&from, &to).unwrap().rows, 0, "nothing twice");
    }
}
