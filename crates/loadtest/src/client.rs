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
    /// back, the hardest load). Pauses are uniform in 0..2×think_ms. Games
    /// also begin after such a pause, so that the server meets them as it
    /// meets players: arriving over time, not all in one instant.
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
    run_against_nodes(&[base.to_owned()], options).await
}

/// Runs the load test against several servers on one database (`http://host:port`
/// each): each game is created on one, watched through a socket on the next, and
/// its moves go to each in turn, so every move crosses nodes. A node that stops
/// answering is skipped (its moves retried on the next, its socket reconnected):
/// a move counts as made once a server acknowledged it, or once a server shows it
/// stored after its acknowledgement was lost.
pub async fn run_against_nodes(bases: &[String], options: &LoadOptions) -> Result<LoadReport, String> {
    if bases.is_empty() {
        return Err("no server address to test".into());
    }
    let client =
        reqwest::Client::builder().pool_max_idle_per_host(options.games.max(1)).build().map_err(|e| e.to_string())?;
    let started = Instant::now();
    let tasks: Vec<_> = (0..options.games)
        .map(|index| {
            let (client, options) = (client.clone(), options.clone());
            let nodes = Nodes { bases: bases.to_vec(), first: index % bases.len() };
            tokio::spawn(async move { play_one(&client, &nodes, &options).await })
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

/// A player's pause before acting, if the test has players think.
async fn think(options: &LoadOptions) {
    if options.think_ms > 0 {
        let pause = rand::Rng::random_range(&mut rand::rng(), 0..=2 * options.think_ms);
        tokio::time::sleep(Duration::from_millis(pause)).await;
    }
}

/// The servers one game uses, from its own first one on.
struct Nodes {
    bases: Vec<String>,
    first: usize,
}

impl Nodes {
    /// The node for the `k`th request of a kind.
    fn at(&self, k: usize) -> &str {
        &self.bases[(self.first + k) % self.bases.len()]
    }

    fn len(&self) -> usize {
        self.bases.len()
    }
}

/// How long a game's client keeps trying when servers do not answer.
const PATIENCE: Duration = Duration::from_secs(30);

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
    ply: usize,
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

/// Why a request failed: the server did not answer (it may be gone), or it
/// answered with an error.
enum Failure {
    Unreachable(String),
    Refused(String),
}

impl From<Failure> for String {
    fn from(failure: Failure) -> String {
        match failure {
            Failure::Unreachable(e) => format!("no answer: {e}"),
            Failure::Refused(e) => e,
        }
    }
}

async fn try_send<T: DeserializeOwned>(request: reqwest::RequestBuilder) -> Result<T, Failure> {
    let response = request.send().await.map_err(|e| Failure::Unreachable(e.to_string()))?;
    let status = response.status();
    let body = response.bytes().await.map_err(|e| Failure::Unreachable(e.to_string()))?;
    if !status.is_success() {
        let reason = serde_json::from_slice::<ErrorAnswer>(&body).map(|e| e.error).unwrap_or_default();
        return Err(Failure::Refused(format!("{status}: {reason}")));
    }
    serde_json::from_slice(&body).map_err(|e| Failure::Refused(format!("unexpected answer: {e}")))
}

/// Sends `request(base)` to the nodes from the `k`th on, moving to the next
/// while one does not answer, until one answers or patience runs out.
async fn send_any<T: DeserializeOwned>(
    nodes: &Nodes,
    k: usize,
    request: impl Fn(&str) -> reqwest::RequestBuilder,
) -> Result<T, String> {
    let deadline = Instant::now() + PATIENCE;
    let mut attempt = 0;
    loop {
        match try_send(request(nodes.at(k + attempt))).await {
            Err(Failure::Unreachable(e)) if Instant::now() < deadline => {
                attempt += 1;
                if attempt % nodes.len() == 0 {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
                let _ = e;
            }
            other => return other.map_err(String::from),
        }
    }
}

/// Plays one local game (both secrets) and checks it afterwards.
async fn play_one(client: &reqwest::Client, nodes: &Nodes, options: &LoadOptions) -> Result<GameResult, String> {
    think(options).await;
    let created: Value = send_any(nodes, 0, |base| {
        client.post(format!("{base}/api/games")).json(&json!({
            "variant": options.variant, "opponent": "local", "colour": "first"
        }))
    })
    .await?;
    let id = created["id"].as_str().ok_or("no id")?.to_owned();
    let secret = |side: &str| created["secrets"][side].as_str().map(str::to_owned);
    let secrets = [secret("first").ok_or("no first secret")?, secret("second").ok_or("no second secret")?];

    // A socket watching as a spectator, on another node than the moves'
    // first: it must end up showing every move, in order.
    let watcher = Watcher::start(nodes, &id);

    let mut made = Vec::new();
    let mut latencies = Vec::new();
    let mut state: Seen =
        send_any(nodes, 0, |base| client.get(format!("{base}/api/games/{id}?seat={}", secrets[0]))).await?;
    while made.len() < options.max_plies && state.result.is_none() {
        let side = match state.to_act.as_deref() {
            Some("first") => 0,
            Some("second") => 1,
            other => return Err(format!("unexpected actor {other:?}")),
        };
        think(options).await;
        let k = made.len();
        // The legal moves come with the state when it is the answering
        // seat's turn (as the page uses them); else they are asked for.
        let listed = match state.legal_moves.take().filter(|_| state.your_turn) {
            Some(list) => list,
            None => legal_moves(client, nodes, k, &id, &secrets[side], state.ply).await?,
        };
        let Some(choice) = listed.choose(&mut rand::rng()).cloned() else { break };
        let sent = Instant::now();
        state = play(client, nodes, k, &id, &secrets[side], &choice, state.ply).await?;
        latencies.push(sent.elapsed());
        made.push(choice);
    }

    // What the server has: its players' moves must be exactly ours.
    let server_state: Seen =
        send_any(nodes, made.len() + 1, |base| client.get(format!("{base}/api/games/{id}"))).await?;
    let stored: Vec<String> =
        server_state.moves.into_iter().filter(|m| m.actor != "chance").filter_map(|m| m.text).collect();
    let common = made.iter().zip(&stored).take_while(|(a, b)| a == b).count();
    let lost = made.len() - common;
    let duplicated = stored.len() - common;
    let socket_ok = watcher.saw_in_order(server_state.ply).await;
    Ok(GameResult { moves: made.len(), lost, duplicated, socket_miss: !socket_ok, latencies })
}

/// The legal moves at `ply`, asked of the nodes from the `k`th on. A node
/// other than the one that took the last move may not have heard of it yet
/// (it hears within milliseconds): ask again until it has.
async fn legal_moves(
    client: &reqwest::Client,
    nodes: &Nodes,
    k: usize,
    id: &str,
    secret: &str,
    ply: usize,
) -> Result<Vec<String>, String> {
    let deadline = Instant::now() + PATIENCE;
    loop {
        let answer =
            send_any::<SeenMoves>(nodes, k, |base| client.get(format!("{base}/api/games/{id}/moves?seat={secret}")))
                .await;
        let behind = match answer {
            Ok(answer) if answer.ply >= ply => return Ok(answer.moves),
            Ok(answer) => format!("a node stayed at ply {} after ply {ply} was acknowledged", answer.ply),
            // In a game with hidden cards a node that has not heard of the
            // last move yet refuses this seat the list (not its turn there).
            Err(refused) if refused.starts_with("403") && nodes.len() > 1 => refused,
            Err(other) => return Err(other),
        };
        if Instant::now() >= deadline {
            return Err(format!("game {id}: {behind}"));
        }
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
}

/// Plays `choice` at `ply` through the nodes from the `k`th on. If a node
/// took the move but its answer was lost (it died), the next node shows the
/// move stored: that is the acknowledgement.
async fn play(
    client: &reqwest::Client,
    nodes: &Nodes,
    k: usize,
    id: &str,
    secret: &str,
    choice: &str,
    ply: usize,
) -> Result<Seen, String> {
    let deadline = Instant::now() + PATIENCE;
    let mut attempt = 0;
    loop {
        let base = nodes.at(k + attempt);
        let request = client
            .post(format!("{base}/api/games/{id}/move"))
            .json(&json!({ "seat": secret, "move": choice, "ply": ply }));
        let failure = match try_send::<Seen>(request).await {
            Ok(state) => return Ok(state),
            Err(failure) => failure,
        };
        attempt += 1;
        if Instant::now() >= deadline {
            return Err(String::from(failure));
        }
        // Was it stored anyway? Ask the next node that answers.
        let now: Seen =
            send_any(nodes, k + attempt, |base| client.get(format!("{base}/api/games/{id}?seat={secret}"))).await?;
        let stored = now.moves.get(ply).and_then(|m| m.text.as_deref());
        if now.ply > ply {
            return match stored {
                Some(text) if text == choice => Ok(now),
                _ => Err(format!(
                    "move {ply} of game {id} is {stored:?}, not the {choice:?} sent ({})",
                    String::from(failure)
                )),
            };
        }
        if let Failure::Refused(reason) = failure {
            return Err(reason);
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// A spectator's socket on a game, reconnected to the next node whenever it
/// closes: what ply it last showed, and whether plies ever went backwards on
/// one connection.
struct Watcher {
    last_seen: tokio::sync::watch::Receiver<usize>,
    out_of_order: std::sync::Arc<std::sync::atomic::AtomicBool>,
    task: tokio::task::JoinHandle<()>,
}

impl Watcher {
    fn start(nodes: &Nodes, id: &str) -> Watcher {
        let (last_seen_tx, last_seen) = tokio::sync::watch::channel(0usize);
        let out_of_order = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let urls: Vec<String> = (0..nodes.len())
            .map(|k| format!("{}/api/games/{id}/ws", nodes.at(k + 1).replacen("http", "ws", 1)))
            .collect();
        let disorder = std::sync::Arc::clone(&out_of_order);
        let task = tokio::spawn(async move {
            for attempt in 0.. {
                let url = &urls[attempt % urls.len()];
                let Ok((socket, _)) = tokio_tungstenite::connect_async(url).await else {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                };
                let (_, mut incoming) = socket.split();
                let mut previous = None;
                while let Some(Ok(message)) = incoming.next().await {
                    let Ok(text) = message.to_text() else { continue };
                    let Ok(state) = serde_json::from_str::<JustPly>(text) else { continue };
                    if previous.is_some_and(|p| state.ply < p) {
                        disorder.store(true, std::sync::atomic::Ordering::Relaxed);
                    }
                    previous = Some(state.ply);
                    last_seen_tx.send_if_modified(|seen| {
                        let newer = state.ply > *seen;
                        *seen = (*seen).max(state.ply);
                        newer
                    });
                }
            }
        });
        Watcher { last_seen, out_of_order, task }
    }

    /// Whether the socket came to show `ply` (within 10 s), never going back.
    async fn saw_in_order(mut self, ply: usize) -> bool {
        let seen = tokio::time::timeout(Duration::from_secs(10), self.last_seen.wait_for(|&seen| seen >= ply)).await;
        self.task.abort();
        matches!(seen, Ok(Ok(_))) && !self.out_of_order.load(std::sync::atomic::Ordering::Relaxed)
    }
}
