//! Abandonment (docs/api.md, "Abandonment"): when a player's sockets have
//! been gone from a live game that waits for it, the other claims the win
//! or a draw; never while the player is here, on this node or another
//! (PostgreSQL test: needs MENAGERIE_TEST_POSTGRES, skipped without it, a
//! failure under MENAGERIE_REQUIRE_POSTGRES=1).

mod common;

use common::TestServer;
use menagerie_loadtest::postgres::TestDatabase;
use menagerie_loadtest::WithNim;
use menagerie_server::computer::RandomOnly;
use menagerie_server::store::{PgStore, Store};
use menagerie_server::{HubConfig, RequestLimits};
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Duration;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

async fn server(store: Arc<dyn Store>, claim_after: Duration) -> TestServer {
    let config = HubConfig { claim_after, ..HubConfig::default() };
    let hub = menagerie_server::new_hub(Arc::new(WithNim), store, Arc::new(RandomOnly), config);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let task = menagerie_server::spawn_with(listener, hub, RequestLimits::default());
    TestServer::from_parts(base, task)
}

/// A seat's socket on its game.
async fn seat_socket(server: &TestServer, id: &str, secret: &str) -> common::WebSocket {
    let request = format!("ws://{}/api/games/{id}/ws?seat={secret}", server.address()).into_client_request().unwrap();
    common::socket_from("127.0.0.1", server, request).await.expect("the socket opens")
}

/// A live friend game of LMA after one move each and another by the first
/// seat: the game waits for the second. Answers its id and both secrets.
async fn waiting_for_second(server: &TestServer, clock: Value) -> (String, String, String) {
    let created =
        server.create(json!({ "variant": "lma", "opponent": "friend", "colour": "first", "clock": clock })).await;
    let id = created["id"].as_str().unwrap().to_owned();
    let secrets = created["secrets"].clone();
    let (first, second) =
        (secrets["first"].as_str().unwrap().to_owned(), secrets["second"].as_str().unwrap().to_owned());
    for secret in [&first, &second, &first] {
        let state = server.state(&id, Some(secret)).await;
        let text = state["legal_moves"][0].as_str().unwrap().to_owned();
        let (status, answer) = server.play(&id, secret, &text).await;
        assert_eq!(status, 200, "{answer}");
    }
    (id, first, second)
}

async fn claim(server: &TestServer, id: &str, secret: &str, result: &str) -> (u16, Value) {
    server.post(&format!("/api/games/{id}/claim"), json!({ "seat": secret, "result": result })).await
}

async fn claimable(server: &TestServer, id: &str, secret: &str) -> Value {
    let (status, answer) = server.get(&format!("/api/games/{id}/claim?seat={secret}")).await;
    assert_eq!(status, 200, "{answer}");
    answer
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_gone_long_enough_loses_the_game_it_holds_up_and_not_before() {
    let dir = tempfile::tempdir().unwrap();
    let store = menagerie_server::store::SqliteStore::open(&dir.path().join("games.sqlite")).unwrap();
    let after = Duration::from_secs(2);
    let server = server(Arc::new(store), after).await;
    let (id, first, second) = waiting_for_second(&server, json!({ "initial": 300, "increment": 0 })).await;
    let bob = seat_socket(&server, &id, &second).await;
    // Bob is here: no claim, however long.
    tokio::time::sleep(after + Duration::from_millis(500)).await;
    let (status, refused) = claim(&server, &id, &first, "win").await;
    assert_eq!((status, refused["error"].as_str()), (409, Some("your opponent is still here")));
    // Bob leaves: not at once.
    drop(bob);
    tokio::time::sleep(Duration::from_millis(300)).await;
    let answer = claimable(&server, &id, &first).await;
    assert_eq!(answer["claimable"], false);
    assert!(answer["reason"].as_str().unwrap().contains("you can claim after 2 s"), "{answer}");
    // Bob cannot claim a game that waits for him, nor can anyone claim with a bad result.
    let (status, refused) = claim(&server, &id, &second, "win").await;
    assert_eq!(status, 409, "{refused}");
    let (status, refused) = claim(&server, &id, &first, "everything").await;
    assert_eq!(
        (status, refused["error"].as_str()),
        (400, Some("bad result \"everything\": expected \"win\" or \"draw\""))
    );
    let (status, _) = server.post(&format!("/api/games/{id}/claim"), json!({ "result": "win" })).await;
    assert_eq!(status, 403, "a spectator cannot claim");
    // Once gone long enough, Ada takes the win.
    tokio::time::sleep(after).await;
    assert_eq!(claimable(&server, &id, &first).await["claimable"], true);
    let (status, state) = claim(&server, &id, &first, "win").await;
    assert_eq!(status, 200, "{state}");
    assert_eq!((&state["result"]["winner"], &state["result"]["reason"]), (&json!("first"), &json!("abandonment")));
    let (status, refused) = claim(&server, &id, &first, "draw").await;
    assert_eq!(status, 409, "a finished game is claimed once: {refused}");

    // A draw may be claimed instead; a correspondence game never.
    let (id, first, _) = waiting_for_second(&server, Value::Null).await;
    tokio::time::sleep(after + Duration::from_millis(200)).await;
    let (status, state) = claim(&server, &id, &first, "draw").await;
    assert_eq!(status, 200, "{state}");
    assert_eq!((&state["result"]["winner"], &state["result"]["reason"]), (&Value::Null, &json!("abandonment")));
    let (id, first, _) = waiting_for_second(&server, json!({ "days": 3 })).await;
    tokio::time::sleep(after + Duration::from_millis(200)).await;
    let (status, refused) = claim(&server, &id, &first, "win").await;
    assert_eq!(status, 409);
    assert!(refused["error"].as_str().unwrap().contains("correspondence"), "{refused}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_here_through_another_node_cannot_be_claimed_against() {
    let Some(database) = TestDatabase::create("abandonment") else { return };
    let after = Duration::from_secs(11);
    let a = server(Arc::new(PgStore::open(database.url()).unwrap()), after).await;
    let b = server(Arc::new(PgStore::open(database.url()).unwrap()), after).await;
    let (id, first, second) = waiting_for_second(&a, json!({ "initial": 600, "increment": 0 })).await;
    let bob_on_b = seat_socket(&b, &id, &second).await;
    tokio::time::sleep(after + Duration::from_secs(2)).await;
    let (status, refused) = claim(&a, &id, &first, "win").await;
    assert_eq!(status, 409, "Bob's socket on node b keeps him here: {refused}");
    drop(bob_on_b);
    tokio::time::sleep(after + Duration::from_secs(1)).await;
    let (status, state) = claim(&a, &id, &first, "win").await;
    assert_eq!(status, 200, "{state}");
    let on_b = common::wait_for(&b, &id, None, |s| !s["result"].is_null()).await;
    assert_eq!(on_b["result"]["reason"], "abandonment");
}
