//! `selfplay --records` and `replay` (docs/records.md): every variant's
//! games written by a match replay through the rules; a broken record is
//! refused with its game, move number and text, exit status 2.

use std::path::Path;
use std::process::{Command, Output};

fn menagerie(args: &[&str], folder: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_menagerie")).args(args).current_dir(folder).output().expect("the binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn selfplay_records_replay_in_every_variant() {
    let folder = tempfile::tempdir().unwrap();
    for variant in ["lma", "lma-double", "fluid", "lichen", "lichen-3x3", "kelasu", "lunch:princess"] {
        let file = "games.pgn";
        let args = [
            "selfplay",
            variant,
            "--games",
            "2",
            "--white",
            "random",
            "--black",
            "random",
            "--max-plies",
            "300",
            "--records",
            file,
        ];
        let played = menagerie(&args, folder.path());
        assert!(played.status.success(), "{variant}: {}", text(&played.stderr));
        let records = std::fs::read_to_string(folder.path().join(file)).unwrap();
        assert_eq!(records.matches("[Variant ").count(), 2, "{records}");
        assert!(records.contains("[Round \"2\"]") && records.contains("[White \"random\"]"), "{records}");
        let replayed = menagerie(&["replay", file], folder.path());
        assert!(replayed.status.success(), "{variant}: {}\n{records}", text(&replayed.stderr));
        let out = text(&replayed.stdout);
        assert!(out.starts_with(&format!("game 1: {variant} ")), "{out}");
        assert!(out.ends_with("2 games replayed\n"), "{out}");
        // Each line's result is the record's.
        for (index, record) in records.split("[Event ").skip(1).enumerate() {
            let result = record.split("[Result \"").nth(1).unwrap().split('"').next().unwrap();
            let line = out.lines().nth(index).unwrap();
            assert!(line.contains(&format!(" {result} ")), "{line} vs {result}");
        }
    }
}

#[test]
fn replay_names_the_first_bad_move_and_stops() {
    let folder = tempfile::tempdir().unwrap();
    let records = "[Variant \"lma\"]\n1. 2b1c3 1e7d5 *\n\n\
                   [Variant \"lma\"]\n1. 2b1c3 1e7d5 2. 2c3c9 *\n\n\
                   [Variant \"nonsense\"] *\n";
    std::fs::write(folder.path().join("bad.pgn"), records).unwrap();
    let out = menagerie(&["replay", "bad.pgn"], folder.path());
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(text(&out.stdout), "game 1: lma * going on (2 moves)\n");
    let error = text(&out.stderr);
    assert!(error.starts_with("error: bad.pgn: game 2, move 2. \"2c3c9\" (ply 3): malformed"), "{error}");
    assert_eq!(error.lines().count(), 1, "{error}");

    std::fs::write(folder.path().join("empty.pgn"), "").unwrap();
    let out = menagerie(&["replay", "empty.pgn"], folder.path());
    assert_eq!((out.status.code(), text(&out.stderr)), (Some(2), "error: empty.pgn: no game records\n".to_owned()));
    let out = menagerie(&["replay", "missing.pgn"], folder.path());
    assert_eq!(out.status.code(), Some(2));
    std::fs::write(folder.path().join("cut.pgn"), "[Variant \"lma\"]\n1. 2b1c3").unwrap();
    let out = menagerie(&["replay", "cut.pgn"], folder.path());
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("game 1, line 1: the record ends without a result"), "{}", text(&out.stderr));
}
