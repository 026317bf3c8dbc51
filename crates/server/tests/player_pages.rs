//! The players' pages (docs/players.md): a profile `/@/<username>` and the
//! leaderboards `/leaderboard`, `/leaderboard/<variant>` are the web page,
//! answered 404 when their address names nothing (no such player, no such
//! variant) so that clients and crawlers are told; the player-facing note
//! is served at /docs/players. What the pages draw is tested in
//! browser_tests/ratings.rs.

mod common;

use common::TestServer;
use serde_json::json;

async fn page(server: &TestServer, path: &str) -> (u16, String, String) {
    let response = server.client.get(format!("{}{path}", server.base)).send().await.unwrap();
    let status = response.status().as_u16();
    let kind = response.headers().get("content-type").map(|v| v.to_str().unwrap().to_owned()).unwrap_or_default();
    (status, kind, response.text().await.unwrap())
}

#[tokio::test]
async fn the_players_pages_are_the_web_page_and_an_address_naming_nothing_is_a_404() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("g.sqlite")).await;
    let (status, _) = server.post("/api/register", json!({ "username": "Ada_L", "password": "a long password" })).await;
    assert_eq!(status, 201);
    let registered = server
        .client
        .post(format!("{}/api/register", server.base))
        .json(&json!({ "username": "Gone", "password": "a long password" }))
        .send()
        .await
        .unwrap();
    assert_eq!(registered.status().as_u16(), 201);
    let session = registered.headers()["set-cookie"].to_str().unwrap().split(';').next().unwrap().to_owned();
    let closed = server
        .client
        .post(format!("{}/api/account/close", server.base))
        .header("cookie", session)
        .json(&json!({ "password": "a long password" }))
        .send()
        .await
        .unwrap();
    assert_eq!(closed.status().as_u16(), 204);
    for (path, expected) in [
        // A player's profile, in any case; a closed account's too (it says so).
        ("/@/Ada_L", 200),
        ("/@/ada_l", 200),
        ("/@/Gone", 200),
        ("/leaderboard", 200),
        ("/leaderboard/lma", 200),
        ("/leaderboard/lichen-3x3", 200),
        ("/leaderboard/no-such-variant", 404),
        ("/leaderboard/lma:princess", 404),
        // Not a name an account may have, and a name nobody has.
        ("/@/x", 404),
        ("/@/a%20b", 404),
        ("/@/Nobody", 404),
    ] {
        let (status, kind, body) = page(&server, path).await;
        assert_eq!(status, expected, "{path}");
        assert!(kind.starts_with("text/html"), "{path}: {kind}");
        // The page itself, which tells the person what is there or not.
        assert!(body.contains("/assets/app.js"), "{path}: {body}");
    }
    for asset in ["profile.js", "leaderboard.js", "chart.js", "ratings.js", "pgn.js"] {
        let (status, kind, _) = page(&server, &format!("/assets/{asset}")).await;
        assert_eq!((status, kind.as_str()), (200, "text/javascript; charset=utf-8"), "{asset}");
    }
    let (status, _, body) = page(&server, "/docs/players").await;
    assert_eq!(status, 200);
    assert!(body.contains("Leaderboards"), "{body}");
    server.stop().await;
}
