//! The logs of a whole Lunch Chess game, captured as the server writes them
//! (JSON lines, at `debug`): one line per request with its route, status
//! and duration, the game's events, and never a seat secret, a cookie or a
//! card (no move text at all: a move names the cards it plays, a chance
//! move the card drawn).

mod common;

use common::TestServer;
use futures_util::StreamExt;
use menagerie_server::ops::logs::{self, LogFormat};
use menagerie_server::store::{SqliteStore, Store};
use rand::seq::IndexedRandom;
use rand::SeedableRng;
use serde_json::{json, Value};
use std::sync::{Arc, Mutex, OnceLock};

/// A log destination in memory.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for Captured {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Captured {
    /// What was written since `from` bytes.
    fn text_since(&self, from: usize) -> String {
        String::from_utf8(self.0.lock().unwrap()[from..].to_vec()).unwrap()
    }

    fn len(&self) -> usize {
        self.0.lock().unwrap().len()
    }
}

/// One test at a time: each reads the lines written while it ran.
static SERIAL: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// The logs of this test binary, as the server writes them with `--log-format json`.
fn captured() -> Captured {
    static CAPTURED: OnceLock<Captured> = OnceLock::new();
    CAPTURED
        .get_or_init(|| {
            let captured = Captured::default();
            let writer = captured.clone();
            logs::init_with(LogFormat::Json, "debug", move || writer.clone()).unwrap();
            captured
        })
        .clone()
}

/// Lines of `text`, each a JSON object.
fn lines(text: &str) -> Vec<Value> {
    text.lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("not a JSON line ({e}): {line}")))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_lunch_game_is_logged_without_a_secret_or_a_card() {
    let _serial = SERIAL.lock().await;
    let captured = captured();
    let from = captured.len();

    let folder = tempfile::tempdir().unwrap();
    let db = folder.path().join("games.sqlite");
    let server = TestServer::start(&db).await;
    let mut requests = 0;

    // A browser with its identity cookie, in a game where it holds both seats.
    let me = server.client.get(format!("{}/api/me", server.base)).send().await.unwrap();
    requests += 1;
    let cookie = me
        .headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok()?.split(';').next())
        .find(|c| c.starts_with("menagerie_player="))
        .expect("a new browser gets its identity cookie")
        .to_owned();
    let cookie_value = cookie.split_once('=').unwrap().1.to_owned();
    let created = server.create(json!({ "variant": "lunch", "opponent": "local", "colour": "first" })).await;
    requests += 1;
    let id = created["id"].as_str().unwrap().to_owned();
    let secrets = ["first", "second"].map(|side| created["secrets"][side].as_str().unwrap().to_owned());

    // A socket for the first seat, its secret in the query.
    let url = format!("ws://{}/api/games/{id}/ws?seat={}", server.address(), secrets[0]);
    let (mut socket, _) = tokio_tungstenite::connect_async(url).await.unwrap();
    requests += 1;
    let first: Value = serde_json::from_str(socket.next().await.unwrap().unwrap().to_text().unwrap()).unwrap();
    assert_eq!(first["id"], id.as_str());

    let mut rng = rand::rngs::StdRng::seed_from_u64(41);
    let mut state = server.state(&id, Some(&secrets[0])).await;
    requests += 1;
    for _ in 0..300 {
        if !state["result"].is_null() {
            break;
        }
        let seat = if state["to_act"] == "first" { &secrets[0] } else { &secrets[1] };
        let response = server
            .client
            .get(format!("{}/api/games/{id}/moves?seat={seat}", server.base))
            .header("cookie", &cookie)
            .send()
            .await
            .unwrap();
        requests += 1;
        let moves: Value = response.json().await.unwrap();
        let choices: Vec<&str> = moves["moves"].as_array().unwrap().iter().filter_map(Value::as_str).collect();
        let choice = choices.choose(&mut rng).expect("a legal move in a game not over");
        let (status, after) = server.play(&id, seat, choice).await;
        requests += 1;
        assert_eq!(status, 200, "{choice}: {after}");
        state = after;
    }
    if state["result"].is_null() {
        // Long games end by resignation: the game's end is logged either way.
        let seat = if state["to_act"] == "first" { &secrets[0] } else { &secrets[1] };
        let (status, after) = server.post(&format!("/api/games/{id}/resign"), json!({ "seat": seat })).await;
        requests += 1;
        assert_eq!(status, 200, "{after}");
    }
    drop(socket);
    server.stop().await;

    let stored = SqliteStore::open(&db).unwrap().load(&id).unwrap().unwrap();
    assert!(stored.moves.iter().any(|m| m.text.starts_with("draw:")), "cards were drawn");
    let text = captured.text_since(from);
    let lines = lines(&text);

    // One line per request, with its route's pattern, status and duration.
    let request_lines: Vec<&Value> = lines.iter().filter(|l| l["target"] == "menagerie::http").collect();
    assert_eq!(request_lines.len(), requests, "one line per request");
    for line in &request_lines {
        assert!(line["route"].as_str().unwrap().starts_with('/'), "{line}");
        assert!(line["status"].as_u64().is_some() && line["ms"].as_f64().is_some(), "{line}");
    }
    assert!(request_lines.iter().any(|l| l["route"] == "/api/games/{id}/move" && l["status"] == 200));
    // The game's events: its start, every act, its end.
    let events: Vec<&Value> = lines.iter().filter(|l| l["target"] == "menagerie::games").collect();
    assert!(events.iter().any(|l| l["message"] == "game started" && l["game"] == id.as_str()));
    assert!(events.iter().filter(|l| l["message"] == "act").count() >= 2);
    assert!(events.iter().any(|l| l["message"] == "game over" && l["game"] == id.as_str()), "{events:?}");

    // Nothing secret, in any line.
    for secret in &secrets {
        assert!(!text.contains(secret.as_str()), "a seat secret was logged");
    }
    assert!(!text.contains(&cookie_value), "the identity cookie was logged");
    assert!(!text.contains("seat="), "a query string was logged");
    for mv in &stored.moves {
        assert!(!text.contains(&format!("\"{}\"", mv.text)), "a move text was logged: {}", mv.text);
        if mv.text.contains(':') {
            assert!(!text.contains(&mv.text), "a card was logged: {}", mv.text);
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn behind_a_trusted_proxy_the_client_is_the_address_it_forwards() {
    let _serial = SERIAL.lock().await;
    let captured = captured();
    let folder = tempfile::tempdir().unwrap();
    let client = reqwest::Client::new();
    // The same requests from 127.0.0.1, trusted as a proxy, then not.
    for (trusted, expected) in [(true, "203.0.113.7"), (false, "127.0.0.1")] {
        let from = captured.len();
        let store = SqliteStore::open(&folder.path().join(format!("{trusted}.sqlite"))).unwrap();
        let hub = menagerie_server::new_hub(
            Arc::new(menagerie_server::source::Registry),
            Arc::new(store),
            menagerie_server::default_opponents(),
            menagerie_server::HubConfig::default(),
        );
        let proxies = if trusted { vec!["127.0.0.1".parse().unwrap()] } else { Vec::new() };
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let operations = menagerie_server::ops::Operations::new(proxies);
        let task = menagerie_server::spawn_operated(listener, hub, Default::default(), operations);
        for header in ["x-forwarded-for", "x-real-ip"] {
            let value = if header == "x-forwarded-for" { "198.51.100.1, 203.0.113.7" } else { "203.0.113.7" };
            let response = client.get(format!("{base}/api/variants")).header(header, value).send().await.unwrap();
            assert_eq!(response.status(), 200);
        }
        task.abort();
        let lines = lines(&captured.text_since(from));
        let clients: Vec<&Value> = lines
            .iter()
            .filter(|l| l["target"] == "menagerie::http" && l["route"] == "/api/variants")
            .map(|l| &l["client"])
            .collect();
        assert_eq!(clients, [expected, expected], "trusted: {trusted}");
    }
}
