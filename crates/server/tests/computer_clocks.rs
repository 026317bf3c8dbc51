//! The computer manages its clock (docs/api.md, "Clocks"): at every level,
//! in a fast game a person could play, it never loses on time. Its budget
//! is the smaller of its level's time and a share of its clock
//! (`menagerie_ai::ClockLeft::turn_budget`), per decision of the game model:
//! a Kelasu turn's actions share it, a Lunch Chess answer out of turn
//! spends the answerer's clock. Here its opponent moves at once, so its
//! whole clock is the computer's to spend.

mod common;

use common::TestServer;
use menagerie_server::computer::SearchLevels;
use menagerie_server::source::Registry;
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Duration;

/// The computer's decisions played (its seat is `second`).
fn computer_decisions(state: &Value) -> usize {
    state["moves"].as_array().unwrap().iter().filter(|m| m["actor"] == "second").count()
}

/// Plays `variant` against the computer at `level` on a clock of
/// `seconds` and no increment, moving at once for the first seat whenever
/// it is to decide, until the computer has decided `decisions` times or the
/// game ends. Answers the last state.
async fn fast_game(server: &TestServer, variant: &str, level: &str, seconds: f64, decisions: usize) -> Value {
    let created = server
        .create(json!({ "variant": variant, "opponent": "computer", "level": level, "colour": "first",
                        "clock": { "initial": seconds, "increment": 0 } }))
        .await;
    let id = created["id"].as_str().unwrap().to_owned();
    let seat = created["secrets"]["first"].as_str().unwrap().to_owned();
    // Enough for the whole game at its clock, and more.
    let deadline = tokio::time::Instant::now() + Duration::from_secs_f64(2.0 * seconds + 30.0);
    loop {
        let state = server.state(&id, Some(&seat)).await;
        if !state["result"].is_null() || computer_decisions(&state) >= decisions {
            return state;
        }
        assert!(tokio::time::Instant::now() < deadline, "{variant} at {level}: the game stalled: {state}");
        if state["your_turn"] == true {
            let (status, moves) = server.get(&format!("/api/games/{id}/moves?seat={seat}")).await;
            assert_eq!(status, 200, "{moves}");
            let text = moves["moves"][0].as_str().expect("a legal move").to_owned();
            let ply = state["moves"].as_array().unwrap().len();
            let (status, answer) =
                server.post(&format!("/api/games/{id}/move"), json!({ "seat": seat, "move": text, "ply": ply })).await;
            assert!(status == 200 || status == 409, "{variant}: {text}: {status} {answer}");
        } else {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }
}

/// The strongest level thinks five seconds a turn when its clock allows:
/// on a clock of six seconds it would flag at its third decision. Every
/// level, in a game of one move a turn, of several actions a turn and of
/// decisions out of turn, plays on instead.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_level_loses_on_time_in_a_fast_game() {
    let dir = tempfile::tempdir().unwrap();
    let server =
        TestServer::start_full(&dir.path().join("games.sqlite"), Arc::new(SearchLevels), Arc::new(Registry)).await;
    let games = [
        ("lma", "strongest"),
        ("kelasu", "strongest"),
        ("lunch", "strongest"),
        ("kelasu", "hard"),
        ("lunch", "medium"),
        ("fluid", "easy"),
        ("lichen", "random"),
    ];
    const DECISIONS: usize = 12;
    for (variant, level) in games {
        let state = fast_game(&server, variant, level, 6.0, DECISIONS).await;
        let reason = state["result"]["reason"].as_str().unwrap_or("");
        let lost_on_time = reason.contains("ran out of time") && state["result"]["winner"] == "first";
        assert!(
            !lost_on_time,
            "{variant} at {level}: the computer flagged after {} decisions: {state}",
            computer_decisions(&state)
        );
        let decided = computer_decisions(&state);
        assert!(
            decided >= DECISIONS || !state["result"].is_null(),
            "{variant} at {level}: {decided} decisions: {state}"
        );
        if state["result"].is_null() {
            let left = state["clock"]["second_ms"].as_u64().unwrap();
            assert!(left > 0, "{variant} at {level}: {state}");
            println!("{variant} at {level}: {decided} decisions, {left} ms left of 6000");
        } else {
            println!("{variant} at {level}: ended after {decided} decisions: {}", reason);
        }
    }
    server.stop().await;
}
