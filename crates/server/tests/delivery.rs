//! How the page reaches a browser (docs/api.md, "The page"): every answer
//! carries the browser's protections (a Content-Security-Policy without
//! inline script or style on every document, `frame-ancestors 'none'`,
//! `nosniff`, a `Referrer-Policy`); the page and its files go out
//! compressed (brotli or gzip, as asked) but no API stream does; each file
//! has an address naming its content, kept for a year, and the page's
//! import map sends every import of every module there; what has no such
//! address is tagged and answered 304 while unchanged. `GET /api/session`
//! answers a logged-out browser without an error.

mod common;

use base64::Engine as _;
use common::session::Browser;
use common::TestServer;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use std::io::Read as _;

struct Answer {
    status: u16,
    headers: reqwest::header::HeaderMap,
    body: Vec<u8>,
}

impl Answer {
    fn header(&self, name: &str) -> &str {
        self.headers.get(name).map(|v| v.to_str().unwrap()).unwrap_or_default()
    }

    /// The body as sent, decompressed as its `Content-Encoding` says.
    fn text(&self) -> String {
        let mut out = Vec::new();
        match self.header("content-encoding") {
            "br" => brotli::BrotliDecompress(&mut &self.body[..], &mut out).expect("brotli"),
            "gzip" => drop(flate2::read::GzDecoder::new(&self.body[..]).read_to_end(&mut out).expect("gzip")),
            "" => out = self.body.clone(),
            other => panic!("an encoding nobody asked for: {other}"),
        }
        String::from_utf8(out).expect("text")
    }
}

async fn get(server: &TestServer, path: &str, headers: &[(&str, &str)]) -> Answer {
    let mut request = server.client.get(format!("{}{path}", server.base));
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let response = request.send().await.unwrap();
    let (status, headers) = (response.status().as_u16(), response.headers().clone());
    Answer { status, headers, body: response.bytes().await.unwrap().to_vec() }
}

async fn start() -> (tempfile::TempDir, TestServer) {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("g.sqlite")).await;
    (dir, server)
}

/// The page's inline import map, as it stands between its tags.
fn import_map_of(page: &str) -> String {
    let start = page.find("<script type=\"importmap\">").expect("an import map") + "<script type=\"importmap\">".len();
    page[start..start + page[start..].find("</script>").unwrap()].to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_answer_carries_the_browsers_protections() {
    let (_dir, server) = start().await;
    let game = server.create(json!({ "variant": "lunch", "opponent": "local" })).await;
    let id = game["id"].as_str().unwrap();
    let page = get(&server, "/", &[]).await;
    let map = import_map_of(&page.text());
    let map_hash = format!("'sha256-{}'", base64::engine::general_purpose::STANDARD.encode(Sha256::digest(&map)));
    let documents = [
        "/".to_owned(),
        format!("/g/{id}"),
        "/analysis".into(),
        "/account".into(),
        "/tournaments".into(),
        "/@/Nobody".into(),
        "/rules/lunch".into(),
        "/docs/api".into(),
        "/insights/".into(),
        "/insights/lunch/ladder/strength.svg".into(),
        "/assets/favicon.svg".into(),
    ];
    for path in &documents {
        let answer = get(&server, path, &[]).await;
        assert!([200, 404].contains(&answer.status), "{path}: {}", answer.status);
        let policy = answer.header("content-security-policy");
        for directive in [
            "default-src 'self'",
            &format!("script-src 'self' {map_hash};"),
            "style-src 'self';",
            "object-src 'none'",
            "base-uri 'none'",
            "frame-ancestors 'none'",
        ] {
            assert!(policy.contains(directive), "{path}: {directive} missing from {policy:?}");
        }
        assert!(!policy.contains("unsafe"), "{path}: {policy}");
        assert!(
            policy.contains(&format!("connect-src 'self' ws://{0} wss://{0}", server.address())),
            "{path}: the page's sockets: {policy}"
        );
        assert_eq!(answer.header("x-frame-options"), "DENY", "{path}");
    }
    // The pages allow no inline style: none is written (a table's alignment is a class).
    for path in ["/docs/api", "/insights/lunch/ladder/nodes-20/compare.md", "/rules/kelasu"] {
        let text = get(&server, path, &[]).await.text();
        assert!(!text.contains("style=") && !text.contains("<style"), "{path}: an inline style");
    }
    let compare = get(&server, "/insights/lunch/ladder/nodes-20/compare.md", &[]).await.text();
    assert!(compare.contains("class=\"align-right\"") || compare.contains("class=\"align-center\""), "{compare}");
    // Every answer, the API's and the refusals' too: no sniffing, no address in a Referer.
    let foreign = [("origin", "https://evil.example"), ("content-type", "application/json")];
    let refused = server
        .client
        .post(format!("{}/api/games", server.base))
        .header(foreign[0].0, foreign[0].1)
        .header(foreign[1].0, foreign[1].1)
        .body("{}")
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status().as_u16(), 403);
    let mut answers = vec![("POST /api/games from another origin".to_owned(), refused.headers().clone())];
    for path in ["/api/variants", &format!("/api/games/{id}"), "/api/no-such-route", "/assets/app.js", "/healthz"] {
        answers.push((path.to_owned(), get(&server, path, &[]).await.headers));
    }
    for (what, headers) in answers {
        assert_eq!(headers.get("x-content-type-options").unwrap(), "nosniff", "{what}");
        assert_eq!(headers.get("referrer-policy").unwrap(), "same-origin", "{what}");
        let json = headers.get("content-type").is_some_and(|t| t.to_str().unwrap().starts_with("application/json"));
        assert!(!json || headers.get("content-security-policy").is_none(), "{what}: a policy on data");
    }
    server.stop().await;
}

/// Behind a proxy, the page's address is another: its sockets are allowed
/// by name (`--public-url`, `--allowed-origin`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_policy_allows_the_sockets_of_the_public_address() {
    let dir = tempfile::tempdir().unwrap();
    let store = menagerie_server::store::SqliteStore::open(&dir.path().join("g.sqlite")).unwrap();
    let hub = menagerie_server::new_hub(
        std::sync::Arc::new(menagerie_loadtest::WithNim),
        std::sync::Arc::new(store),
        std::sync::Arc::new(menagerie_server::computer::RandomOnly),
        menagerie_server::HubConfig::default(),
    );
    let public = menagerie_server::http::Origin::parse("https://chess.example.org").unwrap();
    let routes =
        menagerie_server::http::router_allowing(hub, menagerie_server::http::AllowedOrigins::new(vec![public]));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let task = tokio::spawn(async move { axum::serve(listener, routes).await.unwrap() });
    let answer = reqwest::Client::new().get(format!("{base}/")).header("host", "10.0.0.7:8080").send().await.unwrap();
    let policy = answer.headers().get("content-security-policy").unwrap().to_str().unwrap().to_owned();
    assert!(
        policy.contains("connect-src 'self' ws://10.0.0.7:8080 wss://10.0.0.7:8080 wss://chess.example.org;"),
        "{policy}"
    );
    task.abort();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_and_its_files_go_out_compressed_and_named_by_their_content() {
    let (_dir, server) = start().await;
    // The page: compressed as asked, tagged, asked again each time.
    let plain = get(&server, "/", &[]).await;
    assert_eq!((plain.status, plain.header("content-encoding")), (200, ""));
    assert_eq!(plain.header("cache-control"), "no-cache");
    let html = plain.text();
    for (accept, encoding) in [("gzip, deflate, br, zstd", "br"), ("gzip, deflate", "gzip"), ("identity", "")] {
        let answer = get(&server, "/", &[("accept-encoding", accept)]).await;
        assert_eq!(answer.header("content-encoding"), encoding, "{accept}");
        assert_eq!(answer.header("vary"), "accept-encoding");
        assert_eq!(answer.text(), html, "{accept}");
        if !encoding.is_empty() {
            assert!(answer.body.len() < html.len() / 2, "{accept}: {} of {}", answer.body.len(), html.len());
        }
        // The same page again: 304, no body.
        let etag = answer.header("etag").to_owned();
        assert!(etag.starts_with('"') && etag.ends_with('"'), "{etag}");
        let again = get(&server, "/g/anything", &[("accept-encoding", accept), ("if-none-match", &etag)]).await;
        assert_eq!((again.status, again.body.len()), (304, 0), "{accept}");
        assert_eq!(again.header("etag"), etag);
    }
    // Every file the page names, and every module its import map maps,
    // by the address of its content: kept for a year, and compressed.
    let map: Value = serde_json::from_str(&import_map_of(&html)).unwrap();
    let imports = map["imports"].as_object().unwrap();
    assert!(imports.len() >= 30, "{map}");
    let mut named: Vec<String> = imports.values().map(|v| v.as_str().unwrap().to_owned()).collect();
    for attribute in ["src=\"", "href=\""] {
        for part in html.split(attribute).skip(1) {
            let address = &part[..part.find('"').unwrap()];
            if address.starts_with("/assets/") {
                named.push(address.to_owned());
            }
        }
    }
    let mut total = (0, 0);
    for address in &named {
        let file = address.rsplit('/').next().unwrap();
        let parts: Vec<&str> = file.split('.').collect();
        assert!(
            parts.len() == 3 && parts[1].len() == 12 && parts[1].bytes().all(|b| b.is_ascii_hexdigit()),
            "not named by its content: {address}"
        );
        let answer = get(&server, address, &[("accept-encoding", "br")]).await;
        assert_eq!(answer.status, 200, "{address}");
        assert_eq!(answer.header("cache-control"), "public, max-age=31536000, immutable", "{address}");
        assert_eq!(answer.header("content-encoding"), "br", "{address}");
        let text = answer.text();
        let hash: String = Sha256::digest(text.as_bytes()).iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(&hash[..12], parts[1], "{address}: the address names other bytes");
        let plain_address = format!("{}{}.{}", &address[..address.len() - file.len()], parts[0], parts[2]);
        let plain = get(&server, &plain_address, &[]).await;
        assert_eq!((plain.status, plain.header("cache-control")), (200, "no-cache"), "{plain_address}");
        assert_eq!(plain.text(), text, "{plain_address}");
        let again = get(&server, &plain_address, &[("if-none-match", plain.header("etag"))]).await;
        assert_eq!((again.status, again.body.len()), (304, 0), "{plain_address}");
        total = (total.0 + answer.body.len(), total.1 + text.len());
    }
    assert!(total.0 * 3 < total.1, "the files compress to {} of {} bytes", total.0, total.1);
    // An address of an older version gets today's file, not kept for ever.
    let stale = get(&server, "/assets/app.0123456789ab.js", &[]).await;
    assert_eq!((stale.status, stale.header("cache-control")), (200, "no-cache"));
    assert_eq!(get(&server, "/assets/app.0123456789ab.css", &[]).await.status, 404);
    assert_eq!(get(&server, "/assets/index.html", &[]).await.status, 404, "the page has the app's addresses");
    // Every import of every module goes through the map to a file.
    for (plain, _) in imports.iter().filter(|(k, _)| k.ends_with(".js")) {
        let source = get(&server, plain, &[]).await.text();
        let folder = &plain[..plain.rfind('/').unwrap() + 1];
        for part in source.split(" from '").skip(1) {
            let specifier = &part[..part.find('\'').unwrap()];
            let resolved = resolve(folder, specifier);
            assert!(imports.contains_key(&resolved), "{plain} imports {specifier} ({resolved}): not in the map");
        }
    }
    server.stop().await;
}

/// A relative module specifier resolved against a folder (`/assets/games/`).
fn resolve(folder: &str, specifier: &str) -> String {
    let mut parts: Vec<&str> = folder.trim_end_matches('/').split('/').collect();
    for segment in specifier.split('/') {
        match segment {
            "." => {}
            ".." => drop(parts.pop()),
            other => parts.push(other),
        }
    }
    parts.join("/")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_stream_of_the_api_is_compressed_and_the_variants_are_kept() {
    let (_dir, server) = start().await;
    let mut ada = Browser::new(&server);
    let (status, _) = ada.post("/api/register", json!({ "username": "ada", "password": "a long password" })).await;
    assert_eq!(status, 201);
    let (status, t) = ada
        .post(
            "/api/tournament",
            json!({ "variant": "nim", "clockTime": 1, "clockIncrement": 0, "minutes": 5, "waitMinutes": 5 }),
        )
        .await;
    assert_eq!(status, 201, "{t}");
    let stream = server
        .client
        .get(format!("{}/api/tournament/{}/stream", server.base, t["id"].as_str().unwrap()))
        .header("accept-encoding", "gzip, br")
        .send()
        .await
        .unwrap();
    assert_eq!(stream.headers().get("content-type").unwrap(), "application/x-ndjson");
    assert!(stream.headers().get("content-encoding").is_none(), "a compressed stream holds its lines back");
    drop(stream);
    // The variants, which every page asks for: compressed, and 304 while the same.
    let variants = get(&server, "/api/variants", &[("accept-encoding", "gzip")]).await;
    assert_eq!((variants.status, variants.header("content-encoding")), (200, "gzip"));
    let listed: Value = serde_json::from_str(&variants.text()).unwrap();
    assert!(listed["variants"].as_array().unwrap().len() >= 5);
    let again =
        get(&server, "/api/variants", &[("accept-encoding", "gzip"), ("if-none-match", variants.header("etag"))]).await;
    assert_eq!((again.status, again.body.len()), (304, 0));
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_logged_out_browser_asks_for_its_session_without_an_error() {
    let (_dir, server) = start().await;
    let mut browser = Browser::new(&server);
    assert_eq!(browser.get("/api/session").await, (200, Value::Null));
    // API clients keep their 401.
    assert_eq!(browser.get("/api/account").await.0, 401);
    let (status, _) = browser.post("/api/register", json!({ "username": "Ada", "password": "a long password" })).await;
    assert_eq!(status, 201);
    let (status, session) = browser.get("/api/session").await;
    let (_, account) = browser.get("/api/account").await;
    assert_eq!(status, 200);
    assert_eq!(session, account);
    assert_eq!(session["username"], "Ada");
    browser.post("/api/logout", json!({})).await;
    assert_eq!(browser.get("/api/session").await, (200, Value::Null));
    server.stop().await;
}
