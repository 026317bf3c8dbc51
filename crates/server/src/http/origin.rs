//! Requests from other origins (docs/api.md, "Requests from other
//! origins"): one rule, applied to every route by one layer.
//!
//! A browser sends its cookies with a request whatever page made it, and a
//! page can make a form post or open a WebSocket to any site without asking.
//! So every request that may change something (any method but GET, HEAD and
//! OPTIONS) must declare a JSON body, which no page of another origin can
//! send without the server's leave (CORS, which this server never gives),
//! and, when it says where it comes from (`Origin`), come from this server's
//! own origin or one the operator listed. A WebSocket upgrade is held to the
//! same `Origin` rule before it upgrades.
//!
//! A request presenting an API token (`Authorization: Bearer`) is another
//! matter: a browser never adds the header on its own, so the token is no
//! ambient credential and the rule's reason is gone. Such a request may
//! come from anywhere and send lichess's bodies (forms, or none); in
//! exchange it is stripped of its cookies before any handler runs, so that
//! it acts with its token alone and never with a session or anonymous id
//! that came along.

use super::body::declares_json;
use crate::error::ApiError;
pub use crate::origin::Origin;
use axum::extract::{Request, State};
use axum::http::uri::Authority;
use axum::http::{header, HeaderMap, Method, StatusCode, Uri};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::sync::Arc;

/// The origins whose pages may change things here: the server's own (the
/// one a request's `Host` names) and those the operator lists
/// (`menagerie serve --allowed-origin`), for a site behind a proxy that
/// passes another `Host` on.
#[derive(Clone, Debug, Default)]
pub struct AllowedOrigins(Vec<Origin>);

impl AllowedOrigins {
    pub fn new(listed: Vec<Origin>) -> AllowedOrigins {
        AllowedOrigins(listed)
    }

    /// The origins the operator listed.
    pub fn origins(&self) -> impl Iterator<Item = &Origin> {
        self.0.iter()
    }

    fn allow(&self, origin: &[u8], host: Option<&str>) -> bool {
        // `null` (a sandboxed page, a file) and anything unreadable is foreign.
        let Some(origin) = std::str::from_utf8(origin).ok().and_then(|o| Origin::parse(o).ok()) else {
            return false;
        };
        self.0.contains(&origin) || host.is_some_and(|host| origin.is_host(host))
    }
}

/// The layer over every route: refuses, before its handler runs, a request
/// that may change something and is not JSON or comes from another origin,
/// and a WebSocket upgrade from another origin.
pub async fn guard(State(allowed): State<Arc<AllowedOrigins>>, mut request: Request, next: Next) -> Response {
    match admit(&allowed, &mut request) {
        Ok(()) => next.run(request).await,
        Err(error) => error.into_response(),
    }
}

/// The rule: an API request loses its cookies; any other is [`check`]ed.
fn admit(allowed: &AllowedOrigins, request: &mut Request) -> Result<(), ApiError> {
    if has_bearer_token(request.headers()) {
        request.headers_mut().remove(header::COOKIE);
        return Ok(());
    }
    check(allowed, request.method(), request.uri(), request.headers())
}

fn check(allowed: &AllowedOrigins, method: &Method, uri: &Uri, headers: &HeaderMap) -> Result<(), ApiError> {
    let changes = !matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS);
    let upgrade = is_websocket_upgrade(headers);
    if !changes && !upgrade {
        return Ok(());
    }
    if let Some(origin) = headers.get(header::ORIGIN) {
        let host = uri.authority().map(Authority::as_str).or_else(|| header_text(headers, header::HOST));
        if !allowed.allow(origin.as_bytes(), host) {
            return Err(ApiError::forbidden(if changes {
                "a page of another origin may not change anything here"
            } else {
                "a page of another origin may not open a socket here"
            }));
        }
    }
    if changes && !declares_json(headers) {
        return Err(ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "expected a JSON body (Content-Type: application/json), even an empty one",
        ));
    }
    Ok(())
}

fn header_text(headers: &HeaderMap, name: header::HeaderName) -> Option<&str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

fn is_websocket_upgrade(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::UPGRADE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|protocol| protocol.trim().eq_ignore_ascii_case("websocket"))
}

/// `Authorization: Bearer <token>`: an API client, never a browser on its own.
fn has_bearer_token(headers: &HeaderMap) -> bool {
    header_text(headers, header::AUTHORIZATION)
        .and_then(|v| v.trim().split_once(' '))
        .is_some_and(|(scheme, token)| scheme.eq_ignore_ascii_case("bearer") && !token.trim().is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn allowed(listed: &[&str], origin: &str, host: &str) -> bool {
        let listed = listed.iter().map(|o| Origin::parse(o).unwrap()).collect();
        AllowedOrigins::new(listed).allow(origin.as_bytes(), Some(host))
    }

    #[test]
    fn the_own_origin_is_the_one_host_names() {
        assert!(allowed(&[], "http://127.0.0.1:8080", "127.0.0.1:8080"));
        assert!(allowed(&[], "https://chess.example.org", "Chess.example.org"));
        assert!(allowed(&[], "http://chess.example.org", "chess.example.org:80"));
        assert!(allowed(&[], "http://[::1]:8080", "[::1]:8080"));
        assert!(!allowed(&[], "http://127.0.0.1:8081", "127.0.0.1:8080"), "another port is another origin");
        assert!(!allowed(&[], "http://evil.example.org", "chess.example.org"), "a sibling is another origin");
        assert!(!allowed(&[], "http://chess.example.org.evil", "chess.example.org"));
        assert!(!allowed(&[], "null", "chess.example.org"));
        assert!(!allowed(&[], "https://chess.example.org", "chess.example.org:8080"));
        assert!(allowed(&["https://chess.example.org"], "https://chess.example.org", "127.0.0.1:8080"), "listed");
        assert!(!allowed(&["https://chess.example.org"], "http://chess.example.org", "127.0.0.1:8080"));
    }

    #[test]
    fn only_changes_and_upgrades_are_checked() {
        let allowed = AllowedOrigins::default();
        let uri: Uri = "/api/seeks".parse().unwrap();
        let headers = |pairs: &[(&str, &str)]| {
            let mut map = HeaderMap::new();
            map.insert(header::HOST, "chess.example.org".parse().unwrap());
            for (name, value) in pairs {
                map.append(header::HeaderName::from_bytes(name.as_bytes()).unwrap(), value.parse().unwrap());
            }
            map
        };
        let status = |method: Method, pairs: &[(&str, &str)]| {
            check(&allowed, &method, &uri, &headers(pairs)).err().map(|e| e.status.as_u16())
        };
        let foreign = ("origin", "https://evil.example");
        let json = ("content-type", "application/json; charset=utf-8");
        let form = ("content-type", "application/x-www-form-urlencoded");
        assert_eq!(status(Method::GET, &[foreign]), None, "reading is anyone's");
        assert_eq!(status(Method::GET, &[foreign, ("upgrade", "WebSocket")]), Some(403));
        assert_eq!(status(Method::GET, &[("origin", "https://chess.example.org"), ("upgrade", "websocket")]), None);
        assert_eq!(status(Method::POST, &[json]), None);
        assert_eq!(status(Method::POST, &[json, ("origin", "http://chess.example.org")]), None);
        assert_eq!(status(Method::POST, &[json, foreign]), Some(403));
        assert_eq!(status(Method::POST, &[form]), Some(415));
        assert_eq!(status(Method::POST, &[("content-type", "text/plain")]), Some(415));
        assert_eq!(status(Method::DELETE, &[]), Some(415), "a bodiless change declares JSON too");
        assert_eq!(status(Method::POST, &[("content-type", "application/problem+json")]), None);
        assert_eq!(status(Method::POST, &[form, ("authorization", "Basic YTpi")]), Some(415));
    }

    /// A request with an API token passes whatever its origin and body,
    /// but reaches its handler without the cookies it came with.
    #[test]
    fn a_bearer_request_passes_without_its_cookies() {
        let send = |pairs: &[(&str, &str)]| {
            let mut request = Request::builder().method(Method::POST).uri("/api/x").header("host", "chess.example.org");
            for (name, value) in pairs {
                request = request.header(*name, *value);
            }
            let mut request = request.body(axum::body::Body::empty()).unwrap();
            match admit(&AllowedOrigins::default(), &mut request) {
                Err(error) => (error.status.as_u16(), String::new()),
                Ok(()) => {
                    let cookie = request.headers().get(header::COOKIE).map(|v| v.to_str().unwrap().to_owned());
                    (200, cookie.unwrap_or_else(|| "no cookie".into()))
                }
            }
        };
        let cookie = ("cookie", "menagerie_session=abc");
        let foreign = ("origin", "https://evil.example");
        let form = ("content-type", "application/x-www-form-urlencoded");
        let bearer = ("authorization", "Bearer mnp_abc");
        assert_eq!(send(&[cookie, foreign, form]).0, 403);
        assert_eq!(send(&[cookie, form]).0, 415);
        assert_eq!(send(&[cookie, ("content-type", "application/json")]), (200, "menagerie_session=abc".into()));
        assert_eq!(send(&[cookie, foreign, form, bearer]), (200, "no cookie".into()), "an API client, anywhere");
        assert_eq!(send(&[cookie, bearer]), (200, "no cookie".into()), "a bodiless API request");
        assert_eq!(send(&[cookie, foreign, ("authorization", "Bearer ")]).0, 403, "no token is no API client");
    }
}
