//! Tournaments in a real headless Chromium (docs/players.md, "Tournaments"):
//! Ada, logged in, makes an arena with the form on /tournaments, lands on
//! its page and joins with one click; Bob (over HTTP) joins too; once they
//! are paired the page opens Ada's game by itself, which links back to the
//! tournament (where she may stay during it); when it ends it offers the
//! way back and no rematch, and the next pairing is announced on the game's
//! page and opened with one click; the home page and /tournaments list the
//! tournament. Screenshots (desktop 1280x800 and phone 400x800) go to
//! target/screenshots/tournament-{page,game,next-game,list,home}-{desktop,phone}.png.
//!
//! Skipped when Chromium or chromedriver is missing, unless
//! MENAGERIE_REQUIRE_BROWSER=1 (as in CI), which makes that a failure.

use crate::common::browser::*;
use crate::common::session::Browser;
use crate::common::TestServer;
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
    let registered = register_from_page(&client, "ada", "a long password").await;
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
    // Its creator is in it at once (lichess's): no need to join.
    until(&client, "Ada in the standings", "return document.querySelector('[data-standing] [data-player=ada]')").await;
    until(&client, "a leave button", "return document.querySelector('[data-withdraw]')").await;

    assert_no_console_errors(&client, "the tournament's page", &[]).await;

    // Bob joins over HTTP: they are paired, and Ada's page opens her game
    // at once (a game not started in 30 s is lost).
    let mut bob = Browser::new(&server);
    let (status, body) = bob.post("/api/register", json!({ "username": "bob", "password": "a long password" })).await;
    assert_eq!(status, 201, "{body}");
    let (status, body) = bob.post(&format!("/api/tournament/{id}/join"), json!({})).await;
    assert_eq!(status, 200, "{body}");
    let game =
        until(&client, "Ada's game opened", "const m = location.pathname.match(/^\\/g\\/(\\w+)$/); return m && m[1]")
            .await;
    let game = game.as_str().unwrap().to_owned();
    let (_, t) = bob.get(&format!("/api/tournament/{id}")).await;
    assert_eq!(t["me"]["gameId"], game.as_str(), "{t}");
    // The game page links back to its tournament.
    let back = until(
        &client,
        "the tournament's link",
        "const a = document.querySelector('[data-tournament-link]'); return !a.hidden && a.getAttribute('href')",
    )
    .await;
    assert_eq!(back, format!("/tournament/{id}").as_str());
    shots_at_both_sizes(&client, "tournament-game").await;
    // Back on the tournament's page during the game, Ada stays there.
    client.goto(&format!("{}/tournament/{id}", server.base)).await.unwrap();
    until(&client, "her game listed", &format!("return document.querySelector('[data-my-game=\"{game}\"]')")).await;
    until(&client, "the game in play listed", &format!("return document.querySelector('[data-game=\"{game}\"]')"))
        .await;
    tokio::time::sleep(std::time::Duration::from_millis(600)).await;
    assert_eq!(eval(&client, "return location.pathname").await, format!("/tournament/{id}").as_str());
    assert_eq!(eval(&client, "return document.querySelector('[data-status]').dataset.status").await, json!("started"));
    shots_at_both_sizes(&client, "tournament-page").await;
    click(&client, &format!("[data-my-game=\"{game}\"]")).await;
    until(&client, "the game again", "return !!document.querySelector('[data-tournament-link]:not([hidden])')").await;

    // Bob resigns: the game offers the way back and no rematch; the arena
    // pairs them again, and the game's page (not the tournament's)
    // announces the new game, which one click opens.
    let (status, body) = bob.post(&format!("/api/games/{game}/resign"), json!({})).await;
    assert_eq!(status, 200, "{body}");
    until(&client, "the way back", "return !!document.querySelector('[data-back-to-tournament]')").await;
    assert!(client.find(Locator::Css("[data-action=rematch]")).await.is_err(), "a tournament game offers a rematch");
    let (status, refused) = bob.post(&format!("/api/games/{game}/rematch"), json!({})).await;
    assert_eq!(status, 400, "{refused}");
    let next = until(
        &client,
        "the next game announced",
        "return document.querySelector('[data-game-started]').dataset.gameStarted",
    )
    .await;
    assert_ne!(next, game.as_str());
    shots_at_both_sizes(&client, "tournament-next-game").await;
    click(&client, "[data-game-started-open]").await;
    until(&client, "the next game", &format!("return location.pathname === '/g/{}'", next.as_str().unwrap())).await;
    assert_no_console_errors(&client, "the tournament's games", &[]).await;

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
