//! The states a game went through, for undo, kept so that a move copies the
//! state once and undo copies nothing.
//!
//! Random playouts play and undo a move every ply. Keeping the current
//! state apart and pushing a copy of it before each move copies it twice a
//! ply (once more on undo). Here the current state is the last of the
//! game's states, and the states after it are spare slots that undone moves
//! left behind: a move copies the current state into the next slot, in
//! place, and undo only steps back.

/// A game's states from the first to the current one (with spare slots
/// after it).
#[derive(Debug)]
pub struct Timeline<T> {
    states: Vec<T>,
    current: usize,
}

impl<T: Copy> Timeline<T> {
    /// A timeline that starts at `first`.
    pub fn starting_at(first: T) -> Timeline<T> {
        let mut states = Vec::with_capacity(64);
        states.push(first);
        Timeline { states, current: 0 }
    }

    /// The current state.
    #[inline(always)]
    pub fn current(&self) -> &T {
        &self.states[self.current]
    }

    /// The states before the current one, first to last.
    #[inline(always)]
    pub fn before(&self) -> &[T] {
        &self.states[..self.current]
    }

    /// Every state from the first to the current one.
    #[inline(always)]
    pub fn all(&self) -> &[T] {
        &self.states[..=self.current]
    }

    /// How many moves were played since the first state (undoable).
    #[inline(always)]
    pub fn moves_played(&self) -> usize {
        self.current
    }

    /// Makes a copy of the current state the current one, for a move to
    /// change: into a spare slot when there is one (a copy in place; a
    /// push would copy it to the stack first).
    #[inline(always)]
    pub fn advance(&mut self) -> &mut T {
        let (current, next) = (self.current, self.current + 1);
        if next < self.states.len() {
            self.states[next] = self.states[current];
        } else {
            self.states.extend_from_within(current..);
        }
        self.current = next;
        &mut self.states[next]
    }

    /// Steps back to the state before, and returns the state it left
    /// (which stays as a spare slot); `None` at the first state.
    #[inline(always)]
    pub fn back(&mut self) -> Option<&T> {
        let left = self.current.checked_sub(1).map(|before| std::mem::replace(&mut self.current, before))?;
        Some(&self.states[left])
    }
}

/// The spare slots after the current state are not copied.
impl<T: Copy> Clone for Timeline<T> {
    fn clone(&self) -> Timeline<T> {
        Timeline { states: self.all().to_vec(), current: self.current }
    }
}

#[cfg(test)]
mod tests {
    use super::Timeline;

    #[test]
    fn moves_copy_the_current_state_and_undo_steps_back() {
        let mut timeline = Timeline::starting_at(1);
        *timeline.advance() += 10;
        *timeline.advance() += 100;
        assert_eq!((timeline.current(), timeline.before(), timeline.moves_played()), (&111, &[1, 11][..], 2));
        assert_eq!(timeline.back(), Some(&111));
        assert_eq!((timeline.current(), timeline.all()), (&11, &[1, 11][..]));
        // The spare slot is overwritten by the next move, from the current state.
        *timeline.advance() += 5;
        assert_eq!(timeline.all(), [1, 11, 16]);
        assert_eq!(timeline.back(), Some(&16));
        assert_eq!(timeline.back(), Some(&11));
        assert_eq!(timeline.back(), None, "no state before the first");
        assert_eq!((timeline.current(), timeline.moves_played()), (&1, 0));
    }

    #[test]
    fn a_clone_has_the_states_up_to_the_current_one() {
        let mut timeline = Timeline::starting_at('a');
        *timeline.advance() = 'b';
        *timeline.advance() = 'c';
        timeline.back();
        let mut copy = timeline.clone();
        assert_eq!(copy.all(), ['a', 'b']);
        *copy.advance() = 'd';
        assert_eq!(copy.all(), ['a', 'b', 'd']);
        assert_eq!(timeline.current(), &'b');
    }
}
