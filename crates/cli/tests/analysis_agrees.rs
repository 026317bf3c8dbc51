//! `menagerie analyse` and the web's analysis board agree: the same
//! position with the same limits (a depth, one thread) gets the same best
//! move, score and best line from the command and from the server's
//! analysis socket, in every game of perfect information.

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use std::process::Command;
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

/// What the command line prints at the end of `analyse`: the best move,
/// the score's words (`cp 124`, `win 3`), the line and the depth reached.
fn cli_analysis(variant: &str, position: &str, depth: u32) -> (String, String, String, String) {
    let run = Command::new(env!("CARGO_BIN_EXE_menagerie"))
        .args(["analyse", variant, "--position", position, "--depth", &depth.to_string(), "--threads", "1"])
        .output()
        .expect("menagerie runs");
    let out = String::from_utf8_lossy(&run.stdout).into_owned();
    assert!(run.status.success(), "{variant}: {}", String::from_utf8_lossy(&run.stderr));
    let field = |name: &str| {
        out.lines()
            .find_map(|line| line.strip_prefix(name))
            .map(|rest| rest.trim().to_owned())
            .unwrap_or_else(|| panic!("{variant}: no {name} in\n{out}"))
    };
    let score = field("score:");
    // `cp 124 (124 centi-units for white)`: the words before the gloss.
    let score = score.split(" (").next().unwrap().to_owned();
    let depth = field("depth:").split_whitespace().next().unwrap().to_owned();
    (field("best move:"), score, field("pv:"), depth)
}

/// The same, asked of the analysis socket of a server on loopback.
async fn web_analysis(address: &str, variant: &str, position: &str, depth: u32) -> (String, String, String, String) {
    let (mut socket, _) = tokio_tungstenite::connect_async(format!("ws://{address}/api/analysis/ws")).await.unwrap();
    let request = json!({ "type": "analyse", "variant": variant, "position": position, "moves": [], "depth": depth });
    socket.send(Message::Text(request.to_string().into())).await.unwrap();
    loop {
        let message = tokio::time::timeout(Duration::from_secs(60), socket.next()).await.unwrap().unwrap().unwrap();
        let Message::Text(text) = message else { continue };
        let message: Value = serde_json::from_str(&text).unwrap();
        match message["type"].as_str() {
            Some("done") => {
                let info = &message["info"];
                let score = match info["score"].as_object().and_then(|s| s.iter().next()) {
                    Some((kind, value)) => format!("{kind} {value}"),
                    None => panic!("{variant}: no score in {message}"),
                };
                let pv: Vec<&str> = info["pv"].as_array().unwrap().iter().map(|m| m.as_str().unwrap()).collect();
                return (message["best"].as_str().unwrap().to_owned(), score, pv.join(" "), info["depth"].to_string());
            }
            Some("error") => panic!("{variant}: {message}"),
            _ => {}
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_command_and_the_web_give_the_same_analysis() {
    let dir = tempfile::tempdir().unwrap();
    let hub = menagerie_server::sqlite_hub(&dir.path().join("games.sqlite"), Default::default()).unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap().to_string();
    let server = menagerie_server::spawn(listener, hub);
    let cases = [
        ("lma", "startpos", 4),
        ("lma-double", "startpos", 3),
        ("fluid", "startpos", 3),
        ("lichen-3x3", "startpos", 2),
        // Blue's Warrior on F6 steps to F5, the fourth Victory Tile.
        ("kelasu", "10/10/S9/10/4WW4/4W1W3/10/s9/w9/10 blue 1 - 0 1", 3),
    ];
    for (variant, position, depth) in cases {
        let cli = tokio::task::spawn_blocking(move || cli_analysis(variant, position, depth)).await.unwrap();
        let web = web_analysis(&address, variant, position, depth).await;
        assert_eq!(cli, web, "{variant} {position} at depth {depth}: the command (left) and the web (right)");
    }
    server.abort();
}
