//! Two `menagerie serve` processes on one PostgreSQL database, one killed
//! with SIGKILL in the middle of a load: the other finishes every game, no
//! acknowledged move is lost or duplicated, sockets reconnect and see every
//! move in order, and the dead node's computer games go on. Needs
//! MENAGERIE_TEST_POSTGRES (skipped without it, a failure under
//! MENAGERIE_REQUIRE_POSTGRES=1).

use menagerie_loadtest::postgres::TestDatabase;
use menagerie_loadtest::{run_against_nodes, LoadOptions};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A `menagerie serve` process, killed when dropped.
struct Node {
    child: Child,
    base: String,
}

impl Node {
    fn start(url: &str) -> Node {
        let mut child = Command::new(env!("CARGO_BIN_EXE_menagerie"))
            .args(["serve", "--db", url, "--addr", "127.0.0.1:0"])
            .stdout(Stdio::piped())
            .spawn()
            .expect("the server starts");
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).unwrap();
        let base = first
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("no address in {first:?}"))
            .trim_end_matches('/')
            .to_owned();
        assert!(first.contains("postgres://") && !first.contains('@'), "names the database, no user: {first}");
        Node { child, base }
    }

    /// SIGKILL: no shutdown of any kind.
    fn kill(&mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

async fn post(client: &reqwest::Client, url: String, body: Value) -> Value {
    let response = client.post(&url).json(&body).send().await.unwrap();
    let status = response.status();
    let answer: Value = response.json().await.unwrap();
    assert!(status.is_success(), "{url}: {status} {answer}");
    answer
}

/// Plays one human move through `base` and waits until the computer has
/// answered (seen through `base`).
async fn human_then_computer(client: &reqwest::Client, base: &str, id: &str, secret: &str) {
    let url = format!("{base}/api/games/{id}?seat={secret}");
    let state: Value = client.get(&url).send().await.unwrap().json().await.unwrap();
    if !state["result"].is_null() {
        return;
    }
    let choice = state["legal_moves"][0].as_str().expect("the human's turn, with moves").to_owned();
    let ply = state["ply"].as_u64().unwrap();
    post(client, format!("{base}/api/games/{id}/move"), json!({ "seat": secret, "move": choice, "ply": ply })).await;
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let state: Value = client.get(&url).send().await.unwrap().json().await.unwrap();
        if state["your_turn"] == true || !state["result"].is_null() {
            assert!(state["ply"].as_u64().unwrap() >= ply + 2 || !state["result"].is_null());
            return;
        }
        assert!(Instant::now() < deadline, "the computer did not answer in game {id}: {state}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[test]
fn a_node_killed_mid_load_loses_no_acknowledged_move_and_its_games_go_on() {
    let Some(database) = TestDatabase::create("sigkill") else { return };
    let mut a = Node::start(database.url());
    let b = Node::start(database.url());
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    runtime.block_on(async {
        let client = reqwest::Client::new();
        // Computer games made on a: a holds their computer.
        let mut computer_games = Vec::new();
        for _ in 0..6 {
            let created = post(
                &client,
                format!("{}/api/games", a.base),
                json!({ "variant": "lma", "opponent": "computer", "level": "random", "colour": "first" }),
            )
            .await;
            computer_games.push((
                created["id"].as_str().unwrap().to_owned(),
                created["secrets"]["first"].as_str().unwrap().to_owned(),
            ));
        }
        for (id, secret) in &computer_games {
            human_then_computer(&client, &b.base, id, secret).await;
        }
        // The load through both nodes; a dies in the middle of it.
        let bases = vec![a.base.clone(), b.base.clone()];
        let options = LoadOptions { games: 80, variant: "lma".into(), max_plies: 30, think_ms: 20 };
        let load = tokio::spawn(async move { run_against_nodes(&bases, &options).await });
        tokio::time::sleep(Duration::from_millis(700)).await;
        a.kill();
        let report = load.await.unwrap().expect("the load test runs");
        println!("{report}");
        assert_eq!((report.errors, report.lost, report.duplicated, report.socket_misses), (0, 0, 0, 0), "{report}");
        assert!(report.moves > 80 * 10, "{report}");
        // b took a's computer games over.
        for (id, secret) in &computer_games {
            human_then_computer(&client, &b.base, id, secret).await;
        }
    });
}
