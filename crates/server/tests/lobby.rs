//! The lobby (docs/api.md, "Lobby"): two browsers, told apart by their
//! cookies, seek, accept and play, each with its own seat only; the lobby
//! socket pushes seeks and games and never a secret to anyone but the
//! seek's creator; seeks end when their creator leaves or accepts another;
//! the caps hold; bad input gets a 400.

mod common;

use common::TestServer;
use futures_util::StreamExt;
use menagerie_server::lobby::{
    GRACE, MAX_SEEKS, NEW_PLAYERS_PER_MINUTE, SEEKS_PER_ADDRESS, SEEKS_PER_PLAYER, SOCKETS_PER_PLAYER,
};
use serde_json::{json, Value};
use std::time::Duration;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

type Socket = common::WebSocket;

/// A browser: its cookies, sent with every request, from its address.
struct Browser<'a> {
    server: &'a TestServer,
    cookies: Vec<String>,
    ip: &'static str,
    client: reqwest::Client,
}

impl<'a> Browser<'a> {
    /// A browser that asked who it is (and got its identity cookie).
    async fn new(server: &'a TestServer) -> Browser<'a> {
        Browser::from(server, "127.0.0.1").await
    }

    /// A browser on another machine, at `ip`.
    async fn from(server: &'a TestServer, ip: &'static str) -> Browser<'a> {
        let mut browser = Browser { server, cookies: Vec::new(), ip, client: common::client_from(ip) };
        let (status, me) = browser.call("GET", "/api/me", None).await;
        assert_eq!((status, &me["name"]), (200, &json!("Anonymous")));
        assert_eq!(browser.cookies.len(), 1, "one identity cookie");
        browser
    }

    async fn named(server: &'a TestServer, name: &str) -> Browser<'a> {
        let mut browser = Browser::new(server).await;
        let (status, me) = browser.call("POST", "/api/me", Some(json!({ "name": name }))).await;
        assert_eq!((status, me), (200, json!({ "name": name.trim() })));
        browser
    }

    async fn call(&mut self, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
        let url = format!("{}{path}", self.server.base);
        let mut request = self.client.request(method.parse().unwrap(), url);
        if !self.cookies.is_empty() {
            request = request.header("cookie", self.cookies.join("; "));
        }
        // A change is JSON even when it says nothing, as the page sends it.
        let body = body.or_else(|| (method != "GET").then(|| json!({})));
        if let Some(body) = body {
            request = request.json(&body);
        }
        let response = request.send().await.unwrap();
        for set in response.headers().get_all("set-cookie") {
            let set = set.to_str().unwrap();
            assert!(set.contains("HttpOnly") && set.contains("SameSite=Lax"), "{set}");
            let pair = set.split(';').next().unwrap().to_owned();
            let name = pair.split('=').next().unwrap().to_owned();
            self.cookies.retain(|c| !c.starts_with(&format!("{name}=")));
            self.cookies.push(pair);
        }
        let status = response.status().as_u16();
        (status, response.json().await.unwrap_or(Value::Null))
    }

    async fn seek(&mut self, body: Value) -> Value {
        let (status, seek) = self.call("POST", "/api/seeks", Some(body.clone())).await;
        assert_eq!(status, 201, "seeking {body}: {seek}");
        seek
    }

    async fn socket(&self) -> Socket {
        open_from(self.ip, self.server, Some(&self.cookies.join("; "))).await.expect("the lobby socket opens")
    }
}

async fn open(server: &TestServer, cookie: Option<&str>) -> Result<Socket, tokio_tungstenite::tungstenite::Error> {
    open_from("127.0.0.1", server, cookie).await
}

async fn open_from(
    ip: &str,
    server: &TestServer,
    cookie: Option<&str>,
) -> Result<Socket, tokio_tungstenite::tungstenite::Error> {
    let mut request = format!("ws://{}/api/lobby/ws", server.address()).into_client_request().unwrap();
    if let Some(cookie) = cookie {
        request.headers_mut().insert("cookie", cookie.parse().unwrap());
    }
    common::socket_from(ip, server, request).await
}

/// The `n`th of many loopback addresses (127.0.0.0/8 is all loopback), as
/// clients on as many machines.
fn address(n: usize) -> &'static str {
    Box::leak(format!("127.0.{}.{}", 1 + n / 250, 1 + n % 250).into_boxed_str())
}

/// The next text message, parsed, with its raw text.
async fn next(socket: &mut Socket) -> (Value, String) {
    loop {
        let message = tokio::time::timeout(Duration::from_secs(10), socket.next()).await.unwrap().unwrap().unwrap();
        if let Message::Text(text) = message {
            return (serde_json::from_str(&text).unwrap(), text.to_string());
        }
    }
}

/// Messages until `done` holds for one (returned with the raw texts of all).
async fn until(socket: &mut Socket, done: impl Fn(&Value) -> bool) -> (Value, Vec<String>) {
    let mut texts = Vec::new();
    loop {
        let (message, text) = next(socket).await;
        texts.push(text);
        if done(&message) {
            return (message, texts);
        }
    }
}

fn seek_count(message: &Value) -> usize {
    message["seeks"].as_array().map_or(usize::MAX, Vec::len)
}

async fn listed(server: &TestServer) -> Vec<Value> {
    let (status, seeks) = server.get("/api/seeks").await;
    assert_eq!(status, 200);
    seeks["seeks"].as_array().unwrap().clone()
}

async fn start() -> (tempfile::TempDir, TestServer) {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("db.sqlite")).await;
    (dir, server)
}

#[tokio::test]
async fn two_players_seek_accept_and_play_each_with_its_own_seat() {
    let (_dir, server) = start().await;
    let mut ada = Browser::named(&server, "  Ada ").await;
    let mut bob = Browser::named(&server, "Bob").await;
    let mut ada_socket = ada.socket().await;
    let mut spectator = open(&server, None).await.unwrap();
    let (first, _) = next(&mut ada_socket).await;
    assert_eq!(first, json!({ "type": "lobby", "seeks": [], "games": [] }));

    let clock = json!({ "initial": 300, "increment": 2 });
    let seek = ada.seek(json!({ "variant": "lma", "colour": "first", "clock": clock })).await;
    assert_eq!(seek["name"], "Ada");
    assert_eq!((&seek["variant"], &seek["colour"], &seek["yours"]), (&json!("lma"), &json!("first"), &json!(true)));
    assert_eq!(seek["clock"], json!({ "initial": 300.0, "increment": 2.0 }));
    let (pushed, _) = until(&mut ada_socket, |m| seek_count(m) == 1).await;
    assert_eq!(pushed["seeks"][0]["yours"], true);
    // Others see it as Ada's, never with anything that identifies her browser.
    let (status, seen) = bob.call("GET", "/api/seeks", None).await;
    assert_eq!(status, 200);
    let theirs = &seen["seeks"][0];
    assert_eq!((&theirs["id"], &theirs["name"], &theirs["yours"]), (&seek["id"], &json!("Ada"), &json!(false)));
    let mut keys: Vec<&String> = theirs.as_object().unwrap().keys().collect();
    keys.sort();
    assert_eq!(
        keys,
        [
            "clock",
            "colour",
            "id",
            "name",
            "position",
            "provisional",
            "rated",
            "rating",
            "ratingRange",
            "variant",
            "yours"
        ]
    );
    // An anonymous creator: casual, no rating.
    assert_eq!(
        (&theirs["rated"], &theirs["rating"], &theirs["ratingRange"]),
        (&json!(false), &Value::Null, &Value::Null)
    );
    let (watching, _) = until(&mut spectator, |m| seek_count(m) == 1).await;
    assert_eq!(watching["seeks"][0]["yours"], false);

    let id = seek["id"].as_str().unwrap();
    let (status, accepted) = bob.call("POST", &format!("/api/seeks/{id}/accept"), None).await;
    assert_eq!(status, 201, "{accepted}");
    assert_eq!(
        (&accepted["you"], &accepted["mode"], &accepted["opponent"]),
        (&json!("second"), &json!("friend"), &json!("Ada"))
    );
    assert_eq!(accepted["secrets"].as_object().unwrap().len(), 1, "only Bob's own seat: {accepted}");
    let bob_secret = accepted["secrets"]["second"].as_str().unwrap().to_owned();
    let game = accepted["id"].as_str().unwrap().to_owned();
    assert_eq!(accepted["links"]["spectator"], format!("/g/{game}"));

    // Ada's seat comes over her socket, addressed to her alone.
    let (started, _) = until(&mut ada_socket, |m| m["type"] == "started").await;
    assert_eq!((&started["seek"], &started["game"]["id"]), (&json!(id), &json!(game)));
    assert_eq!((&started["game"]["you"], &started["game"]["opponent"]), (&json!("first"), &json!("Bob")));
    assert_eq!(started["game"]["secrets"].as_object().unwrap().len(), 1, "{started}");
    let ada_secret = started["game"]["secrets"]["first"].as_str().unwrap().to_owned();
    assert_ne!(ada_secret, bob_secret);
    let state = server.state(&game, Some(&ada_secret)).await;
    assert!(!state["clock"].is_null(), "the seek's clock runs: {state}");

    // Both play with their own secrets; neither can move for the other.
    let moves = |secret: String| {
        let server = &server;
        let game = game.clone();
        async move {
            let (status, moves) = server.get(&format!("/api/games/{game}/moves?seat={secret}")).await;
            assert_eq!(status, 200);
            moves["moves"][0].as_str().unwrap().to_owned()
        }
    };
    let opening = moves(ada_secret.clone()).await;
    assert_eq!(server.play(&game, &bob_secret, &opening).await.0, 409, "Bob cannot move for Ada");
    assert_eq!(server.play(&game, &ada_secret, &opening).await.0, 200);
    let reply = moves(bob_secret.clone()).await;
    assert_eq!(server.play(&game, &bob_secret, &reply).await.0, 200);

    // The spectator sees the game listed, its ply following the moves,
    // and no message to it ever carried a secret or a started game.
    let (listing, texts) = until(&mut spectator, |m| m["games"][0]["ply"] == 2).await;
    assert_eq!(seek_count(&listing), 0, "an accepted seek is gone");
    let entry = &listing["games"][0];
    assert_eq!(
        (&entry["id"], &entry["variant"], &entry["link"]),
        (&json!(game), &json!("lma"), &json!(format!("/g/{game}")))
    );
    assert_eq!(entry["seats"], json!([{ "side": "white", "name": "Ada" }, { "side": "black", "name": "Bob" }]));
    for text in &texts {
        assert!(!text.contains(&ada_secret) && !text.contains(&bob_secret), "a secret went to a spectator: {text}");
        assert!(!text.contains("started"), "{text}");
    }
    // Bob's HTTP view of the lobby does not carry Ada's seat either.
    let (_, seen) = bob.call("GET", "/api/seeks", None).await;
    assert!(!seen.to_string().contains(&ada_secret));

    // A finished game leaves the list.
    let (status, _) = server.post(&format!("/api/games/{game}/resign"), json!({ "seat": bob_secret })).await;
    assert_eq!(status, 200);
    until(&mut spectator, |m| m["games"].as_array().is_some_and(Vec::is_empty)).await;
}

#[tokio::test]
async fn random_colour_is_drawn_by_the_server_and_the_seats_differ() {
    let (_dir, server) = start().await;
    let mut ada = Browser::named(&server, "Ada").await;
    let mut bob = Browser::named(&server, "Bob").await;
    let mut socket = ada.socket().await;
    let seek = ada.seek(json!({ "variant": "lunch" })).await;
    assert_eq!(seek["colour"], "random");
    let (status, accepted) =
        bob.call("POST", &format!("/api/seeks/{}/accept", seek["id"].as_str().unwrap()), None).await;
    assert_eq!(status, 201, "{accepted}");
    let (started, _) = until(&mut socket, |m| m["type"] == "started").await;
    let (ada_side, bob_side) = (started["game"]["you"].as_str().unwrap(), accepted["you"].as_str().unwrap());
    assert_ne!(ada_side, bob_side);
    assert!(started["game"]["secrets"][bob_side].is_null() && accepted["secrets"][ada_side].is_null());
}

#[tokio::test]
async fn a_seek_outlives_a_reload_and_ends_when_its_creator_leaves() {
    let (_dir, server) = start().await;
    let mut ada = Browser::new(&server).await;
    let socket = ada.socket().await;
    ada.seek(json!({ "variant": "lma" })).await;
    // A reload: the socket closes and another opens within the grace.
    drop(socket);
    tokio::time::sleep(GRACE / 3).await;
    let mut socket = ada.socket().await;
    tokio::time::sleep(GRACE + Duration::from_millis(500)).await;
    assert_eq!(listed(&server).await.len(), 1, "a reload keeps the seek");
    let mut watcher = open(&server, None).await.unwrap();
    until(&mut watcher, |m| seek_count(m) == 1).await;
    // Leaving for good: gone once the grace is over, and the lobby says so.
    socket.close(None).await.unwrap();
    tokio::time::sleep(GRACE / 2).await;
    assert_eq!(listed(&server).await.len(), 1, "the seek waits for the grace");
    until(&mut watcher, |m| seek_count(m) == 0).await;
    assert!(listed(&server).await.is_empty());

    // A seek made without any lobby socket open lasts the grace only.
    ada.seek(json!({ "variant": "lma" })).await;
    until(&mut watcher, |m| seek_count(m) == 1).await;
    until(&mut watcher, |m| seek_count(m) == 0).await;
}

#[tokio::test]
async fn accepting_another_seek_withdraws_ones_own() {
    let (_dir, server) = start().await;
    let mut ada = Browser::named(&server, "Ada").await;
    let mut bob = Browser::named(&server, "Bob").await;
    let (_ada_socket, _bob_socket) = (ada.socket().await, bob.socket().await);
    ada.seek(json!({ "variant": "lma" })).await;
    ada.seek(json!({ "variant": "kelasu" })).await;
    let bobs = bob.seek(json!({ "variant": "lichen" })).await;
    assert_eq!(listed(&server).await.len(), 3);
    let (status, accepted) =
        ada.call("POST", &format!("/api/seeks/{}/accept", bobs["id"].as_str().unwrap()), None).await;
    assert_eq!(status, 201, "{accepted}");
    assert!(listed(&server).await.is_empty(), "Ada's own seeks went with Bob's");
}

#[tokio::test]
async fn names_seeks_cancels_and_accepts_are_checked() {
    let (_dir, server) = start().await;
    let mut ada = Browser::new(&server).await;
    let mut bob = Browser::new(&server).await;
    for (name, reason) in [
        ("   ", "a name needs at least one visible character"),
        ("a\u{1b}[31mred", "a name may not contain control characters"),
        (&"n".repeat(25), "a name has at most 24 characters"),
    ] {
        let (status, error) = ada.call("POST", "/api/me", Some(json!({ "name": name }))).await;
        assert_eq!((status, error["error"].as_str().unwrap()), (400, reason));
    }
    let (status, _) = ada.call("POST", "/api/me", Some(json!({ "nom": "Ada" }))).await;
    assert_eq!(status, 400);

    // A seek is checked as a new friend game: the server deals hidden cards.
    for (body, reason) in [
        (json!({ "variant": "nope" }), "unknown variant"),
        (json!({ "variant": "lunch", "seed": 7 }), "leave out seed and position"),
        (json!({ "variant": "lma", "clock": { "initial": 0 } }), "a clock needs some time"),
        (json!({ "variant": "lma", "colour": "purple" }), "unknown colour"),
        (json!({ "variant": "lma", "opponent": "computer" }), "unknown field"),
    ] {
        let (status, error) = ada.call("POST", "/api/seeks", Some(body.clone())).await;
        assert_eq!(status, 400, "{body}: {error}");
        assert!(error["error"].as_str().unwrap().contains(reason), "{body}: {error}");
    }
    assert!(listed(&server).await.is_empty());

    let seek = ada.seek(json!({ "variant": "lma", "colour": "black" })).await;
    assert_eq!(seek["colour"], "black");
    let id = seek["id"].as_str().unwrap();
    let (status, error) = ada.call("POST", &format!("/api/seeks/{id}/accept"), None).await;
    assert_eq!((status, error["error"].as_str().unwrap()), (409, "you cannot accept your own seek"));
    let (status, _) = bob.call("DELETE", &format!("/api/seeks/{id}"), None).await;
    assert_eq!(status, 403, "only the creator cancels");
    let (status, _) = server
        .client
        .delete(format!("{}/api/seeks/{id}", server.base))
        .json(&json!({}))
        .send()
        .await
        .map(|r| (r.status().as_u16(), ()))
        .unwrap();
    assert_eq!(status, 403, "a browser without identity cancels nothing");
    let (status, _) = ada.call("DELETE", "/api/seeks/nosuchseek", None).await;
    assert_eq!(status, 404);
    let (status, _) = bob.call("POST", "/api/seeks/nosuchseek/accept", None).await;
    assert_eq!(status, 404);
    let (status, _) = ada.call("DELETE", &format!("/api/seeks/{id}"), None).await;
    assert_eq!(status, 204);
    assert!(listed(&server).await.is_empty());
    let (status, _) = bob.call("POST", &format!("/api/seeks/{id}/accept"), None).await;
    assert_eq!(status, 404, "a cancelled seek cannot be accepted");
}

#[tokio::test]
async fn the_caps_hold() {
    let (_dir, server) = start().await;
    let mut ada = Browser::new(&server).await;
    let _socket = ada.socket().await;
    for _ in 0..SEEKS_PER_PLAYER {
        ada.seek(json!({ "variant": "lma" })).await;
    }
    let (status, error) = ada.call("POST", "/api/seeks", Some(json!({ "variant": "lma" }))).await;
    assert_eq!(status, 429, "{error}");
    assert!(error["error"].as_str().unwrap().contains("open seeks already"));

    // Sockets per player.
    let mut sockets = Vec::new();
    while sockets.len() + 1 < SOCKETS_PER_PLAYER {
        sockets.push(ada.socket().await);
    }
    match open(&server, Some(&ada.cookies.join("; "))).await {
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => assert_eq!(response.status().as_u16(), 429),
        other => panic!("a socket over the cap opened: {:?}", other.map(|_| ())),
    }
    // Anonymous watchers hold no player's place.
    assert!(open(&server, None).await.is_ok());

    // The whole lobby, filled by players on many machines (as many on each
    // as its address may have seeks).
    let mut seekers = Vec::new();
    let mut open_seeks = SEEKS_PER_PLAYER;
    let players_per_address = SEEKS_PER_ADDRESS / SEEKS_PER_PLAYER;
    while open_seeks < MAX_SEEKS {
        let mut seeker = Browser::from(&server, address(seekers.len() / players_per_address)).await;
        let socket = seeker.socket().await;
        for _ in 0..SEEKS_PER_PLAYER.min(MAX_SEEKS - open_seeks) {
            seeker.seek(json!({ "variant": "lma" })).await;
            open_seeks += 1;
        }
        seekers.push((seeker, socket));
    }
    assert_eq!(listed(&server).await.len(), MAX_SEEKS);
    let mut late = Browser::from(&server, "127.0.0.2").await;
    let (status, error) = late.call("POST", "/api/seeks", Some(json!({ "variant": "lma" }))).await;
    assert_eq!(status, 503, "{error}");
    assert!(error["error"].as_str().unwrap().contains("the lobby is full"));
}

#[tokio::test]
async fn one_address_makes_few_players_and_holds_few_seeks() {
    let (_dir, server) = start().await;
    // New players: a few a minute from one address (every request without
    // an identity cookie that would make one is refused beyond them) ...
    let mut players = Vec::new();
    for _ in 0..NEW_PLAYERS_PER_MINUTE {
        players.push(Browser::from(&server, "127.0.3.1").await);
    }
    let client = common::client_from("127.0.3.1");
    for (method, path) in [("GET", "/api/me"), ("POST", "/api/me"), ("POST", "/api/seeks")] {
        let body = if path == "/api/me" { json!({ "name": "Eve" }) } else { json!({ "variant": "lma" }) };
        let mut request = client.request(method.parse().unwrap(), format!("{}{path}", server.base));
        if method == "POST" {
            request = request.json(&body);
        }
        let response = request.send().await.unwrap();
        assert_eq!(response.status().as_u16(), 429, "{method} {path}");
        assert!(response.headers().get("set-cookie").is_none(), "{method} {path}");
        let error: Value = response.json().await.unwrap();
        assert!(error["error"].as_str().unwrap().contains("new players a minute from one address"), "{error}");
    }
    // ... while the players it has go on, and other addresses make theirs.
    let (status, _) = players[0].call("POST", "/api/me", Some(json!({ "name": "Ada" }))).await;
    assert_eq!(status, 200);
    Browser::from(&server, "127.0.3.2").await;

    // Seeks: a few from one address, whichever of its players opens them.
    let mut sockets = Vec::new();
    let mut open_seeks = 0;
    'seeking: for player in &mut players {
        sockets.push(player.socket().await);
        for _ in 0..SEEKS_PER_PLAYER {
            if open_seeks == SEEKS_PER_ADDRESS {
                break 'seeking;
            }
            player.seek(json!({ "variant": "lma" })).await;
            open_seeks += 1;
        }
    }
    // A player of the address with no seek of its own yet is refused too.
    let last = players.last_mut().unwrap();
    let (status, error) = last.call("POST", "/api/seeks", Some(json!({ "variant": "lma" }))).await;
    assert_eq!(status, 429, "{error}");
    assert!(error["error"].as_str().unwrap().contains("seeks are open from your address already"), "{error}");
    assert_eq!(listed(&server).await.len(), SEEKS_PER_ADDRESS);
    let mut elsewhere = Browser::from(&server, "127.0.3.3").await;
    let _socket = elsewhere.socket().await;
    elsewhere.seek(json!({ "variant": "lma" })).await;
    // A seek cancelled gives its address' place back.
    let mine = players[0].call("GET", "/api/seeks", None).await.1["seeks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["yours"] == json!(true))
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let (status, _) = players[0].call("DELETE", &format!("/api/seeks/{mine}"), None).await;
    assert_eq!(status, 204);
    players[0].seek(json!({ "variant": "lma" })).await;
}

/// Players who block each other are never paired from the lobby: neither
/// sees the other's seeks (the list and the socket), and accepting one is
/// 404 as for a seek that is gone; others see and accept them as before.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_kept_apart_by_a_block_are_never_paired() {
    let (_dir, server) = start().await;
    let mut ada = Browser::from(&server, "127.0.0.2").await;
    let mut bob = Browser::from(&server, "127.0.0.3").await;
    let mut cyd = Browser::from(&server, "127.0.0.4").await;
    for (browser, name) in [(&mut ada, "Ada"), (&mut bob, "Bob"), (&mut cyd, "Cyd")] {
        let (status, body) = browser
            .call("POST", "/api/register", Some(json!({ "username": name, "password": "a long password" })))
            .await;
        assert_eq!(status, 201, "{body}");
    }
    let _ada_socket = ada.socket().await;
    let _bob_socket = bob.socket().await;
    let ada_seek = ada.seek(json!({ "variant": "nim" })).await;
    let bob_seek = bob.seek(json!({ "variant": "nim" })).await;
    assert_eq!(bob.call("POST", "/api/rel/block/Ada", None).await.0, 200);
    let ids = |list: &Value| -> Vec<String> {
        list["seeks"].as_array().unwrap().iter().map(|s| s["id"].as_str().unwrap().to_owned()).collect()
    };
    let (_, for_ada) = ada.call("GET", "/api/seeks", None).await;
    assert_eq!(ids(&for_ada), [ada_seek["id"].as_str().unwrap()], "Ada does not see Bob's seek");
    let (_, for_bob) = bob.call("GET", "/api/seeks", None).await;
    assert_eq!(ids(&for_bob), [bob_seek["id"].as_str().unwrap()], "Bob does not see Ada's");
    let (_, for_cyd) = cyd.call("GET", "/api/seeks", None).await;
    assert_eq!(ids(&for_cyd).len(), 2, "Cyd sees both");
    // The lobby socket as it opens shows the same.
    let mut socket = ada.socket().await;
    let (lobby, _) = until(&mut socket, |m| m["type"] == "lobby").await;
    assert_eq!(ids(&lobby), [ada_seek["id"].as_str().unwrap()], "{lobby}");
    // Accepting across the block: as for a seek that is gone, both ways.
    for (browser, seek) in [(&mut ada, &bob_seek), (&mut bob, &ada_seek)] {
        let (status, body) =
            browser.call("POST", &format!("/api/seeks/{}/accept", seek["id"].as_str().unwrap()), None).await;
        assert_eq!(status, 404, "{body}");
    }
    assert_eq!(listed(&server).await.len(), 2, "both seeks are still open");
    let (status, started) =
        cyd.call("POST", &format!("/api/seeks/{}/accept", bob_seek["id"].as_str().unwrap()), None).await;
    assert_eq!(status, 201, "{started}");
    server.stop().await;
}
