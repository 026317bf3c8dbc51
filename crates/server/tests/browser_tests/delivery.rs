//! The page as a browser gets it, in a real headless Chromium at a desktop
//! (1280x800) and a phone (400x800) size: a second visit downloads none of
//! its files again (each named by its content, kept for a year) and the
//! first gets them compressed; every page, logged out, draws under the
//! Content-Security-Policy with nothing in the console (no blocked script
//! or style, no refused socket, no 401); the header links the tournaments
//! on both sizes (on a phone behind its Menu button); and on a phone every
//! game's squares are a finger's width (40 px or more), Lilliputian
//! Monochromatic Alice Chess's two boards one above the other. Screenshots
//! go to target/screenshots/delivery-*.png.
//!
//! One Chromium session for the whole file. Skipped when Chromium or
//! chromedriver is missing, unless MENAGERIE_REQUIRE_BROWSER=1 (as in CI),
//! which makes that a failure.

use crate::common::browser::*;
use crate::common::session::Browser;
use crate::common::{variants, TestServer};
use fantoccini::Client;
use serde_json::{json, Value};

const SIZES: [(u32, u32, &str); 2] = [(1280, 800, "desktop"), (400, 800, "phone")];

/// What a visit cost, from Resource Timing: every file of `/assets/` and
/// the page itself.
const COST: &str = "
    const nav = performance.getEntriesByType('navigation')[0];
    const files = performance.getEntriesByType('resource').filter((e) => new URL(e.name).pathname.startsWith('/assets/'));
    const all = [nav, ...performance.getEntriesByType('resource')];
    const fetched = (e) => !(e.transferSize === 0 && e.decodedBodySize > 0);
    return {
      page: { transfer: nav.transferSize, decoded: nav.decodedBodySize },
      files: files.map((e) => ({ path: new URL(e.name).pathname, transfer: e.transferSize, encoded: e.encodedBodySize, decoded: e.decodedBodySize })),
      requests: all.filter(fetched).length,
      transfer: all.reduce((n, e) => n + e.transferSize, 0),
    };";

async fn visit(client: &Client, url: &str, ready: &str) -> Value {
    client.goto("about:blank").await.unwrap();
    client.goto(url).await.unwrap();
    until(client, url, ready).await;
    // The files the page loads after it drew (a game's renderer) are in too.
    let mut last = Value::Null;
    loop {
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        let cost = eval(client, COST).await;
        if cost["files"] == last["files"] {
            return cost;
        }
        last = cost;
    }
}

/// A fresh browser's first visit downloads the files compressed, each at
/// the address of its content; the second downloads none of them, and
/// only the page's tag goes back and forth (304).
async fn a_second_visit_downloads_nothing_again(client: &Client, server: &TestServer, game: &str) {
    let home_ready = "return !!document.querySelector('.lobby-seeks > *')";
    let game_ready = "return !!document.querySelector('[data-board] svg')";
    let mut figures = Vec::new();
    for (name, path, ready) in [("home", "/".to_owned(), home_ready), ("game", format!("/g/{game}"), game_ready)] {
        let url = format!("{}{path}", server.base);
        let first = visit(client, &url, ready).await;
        let files = first["files"].as_array().unwrap();
        assert!(files.len() >= 10, "{name}: {first}");
        for file in files {
            let path = file["path"].as_str().unwrap();
            let fingerprinted = path.split('.').rev().nth(1).is_some_and(|h| h.len() == 12);
            assert!(fingerprinted, "{name}: {path} is not named by its content");
            let (transfer, encoded, decoded) = (
                file["transfer"].as_u64().unwrap(),
                file["encoded"].as_u64().unwrap(),
                file["decoded"].as_u64().unwrap(),
            );
            // From the network on the home page's first visit (the game's
            // shares most of them, then in the cache): compressed.
            if name == "home" {
                assert!(transfer > 0, "{name}: {file}");
            }
            if decoded > 2000 && transfer > 0 {
                assert!(encoded * 2 < decoded, "{name}: {path} is not compressed: {file}");
            }
        }
        let again = visit(client, &url, ready).await;
        for file in again["files"].as_array().unwrap() {
            assert_eq!(file["transfer"], 0, "{name}: asked for again: {file}");
        }
        let page = &again["page"];
        assert!(
            page["transfer"].as_u64().unwrap() < 1000 && page["decoded"].as_u64().unwrap() > 1000,
            "{name}: the page came again whole: {page}"
        );
        figures.push(format!(
            "{name}: first visit {} requests, {} bytes; second visit {} requests, {} bytes",
            first["requests"], first["transfer"], again["requests"], again["transfer"]
        ));
    }
    eprintln!("{}", figures.join("\n"));
}

/// Every page, logged out, at both sizes: drawn under the policy (its
/// style sheet applied, its sockets open) with no error in the console.
async fn every_page_draws_logged_out_without_an_error(
    client: &Client,
    server: &TestServer,
    game: &str,
    tournament: &str,
) {
    let board_and_socket =
        "return !!document.querySelector('[data-board] svg') && window.menagerieGame.socket && window.menagerieGame.socket.readyState === 1";
    let pages: Vec<(&str, String, &str)> = vec![
        ("home", "/".into(), "return !!document.querySelector('.lobby-seeks > *') && !!document.querySelector('.lobby-games > *')"),
        ("game", format!("/g/{game}"), board_and_socket),
        (
            "analysis",
            "/analysis?variant=fluid".into(),
            "return !!document.querySelector('[data-board] svg') && /[1-9]/.test(document.querySelector('[data-engine-depth]').textContent)",
        ),
        ("account", "/account".into(), "return !!document.querySelector('[data-form=signup]')"),
        ("profile", "/@/ada".into(), "return !!document.querySelector('[data-profile-username]') && !!document.querySelector('[data-profile-ratings]')"),
        ("leaderboards", "/leaderboard".into(), "return !!document.querySelector('[data-leaderboards] [data-leaderboard-variant]')"),
        ("tournaments", "/tournaments".into(), "return !!document.querySelector('[data-list=\"To come\"] [data-tournament]')"),
        (
            "tournament",
            format!("/tournament/{tournament}"),
            "return document.querySelector('[data-tournament-page] h2').textContent === 'Club night'",
        ),
        ("rules", "/rules/lunch".into(), "return !!document.querySelector('article h1')"),
        ("api", "/docs/api".into(), "return !!document.querySelector('article h1')"),
        ("insights", "/insights/lunch".into(), "return !!document.querySelector('article img')"),
    ];
    // The console is read: a request answered 401 shows there (what the
    // pages asked of /api/account when logged out).
    client.goto(&format!("{}/", server.base)).await.unwrap();
    eval_async(client, "const done = arguments[0]; fetch('/api/account').then((r) => done(r.status));").await;
    let errors = console_errors(client).await;
    assert!(errors.iter().any(|e| e.contains("/api/account") && e.contains("401")), "{errors:?}");
    for (width, height, size) in SIZES {
        set_viewport(client, width, height).await;
        for (name, path, ready) in &pages {
            console_errors(client).await;
            client.goto(&format!("{}{path}", server.base)).await.unwrap();
            until(client, &format!("{name} at {size}"), ready).await;
            // The style sheet applied: the pages' own colours, not the browser's.
            let styled =
                eval(client, "return getComputedStyle(document.documentElement).getPropertyValue('--accent').trim()")
                    .await;
            assert_eq!(styled, "#2a6fb0", "{name} at {size}: the style sheet is not applied");
            tokio::time::sleep(std::time::Duration::from_millis(200)).await;
            assert_no_console_errors(client, &format!("{name} at {size}"), &[]).await;
            screenshot(client, &format!("delivery-{name}-{size}")).await;
        }
    }
}

/// The header links the tournaments: in a line on a desktop, behind the
/// Menu button on a phone.
async fn the_header_links_the_tournaments(client: &Client, server: &TestServer) {
    let shown = "const a = document.querySelector('[data-tournaments-link]'); return a.offsetParent !== null && a.getAttribute('href')";
    for (width, height, size) in SIZES {
        set_viewport(client, width, height).await;
        client.goto(&format!("{}/analysis", server.base)).await.unwrap();
        until(client, "the header", "return !!document.querySelector('[data-tournaments-link]')").await;
        if size == "phone" {
            assert_eq!(eval(client, shown).await, false, "{size}: the links show before the menu opens");
            click(client, "[data-menu-button]").await;
            screenshot(client, "delivery-menu-phone").await;
        }
        assert_eq!(eval(client, shown).await, "/tournaments", "{size}");
        click(client, "[data-tournaments-link]").await;
        until(client, "the tournaments", "return location.pathname === '/tournaments'").await;
        // The header fits: nothing in it wider than the window.
        let overflow = eval(client, "return document.querySelector('header.top').scrollWidth - innerWidth").await;
        assert!(overflow.as_i64().unwrap() <= 0, "{size}: the header is wider than the window by {overflow} px");
    }
}

/// At 400x800, each game's squares are 40 px or more, the board fits the
/// width, and both players stay in sight; LMA's boards are one above the
/// other there and side by side on a desktop.
async fn squares_are_a_finger_wide_on_a_phone(client: &Client, server: &TestServer) {
    let measure = "const cells = [...document.querySelectorAll('[data-board] [data-square].square')].map((e) => e.getBoundingClientRect());
        const svg = document.querySelector('[data-board] svg').getBoundingClientRect();
        const bottom = document.querySelector('.g-bottom').getBoundingClientRect();
        return { cells: cells.length, smallest: Math.min(...cells.map((r) => Math.min(r.width, r.height))),
          board: [svg.left, svg.right, svg.width / svg.height], bottom: bottom.bottom, scroll: document.documentElement.scrollWidth }";
    let mut sizes = Vec::new();
    for variant in variants().into_iter().filter(|v| *v != "nim") {
        for (width, height, size) in SIZES {
            set_viewport(client, width, height).await;
            let created = server.create(json!({ "variant": variant, "opponent": "local" })).await;
            let id = created["id"].as_str().unwrap();
            client.goto(&format!("{}/g/{id}", server.base)).await.unwrap();
            until(client, "the board", "return !!document.querySelector('[data-board] [data-square]')").await;
            let m = eval(client, measure).await;
            let aspect = m["board"][2].as_f64().unwrap();
            if variant.starts_with("lma") {
                assert_eq!(aspect < 1.0, size == "phone", "{variant} at {size}: the boards' layout: {m}");
            }
            if size == "desktop" {
                continue;
            }
            let smallest = m["smallest"].as_f64().unwrap();
            assert!(m["cells"].as_u64().unwrap() >= 9, "{variant}: {m}");
            assert!(smallest >= 40.0, "{variant}: squares of {smallest:.1} px on a 400 px phone: {m}");
            assert!(
                m["board"][0].as_f64().unwrap() >= -0.5 && m["board"][1].as_f64().unwrap() <= 400.5,
                "{variant}: {m}"
            );
            assert_eq!(m["scroll"], 400, "{variant}: the page scrolls sideways: {m}");
            assert!(m["bottom"].as_f64().unwrap() <= 800.0, "{variant}: the lower player is out of sight: {m}");
            sizes.push(format!("{variant} {smallest:.1} px"));
            screenshot(client, &format!("delivery-squares-{variant}-phone")).await;
        }
    }
    eprintln!("the smallest square on a 400 px phone: {}", sizes.join(", "));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_is_light_clean_under_its_policy_and_fits_a_phone() {
    if !browser_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("g.sqlite")).await;
    let mut ada = Browser::new(&server);
    let (status, _) = ada.post("/api/register", json!({ "username": "ada", "password": "a long password" })).await;
    assert_eq!(status, 201);
    let (status, tournament) = ada
        .post(
            "/api/tournament",
            json!({ "name": "Club night", "variant": "lunch", "clockTime": 3, "clockIncrement": 2, "minutes": 30, "waitMinutes": 60 }),
        )
        .await;
    assert_eq!(status, 201, "{tournament}");
    let game = server.create(json!({ "variant": "lunch", "opponent": "local" })).await;
    let game = game["id"].as_str().unwrap();
    let (_driver, client) = start_browser(&dir.path().join("profile"), DESKTOP_WITHOUT_SCROLLBARS).await;
    set_viewport(&client, 1280, 800).await;
    // First, while the browser's cache is empty.
    a_second_visit_downloads_nothing_again(&client, &server, game).await;
    every_page_draws_logged_out_without_an_error(&client, &server, game, tournament["id"].as_str().unwrap()).await;
    the_header_links_the_tournaments(&client, &server).await;
    squares_are_a_finger_wide_on_a_phone(&client, &server).await;
    client.close().await.unwrap();
    server.stop().await;
}
