//! Tournaments in a real headless Chromium (docs/players.md, "Tournaments"):
//! Ada, logged in, makes an arena with the form on /tournaments, lands on
//! its page and joins with one click; Bob (over HTTP) joins too; the page
//! shows the live standings and, once they are paired, Ada's game; the home
//! page and /tournaments list it. Screenshots (desktop 1280x800 and phone
//! 400x800) go to target/screenshots/tournament-{page,list,home}-{desktop,phone}.png.
//!
//! Skipped when Chromium or chromedriver is missing, unless
//! MENAGERIE_REQUIRE_BROWSER=1 (as in CI), which makes that a failure.

mod common;

use common::browser::*;
use common::session::Browser;
use common::TestServer;
use fantoccini::Locator;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_arena_is_made_joined_and_paired_in_the_browser() {
    if !browser_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("g.sqlite")).await;
    let (_driver, client) = start_browser(&dir.path().join("profile"), TALL_WITH_SCROLLBARS).await;
    set_viewport(&client, 1280, 800).await;
    client.goto(&format!("{}/tournaments", server.base)).await.unwrap();
    until(&client, "the tournaments page", "return document.querySelector('[data-tournaments]')").await;
    // Logged out: no form, a way to log in.
    assert!(client.find(Locator::Css("[data-new-tournament]")).await.is_err());
    let registered = eval_async(
        &client,
        "const done = arguments[0];
         fetch('/api/register', { method: 'POST', headers: { 'Content-Type': 'application/json' },
           body: JSON.stringify({ username: 'ada', password: 'a long password' }) }).then((r) => done(r.status));",
    )
    .await;
    assert_eq!(registered, json!(201));
    client.goto(&format!("{}/tournaments", server.base)).await.unwrap();
    until(&client, "the form", "return document.querySelector('[data-new-tournament] select[name=variant] option')")
        .await;
    fill(&client, "[data-new-tournament] input[name=name]", "Nim night").await;
    eval(&client, "document.querySelector('[data-new-tournament] select[name=variant]').value = 'nim'").await;
    fill(&client, "[data-new-tournament] input[name=waitMinutes]", "0").await;
    click(&client, "[data-new-tournament] button[type=submit]").await;
    until(
        &client,
        "the tournament's page",
        "return document.querySelector('[data-tournament-page] h2').textContent === 'Nim night'",
    )
    .await;
    let id = eval(&client, "return location.pathname.split('/')[2]").await.as_str().unwrap().to_owned();
    click(&client, "[data-join]").await;
    until(&client, "Ada in the standings", "return document.querySelector('[data-standing] [data-player=ada]')").await;
    until(&client, "a leave button", "return document.querySelector('[data-withdraw]')").await;

    // Bob joins over HTTP: they are paired, and the page shows it live.
    let mut bob = Browser::new(&server);
    let (status, body) = bob.post("/api/register", json!({ "username": "bob", "password": "a long password" })).await;
    assert_eq!(status, 201, "{body}");
    let (status, body) = bob.post(&format!("/api/tournament/{id}/join"), json!({})).await;
    assert_eq!(status, 200, "{body}");
    until(&client, "Bob in the standings", "return document.querySelector('[data-standing] [data-player=bob]')").await;
    let game = until(&client, "Ada's game", "return document.querySelector('[data-my-game]').dataset.myGame").await;
    let (_, t) = bob.get(&format!("/api/tournament/{id}")).await;
    assert_eq!(t["me"]["gameId"], game, "{t}");
    until(
        &client,
        "the game in play listed",
        &format!("return document.querySelector('[data-game=\"{}\"]')", game.as_str().unwrap()),
    )
    .await;
    assert_eq!(eval(&client, "return document.querySelector('[data-status]').dataset.status").await, json!("started"));
    shots_at_both_sizes(&client, "tournament-page").await;

    client.goto(&format!("{}/tournaments", server.base)).await.unwrap();
    until(
        &client,
        "the list",
        &format!("return document.querySelector('[data-list=Running] [data-tournament=\"{id}\"]')"),
    )
    .await;
    shots_at_both_sizes(&client, "tournament-list").await;
    client.goto(&server.base).await.unwrap();
    until(
        &client,
        "the home page's list",
        &format!("return document.querySelector('[data-home-tournaments] [data-tournament=\"{id}\"]')"),
    )
    .await;
    shots_at_both_sizes(&client, "tournament-home").await;
    client.close().await.unwrap();
}
