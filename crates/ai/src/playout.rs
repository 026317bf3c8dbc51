//! Random playouts: the speed of the game's move generation as MCTS sees
//! it (plies per second), for `menagerie bench --playouts`.

use menagerie_core::{sample_weighted, Actor, Game};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::time::{Duration, Instant};

/// What a run of random playouts measured.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayoutStats {
    pub games: u64,
    /// Every move played, chance's included.
    pub plies: u64,
    /// The moves of those that chance made (deals, draws).
    pub chance_plies: u64,
    pub seconds: f64,
}

impl PlayoutStats {
    pub fn plies_per_second(&self) -> f64 {
        self.plies as f64 / self.seconds.max(1e-9)
    }
}

/// Plays uniformly random games from `start` (chance's moves drawn with
/// their probabilities) until `budget` has passed, undoing each game back
/// to the start.
pub fn random_playouts<G: Game>(start: &G, budget: Duration, seed: u64) -> PlayoutStats {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut game = start.clone();
    let mut moves = Vec::new();
    let started = Instant::now();
    let (mut games, mut plies, mut chance_plies) = (0u64, 0u64, 0u64);
    while games == 0 || started.elapsed() < budget {
        let mut played = 0u64;
        loop {
            game.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let mv = match game.to_act() {
                Actor::Chance => {
                    chance_plies += 1;
                    sample_weighted(&game, &moves, &mut rng)
                }
                Actor::Player(_) => moves[rng.random_range(0..moves.len())],
            };
            game.play(mv);
            played += 1;
        }
        for _ in 0..played {
            game.undo();
        }
        games += 1;
        plies += played;
    }
    PlayoutStats { games, plies, chance_plies, seconds: started.elapsed().as_secs_f64() }
}
