//! The analysis board's socket (docs/api.md, "Analysis"): `GET
//! /api/analysis/ws` upgrades to a WebSocket on which the client asks for
//! positions to be analysed and the server streams each search's progress;
//! `GET /api/analysis` tells how many analyses run and may run.
//!
//! A socket runs one analysis at a time: a new request stops the one
//! running (and starts once that one has ended, so that a socket never
//! competes with itself for the caps), `{"type": "stop"}` stops it, and
//! closing the socket stops it.

use super::admission::SocketPass;
use super::client::ClientAddress;
use super::keepalive::LiveSocket;
use super::positions::PositionSource;
use crate::analysis::{analyse, Analyst, Event, MAX_ANALYSIS_DEPTH, MAX_ANALYSIS_TIME};
use crate::hub::Hub;
use axum::extract::ws::{Message, WebSocketUpgrade};
use axum::extract::{Extension, State};
use axum::response::Response;
use axum::Json;
use menagerie_ai::{Limits, StopFlag};
use menagerie_core::DynGame;
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::mpsc;

/// The largest message a client may send (a position text and moves).
const MAX_INCOMING: usize = 32 * 1024;

/// How long a new request waits for the socket's previous search, told to
/// stop, to give its place in the caps back (a search stops within
/// milliseconds; this bounds a stuck one).
const REPLACE_WAIT: Duration = Duration::from_secs(2);

/// Progress reports waiting to be sent, at most; more are dropped (the
/// next report says more).
const QUEUED_REPORTS: usize = 16;

pub async fn load(Extension(analyst): Extension<Arc<Analyst>>) -> Json<Value> {
    let (running, max) = analyst.load();
    Json(json!({ "running": running, "max": max }))
}

pub async fn upgrade(
    State(hub): State<Arc<Hub>>,
    Extension(analyst): Extension<Arc<Analyst>>,
    ClientAddress(client): ClientAddress,
    upgrade: WebSocketUpgrade,
    pass: SocketPass,
) -> Response {
    pass.upgrade(upgrade, "analysis", MAX_INCOMING, move |socket| serve(hub, analyst, client, socket))
}

/// What a client asks on the socket: `{"type": "analyse", ...}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AnalyseRequest {
    /// A position given by text: its variant string ...
    variant: Option<String>,
    /// ... and position text (`startpos` or none for the start).
    position: Option<String>,
    /// Moves played from the position first.
    #[serde(default)]
    moves: Vec<String>,
    /// Or a position of a game on this server: its id ...
    game: Option<String>,
    /// ... after this many moves (default: now) ...
    ply: Option<usize>,
    /// ... as this seat sees it (default: a spectator).
    seat: Option<String>,
    time_ms: Option<u64>,
    depth: Option<u32>,
    nodes: Option<u64>,
}

impl AnalyseRequest {
    /// The limits asked for, within the server's: every analysis ends
    /// within [`MAX_ANALYSIS_TIME`].
    fn limits(&self) -> Limits {
        let time = self.time_ms.map(Duration::from_millis).unwrap_or(MAX_ANALYSIS_TIME).min(MAX_ANALYSIS_TIME);
        Limits {
            time: Some(time),
            depth: self.depth.map(|d| d.clamp(1, MAX_ANALYSIS_DEPTH)),
            nodes: self.nodes,
            per_turn: false,
            near_best: None,
        }
    }

    /// The position to analyse, or why it may not be (as the board's
    /// `POST /api/analysis/position` resolves it).
    async fn position(&self, hub: &Hub) -> Result<Box<dyn DynGame>, String> {
        let source = PositionSource {
            variant: self.variant.as_deref(),
            position: self.position.as_deref(),
            game: self.game.as_deref(),
            ply: self.ply,
            seat: self.seat.as_deref(),
            moves: &self.moves,
        };
        source.resolve(hub).await.map(|resolved| resolved.game).map_err(|error| error.reason)
    }
}

/// Reads a client's message: an analysis request, or `stop`.
fn read(text: &str) -> Result<Option<AnalyseRequest>, String> {
    let mut value: Value = serde_json::from_str(text).map_err(|e| format!("malformed JSON: {e}"))?;
    let kind = value.as_object_mut().and_then(|o| o.remove("type"));
    match kind.as_ref().and_then(Value::as_str) {
        Some("analyse") => serde_json::from_value(value).map(Some).map_err(|e| e.to_string()),
        Some("stop") => Ok(None),
        _ => Err("expected {\"type\": \"analyse\", ...} or {\"type\": \"stop\"}".into()),
    }
}

async fn serve(hub: Arc<Hub>, analyst: Arc<Analyst>, client: Option<std::net::IpAddr>, mut socket: LiveSocket) {
    let (events, mut reports) = mpsc::channel::<(u64, Event)>(QUEUED_REPORTS);
    // The analysis running: its number and stop flag.
    let mut running: Option<(u64, StopFlag)> = None;
    // A search of this socket told to stop, whose thread still holds its
    // place in the caps until its end is reported ...
    let mut stopping: Option<u64> = None;
    // ... and the request that replaces it, started then (or at the
    // deadline): a socket's next position never waits on its own last one.
    let mut waiting: Option<(u64, AnalyseRequest, Instant)> = None;
    let mut searches = 0u64;
    loop {
        let deadline = waiting.as_ref().map(|(_, _, at)| *at);
        let mut outgoing = Vec::new();
        tokio::select! {
            incoming = socket.recv() => match incoming {
                None => break,
                Some(Message::Text(text)) => {
                    if let Some((search, stop)) = running.take() {
                        stop.stop();
                        stopping = Some(search);
                    }
                    waiting = None;
                    match read(&text) {
                        Ok(None) => continue,
                        Ok(Some(request)) => {
                            searches += 1;
                            if stopping.is_some() {
                                waiting = Some((searches, request, Instant::now() + REPLACE_WAIT));
                                continue;
                            }
                            outgoing.push(begin(&hub, &analyst, client, request, searches, &events, &mut running).await);
                        }
                        Err(error) => outgoing.push(json!({ "type": "error", "error": error })),
                    }
                }
                Some(_) => continue,
            },
            Some((search, event)) = reports.recv() => {
                let ended = matches!(event, Event::Done { .. } | Event::Failed(_));
                if ended && running.as_ref().is_some_and(|(n, _)| *n == search) {
                    running = None;
                }
                outgoing.push(match event {
                    Event::Info(progress) => json!({ "type": "info", "search": search, "info": progress }),
                    Event::Done { best, last } => json!({ "type": "done", "search": search, "best": best, "info": last }),
                    Event::Failed(error) => json!({ "type": "error", "search": search, "error": error }),
                });
                if ended && stopping == Some(search) {
                    stopping = None;
                    if let Some((number, request, _)) = waiting.take() {
                        outgoing.push(begin(&hub, &analyst, client, request, number, &events, &mut running).await);
                    }
                }
            }
            _ = sleep_until(deadline), if deadline.is_some() => {
                stopping = None;
                if let Some((number, request, _)) = waiting.take() {
                    outgoing.push(begin(&hub, &analyst, client, request, number, &events, &mut running).await);
                }
            }
        };
        for message in outgoing {
            // A client that takes nothing is gone, and must not hold its
            // analysis' place in the caps.
            if !socket.send_text(message.to_string()).await {
                if let Some((_, stop)) = running.take() {
                    stop.stop();
                }
                return;
            }
        }
    }
    // The socket is gone: so is its analysis.
    if let Some((_, stop)) = running {
        stop.stop();
    }
}

/// Sleeps until `deadline` (forever without one).
async fn sleep_until(deadline: Option<Instant>) {
    match deadline {
        Some(at) => tokio::time::sleep_until(at.into()).await,
        None => std::future::pending().await,
    }
}

/// Starts analysis number `search` and answers what the client is told:
/// `started`, or `error` (the analysis then does not run).
async fn begin(
    hub: &Hub,
    analyst: &Analyst,
    client: Option<std::net::IpAddr>,
    request: AnalyseRequest,
    search: u64,
    events: &mpsc::Sender<(u64, Event)>,
    running: &mut Option<(u64, StopFlag)>,
) -> Value {
    match start(hub, analyst, client, &request, search, events.clone()).await {
        Ok(stop) => {
            *running = Some((search, stop));
            json!({ "type": "started", "search": search })
        }
        Err(error) => json!({ "type": "error", "search": search, "error": error }),
    }
}

/// Starts analysis number `search` on a blocking thread; answers its stop flag.
async fn start(
    hub: &Hub,
    analyst: &Analyst,
    client: Option<std::net::IpAddr>,
    request: &AnalyseRequest,
    search: u64,
    events: mpsc::Sender<(u64, Event)>,
) -> Result<StopFlag, String> {
    let game = request.position(hub).await?;
    let admission = analyst.admit(client)?;
    let limits = request.limits();
    let stop = StopFlag::new();
    let flag = stop.clone();
    tokio::task::spawn_blocking(move || {
        let mut admission = Some(admission);
        analyse(game.as_ref(), limits, &flag, &mut |event| {
            // Progress may be dropped for a slow client; the end may not.
            match event {
                Event::Info(_) => {
                    let _ = events.try_send((search, event));
                }
                _ => {
                    // The search is over: its place in the caps is free
                    // before its end is told (the socket's next request
                    // may take it at once).
                    drop(admission.take());
                    let _ = events.blocking_send((search, event));
                }
            }
        });
    });
    Ok(stop)
}
