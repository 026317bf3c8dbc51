//! One game of a study: the fixed opening, a few uniformly random moves,
//! then the player against itself, recording what the report needs.

use super::provenance::Digest;
use super::record::{GameRecord, Settings, DIVERSITY_PLIES, OPENING_TEXTS};
use crate::error::CliError;
use menagerie_ai::{AgentSpec, Limits, StopFlag};
use menagerie_core::{sample_chance, Actor, Evaluate, Game, Player, Study, Tally};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::collections::BTreeMap;
use std::time::Instant;

/// Material is sampled every this many player moves (the fit treats the
/// samples of one game as one cluster).
pub const MATERIAL_EVERY: u32 = 4;

/// The seed of game `index` of a study seeded `seed`: games are independent
/// of which thread, shard or run plays them.
pub fn game_seed(seed: u64, index: u64) -> u64 {
    seed.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(index.wrapping_mul(1_000_003)) ^ 0x5717_d1e5
}

/// The highest `--temperature`: far above any evaluation's pawn.
pub const MAX_TEMPERATURE: u32 = 10_000;

/// How far below the best the search scores moves for a temperature: a
/// move further than four temperatures below is played less than 2% as
/// often as the best, so it is left out.
const MARGIN_TEMPERATURES: i32 = 4;

/// The search's near-best margin ([`menagerie_ai::Limits::near_best`]) for
/// a temperature; none at 0.
pub fn near_best_margin(temperature: u32) -> Option<i32> {
    (temperature > 0).then(|| MARGIN_TEMPERATURES * temperature.min(MAX_TEMPERATURE) as i32)
}

/// A move among the near-best, each as likely as `e^((score - best) / T)`;
/// the searched best when there is nothing to choose from.
pub fn choose<M: Copy>(best: M, near_best: &[(M, i32)], temperature: u32, rng: &mut SmallRng) -> M {
    let Some(&(_, top)) = near_best.first() else { return best };
    if temperature == 0 || near_best.len() == 1 {
        return best;
    }
    let weights: Vec<f64> =
        near_best.iter().map(|&(_, score)| (f64::from(score - top) / f64::from(temperature)).exp()).collect();
    let mut pick = rng.random::<f64>() * weights.iter().sum::<f64>();
    for (&(mv, _), weight) in near_best.iter().zip(&weights) {
        if pick < *weight {
            return mv;
        }
        pick -= weight;
    }
    near_best.last().map_or(best, |&(mv, _)| mv)
}

pub struct StudyPlayer {
    pub spec: AgentSpec,
    pub limits: Limits,
}

/// Plays game `index` from `start`.
pub fn play_game<G: Game + Evaluate + Study>(
    start: &G,
    settings: &Settings,
    player: &StudyPlayer,
    index: u64,
) -> Result<GameRecord, CliError> {
    let begun = Instant::now();
    let seed = game_seed(settings.seed, index);
    let mut rng = SmallRng::seed_from_u64(seed);
    // Its own stream, so that a temperature leaves chance's draws alone.
    let mut temper = SmallRng::seed_from_u64(seed ^ 3);
    let mut agents = [player.spec.build::<G>(seed ^ 1), player.spec.build::<G>(seed ^ 2)];
    let mut game = start.clone();
    let mut moves = Vec::new();
    let mut tally = Tally::new();
    let mut record = GameRecord {
        index,
        first_score: 0,
        reason: String::new(),
        plies: 0,
        legal: Vec::new(),
        opening: Vec::new(),
        hashes: BTreeMap::new(),
        material: Vec::new(),
        mechanics: BTreeMap::new(),
        millis: 0,
        digest: String::new(),
    };
    let mut digest = Digest::new();
    let mut opening = settings.opening.iter();
    while game.outcome().is_none() && record.plies < settings.max_plies {
        let mv = match game.to_act() {
            Actor::Chance => sample_chance(&game, &mut rng)
                .ok_or_else(|| CliError::Failed("chance has no move in a game not over".into()))?,
            Actor::Player(p) => {
                game.legal_moves(&mut moves);
                record.legal.push(moves.len() as u32);
                if let Some(text) = opening.next() {
                    game.parse_move(text).map_err(|e| CliError::BadInput(format!("--opening move {text:?}: {e}")))?
                } else if record.plies < settings.opening.len() as u32 + settings.random_plies {
                    moves[rng.random_range(0..moves.len())]
                } else {
                    let decision = agents[p.index()].decide(&game, &player.limits, &StopFlag::new(), &mut |_| {});
                    let best = decision
                        .best
                        .ok_or_else(|| CliError::Failed("the player found no move in a game not over".into()))?;
                    choose(best, &decision.near_best, settings.temperature, &mut temper)
                }
            }
        };
        let is_player_move = matches!(game.to_act(), Actor::Player(_));
        if is_player_move && record.opening.len() < OPENING_TEXTS {
            record.opening.push(game.move_text(mv));
        }
        let before = game.clone();
        game.play(mv);
        digest.position(game.hash());
        G::tally_move(&before, mv, &game, &mut tally);
        if is_player_move {
            record.plies += 1;
            if DIVERSITY_PLIES.contains(&record.plies) {
                record.hashes.insert(record.plies, game.hash());
            }
            if record.plies.is_multiple_of(MATERIAL_EVERY) && game.outcome().is_none() {
                let material: Vec<f64> = game.material().into_iter().map(|(_, amount)| amount).collect();
                if !material.is_empty() {
                    record.material.push((record.plies, material));
                }
            }
        }
    }
    if let Some(text) = opening.next() {
        return Err(CliError::BadInput(format!("--opening move {text:?}: the game is over before it")));
    }
    G::tally_end(&game, &mut tally);
    let (score, reason) = match game.outcome() {
        Some(outcome) => (outcome.score_for(Player::First), outcome.reason().to_owned()),
        None => (0, format!("adjudicated a draw after {} moves", settings.max_plies)),
    };
    record.first_score = score as i8;
    record.reason = reason;
    record.mechanics = tally.iter().map(|(name, count)| (name.to_owned(), count)).collect();
    record.digest = digest.finish(record.first_score, record.plies);
    record.millis = begun.elapsed().as_millis() as u64;
    Ok(record)
}
