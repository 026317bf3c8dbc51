//! A player whose opponent left the game sees it on the game page, in
//! headless Chromium, and claims the win with one click (docs/api.md,
//! "Abandonment"). Screenshots go to target/screenshots/ (abandoned-*).
//!
//! Skipped when Chromium or chromedriver is missing, unless
//! MENAGERIE_REQUIRE_BROWSER=1 (as in CI), which makes that a failure.

use crate::common::browser::*;
use crate::common::TestServer;
use menagerie_server::HubConfig;
use serde_json::json;
use std::time::Duration;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_claims_the_game_its_opponent_left() {
    if !browser_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let config = HubConfig { claim_after: Duration::from_secs(2), ..HubConfig::default() };
    let db = dir.path().join("games.sqlite");
    let server = TestServer::start_with_config(&db, config).await;
    let (_driver, client) = start_browser(&dir.path().join("profile"), DESKTOP_WITHOUT_SCROLLBARS).await;

    // Ada and Bob each move, Ada again; Bob leaves while the game waits for him.
    let clock = json!({ "initial": 300, "increment": 0 });
    let created =
        server.create(json!({ "variant": "lma", "opponent": "friend", "colour": "first", "clock": clock })).await;
    let id = created["id"].as_str().unwrap().to_owned();
    let ada = created["secrets"]["first"].as_str().unwrap().to_owned();
    let bob = created["secrets"]["second"].as_str().unwrap().to_owned();
    for secret in [&ada, &bob, &ada] {
        let state = server.state(&id, Some(secret)).await;
        let (status, answer) = server.play(&id, secret, state["legal_moves"][0].as_str().unwrap()).await;
        assert_eq!(status, 200, "{answer}");
    }
    client.goto(&format!("{}/g/{id}?seat={ada}", server.base)).await.unwrap();
    let shown = until(
        &client,
        "the claim buttons",
        "const panel = document.querySelector('[data-abandoned]'); \
         return panel && !panel.hidden && panel.textContent",
    )
    .await;
    assert_eq!(shown, json!("Black left the game.Claim victoryCall it a draw"));
    shots_at_both_sizes(&client, "abandoned").await;
    click(&client, "[data-action=\"claim-win\"]").await;
    let result = until(
        &client,
        "the result",
        "const panel = document.querySelector('[data-abandoned]'); \
         return panel.hidden && document.querySelector('.result-panel:not([hidden])')?.textContent",
    )
    .await;
    assert!(result.as_str().unwrap().to_lowercase().contains("abandon"), "{result}");
    let state = server.state(&id, None).await;
    assert_eq!((&state["result"]["winner"], &state["result"]["reason"]), (&json!("first"), &json!("abandonment")));
    shots_at_both_sizes(&client, "abandoned-claimed").await;
    client.close().await.unwrap();
}
