//! Limits against floods (docs/api.md, "Limits"): where one actor could
//! burden others, its requests beyond a limit's count in its window are
//! refused with 429, lichess's `{"error": "<sentence>"}` and `Retry-After`,
//! and count for nothing: challenges (one account flooding another's
//! bell), tournaments created, API tokens, sign-ups from one address,
//! tournament passwords tried. The numbers are the table's
//! (`menagerie_server::limits`).

mod common;

use common::session::Browser;
use common::TestServer;
use menagerie_server::limits::{self, Limit};
use serde_json::{json, Value};

async fn start() -> (tempfile::TempDir, TestServer) {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("g.sqlite")).await;
    (dir, server)
}

async fn account(server: &TestServer, name: &str, ip: &str) -> Browser {
    let mut browser = Browser::from(server, ip);
    let (status, body) =
        browser.post("/api/register", json!({ "username": name, "password": "correct horse battery" })).await;
    assert_eq!(status, 201, "{body}");
    browser
}

/// A POST with the browser's cookies: the status, `Retry-After` and body.
async fn post(browser: &Browser, path: &str, body: Value) -> (u16, Option<u64>, Value) {
    let response = browser
        .client
        .post(format!("{}{path}", browser.base))
        .header("cookie", browser.cookie_header())
        .json(&body)
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    let retry = response.headers().get("retry-after").map(|v| v.to_str().unwrap().parse().unwrap());
    (status, retry, response.json().await.unwrap_or(Value::Null))
}

/// Sends `attempts` requests made by `request` (given their number):
/// exactly `limit.count` are taken (`taken` statuses), then each is refused
/// with 429, the limit's sentence and a wait within its window. Answers
/// the statuses taken.
async fn flood<F, Fut>(limit: &Limit, attempts: usize, taken: &[u16], request: F)
where
    F: Fn(usize) -> Fut,
    Fut: std::future::Future<Output = (u16, Option<u64>, Value)>,
{
    for n in 0..attempts {
        let (status, retry, body) = request(n).await;
        if n < limit.count as usize {
            assert!(taken.contains(&status), "{}: request {n} refused: {status} {body}", limit.name);
            assert_eq!(retry, None, "{}: request {n}", limit.name);
        } else {
            assert_eq!(status, 429, "{}: request {n} taken: {body}", limit.name);
            assert_eq!(body, json!({ "error": limit.says }), "{}: lichess's shape, one sentence", limit.name);
            let wait = retry.unwrap_or_else(|| panic!("{}: no Retry-After", limit.name));
            assert!((1..=limit.window.as_secs()).contains(&wait), "{}: Retry-After {wait}", limit.name);
        }
    }
}

/// A thousand challenges to one player gave them a thousand notices: now
/// the challenger's count stops at 30 in ten minutes, and only those reach
/// the bell.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn challenges_are_limited_per_account_and_only_those_sent_reach_the_bell() {
    let (_dir, server) = start().await;
    let ada = account(&server, "Ada", "127.0.0.2").await;
    let mut bob = account(&server, "Bob", "127.0.0.3").await;
    let limit = &limits::CHALLENGES_PER_ACCOUNT;
    flood(limit, limit.count as usize + 5, &[200], |_| post(&ada, "/api/challenge/Bob", json!({ "variant": "nim" })))
        .await;
    let (status, notices) = bob.get("/api/notifications").await;
    assert_eq!(status, 200, "{notices}");
    assert_eq!(notices["unread"], limit.count, "{notices}");
    // Another challenger is not limited by Ada's count.
    let cyd = account(&server, "Cyd", "127.0.0.4").await;
    assert_eq!(post(&cyd, "/api/challenge/Bob", json!({ "variant": "nim" })).await.0, 200);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tournaments_and_tokens_made_are_limited_per_account() {
    let (_dir, server) = start().await;
    let ada = account(&server, "Ada", "127.0.0.2").await;
    let arena = |n: usize| {
        json!({ "name": format!("Arena {n}"), "variant": "nim", "clockTime": 1,
                                   "clockIncrement": 0, "minutes": 10, "waitMinutes": 60 })
    };
    let limit = &limits::TOURNAMENTS_PER_ACCOUNT;
    flood(limit, limit.count as usize + 2, &[201], |n| post(&ada, "/api/tournament", arena(n))).await;
    let (_, listed) = server.get("/api/tournament").await;
    assert_eq!(listed["created"].as_array().unwrap().len(), limit.count as usize, "{listed}");
    // A bad request counts for nothing (it is refused before the limit).
    assert_eq!(post(&ada, "/api/tournament", json!({ "variant": "nope" })).await.0, 400);

    let limit = &limits::TOKENS_PER_ACCOUNT;
    flood(limit, limit.count as usize + 2, &[201], |_| {
        post(&ada, "/api/tokens", json!({ "description": "a bot", "scopes": ["bot:play"] }))
    })
    .await;
    let bob = account(&server, "Bob", "127.0.0.3").await;
    assert_eq!(post(&bob, "/api/tokens", json!({ "description": "mine" })).await.0, 201, "bob's count is his");
    server.stop().await;
}

/// Each sign-up is an Argon2 hash: one address makes ten in ten minutes;
/// another address is not held back by it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sign_ups_are_limited_per_address() {
    let (_dir, server) = start().await;
    let limit = &limits::SIGNUPS_PER_ADDRESS;
    let signup = |n: usize| {
        let browser = Browser::from(&server, "127.0.0.20");
        async move {
            post(&browser, "/api/register", json!({ "username": format!("user{n}"), "password": "a long password" }))
                .await
        }
    };
    flood(limit, limit.count as usize + 2, &[201], signup).await;
    account(&server, "elsewhere", "127.0.0.21").await;
    server.stop().await;
}

/// A private tournament's password cannot be guessed without end: one
/// account's joins and one address's passwords are counted; the right
/// password from elsewhere still joins.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tournament_passwords_are_limited() {
    let (_dir, server) = start().await;
    let ada = account(&server, "Ada", "127.0.0.2").await;
    let body = json!({ "name": "Club", "variant": "nim", "clockTime": 1, "clockIncrement": 0, "minutes": 10,
                       "waitMinutes": 60, "password": "the club's secret" });
    let (status, _, created) = post(&ada, "/api/tournament", body).await;
    assert_eq!(status, 201, "{created}");
    let join = format!("/api/tournament/{}/join", created["id"].as_str().unwrap());
    let mallory = account(&server, "Mallory", "127.0.0.9").await;
    let limit = &limits::TOURNAMENT_JOINS_PER_ACCOUNT;
    flood(limit, limit.count as usize + 3, &[403], |n| {
        post(&mallory, &join, json!({ "password": format!("guess {n}") }))
    })
    .await;
    // The right password now: still refused, the count is full.
    assert_eq!(post(&mallory, &join, json!({ "password": "the club's secret" })).await.0, 429);
    // Another account of the same address: the address's count is full too.
    let trudy = account(&server, "Trudy", "127.0.0.9").await;
    assert_eq!(post(&trudy, &join, json!({ "password": "guess" })).await.0, 429);
    let bob = account(&server, "Bob", "127.0.0.3").await;
    assert_eq!(post(&bob, &join, json!({ "password": "the club's secret" })).await.0, 200);
    server.stop().await;
}
