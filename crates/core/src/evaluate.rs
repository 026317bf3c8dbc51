use crate::Game;

/// What a search needs to know about a game beyond its rules. Every method
/// has a default, so a game is searchable (by MCTS, or by alpha-beta with a
/// flat evaluation) with an empty `impl Evaluate for MyGame {}`; each game
/// refines it in its own `eval.rs`.
pub trait Evaluate: Game {
    /// A static score of the position for the player who acts now: positive
    /// is good for them. Units are centi-units (a LMA/Fluid pawn is 100); the
    /// search reserves |score| >= [`Evaluate::WIN`] - 1000 for won/lost games.
    fn evaluate(&self) -> i32 {
        0
    }

    /// Whether a move changes material or is otherwise forcing (captures,
    /// promotions, conversions): the moves a quiescence search looks at.
    fn is_tactical(&self, _mv: Self::Move) -> bool {
        false
    }

    /// The score of a won game, before distance-to-win adjustment.
    const WIN: i32 = 1_000_000;
}
