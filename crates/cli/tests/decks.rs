//! Decks on the command line: `deck=standard`, or a path to a TOML file
//! (only the CLI reads deck files), for every command that takes a variant.

use std::process::{Command, Output};

fn menagerie(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_menagerie")).args(args).output().expect("the binary runs")
}

const SMALL: &str =
    "[[card]]\nname = \"Jab\"\ncode = \"jab\"\nkind = \"attack\"\ncount = 12\ndamage = 1\nnumbers = \"confirmed\"\n";

#[test]
fn a_deck_file_is_played_with_and_a_device_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let small = dir.path().join("small.toml");
    std::fs::write(&small, SMALL).unwrap();
    let small = small.to_str().unwrap();
    for args in [
        vec!["show", "lunch", "--seed", "1", "--text", "--deck", small],
        vec!["show", &format!("lunch:deck={small}"), "--seed", "1", "--text"],
    ] {
        let out = menagerie(&args);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        assert!(text.contains(" jab*5 jab*5 jab*2 "), "{text}");
    }
    let out = menagerie(&["show", "lunch", "--seed", "1", "--deck", "standard"]);
    assert!(out.status.success());
    for (device, problem) in [("/dev/zero", "is not a regular file"), ("/nonexistent.toml", "cannot be read")] {
        let out = menagerie(&["show", "lunch", "--seed", "1", "--deck", device]);
        assert_eq!(out.status.code(), Some(2), "{device}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(problem) && err.lines().count() == 1, "{device}: {err}");
    }
}

#[test]
fn the_searching_commands_take_the_deck_too() {
    // `--deck` once reached only the commands that open the game as text.
    let out = menagerie(&["analyse", "lunch", "--seed", "1", "--nodes", "10", "--deck", "/nonexistent.toml"]);
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stdout));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent.toml"));
    let out = menagerie(&["analyse", "lunch:deck=standard", "--seed", "1", "--nodes", "10"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}
