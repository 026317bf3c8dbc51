//! lichess's API as its clients use it: requests with a bearer token and
//! lichess's bodies (a form or none), and accounts that have tokens.

use super::session::Browser;
use super::TestServer;
use serde_json::{json, Value};

/// A client of the API with one account's token.
pub struct Api {
    pub http: reqwest::Client,
    pub base: String,
    pub token: String,
}

impl Api {
    pub async fn get(&self, path: &str) -> (u16, Value) {
        let response = self.http.get(format!("{}{path}", self.base)).bearer_auth(&self.token).send().await.unwrap();
        answer(response).await
    }

    /// A POST with a form body (`&[]`: none), as lichess's clients send.
    pub async fn post_form(&self, path: &str, form: &[(&str, &str)]) -> (u16, Value) {
        let mut request = self.http.post(format!("{}{path}", self.base)).bearer_auth(&self.token);
        if !form.is_empty() {
            request = request.form(form);
        }
        answer(request.send().await.unwrap()).await
    }

    pub async fn post_json(&self, path: &str, body: Value) -> (u16, Value) {
        let request = self.http.post(format!("{}{path}", self.base)).bearer_auth(&self.token).json(&body);
        answer(request.send().await.unwrap()).await
    }

    /// A streamed GET (NDJSON), its response to read line by line.
    pub async fn stream(&self, path: &str) -> reqwest::Response {
        self.http.get(format!("{}{path}", self.base)).bearer_auth(&self.token).send().await.unwrap()
    }
}

async fn answer(response: reqwest::Response) -> (u16, Value) {
    let status = response.status().as_u16();
    let text = response.text().await.unwrap();
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// A new account (its browser, logged in) with a token of `scopes`.
pub async fn account_with_token(server: &TestServer, username: &str, scopes: &[&str]) -> (Browser, Api) {
    let mut browser = Browser::new(server);
    let (status, body) =
        browser.post("/api/register", json!({ "username": username, "password": "correct horse" })).await;
    assert_eq!(status, 201, "{body}");
    let (status, token) = browser.post("/api/tokens", json!({ "description": "test", "scopes": scopes })).await;
    assert_eq!(status, 201, "{token}");
    let api =
        Api { http: reqwest::Client::new(), base: server.base.clone(), token: token["token"].as_str().unwrap().into() };
    (browser, api)
}

/// Reads NDJSON lines from a streamed response: the next non-empty line
/// as JSON (keep-alive newlines skipped), `None` once it ends.
pub struct Lines {
    response: reqwest::Response,
    pending: Vec<u8>,
}

impl Lines {
    pub fn new(response: reqwest::Response) -> Lines {
        Lines { response, pending: Vec::new() }
    }

    pub async fn next(&mut self) -> Option<Value> {
        loop {
            if let Some(end) = self.pending.iter().position(|b| *b == b'\n') {
                let line: Vec<u8> = self.pending.drain(..=end).collect();
                let text = String::from_utf8(line).unwrap();
                if text.trim().is_empty() {
                    continue;
                }
                return Some(serde_json::from_str(text.trim()).unwrap());
            }
            let chunk = tokio::time::timeout(std::time::Duration::from_secs(30), self.response.chunk())
                .await
                .expect("a line within 30 s")
                .unwrap()?;
            self.pending.extend_from_slice(&chunk);
        }
    }

    /// The next line whose `type` is `kind` (others skipped), within a
    /// minute in all: keep-alives come every few seconds, so the wait for
    /// each chunk alone would never end if the line never came.
    pub async fn next_of(&mut self, kind: &str) -> Value {
        let wait = async {
            loop {
                let line = self.next().await.unwrap_or_else(|| panic!("the stream ended before a {kind}"));
                if line["type"] == kind {
                    return line;
                }
            }
        };
        tokio::time::timeout(std::time::Duration::from_secs(60), wait)
            .await
            .unwrap_or_else(|_| panic!("no {kind} within a minute"))
    }
}
