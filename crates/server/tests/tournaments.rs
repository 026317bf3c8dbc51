//! An arena through the API on one node (docs/api.md, "Tournaments"):
//! created by an account, joined with its password, started at its time
//! (entrants told), pairing whoever waits, paired again as soon as games
//! end without an immediate rematch, berserk before the first move only,
//! scored from the stored results (streaks and berserk), and finished with
//! a podium once its time is up and the last game ends. Each player is told
//! of each game (a notice linking it); a tournament game names its
//! tournament and has no rematch. A player who does not start a game loses
//! it and is withdrawn.

mod common;

use common::session::Browser;
use common::TestServer;
use menagerie_server::sql_params;
use menagerie_server::store::{sql, SqliteStore};
use menagerie_server::HubConfig;
use serde_json::{json, Value};
use std::time::Duration;

async fn account(server: &TestServer, name: &str, ip: &str) -> Browser {
    let mut browser = Browser::from(server, ip);
    let (status, body) =
        browser.post("/api/register", json!({ "username": name, "password": "correct horse battery" })).await;
    assert_eq!(status, 201, "{body}");
    browser
}

/// Reads the tournament until `done` holds of it.
async fn until(browser: &mut Browser, id: &str, what: &str, done: impl Fn(&Value) -> bool) -> Value {
    for _ in 0..200 {
        let (status, t) = browser.get(&format!("/api/tournament/{id}")).await;
        assert_eq!(status, 200, "{t}");
        if done(&t) {
            return t;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the tournament never reached: {what}");
}

/// Waits for the games of `t` in play to be created (a pairing is stored
/// a moment before its games).
async fn games_created(browser: &mut Browser, t: &Value) {
    for game in current_games(t) {
        let path = format!("/api/games/{}", game["id"].as_str().unwrap());
        for tries in 0.. {
            if browser.get(&path).await.0 == 200 {
                break;
            }
            assert!(tries < 100, "game {path} never created");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

fn index_of(names: &[&str], name: &str) -> usize {
    names.iter().position(|n| *n == name).unwrap()
}

/// Plays game `game` of the tournament JSON: each side takes one stone a
/// move, `moves` moves each, then `loser` resigns.
async fn play(players: &mut [Browser], names: &[&str], game: &Value, moves: usize, loser: &str) {
    let id = game["id"].as_str().unwrap();
    let seats = [index_of(names, game["white"].as_str().unwrap()), index_of(names, game["black"].as_str().unwrap())];
    for ply in 0..2 * moves {
        let (status, body) =
            players[seats[ply % 2]].post(&format!("/api/games/{id}/move"), json!({ "move": "1" })).await;
        assert_eq!(status, 200, "move {ply}: {body}");
    }
    let (status, body) = players[index_of(names, loser)].post(&format!("/api/games/{id}/resign"), json!({})).await;
    assert_eq!(status, 200, "{body}");
    // The tournament pairs the next game: no rematch.
    let (status, body) = players[index_of(names, loser)].post(&format!("/api/games/{id}/rematch"), json!({})).await;
    assert_eq!(status, 400, "{body}");
    assert!(body["error"].as_str().unwrap().contains("tournament"), "{body}");
}

/// The lines of an NDJSON answer, each read as JSON.
struct Lines {
    response: reqwest::Response,
    buffer: String,
}

impl Lines {
    async fn next(&mut self) -> Value {
        loop {
            if let Some(end) = self.buffer.find('\n') {
                let line: String = self.buffer.drain(..=end).collect();
                return serde_json::from_str(&line).unwrap();
            }
            let chunk = tokio::time::timeout(Duration::from_secs(10), self.response.chunk()).await.unwrap().unwrap();
            self.buffer.push_str(std::str::from_utf8(&chunk.expect("the stream goes on")).unwrap());
        }
    }
}

fn current_games(t: &Value) -> Vec<Value> {
    t["games"].as_array().unwrap().iter().filter(|g| g["result"].is_null()).cloned().collect()
}

fn opponents(game: &Value) -> [String; 2] {
    let mut pair = [game["white"].as_str().unwrap().to_owned(), game["black"].as_str().unwrap().to_owned()];
    pair.sort();
    pair
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_arena_pairs_scores_and_finishes_with_a_podium() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("g.sqlite");
    let server = TestServer::start(&db).await;
    let names = ["ann", "ben", "cat", "dan"];
    let mut players = Vec::new();
    for (i, name) in names.iter().enumerate() {
        players.push(account(&server, name, &format!("127.0.0.{}", i + 2)).await);
    }
    let mut stranger = Browser::from(&server, "127.0.0.9");

    // Accounts only; bad fields are clear errors.
    let body = json!({ "name": "Nim night", "variant": "nim:stones=40", "clockTime": 2, "clockIncrement": 0,
                       "minutes": 30, "startDate": 0, "password": "club" });
    let (status, refused) = stranger.post("/api/tournament", body.clone()).await;
    assert_eq!(status, 401, "{refused}");
    let mut swiss = body.clone();
    swiss["kind"] = json!("swiss");
    let (status, refused) = players[0].post("/api/tournament", swiss).await;
    assert_eq!(status, 400, "{refused}");
    let (status, refused) = players[0]
        .post("/api/tournament", json!({ "variant": "nope", "clockTime": 2, "clockIncrement": 0, "minutes": 30 }))
        .await;
    assert_eq!(status, 400, "{refused}");
    assert!(refused["error"].as_str().unwrap().contains("nope"), "{refused}");

    // Starting in a few seconds: everyone joins before.
    let starts = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis() as i64 + 3_000;
    let mut body = body;
    body["startDate"] = json!(starts);
    let (status, created) = players[0].post("/api/tournament", body).await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_owned();
    assert_eq!((created["status"].as_str(), created["hasPassword"].as_bool()), (Some("created"), Some(true)));
    let (_, listed) = stranger.get("/api/tournament").await;
    assert_eq!(listed["created"][0]["id"], json!(id), "{listed}");
    // The live stream: the tournament at once, again when someone joins.
    let response = reqwest::get(format!("{}/api/tournament/{id}/stream", server.base)).await.unwrap();
    assert_eq!(response.headers()["content-type"], "application/x-ndjson");
    let mut lines = Lines { response, buffer: String::new() };
    let first = lines.next().await;
    // Its creator is in it from the start (lichess's).
    assert_eq!((first["id"].as_str(), first["nbPlayers"].as_u64()), (Some(id.as_str()), Some(1)));
    let join = format!("/api/tournament/{id}/join");
    let (status, refused) = players[1].post(&join, json!({ "password": "wrong" })).await;
    assert_eq!(status, 403, "{refused}");
    for player in players.iter_mut() {
        let (status, body) = player.post(&join, json!({ "password": "club" })).await;
        assert_eq!(status, 200, "{body}");
    }
    assert_eq!(stranger.post(&join, json!({ "password": "club" })).await.0, 401);
    let mut seen = lines.next().await;
    while seen["nbPlayers"] != json!(4) {
        seen = lines.next().await;
    }
    drop(lines);

    // It starts; everyone is told and paired.
    let t = until(&mut players[0], &id, "two games", |t| current_games(t).len() == 2).await;
    assert_eq!(t["status"], json!("started"));
    games_created(&mut players[0], &t).await;
    let first_round = current_games(&t);
    // Told that it starts, and each of their game (which it links).
    for (i, name) in names.iter().enumerate() {
        let (_, told) = players[i].get("/api/notifications").await;
        let told = told["notifications"].as_array().unwrap().clone();
        assert!(told.iter().any(|n| n["kind"] == "tournamentStarting"), "{name}: {told:?}");
        let game = first_round.iter().find(|g| g["white"] == *name || g["black"] == *name).unwrap();
        let link = format!("/g/{}", game["id"].as_str().unwrap());
        let paired: Vec<&Value> = told.iter().filter(|n| n["kind"] == "tournamentGame").collect();
        assert_eq!(paired.len(), 1, "{name}: {told:?}");
        assert_eq!((paired[0]["link"].as_str(), &paired[0]["game"]), (Some(link.as_str()), &game["id"]), "{name}");
        assert!(paired[0]["text"].as_str().unwrap().contains("Nim night"), "{name}: {told:?}");
    }
    // A game's page learns its tournament (and links back to it).
    let (_, seated) = stranger.get(&format!("/api/games/{}/players", first_round[0]["id"].as_str().unwrap())).await;
    assert_eq!(seated["tournament"], json!({ "id": id, "name": "Nim night" }), "{seated}");
    // Berserk: before one's first move only, in one's own game.
    let game = &first_round[0];
    let berserker = game["black"].as_str().unwrap().to_owned();
    let other = game["white"].as_str().unwrap().to_owned();
    let berserk = format!("/api/tournament/{id}/berserk");
    let (status, body) = players[index_of(&names, &berserker)].post(&berserk, json!({})).await;
    assert_eq!(status, 200, "{body}");
    let game_id = game["id"].as_str().unwrap();
    let (_, state) = players[index_of(&names, &berserker)].get(&format!("/api/games/{game_id}")).await;
    assert_eq!(
        (state["clock"]["first_ms"].as_u64(), state["clock"]["second_ms"].as_u64()),
        (Some(120_000), Some(60_000))
    );
    let (status, _) =
        players[index_of(&names, &other)].post(&format!("/api/games/{game_id}/move"), json!({ "move": "1" })).await;
    assert_eq!(status, 200);
    let (status, _) =
        players[index_of(&names, &berserker)].post(&format!("/api/games/{game_id}/move"), json!({ "move": "1" })).await;
    assert_eq!(status, 200);
    let (status, late) = players[index_of(&names, &other)].post(&berserk, json!({})).await;
    assert_eq!(status, 409, "{late}");
    // The berserker wins in 8 moves (3 points), the other game's white in 8 (2).
    play(&mut players, &names, &json!({ "id": game_id, "white": other, "black": berserker }), 7, &other).await;
    let other_game = &first_round[1];
    let other_winner = other_game["white"].as_str().unwrap().to_owned();
    play(&mut players, &names, other_game, 8, other_game["black"].as_str().unwrap()).await;

    // Paired again at once: the winners together, the losers together.
    let t = until(&mut players[0], &id, "the second wave", |t| {
        current_games(t).len() == 2 && t["games"].as_array().unwrap().len() == 4
    })
    .await;
    let mut second: Vec<[String; 2]> = current_games(&t).iter().map(opponents).collect();
    second.sort();
    games_created(&mut players[0], &t).await;
    let mut winners = [berserker.clone(), other_winner.clone()];
    winners.sort();
    let mut losers = [other.clone(), other_game["black"].as_str().unwrap().to_owned()];
    losers.sort();
    let mut expected = vec![winners.clone(), losers.clone()];
    expected.sort();
    assert_eq!(second, expected, "{t}");
    let scores: Vec<(String, u64)> = t["standing"]["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["name"].as_str().unwrap().to_owned(), p["score"].as_u64().unwrap()))
        .collect();
    assert_eq!(scores[0], (berserker.clone(), 3), "{t}");
    assert_eq!(scores[1], (other_winner.clone(), 2), "{t}");

    // The arena's time runs out (its start moved back past its length):
    // no more pairing, and it finishes once the games in play end.
    let store = SqliteStore::open(&db).unwrap();
    sql::transact(&store, |s| {
        s.execute("UPDATE tournaments SET started = started - 31 * 60000 WHERE id = $1", sql_params![&id])
    })
    .unwrap();
    let t2 = current_games(&t);
    for game in &t2 {
        let names_in = opponents(game);
        // The berserker wins again: a streak of two.
        let loser = if names_in.contains(&berserker) {
            names_in.iter().find(|n| **n != berserker).unwrap().clone()
        } else {
            game["black"].as_str().unwrap().to_owned()
        };
        play(&mut players, &names, game, 8, &loser).await;
    }
    let t = until(&mut players[0], &id, "finished", |t| t["status"] == json!("finished")).await;
    assert_eq!(t["games"].as_array().unwrap().len(), 4, "no game after the end: {t}");
    let podium = t["podium"].as_array().unwrap();
    assert_eq!(podium.len(), 3);
    assert_eq!(podium[0]["name"], json!(berserker));
    assert_eq!(podium[0]["score"], json!(5), "{t}");
    assert_eq!(podium[0]["sheet"]["fire"], json!(true));
    let (_, listed) = stranger.get("/api/tournament").await;
    assert_eq!(listed["finished"][0]["id"], json!(id), "{listed}");
    // Over: no joining, no leaving.
    assert_eq!(players[1].post(&join, json!({ "password": "club" })).await.0, 409);
    assert_eq!(players[1].post(&format!("/api/tournament/{id}/withdraw"), json!({})).await.0, 409);
    assert_eq!(stranger.get("/api/tournament/nope").await.0, 404);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_joins_no_tournament_where_bots_may_not_play_people_rated() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("g.sqlite")).await;
    let mut ann = account(&server, "ann", "127.0.0.2").await;
    let mut robot = account(&server, "robot", "127.0.0.3").await;
    let body = json!({ "name": "Nim night", "variant": "nim:stones=40", "clockTime": 2, "clockIncrement": 0,
                       "minutes": 30, "waitMinutes": 10 });
    let (status, created) = ann.post("/api/tournament", body).await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap();
    let (status, token) = robot.post("/api/tokens", json!({ "description": "bot", "scopes": ["bot:play"] })).await;
    assert_eq!(status, 201, "{token}");
    let upgraded = server
        .client
        .post(format!("{}/api/bot/account/upgrade", server.base))
        .bearer_auth(token["token"].as_str().unwrap())
        .send()
        .await
        .unwrap();
    assert_eq!(upgraded.status(), 200);
    let (status, refused) = robot.post(&format!("/api/tournament/{id}/join"), json!({})).await;
    assert_eq!(status, 400, "{refused}");
    assert!(refused["error"].as_str().unwrap().contains("bots may not play rated games against people"), "{refused}");
    assert_eq!(ann.post(&format!("/api/tournament/{id}/join"), json!({})).await.0, 200, "a person joins");
}

/// The standings' line of `name`.
fn line_of<'a>(t: &'a Value, name: &str) -> &'a Value {
    t["standing"]["players"].as_array().unwrap().iter().find(|p| p["name"] == json!(name)).expect("in the standings")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_who_does_not_start_a_game_loses_it_and_leaves_the_arena() {
    let dir = tempfile::tempdir().unwrap();
    let config = HubConfig { max_searches: 2, first_move_within: Duration::from_secs(1), ..HubConfig::default() };
    let server = TestServer::start_with_config(&dir.path().join("g.sqlite"), config).await;
    let names = ["ann", "ben"];
    let mut players = [account(&server, "ann", "127.0.0.2").await, account(&server, "ben", "127.0.0.3").await];
    let starts = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis() as i64 + 1_500;
    let body = json!({ "name": "Nim night", "variant": "nim:stones=40", "clockTime": 2, "clockIncrement": 0,
                       "minutes": 30, "startDate": starts });
    let (status, created) = players[0].post("/api/tournament", body).await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_owned();
    let join = format!("/api/tournament/{id}/join");
    for player in players.iter_mut() {
        assert_eq!(player.post(&join, json!({})).await.0, 200);
    }
    let t = until(&mut players[0], &id, "a game", |t| current_games(t).len() == 1).await;
    games_created(&mut players[0], &t).await;
    let game = current_games(&t)[0].clone();
    let (white, black) = (game["white"].as_str().unwrap().to_owned(), game["black"].as_str().unwrap().to_owned());
    let path = format!("/api/games/{}", game["id"].as_str().unwrap());

    // White moves; Black never does: after the wait Black loses, and is withdrawn.
    let (status, body) = players[index_of(&names, &white)].post(&format!("{path}/move"), json!({ "move": "1" })).await;
    assert_eq!(status, 200, "{body}");
    let t = until(&mut players[0], &id, "the game scored", |t| current_games(t).is_empty()).await;
    assert_eq!(t["games"][0]["result"], json!("1-0"), "{t}");
    assert_eq!(line_of(&t, &black)["withdraw"], json!(true), "{t}");
    assert_eq!(
        (line_of(&t, &white)["withdraw"].clone(), line_of(&t, &white)["score"].clone()),
        (json!(false), json!(2))
    );
    let (_, state) = players[index_of(&names, &white)].get(&path).await;
    assert_eq!(state["result"]["winner"], json!("first"), "{state}");
    assert!(state["result"]["reason"].as_str().unwrap().ends_with("did not move"), "{state}");
    let (status, refused) =
        players[index_of(&names, &black)].post(&format!("{path}/move"), json!({ "move": "1" })).await;
    assert_eq!(status, 409, "too late: {refused}");
    // Alone in the arena, White waits: no game is made for a withdrawn player.
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    let (_, t) = players[0].get(&format!("/api/tournament/{id}")).await;
    assert_eq!(t["games"].as_array().unwrap().len(), 1, "{t}");

    // Joining again puts Black back: paired, and a game both start goes on past the wait.
    assert_eq!(players[index_of(&names, &black)].post(&join, json!({})).await.0, 200);
    let t = until(&mut players[0], &id, "a second game", |t| current_games(t).len() == 1).await;
    games_created(&mut players[0], &t).await;
    let game = current_games(&t)[0].clone();
    let path = format!("/api/games/{}", game["id"].as_str().unwrap());
    for seat in ["white", "black"] {
        let player = index_of(&names, game[seat].as_str().unwrap());
        let (status, body) = players[player].post(&format!("{path}/move"), json!({ "move": "1" })).await;
        assert_eq!(status, 200, "{body}");
    }
    tokio::time::sleep(Duration::from_millis(2_000)).await;
    let (_, state) = players[0].get(&path).await;
    assert!(state["result"].is_null(), "a started game is not ended: {state}");
    let (_, t) = players[0].get(&format!("/api/tournament/{id}")).await;
    assert!(t["standing"]["players"].as_array().unwrap().iter().all(|p| p["withdraw"] == json!(false)), "{t}");
}

/// lichess's `tournament:write`: a bot joins and withdraws with its token,
/// lichess's bodies (a form with the password of a private tournament,
/// then none), from any origin; a token without the scope may not. The
/// creator of a tournament is in it from its creation.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_joins_and_withdraws_with_its_token_and_the_creator_is_joined() {
    let dir = tempfile::tempdir().unwrap();
    let config = HubConfig { max_searches: 2, bots_rated_vs_people: true, ..HubConfig::default() };
    let server = TestServer::start_with_config(&dir.path().join("g.sqlite"), config).await;
    let mut ann = account(&server, "ann", "127.0.0.2").await;
    let mut robot = account(&server, "robot", "127.0.0.3").await;
    let body = json!({ "name": "Club night", "variant": "nim:stones=40", "clockTime": 2, "clockIncrement": 0,
                       "minutes": 30, "waitMinutes": 10, "password": "club secret" });
    let (status, created) = ann.post("/api/tournament", body).await;
    assert_eq!(status, 201, "{created}");
    assert_eq!((&created["nbPlayers"], &created["me"]["joined"]), (&json!(1), &json!(true)), "{created}");
    assert_eq!(line_of(&created, "ann")["withdraw"], json!(false));
    let id = created["id"].as_str().unwrap().to_owned();
    let (status, writer) =
        robot.post("/api/tokens", json!({ "description": "bot", "scopes": ["bot:play", "tournament:write"] })).await;
    assert_eq!(status, 201, "{writer}");
    let writer = writer["token"].as_str().unwrap().to_owned();
    let (_, player) = robot.post("/api/tokens", json!({ "description": "bot", "scopes": ["bot:play"] })).await;
    let player = player["token"].as_str().unwrap().to_owned();
    let bot = |token: &str, path: &str, form: Option<&[(&str, &str)]>| {
        let mut request = server.client.post(format!("{}{path}", server.base)).bearer_auth(token);
        // A page of another origin, as lichess's clients may be anywhere.
        request = request.header("origin", "https://elsewhere.example");
        if let Some(form) = form {
            request = request.form(form);
        }
        async move {
            let response = request.send().await.unwrap();
            (response.status().as_u16(), response.json::<Value>().await.unwrap_or(Value::Null))
        }
    };
    assert_eq!(bot(&player, "/api/bot/account/upgrade", None).await.0, 200);
    let join = format!("/api/tournament/{id}/join");
    let (status, refused) = bot(&player, &join, Some(&[("password", "club secret")])).await;
    assert_eq!((status, &refused["error"]), (403, &json!("Missing scope: tournament:write")));
    let (status, refused) = bot(&writer, &join, Some(&[("password", "not it")])).await;
    assert_eq!((status, &refused["error"]), (403, &json!("wrong tournament password")));
    let (status, joined) = bot(&writer, &join, Some(&[("password", "club secret"), ("pairMeAsap", "true")])).await;
    assert_eq!((status, &joined), (200, &json!({ "ok": true })));
    let (_, t) = ann.get(&format!("/api/tournament/{id}")).await;
    assert_eq!(line_of(&t, "robot")["withdraw"], json!(false), "{t}");
    let (status, left) = bot(&writer, &format!("/api/tournament/{id}/withdraw"), None).await;
    assert_eq!((status, &left), (200, &json!({ "ok": true })));
    let (_, t) = ann.get(&format!("/api/tournament/{id}")).await;
    assert_eq!(line_of(&t, "robot")["withdraw"], json!(true), "{t}");
    // The creator may leave their own tournament.
    assert_eq!(ann.post(&format!("/api/tournament/{id}/withdraw"), json!({})).await.0, 200);
    let (_, t) = ann.get(&format!("/api/tournament/{id}")).await;
    assert_eq!((&t["nbPlayers"], &t["me"]["joined"]), (&json!(0), &json!(false)), "{t}");
    server.stop().await;
}
