//! One page on two nodes behind a round-robin load balancer: its socket
//! on one node, its requests answered by either. Every move the opponent
//! makes, through either node, reaches the page (the page keeps the newest
//! state by its version, which both nodes must number alike).
//!
//! Needs Chromium and chromedriver, and MENAGERIE_TEST_POSTGRES (skipped
//! without them, a failure under MENAGERIE_REQUIRE_BROWSER=1 or
//! MENAGERIE_REQUIRE_POSTGRES=1).

use crate::common::browser::*;
use crate::common::TestServer;
use menagerie_loadtest::postgres::TestDatabase;
use menagerie_loadtest::WithNim;
use menagerie_server::computer::RandomOnly;
use menagerie_server::store::PgStore;
use menagerie_server::{HubConfig, RequestLimits};
use serde_json::json;
use std::sync::{Arc, Mutex};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

async fn node(url: &str) -> TestServer {
    let store = PgStore::open(url).expect("the database opens");
    let config = HubConfig { max_searches: 2, ..HubConfig::default() };
    let hub = menagerie_server::new_hub(Arc::new(WithNim), Arc::new(store), Arc::new(RandomOnly), config);
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let task = menagerie_server::spawn_with(listener, hub, RequestLimits::default());
    TestServer::from_parts(base, task)
}

/// A load balancer at its simplest: each connection goes to the next node
/// in turn, bytes copied both ways. It notes which node each WebSocket
/// went to (a request head that asks for the upgrade).
struct RoundRobin {
    base: String,
    sockets: Arc<Mutex<Vec<usize>>>,
}

impl RoundRobin {
    async fn start(nodes: [String; 2]) -> RoundRobin {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let sockets = Arc::new(Mutex::new(Vec::new()));
        let noted = Arc::clone(&sockets);
        tokio::spawn(async move {
            for turn in 0.. {
                let Ok((mut client, _)) = listener.accept().await else { return };
                let node = turn % 2;
                let (address, noted) = (nodes[node].clone(), Arc::clone(&noted));
                tokio::spawn(async move {
                    let Ok(mut upstream) = TcpStream::connect(&address).await else { return };
                    let mut head = vec![0; 8192];
                    let Ok(read) = client.read(&mut head).await else { return };
                    if String::from_utf8_lossy(&head[..read]).to_ascii_lowercase().contains("upgrade: websocket") {
                        noted.lock().unwrap().push(node);
                    }
                    if upstream.write_all(&head[..read]).await.is_ok() {
                        let _ = tokio::io::copy_bidirectional(&mut client, &mut upstream).await;
                    }
                });
            }
        });
        RoundRobin { base, sockets }
    }

    /// The node of each WebSocket so far, in order.
    fn sockets(&self) -> Vec<usize> {
        self.sockets.lock().unwrap().clone()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_behind_a_round_robin_balancer_sees_every_move() {
    if !browser_available() {
        return;
    }
    let Some(database) = TestDatabase::create("balanced") else { return };
    let nodes = [node(database.url()).await, node(database.url()).await];
    let balancer = RoundRobin::start([nodes[0].address().to_owned(), nodes[1].address().to_owned()]).await;
    let created = nodes[0].create(json!({ "variant": "nim:stones=60", "opponent": "friend", "colour": "first" })).await;
    let id = created["id"].as_str().unwrap();
    let [first, second] = ["first", "second"].map(|seat| created["secrets"][seat].as_str().unwrap().to_owned());
    // The other node loads the game later than the first made it.
    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    assert_eq!(nodes[1].state(id, None).await["ply"], 0);

    let dir = tempfile::tempdir().unwrap();
    let (_driver, client) = start_browser(&dir.path().join("profile"), DESKTOP_WITHOUT_SCROLLBARS).await;
    client.goto(&format!("{}/g/{id}?seat={first}", balancer.base)).await.unwrap();
    until(
        &client,
        "the game",
        "return window.menagerieGame && window.menagerieGame.state && window.menagerieGame.socket",
    )
    .await;
    let mut socket_on = None;
    for round in 0..6u64 {
        // The page moves (its request answered by either node) ...
        let ply = round * 2;
        until(&client, &format!("our turn at ply {ply}"), &format!("const s = window.menagerieGame.state; return s.ply === {ply} && s.your_turn && document.querySelector('[data-move=\"1\"]')")).await;
        click(&client, "[data-move=\"1\"]").await;
        until(&client, "our move", &format!("return window.menagerieGame.state.ply === {}", ply + 1)).await;
        // ... its socket reconnects until it is on the other node than in
        // the last round ...
        for _ in 0..6 {
            let before = balancer.sockets().len();
            eval(&client, "window.menagerieGame.socket.close(); return true").await;
            let started = std::time::Instant::now();
            while balancer.sockets().len() == before {
                assert!(started.elapsed() < std::time::Duration::from_secs(20), "the page's socket never came back");
                tokio::time::sleep(std::time::Duration::from_millis(50)).await;
            }
            until(
                &client,
                "the socket open",
                "return window.menagerieGame.socket && window.menagerieGame.socket.readyState === 1",
            )
            .await;
            let now = balancer.sockets().last().copied();
            if now != socket_on {
                socket_on = now;
                break;
            }
        }
        // ... and the opponent moves through one node or the other: the page shows it.
        let (status, answer) = nodes[round as usize % 2]
            .post(&format!("/api/games/{id}/move"), json!({ "seat": second, "move": "1", "ply": ply + 1 }))
            .await;
        assert_eq!(status, 200, "{answer}");
        until(
            &client,
            &format!("the opponent's move {} (socket on node {socket_on:?})", ply + 2),
            &format!(
                "return window.menagerieGame.state.ply === {} && document.querySelectorAll('[data-moves] .move.second').length === {}",
                ply + 2,
                round + 1
            ),
        )
        .await;
    }
    let sockets = balancer.sockets();
    assert!(sockets.contains(&0) && sockets.contains(&1), "the page's socket was on both nodes: {sockets:?}");
}
