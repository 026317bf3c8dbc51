//! The load test's client: many games at once against a server, each played
//! with random legal moves through the HTTP API while a WebSocket per game
//! watches; afterwards every game's stored moves are compared with the moves
//! the client made.

use futures_util::StreamExt;
use rand::seq::IndexedRandom;
use serde::de::{DeserializeOwned, IgnoredAny};
use serde::Deserialize;
use serde_json::{json, Value};
use std::fmt;
use std::time::{Duration, Instant};

#[derive(Clone, Debug)]
pub struct LoadOptions {
    pub games: usize,
    pub variant: String,
    pub max_plies: usize,
    /// Mean pause before each move, as a player thinking (0: moves back to
    /// back, the hardest load). Pauses are uniform in 0..2×think_ms.
    pub think_ms: u64,
}

#[derive(Clone, Debug, Default)]
pub struct LoadReport {
    pub games: usize,
    pub moves: usize,
    /// Moves the client made that the server does not have.
    pub lost: usize,
    /// Moves the server has that the client did not make (or has twice).
    pub duplicated: usize,
    /// Games whose socket did not end up showing every move.
    pub socket_misses: usize,
    pub errors: usize,
    pub first_error: Option<String>,
    /// Move round trip (POST until the committed answer), milliseconds.
    pub p50_ms: f64,
    pub p99_ms: f64,
    pub max_ms: f64,
    pub elapsed: Duration,
}

impl fmt::Display for LoadReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "games: {}  moves: {}  in {:.2} s ({:.0} moves/s)",
            self.games,
            self.moves,
            self.elapsed.as_secs_f64(),
            self.moves as f64 / self.elapsed.as_secs_f64().max(1e-9)
        )?;
        writeln!(
            f,
            "lost: {}  duplicated: {}  socket misses: {}  errors: {}",
            self.lost, self.duplicated, self.socket_misses, self.errors
        )?;
        if let Some(error) = &self.first_error {
            writeln!(f, "first error: {error}")?;
        }
        write!(f, "move round trip: p50 {:.2} ms  p99 {:.2} ms  max {:.2} ms", self.p50_ms, self.p99_ms, self.max_ms)
    }
}

struct GameResult {
    moves: usize,
    lost: usize,
    duplicated: usize,
    socket_miss: bool,
    latencies: Vec<Duration>,
}

/// Runs the load test against the server at `base` (`http://host:port`).
pub async fn run_against(base: &str, options: &LoadOptions) -> Result<LoadReport, String> {
    let client =
        reqwest::Client::builder().pool_max_idle_per_host(options.games.max(1)).build().map_err(|e| e.to_string())?;
    let started = Instant::now();
    let tasks: Vec<_> = (0..options.games)
        .map(|_| {
            let (client, base, options) = (client.clone(), base.to_owned(), options.clone());
            tokio::spawn(async move { play_one(&client, &base, &options).await })
        })
        .collect();
    let mut report = LoadReport { games: options.games, ..LoadReport::default() };
    let mut latencies = Vec::new();
    for task in tasks {
        match task.await.map_err(|e| e.to_string()).and_then(|r| r) {
            Ok(game) => {
                report.moves += game.moves;
                report.lost += game.lost;
                report.duplicated += game.duplicated;
                report.socket_misses += usize::from(game.socket_miss);
                latencies.extend(game.latencies);
            }
            Err(error) => {
                report.errors += 1;
                report.first_error.get_or_insert(error);
            }
        }
    }
    report.elapsed = started.elapsed();
    latencies.sort_unstable();
    let at = |q: f64| {
        latencies.get(((latencies.len() as f64 - 1.0) * q).round() as usize).map_or(0.0, |d| d.as_secs_f64() * 1000.0)
    };
    (report.p50_ms, report.p99_ms, report.max_ms) = (at(0.50), at(0.99), at(1.0));
    Ok(report)
}

/// What the client reads of a game's state (the rest is skipped unparsed:
/// the client shares the machine with the server it measures).
#[derive(Deserialize)]
struct Seen {
    ply: usize,
    to_act: Option<String>,
    your_turn: bool,
    legal_moves: Option<Vec<String>>,
    result: Option<IgnoredAny>,
    #[serde(default)]
    moves: Vec<SeenMove>,
}

#[derive(Deserialize)]
struct SeenMove {
    text: Option<String>,
    actor: String,
}

#[derive(Deserialize)]
struct SeenMoves {
    moves: Vec<String>,
}

#[derive(Deserialize)]
struct JustPly {
    ply: usize,
}

#[derive(Deserialize)]
struct ErrorAnswer {
    error: String,
}

async fn send<T: DeserializeOwned>(request: reqwest::RequestBuilder) -> Result<T, String> {
    let response = request.send().await.map_err(|e| e.to_string())?;
    let status = response.status();
    let body = response.bytes().await.map_err(|e| e.to_string())?;
    if !status.is_success() {
        let reason = serde_json::from_slice::<ErrorAnswer>(&body).map(|e| e.error).unwrap_or_default();
        return Err(format!("{status}: {reason}"));
    }
    serde_json::from_slice(&body).map_err(|e| format!("unexpected answer: {e}"))
}

/// Plays one local game (both secrets) and checks it afterwards.
async fn play_one(client: &reqwest::Client, base: &str, options: &LoadOptions) -> Result<GameResult, String> {
    let created: Value = send(client.post(format!("{base}/api/games")).json(&json!({
        "variant": options.variant, "opponent": "local", "colour": "first"
    })))
    .await?;
    let id = created["id"].as_str().ok_or("no id")?.to_owned();
    let secret = |side: &str| created["secrets"][side].as_str().map(str::to_owned);
    let secrets = [secret("first").ok_or("no first secret")?, secret("second").ok_or("no second secret")?];

    // A socket watching as a spectator: it must end up showing every move.
    let ws_url = format!("{}/api/games/{id}/ws", base.replacen("http", "ws", 1));
    let (socket, _) = tokio_tungstenite::connect_async(&ws_url).await.map_err(|e| format!("socket: {e}"))?;
    let (_, mut incoming) = socket.split();
    let (last_seen_tx, last_seen) = tokio::sync::watch::channel(0usize);
    let watcher = tokio::spawn(async move {
        while let Some(Ok(message)) = incoming.next().await {
            if let Ok(text) = message.to_text() {
                if let Ok(state) = serde_json::from_str::<JustPly>(text) {
                    last_seen_tx.send_replace(state.ply);
                }
            }
        }
    });

    let mut made = Vec::new();
    let mut latencies = Vec::new();
    let mut state: Seen = send(client.get(format!("{base}/api/games/{id}?seat={}", secrets[0]))).await?;
    while made.len() < options.max_plies && state.result.is_none() {
        let side = match state.to_act.as_deref() {
            Some("first") => 0,
            Some("second") => 1,
            other => return Err(format!("unexpected actor {other:?}")),
        };
        if options.think_ms > 0 {
            let pause = rand::Rng::random_range(&mut rand::rng(), 0..=2 * options.think_ms);
            tokio::time::sleep(Duration::from_millis(pause)).await;
        }
        // The legal moves come with the state when it is the answering
        // seat's turn (as the page uses them); else they are asked for.
        let listed = match state.legal_moves.take().filter(|_| state.your_turn) {
            Some(list) => list,
            None => {
                let url = format!("{base}/api/games/{id}/moves?seat={}", secrets[side]);
                send::<SeenMoves>(client.get(url)).await?.moves
            }
        };
        let Some(choice) = listed.choose(&mut rand::rng()).cloned() else { break };
        let sent = Instant::now();
        state = send(client.post(format!("{base}/api/games/{id}/move")).json(&json!({
            "seat": secrets[side], "move": choice, "ply": state.ply
        })))
        .await?;
        latencies.push(sent.elapsed());
        made.push(choice);
    }

    // What the server has: its players' moves must be exactly ours.
    let server_state: Seen = send(client.get(format!("{base}/api/games/{id}"))).await?;
    let stored: Vec<String> =
        server_state.moves.into_iter().filter(|m| m.actor != "chance").filter_map(|m| m.text).collect();
    let common = made.iter().zip(&stored).take_while(|(a, b)| a == b).count();
    let lost = made.len() - common;
    let duplicated = stored.len() - common;
    let final_ply = server_state.ply;
    let mut last_seen = last_seen;
    let socket_ok = tokio::time::timeout(Duration::from_secs(10), last_seen.wait_for(|&seen| seen >= final_ply)).await;
    watcher.abort();
    Ok(GameResult { moves: made.len(), lost, duplicated, socket_miss: !matches!(socket_ok, Ok(Ok(_))), latencies })
}
