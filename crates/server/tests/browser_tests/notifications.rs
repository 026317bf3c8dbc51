//! The notification bell in a real headless Chromium (docs/api.md,
//! "Notifications"): a logged-in player's header shows a bell; when the
//! opponent moves in their correspondence game the bell counts it at once
//! (over its socket, no reload), opens on a click to the notice linking
//! the game, and reading it clears the count. The account page's e-mail
//! form saves an address. Screenshots of the open bell go to
//! target/screenshots/bell-{desktop,phone}.png.
//!
//! Skipped when Chromium or chromedriver is missing, unless
//! MENAGERIE_REQUIRE_BROWSER=1 (as in CI), which makes that a failure.

use crate::common::browser::*;
use crate::common::session::Browser;
use crate::common::TestServer;
use fantoccini::Locator;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bell_counts_a_correspondence_move_live_and_opens_to_the_game() {
    if !browser_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("g.sqlite")).await;
    let (_driver, client) = start_browser(&dir.path().join("profile"), TALL_WITH_SCROLLBARS).await;
    set_viewport(&client, 1280, 800).await;

    // Ada, through the API, makes a correspondence game for a friend.
    let mut ada = Browser::new(&server);
    let (status, _) = ada.post("/api/register", json!({ "username": "Ada", "password": "correct horse" })).await;
    assert_eq!(status, 201);
    let (status, created) = ada
        .post(
            "/api/games",
            json!({ "variant": "lma", "opponent": "friend", "colour": "first", "clock": { "days": 3 } }),
        )
        .await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_owned();
    let (a, b) = (created["secrets"]["first"].as_str().unwrap(), created["secrets"]["second"].as_str().unwrap());

    // Bob signs up in the browser and opens his seat's link.
    sign_up_on_page(&client, &server.base, "Bob", "correct horse").await;
    until(&client, "the e-mail form", "return document.querySelector('[data-form=email]')").await;
    client
        .find(Locator::Css("[data-form=email] input[name=email]"))
        .await
        .unwrap()
        .send_keys("bob@example.org")
        .await
        .unwrap();
    client
        .find(Locator::Css("[data-form=email] input[name=email-password]"))
        .await
        .unwrap()
        .send_keys("correct horse")
        .await
        .unwrap();
    click(&client, "[data-form=email] button[type=submit]").await;
    let saved =
        until(&client, "the address saved", "return document.querySelector('[data-email-status]').textContent").await;
    assert_eq!(saved, "Saved: bob@example.org");
    client.goto(&format!("{}/g/{id}?seat={b}", server.base)).await.unwrap();
    until(&client, "the game page", "return document.querySelector('.player-name')").await;
    client.goto(&format!("{}/", server.base)).await.unwrap();
    home_page_drawn(&client, ".variants").await;
    until(&client, "the bell", "return document.querySelector('[data-bell]')").await;
    assert_eq!(
        eval(&client, "return document.querySelector('[data-bell-count]').hidden").await,
        true,
        "nothing unread"
    );

    // Ada moves: Bob's bell counts it without a reload.
    let (_, state) = ada.get(&format!("/api/games/{id}?seat={a}")).await;
    let mv = state["legal_moves"][0].as_str().unwrap().to_owned();
    let (status, body) = ada.post(&format!("/api/games/{id}/move"), json!({ "seat": a, "move": mv })).await;
    assert_eq!(status, 200, "{body}");
    let count = until(
        &client,
        "the bell's count",
        "const c = document.querySelector('[data-bell-count]'); return !c.hidden && c.textContent",
    )
    .await;
    assert_eq!(count, "1");

    click(&client, ".bell-button").await;
    let link = until(
        &client,
        "the notice",
        "const a = document.querySelector('[data-bell-list] [data-notification=yourMove] a'); return a && a.getAttribute('href')",
    )
    .await;
    assert_eq!(link, format!("/g/{id}"));
    let text = eval(&client, "return document.querySelector('[data-bell-list] a').textContent").await;
    assert!(text.as_str().unwrap().starts_with("It is your move"), "{text}");
    // Opening the list read it: the count goes (the socket says so).
    until(&client, "the count cleared", "return document.querySelector('[data-bell-count]').hidden").await;
    shots_at_both_sizes(&client, "bell").await;
    click(&client, "[data-bell-list] a").await;
    until(&client, "the game", &format!("return location.pathname === '/g/{id}'")).await;
    let (_, listed) = ada.get("/api/notifications").await;
    assert_eq!(listed["unread"], 0, "Ada was told nothing: she moved");
    client.close().await.unwrap();
    server.stop().await;
}
