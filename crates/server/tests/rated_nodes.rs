//! A rated game on two servers sharing one PostgreSQL database: its moves
//! go through both nodes, both players resign at once through different
//! nodes, and the game is rated exactly once (its rating changes are stored
//! with the one end the store takes). Needs MENAGERIE_TEST_POSTGRES
//! (skipped without it, a failure under MENAGERIE_REQUIRE_POSTGRES=1).

mod common;

use common::session::Browser;
use common::TestServer;
use menagerie_loadtest::postgres::TestDatabase;
use menagerie_loadtest::WithNim;
use menagerie_server::computer::RandomOnly;
use menagerie_server::store::PgStore;
use menagerie_server::{HubConfig, RequestLimits};
use serde_json::{json, Value};
use std::sync::Arc;

async fn node(url: &str) -> TestServer {
    let store = PgStore::open(url).expect("the database opens");
    let config = HubConfig { max_searches: 2, ..HubConfig::default() };
    let hub = menagerie_server::new_hub(Arc::new(WithNim), Arc::new(store), Arc::new(RandomOnly), config);
    hub.resume().await.expect("games resume");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let task = menagerie_server::spawn_with(listener, hub, RequestLimits::default());
    TestServer::from_parts(base, task)
}

fn credentials(username: &str) -> Value {
    json!({ "username": username, "password": "correct horse battery" })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_game_played_through_two_nodes_is_rated_once() {
    let Some(database) = TestDatabase::create("rated_nodes") else { return };
    let (a, b) = (node(database.url()).await, node(database.url()).await);
    // Each player has a session on each node (sessions live in the store).
    let mut ada_a = Browser::from(&a, "127.0.0.2");
    assert_eq!(ada_a.post("/api/register", credentials("ada")).await.0, 201);
    let mut bob_a = Browser::from(&a, "127.0.0.3");
    assert_eq!(bob_a.post("/api/register", credentials("bob")).await.0, 201);
    let mut ada_b = Browser::from(&b, "127.0.0.2");
    assert_eq!(ada_b.post("/api/login", credentials("ada")).await.0, 200);
    let mut bob_b = Browser::from(&b, "127.0.0.3");
    assert_eq!(bob_b.post("/api/login", credentials("bob")).await.0, 200);

    let (status, seek) = ada_a.post("/api/seeks", json!({ "variant": "nim:stones=30", "rated": true })).await;
    assert_eq!(status, 201, "{seek}");
    let (status, game) = bob_a.post(&format!("/api/seeks/{}/accept", seek["id"].as_str().unwrap()), json!({})).await;
    assert_eq!(status, 201, "{game}");
    let id = game["id"].as_str().unwrap().to_owned();
    let bob_first = game["you"] == "first";
    // Three moves each, every player moving through both nodes in turn.
    for ply in 0..6usize {
        let bob_moves = (ply % 2 == 0) == bob_first;
        let mover = match (bob_moves, ply / 2 % 2 == 0) {
            (true, true) => &mut bob_b,
            (true, false) => &mut bob_a,
            (false, true) => &mut ada_a,
            (false, false) => &mut ada_b,
        };
        let (status, body) = mover.post(&format!("/api/games/{id}/move"), json!({ "move": "1" })).await;
        assert_eq!(status, 200, "move {ply}: {body}");
    }
    // Both resign at once, through different nodes: one end is taken.
    let path = format!("/api/games/{id}/resign");
    let (ada_ends, bob_ends) = tokio::join!(ada_a.post(&path, json!({})), bob_b.post(&path, json!({})));
    let statuses = [ada_ends.0, bob_ends.0];
    assert_eq!(statuses.iter().filter(|s| **s == 200).count(), 1, "{ada_ends:?} {bob_ends:?}");
    assert!(statuses.iter().all(|s| *s == 200 || *s == 409), "{ada_ends:?} {bob_ends:?}");
    let ada_won = bob_ends.0 == 200;

    for server in [&a, &b] {
        for (name, won) in [("ada", ada_won), ("bob", !ada_won)] {
            let (status, profile) = server.get(&format!("/api/user/{name}")).await;
            assert_eq!(status, 200, "{profile}");
            assert_eq!(profile["perfs"]["nim"]["games"], 1, "rated once: {profile}");
            assert_eq!(profile["count"]["rated"], 1, "{profile}");
            let rating = profile["perfs"]["nim"]["rating"].as_i64().unwrap();
            assert_eq!(rating > 1500, won, "{profile}");
            let (_, history) = server.get(&format!("/api/user/{name}/rating-history")).await;
            assert_eq!(history[0]["points"].as_array().unwrap().len(), 1, "one change kept: {history}");
        }
        let (_, players) = server.get(&format!("/api/games/{id}/players")).await;
        let diffs: Vec<i64> =
            ["first", "second"].iter().map(|s| players["seats"][s]["ratingDiff"].as_i64().unwrap()).collect();
        assert!(diffs[0] == -diffs[1] && diffs[0] != 0, "{players}");
    }
    a.stop().await;
    b.stop().await;
}
