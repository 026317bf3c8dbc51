//! `POST /api/analysis/position` (docs/api.md, "Analysis"): the analysis
//! board's nodes. A position from text or from a game, then moves played
//! from it, answered with its board, who acts and the legal moves; bad
//! input is refused clearly; a game with hidden cards that goes on gives
//! only the seat to act its current position, and no moves from it.

mod common;

use common::TestServer;
use serde_json::{json, Value};

/// Blue's Warrior on F6 steps to F5, the fourth Victory Tile.
const KELASU_WIN_IN_ONE: &str = "10/10/S9/10/4WW4/4W1W3/10/s9/w9/10 blue 1 - 0 1";

const PATH: &str = "/api/analysis/position";

fn texts(answer: &Value) -> Vec<&str> {
    answer["legal_moves"].as_array().unwrap().iter().map(|m| m["text"].as_str().unwrap()).collect()
}

#[tokio::test]
async fn a_typed_position_and_the_moves_played_from_it() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("db.sqlite")).await;
    let (status, node) = server.post(PATH, json!({ "variant": "kelasu", "position": KELASU_WIN_IN_ONE })).await;
    assert_eq!(status, 200, "{node}");
    assert_eq!(node["variant"], "kelasu");
    assert_eq!(node["players"], json!(["blue", "red"]));
    assert_eq!(node["to_act"], "first");
    assert_eq!(node["branches"], true);
    assert_eq!(node["position"], KELASU_WIN_IN_ONE);
    assert_eq!(node["board"]["to_act"], "blue");
    let win = node["legal_moves"].as_array().unwrap().iter().find(|m| m["text"] == "F6-F5").expect("F6-F5 is legal");
    assert_eq!(win["label"], "WF6-F5");
    // Playing the winning move ends the game: nothing more to play.
    let (status, after) =
        server.post(PATH, json!({ "variant": "kelasu", "position": KELASU_WIN_IN_ONE, "moves": ["F6-F5"] })).await;
    assert_eq!(status, 200, "{after}");
    assert_eq!(after["to_act"], Value::Null);
    assert!(after["legal_moves"].as_array().unwrap().is_empty());
    assert_eq!(after["branches"], false);
    assert_eq!(after["board"]["result"]["winner"], "blue", "{after}");

    // A line from the start: its position text opens the same node again.
    let (status, line) = server.post(PATH, json!({ "variant": "lma", "moves": ["2b1c3"] })).await;
    assert_eq!(status, 200, "{line}");
    assert_eq!(line["to_act"], "second");
    let (status, again) = server.post(PATH, json!({ "variant": "lma", "position": line["position"] })).await;
    assert_eq!(status, 200, "{again}");
    assert_eq!(again["board"]["squares"], line["board"]["squares"]);
    assert_eq!(texts(&again), texts(&line));
    assert!(!texts(&line).contains(&"2b1c3"));
    assert_eq!(line["chance_move"], Value::Null);

    // Where chance acts, one of its moves drawn with the game's odds.
    let (status, deal) = server.post(PATH, json!({ "variant": "lunch" })).await;
    assert_eq!(status, 200, "{deal}");
    assert_eq!(deal["to_act"], "chance");
    assert_eq!(deal["you"], "first", "a typed position shows the hand of the side on turn");
    let drawn = deal["chance_move"].as_str().expect("a chance move");
    assert!(texts(&deal).contains(&drawn), "{drawn} is not legal: {deal}");
    server.stop().await;
}

#[tokio::test]
async fn bad_positions_and_moves_are_refused_clearly() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("db.sqlite")).await;
    let long_line: Vec<String> = (0..2_001).map(|_| "x".to_owned()).collect();
    let cases = [
        (json!({}), 400, "either a variant"),
        (json!({ "variant": "lma", "game": "abc" }), 400, "either a variant"),
        (json!({ "variant": "lma", "seat": "abc" }), 400, "either a variant"),
        (json!({ "game": "abc", "position": "startpos" }), 400, "either a variant"),
        (json!({ "variant": "chess" }), 400, "unknown variant"),
        (json!({ "variant": "lma", "position": "nonsense" }), 400, "bad position text"),
        (json!({ "variant": "lma", "position": "x".repeat(10_001) }), 400, "too long"),
        (json!({ "variant": "lma", "moves": ["2b1c3", "zz"] }), 400, "move 2 of moves"),
        (json!({ "variant": "lma", "moves": ["2b1c3", "2b1c3"] }), 422, "move 2 of moves"),
        (json!({ "variant": "lma", "moves": long_line }), 400, "at most 2000 moves"),
        (json!({ "variant": "lma", "colour": "red" }), 400, "unknown field"),
        (json!({ "game": "00000000000000000000000000000000" }), 404, "no game"),
    ];
    for (request, status, expected) in cases {
        let (got, answer) = server.post(PATH, request.clone()).await;
        assert_eq!(got, status, "{request}: {answer}");
        assert!(answer["error"].as_str().unwrap().contains(expected), "{request}: {answer}");
    }
    let (status, _) = server.post_raw(PATH, "text/plain", b"{}".to_vec()).await;
    assert_eq!(status, 415);
    let (status, _) = server.post_raw(PATH, "application/json", b"{ not json".to_vec()).await;
    assert_eq!(status, 400);
    server.stop().await;
}

#[tokio::test]
async fn a_game_of_perfect_information_at_any_move_for_anyone() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("db.sqlite")).await;
    let created = server.create(json!({ "variant": "lma", "opponent": "local" })).await;
    let id = created["id"].as_str().unwrap();
    for (seat, mv) in [("first", "2b1c3"), ("second", "1e7d5")] {
        let (status, answer) = server.play(id, created["secrets"][seat].as_str().unwrap(), mv).await;
        assert_eq!(status, 200, "{answer}");
    }
    let (status, node) = server.post(PATH, json!({ "game": id, "ply": 1 })).await;
    assert_eq!(status, 200, "{node}");
    let (_, past) = server.get(&format!("/api/games/{id}/position/1")).await;
    assert_eq!(node["board"], past["board"]);
    assert_eq!(node["to_act"], "second");
    assert_eq!(node["branches"], true);
    assert_eq!(node["position"], Value::Null, "a game's position is not echoed as text");
    // A side line from move 1, which the game never played: the game is untouched.
    let other = texts(&node).into_iter().find(|t| *t != "1e7d5").unwrap().to_owned();
    let (status, side) = server.post(PATH, json!({ "game": id, "ply": 1, "moves": [other] })).await;
    assert_eq!(status, 200, "{side}");
    assert_eq!(side["to_act"], "first");
    assert_eq!(server.state(id, None).await["ply"], 2);
    let (status, answer) = server.post(PATH, json!({ "game": id, "ply": 3 })).await;
    assert_eq!(status, 404, "{answer}");
    let (status, answer) = server.post(PATH, json!({ "game": id, "seat": "not-a-secret" })).await;
    assert_eq!(status, 403, "{answer}");
    server.stop().await;
}

#[tokio::test]
async fn a_game_with_hidden_cards_that_goes_on_only_for_the_seat_to_act_now() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("db.sqlite")).await;
    let created = server.create(json!({ "variant": "lunch", "opponent": "local" })).await;
    let id = created["id"].as_str().unwrap();
    let state = server.state(id, None).await;
    let acting = state["to_act"].as_str().unwrap().to_owned();
    let waiting = if acting == "first" { "second" } else { "first" };
    let secret = created["secrets"][&acting].as_str().unwrap();
    let now = state["ply"].as_u64().unwrap();
    let legal = server.state(id, Some(secret)).await["legal_moves"][0].clone();
    let refused = [
        json!({ "game": id }),
        json!({ "game": id, "seat": created["secrets"][waiting] }),
        json!({ "game": id, "seat": secret, "ply": 0 }),
        json!({ "game": id, "seat": secret, "moves": [legal] }),
    ];
    for request in refused {
        let (status, answer) = server.post(PATH, request.clone()).await;
        assert_eq!(status, 403, "{request}: {answer}");
        assert!(answer["error"].as_str().unwrap().contains("only the seat to act"), "{answer}");
    }
    let (status, node) = server.post(PATH, json!({ "game": id, "seat": secret, "ply": now })).await;
    assert_eq!(status, 200, "{node}");
    // The seat's own view, as its game page shows it: the other hand hidden.
    let own = server.state(id, Some(secret)).await;
    assert_eq!(node["board"], own["board"]);
    assert_eq!(node["you"], acting);
    assert_eq!(node["branches"], false);
    assert_eq!(node["position"], Value::Null);
    assert_eq!(Value::from(texts(&node)), own["legal_moves"]);
    server.stop().await;
}
