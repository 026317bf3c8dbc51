//! `menagerie engine`: a UCI-style line protocol on stdin/stdout (see the
//! README's "Engine protocol" section).
//!
//! The main thread reads commands; `go` runs the search on a second thread
//! that prints `info` lines and `bestmove`, so `stop` and `isready` are
//! answered while it thinks.

use crate::analyse::default_engine;
use crate::error::CliError;
use crate::output::send;
use menagerie_ai::{Agent, AgentKind, AgentSpec, EvalKind, Limits, StopFlag};
use menagerie_core::{Actor, Evaluate, Game, GameVisitor, Present, VariantSpec};
use std::io::{self, BufRead};
use std::thread::{self, JoinHandle};
use std::time::Duration;

const DEFAULT_VARIANT: &str = "lma";
const ALGORITHMS: [&str; 4] = ["auto", "alphabeta", "mcts", "ismcts"];
/// The most threads `setoption name Threads` accepts.
const MAX_THREADS: usize = 256;

/// A game and a searcher for it, behind an object-safe face.
trait Session: Send {
    /// Sets the position: `None` is the start (before any deal: chance's
    /// moves come in `moves` like the players'); then plays `moves`.
    fn set_position(&mut self, text: Option<&str>, moves: &[&str]) -> Result<(), String>;
    /// Searches, printing `info` lines and then `bestmove`.
    fn go(&mut self, limits: Limits, stop: &StopFlag);
    fn new_game(&mut self);
    fn describe(&self) -> String;
}

struct TypedSession<G: Game + Evaluate + Present> {
    variant: G::Variant,
    game: G,
    spec: AgentSpec,
    agent: Box<dyn Agent<G>>,
}

impl<G: Game + Evaluate + Present> Session for TypedSession<G> {
    fn set_position(&mut self, text: Option<&str>, moves: &[&str]) -> Result<(), String> {
        let mut game = match text {
            None => G::start(&self.variant, 0),
            Some(text) => G::from_text(&self.variant, text).map_err(|e| e.to_string())?,
        };
        for (index, text) in moves.iter().enumerate() {
            let mv = game.parse_move(text).map_err(|e| format!("move {} ({text}): {e}", index + 1))?;
            game.play(mv);
        }
        self.game = game;
        Ok(())
    }

    fn go(&mut self, mut limits: Limits, stop: &StopFlag) {
        if self.game.outcome().is_some() {
            send("bestmove (none)");
            return;
        }
        if self.game.to_act() == Actor::Chance {
            send("info string error: chance acts next, not a player");
            send("bestmove (none)");
            return;
        }
        // MCTS has no depth: `go depth D` means D thousand playouts.
        if !matches!(self.spec.kind, AgentKind::AlphaBeta { .. }) {
            if let Some(depth) = limits.depth.take() {
                limits.nodes = Some(limits.nodes.unwrap_or(1000 * u64::from(depth)));
            }
        }
        let infinite = limits.is_infinite();
        let decision = self.agent.decide(&self.game, &limits, stop, &mut |info| send(info.protocol_line()));
        // `go infinite` answers only after `stop`, even when the search
        // ended early (a forced win found, every depth searched).
        while infinite && !stop.is_stopped() {
            std::thread::sleep(Duration::from_millis(5));
        }
        match decision.best {
            Some(mv) => send(format_args!("bestmove {}", self.game.move_text(mv))),
            None => send("bestmove (none)"),
        }
    }

    fn new_game(&mut self) {
        self.agent.new_game();
    }

    fn describe(&self) -> String {
        let mut out = crate::play::describe(&self.game, None);
        out.push_str(&self.game.to_text());
        out
    }
}

/// The engine's options besides the variant.
#[derive(Clone, Debug)]
struct Options {
    algorithm: String,
    seed: u64,
    threads: usize,
    eval: EvalKind,
}

/// Makes a session for a variant string and the engine's options.
fn new_session(variant: &str, options: &Options) -> Result<Box<dyn Session>, String> {
    struct Make<'a> {
        options: &'a Options,
    }
    impl GameVisitor for Make<'_> {
        type Output = Box<dyn Session>;
        fn visit<G: Game + Evaluate + Present>(self, variant: G::Variant) -> Box<dyn Session> {
            let options = self.options;
            let kind = match options.algorithm.as_str() {
                "alphabeta" => AgentKind::AlphaBeta { depth: None },
                "mcts" => AgentKind::Mcts { playouts: None },
                "ismcts" => AgentKind::InformationSetMcts { playouts: None },
                _ => default_engine::<G>().kind,
            };
            let spec =
                AgentSpec { eval: Some(options.eval.clone()), threads: Some(options.threads), ..AgentSpec::from(kind) };
            Box::new(TypedSession { game: G::start(&variant, 0), agent: spec.build::<G>(options.seed), spec, variant })
        }
    }
    let spec = VariantSpec::parse(variant).map_err(|e| e.to_string())?;
    menagerie_games::visit_with(&spec, &crate::files::DataFiles, Make { options }).map_err(|e| e.to_string())
}

/// A search running on its own thread; it hands the session back.
struct Running {
    handle: JoinHandle<Box<dyn Session>>,
    stop: StopFlag,
    infinite: bool,
}

struct Engine {
    variant: String,
    options: Options,
    /// `None` while a search holds it, or before the variant is valid.
    session: Option<Box<dyn Session>>,
    running: Option<Running>,
}

fn error(message: impl AsRef<str>) {
    send(format_args!("info string error: {}", message.as_ref()));
}

pub fn run() -> Result<(), CliError> {
    let options = Options { algorithm: "auto".into(), seed: 0, threads: 1, eval: EvalKind::Tuned };
    let mut engine = Engine { variant: String::new(), options, session: None, running: None };
    // The default variant may not be built into this binary: then the
    // first registered one.
    let default_variant = if menagerie_games::variants().iter().any(|v| v.id == DEFAULT_VARIANT) {
        DEFAULT_VARIANT.to_owned()
    } else {
        menagerie_games::variants().first().map(|v| v.id.to_owned()).unwrap_or_default()
    };
    if !default_variant.is_empty() {
        engine.set_variant(&default_variant);
    }
    for line in io::stdin().lock().lines() {
        let line = line.map_err(|e| CliError::Failed(format!("reading stdin: {e}")))?;
        if !engine.command(line.trim()) {
            return Ok(());
        }
    }
    // End of input: let a bounded search finish and print its move; stop
    // an infinite one.
    let infinite = engine.running.as_ref().is_some_and(|r| r.infinite);
    engine.finish_search(infinite);
    Ok(())
}

impl Engine {
    /// Obeys one line; false on `quit`.
    fn command(&mut self, line: &str) -> bool {
        let mut words = line.split_whitespace();
        let Some(command) = words.next() else { return true };
        let rest: Vec<&str> = words.collect();
        match command {
            "uci" => {
                send(format_args!("id name Menagerie {}", env!("CARGO_PKG_VERSION")));
                send("id author the Menagerie authors");
                let ids: Vec<&str> = menagerie_games::variants().iter().map(|v| v.id).collect();
                send(format_args!("option name Variant type string default {}", self.variant));
                send(format_args!("info string variants: {}", ids.join(" ")));
                send(format_args!(
                    "option name Algorithm type combo default auto{}",
                    ALGORITHMS.iter().map(|a| format!(" var {a}")).collect::<String>()
                ));
                send("option name Seed type spin default 0 min 0 max 4294967295");
                send(format_args!("option name Threads type spin default 1 min 1 max {MAX_THREADS}"));
                send("option name Eval type combo default tuned var tuned var handwritten");
                send("uciok");
            }
            "isready" => send("readyok"),
            "stop" => {
                self.finish_search(true);
            }
            "quit" => {
                self.finish_search(true);
                return false;
            }
            "ucinewgame" => {
                if self.finish_search(false) {
                    if let Some(session) = &mut self.session {
                        session.new_game();
                    }
                }
            }
            "setoption" => {
                if self.finish_search(false) {
                    self.set_option(&rest);
                }
            }
            "position" => {
                if self.finish_search(false) {
                    self.position(&rest);
                }
            }
            "go" => {
                if self.finish_search(false) {
                    self.go(&rest);
                }
            }
            "d" | "show" => {
                if self.finish_search(false) {
                    match &self.session {
                        Some(session) => send(session.describe()),
                        None => error("no variant set"),
                    }
                }
            }
            _ => error(format!("unknown command {command:?}")),
        }
        true
    }

    /// Waits for a running search (raising its stop flag first if `stop`);
    /// false, with an error, if it is an infinite search and not stopped.
    fn finish_search(&mut self, stop: bool) -> bool {
        let Some(running) = self.running.take() else { return true };
        if running.infinite && !stop {
            error("a search is running: send stop first");
            self.running = Some(running);
            return false;
        }
        if stop {
            running.stop.stop();
        }
        match running.handle.join() {
            Ok(session) => self.session = Some(session),
            Err(_) => error("the search failed"),
        }
        true
    }

    fn set_variant(&mut self, variant: &str) {
        match new_session(variant, &self.options) {
            Ok(session) => {
                self.variant = variant.to_owned();
                self.session = Some(session);
            }
            Err(e) => error(e),
        }
    }

    fn set_option(&mut self, words: &[&str]) {
        // setoption name <name...> value <value...>
        let value_at = words.iter().position(|w| w.eq_ignore_ascii_case("value"));
        if words.first().map(|w| w.eq_ignore_ascii_case("name")) != Some(true) || value_at.is_none_or(|v| v < 2) {
            return error("expected: setoption name <name> value <value>");
        }
        let value_at = value_at.expect("checked above");
        let name = words[1..value_at].join(" ");
        let value = words[value_at + 1..].join(" ");
        match name.to_ascii_lowercase().as_str() {
            "variant" => self.set_variant(&value),
            "algorithm" => {
                if !ALGORITHMS.contains(&value.as_str()) {
                    return error(format!("unknown algorithm {value:?}; expected one of {}", ALGORITHMS.join(", ")));
                }
                self.options.algorithm = value;
                self.rebuild();
            }
            "seed" => match value.parse() {
                Ok(seed) => {
                    self.options.seed = seed;
                    self.rebuild();
                }
                Err(_) => error(format!("Seed must be a number, not {value:?}")),
            },
            "threads" => match value.parse::<usize>() {
                Ok(threads) if (1..=MAX_THREADS).contains(&threads) => {
                    self.options.threads = threads;
                    self.rebuild();
                }
                _ => error(format!("Threads must be a number from 1 to {MAX_THREADS}, not {value:?}")),
            },
            "eval" => match EvalKind::parse(&value) {
                Some(eval) => {
                    self.options.eval = eval;
                    self.rebuild();
                }
                None => error(format!("unknown Eval {value:?}; expected {}", EvalKind::NAMES.join(" or "))),
            },
            _ => error(format!("unknown option {name:?}; options: Variant, Algorithm, Seed, Threads, Eval")),
        }
    }

    /// A new session with the current options (the position starts over).
    fn rebuild(&mut self) {
        let variant = self.variant.clone();
        self.set_variant(&variant);
    }

    fn position(&mut self, words: &[&str]) {
        let Some(session) = &mut self.session else { return error("no variant set: setoption name Variant value ID") };
        let moves_at = words.iter().position(|w| *w == "moves").unwrap_or(words.len());
        let moves = words.get(moves_at + 1..).unwrap_or(&[]);
        let text = match words.first().copied() {
            Some("startpos") if moves_at == 1 => None,
            Some("text" | "fen") if moves_at > 1 => Some(words[1..moves_at].join(" ")),
            _ => return error("expected: position startpos|text <position text> [moves m1 m2 ...]"),
        };
        if let Err(e) = session.set_position(text.as_deref(), moves) {
            error(e);
        }
    }

    fn go(&mut self, words: &[&str]) {
        let mut limits = Limits::default();
        let mut index = 0;
        while index < words.len() {
            let number = || words.get(index + 1).and_then(|w| w.parse::<u64>().ok());
            match words[index] {
                "infinite" => index += 1,
                word @ ("movetime" | "depth" | "nodes") => {
                    let Some(n) = number() else {
                        return error(format!("go {word} needs a number"));
                    };
                    match word {
                        "movetime" => limits.time = Some(Duration::from_millis(n)),
                        "depth" => limits.depth = Some(n.clamp(1, 100) as u32),
                        _ => limits.nodes = Some(n.max(1)),
                    }
                    index += 2;
                }
                other => {
                    return error(format!(
                        "unknown go parameter {other:?}; expected movetime, depth, nodes or infinite"
                    ))
                }
            }
        }
        let Some(mut session) = self.session.take() else {
            return error("no variant set: setoption name Variant value ID");
        };
        let stop = StopFlag::new();
        let infinite = limits.is_infinite();
        let thread_stop = stop.clone();
        let handle = thread::spawn(move || {
            session.go(limits, &thread_stop);
            session
        });
        self.running = Some(Running { handle, stop, infinite });
    }
}
