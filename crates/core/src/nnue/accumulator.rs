//! The hidden units of a perspective, kept up to date by difference.
//!
//! An accumulator remembers the inputs it sums. Given the inputs of the
//! position to evaluate, it walks both sorted lists once and adds the rows
//! of the inputs that came, subtracts those of the inputs that went: along
//! a search, consecutive evaluations are of positions a move or two apart,
//! so a few rows change out of the dozens active. Diffing against the last
//! position evaluated, rather than keeping a stack that every `play` and
//! `undo` pushes and pops, needs no hook in the search's many paths (null
//! moves, quiescence, chance nodes, Kelasu's turns of several actions,
//! Lunch Chess's sampled hands) and cannot fall out of step with them: the
//! sums always belong to exactly the inputs remembered.

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
    /// Sorted (an input may appear more than once: it counts that often).
    inputs: Vec<u16>,
    units: Vec<i32>,
    /// The hidden units' count when `units` is valid; 0 before the first use.
    hidden: usize,
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

    /// The inputs the units sum, sorted.
    pub fn inputs(&self) -> &[u16] {
        &self.inputs
    }

    /// Sums from scratch: the bias and the rows of `inputs` (sorted).
    pub fn refresh(&mut self, network: &Network, inputs: &[u16]) {
        self.units.clear();
        self.units.extend(network.biases().iter().map(|&bias| i32::from(bias)));
        for &input in inputs {
            add_row(&mut self.units, network.row(input));
        }
        self.inputs.clear();
        self.inputs.extend_from_slice(inputs);
        self.hidden = network.hidden();
    }

    /// Brings the units to `inputs` (sorted) from the inputs they sum now.
    pub fn update(&mut self, network: &Network, inputs: &[u16]) -> Update {
        if self.hidden != network.hidden() || self.units.len() != network.hidden() {
            self.refresh(network, inputs);
            return Update::Refreshed;
        }
        let (mut old, mut new) = (0, 0);
        let (mut added, mut removed) = (0, 0);
        // A change touching more rows than a refresh would is a refresh.
        let limit = inputs.len();
        while old < self.inputs.len() || new < inputs.len() {
            let (was, is) = (self.inputs.get(old), inputs.get(new));
            match (was, is) {
                (Some(a), Some(b)) if a == b => {
                    old += 1;
                    new += 1;
                    continue;
                }
                (Some(&a), Some(&b)) if a < b => {
                    sub_row(&mut self.units, network.row(a));
                    old += 1;
                    removed += 1;
                }
                (Some(&a), None) => {
                    sub_row(&mut self.units, network.row(a));
                    old += 1;
                    removed += 1;
                }
                (_, Some(&b)) => {
                    add_row(&mut self.units, network.row(b));
                    new += 1;
                    added += 1;
                }
                (None, None) => break,
            }
            if added + removed > limit {
                self.refresh(network, inputs);
                return Update::Refreshed;
            }
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
            self.buffer.sort_unstable();
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
/// perspective sums.
pub fn sorted_inputs<G: Evaluate>(game: &G, perspective: Player) -> Vec<u16> {
    let mut inputs = Vec::new();
    game.learned_inputs(perspective, &mut inputs);
    inputs.sort_unstable();
    inputs
}
