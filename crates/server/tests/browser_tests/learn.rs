//! Learning in a real headless Chromium (docs/learn.md): a newcomer's path
//! from the home page through "Learn" and a whole lesson, played by clicks
//! on the board (a wrong move answered with why), to a game against the
//! computer; progress kept in the browser, then in the account once signed
//! in; a puzzle solved by clicks, a wrong try refused, and a signed-in
//! player's round rated. Screenshots (desktop and phone) go to
//! target/screenshots/learn*.png and puzzle*.png.
//!
//! Skipped when Chromium or chromedriver is missing, unless
//! MENAGERIE_REQUIRE_BROWSER=1 (as in CI), which makes that a failure.

use crate::common::browser::*;
use crate::common::TestServer;
use fantoccini::Client;
use serde_json::Value;

/// Plays `text` on the board the page's `trainer` draws, by clicks on its
/// cells (and the chooser's button where several moves share them).
async fn play_by_clicks(client: &Client, trainer: &str, text: &str) {
    eval(
        client,
        "const f = document.querySelector('[data-feedback]'); if (f) f.setAttribute('data-verdict', ''); return null",
    )
    .await;
    let cells = eval(
        client,
        &format!(
            "const t = {trainer}; const squares = [...document.querySelectorAll('[data-board] [data-square]')].map((e) => e.getAttribute('data-square')); \
             return t.cellsOf({text:?}, squares)"
        ),
    )
    .await;
    let cells: Vec<String> = cells.as_array().unwrap().iter().map(|c| c.as_str().unwrap().to_owned()).collect();
    assert!(!cells.is_empty(), "{text} names no cell of the board");
    for cell in &cells {
        tap(client, cell).await;
    }
    let choice = eval(client, &format!("return !!document.querySelector('[data-choice={text:?}]')")).await;
    if choice == Value::Bool(true) {
        click(client, &format!("[data-choice={text:?}]")).await;
    }
}

/// The verdict shown, once there is one.
async fn verdict(client: &Client) -> Value {
    until(
        client,
        "a verdict",
        "const f = document.querySelector('[data-feedback]'); const v = f && f.getAttribute('data-verdict'); \
         return v === 'right' || v === 'wrong' ? { verdict: v, text: f.textContent } : null",
    )
    .await
}

#[tokio::test]
async fn a_newcomer_learns_a_game_then_plays_it() {
    if !browser_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("db.sqlite")).await;
    let (_driver, client) = start_browser(&dir.path().join("profile"), TALL_WITH_SCROLLBARS).await;
    set_viewport(&client, 1280, 800).await;

    // Home → Learn: every game's lessons, none begun.
    client.goto(&format!("{}/", server.base)).await.unwrap();
    home_page_drawn(&client, "[data-welcome]").await;
    let learn_links = eval(&client, "return document.querySelectorAll('[data-learn-game]').length").await;
    assert!(learn_links.as_u64().unwrap() >= 5, "every game's card says how to learn it: {learn_links}");
    click(&client, "[data-welcome] [data-learn-link]").await;
    until(&client, "the lessons listed", "return document.querySelectorAll('[data-lesson]').length >= 15 || null")
        .await;
    shots_at_both_sizes(&client, "learn").await;
    assert_eq!(
        eval(&client, "return document.querySelector('[data-lesson=\"lma-pieces\"]').getAttribute('data-steps-done')")
            .await,
        "0"
    );

    // A lesson: a wrong move is answered with why, then each step's move.
    click(&client, "[data-lesson=\"lma-pieces\"] a").await;
    until(&client, "the lesson's first step", "return document.querySelector('[data-goal]') && document.querySelector('[data-board] svg') && window.menagerieLesson ? true : null").await;
    shots_at_both_sizes(&client, "learn-lesson").await;
    let lesson = eval(&client, "return window.menagerieLesson.lesson").await;
    let steps = lesson["steps"].as_array().unwrap().clone();
    assert!(steps.len() >= 2, "{lesson}");
    let example = steps[0]["example"].as_str().unwrap();
    let other = eval(
        &client,
        &format!(
            "return window.menagerieLesson.trainer.data.legal_moves.map((m) => m.text).find((t) => t !== {example:?})"
        ),
    )
    .await;
    play_by_clicks(&client, "window.menagerieLesson.trainer", other.as_str().unwrap()).await;
    let wrong = verdict(&client).await;
    assert_eq!(wrong["verdict"], "wrong", "{wrong}");
    assert!(wrong["text"].as_str().unwrap().contains("legal"), "says why: {wrong}");
    screenshot(&client, "learn-wrong-desktop").await;
    for (i, step) in steps.iter().enumerate() {
        until(&client, "the step shown", &format!("return document.querySelector('[data-goal]').getAttribute('data-step') === '{}' && window.menagerieLesson.trainer.locked === false || null", i + 1)).await;
        play_by_clicks(&client, "window.menagerieLesson.trainer", step["example"].as_str().unwrap()).await;
        let right = verdict(&client).await;
        assert_eq!(right["verdict"], "right", "step {}: {right}", i + 1);
        if i + 1 < steps.len() {
            click(&client, "[data-next-step]").await;
        }
    }
    until(&client, "the lesson done", "return document.querySelector('[data-lesson-done]') ? true : null").await;
    screenshot(&client, "learn-done-desktop").await;

    // … then a game: the lesson's "Play a game" opens LMA's new-game form.
    click(&client, "[data-play-game]").await;
    until(
        &client,
        "the form open",
        "const f = document.querySelector('[data-variant=\"lma\"] form.new-game'); return f && !f.hidden || null",
    )
    .await;
    click(&client, "[data-start=\"lma\"]").await;
    until(
        &client,
        "the game against the computer",
        "return /^\\/g\\//.test(location.pathname) && document.querySelector('[data-board] svg') ? true : null",
    )
    .await;

    // Progress is kept in this browser.
    client.goto(&format!("{}/learn", server.base)).await.unwrap();
    let done = until(&client, "the lesson marked done", "const e = document.querySelector('[data-lesson=\"lma-pieces\"]'); return e && e.getAttribute('data-steps-done') !== '0' ? e.getAttribute('data-steps-done') : null").await;
    assert_eq!(done, steps.len().to_string());

    // Signed in, the browser's progress goes into the account.
    sign_up_on_page(&client, &server.base, "Newcomer", "correct horse battery").await;
    client.goto(&format!("{}/learn", server.base)).await.unwrap();
    until(
        &client,
        "progress kept in the account",
        "return document.querySelector('[data-progress-kept=\"account\"]') ? true : null",
    )
    .await;
    let kept = eval_async(
        &client,
        "const done = arguments[arguments.length - 1]; fetch('/api/learn/progress').then((r) => r.json()).then(done)",
    )
    .await;
    assert_eq!(kept["progress"]["lma-pieces"], steps.len(), "{kept}");
    assert_no_console_errors(&client, "learning", &[]).await;
    client.close().await.unwrap();
    server.stop().await;
}

#[tokio::test]
async fn puzzles_are_solved_on_the_board_and_rated() {
    if !browser_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("db.sqlite")).await;
    let (_driver, client) = start_browser(&dir.path().join("profile"), TALL_WITH_SCROLLBARS).await;
    set_viewport(&client, 1280, 800).await;
    sign_up_on_page(&client, &server.base, "Solver", "correct horse battery").await;

    for variant in ["fluid", "kelasu"] {
        client.goto(&format!("{}/puzzle/{variant}", server.base)).await.unwrap();
        let puzzle = until(&client, "a puzzle shown", "const p = window.menageriePuzzle; return p && p.puzzle && p.actors && p.trainer.locked === false ? p.puzzle : null").await;
        assert_eq!(puzzle["variant"], variant);
        if variant == "fluid" {
            shots_at_both_sizes(&client, "puzzle").await;
        }
        // Play the solver's moves; the page answers with the other side's.
        let solution: Vec<String> =
            puzzle["solution"].as_array().unwrap().iter().map(|m| m.as_str().unwrap().to_owned()).collect();
        let actors = eval(&client, "return window.menageriePuzzle.actors").await;
        let solver = eval(&client, "return window.menageriePuzzle.solver").await;
        for (i, mv) in solution.iter().enumerate() {
            if actors[i] != solver {
                continue;
            }
            until(&client, "the solver's turn", &format!("const p = window.menageriePuzzle; return p.played.length === {i} && p.trainer.locked === false || null")).await;
            play_by_clicks(&client, "window.menageriePuzzle.trainer", mv).await;
        }
        until(
            &client,
            "the puzzle solved",
            "return document.querySelector('[data-puzzle-page]').getAttribute('data-solved') === 'true' || null",
        )
        .await;
        let rating = until(&client, "the rating shown", "const r = document.querySelector('[data-my-puzzle-rating]'); return r ? r.getAttribute('data-my-puzzle-rating') : null").await;
        assert!(rating.as_str().unwrap().parse::<i64>().unwrap() > 1500, "a solved puzzle raises the rating: {rating}");
        if variant == "kelasu" {
            screenshot(&client, "puzzle-solved-kelasu-desktop").await;
        }
    }

    // A wrong move is refused, and the round is lost.
    click(&client, "[data-next-puzzle]").await;
    let puzzle = until(&client, "the next puzzle", "const p = window.menageriePuzzle; return p && p.played.length === 0 && p.actors && p.trainer.locked === false && !document.querySelector('[data-puzzle-page]').getAttribute('data-solved') ? p.puzzle : null").await;
    let first = puzzle["solution"][0].as_str().unwrap();
    let wrong = eval(
        &client,
        &format!("const p = window.menageriePuzzle; return p.trainer.data.legal_moves.map((m) => m.text).find((t) => t !== {first:?} && !p.expected().includes(t))"),
    )
    .await;
    play_by_clicks(&client, "window.menageriePuzzle.trainer", wrong.as_str().unwrap()).await;
    let said = verdict(&client).await;
    assert_eq!(said["verdict"], "wrong", "{said}");
    let rounds = until(&client, "the lost round recorded", "const r = document.querySelector('[data-my-puzzle-rating]'); return r && r.parentElement.textContent.includes('(-') ? r.parentElement.textContent : null").await;
    assert!(rounds.as_str().unwrap().contains("(-"), "{rounds}");
    assert_no_console_errors(&client, "puzzles", &[]).await;
    client.close().await.unwrap();
    server.stop().await;
}
