//! One lobby for every node: two servers on one PostgreSQL database, as
//! separate processes would be. A seek made through one is listed and
//! accepted through the other, its creator told on the node it is on; the
//! game is listed on both; draw and takeback offers made through one are
//! seen through the other; a node's restart loses no seek; a notification
//! made through one node rings the bell on the other. Needs
//! MENAGERIE_TEST_POSTGRES (skipped without it, a failure under
//! MENAGERIE_REQUIRE_POSTGRES=1).

mod common;

use common::session::Browser;
use common::TestServer;
use futures_util::StreamExt;
use menagerie_loadtest::postgres::TestDatabase;
use menagerie_loadtest::WithNim;
use menagerie_server::computer::RandomOnly;
use menagerie_server::store::PgStore;
use menagerie_server::{HubConfig, RequestLimits};
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Duration;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

async fn node(url: &str) -> TestServer {
    let store = PgStore::open(url).expect("the database opens");
    let hub = menagerie_server::new_hub(Arc::new(WithNim), Arc::new(store), Arc::new(RandomOnly), HubConfig::default());
    hub.resume().await.expect("games resume");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let task = menagerie_server::spawn_with(listener, hub, RequestLimits::default());
    TestServer::from_parts(base, task)
}

/// The same browser (its cookies) talking to `server`.
fn through(browser: &Browser, server: &TestServer) -> Browser {
    let mut moved = Browser::new(server);
    moved.cookies = browser.cookies.clone();
    moved
}

async fn lobby_socket(server: &TestServer, browser: Option<&Browser>) -> common::WebSocket {
    let mut request = format!("ws://{}/api/lobby/ws", server.address()).into_client_request().unwrap();
    if let Some(browser) = browser {
        request.headers_mut().insert("cookie", browser.cookie_header().parse().unwrap());
    }
    common::socket_from("127.0.0.1", server, request).await.expect("the lobby socket opens")
}

/// Messages off a lobby socket until `done` holds for one.
async fn until(socket: &mut common::WebSocket, what: &str, done: impl Fn(&Value) -> bool) -> Value {
    loop {
        let message = tokio::time::timeout(Duration::from_secs(30), socket.next())
            .await
            .unwrap_or_else(|_| panic!("no lobby message within 30 s: waited for {what}"))
            .expect("the socket stays open")
            .unwrap();
        if let Message::Text(text) = message {
            let message: Value = serde_json::from_str(&text).unwrap();
            if done(&message) {
                return message;
            }
        }
    }
}

fn seek_ids(message: &Value) -> Vec<&str> {
    message["seeks"].as_array().map_or_else(Vec::new, |s| s.iter().map(|s| s["id"].as_str().unwrap()).collect())
}

async fn named(server: &TestServer, name: &str) -> Browser {
    let mut browser = Browser::new(server);
    let (status, me) = browser.post("/api/me", json!({ "name": name })).await;
    assert_eq!(status, 200, "{me}");
    browser
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seek_made_on_one_node_is_accepted_on_another_and_offers_cross_too() {
    let Some(database) = TestDatabase::create("lobby_nodes") else { return };
    let (a, b) = (node(database.url()).await, node(database.url()).await);
    let mut ada = named(&a, "Ada").await;
    let mut bob = named(&b, "Bob").await;
    let mut ada_socket = lobby_socket(&a, Some(&ada)).await;
    let mut watcher_on_b = lobby_socket(&b, None).await;

    let (status, seek) = ada.post("/api/seeks", json!({ "variant": "lma", "colour": "first" })).await;
    assert_eq!(status, 201, "{seek}");
    let id = seek["id"].as_str().unwrap().to_owned();
    let seen = until(&mut watcher_on_b, "the seek on node b", |m| seek_ids(m) == [id.as_str()]).await;
    assert_eq!((&seen["seeks"][0]["name"], &seen["seeks"][0]["yours"]), (&json!("Ada"), &json!(false)));
    let (status, listed) = bob.get("/api/seeks").await;
    assert_eq!((status, listed["seeks"][0]["id"].as_str()), (200, Some(id.as_str())));
    // Its creator sees it as hers through either node.
    let (_, hers) = through(&ada, &b).get("/api/seeks").await;
    assert_eq!(hers["seeks"][0]["yours"], true);

    let (status, accepted) = bob.post(&format!("/api/seeks/{id}/accept"), json!({})).await;
    assert_eq!(status, 201, "{accepted}");
    let game = accepted["id"].as_str().unwrap().to_owned();
    // Ada, on node a, is told of the game started on node b, with her seat.
    let started = until(&mut ada_socket, "the started game on node a", |m| m["type"] == "started").await;
    assert_eq!((&started["seek"], &started["game"]["id"]), (&json!(id), &json!(game)));
    let ada_secret = started["game"]["secrets"]["first"].as_str().expect("her own seat's secret").to_owned();
    assert!(started["game"]["secrets"]["second"].is_null(), "never the other seat's secret");
    // A second accepter, through the other node, finds it gone.
    let mut cid = named(&a, "Cid").await;
    let (status, _) = cid.post(&format!("/api/seeks/{id}/accept"), json!({})).await;
    assert_eq!(status, 404);
    // The game is listed on both nodes.
    for (name, server) in [("a", &a), ("b", &b)] {
        let mut socket = lobby_socket(server, None).await;
        let listing = until(&mut socket, "the game listed", |m| m["games"][0]["id"] == json!(game)).await;
        assert!(listing["seeks"].as_array().unwrap().is_empty(), "node {name}: the seek is gone");
    }

    // Offers made through one node are seen through the other.
    let bob_secret = accepted["secrets"]["second"].as_str().unwrap().to_owned();
    let (status, _) = a.play(&game, &ada_secret, &first_move(&a, &game, &ada_secret).await).await;
    assert_eq!(status, 200);
    let (status, offered) =
        b.post(&format!("/api/games/{game}/draw"), json!({ "seat": bob_secret, "action": "offer" })).await;
    assert_eq!(status, 200, "{offered}");
    let on_a = common::wait_for(&a, &game, Some(&ada_secret), |s| s["draw_offer"] == "second").await;
    assert_eq!(on_a["draw_offer"], "second");
    let (status, _) =
        a.post(&format!("/api/games/{game}/draw"), json!({ "seat": ada_secret, "action": "decline" })).await;
    assert_eq!(status, 200);
    common::wait_for(&b, &game, Some(&bob_secret), |s| s["draw_offer"].is_null()).await;
    let (status, asked) =
        a.post(&format!("/api/games/{game}/takeback"), json!({ "seat": ada_secret, "action": "offer" })).await;
    assert_eq!(status, 200, "{asked}");
    common::wait_for(&b, &game, Some(&bob_secret), |s| s["takeback_offer"] == "first").await;
}

async fn first_move(server: &TestServer, game: &str, secret: &str) -> String {
    let state = server.state(game, Some(secret)).await;
    state["legal_moves"][0].as_str().expect("a legal move").to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_that_restarts_loses_no_seek_and_a_creator_gone_from_every_node_loses_it() {
    let Some(database) = TestDatabase::create("lobby_restart") else { return };
    let (a, b) = (node(database.url()).await, node(database.url()).await);
    let mut ada = named(&a, "Ada").await;
    let ada_socket = lobby_socket(&a, Some(&ada)).await;
    let (status, seek) = ada.post("/api/seeks", json!({ "variant": "lma" })).await;
    assert_eq!(status, 201, "{seek}");
    let id = seek["id"].as_str().unwrap().to_owned();
    // Node a stops (its socket with it) and starts again.
    drop(ada_socket);
    a.stop().await;
    let a = node(database.url()).await;
    let mut watcher = lobby_socket(&a, None).await;
    until(&mut watcher, "the seek after the restart", |m| seek_ids(m) == [id.as_str()]).await;
    // Ada comes back through node b: her seek lives on, renewed there.
    let ada_on_b = through(&ada, &b);
    let ada_socket = lobby_socket(&b, Some(&ada_on_b)).await;
    tokio::time::sleep(menagerie_server::lobby::HANDOVER + Duration::from_secs(1)).await;
    let (_, listed) = Browser::new(&a).get("/api/seeks").await;
    assert_eq!(listed["seeks"][0]["id"].as_str(), Some(id.as_str()), "{listed}");
    // Gone from every node: the seek ends after the grace and the handover.
    drop(ada_socket);
    until(&mut watcher, "the seek to end", |m| seek_ids(m).is_empty()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_notification_made_through_one_node_rings_the_bell_on_another_at_once() {
    let Some(database) = TestDatabase::create("bell_nodes") else { return };
    let (a, b) = (node(database.url()).await, node(database.url()).await);
    let register = |server: &TestServer, name: &'static str| {
        let mut browser = Browser::new(server);
        async move {
            let (status, body) =
                browser.post("/api/register", json!({ "username": name, "password": "correct horse" })).await;
            assert_eq!(status, 201, "{body}");
            browser
        }
    };
    let mut ada = register(&a, "Ada").await;
    let bob = register(&b, "Bob").await;
    // Bob's bell is on node b.
    let mut request = format!("ws://{}/api/notifications/ws", b.address()).into_client_request().unwrap();
    request.headers_mut().insert("cookie", bob.cookie_header().parse().unwrap());
    let mut bell = common::socket_from("127.0.0.1", &b, request).await.expect("the bell opens");
    let first = until(&mut bell, "the bell's first message", |m| m["type"] == "notifications").await;
    assert_eq!(first["unread"], 0);
    // A correspondence game; Bob takes his seat through node b, Ada moves through node a.
    let (status, created) = ada
        .post(
            "/api/games",
            json!({ "variant": "lma", "opponent": "friend", "colour": "first", "clock": { "days": 3 } }),
        )
        .await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap();
    let (ada_seat, bob_seat) =
        (created["secrets"]["first"].as_str().unwrap(), created["secrets"]["second"].as_str().unwrap());
    let (status, _) = through(&bob, &b).get(&format!("/api/games/{id}?seat={bob_seat}")).await;
    assert_eq!(status, 200);
    let (_, state) = ada.get(&format!("/api/games/{id}?seat={ada_seat}")).await;
    let mv = state["legal_moves"][0].as_str().unwrap();
    let (status, moved) = ada.post(&format!("/api/games/{id}/move"), json!({ "seat": ada_seat, "move": mv })).await;
    assert_eq!(status, 200, "{moved}");
    // The bell looks by itself only every minute: this is the signal.
    let rung = until(&mut bell, "the bell to ring", |m| m["unread"] == 1).await;
    assert_eq!(rung["notifications"][0]["kind"], "yourMove");
}

/// A challenge's notice says where the challenge stands, on every node at
/// once: answered through one node, the bell open on another stops
/// offering Accept and Decline.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_accepted_through_one_node_is_shown_answered_on_the_bell_of_another() {
    let Some(database) = TestDatabase::create("challenge_bell_nodes") else { return };
    let (a, b) = (node(database.url()).await, node(database.url()).await);
    let mut ada = Browser::new(&a);
    let (status, _) = ada.post("/api/register", json!({ "username": "Ada", "password": "correct horse" })).await;
    assert_eq!(status, 201);
    let mut bob = Browser::new(&a);
    let (status, _) = bob.post("/api/register", json!({ "username": "Bob", "password": "correct horse" })).await;
    assert_eq!(status, 201);
    // Bob's bell is on node b.
    let mut request = format!("ws://{}/api/notifications/ws", b.address()).into_client_request().unwrap();
    request.headers_mut().insert("cookie", bob.cookie_header().parse().unwrap());
    let mut bell = common::socket_from("127.0.0.1", &b, request).await.expect("the bell opens");
    until(&mut bell, "the bell's first message", |m| m["type"] == "notifications").await;
    let (status, challenge) = ada.post("/api/challenge/Bob", json!({ "variant": "lma" })).await;
    assert_eq!(status, 200, "{challenge}");
    let id = challenge["id"].as_str().unwrap();
    let rung = until(&mut bell, "the challenge", |m| m["unread"] == 1).await;
    assert_eq!(rung["notifications"][0]["kind"], "challenge");
    assert_eq!(rung["notifications"][0]["challenge"], json!({ "id": id, "status": "created", "gameId": null }));
    // Bob accepts through node a (another device).
    let (status, accepted) = bob.post(&format!("/api/challenge/{id}/accept"), json!({})).await;
    assert_eq!(status, 200, "{accepted}");
    let answered =
        until(&mut bell, "the notice answered", |m| m["notifications"][0]["challenge"]["status"] == "accepted").await;
    assert_eq!(answered["notifications"][0]["challenge"]["gameId"], accepted["id"]);
    // A challenge declined is shown declined.
    let (_, again) = ada.post("/api/challenge/Bob", json!({ "variant": "fluid" })).await;
    let again = again["id"].as_str().unwrap();
    until(&mut bell, "the second challenge", |m| m["notifications"][0]["challenge"]["id"] == again).await;
    let (status, _) = through(&bob, &b).post(&format!("/api/challenge/{again}/decline"), json!({})).await;
    assert_eq!(status, 200);
    until(&mut bell, "the decline", |m| m["notifications"][0]["challenge"]["status"] == "declined").await;
}
