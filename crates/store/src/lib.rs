//! Where games live between restarts, and everything else the server
//! keeps: accounts, ratings, the lobby, challenges, tournaments,
//! notifications. The only crate of the server that knows a database; the
//! server talks to a [`Store`]:
//! SQLite ([`SqliteStore`]) is the default, and another database
//! (PostgreSQL) is one more implementation of the trait, in a file of this
//! folder beside `sqlite.rs`; `contract.rs` holds the checks every backend
//! must pass. Async code reaches a store through [`AsyncStore`].
//!
//! Every table is written once, run on either database through the query
//! layer of [`sql`]: the games and their moves in `games.rs`, accounts,
//! sessions and everything since in a file each (`accounts.rs`,
//! `lobby.rs`, `reviews.rs`...), their migrations in `schema.rs`. What
//! stays per database is how a write reaches it: the games' first
//! migrations (shipped, so never edited), SQLite's group commit
//! (`sqlite.rs`), and PostgreSQL's pool, notes to the other nodes, claims
//! and its one-statement move (`postgres.rs`).
//!
//! A game is stored as what it started from (variant string, optional start
//! position, chance seed, and the data its options named: a Lunch Chess
//! deck's cards), who sits in each seat, the moves in order, and what ended
//! it outside the rules (resignation, agreed draw). Replaying the moves
//! rebuilds the position exactly, from the store alone.

pub mod accounts;
mod backend;
pub mod backup;
mod blocking;
pub mod challenges;
pub mod closing;
#[cfg(test)]
pub(crate) mod contract;
mod copy;
mod error;
pub mod forecasts;
mod games;
pub mod lessons;
pub mod limits;
pub mod lobby;
pub mod metrics;
pub mod notifications;
mod postgres;
pub mod presence;
pub mod puzzles;
pub mod ratings;
mod records;
pub mod relations;
pub mod reviews;
mod schema;
pub mod sql;
mod sqlite;
pub mod test_database;
pub mod time_control;
pub mod tokens;
pub mod tournaments;

pub use backend::{Change, Store, MAX_TOPIC};
pub use blocking::AsyncStore;
pub use copy::{copy_games, CopyReport};
pub use error::StoreError;
pub use postgres::PgStore;
pub use records::{
    parse_player, player_str, Ending, GameData, GameMeta, GameRecord, Mode, MoveActor, Seat, SeatKind, Seen,
    StoredGame, StoredMove,
};
pub use sql::{Row, Sql, Value};
pub use sqlite::SqliteStore;
pub use time_control::TimeControl;

/// The letters of the ids the store keeps (games', seats' secrets,
/// nodes'): no two that look alike.
pub const ID_ALPHABET: &[u8] = b"abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/// `len` random letters of [`ID_ALPHABET`], from the thread's generator
/// (which the operating system seeds).
pub fn random_text(len: usize) -> String {
    use rand::Rng;
    let mut rng = rand::rng();
    (0..len).map(|_| ID_ALPHABET[rng.random_range(0..ID_ALPHABET.len())] as char).collect()
}

/// Where `menagerie serve --db` keeps games: a PostgreSQL URL
/// (`postgres://` or `postgresql://`) or else a SQLite file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Database {
    Sqlite(std::path::PathBuf),
    Postgres(String),
}

impl Database {
    pub fn parse(text: &str) -> Database {
        if text.starts_with("postgres://") || text.starts_with("postgresql://") {
            Database::Postgres(text.to_owned())
        } else {
            Database::Sqlite(text.into())
        }
    }

    /// Opens the store (creating or migrating its schema).
    pub fn open(&self) -> Result<std::sync::Arc<dyn Store>, StoreError> {
        Ok(match self {
            Database::Sqlite(path) => std::sync::Arc::new(SqliteStore::open(path)?),
            Database::Postgres(url) => std::sync::Arc::new(PgStore::open(url)?),
        })
    }
}

/// Names the database without its password.
impl std::fmt::Display for Database {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Database::Sqlite(path) => write!(f, "{}", path.display()),
            Database::Postgres(url) => {
                let rest = url.split_once("://").map_or(url.as_str(), |(_, rest)| rest);
                let rest = rest.rsplit_once('@').map_or(rest, |(_, host)| host);
                let rest = rest.split_once('?').map_or(rest, |(before, _)| before);
                write!(f, "postgres://{rest}")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Database;

    #[test]
    fn a_url_names_postgres_and_anything_else_a_file_and_no_password_is_shown() {
        let pg = Database::parse("postgres://me:hunter2@db.example:5432/games?sslmode=disable");
        assert_eq!(pg, Database::Postgres("postgres://me:hunter2@db.example:5432/games?sslmode=disable".into()));
        assert_eq!(pg.to_string(), "postgres://db.example:5432/games");
        assert!(matches!(Database::parse("postgresql://h/db"), Database::Postgres(_)));
        assert_eq!(Database::parse("games.sqlite"), Database::Sqlite("games.sqlite".into()));
        assert_eq!(Database::parse("games.sqlite").to_string(), "games.sqlite");
    }
}
