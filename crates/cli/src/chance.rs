//! `--seed N`: chance acts by itself, from a generator seeded with N, where
//! a command starts (the deal of a Lunch Chess start) and after each move
//! of `--moves`; without it, chance's moves are given like anyone's
//! (`draw:jab`). `play` and `selfplay` always let chance act, from the seed.

use crate::error::CliError;
use menagerie_core::{sample_chance, DynGame, Game};
use rand::rngs::StdRng;
use rand::SeedableRng;

/// Chance's generator, when `--seed` was given.
pub struct SeededChance(Option<StdRng>);

impl SeededChance {
    pub fn new(seed: Option<u64>) -> SeededChance {
        SeededChance(seed.map(StdRng::seed_from_u64))
    }

    /// Plays chance moves until a player must act (nothing without a seed).
    pub fn act<G: Game>(&mut self, game: &mut G) {
        if let Some(rng) = &mut self.0 {
            while let Some(mv) = sample_chance(game, rng) {
                game.play(mv);
            }
        }
    }

    /// [`SeededChance::act`] on a game behind texts.
    pub fn act_dyn(&mut self, game: &mut dyn DynGame) -> Result<(), CliError> {
        if let Some(rng) = &mut self.0 {
            while let Some(text) = game.sample_chance(rng) {
                game.play(&text).map_err(|e| CliError::Failed(format!("chance's move {text}: {e}")))?;
            }
        }
        Ok(())
    }
}
