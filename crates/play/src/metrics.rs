//! The names of the metrics the games in play count (the web layer's
//! metrics listener describes and exports them with the rest). Without a
//! recorder the `metrics` macros cost next to nothing.

/// Computer searches running now, and waiting for a place.
pub const SEARCHES_RUNNING: &str = "menagerie_computer_searches_running";
pub const SEARCHES_QUEUED: &str = "menagerie_computer_searches_queued";
/// Changes heard from other nodes (PostgreSQL `NOTIFY`), by `kind`.
pub const NODE_NOTIFICATIONS: &str = "menagerie_node_notifications_total";
