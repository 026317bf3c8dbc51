//! The computer's review of a finished game on its page, in a real
//! headless Chromium (docs/api.md, "Game review"): a visitor without an
//! account is told to sign in; signed in, "Request a computer review"
//! shows the progress, then the evaluation chart under the board, each
//! player's counts and accuracy, and the judged moves marked in the move
//! list; a click on the chart goes to that move; "Learn from your
//! mistakes" goes to the position before a judged move, where a move other
//! than the computer's is answered and the computer's is accepted.
//! Screenshots (desktop and phone) go to target/screenshots/review*.png.
//!
//! Skipped when Chromium or chromedriver is missing, unless
//! MENAGERIE_REQUIRE_BROWSER=1 (as in CI), which makes that a failure.

use crate::common::browser::*;
use crate::common::TestServer;
use serde_json::{json, Value};

/// A finished Fluid game of a friend's: each side plays a legal move picked
/// by a fixed rule, with no thought, for `plies` plies (poor play, so the
/// review finds mistakes), then the second player resigns. Answers the game's id and the first seat.
async fn poorly_played_game(server: &TestServer, plies: usize) -> (String, String) {
    let created = server.create(json!({ "variant": "fluid", "opponent": "friend", "colour": "first" })).await;
    let id = created["id"].as_str().unwrap().to_owned();
    let seats = [
        created["secrets"]["first"].as_str().unwrap().to_owned(),
        created["secrets"]["second"].as_str().unwrap().to_owned(),
    ];
    for ply in 0..plies {
        let seat = &seats[ply % 2];
        let (status, moves) = server.get(&format!("/api/games/{id}/moves?seat={seat}")).await;
        assert_eq!(status, 200, "{moves}");
        let moves = moves["moves"].as_array().unwrap();
        let pick = &moves[(ply * 7 + 3) % moves.len()];
        let (status, state) = server.play(&id, seat, pick.as_str().unwrap()).await;
        assert_eq!(status, 200, "{state}");
        if !state["result"].is_null() {
            break;
        }
    }
    let (status, state) = server.post(&format!("/api/games/{id}/resign"), json!({ "seat": seats[1] })).await;
    assert!(status == 200 || status == 409, "{state}");
    (id, seats[0].clone())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_game_is_reviewed_on_its_page() {
    if !browser_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("db.sqlite")).await;
    let (_driver, client) = start_browser(&dir.path().join("profile"), TALL_WITH_SCROLLBARS).await;
    set_viewport(&client, 1280, 800).await;
    let (id, first) = poorly_played_game(&server, 24).await;

    // Without an account: the page says how to get a review.
    client.goto(&format!("{}/g/{id}?seat={first}", server.base)).await.unwrap();
    until(&client, "the review offered", "return document.querySelector('[data-request-review]') ? true : null").await;
    click(&client, "[data-request-review]").await;
    until(
        &client,
        "an account asked for",
        "return document.querySelector('[data-review-needs-account]') ? true : null",
    )
    .await;

    // Signed in: asked for, its progress, then the review.
    sign_up_on_page(&client, &server.base, "Reviewer", "correct horse battery").await;
    client.goto(&format!("{}/g/{id}?seat={first}", server.base)).await.unwrap();
    click(&client, "[data-request-review]").await;
    until(
        &client,
        "the review's progress or the review",
        "return document.querySelector('[data-review-progress], [data-review-chart]') ? true : null",
    )
    .await;
    until(&client, "the review done", "return document.querySelector('[data-review-chart]') ? true : null").await;
    let review = eval_async(
        &client,
        &format!("const done = arguments[arguments.length - 1]; fetch('/api/games/{id}/analysis').then((r) => r.json()).then(done)"),
    )
    .await;
    let judged: Vec<&Value> = review["plies"].as_array().unwrap().iter().filter(|p| !p["judgment"].is_null()).collect();
    assert!(!judged.is_empty(), "poor play has judged moves: {review}");

    // The page shows what the review says: glyphs in the list, the table.
    let shown = eval(
        &client,
        "return { glyphs: [...document.querySelectorAll('[data-moves] [data-glyph]')].map((g) => Number(g.closest('[data-ply]').getAttribute('data-ply'))), \
                  dots: document.querySelectorAll('[data-chart-judged]').length, \
                  accuracy: [...document.querySelectorAll('[data-review-player] [data-accuracy]')].map((e) => e.getAttribute('data-accuracy')) }",
    )
    .await;
    let judged_plies: Vec<u64> = judged.iter().map(|p| p["ply"].as_u64().unwrap()).collect();
    assert_eq!(shown["glyphs"], json!(judged_plies), "{shown}");
    assert_eq!(shown["dots"], judged.len());
    for (side, accuracy) in ["first", "second"].iter().zip(shown["accuracy"].as_array().unwrap()) {
        let wanted = review["players"][side]["accuracy"].as_f64().map(|a| a.to_string()).unwrap_or_default();
        assert_eq!(accuracy.as_str().unwrap(), wanted, "{side}");
    }
    assert_no_console_errors(&client, "asking for the review", &[]).await;
    shots_at_both_sizes(&client, "review").await;
    // On a phone nothing of it makes the page wider than the screen.
    set_viewport(&client, 400, 800).await;
    let widths = eval(
        &client,
        "const review = document.querySelector('[data-review]').getBoundingClientRect(); \
         return { page: document.documentElement.scrollWidth, inner: innerWidth, review: review.right }",
    )
    .await;
    assert!(widths["review"].as_f64() <= widths["inner"].as_f64(), "{widths}");
    assert!(widths["page"].as_f64() <= widths["inner"].as_f64(), "{widths}");
    set_viewport(&client, 1280, 800).await;

    // A click on the chart's first quarter goes to an early move.
    let moved = eval(
        &client,
        "const svg = document.querySelector('[data-review-chart]'); svg.scrollIntoView({block: 'center'}); const r = svg.getBoundingClientRect(); \
         svg.dispatchEvent(new MouseEvent('click', {clientX: r.left + r.width * 0.25, clientY: r.top + r.height / 2, bubbles: true})); return null",
    )
    .await;
    assert!(moved.is_null());
    let ply = until(
        &client,
        "the move the chart names",
        "const g = window.menagerieGame; return g.viewing ? g.viewing.ply : null",
    )
    .await;
    let plies = review["plies"].as_array().unwrap().len() as f64;
    assert!((ply.as_f64().unwrap() - plies * 0.25).abs() <= 1.0, "{ply} of {plies}");

    // Learning from the first player's mistakes (the seat shown is first).
    let firsts: Vec<&&Value> = judged.iter().filter(|p| p["ply"].as_u64().unwrap() % 2 == 1).collect();
    if let Some(mistake) = firsts.first() {
        click(&client, "[data-learn-mistakes=\"first\"]").await;
        let before = mistake["ply"].as_u64().unwrap() - 1;
        until(&client, "the position before the mistake, playable", &format!("const g = window.menagerieGame; return g.viewing && g.viewing.ply === {before} && g.review.tryable() ? true : null")).await;
        let best = mistake["best"].as_str().unwrap();
        let other =
            eval(&client, &format!("return window.menagerieGame.review.tryable().find((t) => t !== {best:?})")).await;
        eval(&client, &format!("window.menagerieGame.play({other}); return null")).await;
        until(&client, "a wrong try answered", "const v = document.querySelector('[data-learn-verdict]'); return v && v.getAttribute('data-learn-verdict') !== 'right' ? true : null").await;
        eval(&client, &format!("window.menagerieGame.play({best:?}); return null")).await;
        until(&client, "the computer's move accepted", "const v = document.querySelector('[data-learn-verdict]'); return v && v.getAttribute('data-learn-verdict') === 'right' ? true : null").await;
        let better = eval(
            &client,
            "const b = document.querySelector('[data-better-move]'); return b && b.getAttribute('data-better-move')",
        )
        .await;
        assert_eq!(better, best);
        screenshot(&client, "review-learning-desktop").await;
    }
    assert_no_console_errors(&client, "the review", &[]).await;
    client.close().await.unwrap();
    server.stop().await;
}
