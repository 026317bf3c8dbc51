//! Menagerie's own computations on a state: search with its players,
//! perft, and random playouts inside Rust (the yardstick of the Python
//! boundary's cost). Each runs without the GIL and stops on Ctrl-C.

use crate::args::{natural_arg, optional_natural, seed_arg, value_error};
use crate::game::Origin;
use crate::interrupt::run_interruptible;
use crate::state::State;
use menagerie_ai::{AgentSpec, Limits, Score, StopFlag};
use menagerie_core::perft::perft_until;
use menagerie_core::{Actor, DynEncoded, Erased, Evaluate, Game, GameVisitor, VariantSpec};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// The longest `time=` a search takes: a year, far beyond any use, and
/// far inside what a duration holds.
const MAX_SEARCH_SECONDS: f64 = 365.0 * 24.0 * 3600.0;

/// The searcher's answer, typed before it becomes a dict.
struct Found {
    best: Option<(usize, String)>,
    score: Option<Score>,
    line: Vec<String>,
    depth: u32,
    nodes: u64,
}

struct Search<'a> {
    game: &'a dyn DynEncoded,
    spec: AgentSpec,
    limits: Limits,
    seed: u64,
    stop: &'a StopFlag,
}

impl GameVisitor for Search<'_> {
    type Output = Option<Found>;
    fn visit<G: Game + Evaluate>(self, _variant: G::Variant) -> Option<Found> {
        let typed = self.game.as_any().downcast_ref::<Erased<G>>()?.game().clone();
        let mut agent = self.spec.build::<G>(self.seed);
        let decision = agent.decide(&typed, &self.limits, self.stop, &mut |_| {});
        let best = decision.best.map(|mv| typed.move_text(mv));
        let best = best.and_then(|text| self.game.text_action(&text).ok().map(|action| (action, text)));
        let info = decision.info;
        Some(Found {
            best,
            score: info.as_ref().map(|info| info.score),
            line: info.as_ref().map(|info| info.pv.clone()).unwrap_or_default(),
            depth: info.as_ref().map_or(0, |info| info.depth),
            nodes: info.as_ref().map_or(0, |info| info.nodes),
        })
    }
}

/// Searches the state with one of Menagerie's players (`alphabeta`,
/// `mcts`, `ismcts`, `ai:hard`, ... as on the command line) within `nodes`
/// (nodes or playouts), `time` (seconds, at most a year) or `depth`;
/// returns a dict with `action`, `move`, `score` (`cp 35`, `win 3`,
/// `loss 4`), `line`, `depth` and `nodes`. Raises ValueError when nobody
/// may decide (chance acts, the game is over) or an argument is wrong;
/// Ctrl-C stops it (KeyboardInterrupt).
#[pyfunction]
#[pyo3(signature = (state, nodes=None, time=None, depth=None, player="alphabeta", seed=None))]
pub fn search<'py>(
    py: Python<'py>,
    state: &State,
    nodes: Option<&Bound<'py, PyAny>>,
    time: Option<f64>,
    depth: Option<&Bound<'py, PyAny>>,
    player: &str,
    seed: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let game = state.game();
    if game.outcome().is_some() {
        return Err(value_error("the game is over: nothing to search"));
    }
    if game.to_act() == Actor::Chance {
        return Err(value_error("chance acts next: nothing to decide"));
    }
    let spec = AgentSpec::parse(player).map_err(value_error)?;
    let nodes = optional_natural::<u64>(nodes, "nodes")?;
    let depth = optional_natural::<u32>(depth, "depth")?;
    let seed = seed.map(seed_arg).transpose()?.unwrap_or(0);
    let time = match time {
        Some(t) if !(t.is_finite() && t > 0.0 && t <= MAX_SEARCH_SECONDS) => {
            return Err(value_error(format!("time {t} must be positive seconds, at most {MAX_SEARCH_SECONDS}")))
        }
        Some(t) => Some(Duration::from_secs_f64(t)),
        None => None,
    };
    if nodes.is_none() && time.is_none() && depth.is_none() {
        return Err(value_error("give nodes=, time= or depth="));
    }
    let limits = Limits { time, depth, nodes, ..Limits::default() };
    let variant = VariantSpec::parse(game.variant()).map_err(value_error)?;
    let stop = StopFlag::new();
    let search = Search { game, spec, limits, seed, stop: &stop };
    let found = run_interruptible(
        py,
        || stop.stop(),
        || menagerie_games::visit(&VariantSpec::plain(&variant.id), search).ok().flatten(),
    )?;
    let found = found.ok_or_else(|| value_error("the search found no move"))?;
    let result = PyDict::new(py);
    result.set_item("action", found.best.as_ref().map(|(action, _)| *action))?;
    result.set_item("move", found.best.map(|(_, text)| text))?;
    result.set_item("score", found.score.map(|score| score.to_string()))?;
    result.set_item("line", found.line)?;
    result.set_item("depth", found.depth)?;
    result.set_item("nodes", found.nodes)?;
    Ok(result)
}

/// perft of the typed game behind a [`DynEncoded`].
struct Perft<'a> {
    game: &'a dyn DynEncoded,
    depth: u32,
    stop: &'a AtomicBool,
}

impl GameVisitor for Perft<'_> {
    type Output = Option<u64>;
    fn visit<G: Game + Evaluate>(self, _variant: G::Variant) -> Option<u64> {
        let mut typed = self.game.as_any().downcast_ref::<Erased<G>>()?.game().clone();
        perft_until(&mut typed, self.depth, self.stop)
    }
}

/// The number of move paths of `depth` plies from the start or `position`
/// (what `menagerie perft` prints). Ctrl-C stops it (KeyboardInterrupt).
#[pyfunction]
#[pyo3(signature = (variant, depth, position=None))]
pub fn perft(py: Python<'_>, variant: &str, depth: &Bound<'_, PyAny>, position: Option<&str>) -> PyResult<u64> {
    let depth = natural_arg::<u32>(depth, "depth")?;
    let origin = Origin::new(variant, &[])?;
    let game = match position {
        Some(text) => origin.game_at(text)?,
        None => origin.start.clone_encoded(),
    };
    let spec = VariantSpec::parse(&origin.variant).map_err(value_error)?;
    let stop = AtomicBool::new(false);
    let counted = run_interruptible(
        py,
        || stop.store(true, Ordering::Relaxed),
        || {
            let perft = Perft { game: &*game, depth, stop: &stop };
            menagerie_games::visit(&VariantSpec::plain(&spec.id), perft).ok().flatten()
        },
    )?;
    counted.ok_or_else(|| value_error("perft was stopped"))
}

/// Plays `games` random games inside Rust from the start (players
/// uniformly, chance with its probabilities) and returns the plies played:
/// the Python boundary's cost is what a Python loop takes beyond it.
/// Ctrl-C stops it (KeyboardInterrupt).
#[pyfunction]
#[pyo3(signature = (variant, games, seed=None))]
pub fn random_playouts(
    py: Python<'_>,
    variant: &str,
    games: &Bound<'_, PyAny>,
    seed: Option<&Bound<'_, PyAny>>,
) -> PyResult<u64> {
    let games = natural_arg::<u64>(games, "games")?;
    let seed = seed.map(seed_arg).transpose()?.unwrap_or(0);
    let origin = Origin::new(variant, &[])?;
    let stop = AtomicBool::new(false);
    run_interruptible(
        py,
        || stop.store(true, Ordering::Relaxed),
        || {
            use rand::SeedableRng;
            let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
            let mut plies = 0;
            for _ in 0..games {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                let mut game = origin.start.clone_encoded();
                while game.outcome().is_none() {
                    let action = random_action(&mut *game, &mut rng);
                    if game.play_action(action).is_err() {
                        break;
                    }
                    plies += 1;
                }
            }
            plies
        },
    )
}

/// A legal action drawn at random: uniformly among a player's, with
/// chance's probabilities when chance acts. The game must not be over.
pub fn random_action(game: &mut dyn DynEncoded, rng: &mut impl rand::Rng) -> usize {
    if game.to_act() == Actor::Chance {
        let outcomes = game.chance_outcomes();
        let mut x: f64 = rng.random();
        for &(action, p) in &outcomes {
            x -= p;
            if x < 0.0 {
                return action;
            }
        }
        return outcomes[outcomes.len() - 1].0;
    }
    let actions = game.legal_actions();
    actions[rng.random_range(0..actions.len())]
}
