//! The commands of the computer opponent, driven as a user or a program
//! would: `engine` as a child process speaking the protocol, `analyse`,
//! `play` fed from stdin, `selfplay`, `bench --playouts`. They run on every
//! registered game of perfect information (the start position needs no deal).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Output, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::thread;
use std::time::Duration;

fn menagerie(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_menagerie")).args(args).output().expect("the binary runs")
}

fn menagerie_with_input(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_menagerie"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

/// The registered variants whose start has a player to act (a start that
/// chance deals first has no move for an engine to choose).
fn variants() -> Vec<String> {
    let out = stdout(&menagerie(&["variants"]));
    let ids: Vec<String> = out
        .lines()
        .filter(|l| !l.starts_with(' '))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|id| {
            let view: serde_json::Value = serde_json::from_str(&stdout(&menagerie(&["show", id, "--json"]))).unwrap();
            view["to_act"] != "chance"
        })
        .map(str::to_owned)
        .collect();
    assert!(!ids.is_empty(), "no game starts with a player's move");
    ids
}

fn legal_moves(variant: &str, position: Option<&str>) -> Vec<String> {
    let mut args = vec!["moves", variant];
    if let Some(p) = position {
        args.extend(["--position", p]);
    }
    stdout(&menagerie(&args)).lines().map(str::to_owned).collect()
}

/// The position text after playing `moves` from the start.
fn text_after(variant: &str, moves: &[&str]) -> String {
    let mut args = vec!["show", variant, "--text"];
    if !moves.is_empty() {
        args.push("--moves");
        args.extend(moves);
    }
    stdout(&menagerie(&args)).lines().last().unwrap().to_owned()
}

/// A running `menagerie engine`, read line by line on a thread.
struct Engine {
    child: Child,
    input: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_menagerie"))
            .arg("engine")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("the engine starts");
        let input = child.stdin.take().unwrap();
        let output = BufReader::new(child.stdout.take().unwrap());
        let (send, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in output.lines() {
                if send.send(line.unwrap()).is_err() {
                    break;
                }
            }
        });
        Engine { child, input, lines }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.input, "{line}").unwrap();
        self.input.flush().unwrap();
    }

    /// Lines up to and including the first that starts with `prefix`.
    fn until(&mut self, prefix: &str) -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            let line = self
                .lines
                .recv_timeout(Duration::from_secs(120))
                .unwrap_or_else(|_| panic!("no {prefix:?} line; got {seen:?}"));
            let done = line.starts_with(prefix);
            seen.push(line);
            if done {
                return seen;
            }
        }
    }

    fn best_move(&mut self) -> (Vec<String>, String) {
        let lines = self.until("bestmove");
        let best = lines.last().unwrap().strip_prefix("bestmove ").unwrap().to_owned();
        (lines, best)
    }

    fn quit(mut self) {
        self.send("quit");
        let status = self.child.wait().unwrap();
        assert!(status.success());
    }
}

#[test]
fn engine_answers_uci_and_isready() {
    let mut engine = Engine::start();
    engine.send("uci");
    let lines = engine.until("uciok");
    assert!(lines[0].starts_with("id name Menagerie"), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("option name Variant")), "{lines:?}");
    engine.send("isready");
    assert_eq!(engine.until("readyok"), vec!["readyok"]);
    engine.quit();
}

#[test]
fn engine_plays_legal_moves_in_every_game() {
    for variant in variants() {
        let mut engine = Engine::start();
        engine.send(&format!("setoption name Variant value {variant}"));
        engine.send("position startpos");
        engine.send("go depth 2");
        let (lines, best) = engine.best_move();
        assert!(lines.iter().any(|l| l.starts_with("info depth ")), "{variant}: {lines:?}");
        let info = lines.iter().find(|l| l.starts_with("info depth ")).unwrap();
        for word in ["score", "nodes", "nps", "pv"] {
            assert!(info.split_whitespace().any(|w| w == word), "{variant}: {info}");
        }
        assert!(legal_moves(&variant, None).contains(&best), "{variant}: {best}");

        // After that move, by `moves`, and from the position text.
        engine.send(&format!("position startpos moves {best}"));
        engine.send("go nodes 2000");
        let (_, reply) = engine.best_move();
        let after = text_after(&variant, &[&best]);
        assert!(legal_moves(&variant, Some(&after)).contains(&reply), "{variant}: {reply} after {best}");
        engine.send(&format!("position text {after}"));
        engine.send("go movetime 50");
        let (_, reply) = engine.best_move();
        assert!(legal_moves(&variant, Some(&after)).contains(&reply), "{variant}: {reply} in {after}");
        engine.send(&format!("position fen {after}"));
        engine.send("go depth 1");
        engine.best_move();
        engine.quit();
    }
}

#[test]
fn engine_takes_chances_moves_in_the_position_and_decides_for_players_only() {
    let mut engine = Engine::start();
    engine.send("setoption name Variant value lunch");
    engine.send("position startpos");
    engine.send("go depth 1");
    let (lines, best) = engine.best_move();
    assert_eq!(best, "(none)");
    assert!(lines.iter().any(|l| l.contains("chance acts next")), "{lines:?}");
    let deal = "draw:jab draw:kick draw:dodge draw:block draw:humiliation";
    engine.send(&format!("position startpos moves {deal} {deal}"));
    engine.send("go depth 2");
    let (_, best) = engine.best_move();
    let dealt: Vec<&str> = deal.split(' ').chain(deal.split(' ')).collect();
    let after = text_after("lunch", &dealt);
    assert!(legal_moves("lunch", Some(&after)).contains(&best), "{best} in {after}");
    engine.quit();
}

#[test]
fn engine_stops_an_infinite_search_and_stays_ready_meanwhile() {
    let variant = &variants()[0];
    let mut engine = Engine::start();
    engine.send(&format!("setoption name Variant value {variant}"));
    engine.send("position startpos");
    engine.send("go infinite");
    thread::sleep(Duration::from_millis(200));
    engine.send("isready");
    let lines = engine.until("readyok");
    assert!(lines.iter().all(|l| !l.starts_with("bestmove")), "{lines:?}");
    engine.send("stop");
    let (_, best) = engine.best_move();
    assert!(legal_moves(variant, None).contains(&best));
    engine.quit();
}

#[test]
fn engine_reports_bad_lines_and_goes_on() {
    let variant = &variants()[0];
    let mut engine = Engine::start();
    for bad in [
        "frobnicate",
        "setoption name Variant value no-such-game",
        "setoption name Colour value green",
        "position",
        "position sideways",
        "position text this is not a position",
        "position startpos moves not-a-move",
        "go depth many",
        "go sideways",
        "setoption name Threads value 0",
        "setoption name Threads value lots",
        "setoption name Eval value clever",
    ] {
        engine.send(bad);
        let line = engine.until("info string error:").pop().unwrap();
        assert!(line.len() > "info string error: ".len(), "{bad}: {line}");
    }
    engine.send(&format!("setoption name Variant value {variant}"));
    engine.send("position startpos");
    engine.send("go depth 1");
    let (_, best) = engine.best_move();
    assert!(legal_moves(variant, None).contains(&best));
    engine.quit();
}

#[test]
fn engine_searches_on_two_threads_with_either_evaluation() {
    let variant = &variants()[0];
    let mut engine = Engine::start();
    engine.send("uci");
    let options = engine.until("uciok");
    assert!(options.iter().any(|l| l.starts_with("option name Threads type spin")), "{options:?}");
    assert!(options.iter().any(|l| l.starts_with("option name Eval type combo")), "{options:?}");
    engine.send(&format!("setoption name Variant value {variant}"));
    engine.send("setoption name Threads value 2");
    for eval in ["handwritten", "tuned"] {
        engine.send(&format!("setoption name Eval value {eval}"));
        engine.send("position startpos");
        engine.send("go depth 3");
        let (lines, best) = engine.best_move();
        assert!(legal_moves(variant, None).contains(&best), "{eval}: {best}");
        let depths: Vec<u32> = lines
            .iter()
            .filter_map(|l| l.strip_prefix("info depth "))
            .map(|rest| rest.split_whitespace().next().unwrap().parse().unwrap())
            .collect();
        assert!(depths.iter().all(|&d| d <= 3), "{eval}: {lines:?}");
        engine.send("go nodes 3000");
        let (_, best) = engine.best_move();
        assert!(legal_moves(variant, None).contains(&best));
    }
    engine.quit();
}

#[test]
fn engine_finishes_a_bounded_search_when_input_ends() {
    let variant = &variants()[0];
    let out = menagerie_with_input(&["engine"], &format!("setoption name Variant value {variant}\ngo depth 2\n"));
    assert!(out.status.success());
    let text = stdout(&out);
    let best = text.lines().last().unwrap();
    assert!(best.starts_with("bestmove "), "{text}");
}

#[test]
fn analyse_prints_move_score_line_and_speed() {
    for variant in variants() {
        let out = menagerie(&["analyse", &variant, "--depth", "2"]);
        assert!(out.status.success(), "{variant}");
        let text = stdout(&out);
        let best = text.lines().find_map(|l| l.strip_prefix("best move: ")).expect("a best move line");
        assert!(legal_moves(&variant, None).contains(&best.to_owned()), "{variant}: {best}");
        for key in ["score:", "pv:", "depth:", "nodes:", "nps:"] {
            assert!(text.lines().any(|l| l.starts_with(key)), "{variant}: no {key} in {text}");
        }
    }
    let bad = menagerie(&["analyse", "no-such-game"]);
    assert_eq!(bad.status.code(), Some(2));
    let bad = menagerie(&["analyse", &variants()[0], "--engine", "oracle"]);
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn play_reads_moves_from_stdin_and_explains_bad_ones() {
    let variant = &variants()[0];
    let first = legal_moves(variant, None).remove(0);
    let input = format!("help\nmoves\nnot-a-move\n{first}\nundo\n{first}\nquit\n");
    let out = menagerie_with_input(&["play", variant, "--white", "human", "--black", "random"], &input);
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(text.contains("not-a-move"), "{text}");
    assert!(text.contains("type `moves` for the legal moves"), "{text}");
    assert!(text.contains(&first), "{text}");
    assert!(text.contains("resigns"), "{text}");
    assert!(text.contains("To act:"), "{text}");

    let bad = menagerie(&["play", variant, "--black", "grandmaster"]);
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn play_between_computers_runs_to_the_end() {
    let variant = &variants()[0];
    let out = menagerie_with_input(&["play", variant, "--white", "random", "--black", "greedy", "--seed", "3"], "");
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(text.contains("Result:"), "{text}");
    assert!(text.contains(" plays "), "{text}");
}

#[test]
fn selfplay_prints_a_table_or_json() {
    for variant in variants() {
        let out = menagerie(&[
            "selfplay",
            &variant,
            "--games",
            "2",
            "--white",
            "greedy",
            "--black",
            "random",
            "--swap",
            "--json",
            "--progress",
        ]);
        assert!(out.status.success(), "{variant}");
        let json: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("JSON");
        let total = json["wins"].as_u64().unwrap() + json["draws"].as_u64().unwrap() + json["losses"].as_u64().unwrap();
        assert_eq!(total, 2, "{variant}");
        assert_eq!(json["results"].as_array().unwrap().len(), 2);
        assert!(json["average_plies"].as_f64().unwrap() > 0.0);
        // Progress as lines: one per game done (a hundredth of two).
        let log = String::from_utf8_lossy(&out.stderr);
        let lines: Vec<&str> = log.lines().filter(|l| l.starts_with("selfplay: ")).collect();
        assert_eq!(lines.len(), 2, "{log}");
        assert!(lines[1].starts_with("selfplay: 2/2 games (A +") && lines[1].ends_with(" elapsed"), "{log}");
    }
    let variant = &variants()[0];
    let out =
        menagerie(&["selfplay", variant, "--games", "2", "--white", "mcts:20", "--black", "random", "--seed", "5"]);
    assert!(out.status.success());
    let text = stdout(&out);
    for word in ["wins", "draws", "losses", "95% interval", "Elo", "average length"] {
        assert!(text.contains(word), "{word} in {text}");
    }
    let bad = menagerie(&["selfplay", variant, "--white", "nobody", "--black", "random"]);
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn bench_measures_playouts_and_search() {
    let variant = &variants()[0];
    let out = menagerie(&["bench", variant, "--playouts", "--search", "--seconds", "0.05"]);
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(text.contains("plies/s"), "{text}");
    assert!(text.contains("nodes/s"), "{text}");
}

#[test]
fn bench_plays_a_given_number_of_playouts_the_same_every_run() {
    let row = |games: &str| {
        let out = menagerie(&["bench", "lunch", "--playouts", "--games", games]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let text = stdout(&out);
        let row = text.lines().find(|l| l.starts_with("lunch ")).expect("a row").to_owned();
        let fields: Vec<String> = row.split_whitespace().map(str::to_owned).collect();
        (fields[1].clone(), fields[2].clone())
    };
    let (games, plies) = row("30");
    assert_eq!(games, "30");
    assert_eq!(row("30"), (games, plies.clone()), "the same games every run");
    let (_, more) = row("60");
    assert!(more.parse::<u64>().unwrap() > plies.parse::<u64>().unwrap(), "{more} plies in 60 games, {plies} in 30");
    let without_playouts = menagerie(&["bench", "lunch", "--games", "30"]);
    assert_eq!(without_playouts.status.code(), Some(2));
    let none = menagerie(&["bench", "lunch", "--playouts", "--games", "0"]);
    assert_eq!(none.status.code(), Some(2));
}

#[test]
fn the_new_commands_have_help() {
    for command in ["analyse", "play", "selfplay", "engine"] {
        let out = menagerie(&[command, "--help"]);
        assert!(out.status.success(), "{command} --help");
        assert!(stdout(&out).contains("Usage"), "{command} --help");
    }
}

#[test]
fn chance_deals_lunch_chess_for_analyse_and_selfplay() {
    let out = menagerie(&["analyse", "lunch", "--seed", "3", "--engine", "alphabeta", "--depth", "2"]);
    assert!(out.status.success());
    let text = stdout(&out);
    let best = text.lines().find_map(|l| l.strip_prefix("best move: ")).expect("a best move line");
    let dealt = stdout(&menagerie(&["show", "lunch", "--seed", "3", "--text"])).lines().last().unwrap().to_owned();
    assert!(legal_moves("lunch", Some(&dealt)).contains(&best.to_owned()), "{best} in {dealt}");
    let undealt = stdout(&menagerie(&["analyse", "lunch", "--depth", "2"]));
    assert!(undealt.contains("chance acts next"), "{undealt}");
    let out = menagerie(&["selfplay", "lunch", "--games", "2", "--white", "random", "--black", "random", "--json"]);
    assert!(out.status.success());
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("JSON");
    let lengths: Vec<u64> = json["results"].as_array().unwrap().iter().map(|r| r["plies"].as_u64().unwrap()).collect();
    assert_eq!(lengths.len(), 2);
    assert_ne!(lengths[0], lengths[1], "each game is dealt and drawn anew");
}

#[test]
fn analyse_refuses_a_depth_that_would_never_stop_mcts() {
    // Lunch Chess's own searcher is information-set MCTS: it counts
    // playouts and time, so a depth alone would leave it searching forever.
    let out = menagerie(&["analyse", "lunch", "--seed", "3", "--depth", "3"]);
    assert_eq!(out.status.code(), Some(2));
    let error = String::from_utf8_lossy(&out.stderr);
    assert!(error.contains("--depth") && error.contains("--nodes"), "{error}");
    let bounded = menagerie(&["analyse", "lunch", "--seed", "3", "--depth", "3", "--nodes", "200"]);
    assert!(bounded.status.success(), "{}", String::from_utf8_lossy(&bounded.stderr));
}

#[test]
fn play_does_not_print_the_cards_chance_deals() {
    let out =
        menagerie_with_input(&["play", "lunch", "--white", "human", "--black", "random", "--seed", "2"], "quit\n");
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(text.contains("chance moves"), "{text}");
    assert!(!text.contains("draw:"), "a dealt card was shown: {text}");
}
