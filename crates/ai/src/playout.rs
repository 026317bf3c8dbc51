//! Random playouts: the speed of the game's move generation as MCTS sees
//! it (plies per second), for `menagerie bench --playouts`.

use menagerie_core::Game;
use rand::rngs::SmallRng;
use rand::SeedableRng;
use std::time::{Duration, Instant};

/// What a run of random playouts measured.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayoutStats {
    pub games: u64,
    pub plies: u64,
    pub seconds: f64,
}

impl PlayoutStats {
    pub fn plies_per_second(&self) -> f64 {
        self.plies as f64 / self.seconds.max(1e-9)
    }
}

/// Plays random games from `start` ([`Game::random_move`]: chance moves
/// with their probabilities)
/// until `budget` has passed, undoing each game back to the start.
pub fn random_playouts<G: Game>(start: &G, budget: Duration, seed: u64) -> PlayoutStats {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut game = start.clone();
    let mut moves = Vec::new();
    let started = Instant::now();
    let (mut games, mut plies) = (0u64, 0u64);
    while games == 0 || started.elapsed() < budget {
        let mut played = 0u64;
        while let Some(mv) = game.random_move(&mut rng, &mut moves) {
            game.play(mv);
            played += 1;
        }
        for _ in 0..played {
            game.undo();
        }
        games += 1;
        plies += played;
    }
    PlayoutStats { games, plies, seconds: started.elapsed().as_secs_f64() }
}
