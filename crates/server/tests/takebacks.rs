//! Takebacks: asked for, accepted, declined or withdrawn like a draw offer;
//! granted at once by the computer below "hard" and refused at "hard"; a
//! whole Kelasu turn and a Lunch Chess action that drew no card go back
//! (not the deal); no takeback undoes a card dealt or drawn, with a friend
//! or against the computer, and the state says why to each seat; the
//! clocks read what they read then; all of it stored.

mod common;

use common::{discard_all, wait_for, TestServer};
use menagerie_server::computer::SearchLevels;
use serde_json::{json, Value};
use std::sync::Arc;

fn secret(created: &Value, side: &str) -> String {
    created["secrets"][side].as_str().unwrap_or_else(|| panic!("no {side} secret in {created}")).to_owned()
}

fn game_id(created: &Value) -> String {
    created["id"].as_str().unwrap().to_owned()
}

async fn takeback(server: &TestServer, id: &str, seat: &str, action: &str) -> (u16, Value) {
    server.post(&format!("/api/games/{id}/takeback"), json!({ "seat": seat, "action": action })).await
}

/// Plays the first legal move for `seat`.
async fn play_first(server: &TestServer, id: &str, seat: &str) -> Value {
    let (status, moves) = server.get(&format!("/api/games/{id}/moves?seat={seat}")).await;
    assert_eq!(status, 200, "{moves}");
    let text = moves["moves"][0].as_str().unwrap().to_owned();
    let (status, after) = server.play(id, seat, &text).await;
    assert_eq!(status, 200, "{text}: {after}");
    after
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_takeback_is_asked_for_and_answered_like_a_draw_offer() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite");
    let server = TestServer::start(&db).await;
    let created = server
        .create(json!({ "variant": "nim:stones=20", "opponent": "friend", "colour": "first", "clock": { "initial": 300, "increment": 2 } }))
        .await;
    let (id, first, second) = (game_id(&created), secret(&created, "first"), secret(&created, "second"));
    assert_eq!(takeback(&server, &id, &first, "offer").await.0, 409, "no move to take back yet");
    assert_eq!(takeback(&server, &id, &second, "accept").await.0, 409, "nothing to accept");
    assert_eq!(takeback(&server, &id, &first, "dance").await.0, 400);
    let (status, _) = server.post(&format!("/api/games/{id}/takeback"), json!({ "action": "offer" })).await;
    assert_eq!(status, 403, "spectators cannot ask");
    server.play(&id, &first, "1").await;
    server.play(&id, &second, "2").await;
    server.play(&id, &first, "3").await;
    let before = server.state(&id, None).await;
    assert_eq!(before["ply"], 3);
    let (status, state) = takeback(&server, &id, &first, "offer").await;
    assert_eq!((status, &state["takeback_offer"]), (200, &json!("first")), "{state}");
    assert_eq!(server.state(&id, Some(&second)).await["takeback_offer"], "first", "the other side sees it");
    let (status, state) = takeback(&server, &id, &second, "decline").await;
    assert_eq!((status, &state["takeback_offer"], &state["ply"]), (200, &Value::Null, &json!(3)));
    assert_eq!(takeback(&server, &id, &first, "offer").await.0, 200);
    assert_eq!(takeback(&server, &id, &first, "withdraw").await.0, 200);
    assert_eq!(takeback(&server, &id, &first, "withdraw").await.0, 409);
    assert_eq!(takeback(&server, &id, &first, "offer").await.0, 200);
    let (status, state) = takeback(&server, &id, &second, "accept").await;
    assert_eq!(status, 200, "{state}");
    assert_eq!((&state["ply"], &state["to_act"], &state["takeback_offer"]), (&json!(2), &json!("first"), &Value::Null));
    // The clocks read what they read after move 2, First's running again.
    assert_eq!(state["clock"]["running"], "first");
    assert_eq!(state["clock"]["second_ms"], before["clock"]["second_ms"]);
    // The second player's move can be taken back in its turn too: it asks
    // while First is to move, and First's asking back accepts.
    assert_eq!(takeback(&server, &id, &second, "offer").await.0, 200);
    let (status, state) = takeback(&server, &id, &first, "offer").await;
    assert_eq!((status, &state["ply"], &state["to_act"]), (200, &json!(1), &json!("second")), "{state}");
    // A move drops a pending ask.
    assert_eq!(takeback(&server, &id, &first, "offer").await.0, 200);
    let state = server.play(&id, &second, "1").await.1;
    assert_eq!(state["takeback_offer"], Value::Null);
    server.stop().await;
    // Taken back for good: the store has the same moves.
    let server = TestServer::start(&db).await;
    let again = server.state(&id, None).await;
    assert_eq!(again["ply"], 2);
    assert_eq!(again["moves"], state["moves"]);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_computer_below_hard_takes_back_at_once_and_at_hard_refuses() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start_with(&dir.path().join("games.sqlite"), Arc::new(SearchLevels)).await;
    let created = server
        .create(json!({ "variant": "nim:stones=20", "opponent": "computer", "level": "easy", "colour": "first" }))
        .await;
    let (id, seat) = (game_id(&created), secret(&created, "first"));
    server.play(&id, &seat, "1").await;
    wait_for(&server, &id, Some(&seat), |s| s["ply"] == 2).await;
    assert_eq!(
        server.state(&id, Some(&seat)).await["takeback"],
        json!({"first": {"allowed": true, "reason": null}, "second": null})
    );
    let (status, state) = takeback(&server, &id, &seat, "offer").await;
    assert_eq!(status, 200, "{state}");
    assert_eq!((&state["ply"], &state["your_turn"]), (&json!(0), &json!(true)), "both moves went back: {state}");
    let reason = &state["takeback"]["first"];
    assert_eq!(reason, &json!({"allowed": false, "reason": "you have no move to take back"}), "{state}");

    let created = server
        .create(json!({ "variant": "nim:stones=20", "opponent": "computer", "level": "hard", "colour": "first" }))
        .await;
    let (id, seat) = (game_id(&created), secret(&created, "first"));
    server.play(&id, &seat, "1").await;
    wait_for(&server, &id, Some(&seat), |s| s["ply"] == 2).await;
    let (status, answer) = takeback(&server, &id, &seat, "offer").await;
    assert_eq!(status, 409, "{answer}");
    let refused = "the computer at level hard does not take moves back";
    assert_eq!(answer["error"], refused, "{answer}");
    let state = server.state(&id, Some(&seat)).await;
    assert_eq!(state["takeback"]["first"], json!({"allowed": false, "reason": refused}), "the page can say why");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_kelasu_turn_goes_back_whole_and_a_lunch_takeback_keeps_the_deal() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("games.sqlite")).await;
    // Kelasu: every action of Blue's first turn goes back.
    let created = server.create(json!({ "variant": "kelasu", "opponent": "local", "colour": "first" })).await;
    let (id, first, second) = (game_id(&created), secret(&created, "first"), secret(&created, "second"));
    let mut state = play_first(&server, &id, &first).await;
    let mut actions = 1;
    while state["to_act"] == "first" {
        state = play_first(&server, &id, &first).await;
        actions += 1;
    }
    assert!(actions >= 1);
    assert_eq!(takeback(&server, &id, &first, "offer").await.0, 200);
    let (status, state) = takeback(&server, &id, &second, "accept").await;
    assert_eq!(
        (status, &state["ply"], &state["to_act"]),
        (200, &json!(0), &json!("first")),
        "{actions} actions: {state}"
    );

    // Lunch Chess: White's first action, a step that draws no card (both
    // hands are full), goes back; the dealt cards stay.
    let created = server.create(json!({ "variant": "lunch", "opponent": "local", "colour": "first" })).await;
    let (id, first, second) = (game_id(&created), secret(&created, "first"), secret(&created, "second"));
    let dealt = server.state(&id, Some(&first)).await;
    assert!(dealt["ply"].as_u64().unwrap() >= 10, "the deal is ten chance moves: {dealt}");
    let (status, state) = server.play(&id, &first, "e2e4").await;
    assert_eq!((status, &state["to_act"], &state["ply"]), (200, &json!("second"), &json!(11)), "{state}");
    assert_eq!(state["takeback"]["first"]["allowed"], true, "{state}");
    assert_eq!(takeback(&server, &id, &first, "offer").await.0, 200);
    let (status, state) = takeback(&server, &id, &second, "accept").await;
    assert_eq!(status, 200, "{state}");
    assert_eq!(state["ply"], dealt["ply"], "{state}");
    assert_eq!(state["to_act"], "first");
    let back = server.state(&id, Some(&first)).await;
    assert_eq!(back["board"]["hands"]["white"], dealt["board"]["hands"]["white"], "White holds the dealt hand again");
    server.stop().await;
}

/// Why a takeback that would undo a card dealt or drawn is refused.
const CARDS_SEEN: &str = "a takeback cannot undo a deal or draw that a player has seen";

/// In a friend game, White discards and draws five new cards: taking that
/// back would let White discard otherwise and draw again, or let the cards
/// come again to either side. Refused, and both seats' states say why;
/// Black's move after it, which drew nothing, may still go back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_takeback_undoes_a_card_a_player_has_seen_drawn() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("games.sqlite")).await;
    let created = server.create(json!({ "variant": "lunch", "opponent": "friend", "colour": "first" })).await;
    let (id, first, second) = (game_id(&created), secret(&created, "first"), secret(&created, "second"));
    let discard = discard_all(&server, &id, &first).await;
    assert_eq!(discard.matches('+').count(), 4, "five cards: {discard}");
    let (status, drawn) = server.play(&id, &first, &discard).await;
    assert_eq!((status, &drawn["to_act"]), (200, &json!("second")), "{drawn}");
    let (status, answer) = takeback(&server, &id, &first, "offer").await;
    assert_eq!((status, &answer["error"]), (409, &json!(CARDS_SEEN)), "{answer}");
    let refused = json!({"allowed": false, "reason": CARDS_SEEN});
    for seat in [&first, &second] {
        let state = server.state(&id, Some(seat)).await;
        assert_eq!(state["takeback_offer"], Value::Null, "no ask is pending: {state}");
        assert_eq!(state["takeback"]["first"], refused, "{state}");
        let nothing = json!({"allowed": false, "reason": "you have no move to take back"});
        assert_eq!(state["takeback"]["second"], nothing, "{state}");
    }
    assert_eq!(server.state(&id, None).await["takeback"]["first"], refused, "a spectator's page says it too");
    let (status, state) = server.play(&id, &second, "e7e5").await;
    assert_eq!((status, &state["to_act"]), (200, &json!("first")), "{state}");
    assert_eq!(state["takeback"]["second"]["allowed"], true, "{state}");
    assert_eq!(takeback(&server, &id, &first, "offer").await, (409, json!({ "error": CARDS_SEEN })));
    assert_eq!(takeback(&server, &id, &second, "offer").await.0, 200);
    let (status, state) = takeback(&server, &id, &first, "accept").await;
    assert_eq!((status, &state["ply"], &state["to_act"]), (200, &drawn["ply"], &json!("second")), "{state}");
    let white = &server.state(&id, Some(&first)).await["board"]["hands"]["white"];
    assert_eq!(white, &drawn["board"]["hands"]["white"], "White keeps the cards drawn");
    server.stop().await;
}

/// Against the computer at `easy`, which takes moves back at once: a
/// discard and its draws cannot be taken back to discard otherwise and
/// draw again (a re-roll).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_computer_takes_back_no_card_drawn() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start_with(&dir.path().join("games.sqlite"), Arc::new(SearchLevels)).await;
    let created =
        server.create(json!({ "variant": "lunch", "opponent": "computer", "level": "easy", "colour": "first" })).await;
    let (id, seat) = (game_id(&created), secret(&created, "first"));
    let discard = discard_all(&server, &id, &seat).await;
    let (status, drawn) = server.play(&id, &seat, &discard).await;
    assert_eq!(status, 200, "{drawn}");
    let (status, answer) = takeback(&server, &id, &seat, "offer").await;
    assert_eq!((status, &answer["error"]), (409, &json!(CARDS_SEEN)), "{answer}");
    let state = server.state(&id, Some(&seat)).await;
    assert_eq!(state["takeback"], json!({"first": {"allowed": false, "reason": CARDS_SEEN}, "second": null}));
    assert!(state["ply"].as_u64() >= drawn["ply"].as_u64(), "nothing went back: {state}");
    server.stop().await;
}
