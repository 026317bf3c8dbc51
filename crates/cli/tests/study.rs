//! `menagerie study`: a CI-sized study of every kind of run (fresh,
//! resumed, sharded and merged, compared), and the report's arithmetic on a
//! hand-made set of results.

use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output};

fn menagerie(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_menagerie")).args(args).output().expect("the binary runs")
}

fn ok(args: &[&str]) -> String {
    let out = menagerie(args);
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

fn report(dir: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).unwrap()).unwrap()
}

/// The games of a study, without their timings, in game order.
fn games(dir: &Path) -> Vec<Value> {
    let mut games: Vec<Value> = std::fs::read_to_string(dir.join("games.jsonl"))
        .unwrap()
        .lines()
        .map(|line| {
            let mut game: Value = serde_json::from_str(line).unwrap();
            game.as_object_mut().unwrap().remove("millis");
            game
        })
        .collect();
    games.sort_by_key(|g| g["index"].as_u64());
    games
}

const FAST: [&str; 6] = ["--nodes", "200", "--threads", "2", "--quiet", "--random-plies"];

fn study(variant: &str, games: &str, dir: &Path, extra: &[&str]) -> String {
    let mut args = vec!["study", variant, "--games", games, "--out", dir.to_str().unwrap()];
    args.extend(FAST);
    args.push("2");
    args.extend(extra);
    ok(&args)
}

#[test]
fn a_small_study_reports_resumes_and_merges_its_shards() {
    let tmp = tempfile::tempdir().unwrap();
    let whole = tmp.path().join("whole");
    let printed = study("lichen-3x3", "4", &whole, &[]);
    assert!(printed.contains("lichen-3x3: 4 games"), "{printed}");
    for file in ["study.json", "games.jsonl", "report.md", "report.json", "length.svg"] {
        assert!(whole.join(file).exists(), "{file}");
    }
    let first_four = games(&whole);
    assert_eq!(first_four.len(), 4);
    let r = report(&whole);
    let f = &r["first_player"];
    let (w, d, l) = (f["wins"].as_u64().unwrap(), f["draws"].as_u64().unwrap(), f["losses"].as_u64().unwrap());
    assert_eq!(w + d + l, 4);
    assert!(std::fs::read_to_string(whole.join("length.svg")).unwrap().starts_with("<svg"));
    assert!(std::fs::read_to_string(whole.join("report.md")).unwrap().contains("## Mechanics"));

    // A rerun asking for more games plays only the missing ones.
    study("lichen-3x3", "6", &whole, &[]);
    let six = games(&whole);
    assert_eq!(six.len(), 6);
    assert_eq!(&six[..4], &first_four[..]);

    // Two shards merged are the same games as one run (node limits make
    // the games independent of threads and runs).
    let (a, b, merged) = (tmp.path().join("a"), tmp.path().join("b"), tmp.path().join("merged"));
    study("lichen-3x3", "6", &a, &["--shard", "1/2"]);
    study("lichen-3x3", "6", &b, &["--shard", "2/2"]);
    assert_eq!(games(&a).len(), 3);
    let printed = ok(&["study", "merge", a.to_str().unwrap(), b.to_str().unwrap(), "--out", merged.to_str().unwrap()]);
    assert!(printed.contains("6 games"), "{printed}");
    assert_eq!(games(&merged), six);
    assert_eq!(report(&merged)["first_player"], report(&whole)["first_player"]);
}

#[test]
fn several_budgets_make_a_strength_ladder() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("ladder");
    let printed = ok(&[
        "study",
        "--compare",
        "lichen-3x3",
        "lichen-3x3:no-harvest",
        "--games",
        "3",
        "--nodes",
        "1000,100",
        "--threads",
        "2",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    for nodes in ["100", "1000"] {
        for variant in ["lichen-3x3", "lichen-3x3-no-harvest"] {
            let r = report(&out.join(format!("nodes-{nodes}")).join(variant));
            assert_eq!(r["settings"]["nodes"].as_u64().unwrap().to_string(), nodes);
            assert_eq!(r["games"], 3);
        }
        assert!(out.join(format!("nodes-{nodes}/compare.md")).exists());
    }
    let md = std::fs::read_to_string(out.join("strength.md")).unwrap();
    assert!(printed.contains("# Against strength"), "{printed}");
    assert!(md.contains("## `lichen-3x3`") && md.contains("## `lichen-3x3:no-harvest` against `lichen-3x3`"), "{md}");
    // Weakest first, then the conclusion rule's sentence.
    let (weak, strong) = (md.find("| 100 | 3 (").unwrap(), md.find("| 1000 | 3 (").unwrap());
    assert!(weak < strong, "{md}");
    assert!(md.contains("First player's edge. **"), "{md}");
    assert!(std::fs::read_to_string(out.join("strength.svg")).unwrap().starts_with("<svg"));
    let points: Value = serde_json::from_str(&std::fs::read_to_string(out.join("strength.json")).unwrap()).unwrap();
    assert_eq!(points.as_array().unwrap().len(), 4);
}

#[test]
fn compare_runs_each_variant_and_prints_differences() {
    let tmp = tempfile::tempdir().unwrap();
    let printed = study("lichen-3x3", "2", tmp.path(), &["--compare", "lichen-3x3:no-harvest"]);
    assert!(printed.contains("# Compared with `lichen-3x3`"), "{printed}");
    assert!(printed.contains("| `lichen-3x3:no-harvest` | 2 |"), "{printed}");
    assert!(tmp.path().join("lichen-3x3-no-harvest").join("report.json").exists());
    assert!(tmp.path().join("compare.md").exists());
}

#[test]
fn bad_study_arguments_are_bad_input() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("s");
    let d = dir.to_str().unwrap();
    for args in [
        vec!["study", "lichen", "--shard", "3/2"],
        vec!["study", "lichen", "--shard", "x"],
        vec!["study", "lichen", "lma"],
        vec!["study", "no-such-game", "--out", d],
        vec!["study", "lichen", "--player", "wizard"],
        vec!["study", "lichen", "--games", "0"],
    ] {
        let out = menagerie(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
    // A folder holding another study is not mixed into.
    study("lichen-3x3", "1", &dir, &[]);
    let out = menagerie(&["study", "lichen-3x3", "--games", "1", "--out", d, "--nodes", "300", "--quiet"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("other settings"));
    // An opening move that is not legal is named.
    let out = menagerie(&["study", "lichen", "--opening", "z9zz", "--out", tmp.path().join("o").to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("z9zz"));
}

/// A hand-made study: four games whose every figure is worked out below.
const SETTINGS: &str = r#"{"variant":"lichen-3x3","player":"alphabeta","time_ms":null,"nodes":200,"seed":1,
"opening":[],"random_plies":2,"max_plies":2000,"material_kinds":["token in hand"]}"#;

const GAMES: [&str; 4] = [
    r#"{"index":0,"first_score":1,"reason":"controls the enemy kingstone","plies":10,"legal":[10,20,30],"opening":["a1n","b3s"],"hashes":{"2":7,"4":70},"material":[],"mechanics":{"captures":2},"millis":5}"#,
    r#"{"index":1,"first_score":1,"reason":"controls the enemy kingstone","plies":20,"legal":[40,50,60],"opening":["a1n","c3s"],"hashes":{"2":8,"4":70},"material":[],"mechanics":{"captures":0},"millis":5}"#,
    r#"{"index":2,"first_score":0,"reason":"third occurrence of the same position","plies":30,"legal":[10,10,10],"opening":["a1n","b3s"],"hashes":{"2":7,"4":71},"material":[],"mechanics":{"captures":1},"millis":5}"#,
    r#"{"index":3,"first_score":1,"reason":"no token in hand to place","plies":40,"legal":[1,2,3],"opening":["b1n","b3s"],"hashes":{"2":9},"material":[],"mechanics":{"captures":3},"millis":5}"#,
];

#[test]
fn the_report_adds_up_on_hand_made_results() {
    let tmp = tempfile::tempdir().unwrap();
    let (src, out) = (tmp.path().join("src"), tmp.path().join("out"));
    std::fs::create_dir_all(&src).unwrap();
    std::fs::write(src.join("study.json"), SETTINGS).unwrap();
    std::fs::write(src.join("games.jsonl"), GAMES.join("\n") + "\n").unwrap();
    ok(&["study", "merge", src.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    let r = report(&out);
    let close = |v: &Value, x: f64| (v.as_f64().unwrap() - x).abs() < 5e-4;

    // 3 wins, 1 draw: score 3.5/4; Wilson with n = 4, p = 0.875:
    // centre (0.875 + 0.4802) / 1.9604 = 0.6913, half 0.9998 * sqrt(0.02734
    // + 0.06002) = 0.2954, so [0.3959, 0.9867].
    let f = &r["first_player"];
    assert_eq!((f["wins"].as_u64(), f["draws"].as_u64(), f["losses"].as_u64()), (Some(3), Some(1), Some(0)));
    assert!(close(&f["score"]["value"], 0.875) && close(&f["score"]["low"], 0.3959), "{f}");
    assert!(close(&f["score"]["high"], 0.9867), "{f}");
    // 3 decisive of 4.
    assert!(close(&f["decisive"]["value"], 0.75), "{f}");

    // Reasons, most frequent first, split by result.
    let reasons = r["reasons"].as_array().unwrap();
    assert_eq!(reasons[0]["reason"], "controls the enemy kingstone");
    assert_eq!((reasons[0]["games"].as_u64(), reasons[0]["first_wins"].as_u64()), (Some(2), Some(2)));
    assert_eq!(reasons.len(), 3);

    // Lengths 10, 20, 30, 40: mean 25, quartiles 17.5 / 25 / 32.5
    // (linear interpolation), sample sd 12.91, so the mean's margin is
    // 1.96 * 12.91 / 2 = 12.65.
    let l = &r["length"];
    assert!(close(&l["mean"], 25.0) && close(&l["median"], 25.0), "{l}");
    assert!(close(&l["lower_quartile"], 17.5) && close(&l["upper_quartile"], 32.5), "{l}");
    assert!(close(&l["mean_low"], 25.0 - 12.652), "{l}");
    let bins: u64 = l["histogram"].as_array().unwrap().iter().map(|b| b["games"].as_u64().unwrap()).sum();
    assert_eq!(bins, 4);

    // Legal moves by thirds of each game: the first entries 10, 40, 10, 1.
    let phases = r["legal_moves_by_phase"].as_array().unwrap();
    assert!(close(&phases[0]["mean_legal_moves"], 61.0 / 4.0), "{phases:?}");
    assert!(close(&phases[2]["mean_legal_moves"], (30.0 + 60.0 + 10.0 + 3.0) / 4.0), "{phases:?}");

    // Distinct positions: after 2 moves hashes 7, 8, 7, 9 (3 distinct of
    // 4); after 4 moves 70, 70, 71 (2 of 3).
    let diversity = r["diversity"].as_array().unwrap();
    assert_eq!(
        (diversity[0]["games_reaching"].as_u64(), diversity[0]["distinct_positions"].as_u64()),
        (Some(4), Some(3))
    );
    assert_eq!(
        (diversity[1]["games_reaching"].as_u64(), diversity[1]["distinct_positions"].as_u64()),
        (Some(3), Some(2))
    );

    // First moves: a1n three times (2 wins, 1 draw: 5/6), b1n once.
    let first = &r["first_moves"][0];
    assert_eq!((first["moves"].as_str(), first["games"].as_u64()), (Some("a1n"), Some(3)));
    assert!(close(&first["first_score"]["value"], 5.0 / 6.0));
    assert_eq!(r["openings"][0]["moves"], "a1n b3s");
    assert_eq!(r["openings"][0]["games"], 2);

    // Mechanics: 6 captures in 4 games, 3 games with any.
    let m = &r["mechanics"][0];
    assert_eq!(
        (m["name"].as_str(), m["total"].as_u64(), m["games_with_any"].as_u64()),
        (Some("captures"), Some(6), Some(3))
    );
    assert!(close(&m["per_game"], 1.5));
    assert!(r["piece_values"].is_null());
}

#[test]
fn every_variant_can_be_studied() {
    let tmp = tempfile::tempdir().unwrap();
    let listed = ok(&["variants"]);
    let ids: Vec<&str> =
        listed.lines().filter(|l| !l.starts_with(' ')).filter_map(|l| l.split_whitespace().next()).collect();
    assert!(ids.len() >= 9, "{listed}");
    for id in ids {
        let dir = tmp.path().join(id);
        let d = dir.to_str().unwrap();
        let args = ["study", id, "--games", "2", "--nodes", "50", "--max-plies", "40", "--out", d, "--quiet"];
        let printed = ok(&args);
        assert!(printed.contains(&format!("{id}: 2 games")), "{printed}");
        let r = report(&dir);
        assert_eq!(r["games"], 2, "{id}");
        assert!(!r["settings"]["material_kinds"].as_array().unwrap().is_empty(), "{id} reports no material");
        assert!(!r["mechanics"].as_array().unwrap().is_empty(), "{id} counts no mechanics");
    }
}

#[test]
fn a_temperature_makes_games_differ_and_replays_them() {
    let tmp = tempfile::tempdir().unwrap();
    let distinct = |dir: &Path| report(dir)["distinct_games"].as_u64().unwrap();
    // Without random moves the deterministic player plays one game again
    // and again; a temperature makes them differ, seed by seed.
    let run = |dir: &Path, temperature: &str| {
        let dir = dir.to_str().unwrap();
        ok(&["study", "lichen-3x3", "--games", "6", "--out", dir, "--nodes", "200", "--threads", "2", "--quiet"]
            .into_iter()
            .chain(["--random-plies", "0", "--temperature", temperature])
            .collect::<Vec<_>>())
    };
    let cold = tmp.path().join("cold");
    run(&cold, "0");
    assert_eq!(distinct(&cold), 1);
    let warm = tmp.path().join("warm");
    run(&warm, "40");
    assert!(distinct(&warm) >= 3, "{} distinct games", distinct(&warm));
    let settings: Value = serde_json::from_str(&std::fs::read_to_string(warm.join("study.json")).unwrap()).unwrap();
    assert_eq!(settings["temperature"], 40);
    assert!(std::fs::read_to_string(warm.join("report.md")).unwrap().contains("temperature 40"));
    // The same seeds play the same games: verify agrees, game for game.
    let out = menagerie(&["study", "verify", warm.to_str().unwrap(), "--games", "6", "--threads", "2"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
    // Only alpha-beta scores the near-best moves; a temperature is bounded.
    for args in [
        vec!["study", "lichen", "--player", "mcts:20", "--temperature", "10"],
        vec!["study", "lichen", "--temperature", "1000000"],
    ] {
        let out = menagerie(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("--temperature"), "{args:?}");
    }
}
