//! Games between computer players, for `selfplay` and `ladder`: random
//! openings shared by a pair of games, one game played out, and many games
//! spread over worker threads.

use crate::error::CliError;
use menagerie_ai::{AgentSpec, Limits, StopFlag};
use menagerie_core::sample_chance;
use menagerie_core::{Actor, Evaluate, Game, Player};
use rand::rngs::SmallRng;
use rand::SeedableRng;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// One side of a game: who plays and with what budget.
pub struct Side<'a> {
    pub spec: &'a AgentSpec,
    pub limits: &'a Limits,
}

/// How a game ended, from the first player's view.
#[derive(Clone, Debug)]
pub struct Finished {
    /// +1 the first player won, 0 a draw, -1 the second won.
    pub first_score: i32,
    pub plies: u32,
    pub reason: String,
}

impl Finished {
    pub fn score_for(&self, player: Player) -> i32 {
        match player {
            Player::First => self.first_score,
            Player::Second => -self.first_score,
        }
    }
}

/// `start` after chance's first moves (a deal) drawn from `seed`: the two
/// games of a pair, dealt from the pair's seed, get the same deal.
pub fn dealt<G: Game>(start: &G, seed: u64) -> G {
    let mut game = start.clone();
    for mv in deal(start, seed) {
        game.play(mv);
    }
    game
}

/// Chance's first moves from `start` (a deal), drawn from `seed`: what
/// [`dealt`] plays.
pub fn deal<G: Game>(start: &G, seed: u64) -> Vec<G::Move> {
    let mut game = start.clone();
    let mut rng = SmallRng::seed_from_u64(seed ^ 0xdea1);
    let mut moves = Vec::new();
    while let Some(mv) = sample_chance(&game, &mut rng) {
        game.play(mv);
        moves.push(mv);
    }
    moves
}

/// Up to `plies` uniformly random moves from `start` (chance moves drawn
/// with their probabilities) that do not end the game: the opening both
/// games of a pair share. Returns the moves.
pub fn random_opening<G: Game>(start: &G, plies: u32, seed: u64) -> Vec<G::Move> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut scratch = Vec::new();
    // A random walk that ends the game is tried again, shorter if need be.
    for attempt in 0..50u32 {
        let wanted = plies.saturating_sub(attempt / 10);
        let mut game = start.clone();
        let mut line = Vec::new();
        while (line.len() as u32) < wanted {
            let Some(mv) = game.random_move(&mut rng, &mut scratch) else { break };
            game.play(mv);
            line.push(mv);
        }
        if game.outcome().is_none() && line.len() as u32 == wanted {
            return line;
        }
    }
    Vec::new()
}

/// Plays `opening`, then lets `sides[p]` play player `p` until the game
/// ends or `max_plies` moves have been made (a draw by adjudication).
/// `seed` makes the players' and chance's random choices reproducible.
pub fn play_game<G: Game + Evaluate>(
    start: &G,
    opening: &[G::Move],
    sides: [Side; 2],
    seed: u64,
    max_plies: u32,
) -> Result<Finished, CliError> {
    play_game_moves(start, opening, sides, seed, max_plies).map(|(finished, _)| finished)
}

/// [`play_game`], answering also every move played from `start`, the
/// opening's included (for records).
pub fn play_game_moves<G: Game + Evaluate>(
    start: &G,
    opening: &[G::Move],
    sides: [Side; 2],
    seed: u64,
    max_plies: u32,
) -> Result<(Finished, Vec<G::Move>), CliError> {
    let mut game = start.clone();
    let mut moves = opening.to_vec();
    for &mv in opening {
        game.play(mv);
    }
    let mut agents =
        [sides[0].spec.build::<G>(seed.wrapping_mul(2)), sides[1].spec.build::<G>(seed.wrapping_mul(2) + 1)];
    let mut rng = SmallRng::seed_from_u64(seed ^ 0x5eed);
    let mut plies = opening.len() as u32;
    while game.outcome().is_none() && plies < max_plies {
        let mv = match game.to_act() {
            Actor::Chance => sample_chance(&game, &mut rng),
            Actor::Player(p) => {
                agents[p.index()].decide(&game, sides[p.index()].limits, &StopFlag::new(), &mut |_| {}).best
            }
        };
        let mv = mv.ok_or_else(|| CliError::Failed("a player found no move in a game not over".into()))?;
        game.play(mv);
        moves.push(mv);
        plies += 1;
    }
    let finished = match game.outcome() {
        Some(outcome) => {
            Finished { first_score: outcome.score_for(Player::First), plies, reason: outcome.reason().to_owned() }
        }
        None => Finished { first_score: 0, plies, reason: format!("adjudicated a draw after {plies} moves") },
    };
    Ok((finished, moves))
}

/// Runs `task(0..count)` on `jobs` threads, calling `done` as each result
/// comes in; returns the results in task order. The first error stops the
/// tasks not yet started and is returned.
pub fn run_parallel<T: Send>(
    count: usize,
    jobs: usize,
    task: impl Fn(usize) -> Result<T, CliError> + Sync,
    done: impl Fn(&T) + Sync,
) -> Result<Vec<T>, CliError> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<T>>> = Mutex::new((0..count).map(|_| None).collect());
    let failure: Mutex<Option<CliError>> = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..jobs.clamp(1, count.max(1)) {
            scope.spawn(|| loop {
                if failure.lock().map_or(true, |f| f.is_some()) {
                    return;
                }
                let index = next.fetch_add(1, Ordering::Relaxed);
                if index >= count {
                    return;
                }
                match task(index) {
                    Ok(result) => {
                        done(&result);
                        if let Ok(mut all) = results.lock() {
                            all[index] = Some(result);
                        }
                    }
                    Err(error) => {
                        if let Ok(mut first) = failure.lock() {
                            first.get_or_insert(error);
                        }
                    }
                }
            });
        }
    });
    if let Some(error) = failure.into_inner().unwrap_or_else(|p| p.into_inner()) {
        return Err(error);
    }
    let results = results.into_inner().unwrap_or_else(|p| p.into_inner());
    results.into_iter().map(|r| r.ok_or_else(|| CliError::Failed("a game was lost by its thread".into()))).collect()
}

/// A seed for game `index` of a run seeded `seed` (spread so that nearby
/// runs do not share games).
pub fn game_seed(seed: u64, index: u64) -> u64 {
    seed.wrapping_mul(1_000_003).wrapping_add(index)
}
