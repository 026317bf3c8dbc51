//! The socket flood (`menagerie loadtest --idle-sockets N`): one client
//! address opens N game sockets and leaves them idle (it never reads them,
//! so it answers no ping), then times plain requests, each on a new
//! connection as a new visitor's would be. A server that lets sockets take
//! the places plain requests need answers none of them.

use futures_util::StreamExt;
use serde_json::{json, Value};
use std::fmt;
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;

#[derive(Clone, Debug)]
pub struct FloodOptions {
    /// Sockets asked for.
    pub sockets: usize,
    /// The game the sockets watch is of this variant.
    pub variant: String,
    /// How long the plain requests go on being timed after the flood (one
    /// round at once, then one every 10 s until this has passed).
    pub hold: Duration,
    /// The server's process, to read its memory (Linux: `/proc/PID/status`).
    pub server_pid: Option<u32>,
}

/// Plain requests timed in each round.
const REQUESTS: usize = 10;
/// How long a socket's upgrade or a plain request may take before it
/// counts as unanswered.
const PATIENCE: Duration = Duration::from_secs(10);
/// Upgrades asked for at once.
const AT_ONCE: usize = 64;
/// Between two rounds of plain requests while the sockets are held.
const ROUND_EVERY: Duration = Duration::from_secs(10);

#[derive(Clone, Debug, Default)]
pub struct FloodReport {
    pub asked: usize,
    pub opened: usize,
    /// Refusals by status.
    pub refused: Vec<(u16, usize)>,
    /// Upgrades not answered within [`PATIENCE`].
    pub unanswered: usize,
    pub failed: usize,
    /// The server's resident memory before the flood and with the sockets open, KiB.
    pub memory_kib: Option<(u64, u64)>,
    pub rounds: Vec<Round>,
}

/// Plain requests timed at one moment of the flood.
#[derive(Clone, Debug)]
pub struct Round {
    /// Since the sockets were opened.
    pub at: Duration,
    pub answered: usize,
    pub asked: usize,
    pub p50_ms: f64,
    pub max_ms: f64,
}

impl fmt::Display for FloodReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let refused: Vec<String> = self.refused.iter().map(|(status, n)| format!("{n} with {status}")).collect();
        writeln!(
            f,
            "idle sockets: {} asked, {} opened, refused: {}, unanswered after {} s: {}, failed: {}",
            self.asked,
            self.opened,
            if refused.is_empty() { "none".to_owned() } else { refused.join(", ") },
            PATIENCE.as_secs(),
            self.unanswered,
            self.failed
        )?;
        if let Some((before, after)) = self.memory_kib {
            let grown = after.saturating_sub(before);
            write!(f, "server memory: {before} KiB before, {after} KiB with the sockets open (+{grown} KiB")?;
            if self.opened > 0 {
                write!(f, ", {:.1} KiB a socket", grown as f64 / self.opened as f64)?;
            }
            writeln!(f, ")")?;
        }
        for (i, round) in self.rounds.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(
                f,
                "plain requests {:.0} s after: {} of {} answered within {} s",
                round.at.as_secs_f64(),
                round.answered,
                round.asked,
                PATIENCE.as_secs()
            )?;
            if round.answered > 0 {
                write!(f, " (p50 {:.2} ms, max {:.2} ms)", round.p50_ms, round.max_ms)?;
            }
        }
        Ok(())
    }
}

enum Upgrade {
    Opened(Box<dyn Send>),
    Refused(u16),
    Unanswered,
    Failed,
}

/// Floods the server at `base` (`http://host:port`) with idle sockets.
pub async fn flood(base: &str, options: &FloodOptions) -> Result<FloodReport, String> {
    let client = reqwest::Client::new();
    let created: Value = client
        .post(format!("{base}/api/games"))
        .json(&json!({ "variant": options.variant, "opponent": "friend" }))
        .send()
        .await
        .map_err(|e| format!("creating a game: {e}"))?
        .json()
        .await
        .map_err(|e| format!("creating a game: {e}"))?;
    let id = created["id"].as_str().ok_or_else(|| format!("creating a game: {created}"))?;
    // The pooled connection would hold one of the server's places.
    drop(client);
    let url = format!("{}/api/games/{id}/ws", base.replacen("http", "ws", 1));
    let mut report = FloodReport { asked: options.sockets, ..FloodReport::default() };
    let before = options.server_pid.and_then(resident_kib);

    // The client keeps its side small: its memory is not what is measured.
    let config = WebSocketConfig::default().read_buffer_size(4096);
    let upgrades: Vec<Upgrade> = futures_util::stream::iter(0..options.sockets)
        .map(|_| {
            let url = url.clone();
            async move {
                let upgrade = tokio_tungstenite::connect_async_with_config(url, Some(config), true);
                match tokio::time::timeout(PATIENCE, upgrade).await {
                    Ok(Ok((socket, _))) => Upgrade::Opened(Box::new(socket)),
                    Ok(Err(tokio_tungstenite::tungstenite::Error::Http(response))) => {
                        Upgrade::Refused(response.status().as_u16())
                    }
                    Ok(Err(_)) => Upgrade::Failed,
                    Err(_) => Upgrade::Unanswered,
                }
            }
        })
        .buffer_unordered(AT_ONCE)
        .collect()
        .await;
    let mut held = Vec::new();
    for upgrade in upgrades {
        match upgrade {
            Upgrade::Opened(socket) => held.push(socket),
            Upgrade::Refused(status) => match report.refused.iter_mut().find(|(s, _)| *s == status) {
                Some((_, n)) => *n += 1,
                None => report.refused.push((status, 1)),
            },
            Upgrade::Unanswered => report.unanswered += 1,
            Upgrade::Failed => report.failed += 1,
        }
    }
    report.opened = held.len();
    let flooded = Instant::now();
    // The server's memory once the refused connections are gone.
    tokio::time::sleep(Duration::from_secs(1)).await;
    report.memory_kib = before.zip(options.server_pid.and_then(resident_kib));

    loop {
        report.rounds.push(round(base, flooded.elapsed()).await);
        if flooded.elapsed() + ROUND_EVERY > options.hold {
            break;
        }
        tokio::time::sleep(ROUND_EVERY).await;
    }
    drop(held);
    Ok(report)
}

/// Times [`REQUESTS`] plain requests, one after another, each on a new connection.
async fn round(base: &str, at: Duration) -> Round {
    let mut times = Vec::new();
    for _ in 0..REQUESTS {
        let Ok(client) = reqwest::Client::builder().pool_max_idle_per_host(0).build() else { continue };
        let started = Instant::now();
        let answer = tokio::time::timeout(PATIENCE, client.get(format!("{base}/api/variants")).send()).await;
        if matches!(answer, Ok(Ok(ref response)) if response.status().is_success()) {
            times.push(started.elapsed());
        }
    }
    times.sort_unstable();
    let ms = |d: Option<&Duration>| d.map_or(0.0, |d| d.as_secs_f64() * 1000.0);
    Round {
        at,
        answered: times.len(),
        asked: REQUESTS,
        p50_ms: ms(times.get(times.len() / 2)),
        max_ms: ms(times.last()),
    }
}

/// A process's resident memory in KiB (Linux).
fn resident_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}
