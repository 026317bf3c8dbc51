//! The hidden units of a perspective, kept up to date by difference.
//!
//! An accumulator remembers the inputs it sums. Given the inputs of the
//! position to evaluate, it counts each input's net change (+1 for each
//! time it is in the new list, −1 for each time it was in the old) in a
//! table as long as the network's inputs, then adds the rows of the inputs
//! that came and subtracts those of the inputs that went; the table is all
//! zeros again after each update. A game lists its inputs in one order, so
//! the lists of positions a move apart share a long start and end, and only
//! the stretch between is counted. The lists need no sorting (sorting them
//! took a fifth of Kelasu's search). Along a search, consecutive
//! evaluations are of positions a move or two apart: a few rows change out
//! of the dozens active.
//!
//! Diffing against the last position evaluated, rather than keeping a
//! stack that every `play` and `undo` pushes and pops, needs no hook in the
//! search's many paths (null moves, quiescence, chance nodes, Kelasu's turns
//! of several actions, Lunch Chess's sampled hands) and cannot fall out of
//! step with them: the sums always belong to exactly the inputs remembered.

use super::network::Network;
use crate::{Evaluate, Player};

/// What [`Accumulator::update`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Update {
    /// Rows added and subtracted.
    Incremental { added: usize, removed: usize },
    /// Summed from scratch (the first time, or when most inputs changed).
    Refreshed,
}

/// One perspective's hidden units and the inputs they sum.
#[derive(Clone, Debug, Default)]
pub struct Accumulator {
    /// In the order given (an input may appear more than once: it counts
    /// that often).
    inputs: Vec<u16>,
    units: Vec<i32>,
    /// The hidden units' count when `units` is valid; 0 before the first use.
    hidden: usize,
    /// Each input's net change during an update; all zeros between updates.
    changes: Vec<i16>,
}

impl Accumulator {
    pub fn new() -> Accumulator {
        Accumulator::default()
    }

    /// The hidden units, for the inputs last given.
    #[inline]
    pub fn units(&self) -> &[i32] {
        &self.units
    }

    /// The inputs the units sum, in the order they were given.
    pub fn inputs(&self) -> &[u16] {
        &self.inputs
    }

    /// Sums from scratch: the bias and the rows of `inputs`.
    pub fn refresh(&mut self, network: &Network, inputs: &[u16]) {
        self.units.clear();
        self.units.extend(network.biases().iter().map(|&bias| i32::from(bias)));
        for &input in inputs {
            add_row(&mut self.units, network.row(input));
        }
        self.inputs.clear();
        self.inputs.extend_from_slice(inputs);
        self.hidden = network.hidden();
        self.changes.clear();
        self.changes.resize(network.inputs(), 0);
    }

    /// Brings the units to `inputs` (in any order) from the inputs they sum
    /// now. More rows to change than `inputs` has is a refresh instead.
    pub fn update(&mut self, network: &Network, inputs: &[u16]) -> Update {
        if self.hidden != network.hidden()
            || self.units.len() != network.hidden()
            || self.changes.len() != network.inputs()
        {
            self.refresh(network, inputs);
            return Update::Refreshed;
        }
        // A game lists its inputs in the same order each time, so the lists
        // of positions a move apart share a long start and end: only the
        // stretch between differs.
        let same_start = self.inputs.iter().zip(inputs).take_while(|(was, is)| was == is).count();
        let (was, is) = (&self.inputs[same_start..], &inputs[same_start..]);
        let same_end = was.iter().rev().zip(is.iter().rev()).take_while(|(was, is)| was == is).count();
        let (was, is) = (&was[..was.len() - same_end], &is[..is.len() - same_end]);
        let changes = &mut self.changes;
        for &input in is {
            changes[usize::from(input)] += 1;
        }
        for &input in was {
            changes[usize::from(input)] -= 1;
        }
        let (mut added, mut removed) = (0, 0);
        let limit = inputs.len();
        let mut too_many = false;
        for &input in is.iter().chain(was) {
            let change = std::mem::take(&mut changes[usize::from(input)]);
            if change == 0 || too_many {
                continue;
            }
            let row = network.row(input);
            let times = usize::from(change.unsigned_abs());
            if change > 0 {
                (0..times).for_each(|_| add_row(&mut self.units, row));
                added += times;
            } else {
                (0..times).for_each(|_| sub_row(&mut self.units, row));
                removed += times;
            }
            // The loop goes on without rows, only to clear the table.
            too_many = added + removed > limit;
        }
        if too_many {
            self.refresh(network, inputs);
            return Update::Refreshed;
        }
        self.inputs.clear();
        self.inputs.extend_from_slice(inputs);
        Update::Incremental { added, removed }
    }
}

#[inline]
fn add_row(units: &mut [i32], row: &[i16]) {
    for (unit, &weight) in units.iter_mut().zip(row) {
        *unit += i32::from(weight);
    }
}

#[inline]
fn sub_row(units: &mut [i32], row: &[i16]) {
    for (unit, &weight) in units.iter_mut().zip(row) {
        *unit -= i32::from(weight);
    }
}

/// The learned evaluation of one search thread: both perspectives'
/// accumulators, brought to each position evaluated by difference.
#[derive(Clone, Debug, Default)]
pub struct Evaluator {
    accumulators: [Accumulator; 2],
    buffer: Vec<u16>,
}

impl Evaluator {
    pub fn new() -> Evaluator {
        Evaluator::default()
    }

    /// The accumulator of `perspective`.
    pub fn accumulator(&self, perspective: Player) -> &Accumulator {
        &self.accumulators[perspective.index()]
    }

    /// Brings both accumulators to `game`'s inputs; says what each did.
    pub fn update<G: Evaluate>(&mut self, network: &Network, game: &G) -> [Update; 2] {
        Player::BOTH.map(|perspective| {
            self.buffer.clear();
            game.learned_inputs(perspective, &mut self.buffer);
            self.accumulators[perspective.index()].update(network, &self.buffer)
        })
    }

    /// The network's output for `game`, for the player who acts, in
    /// centi-units (without its [`super::Base`]).
    pub fn output<G: Evaluate>(&mut self, network: &Network, game: &G) -> i32 {
        self.update(network, game);
        let us = game.to_act().player().unwrap_or(Player::First);
        network.output(self.accumulators[us.index()].units(), self.accumulators[us.other().index()].units())
    }

    /// The learned evaluation of `game` for the player who acts, in
    /// centi-units: the network's output on its base.
    pub fn evaluate<G: Evaluate>(&mut self, network: &Network, game: &G) -> i32 {
        let output = self.output(network, game);
        match network.base {
            super::Base::Nothing => output,
            super::Base::Tuned => output.saturating_add(game.evaluate()),
        }
    }
}

/// The active inputs of `perspective`, sorted: what an accumulator of that
/// perspective sums, in an order to compare.
pub fn sorted_inputs<G: Evaluate>(game: &G, perspective: Player) -> Vec<u16> {
    let mut inputs = Vec::new();
    game.learned_inputs(perspective, &mut inputs);
    inputs.sort_unstable();
    inputs
}
