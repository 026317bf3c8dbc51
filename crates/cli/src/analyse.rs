//! `menagerie analyse`: search one position and print the best move, its
//! score, the principal variation, depth, nodes and speed.

use crate::chance::SeededChance;
use crate::error::CliError;
use crate::typed::TypedCommand;
use menagerie_ai::{AgentKind, AgentSpec, Info, Limits, Score, StopFlag};
use menagerie_core::{Actor, Evaluate, Game, Present};
use std::time::Duration;

pub struct Analyse {
    pub time_ms: Option<u64>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// The searcher; by default alpha-beta, or information-set MCTS in games
    /// with hidden information.
    pub engine: Option<AgentSpec>,
    pub moves: Vec<String>,
    /// `--seed`: the searcher's random choices, and chance's (which then
    /// acts by itself: see `chance.rs`).
    pub seed: Option<u64>,
    /// Threads to search with (the engine's own when not given).
    pub threads: Option<usize>,
}

/// The default searcher for a game: what its levels use.
pub fn default_engine<G: Game>() -> AgentSpec {
    if G::has_hidden_information() {
        AgentKind::InformationSetMcts { playouts: None }.into()
    } else {
        AgentKind::AlphaBeta { depth: None }.into()
    }
}

impl TypedCommand for Analyse {
    type Output = Result<(), CliError>;

    fn run<G: Game + Evaluate + Present>(self, mut game: G, _variant: &str) -> Self::Output {
        crate::play::play_texts(&mut game, &self.moves, "--moves", &mut SeededChance::new(self.seed))?;
        let actor = match (game.outcome(), game.to_act()) {
            (Some(outcome), _) => {
                println!("the game is over: {outcome}");
                return Ok(());
            }
            (None, Actor::Chance) => {
                println!("chance acts next: nothing to decide (give chance's move, or --seed N to let it act)");
                return Ok(());
            }
            (None, Actor::Player(p)) => p,
        };
        let mut engine = self.engine.unwrap_or_else(default_engine::<G>);
        engine.threads = self.threads.or(engine.threads);
        if self.depth.is_some() && self.time_ms.is_none() && self.nodes.is_none() && !engine.searches_by_depth::<G>() {
            return Err(CliError::BadInput(format!(
                "--depth limits alpha-beta only; {} searches until --time or --nodes (playouts) runs out",
                engine
            )));
        }
        let given = Limits {
            time: self.time_ms.map(Duration::from_millis),
            depth: self.depth,
            nodes: self.nodes,
            per_turn: false,
            near_best: None,
        };
        // Without limits on the command line, the engine's own (mcts:1000,
        // alphabeta:6), or one second.
        let limits = if given.is_infinite() { engine.limits::<G>(None) } else { given };
        let mut agent = engine.build::<G>(self.seed.unwrap_or(0));
        let mut print_info = |info: &Info| println!("{}", info.protocol_line().trim_start_matches("info "));
        let decision = agent.decide(&game, &limits, &StopFlag::new(), &mut print_info);
        let Some(best) = decision.best else {
            return Err(CliError::Failed("the search found no move".into()));
        };
        println!("best move: {}", game.move_text(best));
        if let Some(info) = decision.info {
            let side = G::player_name(actor);
            let score = match info.score {
                Score::Cp(cp) => format!("{cp} centi-units for {side}"),
                Score::Win(n) => format!("{side} wins in {n} move{}", if n == 1 { "" } else { "s" }),
                Score::Loss(n) => format!("{side} loses in {n} move{}", if n == 1 { "" } else { "s" }),
            };
            println!("score:     {} ({score})", info.score);
            println!("pv:        {}", info.pv.join(" "));
            println!("depth:     {} (seldepth {})", info.depth, info.seldepth);
            println!("nodes:     {}", info.nodes);
            println!("nps:       {}", info.nps());
            println!("time:      {:.3} s", info.time.as_secs_f64());
        }
        Ok(())
    }
}
