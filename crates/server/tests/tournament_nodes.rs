//! An arena on two servers sharing one PostgreSQL database: the node that
//! pairs it (the one holding its claim) stops midway, the other takes it
//! over, and every game is paired and scored once, the standings the same
//! on every node. A berserk through one node halves the clock on every
//! node holding the game. Needs MENAGERIE_TEST_POSTGRES (skipped without it, a
//! failure under MENAGERIE_REQUIRE_POSTGRES=1).

mod common;

use common::session::Browser;
use common::TestServer;
use menagerie_loadtest::postgres::TestDatabase;
use menagerie_loadtest::WithNim;
use menagerie_server::computer::RandomOnly;
use menagerie_server::sql_params;
use menagerie_server::store::{sql, PgStore};
use menagerie_server::{HubConfig, RequestLimits};
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Duration;

async fn node(url: &str) -> TestServer {
    let store = PgStore::open(url).expect("the database opens");
    // These games wait for their players only as long as the test takes
    // (a game nobody starts is `tournaments.rs`'s).
    let config = HubConfig { max_searches: 2, first_move_within: Duration::from_secs(600), ..HubConfig::default() };
    let hub = menagerie_server::new_hub(Arc::new(WithNim), Arc::new(store), Arc::new(RandomOnly), config);
    hub.resume().await.expect("games resume");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let task = menagerie_server::spawn_with(listener, hub, RequestLimits::default());
    TestServer::from_parts(base, task)
}

fn now_ms() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis() as i64
}

fn current_games(t: &Value) -> Vec<Value> {
    t["games"].as_array().unwrap().iter().filter(|g| g["result"].is_null()).cloned().collect()
}

async fn until(server: &TestServer, id: &str, what: &str, done: impl Fn(&Value) -> bool) -> Value {
    for _ in 0..300 {
        let (status, t) = server.get(&format!("/api/tournament/{id}")).await;
        assert_eq!(status, 200, "{t}");
        if done(&t) {
            return t;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the tournament never reached: {what}");
}

/// Accounts `names` (through `server`) in an arena of `name` that starts
/// in `starts_in` ms, every one of them joined: the players and its id.
async fn arena(server: &TestServer, names: &[&str], name: &str, starts_in: i64) -> (Vec<Browser>, String) {
    let mut players = Vec::new();
    for (i, name) in names.iter().enumerate() {
        let mut player = Browser::from(server, &format!("127.0.0.{}", i + 2));
        let body = json!({ "username": name, "password": "correct horse battery" });
        assert_eq!(player.post("/api/register", body).await.0, 201);
        players.push(player);
    }
    let body = json!({ "name": name, "variant": "nim:stones=40", "clockTime": 2, "clockIncrement": 0,
                       "minutes": 30, "startDate": now_ms() + starts_in });
    let (status, created) = players[0].post("/api/tournament", body).await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_owned();
    for player in players.iter_mut() {
        assert_eq!(player.post(&format!("/api/tournament/{id}/join"), json!({})).await.0, 200);
    }
    (players, id)
}

/// Plays `game` through whichever node `players` point at: one stone a
/// move, six moves each, then black resigns. Waits for the game to exist
/// first (a pairing is stored a moment before its game).
async fn play(players: &mut [Browser], names: &[&str], game: &Value) {
    let id = game["id"].as_str().unwrap();
    let seat = |side: &str| names.iter().position(|n| *n == game[side].as_str().unwrap()).unwrap();
    let (white, black) = (seat("white"), seat("black"));
    // Its seats are held a moment after it is created: until then the
    // first move is refused.
    for tries in 0.. {
        if players[white].get(&format!("/api/games/{id}")).await.0 == 200 {
            let path = format!("/api/games/{id}/move");
            let (status, body) = players[white].post(&path, json!({ "move": "1" })).await;
            if status == 200 {
                break;
            }
            assert!(status == 403 || status == 404, "{body}");
        }
        assert!(tries < 100, "game {id} never ready");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    for ply in 1..12 {
        let mover = if ply % 2 == 0 { white } else { black };
        let (status, body) = players[mover].post(&format!("/api/games/{id}/move"), json!({ "move": "1" })).await;
        assert_eq!(status, 200, "move {ply}: {body}");
    }
    let (status, body) = players[black].post(&format!("/api/games/{id}/resign"), json!({})).await;
    assert_eq!(status, 200, "{body}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_pairing_node_stops_midway_and_another_takes_the_arena_over() {
    let Some(database) = TestDatabase::create("tournament_nodes") else { return };
    // Node a runs alone until the arena starts: the claim is a's.
    let a = node(database.url()).await;
    let names = ["ann", "ben", "cat", "dan", "eve", "fay"];
    let (mut players, id) = arena(&a, &names, "Two nodes", 1_500).await;
    let t = until(&a, &id, "the first wave", |t| current_games(t).len() == 3).await;

    // Node b comes up; the players move over to it (sessions are in the
    // store) and play the first wave; a stops meanwhile, holding the claim.
    let b = node(database.url()).await;
    for player in players.iter_mut() {
        player.base = b.base.clone();
    }
    let first_wave = current_games(&t);
    play(&mut players, &names, &first_wave[0]).await;
    a.stop().await;
    // b takes over: it scores and pairs whoever waits; the players play
    // every game it pairs until there have been eight.
    let url = database.url().to_owned();
    let store = Arc::new(tokio::task::spawn_blocking(move || PgStore::open(&url).unwrap()).await.unwrap());
    let mut played = vec![first_wave[0]["id"].clone()];
    let mut ended = false;
    loop {
        let (_, t) = b.get(&format!("/api/tournament/{id}")).await;
        if t["status"] == json!("finished") {
            break;
        }
        let total = t["games"].as_array().unwrap().len();
        if total >= 8 && !ended {
            // The arena's time runs out (its start moved back past its
            // length): no more pairing; it finishes when the games end.
            let (store, id) = (Arc::clone(&store), id.clone());
            tokio::task::spawn_blocking(move || {
                sql::transact(&*store, |s| {
                    s.execute("UPDATE tournaments SET started = started - 31 * 60000 WHERE id = $1", sql_params![&id])
                })
            })
            .await
            .unwrap()
            .unwrap();
            ended = true;
        }
        let next = current_games(&t).into_iter().find(|g| !played.contains(&g["id"]));
        match next {
            Some(game) => {
                play(&mut players, &names, &game).await;
                played.push(game["id"].clone());
            }
            None => tokio::time::sleep(Duration::from_millis(50)).await,
        }
        assert!(played.len() < 30, "the arena never ends: {t}");
    }
    let (_, on_b) = b.get(&format!("/api/tournament/{id}")).await;

    // Every game paired once and scored once: each in two players' slots,
    // each player's games counted once in the standings.
    let games = on_b["games"].as_array().unwrap();
    assert!(games.len() >= 8, "{on_b}");
    assert_eq!(games.len(), played.len(), "every game paired was played: {on_b}");
    assert!(games.iter().all(|g| g["result"] == json!("1-0")), "{on_b}");
    let counted: u64 =
        on_b["standing"]["players"].as_array().unwrap().iter().map(|p| p["nbGames"].as_u64().unwrap()).sum();
    assert_eq!(counted as usize, 2 * games.len(), "{on_b}");
    let (reader, key) = (Arc::clone(&store), id.clone());
    let rows = tokio::task::spawn_blocking(move || {
        sql::read(&*reader, |s| {
            s.query(
                "SELECT count(*), count(DISTINCT game) FROM tournament_slots WHERE tournament = $1",
                sql_params![&key],
            )
        })
    })
    .await
    .unwrap()
    .unwrap();
    let (slots, slotted) = (rows[0].int(0).unwrap() as usize, rows[0].int(1).unwrap() as usize);
    assert_eq!((slots, slotted), (2 * games.len(), games.len()), "two slots a game");
    // Another node reads the same standings.
    let c = node(database.url()).await;
    let (_, on_c) = c.get(&format!("/api/tournament/{id}")).await;
    assert_eq!(on_c["standing"], on_b["standing"]);
    assert_eq!(on_c["podium"], on_b["podium"]);
    b.stop().await;
    c.stop().await;
    // The store closes off the runtime (its client blocks).
    tokio::task::spawn_blocking(move || drop(store)).await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_berserk_through_one_node_halves_the_clock_on_every_node() {
    let Some(database) = TestDatabase::create("tournament_berserk_nodes") else { return };
    let (a, b) = (node(database.url()).await, node(database.url()).await);
    let names = ["ann", "ben"];
    let (mut players, id) = arena(&a, &names, "Berserk", 1_000).await;
    let t = until(&a, &id, "a game", |t| current_games(t).len() == 1).await;
    let game = &current_games(&t)[0];
    let path = format!("/api/games/{}", game["id"].as_str().unwrap());
    let black = names.iter().position(|n| *n == game["black"].as_str().unwrap()).unwrap();
    // Node b holds the game in memory, read with the full clocks.
    let clocks = |state: &Value| (state["clock"]["first_ms"].as_u64(), state["clock"]["second_ms"].as_u64());
    for tries in 0.. {
        let (status, state) = b.get(&path).await;
        if status == 200 {
            assert_eq!(clocks(&state), (Some(120_000), Some(120_000)), "{state}");
            break;
        }
        assert!(tries < 100, "game {path} never created: {state}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // Black berserks through node a; node b shows the halved clock too.
    let (status, body) = players[black].post(&format!("/api/tournament/{id}/berserk"), json!({})).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(clocks(&a.get(&path).await.1), (Some(120_000), Some(60_000)));
    for tries in 0.. {
        let (_, state) = b.get(&path).await;
        if clocks(&state) == (Some(120_000), Some(60_000)) {
            break;
        }
        assert!(tries < 100, "node b never heard of the berserk: {state}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    a.stop().await;
    b.stop().await;
}
