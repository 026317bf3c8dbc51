//! Drives the `menagerie` binary as a user would.

use std::process::{Command, Output};

pub fn menagerie(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_menagerie")).args(args).output().expect("the binary runs")
}

pub fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).unwrap()
}

#[test]
fn unknown_variant_is_bad_input_with_one_line() {
    let out = menagerie(&["perft", "no-such-game", "1"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("unknown variant \"no-such-game\""), "{err}");
}

#[test]
fn malformed_arguments_exit_with_2() {
    assert_eq!(menagerie(&["perft", "lma", "deep"]).status.code(), Some(2));
    assert_eq!(menagerie(&["frobnicate"]).status.code(), Some(2));
}

#[test]
fn every_command_has_help() {
    for command in ["variants", "perft", "moves", "show", "bench"] {
        let out = menagerie(&[command, "--help"]);
        assert!(out.status.success(), "{command} --help");
        assert!(stdout(&out).contains("Usage"), "{command} --help");
    }
}
