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

#[test]
fn show_json_prints_the_view_of_the_web_page() {
    let out = menagerie(&["show", "lma", "--json", "--moves", "2b1c3"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let view: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("one JSON object");
    assert_eq!(view["to_act"], "black");
    assert_eq!(view["last_move"], serde_json::json!({"text": "2b1c3", "actor": "white"}));
    assert_eq!(view["counters"]["turn"], 1);
    assert_eq!(view["boards"].as_array().map(Vec::len), Some(2));
    // A dealt game shows a player only their own hand.
    let out = menagerie(&["show", "lunch", "--seed", "3", "--as", "white", "--json"]);
    let view: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("one JSON object");
    assert!(view["hands"]["white"].is_array(), "{view}");
    assert_eq!(view["hands"]["black"], 5, "{view}");
}

#[test]
fn a_start_dealt_by_chance_needs_no_seed_to_be_counted() {
    // The Lunch Chess start is before the deal: chance acts, one move per card type.
    let out = menagerie(&["perft", "lunch", "2"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out).trim(), "571");
    let moves = stdout(&menagerie(&["moves", "lunch"]));
    assert_eq!(moves.lines().count(), 24);
    assert!(moves.lines().all(|m| m.starts_with("draw:")), "{moves}");
    let shown = stdout(&menagerie(&["show", "lunch"]));
    assert!(shown.contains("To act: chance"), "{shown}");
    // Chance's moves are given like anyone's.
    let deal = ["draw:jab", "draw:jab", "draw:kick", "draw:block", "draw:dodge"];
    let mut args = vec!["show", "lunch", "--text", "--moves"];
    args.extend(deal);
    args.extend(deal);
    let text = stdout(&menagerie(&args));
    assert!(text.contains(" jab*2,kick,dodge,block jab*2,kick,dodge,block slap*4,"), "{text}");
    assert!(text.contains("To act: white"), "{text}");
}

#[test]
fn a_seed_lets_chance_act_by_itself() {
    let dealt = |args: &[&str]| stdout(&menagerie(&[&["show", "lunch", "--seed", "3", "--text"][..], args].concat()));
    let text = dealt(&[]);
    assert!(text.contains("To act: white"), "{text}");
    assert_eq!(text, dealt(&[]), "the same seed, the same deal");
    assert_ne!(text, stdout(&menagerie(&["show", "lunch", "--seed", "4", "--text"])));
    // After a discard White draws a card: chance acts again, and Black is to act.
    let hand = text.lines().last().unwrap().split(' ').nth(3).unwrap().to_owned();
    let card = hand.split(',').next().unwrap().split('*').next().unwrap();
    let after = dealt(&["--moves", &format!("discard:{card}")]);
    assert!(after.contains("To act: black"), "{after}");
}
