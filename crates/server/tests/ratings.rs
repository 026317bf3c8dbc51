//! Rated games through the API (docs/api.md, "Ratings" and "Lobby"): rated
//! seeks need accounts and keep to their rating range; a game that counts
//! changes both ratings once, one with too few moves none; the player's
//! profile, rating history, games and the leaderboard show it. And the
//! ratings the server stored after real rated games, recomputed apart from
//! it by `glicko2_check.py` (a second Glicko-2, in Python).

mod common;

use common::session::Browser;
use common::{wait_for, TestServer};
use menagerie_server::store::{sql, SqliteStore, Store};
use serde_json::{json, Value};
use std::io::Write;
use std::path::Path;

fn credentials(username: &str) -> Value {
    json!({ "username": username, "password": "correct horse battery" })
}

async fn start() -> (tempfile::TempDir, TestServer) {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("g.sqlite")).await;
    (dir, server)
}

async fn account(server: &TestServer, name: &str, ip: &str) -> Browser {
    let mut browser = Browser::from(server, ip);
    let (status, body) = browser.post("/api/register", credentials(name)).await;
    assert_eq!(status, 201, "{body}");
    browser
}

/// `creator` seeks a rated game of `variant`, `accepter` accepts; then the
/// two take one stone a move, `moves` moves each, and `loser` (0 the
/// creator, 1 the accepter) resigns. Answers the game's id and the
/// accepter's side.
async fn rated_game(
    creator: &mut Browser,
    accepter: &mut Browser,
    variant: &str,
    moves: usize,
    loser: usize,
) -> (String, String) {
    let (status, seek) = creator.post("/api/seeks", json!({ "variant": variant, "rated": true })).await;
    assert_eq!(status, 201, "{seek}");
    let path = format!("/api/seeks/{}/accept", seek["id"].as_str().unwrap());
    let (status, game) = accepter.post(&path, json!({})).await;
    assert_eq!((status, &game["rated"]), (201, &json!(true)), "{game}");
    let id = game["id"].as_str().unwrap().to_owned();
    let side = game["you"].as_str().unwrap().to_owned();
    let mut players = [creator, accepter];
    if side == "first" {
        players.swap(0, 1);
    }
    // players[0] moves first now.
    for ply in 0..2 * moves {
        let (status, body) = players[ply % 2].post(&format!("/api/games/{id}/move"), json!({ "move": "1" })).await;
        assert_eq!(status, 200, "move {ply}: {body}");
    }
    let resigner = if (loser == 1) == (side == "first") { 0 } else { 1 };
    let (status, body) = players[resigner].post(&format!("/api/games/{id}/resign"), json!({})).await;
    assert_eq!(status, 200, "{body}");
    (id, side)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rated_seeks_rate_two_accounts_once_and_their_profiles_show_it() {
    let (_dir, server) = start().await;
    let mut ada = account(&server, "Ada", "127.0.0.2").await;
    let mut bob = account(&server, "bob", "127.0.0.3").await;
    let mut anonymous = Browser::from(&server, "127.0.0.4");
    assert_eq!(anonymous.get("/api/me").await.0, 200);

    // A rated seek needs an account, to make and to accept.
    let (status, body) = anonymous.post("/api/seeks", json!({ "variant": "nim", "rated": true })).await;
    assert_eq!(status, 401, "{body}");
    assert!(body["error"].as_str().unwrap().contains("account"), "{body}");
    let (status, seek) =
        ada.post("/api/seeks", json!({ "variant": "nim:stones=9", "rated": true, "ratingRange": "1400-1600" })).await;
    assert_eq!(status, 201, "{seek}");
    assert_eq!(
        (&seek["rated"], &seek["rating"], &seek["provisional"], &seek["ratingRange"]),
        (&json!(true), &json!(1500), &json!(true), &json!("1400-1600"))
    );
    let (_, listed) = bob.get("/api/seeks").await;
    assert_eq!(listed["seeks"][0]["rating"], 1500, "{listed}");
    let accept = format!("/api/seeks/{}/accept", seek["id"].as_str().unwrap());
    assert_eq!(anonymous.post(&accept, json!({})).await.0, 401);
    for bad in ["1700-1600", "x", "100-1500", "1500"] {
        let (status, body) = ada.post("/api/seeks", json!({ "variant": "nim", "ratingRange": bad })).await;
        assert_eq!(status, 400, "{bad}: {body}");
    }
    // Out of the range: refused, and the seek stays.
    let (status, high) = ada.post("/api/seeks", json!({ "variant": "nim", "ratingRange": "1600-1700" })).await;
    assert_eq!(status, 201, "{high}");
    let (status, body) = bob.post(&format!("/api/seeks/{}/accept", high["id"].as_str().unwrap()), json!({})).await;
    assert_eq!(status, 403, "{body}");
    assert!(body["error"].as_str().unwrap().contains("1600-1700"), "{body}");
    assert_eq!(bob.get("/api/seeks").await.1["seeks"].as_array().unwrap().len(), 2);
    ada.send("DELETE", &format!("/api/seeks/{}", high["id"].as_str().unwrap()), None).await;
    ada.send("DELETE", &format!("/api/seeks/{}", seek["id"].as_str().unwrap()), None).await;

    // A rated game that counts: Ada wins.
    let (id, bob_side) = rated_game(&mut ada, &mut bob, "nim:stones=9", 2, 1).await;
    let ada_side = if bob_side == "first" { "second" } else { "first" };
    let (status, players) = server.get(&format!("/api/games/{id}/players")).await;
    assert_eq!((status, &players["rated"]), (200, &json!(true)), "{players}");
    let (ada_seat, bob_seat) = (&players["seats"][ada_side], &players["seats"][&bob_side]);
    assert_eq!((&ada_seat["username"], &ada_seat["rating"]), (&json!("Ada"), &json!(1500)), "{players}");
    assert!(ada_seat["ratingDiff"].as_i64().unwrap() > 0 && bob_seat["ratingDiff"].as_i64().unwrap() < 0, "{players}");
    // Ending it again changes nothing.
    assert_eq!(ada.post(&format!("/api/games/{id}/resign"), json!({})).await.0, 409);

    let (status, profile) = server.get("/api/user/ADA").await;
    assert_eq!(status, 200, "{profile}");
    let nim = &profile["perfs"]["nim"];
    assert_eq!((&nim["games"], &nim["prov"]), (&json!(1), &json!(true)), "{profile}");
    let rating = nim["rating"].as_i64().unwrap();
    assert_eq!(rating, 1500 + ada_seat["ratingDiff"].as_i64().unwrap(), "{profile} {players}");
    assert_eq!(nim["prog"], 0, "one game: no progress yet");
    assert_eq!(profile["count"], json!({ "all": 1, "rated": 1, "win": 1, "loss": 0, "draw": 0 }));
    assert_eq!((&profile["id"], &profile["username"]), (&json!("ada"), &json!("Ada")));
    assert!(profile["createdAt"].is_i64() && profile["seenAt"].is_i64(), "{profile}");
    assert_eq!(ada.get("/api/account").await.1["perfs"], profile["perfs"]);
    let (_, bob_profile) = server.get("/api/user/bob").await;
    assert!(bob_profile["perfs"]["nim"]["rating"].as_i64().unwrap() < 1500, "{bob_profile}");
    assert_eq!(bob_profile["count"]["loss"], 1);
    assert_eq!(server.get("/api/user/nobody").await.0, 404);

    let (status, history) = server.get("/api/user/ada/rating-history").await;
    assert_eq!(status, 200, "{history}");
    let points = history[0]["points"].as_array().unwrap();
    assert_eq!((&history[0]["name"], points.len(), &points[0][3]), (&json!("nim"), 1, &json!(rating)), "{history}");
    assert!((0..12).contains(&points[0][1].as_i64().unwrap()), "months from 0: {history}");

    // Too few moves: aborted for ratings.
    rated_game(&mut ada, &mut bob, "nim", 1, 0).await;
    assert_eq!(server.get("/api/user/ada").await.1["perfs"]["nim"]["games"], 1);

    // The games of a player, as one records file, with filters.
    let records = |query: &str| {
        let ada = &ada;
        let query = query.to_owned();
        async move {
            let (status, text) = ada.get_text(&format!("/api/games/user/ada{query}")).await;
            (status, text.matches("[Variant ").count())
        }
    };
    assert_eq!(records("").await, (200, 2));
    assert_eq!(records("?max=1").await, (200, 1));
    assert_eq!(records("?result=win").await, (200, 1));
    assert_eq!(records("?result=loss").await, (200, 1));
    assert_eq!(records("?rated=true").await, (200, 1));
    assert_eq!(records("?variant=nim&result=draw").await, (200, 0));
    assert_eq!(records("?result=bogus").await.0, 400);
    assert_eq!(records("?variant=nope").await.0, 400);
    assert_eq!(ada.get_text("/api/games/user/nobody").await.0, 404);

    // The leaderboard: nobody settled yet (RD over 150 after one game).
    let (status, top) = server.get("/api/player/top/10/nim").await;
    assert_eq!((status, top), (200, json!({ "users": [] })));
    assert_eq!(server.get("/api/player/top/0/nim").await.0, 400);
    assert_eq!(server.get("/api/player/top/201/nim").await.0, 400);
    assert_eq!(server.get("/api/player/top/10/nope").await.0, 400);
    server.stop().await;
}

/// Whoever is rated in `db`: the rated games in the order they ended, as
/// `glicko2_check.py` reads them, and every stored rating.
fn stored(db: &Path) -> (Value, Vec<(String, String, [f64; 3])>) {
    let store = SqliteStore::open(db).unwrap();
    let store: &dyn Store = &store;
    sql::read(store, |sql| {
        let games = sql.query(
            "SELECT rated_games.perf, rated_games.player0, rated_games.player1, results.outcome, results.ended
             FROM rated_games JOIN results ON results.game = rated_games.game
             WHERE rated_games.status = 'rated' ORDER BY results.ended, rated_games.game",
            &[],
        )?;
        let games: Vec<Value> = games
            .iter()
            .map(|row| {
                let score = match row.text(3).unwrap().as_str() {
                    "first" => 1.0,
                    "second" => 0.0,
                    _ => 0.5,
                };
                json!({
                    "perf": row.text(0).unwrap(),
                    "players": [row.text(1).unwrap(), row.text(2).unwrap()],
                    "score": score,
                    "at": row.int(4).unwrap(),
                })
            })
            .collect();
        let ratings =
            sql.query("SELECT player, perf, rating, rd, volatility FROM ratings ORDER BY player, perf", &[])?;
        let ratings = ratings
            .iter()
            .map(|r| {
                (r.text(0).unwrap(), r.text(1).unwrap(), [r.real(2).unwrap(), r.real(3).unwrap(), r.real(4).unwrap()])
            })
            .collect();
        Ok((Value::Array(games), ratings))
    })
    .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stored_ratings_agree_with_a_second_independent_glicko2() {
    let (dir, server) = start().await;
    let mut ada = account(&server, "ada", "127.0.0.2").await;
    let mut bob = account(&server, "bob", "127.0.0.3").await;
    let mut cy = account(&server, "cy", "127.0.0.5").await;
    rated_game(&mut ada, &mut bob, "nim", 2, 1).await;
    rated_game(&mut bob, &mut cy, "nim", 3, 1).await;
    rated_game(&mut cy, &mut ada, "nim:stones=30", 2, 0).await;
    rated_game(&mut ada, &mut bob, "nim", 4, 0).await;
    rated_game(&mut bob, &mut ada, "nim", 2, 0).await;
    // A draw, agreed after two moves each.
    let (status, seek) = cy.post("/api/seeks", json!({ "variant": "nim", "rated": true })).await;
    assert_eq!(status, 201);
    let (_, game) = ada.post(&format!("/api/seeks/{}/accept", seek["id"].as_str().unwrap()), json!({})).await;
    let id = game["id"].as_str().unwrap().to_owned();
    let mut players = [&mut cy, &mut ada];
    if game["you"] == "first" {
        players.swap(0, 1);
    }
    for ply in 0..4 {
        assert_eq!(players[ply % 2].post(&format!("/api/games/{id}/move"), json!({ "move": "1" })).await.0, 200);
    }
    for player in players {
        let (status, body) = player.post(&format!("/api/games/{id}/draw"), json!({ "action": "offer" })).await;
        assert_eq!(status, 200, "{body}");
    }
    // Against the computer: its level is rated too.
    let (status, game) = ada
        .post("/api/games", json!({ "variant": "nim", "opponent": "computer", "colour": "first", "rated": true }))
        .await;
    assert_eq!(status, 201, "{game}");
    let id = game["id"].as_str().unwrap().to_owned();
    for ply in [0, 2] {
        wait_for(&server, &id, None, |s| s["ply"] == ply).await;
        assert_eq!(ada.post(&format!("/api/games/{id}/move"), json!({ "move": "1" })).await.0, 200);
    }
    wait_for(&server, &id, None, |s| s["ply"] == 4).await;
    assert_eq!(ada.post(&format!("/api/games/{id}/resign"), json!({})).await.0, 200);
    // The level is listed with its rating, not yet shown beside it (provisional).
    let (_, variants) = server.get("/api/variants").await;
    let random = variants["levels"].as_array().unwrap().iter().find(|l| l["id"] == "random").unwrap();
    assert_eq!(
        (&random["perfs"]["nim"]["games"], &random["perfs"]["nim"]["prov"]),
        (&json!(1), &json!(true)),
        "{random}"
    );
    assert!(random["perfs"]["nim"]["rating"].as_i64().unwrap() > 1500, "{random}");
    assert!(random["shown"].get("nim").is_none_or(|s| s["from"] == "ladder"), "{random}");
    server.stop().await;

    let (games, ratings) = stored(&dir.path().join("g.sqlite"));
    assert_eq!(games.as_array().unwrap().len(), 7, "{games}");
    let mut script = std::process::Command::new("python3")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/glicko2_check.py"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("python3 runs");
    script.stdin.take().unwrap().write_all(games.to_string().as_bytes()).unwrap();
    let output = script.wait_with_output().unwrap();
    assert!(output.status.success());
    let expected: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(ratings.len(), 4, "three accounts and a computer level: {ratings:?}");
    assert!(ratings.iter().any(|(player, _, _)| player == "computer:random"), "{ratings:?}");
    for (player, perf, [rating, rd, volatility]) in &ratings {
        let want = &expected[player][perf];
        let close = |actual: f64, i: usize, tolerance: f64| (actual - want[i].as_f64().unwrap()).abs() < tolerance;
        assert!(
            close(*rating, 0, 1e-3) && close(*rd, 1, 1e-3) && close(*volatility, 2, 1e-6),
            "{player} {perf}: stored {rating} {rd} {volatility}, recomputed {want}"
        );
    }
}

/// A rated game starts at the start, dealt by the server (lichess's rule):
/// asked rated with a chosen position or seed, a new game, a friend game
/// and a seek are each refused (400, saying so) and nothing is made; casual,
/// the same requests start their games.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_from_a_chosen_position_is_casual_on_every_route() {
    let (_dir, server) = start().await;
    let mut ada = account(&server, "Ada", "127.0.0.2").await;
    let lone_king = "k7/8/8/8/8/8/8/4K2R w - - 0 1";
    let chosen = [
        ("/api/games", json!({ "variant": "fluid", "opponent": "computer", "position": lone_king })),
        ("/api/games", json!({ "variant": "fluid", "opponent": "friend", "position": lone_king })),
        ("/api/games", json!({ "variant": "nim", "opponent": "computer", "seed": 7 })),
        ("/api/seeks", json!({ "variant": "fluid", "position": lone_king })),
        ("/api/seeks", json!({ "variant": "nim", "seed": 7 })),
    ];
    for (path, request) in &chosen {
        let mut rated = request.clone();
        rated["rated"] = json!(true);
        let (status, body) = ada.post(path, rated.clone()).await;
        assert_eq!(status, 400, "{path} {rated}: {body}");
        let reason = body["error"].as_str().unwrap();
        assert!(reason.contains("casual") || reason.contains("dealt by the server"), "{reason}");
        let (status, body) = ada.post(path, request.clone()).await;
        assert_eq!(status, 201, "{path} {request}: {body}");
        assert_ne!(body["rated"], json!(true), "{body}");
    }
    // Only the casual ones were made: no rated game, no rated seek.
    let (_, seeks) = ada.get("/api/seeks").await;
    assert!(seeks["seeks"].as_array().unwrap().iter().all(|s| s["rated"] == false), "{seeks}");
    let (status, game) = ada
        .post("/api/games", json!({ "variant": "fluid", "opponent": "computer", "colour": "first", "rated": true }))
        .await;
    assert_eq!(status, 201, "from the start it is rated: {game}");
    let (_, players) = server.get(&format!("/api/games/{}/players", game["id"].as_str().unwrap())).await;
    assert_eq!(players["rated"], true, "{players}");
    server.stop().await;
}
