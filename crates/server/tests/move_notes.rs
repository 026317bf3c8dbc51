//! Each move of a game's state carries its short human form and the player
//! whose turn it belongs to, worked out before the move was played, hidden
//! with its text, and the same after a restart.

mod common;

use common::TestServer;
use serde_json::{json, Value};

fn secret(created: &Value, side: &str) -> String {
    created["secrets"][side].as_str().unwrap_or_else(|| panic!("no {side} secret in {created}")).to_owned()
}

fn id(created: &Value) -> String {
    created["id"].as_str().unwrap().to_owned()
}

/// White's Rook on a4 can attack Black's Queen on a5.
const LUNCH_ATTACK: &str =
    "4k3/8/8/q7/R7/8/8/4K3 w - jab,kick dodge,block,firstaid - - - - - turn.action 0,0,0 0123456789abcdef - white";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moves_carry_their_short_form_and_whose_turn_they_belong_to() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite");
    let server = TestServer::start(&db).await;
    let created = server
        .create(json!({ "variant": "lunch", "position": LUNCH_ATTACK, "opponent": "local", "colour": "first" }))
        .await;
    let (id, white, black) = (id(&created), secret(&created, "first"), secret(&created, "second"));
    server.play(&id, &white, "attack:a4a5:kick").await;
    let (status, played) = server.play(&id, &black, "pass").await;
    assert_eq!(status, 200, "{played}");
    let moves = played["moves"].as_array().unwrap();
    let note = |i: usize| (moves[i]["label"].clone(), moves[i]["side"].clone(), moves[i]["actor"].clone());
    assert_eq!(note(0), (json!("Rxa5 Kick"), json!("first"), json!("first")));
    // A pass says what it declines: Black let the Kick stand, unhumiliated.
    assert_eq!(
        note(1),
        (json!("no Humiliation"), json!("first"), json!("second")),
        "Black's answer is in White's turn"
    );
    // A dealt card's label would name it: hidden like its text until the end.
    let dealt = server.create(json!({ "variant": "lunch", "opponent": "local", "colour": "first" })).await;
    let state = server.state(dealt["id"].as_str().unwrap(), Some(&secret(&dealt, "first"))).await;
    let deal = &state["moves"][0];
    assert_eq!(
        (&deal["actor"], &deal["text"], &deal["label"]),
        (&json!("chance"), &Value::Null, &Value::Null),
        "{deal}"
    );
    server.stop().await;
    // The notes are worked out again after a restart.
    let server = TestServer::start(&db).await;
    let again = server.state(&id, Some(&white)).await;
    assert_eq!(again["moves"], played["moves"]);
    server.stop().await;
}
