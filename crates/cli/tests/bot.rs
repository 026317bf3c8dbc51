//! `menagerie bot` plays as a bot account through the Bot API: started
//! against a server with a bot's token, it accepts a board player's
//! challenge, moves in the game when it is its turn, declines what it
//! cannot play (Lunch Chess's hidden cards), and stops cleanly on Ctrl-C.

use serde_json::{json, Value};
use std::process::{Command, Stdio};

struct Api {
    http: reqwest::Client,
    base: String,
    token: String,
}

impl Api {
    async fn post(&self, path: &str, form: &[(&str, &str)]) -> (u16, Value) {
        let mut request = self.http.post(format!("{}{path}", self.base)).bearer_auth(&self.token);
        if !form.is_empty() {
            let body: Vec<String> = form.iter().map(|(k, v)| format!("{k}={v}")).collect();
            request = request.header("content-type", "application/x-www-form-urlencoded").body(body.join("&"));
        }
        let response = request.send().await.unwrap();
        let status = response.status().as_u16();
        (status, response.json().await.unwrap_or(Value::Null))
    }

    async fn stream(&self, path: &str) -> Lines {
        let response = self.http.get(format!("{}{path}", self.base)).bearer_auth(&self.token).send().await.unwrap();
        assert!(response.status().is_success());
        Lines { response, pending: Vec::new() }
    }
}

struct Lines {
    response: reqwest::Response,
    pending: Vec<u8>,
}

impl Lines {
    /// The next line of type `kind` (others and keep-alives skipped), within
    /// a minute in all: keep-alives arrive every few seconds, so a wait on
    /// each chunk alone would never end if the line never came.
    async fn next_of(&mut self, kind: &str) -> Value {
        let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(60);
        loop {
            if let Some(end) = self.pending.iter().position(|b| *b == b'\n') {
                let line: Vec<u8> = self.pending.drain(..=end).collect();
                let text = String::from_utf8(line).unwrap();
                if text.trim().is_empty() {
                    continue;
                }
                let value: Value = serde_json::from_str(text.trim()).unwrap();
                if value["type"] == kind {
                    return value;
                }
                continue;
            }
            let chunk = tokio::time::timeout_at(deadline, self.response.chunk())
                .await
                .unwrap_or_else(|_| panic!("no {kind} within a minute"))
                .unwrap()
                .unwrap_or_else(|| panic!("the stream ended before a {kind}"));
            self.pending.extend_from_slice(&chunk);
        }
    }
}

/// A new account with a token of `scopes`.
async fn account(http: &reqwest::Client, base: &str, name: &str, scopes: &[&str]) -> Api {
    let response = http
        .post(format!("{base}/api/register"))
        .json(&json!({ "username": name, "password": "correct horse" }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 201);
    let cookie = response.headers().get_all("set-cookie").iter().map(|v| v.to_str().unwrap().to_owned());
    let session = cookie.into_iter().find(|c| c.starts_with("menagerie_session=")).unwrap();
    let session = session.split(';').next().unwrap().to_owned();
    let token: Value = http
        .post(format!("{base}/api/tokens"))
        .header("cookie", session)
        .json(&json!({ "description": "test", "scopes": scopes }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    Api { http: http.clone(), base: base.to_owned(), token: token["token"].as_str().unwrap().to_owned() }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bot_accepts_a_challenge_and_moves_and_stops_on_ctrl_c() {
    let dir = tempfile::tempdir().unwrap();
    let hub = menagerie_server::sqlite_hub(&dir.path().join("games.sqlite"), Default::default()).unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let _server = menagerie_server::spawn(listener, hub);
    let http = reqwest::Client::new();
    let robot = account(&http, &base, "Robot", &["bot:play"]).await;
    assert_eq!(robot.post("/api/bot/account/upgrade", &[]).await.0, 200);
    let person = account(&http, &base, "Person", &["board:play", "challenge:write"]).await;

    let bot = Command::new(env!("CARGO_BIN_EXE_menagerie"))
        .args(["bot", "--server", &base, "--token", &robot.token, "--level", "random"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();

    let mut events = person.stream("/api/stream/event").await;
    // What it cannot play (hidden cards) it declines, saying why.
    let (status, _) = person.post("/api/challenge/robot", &[("variant", "lunch")]).await;
    assert_eq!(status, 200);
    let declined = events.next_of("challengeDeclined").await;
    assert_eq!(declined["challenge"]["declineReasonKey"], "variant", "{declined}");
    // An LMA game it accepts, and plays its moves.
    let (status, _) = person.post("/api/challenge/robot", &[("variant", "lma"), ("color", "white")]).await;
    assert_eq!(status, 200);
    let started = events.next_of("gameStart").await;
    let game = started["game"]["gameId"].as_str().unwrap().to_owned();
    let mut stream = person.stream(&format!("/api/board/game/stream/{game}")).await;
    let mut state = stream.next_of("gameFull").await["state"].clone();
    for ply in 0..3 {
        assert_eq!(state["toMove"], "white", "{state}");
        let mv = state["legalMoves"][0].as_str().unwrap().to_owned();
        assert_eq!(person.post(&format!("/api/board/game/{game}/move/{mv}"), &[]).await.0, 200);
        // The bot answers: the move list grows by its move, and it is white's turn again.
        loop {
            state = stream.next_of("gameState").await;
            if state["toMove"] == "white" || state["status"] != "started" {
                break;
            }
        }
        if state["status"] != "started" {
            break;
        }
        assert_eq!(state["moves"].as_str().unwrap().split(' ').count(), 2 * ply + 2, "{state}");
    }

    // Ctrl-C ends it cleanly.
    let pid = bot.id() as i32;
    unsafe { libc::kill(pid, libc::SIGINT) };
    let waited = tokio::task::spawn_blocking(move || bot.wait_with_output().unwrap());
    let Ok(output) = tokio::time::timeout(std::time::Duration::from_secs(30), waited).await else {
        // A failure, not a hang: the bot is stopped for good first.
        unsafe { libc::kill(pid, libc::SIGKILL) };
        panic!("the bot did not stop within 30 s of Ctrl-C");
    };
    let output = output.unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
    assert!(stdout.contains("Robot plays at level random"), "{stdout}");
    assert!(stdout.contains("accepted the lma challenge of Person"), "{stdout}");
    assert!(stdout.contains("declined the lunch challenge of Person"), "{stdout}");
    assert!(stdout.trim_end().ends_with("stopped"), "{stdout}");
}

#[test]
fn bad_arguments_are_named() {
    let output = Command::new(env!("CARGO_BIN_EXE_menagerie"))
        .args(["bot", "--server", "http://127.0.0.1:9", "--token", "mnp_x", "--level", "godlike"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("unknown level \"godlike\""));
}
