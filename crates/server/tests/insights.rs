//! The Insights pages: each game's committed studies (docs/insights/) are
//! served from the binary, linked from the game's card and rules page, and
//! every link inside them leads somewhere; a path never leaves them.

mod common;

use common::TestServer;
use menagerie_server::assets;
use pulldown_cmark::{Event, Parser, Tag};

/// Where a relative link written in `from` (a path inside docs/insights/) leads.
fn resolve(from: &str, link: &str) -> String {
    let mut parts: Vec<&str> = from.split('/').collect();
    parts.pop();
    for segment in link.split('#').next().unwrap_or_default().split('/') {
        match segment {
            ".." => {
                parts.pop();
            }
            "." | "" => {}
            other => parts.push(other),
        }
    }
    parts.join("/")
}

#[test]
fn every_game_has_an_insights_page() {
    let mut games: Vec<&str> = menagerie_games::variants().iter().map(|v| v.game()).collect();
    games.dedup();
    for game in games {
        assert_eq!(assets::insights_page(game), Some(format!("/insights/{game}")), "{game}");
    }
    assert_eq!(assets::insights_page("no-such-game"), None);
}

#[test]
fn every_link_and_chart_in_the_insights_leads_to_a_committed_file() {
    let mut broken = Vec::new();
    let mut checked = 0;
    for (path, bytes) in assets::insights().filter(|(path, _)| path.ends_with(".md")) {
        let markdown = std::str::from_utf8(bytes).unwrap();
        for event in Parser::new(markdown) {
            let target = match event {
                Event::Start(Tag::Link { dest_url, .. }) | Event::Start(Tag::Image { dest_url, .. }) => dest_url,
                _ => continue,
            };
            if target.contains("://") || target.starts_with('#') {
                continue;
            }
            checked += 1;
            let resolved = resolve(path, &target);
            if assets::insight(&resolved).is_none() {
                broken.push(format!("{path}: {target} ({resolved})"));
            }
        }
    }
    assert!(checked > 20, "only {checked} links found");
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

async fn page(server: &TestServer, path: &str) -> (u16, String, String) {
    let response = server.client.get(format!("{}{path}", server.base)).send().await.unwrap();
    let status = response.status().as_u16();
    let kind = response.headers().get("content-type").map(|v| v.to_str().unwrap().to_owned()).unwrap_or_default();
    (status, kind, response.text().await.unwrap())
}

#[tokio::test]
async fn the_pages_reports_and_charts_are_served_and_linked() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("games.db")).await;

    let (status, kind, html) = page(&server, "/insights/lichen").await;
    assert_eq!(status, 200);
    assert!(kind.starts_with("text/html"), "{kind}");
    assert!(html.contains("<title>Lichen Chess: what the studies found"), "{html}");
    assert!(html.contains("<table>"), "the tables are rendered");
    assert!(html.contains("href=\"/rules/lichen\""), "a game's page links to its rules");

    // The index's relative links need the folder's address.
    let response = server.client.get(format!("{}/insights", server.base)).send().await.unwrap();
    assert_eq!((response.status().as_u16(), response.url().path()), (200, "/insights/"));
    let (status, _, html) = page(&server, "/insights/").await;
    assert_eq!(status, 200);
    assert!(html.contains("href=\"lichen.md\""), "the index links to each game");

    let (status, _, html) = page(&server, "/insights/lichen/a2ne/nodes-2000/report.md").await;
    assert_eq!(status, 200);
    assert!(html.contains("<img src=\"length.svg\""), "{html}");
    let (status, kind, svg) = page(&server, "/insights/lichen/a2ne/nodes-2000/length.svg").await;
    assert_eq!((status, kind.as_str()), (200, "image/svg+xml"));
    assert!(svg.contains("<svg"));
    let (status, kind, json) = page(&server, "/insights/lichen/a2ne/nodes-2000/report.json").await;
    assert_eq!((status, kind.as_str()), (200, "application/json"));
    assert!(serde_json::from_str::<serde_json::Value>(&json).is_ok());

    // The rules page and the game's card lead to the Insights page.
    let (status, _, html) = page(&server, "/rules/lma-double").await;
    assert_eq!(status, 200);
    assert!(html.contains("href=\"/insights/lma\""), "{html}");
    let (_, variants) = server.get("/api/variants").await;
    for variant in variants["variants"].as_array().unwrap() {
        if variant["id"] == "nim" {
            assert!(variant["insights"].is_null(), "no studies of the test game");
            continue;
        }
        let link = variant["insights"].as_str().unwrap_or_else(|| panic!("{variant}"));
        assert_eq!(page(&server, link).await.0, 200, "{link}");
    }

    // Only committed files: nothing outside docs/insights/, no error detail.
    for path in [
        "/insights/no-such-game",
        "/insights/../Cargo.toml",
        "/insights/%2e%2e/%2e%2e/Cargo.toml",
        "/insights/..%2f..%2fCargo.toml",
        "/insights/lichen/a2ne/nodes-2000/games.jsonl",
        "/insights//etc/passwd",
        "/insights/api",
    ] {
        let (status, _, body) = page(&server, path).await;
        assert_eq!(status, 404, "{path}: {body}");
        assert!(!body.contains("/work") && !body.contains("No such file"), "{path}: {body}");
    }
    server.stop().await;
}
