//! No client stops a server by hanging up. Every kind of long answer — the
//! Bot and Board API's streams, a tournament's stream, a game's WebSocket,
//! a large page — is left by its client in the middle, plainly (a FIN) and
//! with a reset (an RST), against the real binary: the server writes on
//! into the dead connections (keep-alives, pings, the rest of the page) and
//! must still answer 30 s later. A signal's disposition is the process's, so
//! only the binary tells: in-process servers in tests never saw SIGPIPE.
//! The same for `menagerie bot` when its server goes away and comes back.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, TcpStream};
use std::os::fd::AsRawFd;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A `menagerie serve` on a free port of loopback, its output read until it
/// says where it serves, then let go: a reader that has gone (`serve | head
/// -1`) must not stop it either.
struct Server {
    child: Child,
    addr: String,
    folder: PathBuf,
}

impl Server {
    /// Serves the store in `folder` at `addr`.
    fn start(folder: &Path, addr: &str) -> Server {
        let log = std::fs::File::options().create(true).append(true).open(folder.join("server.log")).unwrap();
        let mut child = Command::new(env!("CARGO_BIN_EXE_menagerie"))
            .args(["serve", "--addr", addr, "--db"])
            .arg(folder.join("games.sqlite"))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(log)
            .spawn()
            .expect("the binary runs");
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).unwrap();
        let addr = first
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .unwrap_or_else(|| panic!("no address in {first:?}"))
            .to_owned();
        Server { child, addr, folder: folder.to_owned() }
    }

    /// Fails the test if the process has ended, saying how.
    fn assert_alive(&mut self, when: &str) {
        if let Some(status) = self.child.try_wait().unwrap() {
            let log = std::fs::read_to_string(self.folder.join("server.log")).unwrap_or_default();
            panic!("the server ended {when}: {status:?} (signal {:?}); its log:\n{log}", status.signal());
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One HTTP/1.1 exchange on a connection of its own: the status, the
/// headers and the body.
fn request(
    addr: &str,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<&str>,
) -> (u16, String, String) {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    let body = body.unwrap_or_default();
    head.push_str(&format!("Content-Length: {}\r\n\r\n{body}", body.len()));
    stream.write_all(head.as_bytes()).unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
    let status = head.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    (status, head.to_owned(), body.to_owned())
}

fn json_body(body: &str) -> Value {
    // A chunked answer's JSON sits between its chunk sizes.
    let start = body.find('{').unwrap_or(0);
    let end = body.rfind('}').map_or(body.len(), |e| e + 1);
    serde_json::from_str(&body[start..end]).unwrap_or(Value::Null)
}

/// An account, its session cookie and a token of `scopes`.
fn account(addr: &str, name: &str, scopes: &[&str]) -> (String, String) {
    let form = json!({ "username": name, "password": "correct horse battery" }).to_string();
    let (status, head, _) =
        request(addr, "POST", "/api/register", &[("Content-Type", "application/json")], Some(&form));
    assert_eq!(status, 201, "{head}");
    let cookie = head
        .lines()
        .find_map(|l| {
            l.strip_prefix("set-cookie: menagerie_session=").or(l.strip_prefix("Set-Cookie: menagerie_session="))
        })
        .map(|v| format!("menagerie_session={}", v.split(';').next().unwrap()))
        .unwrap_or_else(|| panic!("no session cookie in {head}"));
    let asked = json!({ "description": "hang-ups", "scopes": scopes }).to_string();
    let (status, _, body) = request(
        addr,
        "POST",
        "/api/tokens",
        &[("Content-Type", "application/json"), ("Cookie", &cookie)],
        Some(&asked),
    );
    assert_eq!(status, 201, "{body}");
    (cookie, json_body(&body)["token"].as_str().unwrap().to_owned())
}

/// How a client leaves.
#[derive(Clone, Copy, Debug)]
enum Leaving {
    /// Closes its end (a FIN): the server's writes fail later.
    Plainly,
    /// Closes with SO_LINGER 0 (an RST): the server's next write fails at once.
    WithReset,
}

/// Sends `head`, reads the first bytes of the answer (unless `read` is 0),
/// and hangs up as `leaving` says.
fn hang_up(addr: &str, head: &str, read: usize, leaving: Leaving) {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    stream.write_all(head.as_bytes()).unwrap();
    if read > 0 {
        let mut first = vec![0; read];
        let got = stream.read(&mut first).unwrap();
        assert!(got > 0, "no answer to {head}");
        let answer = String::from_utf8_lossy(&first[..got]);
        assert!(answer.starts_with("HTTP/1.1 200") || answer.starts_with("HTTP/1.1 101"), "{head}\n{answer}");
    }
    match leaving {
        Leaving::Plainly => {
            let _ = stream.shutdown(Shutdown::Both);
        }
        Leaving::WithReset => {
            let linger = libc::linger { l_onoff: 1, l_linger: 0 };
            // SAFETY: a valid socket and a linger value of the size given.
            let set = unsafe {
                libc::setsockopt(
                    stream.as_raw_fd(),
                    libc::SOL_SOCKET,
                    libc::SO_LINGER,
                    (&linger as *const libc::linger).cast(),
                    std::mem::size_of::<libc::linger>() as libc::socklen_t,
                )
            };
            assert_eq!(set, 0, "SO_LINGER");
        }
    }
    drop(stream);
}

#[test]
fn hanging_up_on_any_stream_socket_or_page_never_stops_the_server() {
    let folder = tempfile::tempdir().unwrap();
    let mut server = Server::start(folder.path(), "127.0.0.1:0");
    let addr = server.addr.clone();
    let (cookie, token) = account(&addr, "Leaver", &["board:play", "challenge:write"]);
    let tournament = json!({ "variant": "lma", "clockTime": 3, "clockIncrement": 2, "minutes": 30, "waitMinutes": 10 });
    let (status, _, body) = request(
        &addr,
        "POST",
        "/api/tournament",
        &[("Content-Type", "application/json"), ("Cookie", &cookie)],
        Some(&tournament.to_string()),
    );
    assert_eq!(status, 201, "{body}");
    let tournament = json_body(&body)["id"].as_str().unwrap().to_owned();
    let bearer = format!("Bearer {token}");
    let (status, _, body) = request(
        &addr,
        "POST",
        "/api/challenge/ai",
        &[("Authorization", &bearer), ("Content-Type", "application/x-www-form-urlencoded")],
        Some("variant=lma&level=1&color=white"),
    );
    assert_eq!(status, 201, "{body}");
    let game = json_body(&body)["id"].as_str().unwrap().to_owned();

    let get = |path: &str, auth: bool| {
        let auth = if auth { format!("Authorization: {bearer}\r\n") } else { String::new() };
        format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\n{auth}\r\n")
    };
    let socket = |path: &str| {
        format!(
            "GET {path} HTTP/1.1\r\nHost: {addr}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
             Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        )
    };
    let leavers = [
        ("the event stream", get("/api/stream/event", true), 256),
        ("a tournament's stream", get(&format!("/api/tournament/{tournament}/stream"), false), 256),
        ("a board game's stream", get(&format!("/api/board/game/stream/{game}"), true), 256),
        ("a game's WebSocket", socket(&format!("/api/games/{game}/ws")), 256),
        ("the lobby's WebSocket", socket("/api/lobby/ws"), 256),
        ("a large page, read in part", get("/docs/api.md", false), 1024),
        ("a large page, not read", get("/docs/api.md", false), 0),
    ];
    for leaving in [Leaving::Plainly, Leaving::WithReset] {
        for (what, head, read) in &leavers {
            hang_up(&addr, head, *read, leaving);
            server.assert_alive(&format!("after {what} was left {leaving:?}"));
        }
    }
    // The streams' keep-alives (every 6 s), the tournament's updates (every
    // 5 s) and the sockets' pings all go out into the dead connections.
    let deadline = Instant::now() + Duration::from_secs(30);
    while Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(500));
        server.assert_alive("while writing into the connections its clients left");
    }
    let (status, _, _) = request(&addr, "GET", "/healthz", &[], None);
    assert_eq!(status, 200);
    server.assert_alive("at the end");
}

/// A free port of loopback, for a server that must come back on it.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

#[test]
fn the_bot_waits_for_its_server_to_come_back_and_plays_on() {
    let folder = tempfile::tempdir().unwrap();
    let kept = folder.path();
    let port = free_port();
    let mut server = Server::start(kept, &format!("127.0.0.1:{port}"));
    let addr = server.addr.clone();
    let (_, robot) = account(&addr, "Robot", &["bot:play"]);
    let bearer = format!("Bearer {robot}");
    let (status, _, body) = request(&addr, "POST", "/api/bot/account/upgrade", &[("Authorization", &bearer)], None);
    assert_eq!(status, 200, "{body}");
    let out = kept.join("bot.out");
    let mut bot = Command::new(env!("CARGO_BIN_EXE_menagerie"))
        .args(["bot", "--server", &format!("http://{addr}"), "--token", &robot, "--level", "random"])
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out).unwrap())
        .stderr(std::fs::File::create(kept.join("bot.err")).unwrap())
        .spawn()
        .unwrap();
    let said = |file: &str| std::fs::read_to_string(kept.join(file)).unwrap_or_default();
    let wait_for = |file: &str, words: &str| {
        let deadline = Instant::now() + Duration::from_secs(60);
        while !said(file).contains(words) {
            assert!(
                Instant::now() < deadline,
                "the bot never said {words:?}; it said:\n{}{}",
                said("bot.out"),
                said("bot.err")
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    };
    wait_for("bot.out", "Robot plays at level random");
    // The server is killed under it, and stays away a while: the bot waits.
    std::thread::sleep(Duration::from_millis(500));
    let _ = server.child.kill();
    let _ = server.child.wait();
    wait_for("bot.err", "trying again");
    std::thread::sleep(Duration::from_secs(3));
    assert!(bot.try_wait().unwrap().is_none(), "the bot ended when its server went away:\n{}", said("bot.err"));
    // Back on the same port and store: the bot listens again and plays.
    let server = Server::start(kept, &format!("127.0.0.1:{port}"));
    wait_for("bot.out", "is back: listening again");
    let (_, person) = account(&server.addr, "Person", &["board:play", "challenge:write"]);
    let (status, _, body) = request(
        &server.addr,
        "POST",
        "/api/challenge/robot",
        &[("Authorization", &format!("Bearer {person}")), ("Content-Type", "application/x-www-form-urlencoded")],
        Some("variant=lma&color=white"),
    );
    assert_eq!(status, 200, "{body}");
    wait_for("bot.out", "accepted the lma challenge of Person");
    // SAFETY: a signal to the child this test started.
    unsafe { libc::kill(bot.id() as i32, libc::SIGINT) };
    let status = bot.wait().unwrap();
    assert!(status.success(), "{status:?}\n{}", said("bot.err"));
}
