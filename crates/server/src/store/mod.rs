//! Where games live between restarts. The server talks to a [`Store`]:
//! SQLite ([`SqliteStore`]) is the default, and another database
//! (PostgreSQL) is one more implementation of the trait, in a file of this
//! folder beside `sqlite.rs`; `contract.rs` holds the checks every backend
//! must pass. Async code reaches a store through [`AsyncStore`].
//!
//! A game is stored as what it started from (variant string, optional start
//! position, chance seed, and the data its options named: a Lunch Chess
//! deck's cards), who sits in each seat, the moves in order, and what ended
//! it outside the rules (resignation, agreed draw). Replaying the moves
//! rebuilds the position exactly, from the store alone.

mod backend;
mod blocking;
#[cfg(test)]
pub(crate) mod contract;
mod postgres;
mod records;
mod sqlite;

pub use backend::{Change, Store, StoreError};
pub use blocking::AsyncStore;
pub use postgres::PgStore;
pub use records::{
    parse_player, player_str, Ending, GameData, GameMeta, GameRecord, Mode, MoveActor, Seat, SeatKind, StoredGame,
    StoredMove,
};
pub use sqlite::SqliteStore;
