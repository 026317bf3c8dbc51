//! Operations: `/healthz` and `/readyz` (503 while draining), and the
//! metrics on their own listener, scraped as Prometheus does.

mod common;

use futures_util::StreamExt;
use menagerie_loadtest::WithNim;
use menagerie_server::computer::RandomOnly;
use menagerie_server::ops::Operations;
use menagerie_server::store::SqliteStore;
use menagerie_server::{Hub, HubConfig};
use serde_json::{json, Value};
use std::sync::Arc;

fn hub(folder: &std::path::Path) -> Arc<Hub> {
    let store = SqliteStore::open(&folder.join("games.sqlite")).unwrap();
    let config = HubConfig { max_searches: 2, ..HubConfig::default() };
    menagerie_server::new_hub(Arc::new(WithNim), Arc::new(store), Arc::new(RandomOnly), config)
}

async fn get(client: &reqwest::Client, url: &str) -> (u16, Value) {
    let response = client.get(url).send().await.unwrap();
    (response.status().as_u16(), response.json().await.unwrap_or(Value::Null))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn health_answers_and_readiness_ends_when_the_node_drains() {
    let folder = tempfile::tempdir().unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let operations = Operations::new(Vec::new());
    let task = menagerie_server::spawn_operated(listener, hub(folder.path()), Default::default(), operations.clone());
    let client = reqwest::Client::new();
    assert_eq!(get(&client, &format!("{base}/healthz")).await, (200, json!({ "status": "ok" })));
    assert_eq!(get(&client, &format!("{base}/readyz")).await, (200, json!({ "status": "ready" })));
    operations.start_draining();
    assert_eq!(get(&client, &format!("{base}/readyz")).await, (503, json!({ "error": "the server is stopping" })));
    assert_eq!(get(&client, &format!("{base}/healthz")).await.0, 200, "a draining node still answers");
    task.abort();
}

/// The value of `series` (name and labels, as rendered) in a scrape.
fn value(scrape: &str, series: &str) -> Option<f64> {
    scrape.lines().find_map(|line| line.strip_prefix(series)?.strip_prefix(' ')?.trim().parse().ok())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_metrics_listener_shows_requests_moves_sockets_searches_and_the_store() {
    let folder = tempfile::tempdir().unwrap();
    let hub = hub(folder.path());
    let metrics = menagerie_server::serve_metrics("127.0.0.1:0".parse().unwrap(), Arc::clone(&hub)).await.unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let server = common::TestServer::from_parts(format!("http://{address}"), menagerie_server::spawn(listener, hub));

    let created = server
        .create(json!({ "variant": "nim:stones=40", "opponent": "computer", "level": "random", "colour": "first" }))
        .await;
    let id = created["id"].as_str().unwrap().to_owned();
    let secret = created["secrets"]["first"].as_str().unwrap().to_owned();
    let url = format!("ws://{address}/api/games/{id}/ws?seat={secret}");
    let (mut socket, _) = tokio_tungstenite::connect_async(url).await.unwrap();
    socket.next().await.unwrap().unwrap();
    let mut moved = 0;
    while moved < 3 {
        let state =
            common::wait_for(&server, &id, Some(&secret), |s| s["to_act"] == "first" || !s["result"].is_null()).await;
        if !state["result"].is_null() {
            break;
        }
        let (status, after) = server.play(&id, &secret, "1").await;
        assert_eq!(status, 200, "{after}");
        moved += 1;
    }
    common::wait_for(&server, &id, Some(&secret), |s| s["to_act"] == "first" || !s["result"].is_null()).await;

    let client = reqwest::Client::new();
    let scrape = client.get(format!("http://{metrics}/metrics")).send().await.unwrap().text().await.unwrap();
    let at_least = |series: &str, floor: f64| {
        let found = value(&scrape, series).unwrap_or_else(|| panic!("no {series} in:\n{scrape}"));
        assert!(found >= floor, "{series} = {found}, expected at least {floor}");
    };
    let moves = moved as f64;
    at_least(r#"menagerie_http_requests_total{route="/api/games/{id}/move",status="200"}"#, moves);
    at_least(r#"menagerie_http_requests_total{route="/api/games",status="201"}"#, 1.0);
    at_least(r#"menagerie_http_request_duration_seconds_bucket{route="/api/games/{id}/move",le="+Inf"}"#, moves);
    at_least(r#"menagerie_moves_committed_total{actor="first"}"#, moves);
    at_least(r#"menagerie_moves_committed_total{actor="second"}"#, 1.0);
    at_least(r#"menagerie_store_duration_seconds_count{op="append_move"}"#, moves + 1.0);
    at_least(r#"menagerie_sockets_open{kind="game"}"#, 1.0);
    at_least("menagerie_live_games", 1.0);
    assert_eq!(value(&scrape, "menagerie_computer_searches_running"), Some(0.0), "{scrape}");
    assert_eq!(value(&scrape, "menagerie_computer_searches_queued"), Some(0.0), "{scrape}");
    assert!(scrape.contains("# TYPE menagerie_http_request_duration_seconds histogram"), "{scrape}");

    // The public port never shows them.
    assert_eq!(server.get("/metrics").await.0, 404);

    drop(socket);
    for _ in 0..200 {
        let scrape = client.get(format!("http://{metrics}/metrics")).send().await.unwrap().text().await.unwrap();
        if value(&scrape, r#"menagerie_sockets_open{kind="game"}"#) == Some(0.0) {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(25)).await;
    }
    panic!("the closed socket is still counted");
}

#[test]
fn the_grafana_dashboard_charts_every_metric_and_only_those() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../deploy/grafana-dashboard.json");
    let dashboard: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut charted = std::collections::BTreeSet::new();
    for panel in dashboard["panels"].as_array().unwrap() {
        for target in panel["targets"].as_array().unwrap() {
            let expr = target["expr"].as_str().unwrap();
            for (start, _) in expr.match_indices("menagerie_") {
                let name: String =
                    expr[start..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
                let name = ["_bucket", "_count", "_sum"]
                    .iter()
                    .fold(name, |n, s| n.strip_suffix(s).map_or(n.clone(), str::to_owned));
                charted.insert(name);
            }
        }
    }
    let exported: std::collections::BTreeSet<String> =
        menagerie_server::ops::metrics::NAMES.iter().map(|n| n.to_string()).collect();
    assert_eq!(charted, exported);
}
