//! A browser's session for API tests: its cookies (the anonymous identity,
//! the account's session) kept between requests as a browser keeps them.

use super::{client_from, TestServer};
use serde_json::{json, Value};

/// A browser: its cookies (identity, session) by name.
pub struct Browser {
    pub client: reqwest::Client,
    pub base: String,
    pub cookies: Vec<(String, String)>,
    /// The `Set-Cookie` values of the last answer.
    pub set: Vec<String>,
}

impl Browser {
    pub fn new(server: &TestServer) -> Browser {
        Browser::from(server, "127.0.0.1")
    }

    pub fn from(server: &TestServer, ip: &str) -> Browser {
        Browser { client: client_from(ip), base: server.base.clone(), cookies: Vec::new(), set: Vec::new() }
    }

    pub async fn send(&mut self, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
        let url = format!("{}{path}", self.base);
        let mut request = match method {
            "GET" => self.client.get(url),
            _ => self.client.post(url).json(&body.unwrap_or(json!({}))),
        };
        let cookie = self.cookies.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join("; ");
        if !cookie.is_empty() {
            request = request.header("cookie", cookie);
        }
        let response = request.send().await.unwrap();
        let status = response.status().as_u16();
        self.set = response.headers().get_all("set-cookie").iter().map(|v| v.to_str().unwrap().to_owned()).collect();
        for set in &self.set {
            let pair = set.split(';').next().unwrap();
            let (name, value) = pair.split_once('=').unwrap();
            self.cookies.retain(|(k, _)| k != name);
            if !value.is_empty() {
                self.cookies.push((name.to_owned(), value.to_owned()));
            }
        }
        let text = response.text().await.unwrap();
        (status, serde_json::from_str(&text).unwrap_or(Value::Null))
    }

    pub async fn get(&mut self, path: &str) -> (u16, Value) {
        self.send("GET", path, None).await
    }

    pub async fn post(&mut self, path: &str, body: Value) -> (u16, Value) {
        self.send("POST", path, Some(body)).await
    }

    pub fn session(&self) -> Option<&str> {
        self.cookies.iter().find(|(k, _)| k == "menagerie_session").map(|(_, v)| v.as_str())
    }
}

impl Browser {
    /// The `Cookie` header this browser sends.
    pub fn cookie_header(&self) -> String {
        self.cookies.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join("; ")
    }
}
