//! Game records in a real headless Chromium (docs/records.md): a game page
//! links its record for download, and the home page's "Import record" form
//! starts a game from a pasted record or an uploaded file.
//!
//! Skipped when Chromium or chromedriver is missing, unless
//! MENAGERIE_REQUIRE_BROWSER=1 (as in CI), which makes that a failure.

use crate::common::browser::*;
use crate::common::TestServer;
use fantoccini::{Client, Locator};
use serde_json::{json, Value};

async fn record_of(server: &TestServer, id: &str) -> String {
    server.client.get(format!("{}/api/games/{id}/record", server.base)).send().await.unwrap().text().await.unwrap()
}

/// Opens the home page's import form, fills in `fill` (a script), imports,
/// and waits for the new game's page; answers its state.
async fn import_on_the_home_page(client: &Client, server: &TestServer, fill: impl AsyncFnOnce()) -> Value {
    client.goto(&format!("{}/", server.base)).await.unwrap();
    home_page_drawn(client, "details.import summary").await;
    click(client, "details.import summary").await;
    fill().await;
    click(client, "[data-import-submit]").await;
    until(
        client,
        "the imported game's page",
        "return location.pathname.startsWith('/g/') && window.menagerieGame && window.menagerieGame.state",
    )
    .await
}

#[tokio::test]
async fn records_download_from_a_game_page_and_import_on_the_home_page() {
    if !browser_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("db.sqlite")).await;
    let (_driver, client) = start_browser(&dir.path().join("profile"), TALL_WITH_SCROLLBARS).await;

    // A finished game: four moves, then White resigns.
    let created = server.create(json!({ "variant": "lma", "opponent": "local" })).await;
    let id = created["id"].as_str().unwrap();
    for (seat, mv) in [("first", "2b1c3"), ("second", "1e7d5"), ("first", "1c3b5"), ("second", "1a6a4")] {
        let (status, answer) = server.play(id, created["secrets"][seat].as_str().unwrap(), mv).await;
        assert_eq!(status, 200, "{mv}: {answer}");
    }
    let first = created["secrets"]["first"].as_str().unwrap();
    server.post(&format!("/api/games/{id}/resign"), json!({ "seat": first })).await;
    let expected = record_of(&server, id).await;

    // Its page (a spectator's) links the record; the link gives it.
    client.goto(&format!("{}/g/{id}", server.base)).await.unwrap();
    until(&client, "the game page", "return window.menagerieGame && window.menagerieGame.state").await;
    let link = until(&client, "the download link", "return document.querySelector('[data-download-record]')").await;
    assert!(!link.is_null());
    let attributes = eval(&client, "const a = document.querySelector('[data-download-record]'); return [a.getAttribute('href'), a.getAttribute('download'), a.textContent]").await;
    assert_eq!(
        attributes,
        json!([format!("/api/games/{id}/record"), format!("menagerie-{id}.pgn"), "Download record"])
    );
    let fetched = eval_async(
        &client,
        "const done = arguments[0]; fetch(document.querySelector('[data-download-record]').href).then(r => r.text()).then(done)",
    )
    .await;
    assert_eq!(fetched.as_str().unwrap(), expected);
    std::fs::write(screenshots().join("records-download.png"), client.screenshot().await.unwrap()).unwrap();

    // Pasted on the home page: the same game, finished, opened locally.
    let paste = format!(
        "const t = document.querySelector('[data-import-text]'); t.value = {}; return true",
        serde_json::to_string(&expected).unwrap()
    );
    let state = import_on_the_home_page(&client, &server, async || {
        eval(&client, &paste).await;
    })
    .await;
    assert_eq!(state["ply"], 4, "{state}");
    assert_eq!(state["result"]["reason"], "resignation", "{state}");
    let new_id = state["id"].as_str().unwrap().to_owned();
    assert_ne!(new_id, id);
    assert_eq!(record_of(&server, &new_id).await, expected);

    // Uploaded as a file, an unfinished record goes on against the computer.
    let file = dir.path().join("game.pgn");
    std::fs::write(&file, "[Variant \"lma\"]\n\n1. 2b1c3 1e7d5 *\n").unwrap();
    let state = import_on_the_home_page(&client, &server, async || {
        let input = client.find(Locator::Css("[data-import-file]")).await.unwrap();
        input.send_keys(&file.display().to_string()).await.unwrap();
        until(
            &client,
            "the file's text",
            "return document.querySelector('[data-import-text]').value.includes('2b1c3')",
        )
        .await;
        eval(&client, "document.querySelector('[data-import-opponent]').value = 'computer'; return true").await;
    })
    .await;
    assert_eq!((state["ply"].as_u64(), state["mode"].as_str()), (Some(2), Some("computer")), "{state}");
    assert_eq!(state["seats"]["second"]["kind"], "computer");
    until(&client, "our turn on the imported game", "return window.menagerieGame.state.your_turn").await;
    std::fs::write(screenshots().join("records-imported.png"), client.screenshot().await.unwrap()).unwrap();

    // A faulty record is refused on the form, naming the move.
    client.goto(&format!("{}/", server.base)).await.unwrap();
    until(&client, "the import form", "return !!document.querySelector('details.import summary')").await;
    click(&client, "details.import summary").await;
    eval(
        &client,
        "document.querySelector('[data-import-text]').value = '[Variant \"lma\"] 1. 2b1c3 2b1c3 *'; return true",
    )
    .await;
    click(&client, "[data-import-submit]").await;
    let error = until(
        &client,
        "the import error",
        "const e = document.querySelector('[data-import-error]'); return !e.hidden && e.textContent",
    )
    .await;
    assert!(error.as_str().unwrap().contains("move 1... \"2b1c3\""), "{error}");
    assert_eq!(eval(&client, "return location.pathname").await, "/");
    client.close().await.unwrap();
    server.stop().await;
}
