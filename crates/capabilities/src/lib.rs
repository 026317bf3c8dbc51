//! The capabilities of the site, each over the games in play
//! (`menagerie_play`) and the store, none knowing a request: accounts and
//! their sessions ([`accounts`]), the limits one actor may not pass
//! ([`limits`]), the lobby ([`lobby`]), challenges ([`challenges`]),
//! tournaments ([`tournament`]), the Bot and Board API's games ([`bots`]),
//! the computer's levels and players ([`computer`]), positions analysed
//! ([`analysis`]), puzzles and their ratings ([`puzzles`]), computer
//! reviews of finished games ([`review`]), and the site's own origin
//! ([`origin`]). The web layer (`menagerie_server`) turns requests into
//! their calls and their answers and refusals into HTTP.

/// Durable storage, notices and the games in play: the layers below, by
/// the paths this crate's modules name them.
pub use menagerie_notify as notify;
pub use menagerie_play::{
    catalog, clock, command, cpu, error, forecast, hub, live, loaded, names, nodes, presence, secret, source, start,
    view, viewer,
};
pub use menagerie_store as store;

pub mod accounts;
pub mod analysis;
pub mod bots;
pub mod challenges;
pub mod computer;
pub mod lessons;
pub mod limits;
pub mod lobby;
pub mod origin;
pub mod puzzles;
pub mod review;
pub mod tournament;
