//! Slow and oversized requests: a request not sent within the time limit is
//! closed, half-sent requests do not starve the others, and a declared body
//! over the limit is refused at once. Bounds on time are generous: they tell
//! "answered" from "hung", nothing finer.

mod common;

use common::TestServer;
use menagerie_loadtest::WithNim;
use menagerie_server::computer::RandomOnly;
use menagerie_server::{HubConfig, RequestLimits};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sockets_count_among_the_connections_and_heads_are_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let limits = RequestLimits { max_connections: 2, ..RequestLimits::default() };
    let config = HubConfig { max_searches: 1, ..HubConfig::default() };
    let server = TestServer::start_configured(
        &dir.path().join("g.sqlite"),
        Arc::new(RandomOnly),
        Arc::new(WithNim),
        config,
        limits,
    )
    .await;
    let created = server.create(serde_json::json!({ "variant": "nim", "opponent": "friend" })).await;
    let url = format!("ws://{}/api/games/{}/ws", server.address(), created["id"].as_str().unwrap());
    let (first, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
    let (second, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
    // Both places are taken by sockets: a third client waits.
    let waiting = tokio::time::timeout(Duration::from_secs(1), server.get("/api/variants")).await;
    assert!(waiting.is_err(), "a third connection was served beside two sockets");
    drop(first);
    let (status, _) = tokio::time::timeout(Duration::from_secs(20), server.get("/api/variants")).await.expect("served");
    assert_eq!(status, 200);
    drop(second);

    // A head larger than the limit is refused, not buffered.
    let mut stream = TcpStream::connect(server.address()).await.unwrap();
    let head = format!("GET / HTTP/1.1\r\nHost: x\r\nX-Big: {}\r\n\r\n", "a".repeat(200_000));
    let _ = stream.write_all(head.as_bytes()).await;
    let (received, closed) = read_until_closed(&mut stream, Duration::from_secs(20)).await;
    assert!(closed, "{received:?}");
    assert!(received.is_empty() || received.starts_with("HTTP/1.1 431"), "{received:?}");
    server.stop().await;
}
