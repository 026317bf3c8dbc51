//! The commands that measure and improve strength: `tune` on a small
//! hand-made set of positions, `ladder` (round robin and ratings),
//! `selfplay` with games in parallel and intervals that stay finite, and
//! searches on several threads.

use menagerie_ai::EvalKind;
use menagerie_core::{Actor, Evaluate, Game, GameVisitor, Present, VariantSpec};
use menagerie_games::lichen::Lichen;
use menagerie_games::lma::Lma;
use rand::rngs::SmallRng;
use rand::SeedableRng;
use std::process::{Command, Output};

fn menagerie(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_menagerie")).args(args).output().expect("the binary runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).unwrap()
}

/// The number after `word` in `text`.
fn number_after(text: &str, word: &str) -> f64 {
    let rest = &text[text.find(word).unwrap_or_else(|| panic!("no {word:?} in {text}")) + word.len()..];
    let number: String =
        rest.trim_start().chars().take_while(|c| c.is_ascii_digit() || *c == '.' || *c == '-').collect();
    number.parse().unwrap_or_else(|_| panic!("no number after {word:?} in {text}"))
}

#[test]
fn the_tuner_lowers_its_error_on_a_hand_made_set() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("lma.toml");
    let positions = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/tune-lma.txt");
    let run =
        menagerie(&["tune", "lma", "--positions", positions, "--iterations", "300", "--out", out.to_str().unwrap()]);
    assert!(run.status.success(), "{}", stderr(&run));
    let text = stdout(&run);
    assert!(text.contains("21 positions"), "{text}");
    let before = number_after(&text, "error before");
    let after = number_after(&text, ", after");
    assert!(after < before, "the error went from {before} to {after}: {text}");
    // The file holds every feature, and says how it was made.
    let written = std::fs::read_to_string(&out).unwrap();
    assert!(written.contains("# Tuned by: menagerie tune lma --positions"), "{written}");
    menagerie_games::weights::parse(&written, Lma::FEATURES).expect("a complete weights file");
}

#[test]
fn the_tuner_labels_with_a_search_and_fits_only_the_features_named() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("lma.toml");
    let positions = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/tune-lma.txt");
    let args = ["tune", "lma", "--positions", positions, "--iterations", "300", "--label-nodes", "300"];
    let run = menagerie(&[&args[..], &["--only", "queen", "--out", out.to_str().unwrap()]].concat());
    assert!(run.status.success(), "{}", stderr(&run));
    let text = stdout(&run);
    assert!(text.contains("labelled 0.50 game result + 0.50 a 300-node search's expected score"), "{text}");
    let written = std::fs::read_to_string(&out).unwrap();
    let fitted = menagerie_games::weights::parse(&written, Lma::FEATURES).expect("a complete weights file");
    let queen = Lma::FEATURES.iter().position(|&f| f == "queen").expect("lma weighs queens");
    for (i, (before, after)) in Lma::weights().iter().zip(&fitted).enumerate() {
        if i != queen {
            assert_eq!(before, after, "{} moved: {written}", Lma::FEATURES[i]);
        }
    }
    assert_ne!(Lma::weights()[queen], fitted[queen], "{written}");
    // A feature the game does not have, and a share outside 0 to 1.
    let run = menagerie(&[&args[..], &["--only", "wizard", "--out", out.to_str().unwrap()]].concat());
    assert_eq!(run.status.code(), Some(2));
    assert!(stderr(&run).contains("no feature \"wizard\""), "{}", stderr(&run));
    let run = menagerie(&[&args[..], &["--result-weight", "1.5", "--out", out.to_str().unwrap()]].concat());
    assert_eq!(run.status.code(), Some(2));
}

#[test]
fn the_tuner_rejects_what_it_cannot_read() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, "2\trcqkcr/pppppp/6/6/6/6/6|6/6/6/6/6/PPPPPP/RCQKCR w KQkq 0 1\n").unwrap();
    let out = dir.path().join("w.toml");
    let run = menagerie(&["tune", "lma", "--positions", bad.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert_eq!(run.status.code(), Some(2));
    assert!(stderr(&run).contains("bad.txt:1"), "{}", stderr(&run));
    std::fs::write(&bad, "1\tnot a position\n").unwrap();
    let run = menagerie(&["tune", "lma", "--positions", bad.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert_eq!(run.status.code(), Some(2));
    assert!(!out.exists(), "nothing written after an error");
}

#[test]
fn self_play_tuning_writes_weights() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("lichen.toml");
    let positions = dir.path().join("positions.txt");
    let run = menagerie(&[
        "tune",
        "lichen-3x3",
        "--games",
        "6",
        "--nodes",
        "200",
        "--iterations",
        "50",
        "--jobs",
        "2",
        "--out",
        out.to_str().unwrap(),
        "--save-positions",
        positions.to_str().unwrap(),
    ]);
    assert!(run.status.success(), "{}", stderr(&run));
    let saved = std::fs::read_to_string(&positions).unwrap();
    assert!(saved.lines().count() > 6, "{saved}");
    assert!(saved.lines().all(|l| ["1\t", "0\t", "0.5\t"].iter().any(|p| l.starts_with(p))), "{saved}");
    assert!(std::fs::read_to_string(&out).unwrap().contains("[weights]"));
}

/// Plays random games and checks that the game's own weights, given at
/// run time (as `tune --spsa` gives its nudged ones), score every position
/// as the built-in evaluation does.
struct SameScores;

impl GameVisitor for SameScores {
    /// Positions compared, and how many of them doubled weights score otherwise.
    type Output = (usize, usize);

    fn visit<G: Game + Evaluate + Present>(self, variant: G::Variant) -> (usize, usize) {
        let given = EvalKind::Weights(G::weights().into());
        let doubled = EvalKind::Weights(G::weights().iter().map(|w| 2 * w).collect());
        let mut rng = SmallRng::seed_from_u64(3);
        let (mut scratch, mut compared, mut differed) = (Vec::new(), 0, 0);
        for seed in 0..4 {
            let mut game = G::start(&variant, seed);
            for _ in 0..60 {
                if game.outcome().is_some() {
                    break;
                }
                if let Actor::Player(_) = game.to_act() {
                    assert_eq!(given.of(&game), game.evaluate(), "{}", game.to_text());
                    compared += 1;
                    differed += usize::from(doubled.of(&game) != game.evaluate());
                }
                let Some(mv) = game.random_move(&mut rng, &mut scratch) else { break };
                game.play(mv);
            }
        }
        (compared, differed)
    }
}

#[test]
fn weights_given_at_run_time_score_as_the_built_in_ones() {
    for info in menagerie_games::variants() {
        let spec = VariantSpec::parse(info.id).unwrap();
        let (compared, differed) = menagerie_games::visit(&spec, SameScores).unwrap();
        assert!(compared > 20, "{}: only {compared} positions", info.id);
        // Other weights score otherwise.
        assert!(differed > compared / 2, "{}: doubled weights changed {differed} of {compared}", info.id);
    }
}

#[test]
fn tuning_by_play_moves_only_the_named_weights_and_says_how() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("lichen.toml");
    let args = ["tune", "lichen-3x3", "--spsa", "6", "--nodes", "200", "--jobs", "2", "--seed", "5"];
    let run = menagerie(&[&args[..], &["--only", "tempo,hand_token", "--out", out.to_str().unwrap()]].concat());
    assert!(run.status.success(), "{}", stderr(&run));
    let text = stdout(&run);
    assert!(text.contains("lichen-3x3: 6 pairs of games at 200 nodes a move"), "{text}");
    let written = std::fs::read_to_string(&out).unwrap();
    assert!(written.contains("tuned by play (SPSA)"), "{written}");
    assert!(written.contains("# Tuned by: menagerie tune lichen-3x3 --spsa 6"), "{written}");
    let tuned = menagerie_games::weights::parse(&written, Lichen::FEATURES).expect("a complete weights file");
    for (i, (before, after)) in Lichen::weights().iter().zip(&tuned).enumerate() {
        if !["tempo", "hand_token"].contains(&Lichen::FEATURES[i]) {
            assert_eq!(before, after, "{} moved: {written}", Lichen::FEATURES[i]);
        }
    }
    // Play and positions do not mix; a rate must be positive.
    let run = menagerie(&["tune", "lichen-3x3", "--spsa", "6", "--positions", "p.txt"]);
    assert_eq!(run.status.code(), Some(2), "{}", stderr(&run));
    let run = menagerie(&[&args[..], &["--spsa-rate", "0", "--out", out.to_str().unwrap()]].concat());
    assert_eq!(run.status.code(), Some(2), "{}", stderr(&run));
    assert!(stderr(&run).contains("--spsa-rate"), "{}", stderr(&run));
}

#[test]
fn a_ladder_rates_every_player_with_random_at_zero() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("ratings.toml");
    let run = menagerie(&[
        "ladder",
        "lichen-3x3",
        "greedy:eval=handwritten",
        "--games",
        "2",
        "--time",
        "5",
        "--jobs",
        "2",
        "--json",
        "--progress",
        "--save",
        save.to_str().unwrap(),
    ]);
    assert!(run.status.success(), "{}", stderr(&run));
    let json: serde_json::Value = serde_json::from_str(&stdout(&run)).expect("JSON");
    let ratings = json["ratings"].as_array().unwrap();
    let players: Vec<&str> = ratings.iter().map(|r| r["player"].as_str().unwrap()).collect();
    assert_eq!(players, ["random", "ai:easy", "ai:medium", "ai:hard", "ai:strongest", "greedy:eval=handwritten"]);
    assert_eq!(ratings[0]["elo"], 0.0);
    for r in ratings {
        let (elo, low, high) = (r["elo"].as_f64().unwrap(), r["low"].as_f64().unwrap(), r["high"].as_f64().unwrap());
        assert!(low <= elo && elo <= high, "{r}");
    }
    // 6 players: 15 pairings of 2 games each.
    let pairings = json["pairings"].as_array().unwrap();
    assert_eq!(pairings.len(), 15);
    // Progress as lines: one per game done (a hundredth of 30).
    let log = stderr(&run);
    let lines: Vec<&str> = log.lines().filter(|l| l.starts_with("ladder: ")).collect();
    assert_eq!(lines.len(), 30, "{log}");
    assert!(lines[29].starts_with("ladder: 30/30 games, "), "{log}");
    for p in pairings {
        let games = ["wins", "draws", "losses"].iter().map(|k| p[k].as_u64().unwrap()).sum::<u64>();
        assert_eq!(games, 2, "{p}");
    }
    // The levels' ratings are saved; the named player's are not.
    let saved = std::fs::read_to_string(&save).unwrap();
    assert!(saved.contains("[lichen-3x3]") && saved.contains("command = \"menagerie ladder lichen-3x3"), "{saved}");
    assert!(saved.contains("levels.strongest") && !saved.contains("levels.greedy"), "{saved}");
    // With the evaluation Lichen's levels play in this build.
    let lichen = menagerie_ai::level_ratings::RatingsFile::built_in().level_evaluation("lichen");
    assert!(saved.contains(&format!("measured_with = \"{lichen}\"")), "{saved}");

    let text = menagerie(&["ladder", "lichen-3x3", "--no-levels", "greedy", "--games", "2"]);
    assert!(text.status.success(), "{}", stderr(&text));
    assert!(text.stderr.is_empty(), "without --progress, stderr is for what went wrong: {}", stderr(&text));
    let table = stdout(&text);
    assert!(table.contains("random") && table.contains("greedy") && !table.contains("ai:easy"), "{table}");
    // Never the old collapsed interval of a clean sweep.
    assert!(!table.contains("100.0%, 100.0%]") && !table.contains("[  0.0%,   0.0%]"), "{table}");
    assert!(!table.contains("[+inf, +inf]") && !table.contains("[-inf, -inf]"), "{table}");
    assert_eq!(menagerie(&["ladder", "lichen-3x3", "--no-levels"]).status.code(), Some(2));
    assert_eq!(menagerie(&["ladder", "lichen-3x3", "nobody"]).status.code(), Some(2));
}

#[test]
fn an_adjacent_ladder_pairs_only_neighbours() {
    let run = menagerie(&[
        "ladder",
        "lichen-3x3",
        "--no-levels",
        "greedy",
        "mcts:20",
        "alphabeta:1",
        "--pairings",
        "adjacent",
        "--games",
        "2",
        "--json",
    ]);
    assert!(run.status.success(), "{}", stderr(&run));
    let json: serde_json::Value = serde_json::from_str(&stdout(&run)).expect("JSON");
    assert_eq!(json["pairing"], "adjacent players only");
    let pairs: Vec<(&str, &str)> = json["pairings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["a"].as_str().unwrap(), p["b"].as_str().unwrap()))
        .collect();
    assert_eq!(pairs, [("random", "greedy"), ("greedy", "mcts:20"), ("mcts:20", "alphabeta:1")]);
    // Each pairing also says its own head-to-head gap.
    for p in json["pairings"].as_array().unwrap() {
        let (elo, low, high) = (p["elo"].as_f64().unwrap(), p["low"].as_f64().unwrap(), p["high"].as_f64().unwrap());
        assert!(low < elo && elo < high && low.is_finite() && high.is_finite(), "{p}");
        let (wins, losses) = (p["wins"].as_u64().unwrap(), p["losses"].as_u64().unwrap());
        assert_eq!(elo > 0.0, wins > losses, "{p}");
    }
    // A chain still links every player to the anchor: all are rated.
    let ratings = json["ratings"].as_array().unwrap();
    assert_eq!(ratings.len(), 4);
    assert!(ratings.iter().all(|r| r["elo"].as_f64().is_some_and(f64::is_finite)), "{ratings:?}");
    let table =
        stdout(&menagerie(&["ladder", "lichen-3x3", "--no-levels", "greedy", "--pairings", "all", "--games", "2"]));
    assert!(table.contains("round robin"), "{table}");
    assert!(table.contains("random vs greedy: +") && table.contains(" Elo ["), "{table}");
    assert_eq!(menagerie(&["ladder", "lichen-3x3", "--pairings", "some"]).status.code(), Some(2));
}

#[test]
fn selfplay_runs_games_in_parallel_and_its_intervals_stay_finite() {
    let run = menagerie(&[
        "selfplay",
        "lichen-3x3",
        "--games",
        "4",
        "--white",
        "alphabeta:2",
        "--black",
        "random",
        "--swap",
        "--jobs",
        "2",
        "--json",
    ]);
    assert!(run.status.success(), "{}", stderr(&run));
    let json: serde_json::Value = serde_json::from_str(&stdout(&run)).expect("JSON");
    let total = ["wins", "draws", "losses"].iter().map(|k| json[k].as_u64().unwrap()).sum::<u64>();
    assert_eq!(total, 4);
    assert_eq!(json["results"].as_array().unwrap().len(), 4);
    // Wilson's interval: never collapsed at the edges (four games leave
    // room either way); in Elo a number wherever the score bound is inside
    // (0, 1), and "+inf"/"-inf" only for a bound of 100% or 0%.
    let score = json["score"].as_f64().unwrap();
    let (low, high) = (json["score_interval"][0].as_f64().unwrap(), json["score_interval"][1].as_f64().unwrap());
    assert!(low <= score && score <= high && high - low > 0.2, "{json}");
    for (bound, elo) in [(low, &json["elo_interval"][0]), (score, &json["elo"]), (high, &json["elo_interval"][1])] {
        if bound > 0.0 && bound < 1.0 {
            assert!(elo.as_f64().is_some_and(|e| e.is_finite() && e.abs() < 2000.0), "{json}");
        } else {
            assert_eq!(elo.as_str(), Some(if bound >= 1.0 { "+inf" } else { "-inf" }), "{json}");
        }
    }

    let table = stdout(&menagerie(&[
        "selfplay",
        "lichen-3x3",
        "--games",
        "2",
        "--white",
        "ai:easy",
        "--black",
        "random",
        "--jobs",
        "2",
    ]));
    // Never the old collapsed interval of a clean sweep.
    assert!(!table.contains("100.0%, 100.0%]") && !table.contains("[  0.0%,   0.0%]"), "{table}");
    assert!(!table.contains("[+inf, +inf]") && !table.contains("[-inf, -inf]"), "{table}");
    assert!(table.contains("95% interval"), "{table}");
}

#[test]
fn analyse_searches_on_two_threads() {
    let run = menagerie(&["analyse", "lma", "--depth", "4", "--threads", "2"]);
    assert!(run.status.success(), "{}", stderr(&run));
    let text = stdout(&run);
    assert!(text.contains("best move:"), "{text}");
    assert!(number_after(&text, "depth:") <= 4.0, "{text}");
    assert_eq!(menagerie(&["analyse", "lma", "--threads", "0"]).status.code(), Some(2));
    let run = menagerie(&["analyse", "lma", "--depth", "3", "--engine", "alphabeta:eval=handwritten,threads=2"]);
    assert!(run.status.success(), "{}", stderr(&run));
}
