//! Personal API tokens and bot accounts (docs/api.md, "Bots and API
//! tokens"): made, listed and revoked with the session; `Authorization:
//! Bearer` authenticates lichess's API routes as the account, 401 for a
//! bad token and 403 for a missing scope; a token carries no cookie along;
//! closing the account ends its tokens; an account that has played no game
//! becomes a bot, and `GET /api/account` says so.

mod common;

use common::TestServer;
use reqwest::Method;
use serde_json::{json, Value};

struct Client {
    http: reqwest::Client,
    base: String,
}

/// What a request carries: a session cookie, a token, an `Origin`.
#[derive(Default, Clone, Copy)]
struct With<'a> {
    session: Option<&'a str>,
    token: Option<&'a str>,
    origin: Option<&'a str>,
}

impl Client {
    async fn send(&self, method: Method, path: &str, with: With<'_>, body: Option<Value>) -> (u16, Value, Vec<String>) {
        let mut request = self.http.request(method, format!("{}{path}", self.base));
        if let Some(session) = with.session {
            request = request.header("cookie", format!("menagerie_session={session}"));
        }
        if let Some(token) = with.token {
            request = request.bearer_auth(token);
        }
        if let Some(origin) = with.origin {
            request = request.header("origin", origin);
        }
        if let Some(body) = body {
            request = request.json(&body);
        }
        let response = request.send().await.unwrap();
        let status = response.status().as_u16();
        let cookies = response.headers().get_all("set-cookie").iter().map(|v| v.to_str().unwrap().to_owned()).collect();
        let text = response.text().await.unwrap();
        (status, serde_json::from_str(&text).unwrap_or(Value::Null), cookies)
    }

    /// A new account; answers its session token.
    async fn register(&self, username: &str) -> String {
        let body = json!({ "username": username, "password": "correct horse" });
        let (status, answer, cookies) = self.send(Method::POST, "/api/register", With::default(), Some(body)).await;
        assert_eq!(status, 201, "{answer}");
        let cookie = cookies.iter().find(|c| c.starts_with("menagerie_session=")).unwrap();
        cookie["menagerie_session=".len()..].split(';').next().unwrap().to_owned()
    }

    async fn new_token(&self, session: &str, scopes: &[&str]) -> Value {
        let with = With { session: Some(session), ..With::default() };
        let body = json!({ "description": "my bot", "scopes": scopes });
        let (status, token, _) = self.send(Method::POST, "/api/tokens", with, Some(body)).await;
        assert_eq!(status, 201, "{token}");
        token
    }
}

async fn start() -> (tempfile::TempDir, TestServer, Client) {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("g.sqlite")).await;
    let client = Client { http: reqwest::Client::new(), base: server.base.clone() };
    (dir, server, client)
}

fn bearer(token: &str) -> With<'_> {
    With { token: Some(token), ..With::default() }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_token_made_on_the_account_page_authenticates_the_api_until_revoked() {
    let (_dir, server, client) = start().await;
    let session = client.register("Ada").await;
    let with_session = With { session: Some(&session), ..With::default() };
    let made = client.new_token(&session, &["challenge:read", "bot:play"]).await;
    let token = made["token"].as_str().unwrap().to_owned();
    assert_eq!(made["scopes"], json!(["bot:play", "challenge:read"]), "{made}");
    assert_eq!(made["description"], "my bot");

    // The token is shown once: the list has its description, never itself.
    let (status, list, _) = client.send(Method::GET, "/api/tokens", with_session, None).await;
    assert_eq!(status, 200, "{list}");
    assert_eq!(list["tokens"].as_array().unwrap().len(), 1);
    assert_eq!(list["tokens"][0]["id"], made["id"]);
    assert!(!list.to_string().contains(&token), "{list}");

    // The token authenticates as the account (lichess's shape).
    let (status, account, _) = client.send(Method::GET, "/api/account", bearer(&token), None).await;
    assert_eq!(status, 200, "{account}");
    assert_eq!((account["id"].as_str(), account["username"].as_str()), (Some("ada"), Some("Ada")));
    assert!(account.get("title").is_none(), "not a bot yet: {account}");
    // A bad token is 401 (not the anonymous answer), whatever cookie came along.
    for bad in ["mnp_nosuchtokenxxxxxxxxxx", "lip_abc", "x"] {
        let with = With { session: Some(&session), token: Some(bad), ..With::default() };
        let (status, error, _) = client.send(Method::GET, "/api/account", with, None).await;
        assert_eq!(status, 401, "{bad}: {error}");
        assert!(error["error"].is_string());
    }
    // Bad requests for tokens say what is wrong.
    for body in [json!({ "description": "x", "scopes": ["email:read"] }), json!({ "description": "", "scopes": [] })] {
        let (status, error, _) = client.send(Method::POST, "/api/tokens", with_session, Some(body)).await;
        assert_eq!(status, 400, "{error}");
    }
    let (status, _, _) =
        client.send(Method::POST, "/api/tokens", With::default(), Some(json!({ "description": "x" }))).await;
    assert_eq!(status, 401, "tokens are made with a session");

    // A token is no session: it makes no tokens and closes nothing, even
    // with the session cookie beside it (which it leaves behind).
    let both = With { session: Some(&session), token: Some(&token), origin: Some("https://evil.example") };
    let (status, _, _) = client.send(Method::POST, "/api/tokens", both, Some(json!({ "description": "x" }))).await;
    assert_eq!(status, 401, "a token's request carries no cookie");
    let (status, _, _) = client.send(Method::GET, "/api/account/playing", both, None).await;
    assert_eq!(status, 401);
    // ...while from another origin, with no token, the cookie changes nothing (403).
    let foreign = With { session: Some(&session), origin: Some("https://evil.example"), ..With::default() };
    let (status, _, _) = client.send(Method::POST, "/api/tokens", foreign, Some(json!({ "description": "x" }))).await;
    assert_eq!(status, 403);

    // Revoked from the account page: the token opens nothing more.
    let other = client.new_token(&session, &[]).await;
    let path = format!("/api/tokens/{}", made["id"].as_str().unwrap());
    let (status, _, _) = client.send(Method::DELETE, &path, with_session, Some(json!({}))).await;
    assert_eq!(status, 204);
    let (status, _, _) = client.send(Method::DELETE, &path, with_session, Some(json!({}))).await;
    assert_eq!(status, 404, "revoked once");
    let (status, _, _) = client.send(Method::GET, "/api/account", bearer(&token), None).await;
    assert_eq!(status, 401);
    // ...or by itself (lichess's `DELETE /api/token`).
    let other = other["token"].as_str().unwrap();
    assert_eq!(client.send(Method::GET, "/api/account", bearer(other), None).await.0, 200);
    assert_eq!(client.send(Method::DELETE, "/api/token", bearer(other), None).await.0, 204);
    assert_eq!(client.send(Method::GET, "/api/account", bearer(other), None).await.0, 401);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn closing_an_account_ends_its_tokens() {
    let (_dir, server, client) = start().await;
    let session = client.register("ada").await;
    let token = client.new_token(&session, &["board:play"]).await["token"].as_str().unwrap().to_owned();
    assert_eq!(client.send(Method::GET, "/api/account", bearer(&token), None).await.0, 200);
    let with_session = With { session: Some(&session), ..With::default() };
    let body = json!({ "password": "correct horse" });
    assert_eq!(client.send(Method::POST, "/api/account/close", with_session, Some(body)).await.0, 204);
    assert_eq!(client.send(Method::GET, "/api/account", bearer(&token), None).await.0, 401);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_account_that_has_played_no_game_becomes_a_bot_with_the_bot_scope() {
    let (_dir, server, client) = start().await;
    let session = client.register("robot").await;
    let board = client.new_token(&session, &["board:play"]).await["token"].as_str().unwrap().to_owned();
    let (status, error, _) = client.send(Method::POST, "/api/bot/account/upgrade", bearer(&board), None).await;
    assert_eq!(status, 403, "a missing scope: {error}");
    assert!(error["error"].as_str().unwrap().contains("bot:play"), "{error}");
    let (status, _, _) = client.send(Method::POST, "/api/bot/account/upgrade", With::default(), Some(json!({}))).await;
    assert_eq!(status, 401, "no token");
    let bot = client.new_token(&session, &["bot:play"]).await["token"].as_str().unwrap().to_owned();
    // Form-encoded or bodiless, from anywhere: lichess's clients send no JSON.
    let anywhere = With { token: Some(&bot), origin: Some("https://elsewhere.example"), ..With::default() };
    let (status, answer, _) = client.send(Method::POST, "/api/bot/account/upgrade", anywhere, None).await;
    assert_eq!((status, &answer), (200, &json!({ "ok": true })));
    let (_, account, _) = client.send(Method::GET, "/api/account", bearer(&board), None).await;
    assert_eq!(account["title"], "BOT", "{account}");
    let with_session = With { session: Some(&session), ..With::default() };
    let (_, account, _) = client.send(Method::GET, "/api/account", with_session, None).await;
    assert_eq!(account["title"], "BOT", "on the account page too: {account}");

    // The bot's games name it as one (the game page shows "BOT robot").
    let game = json!({ "variant": "nim", "opponent": "friend" });
    let (status, game, _) = client.send(Method::POST, "/api/games", with_session, Some(game)).await;
    assert_eq!(status, 201, "{game}");
    let path = format!("/api/games/{}/players", game["id"].as_str().unwrap());
    let (_, players, _) = client.send(Method::GET, &path, With::default(), None).await;
    let you = game["you"].as_str().unwrap();
    assert_eq!(players[you], "robot", "{players}");
    assert_eq!(players["titles"], json!({ you: "BOT" }), "{players}");
    // And so does its profile (the page shows "BOT robot"); a person's has no title.
    let (_, profile, _) = client.send(Method::GET, "/api/user/robot", With::default(), None).await;
    assert_eq!(profile["title"], "BOT", "{profile}");

    // Someone who has played stays a person.
    let player = client.register("player").await;
    let with_player = With { session: Some(&player), ..With::default() };
    let game = json!({ "variant": "nim", "opponent": "friend" });
    assert_eq!(client.send(Method::POST, "/api/games", with_player, Some(game)).await.0, 201);
    let token = client.new_token(&player, &["bot:play"]).await["token"].as_str().unwrap().to_owned();
    let (status, error, _) = client.send(Method::POST, "/api/bot/account/upgrade", bearer(&token), None).await;
    assert_eq!(status, 400, "{error}");
    let (_, account, _) = client.send(Method::GET, "/api/account", bearer(&token), None).await;
    assert!(account.get("title").is_none(), "{account}");
    let (_, profile, _) = client.send(Method::GET, "/api/user/player", With::default(), None).await;
    assert!(profile.get("title").is_none(), "{profile}");
    let games = client.send(Method::GET, "/api/account/playing", with_player, None).await.1;
    let path = format!("/api/games/{}/players", games["nowPlaying"][0]["gameId"].as_str().unwrap());
    let (_, players, _) = client.send(Method::GET, &path, With::default(), None).await;
    assert_eq!(players["titles"], json!({}), "{players}");
    server.stop().await;
}
