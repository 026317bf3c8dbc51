//! Slow and oversized requests: a request not sent within the time limit is
//! closed, half-sent requests do not starve the others, and a declared body
//! over the limit is refused at once; a flood of sockets takes neither the
//! connections plain requests need nor every socket, and a silent socket
//! is closed. Bounds on time are generous: they tell "answered" from
//! "hung", nothing finer.

mod common;

use common::TestServer;
use futures_util::StreamExt;
use menagerie_loadtest::WithNim;
use menagerie_server::computer::RandomOnly;
use menagerie_server::{HubConfig, RequestLimits, SocketLimits};
use serde_json::Value;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;

async fn server_with(dir: &std::path::Path, request_time: Duration) -> TestServer {
    let limits = RequestLimits { request_time, ..RequestLimits::default() };
    let config = HubConfig { max_searches: 1, ..HubConfig::default() };
    TestServer::start_configured(&dir.join("g.sqlite"), Arc::new(RandomOnly), Arc::new(WithNim), config, limits).await
}

/// Reads until the server closes the connection (or `patience` passes);
/// answers what was read and whether it closed.
async fn read_until_closed(stream: &mut TcpStream, patience: Duration) -> (String, bool) {
    let mut received = Vec::new();
    let deadline = Instant::now() + patience;
    let mut buffer = [0u8; 4096];
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match tokio::time::timeout(left, stream.read(&mut buffer)).await {
            Ok(Ok(0)) | Ok(Err(_)) => return (String::from_utf8_lossy(&received).into_owned(), true),
            Ok(Ok(n)) => received.extend_from_slice(&buffer[..n]),
            Err(_) => return (String::from_utf8_lossy(&received).into_owned(), false),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn half_sent_requests_are_closed_and_starve_no_one() {
    let dir = tempfile::tempdir().unwrap();
    let server = server_with(dir.path(), Duration::from_secs(1)).await;
    let address = server.address().to_owned();
    // Three hundred clients: some send nothing, some half a head, some a
    // head and half a body.
    let mut slow = Vec::new();
    for i in 0..300 {
        let mut stream = TcpStream::connect(&address).await.unwrap();
        match i % 3 {
            0 => {}
            1 => stream.write_all(b"GET /api/variants HTTP/1.1\r\nHost: x\r\nX-Slow: ").await.unwrap(),
            _ => stream
                .write_all(b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"vari")
                .await
                .unwrap(),
        }
        slow.push(stream);
    }
    // A normal request is answered meanwhile.
    let started = Instant::now();
    let (status, variants) = server.get("/api/variants").await;
    assert_eq!(status, 200);
    assert!(variants["variants"].is_array());
    assert!(started.elapsed() < Duration::from_secs(10), "the normal request waited {:?}", started.elapsed());
    // Every slow one is closed once its time is up; a body cut short gets a 408 first.
    for (i, stream) in slow.iter_mut().enumerate() {
        let (received, closed) = read_until_closed(stream, Duration::from_secs(20)).await;
        assert!(closed, "slow client {i} still open: {received:?}");
        if i % 3 == 2 {
            assert!(received.starts_with("HTTP/1.1 408"), "slow client {i}: {received:?}");
        }
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_declared_body_over_the_limit_is_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    // A long request time: the 413 must not wait for it.
    let server = server_with(dir.path(), Duration::from_secs(60)).await;
    let mut stream = TcpStream::connect(server.address()).await.unwrap();
    stream
        .write_all(b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000000\r\n\r\n{")
        .await
        .unwrap();
    let (received, closed) = read_until_closed(&mut stream, Duration::from_secs(20)).await;
    assert!(received.starts_with("HTTP/1.1 413"), "{received:?}");
    assert!(received.contains("request body larger than"), "{received:?}");
    assert!(closed, "the connection stays open for a body nobody reads");
    // A chunked body that grows past the limit is cut off too.
    let mut stream = TcpStream::connect(server.address()).await.unwrap();
    let mut request =
        b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
            .to_vec();
    for _ in 0..20 {
        request.extend_from_slice(format!("1000\r\n{}\r\n", "x".repeat(0x1000)).as_bytes());
    }
    let _ = stream.write_all(&request).await;
    let (received, _) = read_until_closed(&mut stream, Duration::from_secs(20)).await;
    assert!(received.starts_with("HTTP/1.1 413"), "{received:?}");
    server.stop().await;
}

/// A server with these socket limits, and few connection places.
async fn server_with_sockets(dir: &std::path::Path, sockets: SocketLimits, max_connections: usize) -> TestServer {
    let limits = RequestLimits { max_connections, sockets, ..RequestLimits::default() };
    let config = HubConfig { max_searches: 1, ..HubConfig::default() };
    TestServer::start_configured(&dir.join("g.sqlite"), Arc::new(RandomOnly), Arc::new(WithNim), config, limits).await
}

/// Opens a socket from `ip`, which the server must answer (generously soon):
/// the socket, or the refusal's status and body.
async fn try_socket(ip: &str, server: &TestServer, url: &str) -> Result<common::WebSocket, (u16, Value)> {
    let Ok(opened) = tokio::time::timeout(Duration::from_secs(20), common::socket_from(ip, server, url)).await else {
        panic!("the upgrade of {url} from {ip} was not answered");
    };
    match opened {
        Ok(socket) => Ok(socket),
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
            let body = response.body().as_deref().and_then(|b| serde_json::from_slice(b).ok()).unwrap_or(Value::Null);
            Err((response.status().as_u16(), body))
        }
        Err(other) => panic!("the upgrade of {url} from {ip} failed: {other}"),
    }
}

/// A plain request, which must be answered (generously soon).
async fn answered(server: &TestServer) {
    let (status, variants) = tokio::time::timeout(Duration::from_secs(20), server.get("/api/variants"))
        .await
        .expect("a plain request was not answered beside the sockets");
    assert_eq!(status, 200, "{variants}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_sockets_takes_neither_the_connections_nor_every_socket() {
    let dir = tempfile::tempdir().unwrap();
    // More sockets than connection places.
    let sockets = SocketLimits { max_sockets: 12, per_client: 8, ..SocketLimits::default() };
    let server = server_with_sockets(dir.path(), sockets, 4).await;
    let created = server.create(serde_json::json!({ "variant": "nim", "opponent": "friend" })).await;
    let ws = format!("ws://{}", server.address());
    let game = format!("{ws}/api/games/{}/ws", created["id"].as_str().unwrap());

    // One address opens game sockets until it is refused, with a reason, at its cap.
    let mut flood = Vec::new();
    let refusal = loop {
        match try_socket("127.0.0.1", &server, &game).await {
            Ok(socket) => flood.push(socket),
            Err(refusal) => break refusal,
        }
        assert!(flood.len() <= sockets.per_client, "more sockets than the cap per address");
    };
    assert_eq!(flood.len(), sockets.per_client);
    assert_eq!(refusal.0, 429, "{refusal:?}");
    assert!(refusal.1["error"].as_str().unwrap().contains("sockets at once from one address"), "{refusal:?}");
    // Twice as many sockets as connection places are open: a plain request
    // from the same address is answered.
    answered(&server).await;

    // Another address has sockets of its own, of every kind, up to the
    // server's budget; then no one gets one (503), and plain requests are
    // still answered.
    let mut others = Vec::new();
    for url in [format!("{ws}/api/lobby/ws"), format!("{ws}/api/analysis/ws"), game.clone(), game.clone()] {
        others.push(try_socket("127.0.0.2", &server, &url).await.expect("a socket within the budget"));
    }
    let Err(refusal) = try_socket("127.0.0.3", &server, &format!("{ws}/api/lobby/ws")).await else {
        panic!("a socket over the server's budget opened");
    };
    assert_eq!(refusal.0, 503, "{refusal:?}");
    assert!(refusal.1["error"].as_str().unwrap().contains("as many sockets open as it may"), "{refusal:?}");
    answered(&server).await;

    // Closed sockets give their places back.
    drop(flood);
    let deadline = Instant::now() + Duration::from_secs(20);
    while try_socket("127.0.0.3", &server, &game).await.is_err() {
        assert!(Instant::now() < deadline, "the closed sockets' places stayed taken");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    server.stop().await;
}

/// Upgrades by hand and then sends nothing at all, not even the answer to
/// a ping: answers what was read until the server closed the connection,
/// and whether it did.
async fn silent_socket(server: &TestServer, path: &str) -> (String, bool) {
    let mut stream = TcpStream::connect(server.address()).await.unwrap();
    let head = format!(
        "GET {path} HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\
         Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    read_until_closed(&mut stream, Duration::from_secs(30)).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn silent_sockets_are_closed_and_sockets_that_answer_pings_stay() {
    let dir = tempfile::tempdir().unwrap();
    let idle_timeout = Duration::from_secs(2);
    let sockets = SocketLimits { ping_interval: Duration::from_millis(400), idle_timeout, ..SocketLimits::default() };
    let server = Arc::new(server_with_sockets(dir.path(), sockets, 64).await);
    let created = server.create(serde_json::json!({ "variant": "nim", "opponent": "friend" })).await;
    let paths = [
        format!("/api/games/{}/ws", created["id"].as_str().unwrap()),
        "/api/analysis/ws".into(),
        "/api/lobby/ws".into(),
    ];
    let mut kinds = Vec::new();
    for path in paths {
        let server = Arc::clone(&server);
        kinds.push(tokio::spawn(async move {
            // A client that reads (and so answers pings) outlives the idle time many times over.
            let url = format!("ws://{}{path}", server.address());
            let mut alive = common::socket_from("127.0.0.1", &server, url.as_str()).await.unwrap();
            let silent = tokio::spawn({
                let (server, path) = (Arc::clone(&server), path.clone());
                async move { silent_socket(&server, &path).await }
            });
            let mut pings = 0;
            let until = Instant::now() + idle_timeout * 3;
            while let Ok(message) = tokio::time::timeout_at(until.into(), alive.next()).await {
                match message {
                    Some(Ok(Message::Ping(_))) => pings += 1,
                    Some(Ok(Message::Text(_))) => {}
                    other => panic!("{path}: a socket that answers pings ended: {other:?}"),
                }
            }
            assert!(pings >= 2, "{path}: {pings} pings");
            // A client that sends nothing is closed.
            let (received, closed) = silent.await.unwrap();
            assert!(received.starts_with("HTTP/1.1 101"), "{path}: {received:?}");
            assert!(closed, "{path}: a silent socket is still open");
        }));
    }
    for kind in kinds {
        kind.await.unwrap();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn heads_are_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let server = server_with(dir.path(), Duration::from_secs(5)).await;
    // A head larger than the limit is refused, not buffered.
    let mut stream = TcpStream::connect(server.address()).await.unwrap();
    let head = format!("GET / HTTP/1.1\r\nHost: x\r\nX-Big: {}\r\n\r\n", "a".repeat(200_000));
    let _ = stream.write_all(head.as_bytes()).await;
    let (received, closed) = read_until_closed(&mut stream, Duration::from_secs(20)).await;
    assert!(closed, "{received:?}");
    assert!(received.is_empty() || received.starts_with("HTTP/1.1 431"), "{received:?}");
    server.stop().await;
}
