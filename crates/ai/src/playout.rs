//! Random playouts: the speed of the game's move generation as MCTS sees
//! it (plies per second), for `menagerie bench --playouts`.

use menagerie_core::{Actor, Game};
use rand::rngs::SmallRng;
use rand::SeedableRng;
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

/// How long a run of random playouts lasts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PlayoutBudget {
    /// Games until this much time has passed (at least one game).
    Time(Duration),
    /// Exactly this many games (at least one): the same seed then plays the
    /// same games, so instruction counts repeat exactly.
    Games(u64),
}

impl PlayoutBudget {
    fn allows_another(self, games: u64, started: Instant) -> bool {
        match self {
            PlayoutBudget::Time(budget) => games == 0 || started.elapsed() < budget,
            PlayoutBudget::Games(limit) => games < limit.max(1),
        }
    }
}

/// Plays random games from `start` ([`Game::random_move`]: uniform among a
/// player's moves, chance's drawn with their probabilities) until `budget`
/// is spent, undoing each game back to the start.
pub fn random_playouts<G: Game>(start: &G, budget: PlayoutBudget, seed: u64) -> PlayoutStats {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut game = start.clone();
    let mut moves = Vec::new();
    let started = Instant::now();
    let (mut games, mut plies, mut chance_plies) = (0u64, 0u64, 0u64);
    while budget.allows_another(games, started) {
        let mut played = 0u64;
        loop {
            let chance = game.to_act() == Actor::Chance;
            let Some(mv) = game.random_move(&mut rng, &mut moves) else { break };
            chance_plies += u64::from(chance);
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
