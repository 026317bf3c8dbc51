//! Game records through the API (docs/records.md, docs/api.md): a finished
//! game of every variant round-trips (its record imports as a new game with
//! the same moves and result, whose record is the same text); an ongoing
//! Lunch Chess game's record keeps its chance moves back; malformed records,
//! illegal moves and oversized bodies are refused and start no game.

mod common;

use common::{variants, TestServer};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};

async fn record(server: &TestServer, id: &str) -> String {
    let response = server.client.get(format!("{}/api/games/{id}/record", server.base)).send().await.unwrap();
    assert_eq!(response.status().as_u16(), 200);
    let kind = response.headers()["content-type"].to_str().unwrap().to_owned();
    assert!(kind.starts_with("application/vnd.chess-pgn"), "{kind}");
    response.text().await.unwrap()
}

/// Plays random legal moves for whoever acts in a local game until it ends
/// or `cap` moves were played; then the first player resigns.
async fn play_out(server: &TestServer, created: &Value, seed: u64, cap: usize) -> Value {
    let id = created["id"].as_str().unwrap();
    let mut rng = StdRng::seed_from_u64(seed);
    for _ in 0..cap {
        let state = server.state(id, None).await;
        let Some(seat) = state["to_act"].as_str() else { return state };
        let secret = created["secrets"][seat].as_str().unwrap();
        let mine = server.state(id, Some(secret)).await;
        let moves = mine["legal_moves"].as_array().unwrap();
        let mv = moves[rng.random_range(0..moves.len())].as_str().unwrap();
        let (status, answer) = server.play(id, secret, mv).await;
        assert_eq!(status, 200, "{mv}: {answer}");
    }
    let secret = created["secrets"]["first"].as_str().unwrap();
    let (status, state) = server.post(&format!("/api/games/{id}/resign"), json!({ "seat": secret })).await;
    assert_eq!(status, 200, "{state}");
    state
}

async fn import(server: &TestServer, body: Value) -> (u16, Value) {
    server.post("/api/games/import", body).await
}

#[tokio::test]
async fn a_finished_game_of_every_variant_round_trips() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("db.sqlite")).await;
    for (index, variant) in variants().into_iter().enumerate() {
        let created = server.create(json!({ "variant": variant, "opponent": "local" })).await;
        let finished = play_out(&server, &created, index as u64, 60).await;
        assert!(finished["result"].is_object(), "{variant}: {finished}");
        let text = record(&server, created["id"].as_str().unwrap()).await;
        let result_tag = match finished["result"]["winner"].as_str() {
            Some("first") => "1-0",
            Some(_) => "0-1",
            None => "1/2-1/2",
        };
        assert!(text.contains(&format!("[Result \"{result_tag}\"]")), "{variant}: {text}");
        assert!(text.contains(&format!("[Termination \"{}\"]", finished["result"]["reason"].as_str().unwrap())));

        let (status, imported) = import(&server, json!({ "record": text })).await;
        assert_eq!(status, 201, "{variant}: {imported}\n{text}");
        assert_eq!(imported["mode"], "local");
        let new_id = imported["id"].as_str().unwrap();
        assert_ne!(new_id, created["id"].as_str().unwrap());
        let state = server.state(new_id, None).await;
        assert_eq!(state["ply"], finished["ply"], "{variant}");
        assert_eq!(state["result"], finished["result"], "{variant}");
        assert_eq!(state["moves"], server.state(created["id"].as_str().unwrap(), None).await["moves"]);
        // The same game written again: the same record, tag for tag.
        assert_eq!(record(&server, new_id).await, text, "{variant}");
    }
    server.stop().await;
}

#[tokio::test]
async fn an_unfinished_record_continues_against_the_computer() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("db.sqlite")).await;
    let text = "[Variant \"lma\"]\n\n1. 2b1c3 1e7d5 *\n";
    let body = json!({ "record": text, "opponent": "computer", "colour": "white" });
    let (status, imported) = import(&server, body).await;
    assert_eq!(status, 201, "{imported}");
    let id = imported["id"].as_str().unwrap();
    let secret = imported["secrets"]["first"].as_str().unwrap();
    assert!(imported["secrets"]["second"].is_null(), "the computer holds the second seat");
    let state = server.state(id, Some(secret)).await;
    assert_eq!((state["ply"].as_u64(), state["your_turn"].as_bool()), (Some(2), Some(true)), "{state}");
    let mv = state["legal_moves"][0].as_str().unwrap().to_owned();
    let (status, _) = server.play(id, secret, &mv).await;
    assert_eq!(status, 200);
    let answered = common::wait_for(&server, id, Some(secret), |s| s["ply"].as_u64() == Some(4)).await;
    assert_eq!(answered["your_turn"], true);
    server.stop().await;
}

#[tokio::test]
async fn an_ongoing_lunch_game_shows_only_its_public_part() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("db.sqlite")).await;
    let created = server.create(json!({ "variant": "lunch", "opponent": "local" })).await;
    let id = created["id"].as_str().unwrap();
    let mut rng = StdRng::seed_from_u64(9);
    for _ in 0..12 {
        let state = server.state(id, None).await;
        let seat = state["to_act"].as_str().unwrap();
        let secret = created["secrets"][seat].as_str().unwrap();
        let moves = server.state(id, Some(secret)).await["legal_moves"].as_array().unwrap().clone();
        let mv = moves[rng.random_range(0..moves.len())].as_str().unwrap().to_owned();
        server.play(id, secret, &mv).await;
    }
    let public = record(&server, id).await;
    assert!(!public.contains("draw:"), "{public}");
    assert!(public.contains("[Result \"*\"]"), "{public}");
    // Not importable: chance's moves are missing.
    let (status, error) = import(&server, json!({ "record": public })).await;
    assert_eq!(status, 422, "{error}");
    assert!(error["error"].as_str().unwrap().contains("holds only its public part"), "{error}");
    // Once over, the record is complete, and a friend game may not start from it.
    let secret = created["secrets"]["second"].as_str().unwrap();
    server.post(&format!("/api/games/{id}/resign"), json!({ "seat": secret })).await;
    let complete = record(&server, id).await;
    assert!(complete.matches("draw:").count() >= 10, "the deal at least: {complete}");
    let (status, error) = import(&server, json!({ "record": complete, "opponent": "friend" })).await;
    assert_eq!(status, 400, "{error}");
    assert!(error["error"].as_str().unwrap().contains("dealt by the server"), "{error}");
    let (status, imported) = import(&server, json!({ "record": complete, "opponent": "computer" })).await;
    assert_eq!(status, 201, "{imported}");
    server.stop().await;
}

#[tokio::test]
async fn faulty_records_are_refused_and_start_no_game() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("db.sqlite")).await;
    let cases: [(Value, u16, &str); 10] = [
        (
            json!({ "record": "[Variant \"lma\"]\n1. 2b1c3 1e7d5 2. 2c3c9 *" }),
            422,
            "game 1, move 2. \"2c3c9\" (ply 3): malformed",
        ),
        (json!({ "record": "[Variant \"lma\"]\n1. 2b1c3 2b1c3 *" }), 422, "move 1... \"2b1c3\" (ply 2): illegal"),
        (json!({ "record": "[Variant \"lma\"]\n1. 2b1c3" }), 400, "without a result"),
        (json!({ "record": "1. 2b1c3 *" }), 400, "no Variant tag"),
        (json!({ "record": "[Variant \"chess\"] *" }), 400, "unknown variant"),
        (json!({ "record": "" }), 400, "no record found"),
        (json!({ "record": "[Variant \"lma\"] * [Variant \"lma\"] *" }), 400, "one record at a time"),
        (json!({ "record": "[Variant \"nim:stones=2\"] 1. 2 0-1" }), 422, "the moves end the game"),
        (json!({ "record": "[Variant \"lma\"] *", "opponent": "robot" }), 400, "unknown opponent"),
        (json!({ "record": "[Variant \"lma\"] *", "pgn": 1 }), 400, "unknown field"),
    ];
    for (body, status, expected) in cases {
        let (got, error) = import(&server, body.clone()).await;
        assert_eq!(got, status, "{body}: {error}");
        let reason = error["error"].as_str().unwrap();
        assert!(reason.contains(expected), "{body}: {reason}");
    }
    let (status, text) = server.post_raw("/api/games/import", "text/plain", b"[Variant \"lma\"] *".to_vec()).await;
    assert_eq!(status, 415, "{text}");
    let (status, text) = server.post_raw("/api/games/import", "application/json", b"{not json".to_vec()).await;
    assert_eq!(status, 400, "{text}");
    // Mangled bytes of a real record: refused or imported whole, never a 500.
    let good = "[Variant \"lma\"]\n1. 2b1c3 1e7d5 2. 1c3b5 1a6a4 *\n";
    let mut rng = StdRng::seed_from_u64(4);
    for _ in 0..60 {
        let mut bytes: Vec<char> = good.chars().collect();
        for _ in 0..3 {
            let at = rng.random_range(0..bytes.len());
            match rng.random_range(0..3) {
                0 => bytes[at] = char::from(rng.random_range(b' '..b'~')),
                1 => drop(bytes.remove(at)),
                _ => bytes.insert(at, char::from(rng.random_range(b' '..b'~'))),
            }
        }
        let text: String = bytes.into_iter().collect();
        let (status, answer) = import(&server, json!({ "record": text })).await;
        assert!([201, 400, 422].contains(&status), "{text}: {status} {answer}");
    }
    let (status, _) = server.get("/api/games/00000000000000000000000000000000/record").await;
    assert_eq!(status, 404);
    server.stop().await;
}

#[tokio::test]
async fn records_have_their_own_size_limit() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("db.sqlite")).await;
    // Larger than other bodies may be (16 KiB), within the records' limit:
    // a long comment in a good record.
    let long = format!("[Variant \"lma\"]\n{{{}}}\n1. 2b1c3 *", "x".repeat(100_000));
    let (status, answer) = import(&server, json!({ "record": long })).await;
    assert_eq!(status, 201, "{answer}");
    let too_long = format!("[Variant \"lma\"]\n{{{}}}\n1. 2b1c3 *", "x".repeat(600 * 1024));
    let (status, answer) = import(&server, json!({ "record": too_long })).await;
    assert_eq!(status, 413, "{answer}");
    assert_eq!(answer["error"], "request body larger than 524288 bytes");
    // Other routes keep their limit.
    let (status, _) = server.post("/api/games", json!({ "variant": "lma", "position": "x".repeat(20_000) })).await;
    assert_eq!(status, 413);
    server.stop().await;
}

#[tokio::test]
async fn a_long_game_imports_whole() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("db.sqlite")).await;
    // Nim from 20000 stones, one at a time: 20000 moves, some 60 KB.
    let mut text = String::from("[Variant \"nim:stones=20000\"]\n\n");
    for turn in 1..=10_000 {
        text.push_str(&format!("{turn}. 1 1\n"));
    }
    text.push_str("0-1\n");
    assert!(text.len() > 16 * 1024, "larger than other bodies may be: {} bytes", text.len());
    let started = std::time::Instant::now();
    let (status, imported) = import(&server, json!({ "record": text })).await;
    eprintln!("imported 20000 moves in {:?}", started.elapsed());
    assert_eq!(status, 201, "{imported}");
    let id = imported["id"].as_str().unwrap();
    let state = server.state(id, None).await;
    assert_eq!(state["ply"].as_u64(), Some(20_000));
    assert_eq!(state["result"]["winner"], "second");
    server.stop().await;
}

#[tokio::test]
async fn absurd_tags_are_refused_naming_the_limit() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("db.sqlite")).await;
    let tags = |count: usize| (0..count).map(|n| format!("[T{n} \"x\"]\n")).collect::<String>();
    // As the review's record: some 40,000 tags in 512 KiB. The reader stops
    // at the first tag past the limit, so such a record costs no more than that.
    let many = format!("[Variant \"lma\"]\n{}\n*", (0..40_000).map(|n| format!("[T{n}\"\"]")).collect::<String>());
    let (status, answer) = import(&server, json!({ "record": many })).await;
    assert_eq!(status, 400, "{answer}");
    assert_eq!(answer["error"], "game 1, line 2: too many tags: a record has at most 100");
    let (status, answer) = import(&server, json!({ "record": format!("[Variant \"lma\"]\n{}*", tags(100)) })).await;
    assert_eq!(status, 400, "{answer}");
    assert_eq!(answer["error"], "game 1, line 101: too many tags: a record has at most 100");
    let long_value = format!("[Variant \"lma\"]\n[Note \"{}\"]\n*", "x".repeat(20_000));
    let (status, answer) = import(&server, json!({ "record": long_value })).await;
    assert_eq!(status, 400, "{answer}");
    assert_eq!(answer["error"], "game 1, line 2: tag Note: the value is longer than 10000 bytes");
    let long_name = format!("[Variant \"lma\"]\n[{} \"x\"]\n*", "N".repeat(200));
    let (status, answer) = import(&server, json!({ "record": long_name })).await;
    assert_eq!(status, 400, "{answer}");
    assert_eq!(answer["error"], "game 1, line 2: a tag name is longer than 100 bytes");
    // At the limits, a record is read.
    let most = format!("[Variant \"lma\"]\n{}[Note \"{}\"]\n*", tags(98), "x".repeat(10_000));
    let (status, answer) = import(&server, json!({ "record": most })).await;
    assert_eq!(status, 201, "{answer}");
    server.stop().await;
}
