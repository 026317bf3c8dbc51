//! Whole games through the HTTP API for every game the server offers, a
//! restart on the same database, and the computer resuming after it.

mod common;

use common::{variants, wait_for, Pausable, TestServer};
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// Random games stop (by resignation) after this many moves.
const MAX_PLIES: usize = 300;

fn secret(created: &Value, side: &str) -> String {
    created["secrets"][side].as_str().unwrap_or_else(|| panic!("no {side} secret in {created}")).to_owned()
}

/// Plays random legal moves for both seats of a local game until it ends
/// (or resigns after MAX_PLIES); returns the final state.
async fn play_out(server: &TestServer, created: &Value, rng: &mut rand::rngs::StdRng) -> Value {
    let id = created["id"].as_str().unwrap();
    let secrets = [secret(created, "first"), secret(created, "second")];
    let mut state = server.state(id, Some(&secrets[0])).await;
    let mut made = 0;
    while state["result"].is_null() {
        let side = if state["to_act"] == "first" { 0 } else { 1 };
        let seat = &secrets[side];
        if made == MAX_PLIES {
            let (status, after) = server.post(&format!("/api/games/{id}/resign"), json!({ "seat": seat })).await;
            assert_eq!(status, 200, "{after}");
            return after;
        }
        let (status, moves) = server.get(&format!("/api/games/{id}/moves?seat={seat}")).await;
        assert_eq!(status, 200, "{moves}");
        let moves: Vec<&str> = moves["moves"].as_array().unwrap().iter().map(|m| m.as_str().unwrap()).collect();
        assert!(!moves.is_empty(), "no legal moves in an unfinished game: {state}");
        let choice = *moves.choose(rng).unwrap();
        let before = state["ply"].as_u64().unwrap();
        let (status, after) = server.play(id, seat, choice).await;
        assert_eq!(status, 200, "{choice}: {after}");
        assert!(after["ply"].as_u64().unwrap() > before, "the move was not recorded: {after}");
        let last = after["moves"].as_array().unwrap().iter().rev().find(|m| m["actor"] != "chance").unwrap();
        assert_eq!(last["text"], choice);
        state = after;
        made += 1;
    }
    state
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_game_plays_to_the_end_and_survives_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite");
    let server = TestServer::start(&db).await;
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    let mut finished = Vec::new();
    for variant in variants() {
        for round in 0..2 {
            let created = server
                .create(
                    json!({ "variant": variant, "opponent": "local", "colour": "first", "seed": rng.random::<u64>() }),
                )
                .await;
            play_out(&server, &created, &mut rng).await;
            // As the first seat sees it (whoever made the last move), as after the restart.
            let end = server.state(created["id"].as_str().unwrap(), Some(&secret(&created, "first"))).await;
            assert!(!end["result"].is_null(), "{variant} round {round} did not end: {end}");
            assert!(end["result"]["summary"].as_str().unwrap().len() > 3);
            finished.push((created["id"].as_str().unwrap().to_owned(), secret(&created, "first"), end));
        }
    }
    // One game left in the middle, to continue after the restart.
    let middle = server.create(json!({ "variant": "nim:stones=30", "opponent": "friend", "colour": "second" })).await;
    let (id, first) = (middle["id"].as_str().unwrap().to_owned(), secret(&middle, "first"));
    assert_eq!(server.play(&id, &first, "2").await.0, 200);
    let before_restart = server.state(&id, None).await;
    server.stop().await;

    let server = TestServer::start(&db).await;
    for (id, seat, end) in &finished {
        let again = server.state(id, Some(seat)).await;
        for field in ["moves", "result", "ply", "board", "variant", "seats", "mode"] {
            assert_eq!(again[field], end[field], "{field} of game {id} changed across the restart");
        }
    }
    let after_restart = server.state(&id, None).await;
    assert_eq!(after_restart["moves"], before_restart["moves"]);
    assert_eq!(after_restart["board"], before_restart["board"]);
    let second = secret(&middle, "second");
    let (status, state) = server.play(&id, &second, "3").await;
    assert_eq!(status, 200, "{state}");
    assert_eq!(state["ply"], 2);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_computer_answers_and_resumes_after_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite");
    let server = TestServer::start(&db).await;
    // The human plays first; the computer answers every move.
    let created = server
        .create(json!({ "variant": "nim:stones=40", "opponent": "computer", "level": "random", "colour": "first" }))
        .await;
    let (id, seat) = (created["id"].as_str().unwrap().to_owned(), secret(&created, "first"));
    assert!(created["secrets"]["second"].is_null(), "a computer seat has no secret: {created}");
    let (status, state) = server.play(&id, &seat, "1").await;
    assert_eq!(status, 200, "{state}");
    let state = wait_for(&server, &id, Some(&seat), |s| s["ply"] == 2).await;
    assert_eq!(state["moves"][1]["actor"], "second");
    assert_eq!(state["your_turn"], true);
    server.stop().await;

    // The computer moves first but is held back; after a restart it moves.
    let paused = Arc::new(AtomicBool::new(true));
    let server = TestServer::start_with(&db, Arc::new(Pausable { paused: Arc::clone(&paused) })).await;
    let created =
        server.create(json!({ "variant": "nim:stones=40", "opponent": "computer", "colour": "second" })).await;
    let (id, seat) = (created["id"].as_str().unwrap().to_owned(), secret(&created, "second"));
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    assert_eq!(server.state(&id, Some(&seat)).await["ply"], 0);
    server.stop().await;

    let server = TestServer::start(&db).await;
    let state = wait_for(&server, &id, Some(&seat), |s| s["ply"] == 1).await;
    assert_eq!(state["moves"][0]["actor"], "first");
    assert_eq!(state["your_turn"], true);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resign_draws_and_rematch() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("g.sqlite")).await;
    let created = server.create(json!({ "variant": "nim", "opponent": "friend", "colour": "first" })).await;
    let id = created["id"].as_str().unwrap();
    let (a, b) = (secret(&created, "first"), secret(&created, "second"));
    let draw = |seat: &str, action: &str| json!({ "seat": seat, "action": action });
    let path = format!("/api/games/{id}/draw");
    assert_eq!(server.post(&path, draw(&b, "accept")).await.0, 409, "nothing to accept");
    let (status, state) = server.post(&path, draw(&a, "offer")).await;
    assert_eq!((status, state["draw_offer"].clone()), (200, json!("first")));
    // A move by the other side declines the offer.
    server.play(id, &a, "1").await;
    let (_, state) = server.play(id, &b, "1").await;
    assert_eq!(state["draw_offer"], Value::Null);
    server.post(&path, draw(&a, "offer")).await;
    let (status, state) = server.post(&path, draw(&b, "accept")).await;
    assert_eq!(status, 200);
    assert_eq!(state["result"]["winner"], Value::Null);
    assert_eq!(state["result"]["reason"], "draw agreed");
    assert_eq!(server.play(id, &a, "1").await.0, 409, "no moves after the end");

    // Rematch: sides swap; the second asker joins the same new game.
    let (status, rematch) = server.post(&format!("/api/games/{id}/rematch"), json!({ "seat": a })).await;
    assert_eq!(status, 200, "{rematch}");
    assert_eq!(rematch["you"], "second");
    assert!(rematch["secrets"]["first"].is_null(), "only the asker's secret: {rematch}");
    let (_, joined) = server.post(&format!("/api/games/{id}/rematch"), json!({ "seat": b })).await;
    assert_eq!(joined["id"], rematch["id"]);
    assert_eq!(joined["you"], "first");
    let new_id = rematch["id"].as_str().unwrap();
    let (status, _) = server.play(new_id, joined["secrets"]["first"].as_str().unwrap(), "2").await;
    assert_eq!(status, 200);
    assert_eq!(server.state(id, None).await["rematch"], rematch["id"]);

    // Resigning gives the game to the other side.
    let (status, state) =
        server.post(&format!("/api/games/{new_id}/resign"), json!({ "seat": rematch["secrets"]["second"] })).await;
    assert_eq!(status, 200);
    assert_eq!(state["result"]["winner"], "first");
    assert_eq!(state["result"]["reason"], "resignation");
    server.stop().await;
}

async fn next_state<S>(socket: &mut S) -> Value
where
    S: futures_util::Stream<
            Item = Result<tokio_tungstenite::tungstenite::Message, tokio_tungstenite::tungstenite::Error>,
        > + Unpin,
{
    use futures_util::StreamExt;
    let message =
        tokio::time::timeout(std::time::Duration::from_secs(5), socket.next()).await.unwrap().unwrap().unwrap();
    serde_json::from_str::<Value>(message.to_text().unwrap()).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sockets_see_every_move_and_positions_step_back() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("g.sqlite")).await;
    let created = server.create(json!({ "variant": "nim:stones=12", "opponent": "local", "colour": "first" })).await;
    let id = created["id"].as_str().unwrap();
    let url =
        format!("{}/api/games/{id}/ws?seat={}", server.base.replacen("http", "ws", 1), secret(&created, "second"));
    let (mut socket, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
    let first = next_state(&mut socket).await;
    assert_eq!(
        (first["type"].clone(), first["ply"].clone(), first["you"].clone()),
        (json!("state"), json!(0), json!("second"))
    );
    server.play(id, &secret(&created, "first"), "3").await;
    let update = next_state(&mut socket).await;
    assert_eq!(update["ply"], 1);
    assert_eq!(update["moves"][0]["text"], "3");
    assert_eq!(update["your_turn"], true);

    let (status, at_start) = server.get(&format!("/api/games/{id}/position/0")).await;
    assert_eq!(status, 200);
    assert_eq!(at_start["board"]["text"], "12 first");
    let (_, now) = server.get(&format!("/api/games/{id}/position/1")).await;
    assert_eq!(now["board"]["text"], "9 second");
    assert_eq!(now["last_move"]["text"], "3");
    assert_eq!(server.get(&format!("/api/games/{id}/position/2")).await.0, 404);
    server.stop().await;
}
