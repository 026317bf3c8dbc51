//! Players the computer can be: a trait over the searches, and the
//! `random`, `greedy`, `alphabeta:4`, `mcts:1000`, `ai:hard` strings that
//! name them on the command line.

use crate::alphabeta::{AlphaBeta, AlphaBetaConfig};
use crate::info::Info;
use crate::level::{Algorithm, Level, DEFAULT_LEVEL};
use crate::limits::{Limits, StopFlag};
use crate::mcts::{Mcts, MctsConfig};
use menagerie_core::{sample_chance, sample_weighted, Actor, Evaluate, Game};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::fmt;
use std::time::Duration;
use thiserror::Error;

/// What an agent decided: a move (none only when the game is over) and the
/// last report of its search, if it searched.
#[derive(Clone, Debug)]
pub struct Decision<M> {
    pub best: Option<M>,
    pub info: Option<Info>,
}

/// A computer player for game `G`.
pub trait Agent<G: Game + Evaluate>: Send {
    /// Chooses a move for whoever acts in `game` (a player, not chance).
    fn decide(
        &mut self,
        game: &G,
        limits: &Limits,
        stop: &StopFlag,
        on_info: &mut dyn FnMut(&Info),
    ) -> Decision<G::Move>;

    /// Forgets what it learnt from earlier positions (a new game starts).
    fn new_game(&mut self) {}
}

/// Where `ismcts` playouts stop (the levels' value).
const ISMCTS_PLAYOUT_CUTOFF: u32 = 60;

/// Uniformly random legal moves.
pub struct RandomAgent {
    rng: SmallRng,
}

impl RandomAgent {
    pub fn new(seed: u64) -> Self {
        RandomAgent { rng: SmallRng::seed_from_u64(seed) }
    }
}

impl<G: Game + Evaluate> Agent<G> for RandomAgent {
    fn decide(&mut self, game: &G, _: &Limits, _: &StopFlag, _: &mut dyn FnMut(&Info)) -> Decision<G::Move> {
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        let best = match game.to_act() {
            Actor::Chance if !moves.is_empty() => Some(sample_weighted(game, &moves, &mut self.rng)),
            _ if moves.is_empty() => None,
            _ => Some(moves[self.rng.random_range(0..moves.len())]),
        };
        Decision { best, info: None }
    }
}

/// One move ahead: the move after which the evaluation (from the mover's
/// view) is best, a won game first; ties broken at random. In games with
/// hidden information it judges a sample of what it cannot see, and where
/// chance acts after the move, a sample of chance's moves.
pub struct Greedy {
    rng: SmallRng,
}

impl Greedy {
    pub fn new(seed: u64) -> Self {
        Greedy { rng: SmallRng::seed_from_u64(seed) }
    }
}

impl<G: Game + Evaluate> Agent<G> for Greedy {
    fn decide(&mut self, game: &G, _: &Limits, _: &StopFlag, _: &mut dyn FnMut(&Info)) -> Decision<G::Move> {
        let me = match (game.outcome(), game.to_act()) {
            (Some(_), _) => return Decision { best: None, info: None },
            (None, Actor::Chance) => return Decision { best: sample_chance(game, &mut self.rng), info: None },
            (None, Actor::Player(p)) => p,
        };
        let mut position = if G::has_hidden_information() { game.determinize(me, &mut self.rng) } else { game.clone() };
        let mut moves = Vec::new();
        position.legal_moves(&mut moves);
        let mut best = Vec::new();
        let mut best_value = i64::MIN;
        for &mv in &moves {
            position.play(mv);
            // Where chance acts next (a draw), one sample of its moves.
            let mut chance_moves = 0;
            while let Some(outcome) = sample_chance(&position, &mut self.rng) {
                position.play(outcome);
                chance_moves += 1;
            }
            let value = match (position.outcome(), position.to_act()) {
                (Some(outcome), _) => i64::from(outcome.score_for(me)) * i64::from(G::WIN),
                (None, Actor::Player(p)) if p == me => i64::from(position.evaluate()),
                (None, Actor::Player(_)) => -i64::from(position.evaluate()),
                (None, Actor::Chance) => 0,
            };
            for _ in 0..=chance_moves {
                position.undo();
            }
            if value > best_value {
                best_value = value;
                best.clear();
            }
            if value == best_value {
                best.push(mv);
            }
        }
        let choice = (!best.is_empty()).then(|| best[self.rng.random_range(0..best.len())]);
        Decision { best: choice, info: None }
    }
}

struct AlphaBetaAgent<G: Game + Evaluate>(AlphaBeta<G>);

impl<G: Game + Evaluate> Agent<G> for AlphaBetaAgent<G> {
    fn decide(
        &mut self,
        game: &G,
        limits: &Limits,
        stop: &StopFlag,
        on_info: &mut dyn FnMut(&Info),
    ) -> Decision<G::Move> {
        let result = self.0.search(game, limits, stop, on_info);
        Decision { best: result.best, info: Some(result.info) }
    }
    fn new_game(&mut self) {
        self.0.clear();
    }
}

struct MctsAgent<G: Game + Evaluate>(Mcts<G>);

impl<G: Game + Evaluate> Agent<G> for MctsAgent<G> {
    fn decide(
        &mut self,
        game: &G,
        limits: &Limits,
        stop: &StopFlag,
        on_info: &mut dyn FnMut(&Info),
    ) -> Decision<G::Move> {
        if game.outcome().is_none() && game.to_act() == Actor::Chance {
            let mut rng = SmallRng::seed_from_u64(self.0.config.seed);
            return Decision { best: sample_chance(game, &mut rng), info: None };
        }
        let result = self.0.search(game, limits, stop, on_info);
        Decision { best: result.best, info: Some(result.info) }
    }
}

/// A computer player named on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AgentSpec {
    Random,
    Greedy,
    /// Alpha-beta to a fixed depth, or on time.
    AlphaBeta {
        depth: Option<u32>,
    },
    /// UCT with random playouts: a fixed number, or on time.
    Mcts {
        playouts: Option<u64>,
    },
    /// Information-set MCTS.
    InformationSetMcts {
        playouts: Option<u64>,
    },
    /// A named level ([`Level`]), the algorithm chosen for the game.
    Level(String),
}

#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SpecError {
    #[error("unknown player {0:?}; expected random, greedy, alphabeta[:DEPTH], mcts[:PLAYOUTS], ismcts[:PLAYOUTS] or ai[:LEVEL] (levels: {levels})", levels = Level::names().join(", "))]
    Unknown(String),
    #[error("player {text:?}: {problem}")]
    BadValue { text: String, problem: String },
}

impl AgentSpec {
    /// Reads `random`, `greedy`, `alphabeta[:DEPTH]` (or `ab`),
    /// `mcts[:PLAYOUTS]`, `ismcts[:PLAYOUTS]`, `ai[:LEVEL]`.
    pub fn parse(text: &str) -> Result<AgentSpec, SpecError> {
        let (name, value) = match text.split_once(':') {
            Some((n, v)) => (n, Some(v)),
            None => (text, None),
        };
        let number = |what: &str| -> Result<Option<u64>, SpecError> {
            value
                .map(|v| {
                    v.parse::<u64>().ok().filter(|&n| n > 0).ok_or_else(|| SpecError::BadValue {
                        text: text.to_owned(),
                        problem: format!("{what} must be a positive number, not {v:?}"),
                    })
                })
                .transpose()
        };
        let no_value = |spec: AgentSpec| match value {
            Some(_) => Err(SpecError::BadValue { text: text.to_owned(), problem: "takes no value".into() }),
            None => Ok(spec),
        };
        match name {
            "random" => no_value(AgentSpec::Random),
            "greedy" => no_value(AgentSpec::Greedy),
            "alphabeta" | "ab" => Ok(AgentSpec::AlphaBeta { depth: number("the depth")?.map(|d| d.min(100) as u32) }),
            "mcts" => Ok(AgentSpec::Mcts { playouts: number("the number of playouts")? }),
            "ismcts" => Ok(AgentSpec::InformationSetMcts { playouts: number("the number of playouts")? }),
            "ai" => {
                let level = value.unwrap_or(DEFAULT_LEVEL);
                if Level::names().contains(&level) {
                    Ok(AgentSpec::Level(level.to_owned()))
                } else {
                    Err(SpecError::BadValue {
                        text: text.to_owned(),
                        problem: format!("unknown level {level:?}; levels: {}", Level::names().join(", ")),
                    })
                }
            }
            _ => Err(SpecError::Unknown(text.to_owned())),
        }
    }

    /// The budget of one move: a fixed depth or playout count when the spec
    /// names one, else `time` (one second if not given). A level's own
    /// time gives way to `time` when that is given.
    pub fn limits<G: Game>(&self, time: Option<Duration>) -> Limits {
        let timed = Limits { time: Some(time.unwrap_or(Duration::from_secs(1))), ..Limits::default() };
        match self {
            AgentSpec::Random | AgentSpec::Greedy => Limits::default(),
            AgentSpec::AlphaBeta { depth: Some(d) } => Limits::depth(*d),
            AgentSpec::Mcts { playouts: Some(n) } | AgentSpec::InformationSetMcts { playouts: Some(n) } => {
                Limits::nodes(*n)
            }
            AgentSpec::AlphaBeta { depth: None }
            | AgentSpec::Mcts { playouts: None }
            | AgentSpec::InformationSetMcts { playouts: None } => timed,
            AgentSpec::Level(name) => {
                let level = Level::for_game::<G>(name).expect("level names were checked when parsed");
                match time {
                    Some(t) => Limits { time: Some(t), ..Limits::default() },
                    None => Limits {
                        time: level.time_ms.map(Duration::from_millis),
                        depth: level.depth,
                        nodes: level.playouts,
                    },
                }
            }
        }
    }

    /// Builds the player; `seed` makes its random choices reproducible.
    pub fn build<G: Game + Evaluate>(&self, seed: u64) -> Box<dyn Agent<G>> {
        let mcts = |information_set: bool, playout_cutoff: Option<u32>| -> Box<dyn Agent<G>> {
            Box::new(MctsAgent(Mcts::new(MctsConfig {
                information_set,
                playout_cutoff,
                seed,
                ..MctsConfig::default()
            })))
        };
        let alphabeta = || -> Box<dyn Agent<G>> {
            Box::new(AlphaBetaAgent(AlphaBeta::new(AlphaBetaConfig { seed, ..Default::default() })))
        };
        match self {
            AgentSpec::Random => Box::new(RandomAgent::new(seed)),
            AgentSpec::Greedy => Box::new(Greedy::new(seed)),
            AgentSpec::AlphaBeta { .. } => alphabeta(),
            AgentSpec::Mcts { .. } => mcts(false, None),
            // Games with hidden cards run long; their playouts stop after
            // 60 moves and are judged by the evaluation, as the levels do.
            AgentSpec::InformationSetMcts { .. } => mcts(true, Some(ISMCTS_PLAYOUT_CUTOFF)),
            AgentSpec::Level(name) => {
                let level = Level::for_game::<G>(name).expect("level names were checked when parsed");
                match level.algorithm {
                    Algorithm::Random => Box::new(RandomAgent::new(seed)),
                    Algorithm::Greedy => Box::new(Greedy::new(seed)),
                    Algorithm::AlphaBeta => alphabeta(),
                    Algorithm::Mcts => mcts(false, level.playout_cutoff),
                    Algorithm::InformationSetMcts => mcts(true, level.playout_cutoff),
                }
            }
        }
    }
}

impl fmt::Display for AgentSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let count = |name: &str, n: &Option<u64>| match n {
            Some(n) => format!("{name}:{n}"),
            None => name.to_owned(),
        };
        match self {
            AgentSpec::Random => f.write_str("random"),
            AgentSpec::Greedy => f.write_str("greedy"),
            AgentSpec::AlphaBeta { depth } => f.write_str(&count("alphabeta", &depth.map(u64::from))),
            AgentSpec::Mcts { playouts } => f.write_str(&count("mcts", playouts)),
            AgentSpec::InformationSetMcts { playouts } => f.write_str(&count("ismcts", playouts)),
            AgentSpec::Level(name) => write!(f, "ai:{name}"),
        }
    }
}
