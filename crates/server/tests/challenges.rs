//! Challenges (docs/api.md, "Challenges"), at lichess's paths: made by a
//! page's session or a token, shown to the challenged account (its
//! notifications, `GET /api/challenge`), accepted (the game starts between
//! the two accounts, each holding its seat), declined or canceled once;
//! bots play rated games against people only where the operator allows it;
//! `POST /api/challenge/ai` starts a game against the computer at once.

mod common;

use common::lichess::account_with_token;
use common::TestServer;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_is_told_accepted_once_and_starts_the_game_between_the_accounts() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("g.sqlite")).await;
    let (mut alice, _) = account_with_token(&server, "Alice", &[]).await;
    let (mut bob, bob_api) = account_with_token(&server, "Bob", &["board:play", "challenge:read"]).await;

    // Alice challenges from the page (session, JSON).
    let terms = json!({ "variant": "kelasu", "clock.limit": 300, "clock.increment": 2, "color": "white" });
    let (status, challenge) = alice.post("/api/challenge/bob", terms).await;
    assert_eq!(status, 200, "{challenge}");
    assert_eq!(challenge["status"], "created");
    assert_eq!(challenge["direction"], "out");
    assert_eq!(challenge["challenger"]["name"], "Alice");
    assert_eq!(challenge["destUser"]["id"], "bob");
    assert_eq!(challenge["variant"]["key"], "kelasu");
    assert_eq!(challenge["timeControl"], json!({ "type": "clock", "limit": 300, "increment": 2, "show": "5+2" }));
    assert_eq!(challenge["speed"], "blitz");
    assert_eq!(challenge["rated"], false);
    let id = challenge["id"].as_str().unwrap().to_owned();

    // Bob is told: his bell, and his list of challenges (by token).
    let (_, notifications) = bob.get("/api/notifications").await;
    let notice = &notifications["notifications"][0];
    assert_eq!(notice["kind"], "challenge", "{notifications}");
    assert!(notice["text"].as_str().unwrap().contains("Alice challenges you"), "{notice}");
    assert!(notice["link"].as_str().unwrap().contains(&id), "{notice}");
    let (status, mine) = bob_api.get("/api/challenge").await;
    assert_eq!(status, 200, "{mine}");
    assert_eq!(mine["in"][0]["id"], id.as_str());
    assert_eq!(mine["in"][0]["direction"], "in");
    assert_eq!(mine["out"], json!([]));
    let (_, alices) = alice.get("/api/challenge").await;
    assert_eq!(alices["out"][0]["id"], id.as_str());

    // Bob accepts with his board token (no body, as berserk sends it).
    let (status, accepted) = bob_api.post_form(&format!("/api/challenge/{id}/accept"), &[]).await;
    assert_eq!(status, 200, "{accepted}");
    assert_eq!(accepted["ok"], true);
    let game = accepted["id"].as_str().unwrap().to_owned();
    let (status, again) = bob_api.post_form(&format!("/api/challenge/{id}/accept"), &[]).await;
    assert_eq!(status, 400, "{again}");
    assert!(again["error"].as_str().unwrap().contains("no longer open"));
    let (_, mine) = bob_api.get("/api/challenge").await;
    assert_eq!(mine["in"], json!([]));

    // Each account holds its seat: Alice asked for white (the first player).
    let (_, state) = alice.get(&format!("/api/games/{game}")).await;
    assert_eq!(state["you"], "first", "{state}");
    assert_eq!(state["variant"], "kelasu");
    assert!(state["clock"].is_object(), "{state}");
    let (_, state) = bob.get(&format!("/api/games/{game}")).await;
    assert_eq!(state["you"], "second", "{state}");
    let (_, players) = alice.get(&format!("/api/games/{game}/players")).await;
    assert_eq!(players["first"], "Alice", "{players}");
    assert_eq!(players["second"], "Bob", "{players}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn challenges_are_declined_or_canceled_once_and_refused_saying_why() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("g.sqlite")).await;
    let (mut alice, alice_api) = account_with_token(&server, "alice", &["challenge:write"]).await;
    let (_, bob_api) = account_with_token(&server, "bob", &["bot:play"]).await;
    let (_, reader) = account_with_token(&server, "carol", &["challenge:read"]).await;

    // Declined with a reason (berserk sends it as JSON).
    let (status, challenge) = alice_api.post_form("/api/challenge/bob", &[("rated", "false"), ("days", "2")]).await;
    assert_eq!(status, 200, "{challenge}");
    assert_eq!(challenge["timeControl"], json!({ "type": "correspondence", "daysPerTurn": 2 }));
    assert_eq!(challenge["variant"]["key"], "lma");
    let id = challenge["id"].as_str().unwrap().to_owned();
    let (status, _) = alice_api.post_form(&format!("/api/challenge/{id}/decline"), &[]).await;
    assert_eq!(status, 404, "only the challenged declines");
    let (status, declined) =
        bob_api.post_json(&format!("/api/challenge/{id}/decline"), json!({ "reason": "tooSlow" })).await;
    assert_eq!(status, 200, "{declined}");
    let (status, _) = bob_api.post_form(&format!("/api/challenge/{id}/accept"), &[]).await;
    assert_eq!(status, 400);

    // Canceled by the challenger only.
    let (_, challenge) = alice.post("/api/challenge/bob", json!({})).await;
    let id = challenge["id"].as_str().unwrap().to_owned();
    let (status, _) = bob_api.post_form(&format!("/api/challenge/{id}/cancel"), &[]).await;
    assert_eq!(status, 404);
    let (status, _) = alice.post(&format!("/api/challenge/{id}/cancel"), json!({})).await;
    assert_eq!(status, 200);
    let (status, _) = bob_api.post_form(&format!("/api/challenge/{id}/accept"), &[]).await;
    assert_eq!(status, 400);

    // Refusals.
    let (status, error) = alice.post("/api/challenge/nobody", json!({})).await;
    assert_eq!((status, error["error"].as_str().unwrap()), (404, "no player \"nobody\""));
    let (status, error) = alice.post("/api/challenge/alice", json!({})).await;
    assert_eq!(status, 400, "{error}");
    let (status, error) = alice.post("/api/challenge/bob", json!({ "variant": "standard" })).await;
    assert_eq!(status, 400, "{error}");
    assert!(error["error"].as_str().unwrap().contains("lma"), "{error}");
    let (status, error) = alice.post("/api/challenge/bob", json!({ "color": "green" })).await;
    assert_eq!(status, 400, "{error}");
    let (status, error) = reader.post_form("/api/challenge/bob", &[]).await;
    assert_eq!((status, error["error"].as_str().unwrap()), (403, "Missing scope: challenge:write"));
    let (status, error) = alice_api.get("/api/challenge").await;
    assert_eq!((status, error["error"].as_str().unwrap()), (403, "Missing scope: challenge:read"));
    let (status, _) = reqwest::Client::new()
        .post(format!("{}/api/challenge/bob", server.base))
        .json(&json!({}))
        .send()
        .await
        .map(|r| (r.status().as_u16(), ()))
        .unwrap();
    assert_eq!(status, 401);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bots_play_rated_games_against_people_only_where_the_operator_allows() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("g.sqlite")).await;
    let (_, alice) = account_with_token(&server, "alice", &["challenge:write"]).await;
    let (_, robot) = account_with_token(&server, "robot", &["bot:play"]).await;
    let (_, other) = account_with_token(&server, "other", &["bot:play"]).await;
    for bot in [&robot, &other] {
        assert_eq!(bot.post_form("/api/bot/account/upgrade", &[]).await.0, 200);
    }
    let (status, error) = robot.post_form("/api/challenge/alice", &[("rated", "true")]).await;
    assert_eq!(status, 400, "{error}");
    assert!(error["error"].as_str().unwrap().contains("rated"), "{error}");
    let (status, error) = alice.post_form("/api/challenge/robot", &[("rated", "true")]).await;
    assert_eq!(status, 400, "{error}");
    let (status, casual) = robot.post_form("/api/challenge/alice", &[("rated", "false")]).await;
    assert_eq!(status, 200, "{casual}");
    assert_eq!(casual["challenger"]["title"], "BOT");
    let (status, between_bots) = robot.post_form("/api/challenge/other", &[("rated", "true")]).await;
    assert_eq!(status, 200, "{between_bots}");

    // An operator that allows it (menagerie serve --bots-rated-vs-people).
    let dir = tempfile::tempdir().unwrap();
    let config = menagerie_server::HubConfig { max_searches: 1, bots_rated_vs_people: true, ..Default::default() };
    let server = TestServer::start_with_config(&dir.path().join("g.sqlite"), config).await;
    let (_, alice) = account_with_token(&server, "alice", &["challenge:write"]).await;
    let (_, robot) = account_with_token(&server, "robot", &["bot:play"]).await;
    assert_eq!(robot.post_form("/api/bot/account/upgrade", &[]).await.0, 200);
    let (status, rated) = robot.post_form("/api/challenge/alice", &[("rated", "true")]).await;
    assert_eq!(status, 200, "{rated}");
    let id = rated["id"].as_str().unwrap();
    let (status, accepted) = alice.post_form(&format!("/api/challenge/{id}/accept"), &[]).await;
    assert_eq!(status, 200, "{accepted}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_to_the_computer_starts_a_game_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("g.sqlite")).await;
    let (mut alice, api) = account_with_token(&server, "alice", &["challenge:write"]).await;
    let (status, game) =
        api.post_form("/api/challenge/ai", &[("level", "8"), ("variant", "lma"), ("color", "black")]).await;
    assert_eq!(status, 201, "{game}");
    assert_eq!(game["source"], "ai");
    assert_eq!(game["player"], "black");
    let id = game["id"].as_str().unwrap();
    let (_, state) = alice.get(&format!("/api/games/{id}")).await;
    assert_eq!(state["you"], "second", "{state}");
    assert_eq!(state["seats"]["first"]["kind"], "computer");
    assert_eq!(state["seats"]["first"]["level"], "random");
    let (status, error) = api.post_form("/api/challenge/ai", &[("level", "12")]).await;
    assert_eq!(status, 400, "{error}");
}

/// Blocking (docs/api.md, "Blocking"), lichess's: a blocked account cannot
/// challenge the blocker (400, lichess's words and no more), its notices to
/// it are dropped (blocking declines what it sent and forgets the bell's
/// notices of it), and the block is one way; by session or by a token with
/// `follow:write`; 404 for no such player; unblocking lifts it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_blocked_account_cannot_challenge_and_its_notices_are_dropped() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("g.sqlite")).await;
    let (mut ada, ada_api) = account_with_token(&server, "Ada", &["follow:write"]).await;
    let (mut bob, bob_api) = account_with_token(&server, "Bob", &["challenge:write"]).await;
    // Bob challenges Ada twice before she blocks him: her bell rings twice.
    for _ in 0..2 {
        assert_eq!(bob_api.post_form("/api/challenge/ada", &[("variant", "nim")]).await.0, 200);
    }
    assert_eq!(ada.get("/api/notifications").await.1["unread"], 2);
    let (_, user) = ada.get("/api/user/bob").await;
    assert_eq!(user["blocking"], false, "{user}");

    let (status, answer) = ada.post("/api/rel/block/Bob", json!({})).await;
    assert_eq!((status, &answer), (200, &json!({ "ok": true })));
    assert_eq!(ada.get("/api/user/bob").await.1["blocking"], true);
    let (_, bell) = ada.get("/api/notifications").await;
    assert_eq!((&bell["unread"], &bell["notifications"]), (&json!(0), &json!([])), "{bell}");
    let (_, open) = ada.get("/api/challenge").await;
    assert_eq!(open["in"], json!([]), "Bob's challenges were declined: {open}");

    // Bob can no longer challenge Ada, by token or from the page; she can him.
    let (status, refused) = bob_api.post_form("/api/challenge/ada", &[("variant", "nim")]).await;
    assert_eq!((status, &refused), (400, &json!({ "error": "You cannot challenge Ada." })));
    assert_eq!(bob.post("/api/challenge/ada", json!({ "variant": "nim" })).await.0, 400);
    assert_eq!(ada.get("/api/notifications").await.1["unread"], 0, "nothing reached her bell");
    assert_eq!(ada.post("/api/challenge/bob", json!({ "variant": "nim" })).await.0, 200, "one way");

    // By token: follow:write blocks and unblocks; another scope may not.
    let (status, answer) = ada_api.post_form("/api/rel/unblock/bob", &[]).await;
    assert_eq!((status, &answer), (200, &json!({ "ok": true })));
    assert_eq!(bob_api.post_form("/api/challenge/ada", &[("variant", "nim")]).await.0, 200, "unblocked");
    assert_eq!(ada.get("/api/notifications").await.1["unread"], 1);
    let (status, answer) = bob_api.post_form("/api/rel/block/ada", &[]).await;
    assert_eq!(status, 403, "{answer}");
    assert_eq!(answer["error"], "Missing scope: follow:write");
    assert_eq!(ada_api.post_form("/api/rel/block/bob", &[]).await.0, 200);
    assert_eq!(ada_api.post_form("/api/rel/block/bob", &[]).await.0, 200, "again, the same");
    assert_eq!(ada_api.post_form("/api/rel/block/nobody", &[]).await.0, 404);
    assert_eq!(ada_api.post_form("/api/rel/block/ada", &[]).await.0, 400, "not oneself");
    let anonymous = reqwest::Client::new();
    let response = anonymous
        .post(format!("{}/api/rel/block/bob", server.base))
        .header("content-type", "application/json")
        .body("{}")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 401);
    server.stop().await;
}
