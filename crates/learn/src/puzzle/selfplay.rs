//! Games the miner plays itself. Puzzles come from mistakes, and an engine
//! at a fixed budget makes few; so each move is, with probability
//! [`SelfplayConfig::random_rate`], a legal move drawn at random (a
//! blunder the other side may punish), and otherwise the move of a small
//! alpha-beta search. Everything is drawn from the seed: game `n` of seed
//! `s` is the same game on every machine (one thread, node budgets).

use super::mine::PlayedGame;
use super::Source;
use menagerie_ai::{AlphaBeta, AlphaBetaConfig, Limits, StopFlag};
use menagerie_core::{sample_chance, Actor, Evaluate, Game};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

#[derive(Clone, Debug, PartialEq)]
pub struct SelfplayConfig {
    /// Nodes of the search that picks a move.
    pub nodes: u64,
    /// How often a move is drawn at random instead.
    pub random_rate: f64,
    /// Moves of the game model at most; a longer game is cut there.
    pub max_plies: usize,
    /// Random moves at the start, so that games differ from the first move.
    pub opening_random_plies: usize,
}

impl Default for SelfplayConfig {
    fn default() -> Self {
        SelfplayConfig { nodes: 2_000, random_rate: 0.08, max_plies: 240, opening_random_plies: 2 }
    }
}

/// Plays game number `index` of `seed` from `start`.
pub fn play_game<G: Game + Evaluate>(start: &G, seed: u64, index: usize, config: &SelfplayConfig) -> PlayedGame<G> {
    let mut rng = StdRng::seed_from_u64(seed ^ (index as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let mut searcher: AlphaBeta<G> =
        AlphaBeta::new(AlphaBetaConfig { hash_megabytes: 4, seed: rng.random(), ..AlphaBetaConfig::default() });
    let stop = StopFlag::new();
    let mut position = start.clone();
    let mut moves = Vec::new();
    let mut legal = Vec::new();
    while position.outcome().is_none() && moves.len() < config.max_plies {
        position.legal_moves(&mut legal);
        if legal.is_empty() {
            break;
        }
        let mv = match position.to_act() {
            Actor::Chance => match sample_chance(&position, &mut rng) {
                Some(mv) => mv,
                None => break,
            },
            Actor::Player(_) => {
                if moves.len() < config.opening_random_plies || rng.random_bool(config.random_rate.clamp(0.0, 1.0)) {
                    legal[rng.random_range(0..legal.len())]
                } else {
                    match searcher.search(&position, &Limits::nodes(config.nodes), &stop, &mut |_| {}).best {
                        Some(mv) => mv,
                        None => break,
                    }
                }
            }
        };
        position.play(mv);
        moves.push(mv);
    }
    PlayedGame { start: start.clone(), moves, source: Source::Selfplay { seed, game: index, ply: 0 } }
}
