//! Clocks kept by the server: chosen at creation, shown in the state,
//! running for whoever must decide (Kelasu's several actions a turn, Lunch
//! Chess's answers out of turn), a flag that falls by the server's timer
//! (a loss, or a draw when the other side cannot win), and all of it after
//! a restart.

mod common;

use common::{variants, wait_for, TestServer};
use serde_json::{json, Value};
use std::time::Duration;

fn secret(created: &Value, side: &str) -> String {
    created["secrets"][side].as_str().unwrap_or_else(|| panic!("no {side} secret in {created}")).to_owned()
}

fn id(created: &Value) -> String {
    created["id"].as_str().unwrap().to_owned()
}

/// Plays the first legal move for whoever must act; returns the new state.
async fn play_any(server: &TestServer, created: &Value) -> Value {
    let id = id(created);
    let state = server.state(&id, Some(&secret(created, "first"))).await;
    let side = state["to_act"].as_str().unwrap_or_else(|| panic!("nobody to act: {state}")).to_owned();
    let seat = secret(created, &side);
    let (status, moves) = server.get(&format!("/api/games/{id}/moves?seat={seat}")).await;
    assert_eq!(status, 200, "{moves}");
    let text = moves["moves"][0].as_str().unwrap().to_owned();
    let (status, after) = server.play(&id, &seat, &text).await;
    assert_eq!(status, 200, "{text}: {after}");
    after
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_clock_starts_after_both_have_moved_and_the_server_drops_the_flag() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("games.sqlite")).await;
    let created = server
        .create(json!({ "variant": "nim:stones=30", "opponent": "local", "colour": "first", "clock": { "initial": 0.6, "increment": 0 } }))
        .await;
    let (id, first) = (id(&created), secret(&created, "first"));
    let state = server.state(&id, Some(&first)).await;
    assert_eq!(state["clock"]["initial_ms"], 600);
    assert_eq!(state["clock"]["increment_ms"], 0);
    assert_eq!(state["clock"]["first_ms"], 600);
    assert_eq!(state["clock"]["running"], Value::Null, "no clock before both have moved");
    tokio::time::sleep(Duration::from_millis(700)).await;
    play_any(&server, &created).await;
    let state = play_any(&server, &created).await;
    assert_eq!(state["clock"]["running"], "first", "{state}");
    assert!(state["clock"]["since"].is_i64());
    // Nobody moves: the server's timer ends the game.
    let over = wait_for(&server, &id, None, |s| !s["result"].is_null()).await;
    assert_eq!(over["result"]["winner"], "second", "{over}");
    assert!(over["result"]["reason"].as_str().unwrap().contains("ran out of time"), "{over}");
    assert_eq!(over["clock"]["first_ms"], 0);
    assert_eq!(over["clock"]["running"], Value::Null);
    let (status, answer) = server.play(&id, &first, "1").await;
    assert_eq!(status, 409, "{answer}");
    // The server's time, for pages to count down in step.
    let (status, time) = server.get("/api/time").await;
    assert_eq!(status, 200);
    let now = time["now"].as_i64().unwrap();
    assert!(now >= over["clock"]["since"].as_i64().unwrap_or(0));
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flag_against_a_lone_king_is_a_draw_in_lma_and_fluid_chess() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("games.sqlite")).await;
    // Black has a lone King: when White's flag falls, Black cannot win.
    for (variant, position) in
        [("lma", "3k2/6/6/6/6/6/R5|6/P5/6/6/6/6/3K2 w - 0 1"), ("fluid", "4k3/8/8/8/8/8/8/3QK3 w - - 0 1")]
    {
        let created = server
            .create(json!({ "variant": variant, "position": position, "opponent": "local", "colour": "first", "clock": { "initial": 0.5 } }))
            .await;
        play_any(&server, &created).await;
        play_any(&server, &created).await;
        let over = wait_for(&server, &id(&created), None, |s| !s["result"].is_null()).await;
        assert_eq!(over["result"]["winner"], Value::Null, "{variant}: {over}");
        assert!(over["result"]["reason"].as_str().unwrap().contains("cannot win"), "{variant}: {over}");
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clocks_survive_a_restart_and_a_flag_falls_while_the_server_is_down() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite");
    let server = TestServer::start(&db).await;
    let long = json!({ "variant": "nim:stones=30", "opponent": "local", "colour": "first", "clock": { "initial": 600, "increment": 5 } });
    let kept = server.create(long).await;
    play_any(&server, &kept).await;
    play_any(&server, &kept).await;
    play_any(&server, &kept).await;
    let before = server.state(&id(&kept), None).await;
    let short =
        json!({ "variant": "nim:stones=30", "opponent": "local", "colour": "first", "clock": { "initial": 1 } });
    let flagged = server.create(short).await;
    play_any(&server, &flagged).await;
    play_any(&server, &flagged).await;
    server.stop().await;
    tokio::time::sleep(Duration::from_millis(1200)).await;

    let server = TestServer::start(&db).await;
    let after = server.state(&id(&kept), None).await;
    assert_eq!(after["clock"], before["clock"], "the clocks read the same after the restart");
    assert_eq!(after["clock"]["running"], "second");
    assert!(after["clock"]["first_ms"].as_u64().unwrap() > 600_000, "the increment was kept: {after}");
    // The flag fell while the server was down: the restarted server says so.
    let over = wait_for(&server, &id(&flagged), None, |s| !s["result"].is_null()).await;
    assert_eq!(over["result"]["winner"], "second", "{over}");
    assert_eq!(over["clock"]["first_ms"], 0);
    server.stop().await;
}

/// Along random moves in every variant: once both have moved, the clock
/// that runs is the one of whoever must decide, and the increment comes
/// once per hand-over (a Kelasu turn of several actions earns one).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_clock_of_whoever_decides_runs_and_earns_one_increment_per_hand_over() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("games.sqlite")).await;
    for variant in variants() {
        // An increment as large as the initial time makes each one visible.
        let created = server
            .create(json!({ "variant": variant, "opponent": "local", "colour": "first", "clock": { "initial": 1000, "increment": 1000 } }))
            .await;
        let mut moved = [false, false];
        let mut handovers = [0u64, 0];
        let mut state = server.state(&id(&created), Some(&secret(&created, "first"))).await;
        for _ in 0..120 {
            if !state["result"].is_null() {
                break;
            }
            let mover = state["to_act"].as_str().unwrap().to_owned();
            let after = play_any(&server, &created).await;
            let index = usize::from(mover == "second");
            let next = after["to_act"].as_str();
            let was_timed = moved == [true, true];
            moved[index] = true;
            if was_timed && next != Some(mover.as_str()) {
                handovers[index] += 1;
            }
            if moved == [true, true] && after["result"].is_null() {
                assert_eq!(after["clock"]["running"].as_str(), next, "{variant}: {after}");
            }
            // Time left, stopped clock: under the increments earned plus the initial time, and above that minus a minute.
            let key = if mover == "first" { "first_ms" } else { "second_ms" };
            let left = after["clock"][key].as_u64().unwrap();
            let ceiling = 1_000_000 * (1 + handovers[index]);
            assert!(
                left <= ceiling && left + 60_000 >= ceiling,
                "{variant}: {mover} has {left} ms after {} hand-overs",
                handovers[index]
            );
            state = after;
        }
    }
    server.stop().await;
}

/// White's Rook on a4 can attack Black's Queen on a5; Black holds a Dodge and a Block.
const LUNCH_ATTACK: &str =
    "4k3/8/8/q7/R7/8/8/4K3 w - jab,kick dodge,block,firstaid - - - - - turn.action 0,0,0 0123456789abcdef - white";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lunch_chess_answer_runs_the_answerers_clock_in_the_attackers_turn() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("games.sqlite")).await;
    let created = server
        .create(json!({ "variant": "lunch", "position": LUNCH_ATTACK, "opponent": "local", "colour": "first", "clock": { "initial": 300 } }))
        .await;
    let (id, white, black) = (id(&created), secret(&created, "first"), secret(&created, "second"));
    let (status, state) = server.play(&id, &white, "e1e2").await;
    assert_eq!((status, &state["to_act"]), (200, &json!("second")), "{state}");
    let (status, state) = server.play(&id, &black, "e8e7").await;
    assert_eq!((status, &state["to_act"]), (200, &json!("first")), "{state}");
    let (status, state) = server.play(&id, &white, "attack:a4a5:kick").await;
    assert_eq!(status, 200, "{state}");
    let state = server.state(&id, Some(&black)).await;
    assert_eq!(state["board"]["on_turn"], "white", "still White's turn");
    assert_eq!(state["to_act"], "second", "Black decides about the attack");
    assert_eq!(state["clock"]["running"], "second", "on Black's clock: {state}");
    let white_left = state["clock"]["first_ms"].as_u64().unwrap();
    let (status, state) = server.play(&id, &black, "pass").await;
    assert_eq!(status, 200, "{state}");
    if state["result"].is_null() && state["to_act"] == "first" {
        assert_eq!(state["clock"]["running"], "first");
        assert_eq!(state["clock"]["first_ms"].as_u64().unwrap(), white_left, "White's clock stood still meanwhile");
    }
    server.stop().await;
}
