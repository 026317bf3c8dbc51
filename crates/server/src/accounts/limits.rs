//! Login rate limits, as lichess has them: per client address (every
//! attempt counts) and per account name (failed attempts count), each over
//! a sliding window. A name is limited whether or not an account has it,
//! so the limit tells nothing of which names exist.
//!
//! They live in this node's memory: with several nodes each holds its own
//! count, so a client spreading its attempts over N nodes gets N times the
//! limit (still bounded).

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Login attempts one client address may make per [`WINDOW`].
pub const ATTEMPTS_PER_ADDRESS: usize = 30;
/// Failed logins one account name may take per [`WINDOW`].
pub const FAILURES_PER_ACCOUNT: usize = 10;
/// The window the limits count over.
pub const WINDOW: Duration = Duration::from_secs(5 * 60);
/// Keys remembered at most (each of a few attempts' times): beyond, the
/// oldest windows are forgotten first.
const MAX_KEYS: usize = 100_000;

#[derive(Default)]
pub struct LoginLimits {
    addresses: Mutex<HashMap<IpAddr, Vec<Instant>>>,
    accounts: Mutex<HashMap<String, Vec<Instant>>>,
}

/// Counts `key`'s events in the window; true if one more is allowed.
fn allowed<K: std::hash::Hash + Eq>(
    map: &Mutex<HashMap<K, Vec<Instant>>>,
    key: &K,
    limit: usize,
    now: Instant,
) -> bool {
    let mut map = map.lock().unwrap_or_else(|p| p.into_inner());
    match map.get_mut(key) {
        None => true,
        Some(times) => {
            times.retain(|t| now.duration_since(*t) < WINDOW);
            times.len() < limit
        }
    }
}

fn record<K: std::hash::Hash + Eq + Clone>(map: &Mutex<HashMap<K, Vec<Instant>>>, key: &K, now: Instant) {
    let mut map = map.lock().unwrap_or_else(|p| p.into_inner());
    if map.len() >= MAX_KEYS && !map.contains_key(key) {
        map.retain(|_, times| times.last().is_some_and(|t| now.duration_since(*t) < WINDOW));
        if map.len() >= MAX_KEYS {
            return;
        }
    }
    map.entry(key.clone()).or_default().push(now);
}

impl LoginLimits {
    /// Whether a login for `username` from `address` may be tried now.
    /// Every attempt the address's limit lets through counts against it,
    /// refused for the name or not.
    pub fn admit(&self, address: Option<IpAddr>, username: &str) -> bool {
        let now = Instant::now();
        if let Some(address) = address {
            if !allowed(&self.addresses, &address, ATTEMPTS_PER_ADDRESS, now) {
                return false;
            }
            record(&self.addresses, &address, now);
        }
        // The attempt counts against the name at once (as a failure until
        // it succeeds): attempts in flight together cannot pass the limit
        // before the first of them is judged.
        let key = crate::store::accounts::username_key(username);
        let mut accounts = self.accounts.lock().unwrap_or_else(|p| p.into_inner());
        let times = accounts.entry(key).or_default();
        times.retain(|t| now.duration_since(*t) < WINDOW);
        if times.len() >= FAILURES_PER_ACCOUNT {
            return false;
        }
        times.push(now);
        if accounts.len() > MAX_KEYS {
            accounts.retain(|_, times| times.last().is_some_and(|t| now.duration_since(*t) < WINDOW));
        }
        true
    }

    /// A login admitted for the name succeeded: it does not count against
    /// the name (only failures do).
    pub fn succeeded(&self, username: &str) {
        let key = crate::store::accounts::username_key(username);
        let mut accounts = self.accounts.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(times) = accounts.get_mut(&key) {
            times.pop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_and_a_name_are_limited_apart() {
        let limits = LoginLimits::default();
        let (mallory, alice) = (Some("10.0.0.1".parse().unwrap()), Some("10.0.0.2".parse().unwrap()));
        for _ in 0..3 {
            assert!(limits.admit(mallory, "Ada"));
            limits.succeeded("Ada");
        }
        for _ in 0..FAILURES_PER_ACCOUNT {
            assert!(limits.admit(mallory, "Ada"), "successes do not count");
        }
        assert!(!limits.admit(mallory, "ada"), "the name is limited in any case");
        assert!(!limits.admit(alice, "ADA"), "from any address");
        assert!(limits.admit(alice, "bob"), "other names are not");
        for n in 0..ATTEMPTS_PER_ADDRESS - FAILURES_PER_ACCOUNT - 3 - 1 {
            assert!(limits.admit(mallory, &format!("name{n}")));
        }
        assert!(!limits.admit(mallory, "carol"), "the address is spent");
        assert!(limits.admit(alice, "carol"), "other addresses are not");
    }
}
