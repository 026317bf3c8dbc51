//! The browser's protections, on every response: what a page may load and
//! run (Content-Security-Policy: scripts and styles of this server only, no
//! inline script but the page's import map, known by its hash; no inline
//! style attribute), that no site may frame it (`frame-ancestors`), that a
//! file is what its `Content-Type` says (`nosniff`), and that no address
//! of this site (a game's `?seat=` secret) reaches another site in a
//! `Referer`.
//!
//! `connect-src 'self'` already lets a page open its WebSockets on its own
//! host in current browsers (CSP 3); older ones need the `ws:`/`wss:`
//! sources written out: the host the request named and every origin the
//! operator lists (`--public-url`, `--allowed-origin`: a page served
//! through a proxy under another name).

use super::origin::AllowedOrigins;
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderValue};
use axum::middleware::Next;
use axum::response::Response;
use std::sync::Arc;

/// What every response of this server carries.
#[derive(Debug)]
pub struct Protections {
    /// The policy's sources for sockets besides the request's own host
    /// (`wss://chess.example.org`), from the listed origins.
    listed_sockets: String,
    /// `'sha256-…'` of the page's inline import map.
    import_map: String,
}

impl Protections {
    pub fn new(allowed: &AllowedOrigins) -> Protections {
        let listed_sockets = allowed
            .origins()
            .map(|origin| {
                let scheme = if origin.is_secure() { "wss" } else { "ws" };
                let shown = origin.to_string();
                let authority = shown.split_once("://").map_or(shown.as_str(), |(_, rest)| rest);
                format!(" {scheme}://{authority}")
            })
            .collect();
        Protections { listed_sockets, import_map: crate::assets::page::import_map_source() }
    }

    /// The Content-Security-Policy of a document asked for at `host`.
    pub fn policy(&self, host: Option<&str>) -> String {
        let own = host.filter(|h| is_plain_host(h)).map(|h| format!(" ws://{h} wss://{h}")).unwrap_or_default();
        format!(
            "default-src 'self'; script-src 'self' {}; style-src 'self'; img-src 'self'; font-src 'self'; \
             connect-src 'self'{own}{}; media-src 'self'; object-src 'none'; base-uri 'none'; \
             form-action 'self'; frame-ancestors 'none'",
            self.import_map, self.listed_sockets
        )
    }
}

/// A `Host` fit to be written into the policy: a name or an address and a
/// port, nothing that could end a source or a directive.
fn is_plain_host(host: &str) -> bool {
    !host.is_empty()
        && host.len() <= 255
        && host.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b':' | b'[' | b']'))
}

/// Whether a response is a document a browser may show and run (a page,
/// an SVG opened on its own): the policy applies to it.
fn is_document(headers: &HeaderMap) -> bool {
    headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).is_some_and(|t| {
        let t = t.trim_start().to_ascii_lowercase();
        t.starts_with("text/html") || t.starts_with("image/svg+xml")
    })
}

/// The layer over every response (the fallback's and the refusals' too).
pub async fn apply(State(protections): State<Arc<Protections>>, request: Request, next: Next) -> Response {
    let host = request.headers().get(header::HOST).and_then(|v| v.to_str().ok()).map(str::to_owned);
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    headers.insert(header::REFERRER_POLICY, HeaderValue::from_static("same-origin"));
    if is_document(headers) {
        if let Ok(policy) = HeaderValue::from_str(&protections.policy(host.as_deref())) {
            headers.insert(header::CONTENT_SECURITY_POLICY, policy);
        }
        // frame-ancestors' forerunner, for browsers that predate it.
        headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::Origin;

    #[test]
    fn the_policy_allows_the_sockets_of_the_own_host_and_the_listed_origins() {
        let listed = AllowedOrigins::new(vec![
            Origin::parse("https://chess.example.org").unwrap(),
            Origin::parse("http://10.0.0.2:8080").unwrap(),
        ]);
        let policy = Protections::new(&listed).policy(Some("localhost:8080"));
        assert!(
            policy.contains(
                "connect-src 'self' ws://localhost:8080 wss://localhost:8080 wss://chess.example.org ws://10.0.0.2:8080;"
            ),
            "{policy}"
        );
        for directive in ["frame-ancestors 'none'", "object-src 'none'", "base-uri 'none'", "style-src 'self';"] {
            assert!(policy.contains(directive), "{directive}: {policy}");
        }
        assert!(!policy.contains("unsafe"), "{policy}");
        let script = policy.split("; ").find(|d| d.starts_with("script-src")).unwrap();
        assert!(script.starts_with("script-src 'self' 'sha256-") && script.ends_with("='"), "{script}");
    }

    #[test]
    fn a_host_that_could_change_the_policy_is_left_out() {
        let protections = Protections::new(&AllowedOrigins::default());
        for host in ["evil; script-src *", "a b", "", "x\"y", "h'ost"] {
            let policy = protections.policy(Some(host));
            assert!(policy.contains("connect-src 'self'; "), "{host:?}: {policy}");
        }
        assert!(protections.policy(Some("[::1]:8080")).contains("ws://[::1]:8080 wss://[::1]:8080"));
    }
}
