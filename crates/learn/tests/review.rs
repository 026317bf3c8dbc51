//! A computer review judges a blunder as lichess would, and counts it for
//! the player who made it.

use menagerie_ai::StopFlag;
use menagerie_learn::review::{review, JudgmentName, ReviewBudget, ReviewError};

const BUDGET: ReviewBudget = ReviewBudget { nodes: 20_000, threads: 1, hash_megabytes: 4 };

#[test]
fn a_hung_rook_is_a_blunder_and_taking_it_is_not() {
    // White hangs the Rook next to the black King, which takes it.
    let moves = ["Rd1d7".to_owned(), "Ke8d7".to_owned()];
    let mut calls = Vec::new();
    let done = review(
        "fluid",
        Some("4k3/8/8/8/8/8/8/3RK3 w - - 0 1"),
        &moves,
        &BUDGET,
        &mut |d, t| calls.push((d, t)),
        &StopFlag::new(),
    )
    .unwrap();
    assert_eq!(calls.last(), Some(&(3, 3)));
    assert_eq!(done.plies.len(), 2);
    assert_eq!(done.plies[0].judgment.map(|j| j.name), Some(JudgmentName::Blunder));
    assert!(done.plies[0].best.is_some() && done.plies[0].best.as_deref() != Some("Rd1d7"));
    assert_eq!(done.plies[1].judgment, None);
    assert_eq!(done.players.first.blunder, 1);
    assert_eq!(done.players.second.blunder + done.players.second.mistake + done.players.second.inaccuracy, 0);
    assert!(done.players.first.accuracy.unwrap() < done.players.second.accuracy.unwrap());
    assert!(done.players.first.acpl > done.players.second.acpl);
    let json = serde_json::to_value(&done).unwrap();
    assert_eq!(json["plies"][0]["judgment"]["name"], "Blunder");
    assert!(json["plies"][1]["eval"]["cp"].is_i64() || json["plies"][1]["eval"]["mate"].is_i64());
    assert!(json["players"]["first"]["accuracy"].is_f64());
}

#[test]
fn a_review_can_be_cancelled_and_refuses_what_it_cannot_judge() {
    let stop = StopFlag::new();
    stop.stop();
    let moves = ["Pe2e4".to_owned()];
    assert_eq!(review("fluid", None, &moves, &BUDGET, &mut |_, _| {}, &stop), Err(ReviewError::Cancelled));
    let go = StopFlag::new();
    assert!(matches!(review("lunch", None, &[], &BUDGET, &mut |_, _| {}, &go), Err(ReviewError::HiddenInformation(_))));
    assert!(matches!(
        review("fluid", None, &["Pe2e5".to_owned()], &BUDGET, &mut |_, _| {}, &go),
        Err(ReviewError::BadGame(_))
    ));
    assert!(matches!(review("chess", None, &[], &BUDGET, &mut |_, _| {}, &go), Err(ReviewError::BadGame(_))));
}
