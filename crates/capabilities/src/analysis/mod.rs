//! The analysis board's searches: a position searched on a blocking
//! thread, its progress (depth, score, best line) streamed to the client
//! that asked, stopped when that client stops it, asks for another, or
//! goes away.
//!
//! The server bounds analysis apart from the computer's moves in games:
//! analyses take permits of their own ([`Analyst`]: a global cap and a cap
//! per client address), so a crowd of analysts never delays a game's
//! computer player for a permit, and each search is bounded in time.
//!
//! Hidden information: a position given as text is searched as given (its
//! sender knows it). A position of a server game with hidden information
//! that is not over is searched only for the seat that must act, at the
//! current move, by a searcher that decides from that seat's view
//! (information-set MCTS); nobody else may have it analysed.

mod search;

pub use search::{analyse, Event, Progress};

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// The longest an analysis may run; one asked for longer, or for no limit,
/// runs this long.
pub const MAX_ANALYSIS_TIME: Duration = Duration::from_secs(30);

/// The deepest an alpha-beta analysis may go.
pub const MAX_ANALYSIS_DEPTH: u32 = 64;

/// Analyses running at once from one client address, at most.
pub const PER_CLIENT: usize = 2;

/// The caps on analysis, shared by every socket of a server.
#[derive(Debug)]
pub struct Analyst {
    global: Arc<Semaphore>,
    max: usize,
    per_client: usize,
    clients: Arc<Mutex<HashMap<IpAddr, usize>>>,
}

/// A running analysis' hold on the caps: released when dropped (when its
/// search thread ends).
#[derive(Debug)]
pub struct Admission {
    _permit: OwnedSemaphorePermit,
    client: Option<IpAddr>,
    clients: Arc<Mutex<HashMap<IpAddr, usize>>>,
}

impl Drop for Admission {
    fn drop(&mut self) {
        if let Some(client) = self.client {
            let mut clients = self.clients.lock().unwrap_or_else(|p| p.into_inner());
            if let Some(count) = clients.get_mut(&client) {
                *count -= 1;
                if *count == 0 {
                    clients.remove(&client);
                }
            }
        }
    }
}

impl Default for Analyst {
    /// Half the machine's cores (at least one) at once, [`PER_CLIENT`] per client.
    fn default() -> Self {
        let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(2);
        Analyst::new((cores / 2).max(1), PER_CLIENT)
    }
}

impl Analyst {
    pub fn new(max: usize, per_client: usize) -> Analyst {
        let max = max.max(1);
        Analyst { global: Arc::new(Semaphore::new(max)), max, per_client: per_client.max(1), clients: Arc::default() }
    }

    /// How many analyses run now, and how many may.
    pub fn load(&self) -> (usize, usize) {
        (self.max - self.global.available_permits(), self.max)
    }

    /// A place for one more analysis from `client`, or why there is none.
    pub fn admit(&self, client: Option<IpAddr>) -> Result<Admission, String> {
        let mut clients = self.clients.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(client) = client {
            if clients.get(&client).copied().unwrap_or(0) >= self.per_client {
                return Err(format!("at most {} analyses at once from one client", self.per_client));
            }
        }
        let permit = Arc::clone(&self.global)
            .try_acquire_owned()
            .map_err(|_| format!("the server runs as many analyses as it may ({}): try again shortly", self.max))?;
        if let Some(client) = client {
            *clients.entry(client).or_insert(0) += 1;
        }
        Ok(Admission { _permit: permit, client, clients: Arc::clone(&self.clients) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caps_hold_globally_and_per_client_and_free_on_drop() {
        let analyst = Analyst::new(3, 2);
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let b: IpAddr = "10.0.0.2".parse().unwrap();
        let first = analyst.admit(Some(a)).unwrap();
        let _second = analyst.admit(Some(a)).unwrap();
        assert!(analyst.admit(Some(a)).unwrap_err().contains("from one client"));
        let _third = analyst.admit(Some(b)).unwrap();
        assert_eq!(analyst.load(), (3, 3));
        assert!(analyst.admit(Some(b)).unwrap_err().contains("as many analyses as it may"));
        drop(first);
        assert_eq!(analyst.load(), (2, 3));
        let _again = analyst.admit(Some(a)).unwrap();
    }
}
