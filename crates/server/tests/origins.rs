//! Requests from other origins (docs/api.md, "Requests from other origins"):
//! a page of another origin, which the browser sends with the player's
//! cookies, changes nothing and opens no socket. Every route of the server's
//! own table ([`menagerie_server::http::routes`]) is walked, so that a new
//! route cannot be left out: a change declared as anything but JSON gets 415,
//! a change or a WebSocket upgrade from another origin 403, and nothing
//! changes; the same requests from the server's own page go through.

mod common;

use common::TestServer;
use menagerie_server::http::{routes, AllowedOrigins, Origin, Route};
use menagerie_server::store::{SqliteStore, Store};
use menagerie_server::{HubConfig, RequestLimits};
use serde_json::{json, Value};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// A page of the same site on another origin: `SameSite=Lax` cookies go with its posts.
const FOREIGN: &str = "http://evil.localhost";

const FORM: &str = "application/x-www-form-urlencoded";

/// A refused request: what it is, its headers and body, and its status.
type Case<'a> = (&'a str, &'a [(&'a str, &'a str)], &'a str, u16);

/// The headers of a WebSocket upgrade.
const UPGRADE: [(&str, &str); 4] = [
    ("Connection", "Upgrade"),
    ("Upgrade", "websocket"),
    ("Sec-WebSocket-Version", "13"),
    ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="),
];

/// Sends one request as written (a browser's headers, whatever a client
/// library would add); the status and body of the answer (the head only
/// for an upgrade, whose connection stays open).
async fn send(address: &str, method: &str, path: &str, headers: &[(&str, &str)], body: &[u8]) -> (u16, String) {
    let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {address}\r\nContent-Length: {}\r\n", body.len());
    if !headers.iter().any(|(name, _)| name.eq_ignore_ascii_case("connection")) {
        head.push_str("Connection: close\r\n");
    }
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    let mut stream = TcpStream::connect(address).await.unwrap();
    stream.write_all(head.as_bytes()).await.unwrap();
    stream.write_all(body).await.unwrap();
    let mut answer = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(10), async {
        let mut buffer = [0u8; 8192];
        loop {
            match stream.read(&mut buffer).await {
                Ok(0) | Err(_) => break,
                Ok(n) => answer.extend_from_slice(&buffer[..n]),
            }
            if complete(&answer) {
                break;
            }
        }
    })
    .await;
    assert!(read.is_ok(), "no end of answer to {method} {path}");
    let text = String::from_utf8_lossy(&answer).into_owned();
    let status = text.get(9..12).and_then(|s| s.parse().ok()).unwrap_or_else(|| panic!("not an answer: {text:?}"));
    let body = text.split_once("\r\n\r\n").map(|(_, body)| body.to_owned()).unwrap_or_default();
    (status, body)
}

/// Whether `answer` holds a whole answer: its head and as much body as it
/// announces (an upgrade's or a refusal's connection may stay open).
fn complete(answer: &[u8]) -> bool {
    let Some(end) = answer.windows(4).position(|w| w == b"\r\n\r\n") else { return false };
    let head = String::from_utf8_lossy(&answer[..end]).to_ascii_lowercase();
    let length = head.lines().find_map(|line| line.strip_prefix("content-length:")).map(|n| n.trim().parse::<usize>());
    match length {
        Some(Ok(length)) => answer.len() >= end + 4 + length,
        _ => head.starts_with("http/1.1 101"),
    }
}

/// A browser: its identity cookie.
struct Browser {
    cookie: String,
}

impl Browser {
    async fn new(server: &TestServer, name: &str) -> Browser {
        let response = server.client.get(format!("{}/api/me", server.base)).send().await.unwrap();
        let cookie = response.headers()["set-cookie"].to_str().unwrap().split(';').next().unwrap().to_owned();
        let browser = Browser { cookie };
        let (status, body) = browser.call(server, "POST", "/api/me", json!({ "name": name })).await;
        assert_eq!(status, 200, "{body}");
        browser
    }

    /// Keeps a lobby socket of the own page open (and read) while the test
    /// lasts: a creator's seeks end once its last one closes.
    async fn stay_in_lobby(&self, server: &TestServer) {
        use futures_util::StreamExt;
        use tokio_tungstenite::tungstenite::client::IntoClientRequest;
        let mut request = format!("ws://{}/api/lobby/ws", server.address()).into_client_request().unwrap();
        request.headers_mut().insert("cookie", self.cookie.parse().unwrap());
        request.headers_mut().insert("origin", server.base.parse().unwrap());
        let (mut socket, _) = tokio_tungstenite::connect_async(request).await.expect("the lobby socket opens");
        tokio::spawn(async move { while socket.next().await.is_some() {} });
    }

    /// A request of the server's own page (JSON, its own origin).
    async fn call(&self, server: &TestServer, method: &str, path: &str, body: Value) -> (u16, Value) {
        let own = server.base.clone();
        let headers =
            [("Cookie", self.cookie.as_str()), ("Origin", own.as_str()), ("Content-Type", "application/json")];
        let (status, text) = send(server.address(), method, path, &headers, body.to_string().as_bytes()).await;
        (status, serde_json::from_str(&text).unwrap_or(Value::Null))
    }
}

/// Everything a request could change: the games stored, the victim's game,
/// the seeks (with their creators' names), whether the victim blocks Ada
/// and plays in her tournament.
#[derive(Debug, PartialEq)]
struct Everything {
    games: Vec<String>,
    game: String,
    seeks: Value,
    blocking: Value,
    joined: Value,
}

struct World {
    store: SqliteStore,
    victim: Browser,
    game: String,
    seat: String,
    own_seek: String,
    other_seek: String,
    legal_move: String,
    tournament: String,
}

/// Signs `browser` up as `username` (its own page): its cookies gain the
/// session's and the device's.
async fn sign_up(server: &TestServer, browser: &mut Browser, username: &str) {
    let response = server
        .client
        .post(format!("{}/api/register", server.base))
        .header("cookie", &browser.cookie)
        .json(&json!({ "username": username, "password": "an account's own password" }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 201);
    for set in response.headers().get_all("set-cookie") {
        let pair = set.to_str().unwrap().split(';').next().unwrap();
        browser.cookie = format!("{}; {pair}", browser.cookie);
    }
}

impl World {
    async fn new(server: &TestServer, db: &std::path::Path) -> World {
        let mut victim = Browser::new(server, "Vic").await;
        let mut ada = Browser::new(server, "Ada").await;
        sign_up(server, &mut victim, "Vic").await;
        sign_up(server, &mut ada, "Ada").await;
        let arena = json!({ "name": "Ada's", "variant": "nim", "clockTime": 1, "clockIncrement": 0, "minutes": 10,
                            "waitMinutes": 60 });
        let (status, created) = ada.call(server, "POST", "/api/tournament", arena).await;
        assert_eq!(status, 201, "{created}");
        let tournament = created["id"].as_str().unwrap().to_owned();
        victim.stay_in_lobby(server).await;
        ada.stay_in_lobby(server).await;
        let (status, created) =
            // The victim's account holds the first seat (the one watched).
            victim.call(server, "POST", "/api/games", json!({ "variant": "lma", "opponent": "friend", "colour": "first" })).await;
        assert_eq!(status, 201, "{created}");
        let game = created["id"].as_str().unwrap().to_owned();
        let seat = created["secrets"]["first"].as_str().unwrap().to_owned();
        let (status, moves) = server.get(&format!("/api/games/{game}/moves?seat={seat}")).await;
        assert_eq!(status, 200, "{moves}");
        let legal_move = moves["moves"][0].as_str().unwrap().to_owned();
        let seek = |browser: &Browser| {
            let browser = Browser { cookie: browser.cookie.clone() };
            async move {
                let (status, seek) = browser.call(server, "POST", "/api/seeks", json!({ "variant": "lma" })).await;
                assert_eq!(status, 201, "{seek}");
                seek["id"].as_str().unwrap().to_owned()
            }
        };
        let own_seek = seek(&victim).await;
        let other_seek = seek(&ada).await;
        World {
            store: SqliteStore::open(db).unwrap(),
            victim,
            game,
            seat,
            own_seek,
            other_seek,
            legal_move,
            tournament,
        }
    }

    async fn everything(&self, server: &TestServer) -> Everything {
        let cookie = [("Cookie", self.victim.cookie.as_str())];
        let address = server.address();
        let (_, game) = send(address, "GET", &format!("/api/games/{}?seat={}", self.game, self.seat), &[], b"").await;
        let (_, seeks) = send(address, "GET", "/api/seeks", &cookie, b"").await;
        let (_, ada) = send(address, "GET", "/api/user/Ada", &cookie, b"").await;
        let (_, tournament) = send(address, "GET", &format!("/api/tournament/{}", self.tournament), &cookie, b"").await;
        let read = |text: &str| serde_json::from_str::<Value>(text).unwrap();
        Everything {
            games: self.store.game_ids().unwrap(),
            game,
            seeks: read(&seeks),
            blocking: read(&ada)["blocking"].clone(),
            joined: read(&tournament)["me"]["joined"].clone(),
        }
    }

    /// `route`'s path with its parameters filled in with the victim's things.
    fn path(&self, route: &Route) -> String {
        let mut path = String::new();
        for part in route.path.split('/').skip(1) {
            path.push('/');
            let filled = match part {
                "{id}" if route.path.starts_with("/api/seeks/{id}/accept") => &self.other_seek,
                "{id}" if route.path.starts_with("/api/seeks/") => &self.own_seek,
                // (Its stream never ends: read as a stream elsewhere.)
                "{id}" if route.path.contains("tournament/") && !route.path.ends_with("/stream") => &self.tournament,
                "{id}" => &self.game,
                "{ply}" => "0",
                "{variant}" | "{which}" => "lma",
                "{step}" => "1",
                "{name}" => "api",
                "{username}" if route.path.starts_with("/api/rel/") => "Ada",
                "{username}" => "victim",
                "{nb}" => "10",
                "{move}" => &self.legal_move,
                "{accept}" => "yes",
                "{*path}" if route.path.starts_with("/assets/") => "app.js",
                "{*path}" => "lma",
                _ if part.starts_with('{') => panic!("{route:?}: give its parameter {part} a value here"),
                _ => part,
            };
            path.push_str(filled);
        }
        path
    }

    /// The body a page would send to change something on `route`: one
    /// that the server takes from its own page.
    fn body(&self, route: &Route) -> Value {
        let seat = &self.seat;
        match route.path.rsplit('/').next().unwrap() {
            "move" => json!({ "seat": seat, "move": self.legal_move }),
            "resign" | "rematch" => json!({ "seat": seat }),
            "draw" | "takeback" => json!({ "seat": seat, "action": "offer" }),
            "games" => json!({ "variant": "lma", "opponent": "friend" }),
            "me" => json!({ "name": "Mallory" }),
            "seeks" => json!({ "variant": "lma" }),
            "import" => json!({ "record": "[Variant \"lma\"]\n\n*" }),
            "register" | "login" => json!({ "username": "Vic", "password": "victim's password" }),
            "close" => json!({ "password": "victim's password" }),
            "position" => json!({ "variant": "lma" }),
            _ => json!({}),
        }
    }

    fn form(&self, route: &Route) -> String {
        let body = self.body(route);
        let fields = body.as_object().unwrap().iter();
        fields.map(|(k, v)| format!("{k}={}", v.as_str().unwrap_or_default())).collect::<Vec<_>>().join("&")
    }
}

fn changes(route: &Route) -> bool {
    !matches!(route.method.as_str(), "GET" | "HEAD" | "OPTIONS")
}

async fn start() -> (tempfile::TempDir, TestServer) {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("g.sqlite")).await;
    (dir, server)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_route_refuses_forms_and_other_origins_and_changes_nothing() {
    let (dir, server) = start().await;
    let world = World::new(&server, &dir.path().join("g.sqlite")).await;
    let initial = world.everything(&server).await;
    assert_eq!((&initial.blocking, &initial.joined), (&json!(false), &json!(false)), "the victim's account is read");
    let address = server.address();
    let own = server.base.as_str();
    let table = routes();
    assert!(table.iter().filter(|r| changes(r)).count() >= 10, "the table lists the routes that change things");
    let cookie = ("Cookie", world.victim.cookie.as_str());

    // Nothing a page of another origin sends, nor a form, changes anything.
    for route in &table {
        let (method, path) = (route.method.as_str(), world.path(route));
        let before = world.everything(&server).await;
        if changes(route) {
            let json = world.body(route).to_string();
            let form = world.form(route);
            let cases: [Case; 6] = [
                ("a form of another origin", &[cookie, ("Origin", FOREIGN), ("Content-Type", FORM)], &form, 403),
                (
                    "JSON from another origin",
                    &[cookie, ("Origin", FOREIGN), ("Content-Type", "application/json")],
                    &json,
                    403,
                ),
                ("a form, no Origin", &[cookie, ("Content-Type", FORM)], &form, 415),
                ("a form of the own origin", &[cookie, ("Origin", own), ("Content-Type", FORM)], &form, 415),
                ("JSON sent as text/plain", &[cookie, ("Origin", own), ("Content-Type", "text/plain")], &json, 415),
                ("no body, no type", &[cookie], "", 415),
            ];
            for (case, headers, body, expected) in cases {
                let (status, answer) = send(address, method, &path, headers, body.as_bytes()).await;
                assert_eq!(status, expected, "{method} {path}, {case}: {answer}");
                let error: Value = serde_json::from_str(&answer).unwrap_or(Value::Null);
                assert!(error["error"].is_string(), "{method} {path}, {case}: {answer}");
            }
        } else {
            // Reading is anyone's; a socket is opened from the own origin only.
            let plain = send(address, method, &path, &[cookie], b"").await.0;
            let foreign = send(address, method, &path, &[cookie, ("Origin", FOREIGN)], b"").await.0;
            assert_eq!(foreign, plain, "{method} {path}: a read from another origin");
            let mut upgrade = UPGRADE.to_vec();
            upgrade.extend([cookie, ("Origin", FOREIGN)]);
            let (status, answer) = send(address, method, &path, &upgrade, b"").await;
            assert_eq!(status, 403, "{method} {path}: an upgrade from another origin: {answer}");
            let mut headers = UPGRADE.to_vec();
            headers.extend([cookie, ("Origin", "null")]);
            assert_eq!(send(address, method, &path, &headers, b"").await.0, 403, "{method} {path}: Origin null");
        }
        assert_eq!(world.everything(&server).await, before, "{method} {path} changed something");
    }

    // The same changes from the server's own page go through (not refused
    // for their origin or type, whatever else the route says of them).
    for route in table.iter().filter(|r| changes(r)) {
        let path = world.path(route);
        let (status, answer) = world.victim.call(&server, route.method.as_str(), &path, world.body(route)).await;
        assert!(![403, 415].contains(&status), "{} {path} from the own page: {status} {answer}", route.method);
    }
    // The victim's page's own requests did what they say.
    let after = world.everything(&server).await;
    assert!(after.seeks["seeks"].as_array().unwrap().iter().all(|s| s["id"] != world.own_seek.as_str()));
    let game: Value = serde_json::from_str(&after.game).unwrap();
    assert_eq!(game["moves"][0]["text"], json!(world.legal_move), "{game}");
    server.stop().await;
}

#[tokio::test]
async fn a_form_on_another_origin_cannot_accept_a_seek() {
    let (_dir, server) = start().await;
    let ada = Browser::new(&server, "Ada").await;
    let bob = Browser::new(&server, "Bob").await;
    ada.stay_in_lobby(&server).await;
    let (_, seek) = ada.call(&server, "POST", "/api/seeks", json!({ "variant": "lma" })).await;
    let accept = format!("/api/seeks/{}/accept", seek["id"].as_str().unwrap());
    let cookie = ("Cookie", bob.cookie.as_str());
    // What `<form method=post action=.../accept>` on another origin sends with Bob's cookie.
    let (status, answer) =
        send(server.address(), "POST", &accept, &[cookie, ("Origin", FOREIGN), ("Content-Type", FORM)], b"").await;
    assert_eq!(status, 403, "{answer}");
    assert_eq!(
        serde_json::from_str::<Value>(&answer).unwrap(),
        json!({ "error": "a page of another origin may not change anything here" })
    );
    // A browser that leaves `Origin` out still sends the form's type.
    let (status, answer) = send(server.address(), "POST", &accept, &[cookie, ("Content-Type", FORM)], b"").await;
    assert_eq!(status, 415, "{answer}");
    let (status, seeks) = server.get("/api/seeks").await;
    assert_eq!((status, seeks["seeks"].as_array().unwrap().len()), (200, 1), "the seek is still open");
    // Bob's own page accepts it.
    let (status, started) = bob.call(&server, "POST", &accept, json!({})).await;
    assert_eq!(status, 201, "{started}");
    server.stop().await;
}

#[tokio::test]
async fn a_page_of_another_origin_opens_no_socket() {
    let (_dir, server) = start().await;
    let ada = Browser::new(&server, "Ada").await;
    let (_, created) = server.post("/api/games", json!({ "variant": "lma", "opponent": "friend" })).await;
    let (game, seat) = (created["id"].as_str().unwrap(), created["secrets"]["first"].as_str().unwrap());
    let own = server.base.clone();
    for path in ["/api/lobby/ws".to_owned(), format!("/api/games/{game}/ws?seat={seat}"), "/api/analysis/ws".to_owned()]
    {
        // The lobby socket would hand the seek's creator its seat secret.
        let url = format!("ws://{}{path}", server.address());
        let open = |origin: String| {
            let url = url.clone();
            let cookie = ada.cookie.clone();
            async move {
                use tokio_tungstenite::tungstenite::client::IntoClientRequest;
                let mut request = url.into_client_request().unwrap();
                request.headers_mut().insert("cookie", cookie.parse().unwrap());
                request.headers_mut().insert("origin", origin.parse().unwrap());
                tokio_tungstenite::connect_async(request).await.map(|(socket, _)| socket)
            }
        };
        match open(FOREIGN.to_owned()).await {
            Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
                assert_eq!(response.status().as_u16(), 403, "{path}");
            }
            other => panic!("{path}: a socket from another origin: {:?}", other.map(|_| "opened")),
        }
        open(own.clone()).await.unwrap_or_else(|e| panic!("{path} from the own page: {e}"));
    }
    server.stop().await;
}

#[tokio::test]
async fn an_origin_the_operator_lists_may_change_things() {
    let dir = tempfile::tempdir().unwrap();
    let store = SqliteStore::open(&dir.path().join("g.sqlite")).unwrap();
    let hub = menagerie_server::new_hub(
        std::sync::Arc::new(menagerie_loadtest::WithNim),
        std::sync::Arc::new(store),
        std::sync::Arc::new(menagerie_server::computer::RandomOnly),
        HubConfig::default(),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap().to_string();
    // Behind a proxy that passes its own Host on, the public address is another origin.
    let listed = AllowedOrigins::new(vec![Origin::parse("https://chess.example.org").unwrap()]);
    let task = menagerie_server::spawn_allowing(listener, hub, RequestLimits::default(), listed);
    let body = json!({ "variant": "lma", "opponent": "friend" }).to_string();
    let create = |origin: &'static str| {
        let (address, body) = (address.clone(), body.clone());
        async move {
            let headers = [("Origin", origin), ("Content-Type", "application/json")];
            send(&address, "POST", "/api/games", &headers, body.as_bytes()).await.0
        }
    };
    assert_eq!(create("https://chess.example.org").await, 201);
    assert_eq!(create("http://chess.example.org").await, 403, "another scheme is another origin");
    assert_eq!(create("https://evil.example.org").await, 403);
    task.abort();
}
