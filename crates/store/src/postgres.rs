//! A store in PostgreSQL, which several server processes ("nodes") share.
//!
//! - Writes are serialised per game by the database: the game's row counts
//!   its stored moves (`plies`), a move is stored only in the transaction
//!   that moves that count from its ply to the next (the statements are the
//!   query layer's, `games.rs`, the same as SQLite's), and a meta write or a
//!   takeback only if the count is what its writer saw. A second node's move
//!   for a ply already stored is refused ([`StoreError::DuplicateMove`]),
//!   never duplicated; a resignation or draw agreed on a node that has not
//!   seen the latest move is refused ([`StoreError::Stale`]), never applied
//!   over it. (`(game, ply)` is also the primary key of `moves`.)
//! - Every write adds one to the game's `version` in the same statement,
//!   so every node reads the same version for the same game.
//! - Every write notifies the channel [`CHANNEL`] with `"<node> <game>"` in
//!   its own transaction (delivered only once committed); a move's
//!   notification carries the move and the version it made too
//!   (`"<node> <game> <ply> <version> <actor> <at> <text>"`, `-` for no
//!   time), so that the others play it without reading the store. Each node listens on its own connection and hands the changes
//!   of other nodes to [`Store::changes`].
//! - The computer's seats of a game are claimed with a session advisory lock
//!   on a connection kept for that alone: PostgreSQL frees the lock when the
//!   node's connection dies (a killed process included), and another node's
//!   [`Store::claim_orphans`] takes the game over.

use super::backend::{Change, Refused, Store};
use super::error::StoreError;
use super::records::{GameMeta, GameRecord, MoveActor, Seen, StoredGame, StoredMove};
use super::sql::{Pg, Sql, Work};
use super::{games, ratings, schema};
use postgres::error::SqlState;
use postgres::fallible_iterator::FallibleIterator;
use postgres::{Client, IsolationLevel, NoTls};
use r2d2_postgres::{r2d2, PostgresConnectionManager};
use std::collections::HashSet;
use std::sync::Mutex;
use std::time::Duration;
use tokio::sync::mpsc;

/// The schema, as the migrations that build it, numbered like SQLite's
/// (`sqlite.rs`): the same tables at the same version in both. The table
/// `menagerie_schema` says how many have run. Never edit one that has
/// shipped; add the next.
const MIGRATIONS: &[&str] = &[
    // 1: games, moves, and the index of games to resume.
    "
CREATE TABLE games (
    id          TEXT PRIMARY KEY,
    variant     TEXT NOT NULL,
    position    TEXT,
    seed        BIGINT NOT NULL,
    mode        TEXT NOT NULL,
    seat0       TEXT NOT NULL,
    secret0     TEXT,
    seat1       TEXT NOT NULL,
    secret1     TEXT,
    created     BIGINT NOT NULL,
    winner      TEXT,
    reason      TEXT,
    draw_offer  TEXT,
    rematch     TEXT,
    finished    BOOLEAN NOT NULL DEFAULT FALSE,
    has_computer BOOLEAN NOT NULL DEFAULT FALSE
);
CREATE TABLE moves (
    game   TEXT NOT NULL REFERENCES games(id),
    ply    INTEGER NOT NULL,
    text   TEXT NOT NULL,
    actor  TEXT NOT NULL,
    PRIMARY KEY (game, ply)
);
CREATE INDEX games_resume ON games(finished, has_computer);
",
    // 2: the data a game's options named (its deck), stored once however
    // many games use it (found by a hash: a deck may be too long for a
    // btree key).
    "
CREATE TABLE data (
    id    BIGSERIAL PRIMARY KEY,
    text  TEXT NOT NULL
);
CREATE UNIQUE INDEX data_text ON data (md5(text));
CREATE TABLE game_data (
    game    TEXT NOT NULL REFERENCES games(id),
    option  TEXT NOT NULL,
    name    TEXT NOT NULL,
    data    BIGINT NOT NULL REFERENCES data(id),
    PRIMARY KEY (game, option, name)
);
",
    // 3: clocks: a game's time control, when its clocks last changed other
    // than by a move, and when each move was committed.
    "
ALTER TABLE games ADD COLUMN time_control TEXT;
ALTER TABLE games ADD COLUMN clock_at BIGINT;
ALTER TABLE moves ADD COLUMN at BIGINT;
CREATE INDEX games_timed ON games(finished, time_control);
",
    // 4: how many moves each game has stored: the guard every write checks.
    // A move is stored only by the statement that moves the count from its
    // ply to the next, and the rest of a game only by a writer that saw
    // that many moves, so the game's row serialises every write to it.
    "
ALTER TABLE games ADD COLUMN plies INTEGER NOT NULL DEFAULT 0;
UPDATE games SET plies = (SELECT count(*) FROM moves WHERE moves.game = games.id);
",
    // 5: each game's version, one more with every write to it, and the
    // takeback asked for. Versions used to start from the clock when a
    // game was loaded, and pages compare them: the games there were start
    // from the clock now, above any they showed.
    "
ALTER TABLE games ADD COLUMN version BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN takeback_offer TEXT;
UPDATE games SET version = (extract(epoch FROM clock_timestamp()) * 1000)::BIGINT;
",
];

/// The schema version this program writes (the same as SQLite's): these
/// migrations, then the ones both databases share (`schema.rs`).
pub const SCHEMA_VERSION: usize = MIGRATIONS.len() + schema::MIGRATIONS.len();

/// The channel every write notifies.
pub const CHANNEL: &str = "menagerie_games";

/// What this program's advisory lock keys hash, before the game's id:
/// other programs on the same database use other keys. (64-bit keys: two
/// games sharing a claim by chance is too unlikely to matter.)
const LOCK_SPACE: &str = "menagerie:";

/// Connections a node keeps for its requests.
const POOL_SIZE: u32 = 16;

fn db(error: postgres::Error) -> StoreError {
    StoreError::Database(error.to_string())
}

fn pool_error(error: r2d2::Error) -> StoreError {
    StoreError::Database(format!("no database connection: {error}"))
}

pub struct PgStore {
    /// `None` only while dropping ([`Drop`] hands it to a thread of its own).
    pool: Option<r2d2::Pool<PostgresConnectionManager<NoTls>>>,
    config: postgres::Config,
    /// This process's name in notifications, so that it skips its own.
    node: String,
    /// The connection that holds this node's claims, and what it holds.
    claims: Mutex<Claims>,
    changes: Mutex<Option<mpsc::UnboundedReceiver<Change>>>,
}

#[derive(Default)]
struct Claims {
    client: Option<Client>,
    held: HashSet<String>,
}

impl PgStore {
    /// Connects to `url` (`postgres://user:password@host:port/database`),
    /// brings the schema up to [`SCHEMA_VERSION`] and starts listening for
    /// other nodes' changes.
    ///
    /// May be called from async code: the synchronous client runs a runtime
    /// of its own, so the work is done on a thread of its own.
    pub fn open(url: &str) -> Result<PgStore, StoreError> {
        off_runtime(|| PgStore::open_here(url))
    }

    fn open_here(url: &str) -> Result<PgStore, StoreError> {
        let mut config: postgres::Config =
            url.parse().map_err(|e| StoreError::Database(format!("not a PostgreSQL URL: {e}")))?;
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(Duration::from_secs(10));
        }
        config.application_name("menagerie");
        let mut client = config.connect(NoTls).map_err(db)?;
        migrate(&mut client)?;
        drop(client);
        let pool = r2d2::Pool::builder()
            .max_size(POOL_SIZE)
            .min_idle(Some(2))
            .connection_timeout(Duration::from_secs(10))
            .build(PostgresConnectionManager::new(config.clone(), NoTls))
            .map_err(pool_error)?;
        let node = crate::random_text(10);
        let (sender, receiver) = mpsc::unbounded_channel();
        // Listening before the store is answered: no change after that is missed.
        let mut listener = config.connect(NoTls).map_err(db)?;
        listener.batch_execute(&format!("LISTEN {CHANNEL}")).map_err(db)?;
        let (listen_config, listen_node) = (config.clone(), node.clone());
        std::thread::Builder::new()
            .name("menagerie-pg-listener".into())
            .spawn(move || listen(listener, listen_config, listen_node, sender))
            .map_err(|e| StoreError::Database(format!("cannot start the listener thread: {e}")))?;
        Ok(PgStore {
            pool: Some(pool),
            config,
            node,
            claims: Mutex::new(Claims::default()),
            changes: Mutex::new(Some(receiver)),
        })
    }

    fn client(&self) -> Result<r2d2::PooledConnection<PostgresConnectionManager<NoTls>>, StoreError> {
        self.pool.as_ref().expect("the pool lives until drop").get().map_err(pool_error)
    }

    fn claims(&self) -> std::sync::MutexGuard<'_, Claims> {
        self.claims.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Runs `work` on the claims connection (opened if needed). If the
    /// connection fails, every claim went with it: forget them.
    fn with_claims<T>(
        &self,
        work: impl FnOnce(&mut Client, &mut HashSet<String>) -> Result<T, postgres::Error>,
    ) -> Result<T, StoreError> {
        let mut claims = self.claims();
        let Claims { client, held } = &mut *claims;
        if client.as_ref().is_none_or(|c| c.is_closed()) {
            held.clear();
            *client = Some(self.config.connect(NoTls).map_err(db)?);
        }
        let connection = client.as_mut().expect("connected above");
        match work(connection, held) {
            Ok(value) => Ok(value),
            Err(error) => {
                if connection.is_closed() {
                    held.clear();
                    *client = None;
                }
                Err(db(error))
            }
        }
    }
}

/// Runs `work` on a thread outside any async runtime: the synchronous
/// client blocks on a runtime of its own, which tokio forbids inside one.
fn off_runtime<T: Send>(work: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|scope| match scope.spawn(work).join() {
        Ok(value) => value,
        Err(panic) => std::panic::resume_unwind(panic),
    })
}

impl Drop for PgStore {
    /// Closing a connection blocks on the client's own runtime: do it on a
    /// thread of its own, wherever the store is dropped.
    fn drop(&mut self) {
        let pool = self.pool.take();
        let claims = std::mem::take(&mut *self.claims());
        let _ = std::thread::Builder::new().name("menagerie-pg-close".into()).spawn(move || drop((pool, claims)));
    }
}

/// Brings the database's schema up to [`SCHEMA_VERSION`], all at once in
/// one transaction under a lock (nodes starting together migrate once);
/// refuses a database made by a newer program.
fn migrate(client: &mut Client) -> Result<(), StoreError> {
    let mut transaction = client.transaction().map_err(db)?;
    transaction
        .execute("SELECT pg_advisory_xact_lock(hashtextextended($1 || 'migrate', 0))", &[&LOCK_SPACE])
        .map_err(db)?;
    transaction.batch_execute("CREATE TABLE IF NOT EXISTS menagerie_schema (version INTEGER NOT NULL)").map_err(db)?;
    let version: Option<i32> =
        transaction.query_opt("SELECT version FROM menagerie_schema", &[]).map_err(db)?.map(|row| row.get(0));
    let version = usize::try_from(version.unwrap_or(0)).unwrap_or(usize::MAX);
    if version > SCHEMA_VERSION {
        return Err(StoreError::Database(format!(
            "the database has schema version {version}; this program knows up to {SCHEMA_VERSION}"
        )));
    }
    for step in MIGRATIONS.iter().chain(schema::MIGRATIONS).skip(version) {
        Pg(&mut transaction).batch(step)?;
    }
    let reached = SCHEMA_VERSION as i32;
    transaction.execute("DELETE FROM menagerie_schema", &[]).map_err(db)?;
    transaction.execute("INSERT INTO menagerie_schema (version) VALUES ($1)", &[&reached]).map_err(db)?;
    transaction.commit().map_err(db)
}

/// The listener thread, on a connection already listening: hands on every
/// game another node changed; when the connection is lost, reconnects (with
/// a pause) and says changes may have been missed. Ends when nobody
/// receives any more.
fn listen(mut client: Client, config: postgres::Config, node: String, sender: mpsc::UnboundedSender<Change>) {
    loop {
        {
            let mut notifications = client.notifications();
            let mut stream = notifications.blocking_iter();
            while let Ok(Some(notification)) = stream.next() {
                let Some((from, change)) = parse_note(notification.payload()) else { continue };
                if from != node && sender.send(change).is_err() {
                    return;
                }
            }
        }
        client = loop {
            if sender.is_closed() {
                return;
            }
            std::thread::sleep(Duration::from_millis(500));
            if let Ok(mut fresh) = config.connect(NoTls) {
                if fresh.batch_execute(&format!("LISTEN {CHANNEL}")).is_ok() {
                    break fresh;
                }
            }
        };
        if sender.send(Change::Missed).is_err() {
            return;
        }
    }
}

/// A notification's payload: who wrote, and what changed.
fn parse_note(payload: &str) -> Option<(&str, Change)> {
    // A signal's topic follows `!`, which starts no game id.
    if let Some((from, topic)) = payload.split_once(" !") {
        if !from.contains(' ') {
            return Some((from, Change::Signal(topic.to_owned())));
        }
    }
    let mut fields = payload.splitn(7, ' ');
    let (from, game) = (fields.next()?, fields.next()?);
    let mut moved = || -> Option<Change> {
        let ply = fields.next()?.parse().ok()?;
        let version = fields.next()?.parse().ok()?;
        let actor = MoveActor::parse(fields.next()?)?;
        let at = match fields.next()? {
            "-" => None,
            at => Some(at.parse().ok()?),
        };
        let text = fields.next()?.to_owned();
        Some(Change::Move { game: game.to_owned(), ply, version, mv: StoredMove { text, actor, at } })
    };
    Some((from, moved().unwrap_or_else(|| Change::Game(game.to_owned()))))
}

/// The payload of a move's notification; `None` if too long for one
/// (PostgreSQL takes up to 8000 bytes): then only the game is named.
fn move_note(node: &str, game: &str, ply: usize, version: u64, mv: &StoredMove) -> Option<String> {
    let at = mv.at.map_or_else(|| "-".to_owned(), |at| at.to_string());
    let note = format!("{node} {game} {ply} {version} {} {at} {}", mv.actor.as_str(), mv.text);
    (note.len() < 7_900).then_some(note)
}

impl PgStore {
    /// Tells the other nodes that `game` changed, once the change is
    /// committed, in a transaction of its own: PostgreSQL serialises the
    /// commits of transactions that notify, so a notification inside each
    /// write would make every write wait for the previous one's flush to
    /// disk. (A node that dies between a commit and its notification leaves
    /// the others to learn of that change at the next one, or when a move
    /// they take is refused for that ply.)
    /// The change itself is committed whatever becomes of its notification:
    /// a failed one is reported on stderr, never as a failed write.
    /// Answers `version`, the game's after the change.
    fn announce(&self, client: &mut Client, game: &str, version: u64) -> Result<u64, StoreError> {
        self.notify(client, game, format!("{} {game}", self.node));
        Ok(version)
    }

    /// [`PgStore::announce`] for move `ply`, carrying the move.
    fn announce_move(
        &self,
        client: &mut Client,
        game: &str,
        ply: usize,
        version: u64,
        mv: &StoredMove,
    ) -> Result<u64, StoreError> {
        match move_note(&self.node, game, ply, version, mv) {
            Some(note) => {
                self.notify(client, game, note);
                Ok(version)
            }
            None => self.announce(client, game, version),
        }
    }

    fn notify(&self, client: &mut Client, game: &str, note: String) {
        if let Err(error) = client.execute("SELECT pg_notify('menagerie_games', $1)", &[&note]) {
            tracing::error!(%game, %error, "the other nodes were not told of a change to the game");
        }
    }
}

/// [`games::append_move`] in one statement, its own transaction: the move
/// played in a game, the write every game makes most, takes one round trip
/// to PostgreSQL instead of four (SQLite, which has no writing `WITH`, runs
/// the two statements of `games.rs`; an import's many moves run those here
/// too). The same guard: the game's row moves its count from `ply` on.
fn append_move_at_once(client: &mut Client, game: &str, ply: usize, mv: &StoredMove) -> Result<u64, StoreError> {
    let ply_number = i32::try_from(ply).map_err(|_| StoreError::Database(format!("ply {ply} is too large")))?;
    let stored = client.query_opt(
        "WITH counted AS (
             UPDATE games SET plies = plies + 1, version = version + 1 WHERE id = $1 AND plies = $2
             RETURNING id, version),
         stored AS (INSERT INTO moves (game, ply, text, actor, at) SELECT id, $2, $3, $4, $5 FROM counted)
         SELECT version FROM counted",
        &[&game, &ply_number, &mv.text, &mv.actor.as_str(), &mv.at],
    );
    match stored {
        Ok(Some(row)) => Ok(row.get::<_, i64>(0) as u64),
        Ok(None) => Err(games::refused(&mut Pg(client), game, ply, Refused::Move)),
        Err(e) if e.code() == Some(&SqlState::UNIQUE_VIOLATION) => {
            Err(StoreError::DuplicateMove { game: game.to_owned(), ply })
        }
        Err(e) => Err(db(e)),
    }
}

impl Store for PgStore {
    fn create(&self, record: &GameRecord) -> Result<(), StoreError> {
        let mut client = self.client()?;
        let mut transaction = client.transaction().map_err(db)?;
        games::create(&mut Pg(&mut transaction), record)?;
        transaction.commit().map_err(db)?;
        self.announce(&mut client, &record.id, 0).map(drop)
    }

    fn append_move(&self, game: &str, ply: usize, mv: &StoredMove) -> Result<u64, StoreError> {
        let mut client = self.client()?;
        let version = append_move_at_once(&mut client, game, ply, mv)?;
        self.announce_move(&mut client, game, ply, version, mv)
    }

    fn append_moves(&self, game: &str, first_ply: usize, moves: &[StoredMove]) -> Result<u64, StoreError> {
        let mut client = self.client()?;
        let mut transaction = client.transaction().map_err(db)?;
        let version = games::append_moves(&mut Pg(&mut transaction), game, first_ply, moves)?;
        transaction.commit().map_err(db)?;
        self.announce(&mut client, game, version)
    }

    fn set_meta(&self, game: &str, seen: Seen<'_>, meta: &GameMeta) -> Result<u64, StoreError> {
        let mut client = self.client()?;
        // One statement: its own transaction.
        let version = games::set_meta(&mut Pg(&mut *client), game, seen, meta)?;
        self.announce(&mut client, game, version)
    }

    fn finish(
        &self,
        game: &str,
        seen: Seen<'_>,
        meta: &GameMeta,
        winner: Option<menagerie_core::Player>,
        now: i64,
    ) -> Result<u64, StoreError> {
        let mut client = self.client()?;
        let mut transaction = client.transaction().map_err(db)?;
        let version = games::set_meta(&mut Pg(&mut transaction), game, seen, meta)?;
        ratings::game_ended(&mut Pg(&mut transaction), game, winner, now)?;
        transaction.commit().map_err(db)?;
        self.announce(&mut client, game, version)
    }

    fn take_back(&self, game: &str, seen: Seen<'_>, keep: usize, meta: &GameMeta) -> Result<u64, StoreError> {
        let mut client = self.client()?;
        let mut transaction = client.transaction().map_err(db)?;
        let version = games::take_back(&mut Pg(&mut transaction), game, seen, keep, meta)?;
        transaction.commit().map_err(db)?;
        self.announce(&mut client, game, version)
    }

    fn load(&self, game: &str) -> Result<Option<StoredGame>, StoreError> {
        let mut client = self.client()?;
        // One snapshot: the moves and the meta of the same moment.
        let mut transaction = client
            .build_transaction()
            .isolation_level(IsolationLevel::RepeatableRead)
            .read_only(true)
            .start()
            .map_err(db)?;
        let game = games::load(&mut Pg(&mut transaction), game)?;
        transaction.commit().map_err(db)?;
        Ok(game)
    }

    fn computer_games_in_progress(&self) -> Result<Vec<String>, StoreError> {
        games::computer_games_in_progress(&mut Pg(&mut *self.client()?))
    }

    fn timed_games_in_progress(&self) -> Result<Vec<String>, StoreError> {
        games::timed_games_in_progress(&mut Pg(&mut *self.client()?))
    }

    fn game_ids(&self) -> Result<Vec<String>, StoreError> {
        games::game_ids(&mut Pg(&mut *self.client()?))
    }

    fn claim_computer(&self, game: &str) -> Result<bool, StoreError> {
        self.with_claims(|client, held| {
            if held.contains(game) {
                return Ok(true);
            }
            let claimed: bool = client
                .query_one("SELECT pg_try_advisory_lock(hashtextextended($1 || $2, 0))", &[&LOCK_SPACE, &game])?
                .get(0);
            if claimed {
                held.insert(game.to_owned());
            }
            Ok(claimed)
        })
    }

    /// The claim's key is kept with the games' claims: a key is never a
    /// game's id (`tournament/...`), so no game's claim is mistaken for it.
    fn claim(&self, key: &str) -> Result<bool, StoreError> {
        self.claim_computer(key)
    }

    fn release(&self, key: &str) -> Result<(), StoreError> {
        self.with_claims(|client, held| {
            if held.remove(key) {
                client.execute("SELECT pg_advisory_unlock(hashtextextended($1 || $2, 0))", &[&LOCK_SPACE, &key])?;
            }
            Ok(())
        })
    }

    fn holds_computer(&self, game: &str) -> bool {
        self.claims().held.contains(game)
    }

    fn is_shared(&self) -> bool {
        true
    }

    fn signal(&self, topic: &str) -> Result<(), StoreError> {
        if topic.len() > super::MAX_TOPIC {
            return Err(StoreError::Database(format!("a signal's topic is at most {} bytes", super::MAX_TOPIC)));
        }
        let mut client = self.client()?;
        client.execute("SELECT pg_notify('menagerie_games', $1)", &[&format!("{} !{topic}", self.node)]).map_err(db)?;
        Ok(())
    }

    fn claim_orphans(&self) -> Result<Vec<String>, StoreError> {
        self.with_claims(|client, held| {
            let mine: Vec<&str> = held.iter().map(String::as_str).collect();
            // Finished games need the computer no more: let them go.
            let finished: Vec<String> = client
                .query("SELECT id FROM games WHERE id = ANY($1) AND finished", &[&mine])?
                .into_iter()
                .map(|r| r.get(0))
                .collect();
            for game in &finished {
                client.execute("SELECT pg_advisory_unlock(hashtextextended($1 || $2, 0))", &[&LOCK_SPACE, game])?;
                held.remove(game);
            }
            let mine: Vec<&str> = held.iter().map(String::as_str).collect();
            // MATERIALIZED: the lock is tried only on the candidates.
            let claimed: Vec<String> = client
                .query(
                    "WITH candidates AS MATERIALIZED (
                         SELECT id FROM games WHERE NOT finished AND has_computer AND NOT (id = ANY($2)))
                     SELECT id FROM candidates WHERE pg_try_advisory_lock(hashtextextended($1 || id, 0))",
                    &[&LOCK_SPACE, &mine],
                )?
                .into_iter()
                .map(|r| r.get(0))
                .collect();
            held.extend(claimed.iter().cloned());
            Ok(claimed)
        })
    }

    fn changes(&self) -> Option<mpsc::UnboundedReceiver<Change>> {
        self.changes.lock().unwrap_or_else(|p| p.into_inner()).take()
    }

    fn transact(&self, work: &mut Work<'_>) -> Result<(), StoreError> {
        let mut client = self.client()?;
        let mut transaction = client.transaction().map_err(db)?;
        work(&mut Pg(&mut transaction))?;
        transaction.commit().map_err(db)
    }

    fn read(&self, work: &mut Work<'_>) -> Result<(), StoreError> {
        let mut client = self.client()?;
        let mut transaction = client.build_transaction().read_only(true).start().map_err(db)?;
        work(&mut Pg(&mut transaction))?;
        transaction.commit().map_err(db)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract::{self, record};
    use crate::test_database::TestDatabase;
    use std::sync::Mutex as StdMutex;

    #[test]
    fn keeps_the_contract_of_every_store() {
        let databases = StdMutex::new(Vec::new());
        if TestDatabase::create("probe").is_none() {
            return;
        }
        contract::keeps_the_whole_contract(&|| {
            let database = TestDatabase::create("contract").expect("a test database");
            let url = database.url().to_owned();
            databases.lock().unwrap().push(database);
            Box::new(move || Box::new(PgStore::open(&url).unwrap()) as Box<dyn Store>)
        });
    }

    #[test]
    fn migrations_run_once_and_a_newer_schema_is_refused() {
        let Some(database) = TestDatabase::create("migrations") else { return };
        let version = |client: &mut Client| -> i32 {
            client.query_one("SELECT version FROM menagerie_schema", &[]).unwrap().get(0)
        };
        let store = PgStore::open(database.url()).unwrap();
        store.create(&record("kept")).unwrap();
        drop(store);
        // Two nodes starting at once: both see the schema made once.
        let opened: Vec<_> = std::thread::scope(|scope| {
            let runs: Vec<_> = (0..2).map(|_| scope.spawn(|| PgStore::open(database.url()).map(|_| ()))).collect();
            runs.into_iter().map(|r| r.join().unwrap()).collect()
        });
        assert!(opened.iter().all(Result::is_ok), "{opened:?}");
        let mut client = Client::connect(database.url(), NoTls).unwrap();
        assert_eq!(version(&mut client), SCHEMA_VERSION as i32);
        assert_eq!(client.query("SELECT * FROM menagerie_schema", &[]).unwrap().len(), 1);
        assert!(PgStore::open(database.url()).unwrap().load("kept").unwrap().is_some());
        client.execute("UPDATE menagerie_schema SET version = $1", &[&(SCHEMA_VERSION as i32 + 1)]).unwrap();
        let error = PgStore::open(database.url()).err().expect("refused");
        assert!(error.to_string().contains("schema version"), "{error}");
    }

    #[test]
    fn games_migrate_from_sqlite_and_back_unchanged() {
        let Some(database) = TestDatabase::create("migrate") else { return };
        let dir = tempfile::tempdir().unwrap();
        let sqlite = crate::SqliteStore::open(&dir.path().join("from.sqlite")).unwrap();
        contract::fill(&sqlite);
        let postgres = PgStore::open(database.url()).unwrap();
        let there = crate::copy_games(&sqlite, &postgres).unwrap();
        assert_eq!((there.copied, there.already_there), (3, 0));
        contract::same_games(&sqlite, &postgres);
        let back = crate::SqliteStore::open(&dir.path().join("back.sqlite")).unwrap();
        assert_eq!(crate::copy_games(&postgres, &back).unwrap().copied, 3);
        contract::same_games(&sqlite, &back);
        assert_eq!(crate::copy_games(&sqlite, &postgres).unwrap().already_there, 3);
    }

    #[test]
    fn notes_carry_moves_and_fall_back_to_naming_the_game() {
        let mv = StoredMove { text: "d2d4".into(), actor: MoveActor::Chance, at: None };
        let note = move_note("n1", "g7", 12, 30, &mv).unwrap();
        assert_eq!(note, "n1 g7 12 30 chance - d2d4");
        assert_eq!(parse_note(&note), Some(("n1", Change::Move { game: "g7".into(), ply: 12, version: 30, mv })));
        assert_eq!(parse_note("n1 g7"), Some(("n1", Change::Game("g7".into()))));
        let garbled =
            ["n1 g7 x 4 first - e4", "n1 g7 3 x first - e4", "n1 g7 3 4 nobody - e4", "n1 g7 3 4 first soon e4"];
        for garbled in garbled.into_iter().chain(["n1 g7 3 4 first -"]) {
            assert_eq!(parse_note(garbled), Some(("n1", Change::Game("g7".into()))), "{garbled}");
        }
        assert_eq!(parse_note("lonely"), None);
        assert_eq!(parse_note("n1 !lobby"), Some(("n1", Change::Signal("lobby".into()))));
        assert_eq!(parse_note("n1 !tournament/a b"), Some(("n1", Change::Signal("tournament/a b".into()))));
        let long = StoredMove { text: "x".repeat(8_000), actor: MoveActor::First, at: Some(1) };
        assert_eq!(move_note("n1", "g7", 0, 1, &long), None, "too long for a notification");
    }

    #[test]
    fn a_bad_url_is_an_error() {
        let error = PgStore::open("postgres://nobody@127.0.0.1:1/none?connect_timeout=2").err().expect("refused");
        assert!(matches!(error, StoreError::Database(_)), "{error}");
        assert!(PgStore::open("postgres://:::").is_err());
    }

    fn next_change(changes: &mut mpsc::UnboundedReceiver<Change>) -> Change {
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        loop {
            if let Ok(change) = changes.try_recv() {
                return change;
            }
            assert!(std::time::Instant::now() < deadline, "no change heard in 10 s");
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    #[test]
    fn a_node_hears_the_changes_of_the_others_and_not_its_own() {
        let Some(database) = TestDatabase::create("changes") else { return };
        let (a, b) = (PgStore::open(database.url()).unwrap(), PgStore::open(database.url()).unwrap());
        let mut heard_by_a = a.changes().unwrap();
        let mut heard_by_b = b.changes().unwrap();
        assert!(b.changes().is_none(), "taken once");
        a.create(&record("g1")).unwrap();
        assert_eq!(next_change(&mut heard_by_b), Change::Game("g1".into()));
        // A move's notification carries the move, spaces in its text
        // included, and the version it made.
        let mv = StoredMove { text: "attack e4 jab".into(), actor: MoveActor::First, at: Some(-17) };
        assert_eq!(a.append_move("g1", 0, &mv).unwrap(), 1);
        assert_eq!(next_change(&mut heard_by_b), Change::Move { game: "g1".into(), ply: 0, version: 1, mv });
        // A refused move changes nothing and tells nobody.
        assert!(b.append_move("g1", 0, &StoredMove { text: "2".into(), actor: MoveActor::First, at: None }).is_err());
        // b decided on the game before a's move: refused, and nobody told.
        assert!(matches!(
            b.set_meta("g1", contract::fresh(0), &GameMeta { finished: true, ..GameMeta::default() }),
            Err(StoreError::Stale { .. })
        ));
        b.set_meta("g1", contract::fresh(1), &GameMeta { finished: true, ..GameMeta::default() }).unwrap();
        assert_eq!(next_change(&mut heard_by_a), Change::Game("g1".into()));
        std::thread::sleep(Duration::from_millis(200));
        assert!(heard_by_a.try_recv().is_err(), "a hears only b's one change");
        assert!(heard_by_b.try_recv().is_err(), "b hears only a's two changes");
    }

    #[test]
    fn the_computer_of_a_game_is_claimed_by_one_node_and_taken_over_when_it_dies() {
        let Some(database) = TestDatabase::create("claims") else { return };
        let (a, b) = (PgStore::open(database.url()).unwrap(), PgStore::open(database.url()).unwrap());
        for id in ["g1", "g2", "done"] {
            a.create(&record(id)).unwrap();
        }
        b.set_meta("done", contract::fresh(0), &GameMeta { finished: true, ..GameMeta::default() }).unwrap();
        assert!(a.claim_computer("g1").unwrap());
        assert!(a.claim_computer("g1").unwrap(), "a claim is kept");
        assert!(!b.claim_computer("g1").unwrap());
        // b takes the unclaimed unfinished game; a holds the other.
        assert_eq!(b.claim_orphans().unwrap(), ["g2"]);
        assert_eq!(a.claim_orphans().unwrap(), Vec::<String>::new());
        assert!(b.claim_orphans().unwrap().is_empty(), "nothing new");
        // a finishes g1 and lets it go at its next sweep; then a dies
        // holding nothing, b dies holding g2, and a new node takes g2.
        a.set_meta("g1", contract::fresh(0), &GameMeta { finished: true, ..GameMeta::default() }).unwrap();
        assert!(a.claim_orphans().unwrap().is_empty());
        drop(a);
        drop(b);
        let c = PgStore::open(database.url()).unwrap();
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        let mut taken = Vec::new();
        while taken.is_empty() && std::time::Instant::now() < deadline {
            taken = c.claim_orphans().unwrap();
            std::thread::sleep(Duration::from_millis(20));
        }
        assert_eq!(taken, ["g2"]);
    }

    #[test]
    fn a_claim_is_held_by_one_node_until_it_lets_go_or_dies() {
        let Some(database) = TestDatabase::create("named_claims") else { return };
        let (a, b) = (PgStore::open(database.url()).unwrap(), PgStore::open(database.url()).unwrap());
        assert!(a.claim("tournament/t1").unwrap());
        assert!(a.claim("tournament/t1").unwrap(), "a claim is kept");
        assert!(!b.claim("tournament/t1").unwrap());
        assert!(b.claim("tournament/t2").unwrap());
        a.release("tournament/t1").unwrap();
        assert!(b.claim("tournament/t1").unwrap(), "let go");
        assert!(!a.claim("tournament/t1").unwrap());
        drop(b);
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        while !a.claim("tournament/t2").unwrap() {
            assert!(std::time::Instant::now() < deadline, "the dead node's claim never came free");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}
