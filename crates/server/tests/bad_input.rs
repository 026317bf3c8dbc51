//! Bad input of every kind gets a 4xx with a one-line reason, and never
//! changes a game.

mod common;

use common::TestServer;
use serde_json::{json, Value};

fn one_line_reason(body: &Value) -> String {
    let reason = body["error"].as_str().unwrap_or_else(|| panic!("no error reason in {body}"));
    assert!(!reason.is_empty() && !reason.contains('\n'), "{reason:?}");
    reason.to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_requests_are_refused_and_change_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("g.sqlite")).await;
    let created = server.create(json!({ "variant": "nim:stones=10", "opponent": "friend", "colour": "first" })).await;
    let id = created["id"].as_str().unwrap().to_owned();
    let first = created["secrets"]["first"].as_str().unwrap().to_owned();
    let second = created["secrets"]["second"].as_str().unwrap().to_owned();
    let before = server.state(&id, None).await;
    let move_path = format!("/api/games/{id}/move");

    let cases: Vec<(&str, u16, Value)> = vec![
        ("unknown variant", 400, json!({ "variant": "no-such-game" })),
        ("bad option", 400, json!({ "variant": "nim:stones=lots" })),
        ("bad position", 400, json!({ "variant": "nim", "position": "many first" })),
        ("unknown opponent", 400, json!({ "variant": "nim", "opponent": "robot" })),
        ("unknown level", 400, json!({ "variant": "nim", "level": "grandmaster" })),
        ("unknown colour", 400, json!({ "variant": "nim", "colour": "purple" })),
        ("unknown field", 400, json!({ "variant": "nim", "colour": "first", "cheat": true })),
        ("variant missing", 400, json!({ "opponent": "friend" })),
        ("variant not a string", 400, json!({ "variant": 7 })),
    ];
    for (what, status, body) in cases {
        let (got, answer) = server.post("/api/games", body).await;
        assert_eq!(got, status, "{what}: {answer}");
        one_line_reason(&answer);
    }

    let move_cases: Vec<(&str, u16, Value)> = vec![
        ("trailing junk", 400, json!({ "seat": first, "move": "3x" })),
        ("too many stones", 422, json!({ "seat": first, "move": "4" })),
        ("malformed move", 400, json!({ "seat": first, "move": "two" })),
        ("empty move", 400, json!({ "seat": first, "move": "" })),
        ("wrong secret", 403, json!({ "seat": "AAAAAAAAAAAAAAAAAAAAAA", "move": "1" })),
        ("missing secret", 403, json!({ "move": "1" })),
        ("other seat's turn", 409, json!({ "seat": second, "move": "1" })),
        ("stale ply", 409, json!({ "seat": first, "move": "1", "ply": 5 })),
        ("move missing", 400, json!({ "seat": first })),
        ("move not a string", 400, json!({ "seat": first, "move": 1 })),
    ];
    for (what, status, body) in move_cases {
        let (got, answer) = server.post(&move_path, body).await;
        let reason = one_line_reason(&answer);
        assert_eq!(got, status, "{what}: {reason}");
    }
    // Malformed and oversized bodies, wrong content type.
    let (status, body) = server.post_raw(&move_path, "application/json", b"{\"seat\": ".to_vec()).await;
    assert_eq!(status, 400, "{body}");
    let (status, body) = server.post_raw(&move_path, "application/json", b"\xff\xfe not json".to_vec()).await;
    assert_eq!(status, 400, "{body}");
    let (status, body) = server.post_raw(&move_path, "text/plain", b"{}".to_vec()).await;
    assert_eq!(status, 415, "{body}");
    let huge = format!("{{\"seat\": \"{first}\", \"move\": \"{}\"}}", "1".repeat(100_000));
    let (status, body) = server.post_raw(&move_path, "application/json", huge.into_bytes()).await;
    assert_eq!(status, 413, "{body}");
    assert!(serde_json::from_str::<Value>(&body).is_ok_and(|v| v["error"].is_string()), "{body}");

    // Unknown games and pages.
    for path in ["/api/games/nosuchgame", "/api/games/..%2F..%2Fetc/moves", "/api/games/x/position/0", "/nothing"] {
        let (status, body) = server.get(path).await;
        assert_eq!(status, 404, "{path}: {body}");
        one_line_reason(&body);
    }
    let (status, body) = server.get(&format!("/api/games/{id}/position/many")).await;
    assert_eq!(status, 400, "{body}");
    let (status, _) = server.get(&format!("/api/games/{id}?seat=wrong")).await;
    assert_eq!(status, 403);
    let (status, _) = server.post(&format!("/api/games/{id}/resign"), json!({})).await;
    assert_eq!(status, 403, "spectators cannot resign");
    let (status, _) = server.post(&format!("/api/games/{id}/draw"), json!({ "seat": first, "action": "dance" })).await;
    assert_eq!(status, 400);
    let (status, _) = server.post(&format!("/api/games/{id}/rematch"), json!({ "seat": first })).await;
    assert_eq!(status, 409, "no rematch before the end");

    let after = server.state(&id, None).await;
    assert_eq!(after["moves"], before["moves"]);
    assert_eq!(after["board"], before["board"]);
    assert_eq!(after["draw_offer"], Value::Null);
    assert_eq!(after["result"], Value::Null);
    // And the game still plays.
    assert_eq!(server.play(&id, &first, "1").await.0, 200);
    server.stop().await;
}
