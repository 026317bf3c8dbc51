//! A fuzz test of the HTTP API against a live server: random and mutated
//! requests (methods, paths, query strings, headers, bodies: huge,
//! truncated, of the wrong type; real and random seat secrets) sent over raw
//! TCP, one at a time. After every request:
//! - the answer, if any, is not a 5xx (a request too broken to parse may be
//!   dropped without an answer);
//! - no panic happened anywhere in the process (a panic hook counts them);
//! - no game changed, unless the request was a legal move by the seat to
//!   act, which the server took (and then exactly that move was added);
//! - no change that is not declared JSON, and no change or WebSocket
//!   upgrade from another origin, was taken (docs/api.md, "Requests from
//!   other origins"): such requests go to every route of the router's own
//!   table ([`menagerie_server::http::routes`]), with form-encoded bodies
//!   (some carrying a real seat secret) and foreign `Origin` headers;
//!   some carry a real session cookie, others a real API token of every
//!   scope (which may send forms from anywhere, as lichess's clients do).
//!   Before the random requests, every route of the table is sent each
//!   kind once: the session's JSON, a token's form from another origin, a
//!   session's form from another origin.
//!
//! `cargo test` sends [`CI_REQUESTS`]; `MENAGERIE_FUZZ_REQUESTS=200000`
//! sends more, `MENAGERIE_FUZZ_SEED=N` repeats a run (the seed is printed).

use menagerie_core::Player;
use menagerie_loadtest::WithNim;
use menagerie_server::catalog::Catalog;
use menagerie_server::computer::RandomOnly;
use menagerie_server::http::{routes, Route};
use menagerie_server::store::SqliteStore;
use menagerie_server::{Hub, HubConfig, RequestLimits};
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

const CI_REQUESTS: usize = 2_000;

static PANICS: AtomicUsize = AtomicUsize::new(0);
static FIRST_PANIC: Mutex<Option<String>> = Mutex::new(None);

const SMALL_DECK: &str =
    "[[card]]\nname = \"Jab\"\ncode = \"jab\"\nkind = \"attack\"\ncount = 12\ndamage = 1\nnumbers = \"confirmed\"\n";

/// A game the fuzzer watches.
struct Watched {
    id: String,
    secrets: [String; 2],
}

/// A move the server may take: the seat to act and one of its legal moves.
struct Legal {
    seat: String,
    moves: Vec<String>,
}

struct Fuzzer {
    rng: StdRng,
    games: Vec<Watched>,
    positions: Vec<String>,
    variants: Vec<String>,
    /// Every route the server has.
    routes: Vec<Route>,
    /// A real session (of the account `fuzzer`) and API token of every scope.
    session: String,
    token: String,
    /// A private tournament of `fuzzer`'s.
    tournament: String,
}

/// How a request is authenticated.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Credential {
    Nothing,
    Session,
    Token,
}

/// The `Host` every request names, and so the server's own origin.
const OWN_ORIGINS: &[&str] = &["http://fuzz", "https://fuzz", "http://FUZZ:80"];
const FOREIGN_ORIGINS: &[&str] =
    &["http://evil.example", "null", "http://fuzz:81", "https://fuzz.evil", "http://fuzz.", "fuzz", "http://f%75zz"];
const FORM: &str = "application/x-www-form-urlencoded";

/// What one request was, for the oracle.
struct Sent {
    bytes: Vec<u8>,
    /// The watched game a `POST .../move` addressed, with the body sent.
    move_to: Option<(usize, Vec<u8>)>,
    /// Whether the request ends before what its head announces.
    truncated: bool,
    /// Whether the server must refuse it whatever else it says: a change
    /// not declared JSON, or a change or WebSocket upgrade from another
    /// origin.
    refusable: bool,
}

impl Fuzzer {
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        items.choose(&mut self.rng).expect("not empty")
    }

    fn chance(&mut self, p: f64) -> bool {
        self.rng.random_bool(p)
    }

    fn junk(&mut self, max: usize) -> String {
        const PIECES: &[&str] = &[
            "a", "Z", "0", "9", "-", "_", ".", "..", "/", "%", "%2F", "%00", "%ZZ", "?", "&", "=", "#", " ", "+", "é",
            "\u{202e}", "\u{0}", "\"", "'", "<", ">", "\\", ":", ",", "{", "}", "[", "]", "null", "lunch", "deck=",
        ];
        let length = self.rng.random_range(0..=max);
        (0..length).map(|_| *self.pick(PIECES)).collect()
    }

    fn secret(&mut self, game: Option<usize>, real_allowed: bool) -> String {
        match self.rng.random_range(0..10) {
            0..=3 if real_allowed && game.is_some() => {
                let side = self.rng.random_range(0..2);
                self.games[game.unwrap()].secrets[side].clone()
            }
            0..=5 => {
                const ALPHABET: &[u8] = b"abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
                (0..22).map(|_| *self.pick(ALPHABET) as char).collect()
            }
            6 => String::new(),
            7 => "x".repeat(self.rng.random_range(100..6000)),
            _ => self.junk(30),
        }
    }

    fn game_id(&mut self) -> (String, Option<usize>) {
        match self.rng.random_range(0..10) {
            0..=6 => {
                let index = self.rng.random_range(0..self.games.len());
                (self.games[index].id.clone(), Some(index))
            }
            7 => ("abcdefghij".into(), None),
            8 => ("y".repeat(self.rng.random_range(11..3000)), None),
            _ => (self.junk(20), None),
        }
    }

    fn number(&mut self) -> Value {
        match self.rng.random_range(0..8) {
            0 => json!(-1),
            1 => json!(u64::MAX),
            2 => json!(1.5),
            3 => json!("7"),
            4 => json!(null),
            _ => json!(self.rng.random_range(0..400)),
        }
    }

    fn text_or_junk<'a>(&mut self, choices: &'a [&'a str]) -> Value {
        match self.rng.random_range(0..10) {
            0 => json!(self.junk(40)),
            1 => json!(7),
            2 => json!(null),
            3 => json!(["a"]),
            _ => json!(*self.pick(choices)),
        }
    }

    fn create_body(&mut self) -> Value {
        let mut body = serde_json::Map::new();
        if self.chance(0.95) {
            let variant = match self.rng.random_range(0..10) {
                0 => self.junk(50),
                1 => format!("lunch:deck={}", self.junk(40)),
                2 => "lunch:deck=/etc/passwd".to_owned(),
                3 => "x".repeat(self.rng.random_range(150..400)),
                _ => self.pick(&self.variants.clone()).clone(),
            };
            body.insert("variant".into(), json!(variant));
        }
        if self.chance(0.3) {
            let position = match self.rng.random_range(0..6) {
                0 => self.junk(80),
                1 => "startpos".to_owned(),
                2 => "x ".repeat(self.rng.random_range(100..8000)),
                _ => {
                    let base = self.pick(&self.positions.clone()).clone();
                    mutate_text(&mut self.rng, &base)
                }
            };
            body.insert("position".into(), json!(position));
        }
        if self.chance(0.7) {
            let opponent = self.text_or_junk(&["computer", "friend", "local", "same-device", "robot"]);
            body.insert("opponent".into(), opponent);
        }
        if self.chance(0.2) {
            let clock = self
                .pick(&[
                    json!({ "initial": 0.2, "increment": 0 }),
                    json!({ "initial": 60, "increment": 1 }),
                    json!({ "days": 3 }),
                    json!({ "initial": -1 }),
                    json!({ "initial": 1e300 }),
                    json!({ "days": 0 }),
                    json!({ "initial": "five" }),
                    json!({}),
                    json!([1, 2]),
                ])
                .clone();
            body.insert("clock".into(), clock);
        }
        if self.chance(0.3) {
            let level = self.text_or_junk(&["random", "easy", "grandmaster", ""]);
            body.insert("level".into(), level);
        }
        if self.chance(0.4) {
            let colour = self.text_or_junk(&["first", "second", "white", "black", "blue", "random", "purple"]);
            body.insert("colour".into(), colour);
        }
        if self.chance(0.3) {
            let seed = self.number();
            body.insert("seed".into(), seed);
        }
        if self.chance(0.1) {
            let rated = self.pick(&[json!(true), json!(false), json!("yes"), json!(null), json!(1)]).clone();
            body.insert("rated".into(), rated);
        }
        if self.chance(0.05) {
            body.insert(self.junk(8), json!(true));
        }
        Value::Object(body)
    }

    /// The body of a move: often a legal move by the seat to act.
    fn move_body(&mut self, game: Option<usize>, legal: Option<&Legal>) -> Value {
        let mut body = serde_json::Map::new();
        match legal {
            Some(legal) if self.chance(0.5) => {
                body.insert("seat".into(), json!(legal.seat));
                let text = legal.moves.choose(&mut self.rng).cloned().unwrap_or_default();
                let text = if self.chance(0.8) { text } else { mutate_text(&mut self.rng, &text) };
                body.insert("move".into(), json!(text));
            }
            _ => {
                if self.chance(0.9) {
                    let seat = self.secret(game, true);
                    body.insert("seat".into(), json!(seat));
                }
                if self.chance(0.9) {
                    let text = match legal.and_then(|l| l.moves.choose(&mut self.rng).cloned()) {
                        Some(text) if self.chance(0.5) => text,
                        _ => self.junk(20),
                    };
                    body.insert("move".into(), json!(text));
                }
            }
        }
        if self.chance(0.15) {
            let ply = self.number();
            body.insert("ply".into(), ply);
        }
        if self.chance(0.03) {
            body.insert("move".into(), json!("1".repeat(self.rng.random_range(900..20_000))));
        }
        Value::Object(body)
    }

    fn request(&mut self, legal: &dyn Fn(usize) -> Option<Legal>) -> Sent {
        if self.chance(0.02) {
            let length = self.rng.random_range(0..400);
            let bytes = (0..length).map(|_| self.rng.random()).collect();
            return Sent { bytes, move_to: None, truncated: false, refusable: false };
        }
        let (id, game) = self.game_id();
        let route = self.rng.random_range(0..110);
        let from_table = self.chance(0.15);
        let (method, mut path, body): (&str, String, Option<Value>) = match route {
            _ if from_table => {
                let route = self.pick(&self.routes.clone()).clone();
                let method = ["GET", "POST", "DELETE", "PUT", "PATCH"]
                    .into_iter()
                    .find(|m| *m == route.method.as_str())
                    .expect("a method the fuzzer knows");
                (method, self.fill(route.path, &id), Some(self.small_body()))
            }
            0..=4 => ("GET", "/".into(), None),
            5..=6 => ("GET", format!("/g/{id}"), None),
            7..=9 => (
                "GET",
                format!("/assets/{}", self.pick(&["app.js", "style.css", "../Cargo.toml", "games/lunch.js"])),
                None,
            ),
            10..=11 => (
                "GET",
                format!("/rules/{}", self.pick(&["lunch", "lma-double", "nim", "x-y-z", &"a-".repeat(5000)])),
                None,
            ),
            12..=13 => ("GET", format!("/docs/{}", self.pick(&["api", "api.md", "../README", "lunch.md"])), None),
            14..=17 => ("GET", "/api/variants".into(), None),
            18..=34 => ("POST", "/api/games".into(), Some(self.create_body())),
            35..=44 => ("GET", format!("/api/games/{id}"), None),
            45..=52 => ("GET", format!("/api/games/{id}/moves"), None),
            53..=57 => {
                let ply = self.pick(&["0", "1", "3", "-1", "99999999999999999999999", "x", "1e3", ""]).to_string();
                ("GET", format!("/api/games/{id}/position/{ply}"), None)
            }
            58..=85 => {
                let legal = game.and_then(legal);
                ("POST", format!("/api/games/{id}/move"), Some(self.move_body(game, legal.as_ref())))
            }
            86..=89 => {
                let seat = self.secret(game, false);
                ("POST", format!("/api/games/{id}/resign"), Some(json!({ "seat": seat })))
            }
            90..=91 => {
                let seat = self.secret(game, false);
                let action = self.text_or_junk(&["offer", "accept", "decline", "withdraw", "dance"]);
                ("POST", format!("/api/games/{id}/draw"), Some(json!({ "seat": seat, "action": action })))
            }
            92..=93 => {
                let seat = self.secret(game, false);
                let action = self.text_or_junk(&["offer", "accept", "decline", "withdraw", "dance"]);
                ("POST", format!("/api/games/{id}/takeback"), Some(json!({ "seat": seat, "action": action })))
            }
            94..=95 => {
                let seat = self.secret(game, false);
                ("POST", format!("/api/games/{id}/rematch"), Some(json!({ "seat": seat })))
            }
            96..=97 => ("GET", format!("/api/games/{id}/ws"), None),
            // Players and ratings, with names, numbers and variants real or junk.
            98..=107 => {
                let pattern = self
                    .pick(&[
                        "/api/user/{username}",
                        "/api/user/{username}/rating-history",
                        "/api/games/user/{username}",
                        "/api/player/top/{nb}/{variant}",
                    ])
                    .to_string();
                let mut path = self.fill(&pattern, &id);
                if self.chance(0.5) {
                    let query = self.pick(&[
                        "?max=1",
                        "?max=-3",
                        "?rated=true",
                        "?rated=maybe",
                        "?variant=nim",
                        "?variant=zzz",
                        "?result=win",
                        "?result=draw&rated=false&max=99999999999999999999999",
                        "?result=x",
                    ]);
                    path.push_str(query);
                }
                ("GET", path, None)
            }
            _ => ("GET", format!("/{}", self.junk(60)), None),
        };
        let method = if self.chance(0.05) {
            self.pick(&["PUT", "DELETE", "PATCH", "HEAD", "OPTIONS", "get", "FROB", "POST", "GET"]).to_string()
        } else {
            method.to_owned()
        };
        let changes = !matches!(method.as_str(), "GET" | "HEAD" | "OPTIONS");
        if self.chance(0.45) {
            // Seats in queries may be real: reading is allowed to anyone.
            let seat = self.secret(game, true);
            path.push_str(&format!("?seat={seat}"));
            if self.chance(0.2) {
                path.push_str(&format!("&{}={}", self.junk(6), self.junk(6)));
            }
        } else if self.chance(0.05) {
            path.push_str(&format!("?{}", self.junk(40)));
        }
        if self.chance(0.03) {
            path = mutate_text(&mut self.rng, &path);
        }
        let mut body = body.map(|v| serde_json::to_vec(&v).unwrap()).unwrap_or_default();
        // A form, as a page of another site posts one (with a real seat, sometimes).
        let form = changes && self.chance(0.1);
        if form {
            let seat = self.secret(game, true);
            let text = self.junk(10);
            body = format!("seat={seat}&move={text}&action=offer&name={text}").into_bytes();
        }
        if !body.is_empty() && self.chance(0.15) {
            body = mutate_bytes(&mut self.rng, &body);
        }
        if self.chance(0.02) {
            body = vec![b'['; self.rng.random_range(100..5000)];
        }
        if self.chance(0.02) {
            body = vec![b' '; self.rng.random_range(16_000..100_000)];
        }
        let move_route = !from_table
            && (58..=85).contains(&route)
            && method == "POST"
            && path.starts_with(&format!("/api/games/{id}/move"));
        let move_to = game.filter(|_| move_route).map(|g| (g, body.clone()));

        let mut head = format!("{method} {path} HTTP/1.1\r\nHost: fuzz\r\n");
        let credential = match self.rng.random_range(0..10) {
            0..=5 => Credential::Nothing,
            6..=7 => Credential::Session,
            _ => Credential::Token,
        };
        head.push_str(&self.credential_header(credential));
        let foreign = match self.rng.random_range(0..10) {
            0..=5 => false,
            6..=7 => {
                head.push_str(&format!("Origin: {}\r\n", self.pick(OWN_ORIGINS)));
                false
            }
            _ => {
                head.push_str(&format!("Origin: {}\r\n", self.pick(FOREIGN_ORIGINS)));
                true
            }
        };
        let mut json = false;
        if form {
            head.push_str(&format!("Content-Type: {FORM}\r\n"));
        } else if !body.is_empty() || self.chance(0.1) {
            let content_type = if self.chance(0.85) {
                "application/json"
            } else {
                self.pick(&[
                    "text/plain",
                    "application/json; charset=utf-8",
                    FORM,
                    "multipart/form-data; boundary=x",
                    "",
                    "json",
                ])
            };
            json = content_type.starts_with("application/json");
            head.push_str(&format!("Content-Type: {content_type}\r\n"));
        }
        let mut truncated = false;
        let chunked = self.chance(0.05);
        if chunked {
            head.push_str("Transfer-Encoding: chunked\r\n");
        } else {
            let length = match self.rng.random_range(0..40) {
                0 => {
                    truncated = true;
                    body.len() + self.rng.random_range(1..1000)
                }
                1 => body.len().saturating_sub(1),
                2 => 1 << 40,
                _ => body.len(),
            };
            if self.chance(0.02) {
                head.push_str(&format!("Content-Length: {}\r\n", self.junk(5)));
            } else {
                head.push_str(&format!("Content-Length: {length}\r\n"));
            }
        }
        let socket = if from_table { path.contains("/ws") } else { (96..=97).contains(&route) };
        let upgrade = socket && self.chance(0.7);
        if upgrade {
            head.push_str("Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n");
        } else if self.chance(0.7) {
            head.push_str("Connection: close\r\n");
        }
        if self.chance(0.05) {
            head.push_str(&format!(
                "X-{}: {}\r\n",
                self.rng.random_range(0..1000),
                "v".repeat(self.rng.random_range(0..9000))
            ));
        }
        head.push_str("\r\n");
        let mut bytes = head.into_bytes();
        if chunked {
            for chunk in body.chunks(self.rng.random_range(1..4096)) {
                bytes.extend_from_slice(format!("{:x}\r\n", chunk.len()).as_bytes());
                bytes.extend_from_slice(chunk);
                bytes.extend_from_slice(b"\r\n");
            }
            if self.chance(0.8) {
                bytes.extend_from_slice(b"0\r\n\r\n");
            } else {
                truncated = true;
            }
        } else {
            bytes.extend_from_slice(&body);
        }
        if self.chance(0.02) {
            let cut = self.rng.random_range(0..bytes.len());
            bytes.truncate(cut);
            truncated = true;
        }
        // A token's request may come from anywhere with any body (it is no
        // ambient credential); a browser's may not.
        let refusable = credential != Credential::Token && ((changes && (foreign || !json)) || (upgrade && foreign));
        Sent { bytes, move_to, truncated, refusable }
    }

    /// The header lines of a credential (a session, or a token, sometimes
    /// with a session's cookie besides, which the server ignores).
    fn credential_header(&mut self, credential: Credential) -> String {
        match credential {
            Credential::Nothing => String::new(),
            Credential::Session => format!("Cookie: menagerie_session={}\r\n", self.session),
            Credential::Token if self.chance(0.3) => {
                format!("Authorization: Bearer {}\r\nCookie: menagerie_session={}\r\n", self.token, self.session)
            }
            Credential::Token => format!("Authorization: Bearer {}\r\n", self.token),
        }
    }

    /// Every route of the table sent each kind of request once: the
    /// session's JSON from its own origin, a token's form from another
    /// origin, and a session's form from another origin (refused).
    fn sweep(&mut self) -> Vec<Sent> {
        let mut sent = Vec::new();
        // The routes that end the session or the token, last.
        let mut routes = self.routes.clone();
        routes.sort_by_key(|r| ["/api/logout", "/api/token", "/api/account/close"].contains(&r.path));
        for route in routes {
            let path = self.fill(route.path, "nosuchgame");
            let changes = !matches!(route.method.as_str(), "GET" | "HEAD" | "OPTIONS");
            for (credential, foreign, form) in [
                (Credential::Session, false, false),
                (Credential::Token, true, true),
                (Credential::Session, true, true),
            ] {
                let (content_type, body) = if form {
                    (FORM, format!("password=x&reason=later&variant=nim&seat={}", self.junk(22)))
                } else {
                    ("application/json", "{}".to_owned())
                };
                let origin = if foreign { "http://evil.example" } else { "http://fuzz" };
                let mut head = format!(
                    "{} {path} HTTP/1.1\r\nHost: fuzz\r\nConnection: close\r\nOrigin: {origin}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n",
                    route.method,
                    body.len()
                );
                head.push_str(&self.credential_header(credential));
                head.push_str("\r\n");
                let mut bytes = head.into_bytes();
                bytes.extend_from_slice(body.as_bytes());
                let refusable = credential != Credential::Token && foreign && changes;
                sent.push(Sent { bytes, move_to: None, truncated: false, refusable });
            }
        }
        sent
    }

    /// A route's path with its parameters filled in (a game's, or junk).
    fn fill(&mut self, pattern: &str, id: &str) -> String {
        let parts: Vec<String> = pattern
            .split('/')
            .map(|part| match part {
                "{id}" if pattern.contains("tournament/") && self.chance(0.7) => self.tournament.clone(),
                "{id}" => id.to_owned(),
                "{ply}" => self.rng.random_range(0..5).to_string(),
                "{username}" => self.pick(&["fuzzer", "FUZZER", "fuzzee", "nobody", "a", "%00", ""]).to_string(),
                "{nb}" => self.pick(&["10", "0", "200", "201", "-1", "x", "99999999999999999999999"]).to_string(),
                "{variant}" => self.pick(&["nim", "lma", "lunch:princess", "nope", "fluid-single-promo"]).to_string(),
                _ if part.starts_with('{') => self.junk(12),
                _ => part.to_owned(),
            })
            .collect();
        parts.join("/")
    }

    /// A body for any route: nothing any route takes as it is.
    fn small_body(&mut self) -> Value {
        match self.rng.random_range(0..5) {
            0 => json!({}),
            1 => json!({ "seat": self.junk(22), "name": self.junk(10), "action": "offer" }),
            // The account routes' bodies (register, login, close), often
            // well formed so that they go past the checks.
            2 | 3 => {
                let username =
                    if self.chance(0.5) { format!("fuzz{}", self.rng.random_range(0..20)) } else { self.junk(21) };
                let password = if self.chance(0.5) { "fuzzing password".to_owned() } else { self.junk(9) };
                match self.rng.random_range(0..3) {
                    0 => json!({ "username": username, "password": password }),
                    1 => json!({ "password": password }),
                    _ => json!({ "everywhere": self.chance(0.5) }),
                }
            }
            _ => json!([self.junk(10)]),
        }
    }
}

fn mutate_bytes(rng: &mut StdRng, bytes: &[u8]) -> Vec<u8> {
    let mut out = bytes.to_vec();
    for _ in 0..rng.random_range(1..4) {
        if out.is_empty() {
            out.push(rng.random());
            continue;
        }
        let at = rng.random_range(0..out.len());
        match rng.random_range(0..5) {
            0 => out[at] = rng.random(),
            1 => {
                out.remove(at);
            }
            2 => out.insert(at, *[b'"', b'{', b'}', b',', b':', b'\\', 0xff, b'0'].choose(rng).unwrap()),
            3 => out.truncate(at),
            _ => {
                let end = rng.random_range(at..out.len());
                let slice = out[at..end].to_vec();
                out.splice(at..at, slice);
            }
        }
    }
    out
}

fn mutate_text(rng: &mut StdRng, text: &str) -> String {
    String::from_utf8_lossy(&mutate_bytes(rng, text.as_bytes())).into_owned()
}

/// Sends `sent` on a new connection; the server's status, `None` if it
/// answered nothing.
async fn send(address: &str, sent: &Sent) -> Option<u16> {
    let mut stream = TcpStream::connect(address).await.expect("the server accepts");
    let _ = stream.write_all(&sent.bytes).await;
    // Nothing more comes from this client: the server sees the end at once.
    let _ = stream.shutdown().await;
    let mut answer = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(30), async {
        let mut buffer = [0u8; 8192];
        loop {
            match stream.read(&mut buffer).await {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    answer.extend_from_slice(&buffer[..n]);
                    // A socket stays open while its page would, and a
                    // stream (NDJSON) while its client reads: the head is enough.
                    if answer.starts_with(b"HTTP/1.1 101") || is_stream_head(&answer) {
                        break;
                    }
                }
            }
        }
    })
    .await;
    assert!(
        read.is_ok(),
        "no end of answer to {:?}",
        String::from_utf8_lossy(&sent.bytes[..sent.bytes.len().min(300)])
    );
    let text = String::from_utf8_lossy(&answer);
    let status = text.strip_prefix("HTTP/1.1 ")?.get(..3)?.parse().ok();
    assert!(status.is_some(), "not an HTTP answer: {text:?}");
    status
}

/// Whether `answer` holds the whole head of a streamed answer (NDJSON).
fn is_stream_head(answer: &[u8]) -> bool {
    let Some(end) = answer.windows(4).position(|w| w == b"\r\n\r\n") else { return false };
    String::from_utf8_lossy(&answer[..end]).to_ascii_lowercase().contains("content-type: application/x-ndjson")
}

/// A game as its first seat sees it: the state's text (its version moves
/// only with a change) and its value.
struct Snapshot {
    text: axum::body::Bytes,
    state: Value,
}

/// The state as the first seat sees it, less whether each seat has joined:
/// a seat's first read or socket makes it joined (presence, which any read
/// with its secret may note), while the game itself changes only by a move.
async fn snapshot(hub: &Hub, game: &Watched) -> Snapshot {
    let text = hub.state(&game.id, Some(&game.secrets[0])).await.unwrap().0;
    let mut state: Value = serde_json::from_slice(&text).unwrap();
    for seat in ["first", "second"] {
        if let Some(seat) = state["seats"][seat].as_object_mut() {
            seat.remove("joined");
        }
    }
    Snapshot { text: serde_json::to_vec(&state).unwrap().into(), state }
}

/// What the seat to act may play in `game`, as `state` shows it.
async fn legal_moves(hub: &Hub, game: &Watched, state: &Value) -> Option<Legal> {
    let side = match state["to_act"].as_str() {
        Some("first") => Player::First,
        Some("second") => Player::Second,
        _ => return None,
    };
    let seat = game.secrets[side.index()].clone();
    let moves = hub
        .legal_moves(&game.id, Some(&seat))
        .await
        .unwrap_or_else(|e| panic!("the seat to act cannot list its moves: {e}"));
    let moves = moves["moves"].as_array().unwrap().iter().map(|m| m.as_str().unwrap().to_owned()).collect();
    Some(Legal { seat, moves })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn random_and_mutated_requests_break_nothing() {
    let requests = std::env::var("MENAGERIE_FUZZ_REQUESTS").ok().and_then(|n| n.parse().ok()).unwrap_or(CI_REQUESTS);
    let seed =
        std::env::var("MENAGERIE_FUZZ_SEED").ok().and_then(|n| n.parse().ok()).unwrap_or_else(rand::random::<u64>);
    println!("fuzz: {requests} requests, MENAGERIE_FUZZ_SEED={seed}");
    let report = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        PANICS.fetch_add(1, Ordering::SeqCst);
        FIRST_PANIC.lock().unwrap_or_else(|p| p.into_inner()).get_or_insert_with(|| info.to_string());
        report(info);
    }));

    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("decks")).unwrap();
    std::fs::write(dir.path().join("decks/small.toml"), SMALL_DECK).unwrap();
    let catalog = Catalog::with_decks(&dir.path().join("decks")).unwrap();
    let store = SqliteStore::open(&dir.path().join("g.sqlite")).unwrap();
    let config = HubConfig { max_searches: 1, catalog, ..HubConfig::default() };
    let hub = menagerie_server::new_hub(Arc::new(WithNim), Arc::new(store), Arc::new(RandomOnly), config);
    let limits = RequestLimits { request_time: Duration::from_secs(2), ..RequestLimits::default() };
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap().to_string();
    let server = menagerie_server::spawn_with(listener, Arc::clone(&hub), limits);

    let variants: Vec<String> = [
        "nim:stones=40",
        "lma",
        "lma-double",
        "fluid",
        "lichen",
        "lichen-3x3",
        "kelasu",
        "lunch",
        "lunch:deck=small",
        "lunch:princess",
    ]
    .map(str::to_owned)
    .to_vec();
    let mut positions: Vec<String> = variants
        .iter()
        .filter_map(|v| menagerie_games::new_game(v, None, 5, &menagerie_games::BuiltinData).ok())
        .map(|g| g.to_text())
        .collect();
    let lunch = <menagerie_games::lunch::Lunch as menagerie_core::Game>::parse_variant(
        &menagerie_core::VariantSpec::parse("lunch").unwrap(),
    )
    .unwrap();
    positions.extend(
        <menagerie_games::lunch::Lunch as menagerie_core::Game>::bench_positions(&lunch).into_iter().map(str::to_owned),
    );
    let mut games = Vec::new();
    for variant in &variants {
        for opponent in ["friend", "local"] {
            let request = menagerie_server::command::NewGame {
                variant: variant.clone(),
                position: None,
                opponent: Some(opponent.into()),
                level: None,
                colour: Some("first".into()),
                seed: None,
                clock: None,
            };
            let created = hub.create(request).await.unwrap_or_else(|e| panic!("{variant}: {e}"));
            let secret = |side: &str| created["secrets"][side].as_str().unwrap().to_owned();
            games.push(Watched {
                id: created["id"].as_str().unwrap().to_owned(),
                secrets: [secret("first"), secret("second")],
            });
        }
    }
    // A player, so that the players' routes find one.
    let fuzzer_account = menagerie_server::store::accounts::Account {
        id: "fuzzer-account".into(),
        username: "fuzzer".into(),
        created: 1,
        closed: None,
    };
    hub.store()
        .transact(move |sql| menagerie_server::store::accounts::create_account(sql, &fuzzer_account, "x"))
        .await
        .unwrap();
    let (session, token, tournament) = credentials(&hub).await;
    let mut fuzzer = Fuzzer {
        rng: StdRng::seed_from_u64(seed),
        games,
        positions,
        variants,
        routes: routes(),
        session,
        token,
        tournament,
    };

    let (mut snapshots, mut legal_now) = (Vec::new(), Vec::new());
    for game in &fuzzer.games {
        let snapshot = snapshot(&hub, game).await;
        legal_now.push(legal_moves(&hub, game, &snapshot.state).await);
        snapshots.push(snapshot);
    }
    let (mut answered, mut moves_taken, mut truncated, mut refused) = (0usize, 0usize, 0usize, 0usize);
    let mut by_status = std::collections::BTreeMap::new();
    // Every route, each kind of request once: no 5xx, no panic, no
    // browser's form from another origin taken, no game changed.
    for (n, sent) in fuzzer.sweep().into_iter().enumerate() {
        let request = String::from_utf8_lossy(&sent.bytes[..sent.bytes.len().min(300)]).into_owned();
        let status = send(&address, &sent).await.unwrap_or_else(|| panic!("sweep {n}: no answer to {request:?}"));
        assert!(status < 500, "sweep {n}: {status} for {request:?}");
        if sent.refusable {
            assert!(!(200..300).contains(&status), "sweep {n}: {status} for {request:?}");
        }
        assert_eq!(PANICS.load(Ordering::SeqCst), 0, "sweep {n}: {:?}", FIRST_PANIC.lock().unwrap());
    }
    for (index, game) in fuzzer.games.iter().enumerate() {
        assert_eq!(snapshot(&hub, game).await.text, snapshots[index].text, "the sweep changed game {index}");
    }
    for n in 0..requests {
        let legal = |index: usize| {
            legal_now[index].as_ref().map(|l: &Legal| Legal { seat: l.seat.clone(), moves: l.moves.clone() })
        };
        let sent = fuzzer.request(&legal);
        let status = send(&address, &sent).await;
        truncated += usize::from(sent.truncated);
        if let Some(status) = status {
            answered += 1;
            *by_status.entry(status).or_insert(0usize) += 1;
            assert!(
                status < 500,
                "request {n} (seed {seed}) got {status}: {:?}",
                String::from_utf8_lossy(&sent.bytes[..sent.bytes.len().min(500)])
            );
            if sent.refusable {
                refused += 1;
                assert!(
                    !(200..300).contains(&status) && status != 101,
                    "request {n} (seed {seed}), a form or from another origin, got {status}: {:?}",
                    String::from_utf8_lossy(&sent.bytes[..sent.bytes.len().min(500)])
                );
            }
        }
        assert_eq!(PANICS.load(Ordering::SeqCst), 0, "request {n} (seed {seed}): {:?}", FIRST_PANIC.lock().unwrap());
        for index in 0..fuzzer.games.len() {
            let now = snapshot(&hub, &fuzzer.games[index]).await;
            if now.text == snapshots[index].text {
                continue;
            }
            // Only a legal move by the seat to act, taken by the server, changes a game.
            let request = String::from_utf8_lossy(&sent.bytes[..sent.bytes.len().min(500)]).into_owned();
            let context = format!("request {n} (seed {seed}) {request:?}");
            let (target, body) = sent.move_to.as_ref().unwrap_or_else(|| panic!("game {index} changed by {context}"));
            assert_eq!(*target, index, "game {index} changed by a request to another game: {context}");
            assert_eq!(status, Some(200), "game {index} changed though refused: {context}");
            let body: Value =
                serde_json::from_slice(body).unwrap_or_else(|_| panic!("changed by a malformed body: {context}"));
            let legal = legal_now[index].as_ref().expect("a game over changed");
            assert_eq!(body["seat"], json!(legal.seat), "changed by another seat: {context}");
            assert!(body["move"].is_string(), "changed without a move text: {context}");
            // The move as stored, in its canonical text (a game may read a
            // looser one, as Nim reads `03`), was one of the legal moves.
            let before = snapshots[index].state["moves"].as_array().unwrap().len();
            let after = now.state["moves"].as_array().unwrap();
            assert!(after.len() > before, "{context}: {}", now.state);
            let stored = after[before]["text"].as_str().unwrap_or_default();
            assert!(legal.moves.iter().any(|m| m == stored), "changed by an illegal move {stored:?}: {context}");
            moves_taken += 1;
            legal_now[index] = legal_moves(&hub, &fuzzer.games[index], &now.state).await;
            snapshots[index] = now;
        }
    }
    println!(
        "fuzz: {requests} requests ({truncated} truncated), {answered} answered ({refused} forms or from other \
         origins), {moves_taken} legal moves taken; statuses {by_status:?}"
    );
    assert!(moves_taken > 0, "no request ever made a move: the oracle saw nothing");
    server.abort();
}

/// A session of the account `fuzzer`, an API token of it with every scope
/// (the tokens the API takes), and a private tournament of its, with a
/// second account (`fuzzee`) to block and challenge.
async fn credentials(hub: &Hub) -> (String, String, String) {
    use menagerie_server::store::{accounts, tokens, tournaments};
    let (session, session_id) = menagerie_server::accounts::new_session();
    let (token, token_id, handle) = menagerie_server::bots::new_token();
    let scopes = menagerie_server::bots::scopes_text(&menagerie_server::bots::Scope::ALL);
    let tournament = tournaments::Tournament {
        id: "fuzzTournament".into(),
        kind: tournaments::Kind::Arena,
        name: "fuzz arena".into(),
        variant: "nim".into(),
        clock: "fischer:60000+0".into(),
        minutes: Some(10),
        rounds: None,
        starts_at: menagerie_server::clock::now_ms() + 3_600_000,
        password: Some(menagerie_server::accounts::hash_password("fuzz password").unwrap()),
        creator: "fuzzer-account".into(),
        status: tournaments::Status::Created,
        berserk: true,
        created: 1,
        started: None,
        finished: None,
    };
    let id = tournament.id.clone();
    hub.store()
        .transact(move |sql| {
            let fuzzee =
                accounts::Account { id: "fuzzee-account".into(), username: "fuzzee".into(), created: 1, closed: None };
            accounts::create_account(sql, &fuzzee, "x")?;
            accounts::create_session(sql, &session_id, "fuzzer-account", 1)?;
            let stored = tokens::StoredToken {
                id: token_id.clone(),
                handle: handle.clone(),
                account: "fuzzer-account".into(),
                description: "fuzz".into(),
                scopes: scopes.clone(),
                created: 1,
            };
            tokens::add_token(sql, &stored)?;
            tournaments::create(sql, &tournament)
        })
        .await
        .unwrap();
    (session, token, id)
}
