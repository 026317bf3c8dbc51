//! `menagerie study verify`: a study records the build that made it and a
//! fingerprint of each game; verify plays the games again and fails on a
//! study that today's program (or its recorded settings) would not play.

use std::path::Path;
use std::process::{Command, Output};

fn menagerie(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_menagerie")).args(args).output().expect("the binary runs")
}

fn study(games: &str, dir: &Path, extra: &[&str]) {
    let mut args = vec!["study", "lichen-3x3", "--games", games, "--out", dir.to_str().unwrap()];
    args.extend(["--nodes", "200", "--threads", "2", "--quiet", "--random-plies", "2"]);
    args.extend(extra);
    let out = menagerie(&args);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

fn verify(dir: &Path, extra: &[&str]) -> (Option<i32>, String, String) {
    let mut args = vec!["study", "verify", dir.to_str().unwrap(), "--threads", "2"];
    args.extend(extra);
    let out = menagerie(&args);
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn digests(dir: &Path) -> Vec<String> {
    std::fs::read_to_string(dir.join("digests.txt")).unwrap().lines().map(str::to_owned).collect()
}

#[test]
fn a_study_records_its_build_and_verifies() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("s");
    study("6", &dir, &[]);
    let build: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("build.json")).unwrap()).unwrap();
    assert!(build["build"]["commit"].as_str().is_some_and(|c| !c.is_empty()), "{build}");
    assert!(build["commands"][0].as_str().unwrap().starts_with("menagerie study lichen-3x3 --games 6"), "{build}");
    let report = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(report.contains("Made by menagerie "), "{report}");
    assert!(report.contains("## How it was made"), "{report}");
    assert_eq!(digests(&dir).len(), 6);

    let (code, stdout, stderr) = verify(&dir, &[]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.contains("6 games played again, all the same"), "{stdout}");
    let (code, stdout, _) = verify(&dir, &["--games", "2"]);
    assert_eq!(code, Some(0));
    assert!(stdout.contains("2 games played again"), "{stdout}");
}

#[test]
fn the_recorded_command_runs_as_recorded() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("a2ne");
    let out = menagerie(&[
        "study",
        "lichen",
        "--opening",
        "a2ne;a2*ne",
        "--random-plies",
        "0",
        "--games",
        "1",
        "--nodes",
        "100",
        "--quiet",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let build: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("build.json")).unwrap()).unwrap();
    let command = build["commands"][0].as_str().unwrap();
    assert!(command.contains("--opening 'a2ne;a2*ne' --random-plies 0"), "{command}");
}

#[test]
fn the_first_games_do_not_depend_on_the_number_of_games_or_the_shards() {
    let tmp = tempfile::tempdir().unwrap();
    let (few, many, shard) = (tmp.path().join("few"), tmp.path().join("many"), tmp.path().join("shard"));
    study("3", &few, &[]);
    study("8", &many, &[]);
    study("8", &shard, &["--shard", "2/3"]);
    assert_eq!(digests(&few)[..], digests(&many)[..3]);
    for line in digests(&shard) {
        assert!(digests(&many).contains(&line), "{line}");
    }
    // A shard verifies on its own.
    assert_eq!(verify(&shard, &[]).0, Some(0));
}

#[test]
fn a_study_tampered_with_or_made_with_other_settings_fails() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("s");
    study("4", &dir, &[]);

    // A game's record changed.
    let tampered = tmp.path().join("tampered");
    std::fs::create_dir(&tampered).unwrap();
    for file in ["study.json", "build.json"] {
        std::fs::copy(dir.join(file), tampered.join(file)).unwrap();
    }
    let mut lines = digests(&dir);
    lines[2] = format!("{} 0123456789abcdef", lines[2].split_once(' ').unwrap().0);
    std::fs::write(tampered.join("digests.txt"), lines.join("\n") + "\n").unwrap();
    let (code, _, stderr) = verify(&tampered, &[]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("1 of 4 games differ, the first game 2"), "{stderr}");
    assert!(stderr.contains("made by menagerie "), "{stderr}");
    // The games before it still match.
    assert_eq!(verify(&tampered, &["--games", "2"]).0, Some(0));

    // The same games said to be played with another budget: today's
    // program plays other games with it.
    let other = tmp.path().join("other");
    std::fs::create_dir(&other).unwrap();
    for file in ["build.json", "digests.txt"] {
        std::fs::copy(dir.join(file), other.join(file)).unwrap();
    }
    let settings = std::fs::read_to_string(dir.join("study.json")).unwrap().replace("\"nodes\": 200", "\"nodes\": 300");
    std::fs::write(other.join("study.json"), settings).unwrap();
    let (code, _, stderr) = verify(&other, &[]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("games differ"), "{stderr}");
}

#[test]
fn verify_refuses_bad_input_and_builds_do_not_mix() {
    let tmp = tempfile::tempdir().unwrap();
    let (code, _, stderr) = verify(&tmp.path().join("nothing"), &[]);
    assert_eq!(code, Some(2), "{stderr}");

    let dir = tmp.path().join("s");
    study("2", &dir, &[]);
    std::fs::remove_file(dir.join("digests.txt")).unwrap();
    let (code, _, stderr) = verify(&dir, &[]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("no game digests"), "{stderr}");

    // A study made by another build is not continued, nor merged, by this one.
    let build = std::fs::read_to_string(dir.join("build.json")).unwrap();
    let commit =
        serde_json::from_str::<serde_json::Value>(&build).unwrap()["build"]["commit"].as_str().unwrap().to_owned();
    std::fs::write(dir.join("build.json"), build.replace(&commit, "0000000000000000000000000000000000000000")).unwrap();
    let out = menagerie(&[
        "study",
        "lichen-3x3",
        "--games",
        "3",
        "--out",
        dir.to_str().unwrap(),
        "--nodes",
        "200",
        "--quiet",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("games of two builds do not mix"));
    let fresh = tmp.path().join("fresh");
    study("2", &fresh, &[]);
    let merged = tmp.path().join("merged");
    let out = menagerie(&[
        "study",
        "merge",
        dir.to_str().unwrap(),
        fresh.to_str().unwrap(),
        "--out",
        merged.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("different builds"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
