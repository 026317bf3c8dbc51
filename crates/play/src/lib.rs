//! The games in play: the layer between the store below and the
//! capabilities and the web above. A [`command::Command`] changes a game
//! (or starts one) through the [`hub::Hub`]; a read answers with a view
//! ([`view`]). It knows no request and no capability by name: what it needs
//! of those above, it asks through traits it defines here ([`Opponents`]
//! for the computer's levels and players, [`live::TakebackPolicy`] for who
//! takes a move back).
//!
//! ```text
//!  command (Command, Setup, Act)      view (what a viewer is sent)
//!   │                                   ▲
//!   ▼                                   │
//!  hub ───────────────┬──────────────┬──┘
//!   │ start (new games, rematches)   │ computer (the driver), opponents
//!   ▼                 ▼              ▼
//!  loaded (games in memory) ──► live (one game: commit protocol, acts, cache)
//!   │                                   │
//!   ▼                                   ▼
//!  store (menagerie_store)         source, catalog (where games and decks come from)
//! ```
//!
//! - [`hub::Hub`]: runs commands and reads against the games in play; the
//!   one way a game begins ([`start`]) serves new games and rematches.
//! - [`live`]: one game in memory, its lock and change signal, the commit
//!   protocol (check, play, commit, publish), a seat's acts, the claim rule
//!   for a game left ([`live::claim`]), and the texts sent since the last
//!   change. State that lives with a game in play (clocks) belongs there.
//! - [`presence`]: where seats are seen, on any node (the claim rule's
//!   facts).
//! - [`computer`]: the driver that searches when a game waits for the
//!   computer and plays the move found, asking the [`Opponents`].
//! - [`correspondence`]: the notices a correspondence game makes (your
//!   move, time low), delivered by `menagerie_notify`.
//! - [`nodes`]: what other nodes on one database changed, followed here.
//! - [`view`]: the JSON a viewer is sent, built from a live game.
//! - [`cpu`]: CPU-heavy request work, run on the blocking pool.
//! - [`source::GameSource`]: where games come from (the registry of
//!   `menagerie_games`); [`catalog::Catalog`]: the decks offered.

/// Durable storage: its own crate, the only one with a database driver.
pub use menagerie_store as store;

pub mod catalog;
pub mod clock;
pub mod command;
pub mod computer;
pub mod correspondence;
pub mod cpu;
pub mod error;
pub mod forecast;
pub mod hub;
pub mod live;
pub mod loaded;
pub mod metrics;
pub mod names;
pub mod nodes;
pub mod opponents;
pub mod presence;
pub mod secret;
pub mod source;
pub mod start;
pub mod view;
pub mod viewer;

pub use hub::{Hub, HubConfig};
pub use opponents::Opponents;
