//! Several servers on one PostgreSQL database, in this process, each with
//! its own store (its own connections), as separate processes would be:
//! moves through both, sockets on both, the computer moved by exactly one
//! and taken over when its server stops. Needs MENAGERIE_TEST_POSTGRES
//! (skipped without it, a failure under MENAGERIE_REQUIRE_POSTGRES=1).

mod common;

use common::TestServer;
use futures_util::StreamExt;
use menagerie_loadtest::postgres::TestDatabase;
use menagerie_loadtest::{run_local, LoadOptions, LocalDatabase, WithNim};
use menagerie_server::computer::RandomOnly;
use menagerie_server::sql_params;
use menagerie_server::store::{sql, Database, PgStore};
use menagerie_server::{HubConfig, RequestLimits};
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Duration;

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

/// A spectator socket: the states it receives, in order.
async fn watch(server: &TestServer, id: &str) -> tokio::sync::mpsc::UnboundedReceiver<Value> {
    let url = format!("ws://{}/api/games/{id}/ws", server.address());
    let (socket, _) = tokio_tungstenite::connect_async(url).await.expect("the socket opens");
    let (_, mut incoming) = socket.split();
    let (sender, receiver) = tokio::sync::mpsc::unbounded_channel();
    tokio::spawn(async move {
        while let Some(Ok(message)) = incoming.next().await {
            if let Ok(state) = serde_json::from_str::<Value>(message.to_text().unwrap_or("")) {
                if state["type"] == "state" && sender.send(state).is_err() {
                    return;
                }
            }
        }
    });
    receiver
}

/// Reads states off a socket until one is at `ply`; asserts the plies never
/// go back, and answers the last state.
async fn until_ply(socket: &mut tokio::sync::mpsc::UnboundedReceiver<Value>, ply: u64) -> Value {
    let mut previous = 0;
    loop {
        let state = tokio::time::timeout(Duration::from_secs(10), socket.recv())
            .await
            .unwrap_or_else(|_| panic!("no state at ply {ply} within 10 s (last {previous})"))
            .expect("the socket stays open");
        let seen = state["ply"].as_u64().unwrap();
        assert!(seen >= previous, "the socket went back from ply {previous} to {seen}");
        previous = seen;
        if seen >= ply {
            return state;
        }
    }
}

fn move_texts(state: &Value) -> Vec<String> {
    state["moves"].as_array().unwrap().iter().map(|m| m["text"].as_str().unwrap().to_owned()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moves_through_either_node_reach_the_sockets_of_both_in_order() {
    let Some(database) = TestDatabase::create("nodes") else { return };
    let (a, b) = (node(database.url()).await, node(database.url()).await);
    let created = a.create(json!({ "variant": "nim:stones=30", "opponent": "local", "colour": "first" })).await;
    let id = created["id"].as_str().unwrap();
    let secrets = [created["secrets"]["first"].as_str().unwrap(), created["secrets"]["second"].as_str().unwrap()];
    let (mut on_a, mut on_b) = (watch(&a, id).await, watch(&b, id).await);
    let mut made = Vec::new();
    for ply in 0..10usize {
        let through = if ply % 2 == 0 { &b } else { &a };
        let text = ["1", "2"][ply % 2];
        let (status, answer) = through
            .post(&format!("/api/games/{id}/move"), json!({ "seat": secrets[ply % 2], "move": text, "ply": ply }))
            .await;
        assert_eq!(status, 200, "move {ply}: {answer}");
        made.push(text.to_owned());
        // Each node's socket shows the move at once, whichever node took it.
        for socket in [&mut on_a, &mut on_b] {
            let state = until_ply(socket, ply as u64 + 1).await;
            assert_eq!(move_texts(&state), made);
        }
    }
    // A node that has not heard of a move yet cannot store another for that
    // ply: the second move for ply 10 is refused, whichever node it reaches.
    let path = format!("/api/games/{id}/move");
    let (first, second) = tokio::join!(
        a.post(&path, json!({ "seat": secrets[0], "move": "1", "ply": 10 })),
        b.post(&path, json!({ "seat": secrets[0], "move": "2", "ply": 10 })),
    );
    let mut statuses = [first.0, second.0];
    statuses.sort();
    assert_eq!(statuses, [200, 409], "{first:?} {second:?}");
    let (after_a, after_b) = (until_ply(&mut on_a, 11).await, until_ply(&mut on_b, 11).await);
    assert_eq!(move_texts(&after_a), move_texts(&after_b));
    // A stale node catches up instead of refusing a move without a ply.
    let (status, answer) = b.play(id, secrets[1], "1").await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(move_texts(&until_ply(&mut on_a, 12).await).len(), 12);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_computer_moves_once_per_turn_and_another_node_takes_over_when_its_node_stops() {
    let Some(database) = TestDatabase::create("computer") else { return };
    let (a, b) = (node(database.url()).await, node(database.url()).await);
    let created = a
        .create(json!({ "variant": "nim:stones=400", "opponent": "computer", "level": "random", "colour": "first" }))
        .await;
    let id = created["id"].as_str().unwrap().to_owned();
    let secret = created["secrets"]["first"].as_str().unwrap().to_owned();
    let mut on_b = watch(&b, &id).await;
    // The human moves through b; a holds the computer (it created the game).
    for turn in 0..5u64 {
        let (status, answer) =
            b.post(&format!("/api/games/{id}/move"), json!({ "seat": secret, "move": "1", "ply": turn * 2 })).await;
        assert_eq!(status, 200, "{answer}");
        let state = until_ply(&mut on_b, turn * 2 + 2).await;
        let actors: Vec<&str> =
            state["moves"].as_array().unwrap().iter().map(|m| m["actor"].as_str().unwrap()).collect();
        assert_eq!(actors, ["first", "second"].repeat(turn as usize + 1), "one computer move per turn");
    }
    // a stops; b takes the computer over and the game goes on.
    a.stop().await;
    for turn in 5..8u64 {
        let (status, answer) =
            b.post(&format!("/api/games/{id}/move"), json!({ "seat": secret, "move": "1", "ply": turn * 2 })).await;
        assert_eq!(status, 200, "{answer}");
        let state = until_ply(&mut on_b, turn * 2 + 2).await;
        assert_eq!(state["moves"].as_array().unwrap().len() as u64, turn * 2 + 2);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_load_test_on_two_nodes_loses_and_duplicates_nothing() {
    let Some(database) = TestDatabase::create("load") else { return };
    for variant in ["nim:stones=400", "lma", "lunch"] {
        let options = LoadOptions { games: 60, variant: variant.into(), max_plies: 12, think_ms: 0 };
        let nodes = LocalDatabase::Postgres { url: database.url().to_owned(), nodes: 2 };
        let report = run_local(options, nodes).await.expect("the load test runs");
        println!("{variant}:\n{report}");
        assert_eq!((report.errors, report.lost, report.duplicated, report.socket_misses), (0, 0, 0, 0), "{report}");
        assert!(report.moves > 0);
    }
}

/// Runs `statements` (each with the game's id as `$1`) in one transaction
/// behind every node's back, as a node that died between its commit and its
/// notification leaves the database.
async fn change_unannounced(url: &str, game: &str, statements: &'static [&'static str]) {
    let (url, game) = (url.to_owned(), game.to_owned());
    tokio::task::spawn_blocking(move || {
        let store = Database::parse(&url).open().expect("the database answers");
        sql::transact(&*store, |sql| {
            for statement in statements {
                sql.execute(statement, sql_params![&game])?;
            }
            Ok(())
        })
        .unwrap();
    })
    .await
    .unwrap();
}

/// A node that missed a change made through another never writes over it:
/// the store refuses its stale draw or resignation, the node catches up and
/// decides again on the game as it is.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_that_missed_a_change_never_writes_over_it() {
    let Some(database) = TestDatabase::create("stale") else { return };
    let node_b = node(database.url()).await;
    let created = node_b.create(json!({ "variant": "nim:stones=30", "opponent": "local", "colour": "first" })).await;
    let id = created["id"].as_str().unwrap();
    let (first, second) =
        (created["secrets"]["first"].as_str().unwrap(), created["secrets"]["second"].as_str().unwrap());
    let draw = format!("/api/games/{id}/draw");
    let (status, offered) = node_b.post(&draw, json!({ "seat": first, "action": "offer" })).await;
    assert_eq!(status, 200, "{offered}");
    // The first player withdrew the offer and took one stone.
    let withdrew_and_moved = &[
        "UPDATE games SET draw_offer = NULL, plies = 1 WHERE id = $1",
        "INSERT INTO moves (game, ply, text, actor) VALUES ($1, 0, '1', 'first')",
    ];
    change_unannounced(database.url(), id, withdrew_and_moved).await;
    // The node still shows the offer; accepting it would agree a draw the
    // first player withdrew. The store refuses, the node looks again.
    let (status, refused) = node_b.post(&draw, json!({ "seat": second, "action": "accept" })).await;
    assert_eq!(status, 409, "a withdrawn offer cannot be accepted: {refused}");
    let state = node_b.state(id, Some(second)).await;
    assert_eq!(move_texts(&state), ["1"], "the node caught up with the move it missed");
    assert!(state["result"].is_null(), "{state}");
    // A resignation decided on the stale game is stored after the move.
    let second_moved = &[
        "UPDATE games SET plies = 2 WHERE id = $1",
        "INSERT INTO moves (game, ply, text, actor) VALUES ($1, 1, '2', 'second')",
    ];
    change_unannounced(database.url(), id, second_moved).await;
    let (status, resigned) = node_b.post(&format!("/api/games/{id}/resign"), json!({ "seat": first })).await;
    assert_eq!(status, 200, "{resigned}");
    assert_eq!(move_texts(&resigned), ["1", "2"], "{resigned}");
    assert_eq!(resigned["result"]["reason"], "resignation");
    let reopened = node(database.url()).await;
    let stored = reopened.state(id, Some(first)).await;
    assert_eq!(move_texts(&stored), ["1", "2"]);
    assert_eq!(stored["result"]["winner"], "second");
}

/// A node that learns of moves made through another shows them as that one
/// does: each move's label and side, and the clocks that followed them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moves_heard_from_another_node_keep_their_labels_and_move_the_clocks() {
    let Some(database) = TestDatabase::create("heard") else { return };
    let (a, b) = (node(database.url()).await, node(database.url()).await);
    let clock = json!({ "initial": 600, "increment": 5 });
    let created =
        a.create(json!({ "variant": "nim:stones=30", "opponent": "local", "colour": "first", "clock": clock })).await;
    let id = created["id"].as_str().unwrap();
    let secrets = [created["secrets"]["first"].as_str().unwrap(), created["secrets"]["second"].as_str().unwrap()];
    let mut on_b = watch(&b, id).await;
    for (ply, text) in ["1", "2", "1"].into_iter().enumerate() {
        let (status, answer) = a.play(id, secrets[ply % 2], text).await;
        assert_eq!(status, 200, "{answer}");
        tokio::time::sleep(Duration::from_millis(30)).await;
    }
    until_ply(&mut on_b, 3).await;
    let (on_a, heard) = (a.state(id, None).await, b.state(id, None).await);
    assert_eq!(heard["moves"], on_a["moves"], "labels and sides as the node that took the moves shows them");
    assert!(heard["moves"][2]["label"].is_string(), "{heard}");
    assert_eq!(heard["clock"], on_a["clock"], "the clocks followed the moves");
    assert_eq!(heard["clock"]["running"], "second", "{heard}");
    assert!(heard["clock"]["first_ms"].as_u64().unwrap() > 600_000, "the increment was added: {heard}");
}

/// Reads the game through `server` until it shows `ply` moves and the draw
/// offer `offer` (a node hears of another's change within milliseconds).
async fn state_at(server: &TestServer, id: &str, ply: u64, offer: Value) -> Value {
    for _ in 0..200 {
        let state = server.state(id, None).await;
        if state["ply"] == ply && state["draw_offer"] == offer {
            return state;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("{} never showed ply {ply} with draw offer {offer}", server.base);
}

/// The version both nodes show (they must agree).
fn same_version(on_a: &Value, on_b: &Value, what: &str) -> u64 {
    assert_eq!(on_a["version"], on_b["version"], "{what}: a {on_a}\nb {on_b}");
    on_a["version"].as_u64().unwrap()
}

/// A game's version comes from the store: the node that created the game
/// and one that loaded it later read the same version, after moves and
/// after other changes, whichever node took them; and it only grows.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn both_nodes_give_a_game_the_same_version() {
    let Some(database) = TestDatabase::create("versions") else { return };
    let (a, b) = (node(database.url()).await, node(database.url()).await);
    let created = a.create(json!({ "variant": "nim:stones=30", "opponent": "friend", "colour": "first" })).await;
    let id = created["id"].as_str().unwrap();
    let secrets = [created["secrets"]["first"].as_str().unwrap(), created["secrets"]["second"].as_str().unwrap()];
    // b loads the game later than a made it.
    tokio::time::sleep(Duration::from_millis(20)).await;
    let mut last = same_version(&a.state(id, None).await, &b.state(id, None).await, "a new game");
    for ply in 0..4u64 {
        let through = [&a, &b][ply as usize % 2];
        let (status, answer) = through.play(id, secrets[ply as usize % 2], "1").await;
        assert_eq!(status, 200, "{answer}");
        let (on_a, on_b) = (state_at(&a, id, ply + 1, Value::Null).await, state_at(&b, id, ply + 1, Value::Null).await);
        let version = same_version(&on_a, &on_b, &format!("after move {}", ply + 1));
        assert!(version > last, "after move {}: version {version} after {last}", ply + 1);
        last = version;
    }
    // A draw offered through b and withdrawn through a: the moves and the
    // offer are as before, the version is not.
    let draw = format!("/api/games/{id}/draw");
    let (status, offered) = b.post(&draw, json!({ "seat": secrets[0], "action": "offer" })).await;
    assert_eq!(status, 200, "{offered}");
    let (on_a, on_b) = (state_at(&a, id, 4, json!("first")).await, state_at(&b, id, 4, json!("first")).await);
    let offer_version = same_version(&on_a, &on_b, "an offer");
    assert!(offer_version > last, "an offer: version {offer_version} after {last}");
    let (status, withdrawn) = a.post(&draw, json!({ "seat": secrets[0], "action": "withdraw" })).await;
    assert_eq!(status, 200, "{withdrawn}");
    assert_eq!(withdrawn["version"].as_u64(), Some(offer_version + 1), "{withdrawn}");
    for _ in 0..200 {
        if b.state(id, None).await["version"] == withdrawn["version"] {
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    same_version(&a.state(id, None).await, &b.state(id, None).await, "an offer withdrawn");
    // A node started now reads the same.
    let c = node(database.url()).await;
    assert_eq!(c.state(id, None).await["version"], withdrawn["version"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_signal_reaches_this_node_and_the_others_but_not_twice() {
    let Some(database) = TestDatabase::create("signals") else { return };
    let hub = || {
        let store = PgStore::open(database.url()).expect("the database opens");
        menagerie_server::new_hub(Arc::new(WithNim), Arc::new(store), Arc::new(RandomOnly), HubConfig::default())
    };
    let (a, b) = (hub(), hub());
    let (mut on_a, mut on_b) = (a.signals(), b.signals());
    a.signal("tournament/t1 with spaces").await;
    for (name, receiver) in [("a", &mut on_a), ("b", &mut on_b)] {
        let topic = tokio::time::timeout(Duration::from_secs(10), receiver.recv())
            .await
            .unwrap_or_else(|_| panic!("node {name} heard nothing within 10 s"))
            .unwrap();
        assert_eq!(topic, "tournament/t1 with spaces", "node {name}");
    }
    // Each node hears each signal once: its own at once, not again from the database.
    b.signal("lobby").await;
    for (name, receiver) in [("a", &mut on_a), ("b", &mut on_b)] {
        let topic = tokio::time::timeout(Duration::from_secs(10), receiver.recv()).await.unwrap().unwrap();
        assert_eq!(topic, "lobby", "node {name}");
        let again = tokio::time::timeout(Duration::from_millis(500), receiver.recv()).await;
        assert!(again.is_err(), "node {name} heard a signal twice: {again:?}");
    }
}

/// A node that died between a move and the chance moves it called for
/// (a computer's Lunch Chess game left at `to_act: chance`): the node that
/// takes the game over plays them, once the grace for a living node's
/// chance moves has passed, and the game goes on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chance_owed_by_a_node_that_died_is_played_by_the_node_taking_over() {
    let Some(database) = TestDatabase::create("chance") else { return };
    let a = node(database.url()).await;
    let created =
        a.create(json!({ "variant": "lunch", "opponent": "computer", "level": "random", "colour": "first" })).await;
    let id = created["id"].as_str().unwrap().to_owned();
    let seat = created["secrets"]["first"].as_str().unwrap().to_owned();
    let dealt = a.state(&id, Some(&seat)).await;
    let plies = dealt["moves"].as_array().unwrap().len();
    assert_eq!(dealt["moves"][plies - 1]["actor"], "chance", "the deal is chance's: {dealt}");
    // a stored the deal but its last card, and died.
    let last_card_lost = &[
        "DELETE FROM moves WHERE game = $1 AND ply = (SELECT max(ply) FROM moves WHERE game = $1)",
        "UPDATE games SET plies = plies - 1, version = version + 1 WHERE id = $1",
    ];
    change_unannounced(database.url(), &id, last_card_lost).await;
    a.stop().await;
    // b starts after: it never held the game with the card (a node running
    // beside a, slowed down, may take a's computer over before the change).
    let b = node(database.url()).await;
    // b takes the computer's game over, deals the card owed, and the game goes on.
    let mut state = Value::Null;
    for _ in 0..200 {
        state = b.state(&id, Some(&seat)).await;
        if state["to_act"] == "first" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(state["to_act"], "first", "chance owed is played: {state}");
    assert_eq!(state["moves"].as_array().unwrap().len(), plies, "{state}");
    assert_eq!(state["moves"][plies - 1]["actor"], "chance");
    let (status, moves) = b.get(&format!("/api/games/{id}/moves?seat={seat}")).await;
    assert_eq!(status, 200, "{moves}");
    let text = moves["moves"][0].as_str().unwrap().to_owned();
    let (status, answer) = b.play(&id, &seat, &text).await;
    assert_eq!(status, 200, "{text}: {answer}");
    for _ in 0..200 {
        let state = b.state(&id, Some(&seat)).await;
        if state["moves"].as_array().unwrap().iter().skip(plies).any(|m| m["actor"] == "second") {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the computer never moved after the chance owed: {}", b.state(&id, Some(&seat)).await);
}

/// A limit holds across nodes (its count is in the store): sign-ups from
/// one address, sent to two nodes in turn, stop at the limit's count, and
/// both nodes refuse the next.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_limit_counts_the_requests_of_every_node() {
    let Some(database) = TestDatabase::create("limits") else { return };
    let (a, b) = (node(database.url()).await, node(database.url()).await);
    let client = common::client_from("127.0.0.30");
    let limit = &menagerie_server::limits::SIGNUPS_PER_ADDRESS;
    let signup = |server: &TestServer, n: usize| {
        let request = client
            .post(format!("{}/api/register", server.base))
            .json(&json!({ "username": format!("user{n}"), "password": "a long password" }));
        async move { request.send().await.unwrap().status().as_u16() }
    };
    for n in 0..limit.count as usize {
        let through = if n % 2 == 0 { &a } else { &b };
        assert_eq!(signup(through, n).await, 201, "sign-up {n}");
    }
    assert_eq!(signup(&a, 100).await, 429);
    assert_eq!(signup(&b, 101).await, 429);
}
