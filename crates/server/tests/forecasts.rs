//! Conditional moves (docs/api.md, "Conditional moves"): lines queued by a
//! seat of a correspondence game are checked at the position, answer the
//! expected moves at once (also in Kelasu, several actions a turn), are
//! dropped when the opponent plays something else or the seat moves by
//! itself, and are refused where they mean nothing.

mod common;

use common::TestServer;
use menagerie_core::DynGame;
use menagerie_games::{new_game, BuiltinData};
use serde_json::{json, Value};

/// A game of `variant` as the server plays it, to find legal lines.
fn local(variant: &str) -> Box<dyn DynGame> {
    new_game(variant, None, 0, &BuiltinData).unwrap()
}

/// A line of `plies` moves from `game`'s position: the first legal move
/// each time.
fn line(game: &dyn DynGame, plies: usize) -> Vec<String> {
    let mut game = game.box_clone();
    let mut moves = Vec::new();
    for _ in 0..plies {
        let mv = game.legal_moves()[0].clone();
        game.play(&mv).unwrap();
        moves.push(game.history().last().unwrap().clone());
    }
    moves
}

async fn friend_game(server: &TestServer, variant: &str, clock: Value) -> (String, String, String) {
    let created =
        server.create(json!({ "variant": variant, "opponent": "friend", "colour": "first", "clock": clock })).await;
    let secret = |side: &str| created["secrets"][side].as_str().unwrap().to_owned();
    (created["id"].as_str().unwrap().to_owned(), secret("first"), secret("second"))
}

async fn moves(server: &TestServer, id: &str) -> Vec<String> {
    let state = server.state(id, None).await;
    state["moves"].as_array().unwrap().iter().map(|m| m["text"].as_str().unwrap().to_owned()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn queued_replies_answer_the_expected_moves_and_the_rest_is_dropped() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("g.sqlite")).await;
    let (id, a, b) = friend_game(&server, "lma", json!({ "days": 3 })).await;
    let start = local("lma");
    // Bob's line: Ada's first move, his reply, Ada's second, his reply.
    let expected = line(start.as_ref(), 4);
    // A second line that starts with another move of Ada's.
    let other_first = start.legal_moves()[1].clone();
    let mut after_other = start.box_clone();
    after_other.play(&other_first).unwrap();
    let mut other = vec![after_other.history().last().unwrap().clone()];
    other.extend(line(after_other.as_ref(), 1));

    let path = format!("/api/games/{id}/forecasts");
    let (status, body) = server.post(&path, json!({ "seat": b, "lines": [expected, other] })).await;
    assert_eq!(status, 200, "{body}");
    let (_, read) = server.get(&format!("{path}?seat={b}")).await;
    assert_eq!(read["lines"], json!([expected, other]));
    let (_, theirs) = server.get(&format!("{path}?seat={a}")).await;
    assert_eq!(theirs["lines"], json!([]), "each seat's own");

    // Ada plays the expected move: Bob's reply follows at once.
    let (status, state) = server.play(&id, &a, &expected[0]).await;
    assert_eq!(status, 200, "{state}");
    assert_eq!(moves(&server, &id).await, expected[..2].to_vec());
    let (_, read) = server.get(&format!("{path}?seat={b}")).await;
    assert_eq!(read["lines"], json!([expected[2..].to_vec()]), "the other line is dropped");
    let (_, state) = server.get(&format!("/api/games/{id}?seat={a}")).await;
    assert_eq!(state["to_act"], "first", "Ada's move again: {state}");

    // Ada plays the second expected move: the last reply follows, and the line is done.
    server.play(&id, &a, &expected[2]).await;
    assert_eq!(moves(&server, &id).await, expected);
    let (_, read) = server.get(&format!("{path}?seat={b}")).await;
    assert_eq!(read["lines"], json!([]));

    // A line Ada does not follow is dropped without a reply.
    let mut now = local("lma");
    for mv in &expected {
        now.play(mv).unwrap();
    }
    let ada_moves = now.legal_moves();
    let (unexpected, queued) = (ada_moves[0].clone(), ada_moves[1].clone());
    let mut after = now.box_clone();
    after.play(&queued).unwrap();
    let mut bobs = vec![after.history().last().unwrap().clone()];
    bobs.extend(line(after.as_ref(), 1));
    let (status, _) = server.post(&path, json!({ "seat": b, "lines": [bobs] })).await;
    assert_eq!(status, 200);
    server.play(&id, &a, &unexpected).await;
    assert_eq!(moves(&server, &id).await.len(), 5, "no reply");
    let (_, read) = server.get(&format!("{path}?seat={b}")).await;
    assert_eq!(read["lines"], json!([]));
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lines_are_checked_and_refused_where_they_mean_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("g.sqlite")).await;
    let (id, a, b) = friend_game(&server, "lma", json!({ "days": 3 })).await;
    let path = format!("/api/games/{id}/forecasts");
    let good = line(local("lma").as_ref(), 2);
    let refusals = [
        (json!({ "seat": a, "lines": [good] }), 422, "the opponent is to move"),
        (json!({ "seat": b, "lines": [[good[0]]] }), 422, "2 to"),
        (json!({ "seat": b, "lines": [[good[0], "zz9"]] }), 422, "line 1"),
        (json!({ "seat": b, "lines": [line(local("lma").as_ref(), 3)] }), 422, "must end with one of your moves"),
        (json!({ "seat": "x".repeat(22), "lines": [good] }), 403, ""),
        (json!({ "lines": [good] }), 403, "spectators"),
        (json!({ "seat": b, "lines": "e2e4" }), 400, ""),
    ];
    for (body, status, says) in refusals {
        let (got, answer) = server.post(&path, body.clone()).await;
        assert_eq!(got, status, "{body}: {answer}");
        assert!(answer["error"].as_str().unwrap_or_default().contains(says), "{body}: {answer}");
    }
    let (status, answer) = server.post(&path, json!({ "seat": b, "lines": [good, good] })).await;
    assert_eq!(status, 200, "{answer}");
    // A live clock or hidden cards: none.
    let (live, _, b2) = friend_game(&server, "lma", json!({ "initial": 300, "increment": 2 })).await;
    let (status, answer) =
        server.post(&format!("/api/games/{live}/forecasts"), json!({ "seat": b2, "lines": [good] })).await;
    assert_eq!(status, 409, "{answer}");
    assert!(answer["error"].as_str().unwrap().contains("correspondence"));
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_kelasu_a_line_follows_a_turn_of_several_actions() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("g.sqlite")).await;
    let (id, a, b) = friend_game(&server, "kelasu", json!({ "days": 2 })).await;
    let start = local("kelasu");
    // The first player's whole turn (its actions until the turn passes),
    // then one action of the second player's.
    let mut game = start.box_clone();
    let first = game.to_act();
    let mut whole = Vec::new();
    loop {
        let mv = game.legal_moves()[0].clone();
        game.play(&mv).unwrap();
        whole.push(game.history().last().unwrap().clone());
        if game.to_act() != first {
            break;
        }
    }
    let reply = game.legal_moves()[0].clone();
    game.play(&reply).unwrap();
    whole.push(game.history().last().unwrap().clone());
    let (status, body) =
        server.post(&format!("/api/games/{id}/forecasts"), json!({ "seat": b, "lines": [whole] })).await;
    assert_eq!(status, 200, "{body}");
    for mv in &whole[..whole.len() - 1] {
        let (status, body) = server.play(&id, &a, mv).await;
        assert_eq!(status, 200, "{mv}: {body}");
    }
    assert_eq!(moves(&server, &id).await, whole, "the reply followed the whole turn");
    server.stop().await;
}
