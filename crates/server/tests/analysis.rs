//! The analysis board's socket (docs/api.md, "Analysis"): a mate in one is
//! found and streamed; the caps on analyses hold; closing a socket stops
//! its search; a game with hidden cards is analysed only for the seat to
//! act; bad requests get errors and the socket goes on.

mod common;

use common::TestServer;
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Blue's Warrior on F6 steps to F5, the fourth Victory Tile.
const KELASU_WIN_IN_ONE: &str = "10/10/S9/10/4WW4/4W1W3/10/s9/w9/10 blue 1 - 0 1";

async fn open(server: &TestServer) -> Socket {
    let url = format!("ws://{}/api/analysis/ws", server.address());
    tokio_tungstenite::connect_async(&url).await.unwrap().0
}

async fn send(socket: &mut Socket, message: Value) {
    socket.send(Message::Text(message.to_string().into())).await.unwrap();
}

async fn next(socket: &mut Socket) -> Value {
    loop {
        let message = tokio::time::timeout(Duration::from_secs(20), socket.next()).await.unwrap().unwrap().unwrap();
        if let Message::Text(text) = message {
            return serde_json::from_str(&text).unwrap();
        }
    }
}

/// Messages until one of type `kind` (returned with those before it).
async fn until(socket: &mut Socket, kind: &str) -> (Vec<Value>, Value) {
    let mut before = Vec::new();
    loop {
        let message = next(socket).await;
        if message["type"] == kind {
            return (before, message);
        }
        before.push(message);
    }
}

async fn running(server: &TestServer) -> u64 {
    let (status, load) = server.get("/api/analysis").await;
    assert_eq!(status, 200);
    load["running"].as_u64().unwrap()
}

async fn until_idle(server: &TestServer) {
    let started = Instant::now();
    while running(server).await > 0 {
        assert!(started.elapsed() < Duration::from_secs(10), "analyses still run");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn a_win_in_one_is_found_and_streamed() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("db.sqlite")).await;
    let mut socket = open(&server).await;
    send(&mut socket, json!({ "type": "analyse", "variant": "kelasu", "position": KELASU_WIN_IN_ONE, "depth": 3 }))
        .await;
    let (before, done) = until(&mut socket, "done").await;
    assert_eq!(before[0], json!({ "type": "started", "search": 1 }));
    let infos: Vec<&Value> = before.iter().filter(|m| m["type"] == "info").collect();
    assert!(!infos.is_empty(), "no progress streamed: {before:?}");
    assert!(infos.iter().all(|m| m["search"] == 1 && m["info"]["depth"].as_u64().unwrap() >= 1));
    assert_eq!(done["best"], "F6-F5", "{done}");
    assert_eq!(done["info"]["score"], json!({ "win": 1 }), "{done}");
    assert_eq!(done["info"]["pv"][0], "F6-F5");
    // The same socket analyses a line played from the start, by moves.
    send(&mut socket, json!({ "type": "analyse", "variant": "lma", "moves": ["2b1c3"], "depth": 2 })).await;
    let (_, done) = until(&mut socket, "done").await;
    assert_eq!(done["search"], 2);
    assert!(done["best"].as_str().unwrap().starts_with('1') || done["best"].as_str().unwrap().starts_with('2'));
    until_idle(&server).await;
    server.stop().await;
}

#[tokio::test]
async fn caps_hold_and_a_closed_socket_stops_its_search() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("db.sqlite")).await;
    let (_, load) = server.get("/api/analysis").await;
    let max = load["max"].as_u64().unwrap();
    let long = json!({ "type": "analyse", "variant": "lma", "time_ms": 20_000 });
    // Sockets from this client until the server refuses one: the global
    // cap or the cap per client, whichever is lower.
    let mut sockets = Vec::new();
    let refused = loop {
        let mut socket = open(&server).await;
        send(&mut socket, long.clone()).await;
        let answer = next(&mut socket).await;
        if answer["type"] == "error" {
            break answer;
        }
        assert_eq!(answer["type"], "started", "{answer}");
        sockets.push(socket);
        assert!(sockets.len() as u64 <= max.min(2), "more analyses ran than the caps allow");
    };
    let reason = refused["error"].as_str().unwrap();
    assert!(reason.contains("from one client") || reason.contains("as many analyses as it may"), "{reason}");
    assert_eq!(running(&server).await, sockets.len() as u64);
    // Closing the sockets stops their searches long before their 20 s.
    let closed = Instant::now();
    for mut socket in sockets {
        socket.close(None).await.unwrap();
    }
    until_idle(&server).await;
    assert!(closed.elapsed() < Duration::from_secs(10));
    // `stop` ends a search at once, with its result so far.
    let mut socket = open(&server).await;
    send(&mut socket, long.clone()).await;
    assert_eq!(next(&mut socket).await["type"], "started");
    tokio::time::sleep(Duration::from_millis(300)).await;
    send(&mut socket, json!({ "type": "stop" })).await;
    let (_, done) = until(&mut socket, "done").await;
    assert!(done["best"].is_string(), "{done}");
    until_idle(&server).await;
    server.stop().await;
}

/// The analysis board asks for a new position at every click: a socket's
/// new request replaces its search even when the caps are full, its own
/// stopping search included (the new one starts once the old one ended).
#[tokio::test]
async fn a_new_position_replaces_the_search_even_at_the_caps() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("db.sqlite")).await;
    let (_, load) = server.get("/api/analysis").await;
    let full = load["max"].as_u64().unwrap().min(2);
    let long = json!({ "type": "analyse", "variant": "lma", "time_ms": 20_000 });
    let mut sockets = Vec::new();
    for _ in 0..full {
        let mut socket = open(&server).await;
        send(&mut socket, long.clone()).await;
        assert_eq!(next(&mut socket).await["type"], "started");
        sockets.push(socket);
    }
    let last = sockets.last_mut().unwrap();
    for search in 2..=4 {
        let line = if search % 2 == 0 { vec!["2b1c3"] } else { vec![] };
        send(last, json!({ "type": "analyse", "variant": "lma", "moves": line, "time_ms": 20_000 })).await;
        let (before, started) = until(last, "started").await;
        assert_eq!(started["search"], search, "{before:?} {started}");
        assert!(before.iter().any(|m| m["type"] == "done" && m["search"] == search - 1), "{before:?}");
        assert!(before.iter().all(|m| m["type"] != "error"), "{before:?}");
    }
    assert_eq!(running(&server).await, full);
    drop(sockets);
    until_idle(&server).await;
    server.stop().await;
}

#[tokio::test]
async fn hidden_cards_are_analysed_only_for_the_seat_to_act() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("db.sqlite")).await;
    let created = server.create(json!({ "variant": "lunch", "opponent": "local" })).await;
    let id = created["id"].as_str().unwrap();
    let state = server.state(id, None).await;
    let acting = state["to_act"].as_str().unwrap();
    let waiting = if acting == "first" { "second" } else { "first" };
    let mut socket = open(&server).await;
    let refusals = [
        json!({ "type": "analyse", "game": id, "time_ms": 500 }),
        json!({ "type": "analyse", "game": id, "seat": created["secrets"][waiting], "time_ms": 500 }),
        json!({ "type": "analyse", "game": id, "seat": created["secrets"][acting], "ply": 0, "time_ms": 500 }),
    ];
    for request in refusals {
        send(&mut socket, request.clone()).await;
        let answer = next(&mut socket).await;
        assert_eq!(answer["type"], "error", "{request}: {answer}");
        assert!(answer["error"].as_str().unwrap().contains("only the seat to act"), "{answer}");
    }
    let request = json!({ "type": "analyse", "game": id, "seat": created["secrets"][acting], "nodes": 200 });
    send(&mut socket, request).await;
    let (_, done) = until(&mut socket, "done").await;
    let legal = server.state(id, created["secrets"][acting].as_str()).await["legal_moves"].clone();
    assert!(legal.as_array().unwrap().contains(&done["best"]), "{done} not in {legal}");
    // A game of perfect information: anyone, at any move.
    let open_game =
        server.create(json!({ "variant": "kelasu", "opponent": "local", "position": KELASU_WIN_IN_ONE })).await;
    send(&mut socket, json!({ "type": "analyse", "game": open_game["id"], "depth": 3 })).await;
    let (_, done) = until(&mut socket, "done").await;
    assert_eq!(done["best"], "F6-F5");
    until_idle(&server).await;
    server.stop().await;
}

#[tokio::test]
async fn bad_requests_get_errors_and_the_socket_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("db.sqlite")).await;
    let mut socket = open(&server).await;
    let cases = [
        (json!("not an object"), "expected"),
        (json!({ "type": "dance" }), "expected"),
        (json!({ "type": "analyse" }), "either a variant"),
        (json!({ "type": "analyse", "variant": "lma", "game": "x" }), "either a variant"),
        (json!({ "type": "analyse", "variant": "chess" }), "unknown variant"),
        (json!({ "type": "analyse", "variant": "lma", "position": "nonsense" }), "bad position text"),
        (json!({ "type": "analyse", "variant": "lma", "moves": ["2b1c3", "zz"] }), "move 2 of moves"),
        (json!({ "type": "analyse", "variant": "lma", "colour": "red" }), "unknown field"),
        (json!({ "type": "analyse", "game": "00000000000000000000000000000000" }), "no game"),
        (json!({ "type": "analyse", "variant": "nim" }), "cannot be analysed"),
        (
            json!({ "type": "analyse", "variant": "kelasu", "position": KELASU_WIN_IN_ONE, "moves": ["F6-F5"] }),
            "the game is over",
        ),
    ];
    for (request, expected) in cases {
        send(&mut socket, request.clone()).await;
        let (_, error) = until(&mut socket, "error").await;
        assert!(error["error"].as_str().unwrap().contains(expected), "{request}: {error}");
    }
    socket.send(Message::Text("{ not json".into())).await.unwrap();
    assert!(next(&mut socket).await["error"].as_str().unwrap().contains("malformed JSON"));
    send(&mut socket, json!({ "type": "analyse", "variant": "kelasu", "position": KELASU_WIN_IN_ONE, "depth": 2 }))
        .await;
    assert_eq!(until(&mut socket, "done").await.1["best"], "F6-F5");
    until_idle(&server).await;
    server.stop().await;
}
