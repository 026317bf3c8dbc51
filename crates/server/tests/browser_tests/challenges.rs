//! Challenges through the pages in a real headless Chromium (docs/api.md,
//! "Challenges"): a profile's Challenge button sends one with a variant,
//! a time and a colour, and the page opens the game once it is accepted;
//! a challenge received shows in the bell with Accept and Decline, and
//! Accept opens the game; once answered (here, or on another device while
//! the bell is open) its notice says so and offers no answer; the profile's
//! Block button keeps a player's challenges away. Screenshots:
//! target/screenshots/challenge-form-{desktop,phone}.png,
//! challenge-bell-{desktop,phone}.png, challenge-bell-answered-{desktop,phone}.png
//! and profile-block-{desktop,phone}.png.
//!
//! Skipped when Chromium or chromedriver is missing, unless
//! MENAGERIE_REQUIRE_BROWSER=1 (as in CI), which makes that a failure.

use crate::common::browser::*;
use crate::common::session::Browser;
use crate::common::TestServer;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_is_sent_from_a_profile_and_accepted_from_the_bell() {
    if !browser_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("g.sqlite")).await;
    let (_driver, client) = start_browser(&dir.path().join("profile"), TALL_WITH_SCROLLBARS).await;
    set_viewport(&client, 1280, 800).await;
    let mut ada = Browser::new(&server);
    let (status, _) = ada.post("/api/register", json!({ "username": "Ada", "password": "correct horse" })).await;
    assert_eq!(status, 201);

    // Bob signs up in the browser.
    sign_up_on_page(&client, &server.base, "Bob", "correct horse").await;

    // From Ada's profile, Bob challenges her to Kelasu, 5+3, as first player.
    client.goto(&format!("{}/@/Ada", server.base)).await.unwrap();
    until(&client, "the Challenge button", "return document.querySelector('[data-challenge-button]')").await;
    click(&client, "[data-challenge-button]").await;
    eval(
        &client,
        "const f = document.querySelector('[data-challenge-form]');
         f.elements.variant.value = 'kelasu';
         f.elements.clock.value = 'fischer'; f.elements.clock.dispatchEvent(new Event('change'));
         f.elements.color.value = 'white'; return true",
    )
    .await;
    shots_at_both_sizes(&client, "challenge-form").await;
    click(&client, "[data-challenge-form] button[type=submit]").await;
    until(
        &client,
        "the challenge sent",
        "return document.querySelector('[data-challenge-status]').textContent.startsWith('Challenge sent')",
    )
    .await;
    let (_, mine) = ada.get("/api/challenge").await;
    let challenge = &mine["in"][0];
    assert_eq!(challenge["challenger"]["name"], "Bob", "{mine}");
    assert_eq!(challenge["variant"]["key"], "kelasu");
    assert_eq!(challenge["timeControl"]["show"], "5+3");
    assert_eq!(challenge["color"], "white");
    let (status, accepted) =
        ada.post(&format!("/api/challenge/{}/accept", challenge["id"].as_str().unwrap()), json!({})).await;
    assert_eq!(status, 200, "{accepted}");
    let game = accepted["id"].as_str().unwrap().to_owned();
    // Bob's page learns it and opens the game, his seat his.
    until(&client, "the game opened", &format!("return location.pathname === '/g/{game}'")).await;
    let (_, state) = ada.get(&format!("/api/games/{game}")).await;
    assert_eq!(state["you"], "second");

    // Ada challenges Bob: his bell shows it with Accept, which opens the game.
    let (status, challenge) = ada.post("/api/challenge/bob", json!({ "variant": "lma" })).await;
    assert_eq!(status, 200, "{challenge}");
    client.goto(&format!("{}/", server.base)).await.unwrap();
    home_page_drawn(&client, ".variants").await;
    until(
        &client,
        "the bell's count",
        "const c = document.querySelector('[data-bell-count]'); return c && !c.hidden && c.textContent",
    )
    .await;
    click(&client, ".bell-button").await;
    until(&client, "the challenge's buttons", "return document.querySelector('[data-challenge-accept]')").await;
    let text = eval(&client, "return document.querySelector('[data-notification=challenge] a').textContent").await;
    assert!(text.as_str().unwrap().starts_with("Ada challenges you"), "{text}");
    shots_at_both_sizes(&client, "challenge-bell").await;
    eval(
        &client,
        "const list = document.querySelector('[data-bell-list]');
         if (list.hidden) document.querySelector('.bell-button').click(); return true",
    )
    .await;
    until(&client, "the bell open", "return !document.querySelector('[data-bell-list]').hidden").await;
    click(&client, "[data-challenge-accept]").await;
    let path = until(&client, "the new game", "return location.pathname.startsWith('/g/') && location.pathname").await;
    let id = path.as_str().unwrap().trim_start_matches("/g/").to_owned();
    assert_ne!(id, game);
    let (_, shown) = ada.get(&format!("/api/challenge/{}/show", challenge["id"].as_str().unwrap())).await;
    assert_eq!(shown["status"], "accepted");
    assert_eq!(shown["gameId"], id.as_str());

    // Answered, a challenge's notice says so and offers no answer: one
    // accepted here, and one accepted on Bob's other device while his
    // bell is open here, at once.
    let (status, again) = ada.post("/api/challenge/bob", json!({ "variant": "fluid" })).await;
    assert_eq!(status, 200, "{again}");
    let again = again["id"].as_str().unwrap().to_owned();
    until(&client, "the game page", "return !!document.querySelector('[data-board] svg')").await;
    click(&client, ".bell-button").await;
    until(
        &client,
        "the new challenge",
        &format!("return document.querySelector('[data-challenge-accept=\"{again}\"]')"),
    )
    .await;
    let first = challenge["id"].as_str().unwrap();
    let answered = eval(
        &client,
        &format!(
            "return [!!document.querySelector('[data-challenge-accept=\"{first}\"]'),
               [...document.querySelectorAll('[data-challenge-answered=accepted] [data-challenge-game]')].map((a) => a.dataset.challengeGame)]"
        ),
    )
    .await;
    assert_eq!(answered, json!([false, [id]]), "the accepted challenge's notice");
    let mut other_device = Browser::new(&server);
    let (status, _) = other_device.post("/api/login", json!({ "username": "Bob", "password": "correct horse" })).await;
    assert_eq!(status, 200);
    let (status, accepted) = other_device.post(&format!("/api/challenge/{again}/accept"), json!({})).await;
    assert_eq!(status, 200, "{accepted}");
    let opened = until(
        &client,
        "the bell to say it was accepted",
        &format!(
            "return !document.querySelector('[data-challenge-accept=\"{again}\"]')
               && [...document.querySelectorAll('[data-challenge-game]')].map((a) => a.dataset.challengeGame).includes('{}')
               && !document.querySelector('[data-bell-list]').hidden",
            accepted["id"].as_str().unwrap()
        ),
    )
    .await;
    assert_eq!(opened, true);
    shots_at_both_sizes(&client, "challenge-bell-answered").await;

    // Bob blocks Ada from her profile: she can no longer challenge him; he unblocks her.
    client.goto(&format!("{}/@/Ada", server.base)).await.unwrap();
    let label = until(
        &client,
        "the Block button",
        "const b = document.querySelector('[data-block-button]'); return b && b.textContent",
    )
    .await;
    assert_eq!(label, "Block");
    click(&client, "[data-block-button]").await;
    until(&client, "blocked", "return document.querySelector('[data-block-button]').textContent === 'Unblock'").await;
    shots_at_both_sizes(&client, "profile-block").await;
    let (status, refused) = ada.post("/api/challenge/bob", json!({ "variant": "lma" })).await;
    assert_eq!((status, &refused["error"]), (400, &json!("You cannot challenge Bob.")));
    client.refresh().await.unwrap();
    let label = until(
        &client,
        "the button again",
        "const b = document.querySelector('[data-block-button]'); return b && b.textContent",
    )
    .await;
    assert_eq!(label, "Unblock", "the page reads the block back");
    click(&client, "[data-block-button]").await;
    until(&client, "unblocked", "return document.querySelector('[data-block-button]').textContent === 'Block'").await;
    assert_eq!(ada.post("/api/challenge/bob", json!({ "variant": "lma" })).await.0, 200);
    assert_no_console_errors(&client, "the challenges and the block", &[]).await;
    client.close().await.unwrap();
    server.stop().await;
}
