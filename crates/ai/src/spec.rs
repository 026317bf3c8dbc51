//! The strings that name a computer player on the command line and in the
//! ladder: `random`, `greedy`, `alphabeta:4`, `mcts:1000`, `ai:hard`, each
//! with options after a comma (`alphabeta:6,eval=handwritten`,
//! `ai:hard,threads=1`, `alphabeta:threads=2`, `alphabeta:nodes=20000`,
//! `alphabeta:null=off`).

use crate::agent::{Agent, AlphaBetaAgent, Greedy, MctsAgent, RandomAgent};
use crate::alphabeta::{AlphaBeta, AlphaBetaConfig};
use crate::eval_kind::EvalKind;
use crate::level::{Algorithm, Level, DEFAULT_LEVEL, HIDDEN_INFORMATION_PLAYOUT_CUTOFF};
use crate::level_ratings::RatingsFile;
use crate::limits::Limits;
use crate::mcts::{Mcts, MctsConfig};
use menagerie_core::{Evaluate, Game};
use std::fmt;
use std::time::Duration;
use thiserror::Error;

/// Longer playouts than this in a player string are a mistake.
const MAX_CUTOFF: u32 = 100_000;
/// A wider margin than this (a hundred pawns) never leaves the network out.
const MAX_LAZY_MARGIN: u32 = 10_000;
/// More threads than this in a player string is a mistake.
const MAX_THREADS: usize = 256;

/// What kind of player, with its own budget if it names one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AgentKind {
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

/// A computer player named on the command line: its kind, the evaluation
/// it judges positions with, its threads, and what measurements need.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgentSpec {
    pub kind: AgentKind,
    /// The evaluation named by `eval=`; `None`: the player's own (tuned,
    /// and for a level its game's stated in `data/ratings.toml`).
    pub eval: Option<EvalKind>,
    /// Threads to search with; `None`: the level's, or one.
    pub threads: Option<usize>,
    /// A node (or playout) budget per move in place of time: the same
    /// search whatever the machine's load.
    pub nodes: Option<u64>,
    /// Parts of alpha-beta turned off, to measure what they bring.
    pub off: SearchParts,
    /// MCTS: plies after which a playout stops and is judged by the
    /// evaluation, in place of the player's own (`ismcts` and the levels
    /// of hidden-card games: [`HIDDEN_INFORMATION_PLAYOUT_CUTOFF`]).
    pub cutoff: Option<u32>,
    /// Alpha-beta with the learned evaluation: the network is left out of
    /// a position whose tuned evaluation lies more than this many
    /// centi-units outside the search's window (`lazy=N`; [`AlphaBetaConfig::lazy_margin`]).
    pub lazy: Lazy,
}

/// Where alpha-beta with the learned evaluation leaves the network out
/// ([`AgentSpec::lazy_margin`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Lazy {
    /// Beyond the game's own margin ([`Evaluate::LEARNED_LAZY_MARGIN`]).
    #[default]
    GameMargin,
    /// Beyond this many centi-units outside the window (`lazy=N`).
    Margin(u32),
    /// Nowhere: the network at every node (`lazy=off`).
    Off,
}

/// Parts of the search a player string may turn off (`null=off`,
/// `aspiration=off`, `checks=off`, `defer=off` in alpha-beta; `memory=off` in
/// information-set MCTS, `calibrate=off` in MCTS), to measure what they bring.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchParts {
    pub null_move: bool,
    pub aspiration: bool,
    pub check_extension: bool,
    /// Threads of one search do not put off the moves another is searching.
    pub defer: bool,
    /// Sample hidden cards from the position alone, forgetting what the
    /// game's past showed (the information-set player before it knew).
    pub memory: bool,
    /// Judge cut-off playouts as if 400 centi-units were 10 to 1, not with
    /// the scale fitted with the weights.
    pub calibrate: bool,
}

impl From<AgentKind> for AgentSpec {
    fn from(kind: AgentKind) -> AgentSpec {
        AgentSpec {
            kind,
            eval: None,
            threads: None,
            nodes: None,
            off: SearchParts::default(),
            cutoff: None,
            lazy: Lazy::GameMargin,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SpecError {
    #[error("unknown player {0:?}; expected random, greedy, alphabeta[:DEPTH], mcts[:PLAYOUTS], ismcts[:PLAYOUTS] or ai[:LEVEL] (levels: {levels}), with options after a comma: eval=tuned|learned|handwritten, threads=N, nodes=N, null=off, aspiration=off, checks=off, defer=off, memory=off, calibrate=off, cutoff=N, lazy=N|off", levels = Level::names().join(", "))]
    Unknown(String),
    #[error("player {text:?}: {problem}")]
    BadValue { text: String, problem: String },
}

impl AgentSpec {
    /// The level of that name (names are checked by [`AgentSpec::parse`]).
    pub fn level(name: &str) -> AgentSpec {
        AgentKind::Level(name.to_owned()).into()
    }

    /// Reads `NAME[:VALUE][,OPTION...]` or `NAME:OPTION[,OPTION...]`: the
    /// names `random`, `greedy`, `alphabeta` (or `ab`), `mcts`, `ismcts`,
    /// `ai`; the value a depth, a playout count or a level; the options
    /// `eval=tuned|learned|handwritten`, `threads=N`, `nodes=N` (a node budget per
    /// move in place of time) and `null=`, `aspiration=`, `checks=`,
    /// `defer=` `on` or `off` (alpha-beta's null move, aspiration windows,
    /// check extension, threads putting off each other's moves),
    /// `memory=on|off` (information-set MCTS: whether its samples keep
    /// what the game's past made public), `calibrate=on|off` (MCTS: whether
    /// a cut-off playout's score becomes a win chance with the scale fitted
    /// with the weights), `cutoff=N` (MCTS: playouts stop
    /// after N plies and are judged by the evaluation; 0 judges at once),
    /// `lazy=N` (alpha-beta with `eval=learned`: the network is left out
    /// where the tuned evaluation is more than N centi-units outside the
    /// window; by default the game's measured margin, `lazy=off` never).
    pub fn parse(text: &str) -> Result<AgentSpec, SpecError> {
        let bad = |problem: String| SpecError::BadValue { text: text.to_owned(), problem };
        let (name, rest) = match text.split_once(':') {
            Some((n, r)) => (n, Some(r)),
            None => (text, None),
        };
        let mut value = None;
        let mut eval = None;
        let mut threads = None;
        let mut nodes = None;
        let mut off = SearchParts::default();
        let mut cutoff = None;
        let mut lazy = Lazy::GameMargin;
        let switch = |name: &str, value: &str| match value {
            "on" => Ok(false),
            "off" => Ok(true),
            _ => Err(bad(format!("{name} must be on or off, not {value:?}"))),
        };
        for (index, item) in rest.into_iter().flat_map(|r| r.split(',')).enumerate() {
            match item.split_once('=') {
                Some(("eval", kind)) => {
                    eval = Some(EvalKind::parse(kind).ok_or_else(|| {
                        bad(format!("unknown evaluation {kind:?}; expected {}", EvalKind::NAMES.join(" or ")))
                    })?);
                }
                Some(("threads", n)) => {
                    let n = n.parse::<usize>().ok().filter(|n| (1..=MAX_THREADS).contains(n));
                    threads = Some(n.ok_or_else(|| bad(format!("threads must be 1 to {MAX_THREADS}")))?);
                }
                Some(("nodes", n)) => {
                    let n = n.parse::<u64>().ok().filter(|&n| n > 0);
                    nodes = Some(n.ok_or_else(|| bad("nodes must be a positive number".into()))?);
                }
                Some(("null", v)) => off.null_move = switch("null", v)?,
                Some(("aspiration", v)) => off.aspiration = switch("aspiration", v)?,
                Some(("checks", v)) => off.check_extension = switch("checks", v)?,
                Some(("defer", v)) => off.defer = switch("defer", v)?,
                Some(("memory", v)) => off.memory = switch("memory", v)?,
                Some(("calibrate", v)) => off.calibrate = switch("calibrate", v)?,
                Some(("cutoff", n)) => {
                    let n = n.parse::<u32>().ok().filter(|&n| n <= MAX_CUTOFF);
                    cutoff = Some(n.ok_or_else(|| bad(format!("cutoff must be 0 to {MAX_CUTOFF} plies")))?);
                }
                Some(("lazy", "off")) => lazy = Lazy::Off,
                Some(("lazy", n)) => {
                    let n = n.parse::<u32>().ok().filter(|&n| n <= MAX_LAZY_MARGIN);
                    lazy = Lazy::Margin(
                        n.ok_or_else(|| bad(format!("lazy must be off or 0 to {MAX_LAZY_MARGIN} centi-units")))?,
                    );
                }
                Some((option, _)) => {
                    return Err(bad(format!(
                        "unknown option {option:?}; options: eval, threads, nodes, null, aspiration, checks, defer, memory, calibrate, cutoff, lazy"
                    )))
                }
                None if index == 0 => value = Some(item),
                None => return Err(bad(format!("{item:?} is not an option (options are name=value)"))),
            }
        }
        let number = |what: &str| -> Result<Option<u64>, SpecError> {
            value
                .map(|v| {
                    v.parse::<u64>()
                        .ok()
                        .filter(|&n| n > 0)
                        .ok_or_else(|| bad(format!("{what} must be a positive number, not {v:?}")))
                })
                .transpose()
        };
        let no_value = |kind: AgentKind| match value {
            Some(_) => Err(bad("takes no value".into())),
            None => Ok(kind),
        };
        let kind = match name {
            "random" => no_value(AgentKind::Random)?,
            "greedy" => no_value(AgentKind::Greedy)?,
            "alphabeta" | "ab" => AgentKind::AlphaBeta { depth: number("the depth")?.map(|d| d.min(100) as u32) },
            "mcts" => AgentKind::Mcts { playouts: number("the number of playouts")? },
            "ismcts" => AgentKind::InformationSetMcts { playouts: number("the number of playouts")? },
            "ai" => {
                let level = value.unwrap_or(DEFAULT_LEVEL);
                if !Level::names().contains(&level) {
                    return Err(bad(format!("unknown level {level:?}; levels: {}", Level::names().join(", "))));
                }
                AgentKind::Level(level.to_owned())
            }
            _ => return Err(SpecError::Unknown(text.to_owned())),
        };
        let spec = AgentSpec { kind, eval, threads, nodes, off, cutoff, lazy };
        if matches!(spec.kind, AgentKind::Random) && spec != AgentKind::Random.into() {
            return Err(bad("a random player takes no options".into()));
        }
        if (spec.off.memory || spec.off.calibrate || spec.cutoff.is_some())
            && matches!(spec.kind, AgentKind::Greedy | AgentKind::AlphaBeta { .. })
        {
            return Err(bad("memory, calibrate and cutoff are options of the MCTS players (ismcts, mcts, ai)".into()));
        }
        let lazy_named = spec.lazy != Lazy::GameMargin;
        if lazy_named && !matches!(spec.kind, AgentKind::AlphaBeta { .. }) {
            return Err(bad("lazy is an option of the alpha-beta player (alphabeta)".into()));
        }
        if lazy_named && spec.eval != Some(EvalKind::Learned) {
            return Err(bad("lazy leaves out the learned evaluation's network: it needs eval=learned".into()));
        }
        Ok(spec)
    }

    /// Whether a depth limit stops this player's search: alpha-beta's
    /// does; MCTS counts playouts and time, and would never stop on depth.
    pub fn searches_by_depth<G: Game>(&self) -> bool {
        match &self.kind {
            AgentKind::AlphaBeta { .. } => true,
            AgentKind::Level(name) => {
                Level::for_game::<G>(name).is_some_and(|level| level.algorithm == Algorithm::AlphaBeta)
            }
            AgentKind::Random | AgentKind::Greedy | AgentKind::Mcts { .. } | AgentKind::InformationSetMcts { .. } => {
                false
            }
        }
    }

    /// The budget of one move: a fixed depth or playout count when the spec
    /// names one, else `time` (one second if not given). A level's own
    /// time gives way to `time` when that is given (its depth or playout
    /// count stays). Times are per turn: in Kelasu, the actions of one turn
    /// share them.
    pub fn limits<G: Game>(&self, time: Option<Duration>) -> Limits {
        let mut limits = self.own_limits::<G>(time);
        if let (Some(n), false) = (self.nodes, matches!(self.kind, AgentKind::Random | AgentKind::Greedy)) {
            limits.nodes = Some(n);
            limits.time = None;
            limits.per_turn = false;
        }
        limits
    }

    fn own_limits<G: Game>(&self, time: Option<Duration>) -> Limits {
        let timed = Limits { time: Some(time.unwrap_or(Duration::from_secs(1))), per_turn: true, ..Limits::default() };
        match &self.kind {
            AgentKind::Random | AgentKind::Greedy => Limits::default(),
            AgentKind::AlphaBeta { depth: Some(d) } => Limits::depth(*d),
            AgentKind::Mcts { playouts: Some(n) } | AgentKind::InformationSetMcts { playouts: Some(n) } => {
                Limits::nodes(*n)
            }
            AgentKind::AlphaBeta { depth: None }
            | AgentKind::Mcts { playouts: None }
            | AgentKind::InformationSetMcts { playouts: None } => timed,
            AgentKind::Level(name) => {
                let level = Level::for_game::<G>(name).expect("level names were checked when parsed");
                // A given time replaces the level's; its depth or playout
                // count stays (they are what make the weak levels weak).
                Limits {
                    time: time.or(level.time_ms.map(Duration::from_millis)),
                    depth: level.depth,
                    nodes: level.playouts,
                    per_turn: true,
                    near_best: None,
                }
            }
        }
    }

    /// The threads the player searches with: its own option, else its
    /// level's (as many as this machine has), else one.
    pub fn threads<G: Game>(&self) -> usize {
        match (&self.kind, self.threads) {
            (_, Some(n)) => n,
            (AgentKind::Level(name), None) => Level::for_game::<G>(name).map_or(1, |l| l.threads_here()),
            _ => 1,
        }
    }

    /// The evaluation the player judges positions with: the one named, else
    /// for a level its game's stated in `data/ratings.toml` (the learned
    /// one where it was measured stronger), else the tuned one.
    pub fn evaluation<G: Game>(&self) -> EvalKind {
        match (&self.eval, &self.kind) {
            (Some(eval), _) => eval.clone(),
            (None, AgentKind::Level(_)) => {
                let game = G::VARIANTS.first().map_or("", |variant| variant.game());
                RatingsFile::built_in().level_evaluation(game)
            }
            (None, _) => EvalKind::Tuned,
        }
    }

    /// The alpha-beta player's lazy margin in `G` with the learned
    /// evaluation: `lazy=N`, or none for `lazy=off`, or the game's own.
    pub fn lazy_margin<G: Evaluate>(&self) -> Option<i32> {
        match self.lazy {
            Lazy::GameMargin => G::LEARNED_LAZY_MARGIN,
            Lazy::Margin(n) => Some(n as i32),
            Lazy::Off => None,
        }
    }

    /// Builds the player; `seed` makes its random choices reproducible.
    pub fn build<G: Game + Evaluate>(&self, seed: u64) -> Box<dyn Agent<G>> {
        let threads = self.threads::<G>();
        let eval = &self.evaluation::<G>();
        let mcts = |information_set: bool, playout_cutoff: Option<u32>| -> Box<dyn Agent<G>> {
            let trees = (0..threads as u64)
                .map(|i| {
                    Mcts::new(MctsConfig {
                        information_set,
                        playout_cutoff: self.cutoff.or(playout_cutoff),
                        seed: seed.wrapping_add(i.wrapping_mul(0x9e37_79b9_7f4a_7c15)),
                        eval: eval.clone(),
                        remember_public: !self.off.memory,
                        calibrated: !self.off.calibrate,
                        ..MctsConfig::default()
                    })
                })
                .collect();
            Box::new(MctsAgent { trees })
        };
        let alphabeta = || -> Box<dyn Agent<G>> {
            let config = AlphaBetaConfig {
                seed,
                threads,
                eval: eval.clone(),
                null_move: !self.off.null_move,
                aspiration: !self.off.aspiration,
                check_extension: !self.off.check_extension,
                defer: !self.off.defer,
                lazy_margin: self.lazy_margin::<G>(),
                ..Default::default()
            };
            Box::new(AlphaBetaAgent(AlphaBeta::new(config)))
        };
        match &self.kind {
            AgentKind::Random => Box::new(RandomAgent::new(seed)),
            AgentKind::Greedy => Box::new(Greedy::with_eval(seed, eval.clone())),
            AgentKind::AlphaBeta { .. } => alphabeta(),
            AgentKind::Mcts { .. } => mcts(false, None),
            // Games with hidden cards run long; their playouts stop early
            // and are judged by the evaluation, as the levels do.
            AgentKind::InformationSetMcts { .. } => mcts(true, Some(HIDDEN_INFORMATION_PLAYOUT_CUTOFF)),
            AgentKind::Level(name) => {
                let level = Level::for_game::<G>(name).expect("level names were checked when parsed");
                match level.algorithm {
                    Algorithm::Random => Box::new(RandomAgent::new(seed)),
                    Algorithm::Greedy => Box::new(Greedy::with_eval(seed, eval.clone())),
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
        let (name, value) = match &self.kind {
            AgentKind::Random => ("random", None),
            AgentKind::Greedy => ("greedy", None),
            AgentKind::AlphaBeta { depth } => ("alphabeta", depth.map(|d| d.to_string())),
            AgentKind::Mcts { playouts } => ("mcts", playouts.map(|n| n.to_string())),
            AgentKind::InformationSetMcts { playouts } => ("ismcts", playouts.map(|n| n.to_string())),
            AgentKind::Level(level) => ("ai", Some(level.clone())),
        };
        let mut items: Vec<String> = value.into_iter().collect();
        if let Some(eval) = &self.eval {
            items.push(format!("eval={eval}"));
        }
        if let Some(n) = self.threads {
            items.push(format!("threads={n}"));
        }
        if let Some(n) = self.nodes {
            items.push(format!("nodes={n}"));
        }
        if let Some(n) = self.cutoff {
            items.push(format!("cutoff={n}"));
        }
        match self.lazy {
            Lazy::GameMargin => {}
            Lazy::Margin(n) => items.push(format!("lazy={n}")),
            Lazy::Off => items.push("lazy=off".to_owned()),
        }
        for (name, off) in [
            ("null", self.off.null_move),
            ("aspiration", self.off.aspiration),
            ("checks", self.off.check_extension),
            ("defer", self.off.defer),
            ("memory", self.off.memory),
            ("calibrate", self.off.calibrate),
        ] {
            if off {
                items.push(format!("{name}=off"));
            }
        }
        f.write_str(name)?;
        if !items.is_empty() {
            write!(f, ":{}", items.join(","))?;
        }
        Ok(())
    }
}
