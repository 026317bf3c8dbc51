//! Testing a Menagerie server from outside: the load test (`menagerie
//! loadtest`), a client that plays many games at once through the HTTP API
//! and sockets and checks that no move is lost or duplicated, and the games
//! it plays besides the registry's ([`WithNim`]), which the server's own
//! tests use too; and the socket flood ([`flood()`]: idle sockets from one
//! address, then plain requests timed). The production server depends on
//! none of this.

mod client;
mod flood;
mod local;
mod nim;
/// A PostgreSQL database per test: the store's (the only crate that opens one).
pub use menagerie_store::test_database as postgres;

pub use client::{run_against, run_against_nodes, LoadOptions, LoadReport};
pub use flood::{flood, FloodOptions, FloodReport};
pub use local::{flood_local, run_local, LocalDatabase};
pub use nim::WithNim;
