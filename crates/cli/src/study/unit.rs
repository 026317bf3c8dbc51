//! What a study player's budget counts, named in its reports.

/// What a budget counts: nodes a move for alpha-beta, playouts a decision
/// for the Monte Carlo searchers.
#[derive(Clone, Copy, Debug)]
pub struct Unit {
    /// "nodes"
    pub each: &'static str,
    /// "nodes a move"
    pub rate: &'static str,
}

pub const NODES: Unit = Unit { each: "nodes", rate: "nodes a move" };
pub const PLAYOUTS: Unit = Unit { each: "playouts", rate: "playouts a decision" };

/// The unit of a study player's budget (`Settings::player`).
pub fn unit_of(player: &str) -> Unit {
    if player.starts_with("mcts") || player.starts_with("ismcts") {
        PLAYOUTS
    } else {
        NODES
    }
}
