//! Limits against floods: where one actor (an account, a client address,
//! an account name, a browser, a node for all who ask it) could burden
//! others, how many requests it may make in a window. Every limit is in
//! [`TABLE`], with the sentence its refusal says; docs/api.md states each
//! (a test holds them together).
//! The counts are in the store ([`crate::store::limits`]), so a limit
//! holds across nodes.
//!
//! The numbers follow lichess's where it has the same limit (its
//! `Limiters`, `PasswordHasher` and `Signup`), chosen so that a player
//! never meets them: a refusal is 429 `{"error": "<sentence>"}` with
//! `Retry-After` (seconds until a place frees in the window).

use crate::error::ApiError;
use crate::store::limits::{self as stored, Counted, Key};
use crate::store::AsyncStore;
use rand::Rng;
use sha2::{Digest, Sha256};
use std::net::IpAddr;
use std::time::Duration;

/// Whom a limit counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ActorKind {
    /// An account (its id).
    Account,
    /// A client address.
    Address,
    /// An account name as typed at login, whether or not an account has it
    /// (the limit tells nothing of which names exist).
    Name,
    /// A browser's device cookie, for one account (OWASP's: its owner's
    /// failed logins are counted apart from strangers').
    Device,
    /// A server process (its id for as long as it runs): work that costs
    /// this node's cores whoever asks for it.
    Node,
}

impl ActorKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ActorKind::Account => "account",
            ActorKind::Address => "address",
            ActorKind::Name => "name",
            ActorKind::Device => "device",
            ActorKind::Node => "node",
        }
    }
}

/// One limit: `count` requests of one actor in any `window`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limit {
    /// Its name in the store and in docs/api.md.
    pub name: &'static str,
    pub actor: ActorKind,
    pub window: Duration,
    pub count: u32,
    /// What a refusal says (one sentence).
    pub says: &'static str,
}

const TEN_MINUTES: Duration = Duration::from_secs(10 * 60);
const HOUR: Duration = Duration::from_secs(3600);
const DAY: Duration = Duration::from_secs(24 * 3600);

/// Challenges one account sends (lichess: 5 a minute and 40 a day to
/// players who do not follow it).
pub const CHALLENGES_PER_ACCOUNT: Limit = Limit {
    name: "challenge.account",
    actor: ActorKind::Account,
    window: TEN_MINUTES,
    count: 30,
    says: "You have sent too many challenges: wait a few minutes.",
};
pub const CHALLENGES_PER_ACCOUNT_DAY: Limit = Limit {
    name: "challenge.account.day",
    actor: ActorKind::Account,
    window: DAY,
    count: 200,
    says: "You have sent too many challenges today: try again tomorrow.",
};
/// Challenges from one address (lichess: 500 in 10 minutes).
pub const CHALLENGES_PER_ADDRESS: Limit = Limit {
    name: "challenge.address",
    actor: ActorKind::Address,
    window: TEN_MINUTES,
    count: 500,
    says: "Too many challenges from your address: wait a few minutes.",
};
/// Tournaments one account creates (lichess: 12 public ones a day).
pub const TOURNAMENTS_PER_ACCOUNT: Limit = Limit {
    name: "tournament.create.account",
    actor: ActorKind::Account,
    window: DAY,
    count: 12,
    says: "You have created too many tournaments today: try again tomorrow.",
};
/// Tournaments created from one address (lichess: 40 public ones a day).
pub const TOURNAMENTS_PER_ADDRESS: Limit = Limit {
    name: "tournament.create.address",
    actor: ActorKind::Address,
    window: DAY,
    count: 40,
    says: "Too many tournaments created from your address today: try again tomorrow.",
};
/// Joins (and the passwords of private tournaments they try) of one
/// account (lichess: 30 joins in 10 minutes).
pub const TOURNAMENT_JOINS_PER_ACCOUNT: Limit = Limit {
    name: "tournament.join.account",
    actor: ActorKind::Account,
    window: TEN_MINUTES,
    count: 30,
    says: "You have joined tournaments too often: wait a few minutes.",
};
/// Passwords of private tournaments tried from one address (each is an
/// Argon2 check): every account of that address together.
pub const TOURNAMENT_PASSWORDS_PER_ADDRESS: Limit = Limit {
    name: "tournament.password.address",
    actor: ActorKind::Address,
    window: TEN_MINUTES,
    count: 30,
    says: "Too many tournament passwords tried from your address: wait a few minutes.",
};
/// API tokens one account creates.
pub const TOKENS_PER_ACCOUNT: Limit = Limit {
    name: "token.create.account",
    actor: ActorKind::Account,
    window: HOUR,
    count: 20,
    says: "You have created too many API tokens: wait an hour.",
};
/// Puzzle batches one account sends (each up to 50 rounds, each round a
/// write of two ratings): far more than a person solves.
pub const PUZZLE_BATCHES_PER_ACCOUNT: Limit = Limit {
    name: "puzzle.batch.account",
    actor: ActorKind::Account,
    window: TEN_MINUTES,
    count: 120,
    says: "You have sent too many puzzle rounds: wait a few minutes.",
};
/// Computer reviews one account asks for (each a search of every
/// position of a game, some tens of seconds of a core): far more than a
/// player reads, few enough that one account cannot keep the queue full.
pub const REVIEWS_PER_ACCOUNT: Limit = Limit {
    name: "review.account",
    actor: ActorKind::Account,
    window: HOUR,
    count: 20,
    says: "You have asked for too many game reviews: wait an hour.",
};
/// Computer reviews one node starts, whoever asks: a crowd of accounts
/// cannot keep a node's review core busy all day.
pub const REVIEWS_PER_NODE: Limit = Limit {
    name: "review.node",
    actor: ActorKind::Node,
    window: HOUR,
    count: 200,
    says: "This server has reviewed as many games as it may this hour: try again later.",
};
/// Sign-ups from one address, each an Argon2 hash (lichess: 10 in 10
/// minutes and 150 a day).
pub const SIGNUPS_PER_ADDRESS: Limit = Limit {
    name: "signup.address",
    actor: ActorKind::Address,
    window: TEN_MINUTES,
    count: 10,
    says: "Too many accounts created from your address: wait a few minutes.",
};
pub const SIGNUPS_PER_ADDRESS_DAY: Limit = Limit {
    name: "signup.address.day",
    actor: ActorKind::Address,
    window: DAY,
    count: 150,
    says: "Too many accounts created from your address today: try again tomorrow.",
};
/// Password logins from one address, every attempt (lichess: 200 password
/// checks in 10 minutes). A browser trusted by the account it logs in to
/// (its device cookie) is not counted here.
pub const LOGINS_PER_ADDRESS: Limit = Limit {
    name: "login.address",
    actor: ActorKind::Address,
    window: TEN_MINUTES,
    count: 200,
    says: "Too many login attempts from your address: wait a few minutes.",
};
/// Failed logins to one account name from browsers it does not trust
/// (lichess: 10 password checks per name in 10 minutes). It locks
/// strangers out, never the owner's trusted browser.
pub const LOGIN_FAILURES_PER_NAME: Limit = Limit {
    name: "login.name",
    actor: ActorKind::Name,
    window: TEN_MINUTES,
    count: 10,
    says: "Too many failed logins to this account from unknown browsers: wait a few minutes, or log in from a browser you used before.",
};
/// Failed logins from one trusted browser to its account: they count
/// against that browser only.
pub const LOGIN_FAILURES_PER_DEVICE: Limit = Limit {
    name: "login.device",
    actor: ActorKind::Device,
    window: TEN_MINUTES,
    count: 10,
    says: "Too many failed logins from this browser: wait a few minutes.",
};

/// Password reset mails asked for one account name: a stranger cannot
/// fill an owner's mailbox (the address's logins count them too).
pub const PASSWORD_RESETS_PER_NAME: Limit = Limit {
    name: "password-reset.name",
    actor: ActorKind::Name,
    window: HOUR,
    count: 3,
    says: "Too many password resets asked for this account: wait an hour.",
};

/// Every limit, once (docs/api.md states each).
pub const TABLE: &[Limit] = &[
    CHALLENGES_PER_ACCOUNT,
    CHALLENGES_PER_ACCOUNT_DAY,
    CHALLENGES_PER_ADDRESS,
    TOURNAMENTS_PER_ACCOUNT,
    TOURNAMENTS_PER_ADDRESS,
    TOURNAMENT_JOINS_PER_ACCOUNT,
    TOURNAMENT_PASSWORDS_PER_ADDRESS,
    TOKENS_PER_ACCOUNT,
    PUZZLE_BATCHES_PER_ACCOUNT,
    REVIEWS_PER_ACCOUNT,
    REVIEWS_PER_NODE,
    SIGNUPS_PER_ADDRESS,
    SIGNUPS_PER_ADDRESS_DAY,
    LOGINS_PER_ADDRESS,
    LOGIN_FAILURES_PER_NAME,
    LOGIN_FAILURES_PER_DEVICE,
    PASSWORD_RESETS_PER_NAME,
];

/// How often a count also sweeps away what stopped coming (1 in this).
const SWEEP_ONE_IN: u32 = 64;

impl Limit {
    /// How the store keys `actor` (its SHA-256: the store keeps no
    /// address or name in the clear for this).
    pub fn actor_key(&self, actor: &str) -> String {
        let digest = Sha256::digest(format!("{}:{actor}", self.actor.as_str()).as_bytes());
        crate::secret::hex(&digest)
    }

    fn window_ms(&self) -> i64 {
        self.window.as_millis() as i64
    }
}

/// The longest window of [`TABLE`]: a hit older than this counts nowhere.
fn longest_window() -> Duration {
    TABLE.iter().map(|limit| limit.window).max().unwrap_or(DAY)
}

/// Whom a request is counted as, for one limit: the limit and the actor
/// (an account id, an address, a name, a device and account).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Charge {
    pub limit: &'static Limit,
    pub actor: String,
}

impl Charge {
    pub fn new(limit: &'static Limit, actor: impl Into<String>) -> Charge {
        Charge { limit, actor: actor.into() }
    }

    /// The charge of `limit` (an address limit) for `address`, if known.
    pub fn address(limit: &'static Limit, address: Option<IpAddr>) -> Option<Charge> {
        address.map(|address| Charge::new(limit, address.to_string()))
    }
}

/// The hits a count made, to be taken back ([`uncount`]) if the request
/// turns out not to count (a successful login counts no failure).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Hits(Vec<String>);

/// Counts the request against every charge, all or none, at `now` (ms);
/// refuses it (429, with `Retry-After`) if any is full.
pub async fn count_at(store: &AsyncStore, charges: Vec<Charge>, now: i64) -> Result<Hits, ApiError> {
    if charges.is_empty() {
        return Ok(Hits::default());
    }
    let ids: Vec<String> = charges.iter().map(|_| crate::secret::game_id()).collect();
    let sweep = (rand::rng().random_range(0..SWEEP_ONE_IN) == 0).then(|| now - longest_window().as_millis() as i64);
    let keyed: Vec<(String, &'static Limit)> = charges.iter().map(|c| (c.limit.actor_key(&c.actor), c.limit)).collect();
    let counted = store
        .transact(move |sql| {
            let keys: Vec<Key<'_>> = keyed
                .iter()
                .map(|(actor, limit)| Key { name: limit.name, actor, window_ms: limit.window_ms(), count: limit.count })
                .collect();
            stored::count(sql, &keys, &ids, now, sweep)
        })
        .await?;
    match counted {
        Counted::Yes(ids) => Ok(Hits(ids)),
        Counted::Full { key, free_at } => {
            let limit = charges[key].limit;
            let wait_ms = free_at.saturating_sub(now).max(0) as u64;
            Err(ApiError::too_many(limit.says, wait_ms.div_ceil(1000)))
        }
    }
}

/// [`count_at`] now.
pub async fn count(store: &AsyncStore, charges: Vec<Charge>) -> Result<Hits, ApiError> {
    count_at(store, charges, crate::clock::now_ms()).await
}

/// [`count`] of the charges given (an address limit without an address
/// counts nothing).
pub async fn count_some(
    store: &AsyncStore,
    charges: impl IntoIterator<Item = Option<Charge>>,
) -> Result<Hits, ApiError> {
    count(store, charges.into_iter().flatten().collect()).await
}

/// Takes back the hits of a count.
pub async fn uncount(store: &AsyncStore, hits: Hits) -> Result<(), ApiError> {
    if hits.0.is_empty() {
        return Ok(());
    }
    store
        .transact(move |sql| {
            for hit in &hits.0 {
                stored::uncount(sql, hit)?;
            }
            Ok(())
        })
        .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_limit_has_its_own_name_a_window_a_count_and_one_sentence() {
        let mut names: Vec<&str> = TABLE.iter().map(|l| l.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), TABLE.len(), "names are unique");
        for limit in TABLE {
            assert!(limit.count > 0 && limit.window >= Duration::from_secs(60), "{limit:?}");
            assert!(limit.says.ends_with('.') && !limit.says.contains('\n'), "{limit:?}");
        }
    }

    #[test]
    fn actors_are_keyed_by_kind_and_never_kept_in_the_clear() {
        let address = SIGNUPS_PER_ADDRESS.actor_key("10.0.0.1");
        assert_eq!(address.len(), 64);
        assert!(!address.contains("10.0.0.1"));
        assert_eq!(address, SIGNUPS_PER_ADDRESS_DAY.actor_key("10.0.0.1"), "one address, one key");
        assert_ne!(address, CHALLENGES_PER_ACCOUNT.actor_key("10.0.0.1"), "an account is not an address");
    }

    /// docs/api.md states every limit in its table: its name, its window
    /// and its count.
    #[test]
    fn the_api_documentation_states_every_limit() {
        let docs = include_str!("../../../docs/api.md");
        for limit in TABLE {
            let line = docs
                .lines()
                .find(|line| line.starts_with(&format!("| `{}` |", limit.name)))
                .unwrap_or_else(|| panic!("docs/api.md does not name the limit {}", limit.name));
            assert!(
                line.contains(&format!("| {} |", limit.count)),
                "{}: its count {} in {line}",
                limit.name,
                limit.count
            );
            assert!(
                line.contains(&format!("| {} |", window_words(limit.window))),
                "{}: its window in {line}",
                limit.name
            );
        }
    }

    fn window_words(window: Duration) -> String {
        match window.as_secs() {
            s if s % 86_400 == 0 => format!("{} day", s / 86_400),
            s if s % 3_600 == 0 => format!("{} hour", s / 3_600),
            s => format!("{} min", s / 60),
        }
    }
}
