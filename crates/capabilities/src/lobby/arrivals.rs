//! New players per client address: a fixed window of a minute per address,
//! so that one client cannot mint identities to multiply what each player
//! may hold (seeks, lobby sockets).

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// Addresses whose window is remembered, at most (a few MiB).
const MAX_TRACKED: usize = 65_536;

pub struct Arrivals {
    limit: u32,
    window: Duration,
    /// Each address's window: when it began and how many arrived in it.
    windows: Mutex<HashMap<IpAddr, (Instant, u32)>>,
}

impl Arrivals {
    /// At most `limit` arrivals from one address within each `window`.
    pub fn new(limit: u32, window: Duration) -> Arrivals {
        Arrivals { limit, window, windows: Mutex::default() }
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<IpAddr, (Instant, u32)>> {
        self.windows.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Counts an arrival from `client` at `now`; false if its window is full.
    pub fn arrive(&self, client: IpAddr, now: Instant) -> bool {
        let mut windows = self.lock();
        if let Some((began, count)) = windows.get_mut(&client) {
            if now.saturating_duration_since(*began) >= self.window {
                (*began, *count) = (now, 0);
            }
            if *count >= self.limit {
                return false;
            }
            *count += 1;
            return true;
        }
        if windows.len() >= MAX_TRACKED {
            windows.retain(|_, (began, _)| now.saturating_duration_since(*began) < self.window);
        }
        // More addresses arriving within one window than are remembered
        // (a client with that many addresses is not held by a per-address
        // limit anyway): the newcomer is let in uncounted rather than every
        // new address refused.
        if windows.len() < MAX_TRACKED {
            windows.insert(client, (now, 1));
        }
        true
    }

    #[cfg(test)]
    fn tracked(&self) -> usize {
        self.lock().len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_address_has_its_window_and_the_table_is_bounded() {
        let arrivals = Arrivals::new(2, Duration::from_secs(60));
        let (a, b): (IpAddr, IpAddr) = ("10.0.0.1".parse().unwrap(), "10.0.0.2".parse().unwrap());
        let start = Instant::now();
        assert!(arrivals.arrive(a, start) && arrivals.arrive(a, start));
        assert!(!arrivals.arrive(a, start + Duration::from_secs(59)), "a third within the minute");
        assert!(arrivals.arrive(b, start), "another address has its own");
        assert!(arrivals.arrive(a, start + Duration::from_secs(60)), "a new minute");

        // A crowd of addresses: the table keeps at most MAX_TRACKED, and
        // makes room once their windows are over.
        let later = start + Duration::from_secs(120);
        for n in 0..MAX_TRACKED as u32 + 10 {
            assert!(arrivals.arrive(IpAddr::V4(n.into()), later));
        }
        assert_eq!(arrivals.tracked(), MAX_TRACKED);
        assert!(arrivals.arrive(a, later + Duration::from_secs(60)));
        assert!(arrivals.tracked() < 10);
    }
}
