//! One analysis: the typed search of a position, its progress reported as
//! it goes.

use crate::store::player_str;
use menagerie_ai::{AgentKind, AgentSpec, Info, Limits, Score, StopFlag};
use menagerie_core::{Actor, DynGame, Erased, Evaluate, Game, GameVisitor, Present, VariantSpec};
use rand::Rng;
use serde::Serialize;

/// What a search has found so far.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Progress {
    pub depth: u32,
    pub seldepth: u32,
    /// From the view of the player to act: `{"cp": 35}`, `{"win": 3}`
    /// (wins in 3 moves of the game model) or `{"loss": 2}`.
    pub score: serde_json::Value,
    pub nodes: u64,
    pub nps: u64,
    /// The best line as move texts; its first move is `best`.
    pub pv: Vec<String>,
    pub best: Option<String>,
    /// The best line as the move list writes it ([`LineMove`]), as far as
    /// it may be told: in a game with hidden information only the moves of
    /// the player to act before anyone else's (the rest of a line is a
    /// guess at hidden cards, and playing it on the real position to name
    /// its moves would tell which guesses hold).
    pub line: Vec<LineMove>,
}

/// A move of the best line: its text, its short human form, whose turn it
/// belongs to and who makes it (as in a game's move list).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LineMove {
    pub text: String,
    pub label: String,
    pub side: Option<&'static str>,
    pub actor: &'static str,
}

/// Names the moves of `pv` from `game`, until one cannot be played (or, with
/// hidden information, until another actor's move).
fn line(game: &dyn DynGame, pv: &[String]) -> Vec<LineMove> {
    let mut game = game.box_clone();
    let first = game.to_act();
    let mut line = Vec::with_capacity(pv.len());
    for text in pv {
        let actor = game.to_act();
        if game.has_hidden_information() && actor != first {
            break;
        }
        let (Ok(label), side) = (game.move_label(text), game.on_turn()) else { break };
        if game.play(text).is_err() {
            break;
        }
        let actor = match actor {
            Actor::Player(p) => player_str(p),
            Actor::Chance => "chance",
        };
        line.push(LineMove { text: text.clone(), label, side: side.map(player_str), actor });
    }
    line
}

impl Progress {
    fn of(info: &Info, game: &dyn DynGame) -> Progress {
        let score = match info.score {
            Score::Cp(cp) => serde_json::json!({ "cp": cp }),
            Score::Win(n) => serde_json::json!({ "win": n }),
            Score::Loss(n) => serde_json::json!({ "loss": n }),
        };
        Progress {
            depth: info.depth,
            seldepth: info.seldepth,
            score,
            nodes: info.nodes,
            nps: info.nps(),
            pv: info.pv.clone(),
            best: info.pv.first().cloned(),
            line: line(game, &info.pv),
        }
    }
}

/// What an analysis reports, in order: any number of `Info`, then `Done`
/// (or `Failed` at once).
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    Info(Progress),
    /// The search ended (its limit, or stopped): the best move found and
    /// the last progress.
    Done {
        best: Option<String>,
        last: Option<Progress>,
    },
    Failed(String),
}

/// Searches `game` (the position behind texts) within `limits` on this
/// thread, until a limit or `stop`; reports through `report`. The searcher
/// is the one the game's levels use: alpha-beta, or information-set MCTS
/// where cards are hidden, which decides from the acting player's view.
pub fn analyse(game: &dyn DynGame, limits: Limits, stop: &StopFlag, report: &mut dyn FnMut(Event)) {
    let id = VariantSpec::parse(game.variant()).map(|spec| spec.id).unwrap_or_default();
    let searched =
        menagerie_games::visit(&VariantSpec::plain(&id), Search { game, limits, stop, report: &mut *report });
    if searched.ok().flatten().is_none() {
        report(Event::Failed(format!("positions of {} cannot be analysed here", game.variant())));
    }
}

struct Search<'a> {
    game: &'a dyn DynGame,
    limits: Limits,
    stop: &'a StopFlag,
    report: &'a mut dyn FnMut(Event),
}

impl GameVisitor for Search<'_> {
    /// `None` when the game is not the type the id names.
    type Output = Option<()>;
    fn visit<G: Game + Evaluate + Present>(self, _variant: G::Variant) -> Option<()> {
        let typed = self.game.as_any().downcast_ref::<Erased<G>>()?.game().clone();
        let report = self.report;
        let game = self.game;
        match (typed.outcome(), typed.to_act()) {
            (Some(outcome), _) => {
                report(Event::Failed(format!("the game is over: {outcome}")));
                return Some(());
            }
            (None, Actor::Chance) => {
                report(Event::Failed("chance acts next: there is nothing to decide".into()));
                return Some(());
            }
            (None, Actor::Player(_)) => {}
        }
        let kind = if G::has_hidden_information() {
            AgentKind::InformationSetMcts { playouts: None }
        } else {
            AgentKind::AlphaBeta { depth: None }
        };
        let spec = AgentSpec { threads: Some(1), ..AgentSpec::from(kind) };
        let mut agent = spec.build::<G>(rand::rng().random());
        let mut last = None;
        let decision = agent.decide(&typed, &self.limits, self.stop, &mut |info: &Info| {
            let progress = Progress::of(info, game);
            last = Some(progress.clone());
            report(Event::Info(progress));
        });
        let best = decision.best.map(|mv| typed.move_text(mv));
        let last = decision.info.as_ref().map(|info| Progress::of(info, game)).or(last);
        report(Event::Done { best, last });
        Some(())
    }
}
