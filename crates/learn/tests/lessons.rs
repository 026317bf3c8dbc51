//! The lessons load, every step is checked by the rules, and wrong moves
//! are answered with why.

use menagerie_learn::lesson::{api_list, builtin, judge, load, Verdict};

#[test]
fn every_game_has_three_lessons_and_every_step_checks() {
    let lessons = builtin().unwrap();
    for game in ["lma", "fluid", "lichen", "kelasu", "lunch"] {
        let count = lessons.iter().filter(|l| l.variant.starts_with(game)).count();
        assert!(count >= 3, "{game}: {count} lessons");
    }
    let list = api_list(&lessons);
    let first = &list["lessons"][0];
    assert!(first["id"].is_string() && first["variant"].is_string() && first["title"].is_string());
    assert!(first["steps"].as_u64().unwrap() >= 1);
    assert_eq!(list["lessons"].as_array().unwrap().len(), lessons.len());
}

#[test]
fn moves_are_judged_with_reasons() {
    let lessons = builtin().unwrap();
    let lesson = lessons.iter().find(|l| l.id == "fluid-lame").unwrap();
    assert!(matches!(judge(lesson, 0, "Ng1h3").unwrap(), Verdict::Done { .. }));
    // Illegal: the lame leap.
    let Verdict::Wrong { why } = judge(lesson, 0, "Ng1f3").unwrap() else { panic!() };
    assert!(why.contains("not a legal move"), "{why}");
    // The step's own word for a move it names.
    let Verdict::Wrong { why } = judge(lesson, 0, "Pg2f3").unwrap() else { panic!() };
    assert!(why.contains("about the Knight"), "{why}");
    // A computed reason: legal, but it captures nothing.
    let Verdict::Wrong { why } = judge(lesson, 0, "Ke1d1").unwrap() else { panic!() };
    assert_eq!(why, "That move is legal, but it does not capture.");
    // Any move that meets a goal open to many (a Lichen placement on a2).
    let lichen = lessons.iter().find(|l| l.id == "lichen-tokens").unwrap();
    assert!(matches!(judge(lichen, 0, "a2sw").unwrap(), Verdict::Done { .. }));
    let Verdict::Wrong { why } = judge(lichen, 0, "e2n").unwrap() else { panic!() };
    assert!(why.contains("do not control"), "{why}");
    assert!(judge(lichen, 9, "a2sw").is_err());
}

#[test]
fn a_step_the_rules_refute_is_an_error() {
    let wrong_move = r#"
[[lesson]]
id = "x"
variant = "fluid"
title = "t"
[[lesson.step]]
position = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1"
goal = "Capture."
kind = "capture"
moves = ["Ra1a8"]
"#;
    let error = load("fluid", wrong_move).unwrap_err().to_string();
    assert!(error.contains("does not meet the goal"), "{error}");
    let illegal = wrong_move.replace("Ra1a8", "Ra1b2");
    assert!(load("fluid", &illegal).unwrap_err().to_string().contains("not a legal move"));
    let unknown_key = wrong_move.replace("kind = \"capture\"", "kind = \"capture\"\ncolour = 1");
    assert!(load("fluid", &unknown_key).is_err());
    let other_game = wrong_move.replace("variant = \"fluid\"", "variant = \"lma\"");
    assert!(load("fluid", &other_game).is_err());
}
