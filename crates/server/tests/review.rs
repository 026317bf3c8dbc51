//! Computer reviews of finished games (docs/api.md, "Game review"): asked
//! for by an account (`POST /api/games/<id>/analysis`, session or token),
//! queued, read by anyone (`GET`) as progress and then the review; a second
//! request answers the review and costs nothing; games in play, unknown
//! games and games with hidden information are refused with the reason;
//! the account's limit answers 429. The server reviews with a small search
//! budget here (the default is each game's own, tens of seconds a game).

mod common;

use common::lichess::account_with_token;
use common::session::Browser;
use common::TestServer;
use menagerie_learn::review::ReviewBudget;
use menagerie_loadtest::postgres::TestDatabase;
use menagerie_loadtest::WithNim;
use menagerie_server::computer::RandomOnly;
use menagerie_server::review::Reviews;
use menagerie_server::store::{sql, Database, PgStore, SqliteStore, Store, Value as SqlValue};
use menagerie_server::{accounts, http, limits, ops, HubConfig, RequestLimits};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A server over `db` whose reviews search `nodes` nodes a position.
async fn start(db: &Path, nodes: u64) -> TestServer {
    start_on(Arc::new(SqliteStore::open(db).expect("the database opens")), nodes).await
}

/// A server (a node) over `store` whose reviews search `nodes` nodes a position.
async fn start_on(store: Arc<dyn Store>, nodes: u64) -> TestServer {
    let config = HubConfig { max_searches: 2, ..HubConfig::default() };
    let hub = menagerie_server::new_hub(Arc::new(WithNim), store, Arc::new(RandomOnly), config);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let budget = ReviewBudget { nodes, threads: 1, hash_megabytes: 4 };
    let reviews = Arc::new(Reviews::new(1, 64).with_budget(budget));
    let routes = http::router_reviewing(
        hub,
        ops::Operations::new(Vec::new()),
        http::AllowedOrigins::default(),
        accounts::Accounts::default(),
        reviews,
    );
    let task = tokio::spawn(http::listen::serve(listener, routes, RequestLimits::default(), std::future::pending()));
    TestServer::from_parts(base, task)
}

async fn account(server: &TestServer, name: &str) -> Browser {
    let mut browser = Browser::new(server);
    let (status, body) = browser.post("/api/register", json!({ "username": name, "password": "correct horse" })).await;
    assert_eq!(status, 201, "{body}");
    browser
}

/// A local game of `variant` after `plies` random legal moves (`seed`),
/// resigned by the first player if `resign`. Answers its id and moves.
async fn game(server: &TestServer, variant: &str, plies: usize, seed: u64, resign: bool) -> (String, Vec<String>) {
    let created = server.create(json!({ "variant": variant, "opponent": "local" })).await;
    let id = created["id"].as_str().unwrap().to_owned();
    let mut rng = StdRng::seed_from_u64(seed);
    for _ in 0..plies {
        let state = server.state(&id, None).await;
        let Some(seat) = state["to_act"].as_str() else { break };
        let secret = created["secrets"][seat].as_str().unwrap();
        let mine = server.state(&id, Some(secret)).await;
        let moves = mine["legal_moves"].as_array().unwrap();
        let mv = moves[rng.random_range(0..moves.len())].as_str().unwrap();
        let (status, answer) = server.play(&id, secret, mv).await;
        assert_eq!(status, 200, "{mv}: {answer}");
    }
    if resign {
        let secret = created["secrets"]["first"].as_str().unwrap();
        let (status, state) = server.post(&format!("/api/games/{id}/resign"), json!({ "seat": secret })).await;
        assert_eq!(status, 200, "{state}");
    }
    let state = server.state(&id, None).await;
    let moves = state["moves"].as_array().unwrap().iter().map(|m| m["text"].as_str().unwrap().to_owned()).collect();
    (id, moves)
}

fn path(id: &str) -> String {
    format!("/api/games/{id}/analysis")
}

/// Reads the review until it is done (200), checking each progress answer.
async fn until_done(server: &TestServer, id: &str) -> Value {
    let started = Instant::now();
    loop {
        let (status, body) = server.get(&path(id)).await;
        match status {
            200 => return body,
            202 => {
                assert!(matches!(body["status"].as_str(), Some("queued" | "running")), "{body}");
                // A share of the positions, or null where another node runs it.
                let progress = body["progress"].as_f64();
                assert!(progress.map_or(body["progress"].is_null(), |p| (0.0..=1.0).contains(&p)), "{body}");
            }
            _ => panic!("reading the review of {id}: {status} {body}"),
        }
        assert!(started.elapsed() < Duration::from_secs(120), "the review of {id} never ended");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

fn review_hits(db: &Path) -> i64 {
    review_hits_in(&*Database::Sqlite(db.to_owned()).open().unwrap())
}

fn review_hits_in(store: &dyn Store) -> i64 {
    let rows = sql::read(store, |s| {
        s.query("SELECT count(*) FROM limit_hits WHERE name = $1", &[SqlValue::from(limits::REVIEWS_PER_ACCOUNT.name)])
    })
    .unwrap();
    rows[0].int(0).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_game_is_reviewed_once_and_anyone_reads_it() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("g.sqlite");
    let server = start(&db, 3_000).await;
    let mut ada = account(&server, "Ada").await;
    let (id, moves) = game(&server, "lma", 12, 1, true).await;
    assert!(!moves.is_empty());

    let (status, body) = ada.post(&path(&id), json!({})).await;
    assert_eq!(status, 202, "{body}");
    assert!(matches!(body["status"].as_str(), Some("queued" | "running")), "{body}");
    // Asked again while on its way: where it stands, nothing queued twice.
    let (status, again) = ada.post(&path(&id), json!({})).await;
    assert!(status == 202 || status == 200, "{status} {again}");

    let review = until_done(&server, &id).await;
    let plies = review["plies"].as_array().unwrap();
    assert_eq!(plies.len(), moves.len(), "one entry a ply: {review}");
    for (i, ply) in plies.iter().enumerate() {
        assert_eq!(ply["ply"], json!(i + 1), "{ply}");
        let eval = ply["eval"].as_object().unwrap();
        assert_eq!(eval.len(), 1, "{ply}");
        assert!(eval.get("cp").or(eval.get("mate")).is_some_and(Value::is_i64), "{ply}");
        match &ply["judgment"] {
            Value::Null => {}
            judged => assert!(matches!(judged["name"].as_str(), Some("Inaccuracy" | "Mistake" | "Blunder")), "{ply}"),
        }
        // The best move is a legal move of the position before the ply.
        let best = ply["best"].as_str().unwrap_or_else(|| panic!("a best move: {ply}"));
        let (status, position) = server.post("/api/analysis/position", json!({ "game": id, "ply": i })).await;
        assert_eq!(status, 200, "{position}");
        let legal: Vec<&str> =
            position["legal_moves"].as_array().unwrap().iter().map(|m| m["text"].as_str().unwrap()).collect();
        assert!(legal.contains(&best), "ply {}: {best} among {legal:?}", i + 1);
    }
    for side in ["first", "second"] {
        let player = &review["players"][side];
        for count in ["inaccuracy", "mistake", "blunder", "acpl"] {
            assert!(player[count].is_u64(), "{side} {count}: {player}");
        }
        let accuracy = player["accuracy"].as_f64().unwrap_or_else(|| panic!("{side}'s accuracy: {player}"));
        assert!((0.0..=100.0).contains(&accuracy), "{side}: {player}");
    }

    // Done: every request answers it at once and costs nothing.
    let (status, stored) = ada.post(&path(&id), json!({})).await;
    assert_eq!((status, &stored), (200, &review));
    let (status, read) = Browser::new(&server).get(&path(&id)).await;
    assert_eq!((status, &read), (200, &review), "anyone reads it");
    assert_eq!(review_hits(&db), 1, "asking again costs nothing");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_in_play_unknown_games_and_hidden_cards_are_refused_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&dir.path().join("g.sqlite"), 500).await;
    let mut ada = account(&server, "Ada").await;

    let (playing, _) = game(&server, "lma", 2, 2, false).await;
    let (status, body) = ada.post(&path(&playing), json!({})).await;
    assert_eq!(status, 409, "{body}");
    assert!(body["error"].as_str().unwrap().contains("still in play"), "{body}");
    assert_eq!(server.get(&path(&playing)).await.0, 409);

    for unknown in ["nosuchgame", "x".repeat(200).as_str()] {
        let (status, body) = ada.post(&path(unknown), json!({})).await;
        assert_eq!(status, 404, "{body}");
        assert!(body["error"].as_str().unwrap().contains("no game"), "{body}");
        assert_eq!(server.get(&path(unknown)).await.0, 404);
    }

    let (finished, _) = game(&server, "fluid", 4, 3, true).await;
    let (status, body) = server.get(&path(&finished)).await;
    assert_eq!((status, body), (204, Value::Null), "a finished game nobody asked to review has none");
    let (status, body) = server.post(&path(&finished), json!({})).await;
    assert_eq!(status, 401, "an account asks: {body}");

    let (lunch, _) = game(&server, "lunch", 0, 4, true).await;
    let (status, body) = ada.post(&path(&lunch), json!({})).await;
    assert_eq!(status, 422, "{body}");
    let reason = body["error"].as_str().unwrap();
    assert!(
        reason.contains("Lunch Chess is not reviewed") && reason.contains("what each player could see"),
        "{reason}"
    );
    assert_eq!(server.get(&path(&lunch)).await.0, 422);

    // A token asks as its account does.
    let (_, api) = account_with_token(&server, "Bob", &["puzzle:write"]).await;
    let (status, body) = api.post_json(&path(&finished), json!({})).await;
    assert_eq!(status, 202, "{body}");
    until_done(&server, &finished).await;
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reviews_asked_for_are_limited_per_account() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&dir.path().join("g.sqlite"), 200).await;
    let ada = account(&server, "Ada").await;
    let limit = &limits::REVIEWS_PER_ACCOUNT;
    for n in 0..=limit.count as usize {
        let (id, _) = game(&server, "lma", 0, n as u64, true).await;
        let response = ada
            .client
            .post(format!("{}{}", server.base, path(&id)))
            .header("cookie", ada.cookie_header())
            .json(&json!({}))
            .send()
            .await
            .unwrap();
        let status = response.status().as_u16();
        let retry = response.headers().get("retry-after").map(|v| v.to_str().unwrap().parse::<u64>().unwrap());
        let body: Value = response.json().await.unwrap();
        if n < limit.count as usize {
            assert!(status == 202 || status == 200, "request {n}: {status} {body}");
        } else {
            assert_eq!((status, &body), (429, &json!({ "error": limit.says })));
            assert!(retry.is_some_and(|wait| (1..=limit.window.as_secs()).contains(&wait)), "{retry:?}");
            // Refused: nothing queued.
            assert_eq!(server.get(&path(&id)).await.0, 204);
        }
    }
    server.stop().await;
}

/// Two nodes on one PostgreSQL database: a review queued through one is
/// not run again through the other, which answers that it runs (its
/// progress unknown there) and then the review the first stored.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_review_runs_on_one_node_and_every_node_answers_it() {
    let Some(database) = TestDatabase::create("review_nodes") else { return };
    let open = || -> Arc<dyn Store> { Arc::new(PgStore::open(database.url()).expect("the database opens")) };
    let a = start_on(open(), 20_000).await;
    let b = start_on(open(), 20_000).await;
    let mut ada = account(&a, "Ada").await;
    let mut bob = account(&b, "Bob").await;
    let (id, moves) = game(&a, "lma", 16, 5, true).await;

    assert_eq!(ada.post(&path(&id), json!({})).await.0, 202);
    for (status, body) in [b.get(&path(&id)).await, bob.post(&path(&id), json!({})).await] {
        match status {
            202 => assert_eq!(body, json!({ "status": "running", "progress": null }), "the other node runs it"),
            200 => assert_eq!(body["plies"].as_array().unwrap().len(), moves.len()),
            _ => panic!("{status} {body}"),
        }
    }
    let from_b = until_done(&b, &id).await;
    assert_eq!(from_b, until_done(&a, &id).await, "one review, stored");
    // (PostgreSQL's client blocks: off the runtime.)
    let store = open();
    let hits = tokio::task::spawn_blocking(move || review_hits_in(&*store)).await.unwrap();
    assert_eq!(hits, 1, "queued once, counted once");
    a.stop().await;
    b.stop().await;
}
