//! The Take back control says why a takeback cannot be had, in headless
//! Chromium at a desktop and a phone size: in a Lunch Chess friend game
//! once a discard drew cards (no takeback undoes a card a player has
//! seen), and against the computer at "hard" (which takes no move back).
//! Screenshots go to target/screenshots/.
//!
//! Skipped when Chromium or chromedriver is missing, unless
//! MENAGERIE_REQUIRE_BROWSER=1 (as in CI), which makes that a failure.

use crate::common::browser::*;
use crate::common::{discard_all, wait_for, TestServer};
use fantoccini::Client;
use menagerie_server::computer::SearchLevels;
use serde_json::{json, Value};
use std::sync::Arc;

/// The window sizes: a desktop and a phone (CSS pixels of the viewport).
const SIZES: [(u32, u32); 2] = [(1280, 800), (400, 800)];

fn secret(created: &Value, side: &str) -> String {
    created["secrets"][side].as_str().unwrap_or_else(|| panic!("no {side} secret in {created}")).to_owned()
}

/// Opens game `id` as `seat` at each size and checks that the Take back
/// button is there, disabled, with `reason` written where it can be read:
/// inside the window and not covered by anything.
async fn the_page_says(client: &Client, server: &TestServer, id: &str, seat: &str, reason: &str, name: &str) {
    for (width, height) in SIZES {
        set_viewport(client, width, height).await;
        client.goto(&format!("{}/g/{id}?seat={seat}", server.base)).await.unwrap();
        let shown = until(
            client,
            "the reason by the Take back button",
            "const why = document.querySelector('[data-takeback-reason]'); \
             const button = document.querySelector('[data-action=\"takeback\"]'); \
             if (!why || !button) return null; \
             why.scrollIntoView({block: 'center'}); \
             const r = why.getBoundingClientRect(); \
             const top = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2); \
             return {text: why.textContent, disabled: button.disabled, \
                     inside: r.left >= 0 && r.right <= innerWidth && r.height > 0, uncovered: why.contains(top)}",
        )
        .await;
        let expected = format!("{}{}.", reason[..1].to_uppercase(), &reason[1..]);
        let want = json!({"text": expected, "disabled": true, "inside": true, "uncovered": true});
        assert_eq!(shown, want, "{name} at {width}x{height}");
        screenshot(client, &format!("takeback-{name}-{width}x{height}")).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_says_why_a_move_cannot_be_taken_back() {
    if !browser_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start_with(&dir.path().join("games.sqlite"), Arc::new(SearchLevels)).await;
    let (_driver, client) = start_browser(&dir.path().join("profile"), DESKTOP_WITHOUT_SCROLLBARS).await;

    // Lunch Chess with a friend: White discards five cards and draws five.
    let created = server.create(json!({ "variant": "lunch", "opponent": "friend", "colour": "first" })).await;
    let (id, first) = (created["id"].as_str().unwrap().to_owned(), secret(&created, "first"));
    let discard = discard_all(&server, &id, &first).await;
    let (status, state) = server.play(&id, &first, &discard).await;
    assert_eq!(status, 200, "{state}");
    let seen = "a takeback cannot undo a deal or draw that a player has seen";
    the_page_says(&client, &server, &id, &first, seen, "lunch-drawn").await;

    // Against the computer at "hard", after a move and its answer.
    let created =
        server.create(json!({ "variant": "lma", "opponent": "computer", "level": "hard", "colour": "first" })).await;
    let (id, first) = (created["id"].as_str().unwrap().to_owned(), secret(&created, "first"));
    let (status, moves) = server.get(&format!("/api/games/{id}/moves?seat={first}")).await;
    assert_eq!(status, 200, "{moves}");
    let (status, state) = server.play(&id, &first, moves["moves"][0].as_str().unwrap()).await;
    assert_eq!(status, 200, "{state}");
    wait_for(&server, &id, Some(&first), |s| s["your_turn"] == true).await;
    let hard = "the computer at level hard does not take moves back";
    the_page_says(&client, &server, &id, &first, hard, "lma-hard").await;

    client.close().await.unwrap();
    server.stop().await;
}
