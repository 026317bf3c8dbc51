//! The default store: one SQLite file in WAL mode, created with its schema
//! on first use.

use super::backend::Store;
use super::error::StoreError;
use super::records::{GameMeta, GameRecord, Seen, StoredGame, StoredMove};
use super::sql::{Lite, Sql, Work};
use super::{games, ratings, schema};
use menagerie_core::Player;
use rusqlite::Connection;
use std::path::Path;
use std::sync::{mpsc, Mutex};

/// The schema, as the migrations that build it: `PRAGMA user_version` says
/// how many have run, and opening a file runs the rest, each in its own
/// transaction. Never edit one that has shipped; add the next.
const MIGRATIONS: &[&str] = &[
    // 1: games, moves, and the index of games to resume. (Files made before
    // versioning have these tables at user_version 0: IF NOT EXISTS.)
    "
CREATE TABLE IF NOT EXISTS games (
    id          TEXT PRIMARY KEY,
    variant     TEXT NOT NULL,
    position    TEXT,
    seed        INTEGER NOT NULL,
    mode        TEXT NOT NULL,
    seat0       TEXT NOT NULL,
    secret0     TEXT,
    seat1       TEXT NOT NULL,
    secret1     TEXT,
    created     INTEGER NOT NULL,
    winner      TEXT,
    reason      TEXT,
    draw_offer  TEXT,
    rematch     TEXT,
    finished    INTEGER NOT NULL DEFAULT 0,
    has_computer INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS moves (
    game   TEXT NOT NULL REFERENCES games(id),
    ply    INTEGER NOT NULL,
    text   TEXT NOT NULL,
    actor  TEXT NOT NULL,
    PRIMARY KEY (game, ply)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS games_resume ON games(finished, has_computer);
",
    // 2: the data a game's options named (its deck), stored once however
    // many games use it.
    "
CREATE TABLE data (
    id    INTEGER PRIMARY KEY,
    text  TEXT NOT NULL UNIQUE
);
CREATE TABLE game_data (
    game    TEXT NOT NULL REFERENCES games(id),
    option  TEXT NOT NULL,
    name    TEXT NOT NULL,
    data    INTEGER NOT NULL REFERENCES data(id),
    PRIMARY KEY (game, option, name)
) WITHOUT ROWID;
",
    // 3: clocks. A game's time control (NULL: unlimited; else
    // `fischer:INITIAL_MS+INCREMENT_MS` or `days:N`), when its clocks last
    // changed otherwise than by a move (a takeback, an ending outside the
    // rules; ms since the epoch), and when each move was committed (ms
    // since the epoch; NULL for moves stored before).
    "
ALTER TABLE games ADD COLUMN time_control TEXT;
ALTER TABLE games ADD COLUMN clock_at INTEGER;
ALTER TABLE moves ADD COLUMN at INTEGER;
CREATE INDEX games_timed ON games(finished, time_control);
",
    // 4: how many moves each game has stored: the guard every write checks
    // (a move is stored after exactly `plies` moves; the rest of a game is
    // written only by whoever saw all of its moves).
    "
ALTER TABLE games ADD COLUMN plies INTEGER NOT NULL DEFAULT 0;
UPDATE games SET plies = (SELECT count(*) FROM moves WHERE moves.game = games.id);
",
    // 5: each game's version, one more with every write to it, and the
    // takeback asked for (kept in memory before). Versions used to start
    // from the clock when a game was loaded, and pages compare them: the
    // games there were start from the clock now, above any they showed.
    "
ALTER TABLE games ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN takeback_offer TEXT;
UPDATE games SET version = CAST(unixepoch('subsec') * 1000 AS INTEGER);
",
];

/// The schema version this program writes: these migrations, then the
/// ones both databases share (`schema.rs`).
pub const SCHEMA_VERSION: usize = MIGRATIONS.len() + schema::MIGRATIONS.len();

/// Brings the file's schema up to [`SCHEMA_VERSION`]; refuses a file made by
/// a newer program.
fn migrate(connection: &mut Connection) -> Result<(), StoreError> {
    let version: i64 = connection.query_row("PRAGMA user_version", [], |r| r.get(0)).map_err(db)?;
    let version = usize::try_from(version).unwrap_or(usize::MAX);
    if version > SCHEMA_VERSION {
        return Err(StoreError::Database(format!(
            "the database has schema version {version}; this program knows up to {SCHEMA_VERSION}"
        )));
    }
    for (index, step) in MIGRATIONS.iter().chain(schema::MIGRATIONS).enumerate().skip(version) {
        let transaction = connection.transaction().map_err(db)?;
        Lite(&transaction).batch(step)?;
        transaction.pragma_update(None, "user_version", (index + 1) as i64).map_err(db)?;
        transaction.commit().map_err(db)?;
    }
    Ok(())
}

/// SQLite with group commit: one writer thread takes every pending write,
/// applies them in one transaction (each in its own savepoint, so that one
/// refused write does not undo the others), commits once (one fsync), and
/// only then answers each caller. Reads use their own connection (WAL lets
/// them run beside the writer).
pub struct SqliteStore {
    writes: std::sync::Mutex<mpsc::Sender<Pending>>,
    reader: Mutex<Connection>,
    /// The connection of [`Store::transact`] (accounts, sessions): its
    /// transactions take the write lock at once, beside the writer thread's.
    transactions: Mutex<Connection>,
}

enum Write {
    Create(GameRecord),
    Moves {
        game: String,
        first_ply: usize,
        moves: Vec<StoredMove>,
    },
    /// `ended`: the write ends the game, with this winner (`None` a draw)
    /// at this time (ms): its result and ratings go in with it.
    Meta {
        game: String,
        seen: (usize, GameMeta),
        meta: GameMeta,
        ended: Option<(Option<Player>, i64)>,
    },
    TakeBack {
        game: String,
        seen: (usize, GameMeta),
        keep: usize,
        meta: GameMeta,
    },
}

struct Pending {
    write: Write,
    /// The game's version after the write.
    reply: mpsc::Sender<Result<u64, StoreError>>,
}

/// Writes committed together at most (bounds one transaction's size).
const MAX_GROUP: usize = 512;

fn db(error: rusqlite::Error) -> StoreError {
    StoreError::Database(error.to_string())
}

fn connect(path: &Path) -> Result<Connection, StoreError> {
    let connection = Connection::open(path).map_err(db)?;
    // WAL: readers never block the writer, and a commit is one append.
    // synchronous=FULL: a commit is on disk before we acknowledge a move.
    connection.pragma_update(None, "journal_mode", "WAL").map_err(db)?;
    connection.pragma_update(None, "synchronous", "FULL").map_err(db)?;
    connection.pragma_update(None, "foreign_keys", "ON").map_err(db)?;
    connection.busy_timeout(std::time::Duration::from_secs(10)).map_err(db)?;
    Ok(connection)
}

impl SqliteStore {
    /// Opens (creating if needed) the database file and its schema.
    pub fn open(path: &Path) -> Result<SqliteStore, StoreError> {
        let mut writer = connect(path)?;
        migrate(&mut writer)?;
        let reader = connect(path)?;
        let transactions = connect(path)?;
        let (sender, receiver) = mpsc::channel::<Pending>();
        std::thread::Builder::new()
            .name("menagerie-sqlite-writer".into())
            .spawn(move || write_loop(writer, receiver))
            .map_err(|e| StoreError::Database(format!("cannot start the writer thread: {e}")))?;
        Ok(SqliteStore {
            writes: std::sync::Mutex::new(sender),
            reader: Mutex::new(reader),
            transactions: Mutex::new(transactions),
        })
    }

    fn write(&self, write: Write) -> Result<u64, StoreError> {
        let (reply, answer) = mpsc::channel();
        let sender = self.writes.lock().unwrap_or_else(|p| p.into_inner()).clone();
        sender.send(Pending { write, reply }).map_err(|_| StoreError::Database("the writer thread stopped".into()))?;
        answer.recv().unwrap_or_else(|_| Err(StoreError::Database("the writer thread stopped".into())))
    }

    /// Runs `work` in a transaction of the reading connection: one
    /// snapshot, beside the writer.
    fn reading<T>(&self, work: impl FnOnce(&mut dyn Sql) -> Result<T, StoreError>) -> Result<T, StoreError> {
        let mut connection = self.lock();
        let transaction = connection.transaction().map_err(db)?;
        work(&mut Lite(&transaction))
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Connection> {
        // A panic while holding the lock cannot leave a half-done transaction
        // visible (SQLite rolls it back), so a poisoned lock is still usable.
        self.reader.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// The writer thread: until every sender is gone, commit what is pending.
fn write_loop(mut connection: Connection, receiver: mpsc::Receiver<Pending>) {
    while let Ok(first) = receiver.recv() {
        let mut group = vec![first];
        while group.len() < MAX_GROUP {
            match receiver.try_recv() {
                Ok(next) => group.push(next),
                Err(_) => break,
            }
        }
        let results = commit_group(&mut connection, &group);
        for (pending, result) in group.into_iter().zip(results) {
            let _ = pending.reply.send(result);
        }
    }
}

fn commit_group(connection: &mut Connection, group: &[Pending]) -> Vec<Result<u64, StoreError>> {
    let transaction = match connection.transaction() {
        Ok(t) => t,
        Err(e) => return group.iter().map(|_| Err(StoreError::Database(e.to_string()))).collect(),
    };
    let mut results = Vec::with_capacity(group.len());
    for pending in group {
        let result = match transaction.execute_batch("SAVEPOINT one") {
            Err(e) => Err(db(e)),
            Ok(()) => {
                let result = apply(&transaction, &pending.write);
                let end = if result.is_ok() { "RELEASE one" } else { "ROLLBACK TO one; RELEASE one" };
                transaction.execute_batch(end).map_err(db).and(result)
            }
        };
        results.push(result);
    }
    match transaction.commit() {
        Ok(()) => results,
        Err(e) => group.iter().map(|_| Err(StoreError::Database(e.to_string()))).collect(),
    }
}

/// Applies one write; answers the game's version after it.
fn apply(connection: &Connection, write: &Write) -> Result<u64, StoreError> {
    let sql = &mut Lite(connection);
    match write {
        Write::Create(record) => games::create(sql, record).map(|()| 0),
        Write::Moves { game, first_ply, moves } => games::append_moves(sql, game, *first_ply, moves),
        Write::Meta { game, seen, meta, ended } => {
            let version = games::set_meta(sql, game, Seen { plies: seen.0, meta: &seen.1 }, meta)?;
            if let Some((winner, now)) = ended {
                ratings::game_ended(sql, game, *winner, *now)?;
            }
            Ok(version)
        }
        Write::TakeBack { game, seen, keep, meta } => {
            games::take_back(sql, game, Seen { plies: seen.0, meta: &seen.1 }, *keep, meta)
        }
    }
}

impl Store for SqliteStore {
    fn create(&self, record: &GameRecord) -> Result<(), StoreError> {
        self.write(Write::Create(record.clone())).map(drop)
    }

    fn append_move(&self, game: &str, ply: usize, mv: &StoredMove) -> Result<u64, StoreError> {
        self.append_moves(game, ply, std::slice::from_ref(mv))
    }

    fn append_moves(&self, game: &str, first_ply: usize, moves: &[StoredMove]) -> Result<u64, StoreError> {
        self.write(Write::Moves { game: game.to_owned(), first_ply, moves: moves.to_vec() })
    }

    fn set_meta(&self, game: &str, seen: Seen<'_>, meta: &GameMeta) -> Result<u64, StoreError> {
        self.write(Write::Meta {
            game: game.to_owned(),
            seen: (seen.plies, seen.meta.clone()),
            meta: meta.clone(),
            ended: None,
        })
    }

    fn finish(
        &self,
        game: &str,
        seen: Seen<'_>,
        meta: &GameMeta,
        winner: Option<Player>,
        now: i64,
    ) -> Result<u64, StoreError> {
        self.write(Write::Meta {
            game: game.to_owned(),
            seen: (seen.plies, seen.meta.clone()),
            meta: meta.clone(),
            ended: Some((winner, now)),
        })
    }

    fn take_back(&self, game: &str, seen: Seen<'_>, keep: usize, meta: &GameMeta) -> Result<u64, StoreError> {
        let seen = (seen.plies, seen.meta.clone());
        self.write(Write::TakeBack { game: game.to_owned(), seen, keep, meta: meta.clone() })
    }

    fn load(&self, game: &str) -> Result<Option<StoredGame>, StoreError> {
        self.reading(|sql| games::load(sql, game))
    }

    fn computer_games_in_progress(&self) -> Result<Vec<String>, StoreError> {
        self.reading(games::computer_games_in_progress)
    }

    fn timed_games_in_progress(&self) -> Result<Vec<String>, StoreError> {
        self.reading(games::timed_games_in_progress)
    }

    fn game_ids(&self) -> Result<Vec<String>, StoreError> {
        self.reading(games::game_ids)
    }

    fn transact(&self, work: &mut Work<'_>) -> Result<(), StoreError> {
        let mut connection = self.transactions.lock().unwrap_or_else(|p| p.into_inner());
        let transaction = connection.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate).map_err(db)?;
        work(&mut Lite(&transaction))?;
        transaction.commit().map_err(db)
    }

    fn read(&self, work: &mut Work<'_>) -> Result<(), StoreError> {
        let mut connection = self.lock();
        let transaction = connection.transaction().map_err(db)?;
        work(&mut Lite(&transaction))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract::{self, record};
    use crate::records::{GameData, MoveActor};

    #[test]
    fn keeps_the_contract_of_every_store() {
        let dir = tempfile::tempdir().unwrap();
        let count = std::sync::atomic::AtomicUsize::new(0);
        contract::keeps_the_whole_contract(&|| {
            let n = count.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let path = dir.path().join(format!("games{n}.sqlite"));
            Box::new(move || Box::new(SqliteStore::open(&path).unwrap()) as Box<dyn Store>)
        });
    }

    fn user_version(path: &Path) -> i64 {
        Connection::open(path).unwrap().query_row("PRAGMA user_version", [], |r| r.get(0)).unwrap()
    }

    #[test]
    fn a_file_of_the_first_schema_is_migrated_and_its_games_still_load() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("old.sqlite");
        {
            // What the program wrote before schema versions: the first
            // migration's tables at user_version 0, and a game in them.
            let old = Connection::open(&path).unwrap();
            old.execute_batch(MIGRATIONS[0]).unwrap();
            old.execute(
                "INSERT INTO games (id, variant, position, seed, mode, seat0, secret0, seat1, secret1, created, has_computer)
                 VALUES ('old1', 'lunch', NULL, 5, 'friend', '{\"kind\":\"human\"}', 's0', '{\"kind\":\"human\"}', 's1', 3, 0)",
                [],
            )
            .unwrap();
            old.execute("INSERT INTO moves (game, ply, text, actor) VALUES ('old1', 0, 'pass', 'first')", []).unwrap();
        }
        assert_eq!(user_version(&path), 0);
        let store = SqliteStore::open(&path).unwrap();
        assert_eq!(user_version(&path), SCHEMA_VERSION as i64);
        let old = store.load("old1").unwrap().unwrap();
        assert_eq!((old.record.variant.as_str(), old.record.seed, old.record.data.len()), ("lunch", 5, 0));
        assert_eq!(old.moves, vec![StoredMove { text: "pass".into(), actor: MoveActor::First, at: None }]);
        assert_eq!((old.record.time_control, old.meta.clock_at), (None, None), "old games have unlimited time");
        // New games keep their data, stored once for both.
        let deck = GameData { option: "deck".into(), name: "small".into(), text: "[[card]]".into() };
        for id in ["new1", "new2"] {
            store.create(&GameRecord { data: vec![deck.clone()], ..record(id) }).unwrap();
        }
        drop(store);
        // Opening again migrates nothing and keeps everything.
        let store = SqliteStore::open(&path).unwrap();
        assert_eq!(store.load("new2").unwrap().unwrap().record.data, vec![deck]);
        assert!(store.load("old1").unwrap().is_some());
        let copies: i64 = store.lock().query_row("SELECT count(*) FROM data", [], |r| r.get(0)).unwrap();
        assert_eq!(copies, 1);
    }

    #[test]
    fn a_file_of_a_newer_program_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("new.sqlite");
        Connection::open(&path).unwrap().pragma_update(None, "user_version", SCHEMA_VERSION as i64 + 1).unwrap();
        let error = SqliteStore::open(&path).err().expect("refused");
        assert!(error.to_string().contains("schema version"), "{error}");
    }
}
