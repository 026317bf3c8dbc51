//! The names of the metrics the store counts; the server's metrics
//! listener describes and exports them with its own
//! (`menagerie_server::ops::metrics`).

/// Moves stored (a player's, the computer's or chance's), by `actor`.
pub const MOVES: &str = "menagerie_moves_committed_total";
/// Seconds a store call took, by `op` (`append_move`, `load`, ...).
pub const STORE_SECONDS: &str = "menagerie_store_duration_seconds";
