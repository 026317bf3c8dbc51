//! A game as numbers, for learning libraries (OpenSpiel, PettingZoo): a
//! fixed action space per variant, in which every move of the game model
//! (chance's draws included) has an integer index, and an observation
//! tensor of fixed shape built from what one player may see.
//!
//! Each game folder implements [`Encode`] in its `encode.rs` and documents
//! the layout on its rules page (`docs/<game>.md`), so that the Python
//! package, the server and the engine agree on what an index means.

use crate::{Game, Player};

/// The action space and observation tensor of a game.
///
/// Conventions every implementation keeps:
/// - [`Encode::action`] of a legal move is below [`Encode::num_distinct_actions`],
///   and two legal moves of one position never share an index;
/// - where an index stands for one move text whatever the position,
///   [`Encode::action_text`] gives that text, and `action_text(action(mv))`
///   is `move_text(mv)`;
/// - [`Encode::observe`] reads only what `viewer` may see ([`Game::view_text`]):
///   two positions with the same view text for `viewer` give the same numbers.
pub trait Encode: Game {
    /// Whether chance ever acts ([`crate::Actor::Chance`]): a deal, a draw.
    fn has_chance() -> bool {
        false
    }

    /// How many indices the action space has: every action is below it.
    fn num_distinct_actions(variant: &Self::Variant) -> usize;

    /// The index of `mv`, a legal move of this position.
    fn action(&self, mv: Self::Move) -> usize;

    /// Lists the legal moves into `moves` and their indices into `actions`
    /// (both cleared first), ascending by index: what a learning library
    /// asks every turn. Kept apart from [`Game::legal_moves`], whose order
    /// the searches see: a game that can list its moves in index order
    /// overrides this to spare the sort without changing its searches.
    fn numbered_moves(&self, moves: &mut Vec<Self::Move>, actions: &mut Vec<usize>) {
        self.legal_moves(moves);
        actions.clear();
        actions.extend(moves.iter().map(|&mv| self.action(mv)));
        sort_numbered(moves, actions);
    }

    /// The move text `action` stands for, when the index means one text in
    /// every position; `None` for an index that names no move, or whose
    /// move depends on the position (a Kelasu merge is numbered among the
    /// legal merges).
    fn action_text(variant: &Self::Variant, action: usize) -> Option<String>;

    /// An upper bound on the number of moves of a game from the start
    /// (every actor's, chance's included), for OpenSpiel's `max_game_length`.
    fn max_game_length(variant: &Self::Variant) -> usize;

    /// The shape of the observation tensor.
    fn observation_shape(variant: &Self::Variant) -> Vec<usize>;

    /// Writes what `viewer` sees of the position into `out`, which has the
    /// product of [`Encode::observation_shape`] elements, all zero, laid out
    /// row-major.
    fn observe(&self, viewer: Player, out: &mut [f32]);
}

/// Sorts `moves` and their `actions` together by action (for
/// [`Encode::numbered_moves`]); moves listed in action order stay as they are.
pub fn sort_numbered<M: Copy>(moves: &mut [M], actions: &mut [usize]) {
    if actions.is_sorted() {
        return;
    }
    let mut numbered: Vec<(usize, M)> = actions.iter().copied().zip(moves.iter().copied()).collect();
    numbered.sort_unstable_by_key(|&(action, _)| action);
    for ((action, mv), (to_action, to_move)) in numbered.into_iter().zip(actions.iter_mut().zip(moves.iter_mut())) {
        *to_action = action;
        *to_move = mv;
    }
}

/// `out[plane][cell] = 1.0` for a tensor of planes of `cells` cells.
#[inline]
pub fn set_plane(out: &mut [f32], cells: usize, plane: usize, cell: usize) {
    out[plane * cells + cell] = 1.0;
}

/// Fills the whole of `plane` with `value` (counters, whose turn it is).
pub fn fill_plane(out: &mut [f32], cells: usize, plane: usize, value: f32) {
    out[plane * cells..(plane + 1) * cells].fill(value);
}

#[cfg(test)]
mod tests {
    use crate::testing::nim::{Nim, NimVariant};
    use crate::{DynEncoded, DynGame, Erased, Game, MoveError};

    #[test]
    fn actions_played_are_the_legal_ones_of_the_position_now() {
        let mut game = Erased::new(Nim::start(&NimVariant { stones: 4 }, 0), "nim:stones=4");
        assert_eq!(game.legal_actions(), [0, 1, 2]);
        game.play_action(2).unwrap();
        assert_eq!(game.history(), ["3"]);
        // One stone left: taking two or three is no longer legal, though
        // they were when the actions were last listed.
        assert!(matches!(game.play_action(2), Err(MoveError::Illegal { .. })));
        assert_eq!(game.legal_actions(), [0]);
        game.undo();
        assert_eq!(game.legal_actions(), [0, 1, 2]);
        game.play("2").unwrap();
        // Two stones left; the listing before `play` had taking three.
        assert!(matches!(game.play_action(2), Err(MoveError::Illegal { .. })));
        game.play_action(1).unwrap();
        assert_eq!(game.history(), ["2", "2"]);
        assert!(matches!(game.play_action(0), Err(MoveError::GameOver)));
    }
}
