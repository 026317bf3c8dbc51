//! The analysis board in a real headless Chromium (docs/api.md,
//! "Analysis"): a win in one typed as a position text is analysed live (the
//! depth and score stream, the best move is marked on the board and the
//! evaluation bar leans to the winner); moves played on the board grow a
//! variation tree; going back restarts the analysis; a game page's Analyse
//! button opens the board at the move viewed, and no spectator of a game
//! with hidden cards that goes on gets one. Screenshots (desktop and phone)
//! go to target/screenshots/analysis*.png.
//!
//! Skipped when Chromium or chromedriver is missing, unless
//! MENAGERIE_REQUIRE_BROWSER=1 (as in CI), which makes that a failure.

use crate::common::browser::*;
use crate::common::TestServer;
use fantoccini::Client;
use serde_json::{json, Value};
use std::time::Duration;

/// Blue's Warrior on F6 steps to F5, the fourth Victory Tile.
const KELASU_WIN_IN_ONE: &str = "10/10/S9/10/4WW4/4W1W3/10/s9/w9/10 blue 1 - 0 1";

/// The engine's state on the page: the search shown, its depth, the best
/// move marked on the board.
const ENGINE: &str = "const a = window.menagerieAnalysis; if (!a || !a.engine) return null; \
    return { search: a.engine.search, node: a.current.path(), depth: a.engine.info ? a.engine.info.depth : null, \
             score: a.engine.info ? a.engine.info.score : null, best: document.querySelector('[data-board]').getAttribute('data-best-move'), \
             cells: [...document.querySelectorAll('[data-board] [data-best-cell]')].map((e) => e.getAttribute('data-best-cell')).sort(), \
             arrow: !!document.querySelector('[data-board] [data-best-arrow]'), \
             shown: document.querySelector('[data-engine-depth]').textContent, scoreText: document.querySelector('[data-engine-score]').textContent, \
             share: document.querySelector('[data-eval-bar]').getAttribute('data-share') }";

/// Waits until the engine shows the win in one at the root, and answers its state.
async fn until_the_win_is_shown(client: &Client) -> Value {
    until(
        client,
        "the win in one analysed and marked",
        &format!("const e = (() => {{ {ENGINE} }})(); return e && e.node.length === 0 && e.depth >= 1 && e.best === 'F6-F5' && e.cells.length === 2 ? e : null"),
    )
    .await
}

#[tokio::test]
async fn the_analysis_board_streams_marks_the_best_move_and_grows_variations() {
    if !browser_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("db.sqlite")).await;
    let (_driver, client) = start_browser(&dir.path().join("profile"), TALL_WITH_SCROLLBARS).await;
    set_viewport(&client, 1280, 900).await;

    // The header links to the board; its form opens a typed position.
    client.goto(&format!("{}/", server.base)).await.unwrap();
    click(&client, "[data-analysis-link]").await;
    until(
        &client,
        "the analysis page",
        "return location.pathname === '/analysis' && !!document.querySelector('[data-open]')",
    )
    .await;
    eval(&client, "document.querySelector('details.a-open-box').open = true; return true").await;
    eval(
        &client,
        &format!(
            "document.querySelector('[data-open-variant]').value = 'kelasu'; \
             document.querySelector('[data-open-position]').value = {:?}; return true",
            KELASU_WIN_IN_ONE
        ),
    )
    .await;
    click(&client, "[data-open-submit]").await;
    until(&client, "the typed position", "return new URLSearchParams(location.search).get('variant') === 'kelasu'")
        .await;

    let shown = until_the_win_is_shown(&client).await;
    assert_eq!(shown["cells"], json!(["F5", "F6"]), "{shown}");
    assert_eq!(shown["arrow"], true, "{shown}");
    assert_eq!(shown["score"], json!({ "win": 1 }), "{shown}");
    assert_eq!(shown["scoreText"], "#1", "{shown}");
    assert_eq!(shown["share"], "1.000", "the bar leans to Blue: {shown}");
    assert!(shown["shown"].as_str().unwrap().starts_with("depth "), "{shown}");
    let pv =
        until(&client, "the best line", "return document.querySelector('[data-engine-pv]').getAttribute('data-best')")
            .await;
    assert_eq!(pv, "F6-F5");
    assert_eq!(eval(&client, "return document.querySelector('[data-node-position]').value").await, KELASU_WIN_IN_ONE);
    until(&client, "the search to end", "return document.querySelector('[data-engine-status]').textContent === 'done'")
        .await;
    assert_eq!(
        eval(&client, "return document.querySelector('[data-engine-words]').textContent").await,
        "blue wins in 1"
    );

    // The page lays the bar beside the board on a desktop.
    let layout = eval(
        &client,
        "const b = document.querySelector('[data-eval-bar]').getBoundingClientRect(); \
         const s = document.querySelector('[data-board] svg').getBoundingClientRect(); \
         return { barRight: b.right, boardLeft: s.left, barHeight: b.height, boardHeight: s.height, boardBottom: s.bottom, inner: innerHeight }",
    )
    .await;
    assert!(layout["barRight"].as_f64().unwrap() <= layout["boardLeft"].as_f64().unwrap(), "{layout}");
    assert!((layout["barHeight"].as_f64().unwrap() - layout["boardHeight"].as_f64().unwrap()).abs() < 3.0, "{layout}");
    assert!(layout["boardBottom"].as_f64().unwrap() <= layout["inner"].as_f64().unwrap() + 1.0, "{layout}");

    // Another move first: it starts the main line, and the engine goes on
    // from the new node.
    let other = until(
        &client,
        "a quiet move",
        "const a = window.menagerieAnalysis; const m = (a.parsed || []).find((m) => /^[A-J]\\d-[A-J]\\d$/.test(m.text) && m.text !== 'F6-F5'); return m ? m.text : null",
    )
    .await;
    let other = other.as_str().unwrap().to_owned();
    let (from, to) = other.split_once('-').unwrap();
    let before = shown["search"].as_u64().unwrap();
    tap(&client, from).await;
    tap(&client, to).await;
    let moved = until(
        &client,
        "the move played on the board",
        &format!("const e = (() => {{ {ENGINE} }})(); return e && e.node.length === 1 && e.node[0] === {other:?} && e.search > {before} && e.depth ? e : null"),
    )
    .await;
    assert_eq!(
        eval(&client, "return [...document.querySelectorAll('[data-line=main] [data-tree-move]')].map((e) => e.getAttribute('data-tree-move'))").await,
        json!([other])
    );

    // Back, then the winning move: a side line in the tree.
    click(&client, "[data-nav=back]").await;
    until_the_win_is_shown(&client).await;
    tap(&client, "F6").await;
    tap(&client, "F5").await;
    until(&client, "the side line", "return [...document.querySelectorAll('[data-line=variation] [data-tree-move]')].map((e) => e.getAttribute('data-tree-move')).join(',') === 'F6-F5'").await;
    let end = until(
        &client,
        "the end of the side line",
        "const a = window.menagerieAnalysis; return a.current.path().join() === 'F6-F5' && a.current.data && document.querySelector('[data-engine-status]').textContent.includes('over') ? document.querySelector('[data-status]').textContent : null",
    )
    .await;
    assert!(end.as_str().unwrap().contains("blue wins"), "{end}");
    assert_eq!(eval(&client, "return document.querySelector('[data-engine-score]').textContent").await, "1–0");
    assert_eq!(
        eval(&client, "return document.querySelector('.tree-move.current').getAttribute('data-tree-move')").await,
        "F6-F5"
    );

    // Back at the start: the analysis starts again there.
    click(&client, "[data-nav=start]").await;
    let again = until_the_win_is_shown(&client).await;
    assert!(again["search"].as_u64().unwrap() > moved["search"].as_u64().unwrap(), "{again}");
    until(&client, "the search to end", "return document.querySelector('[data-engine-status]').textContent === 'done'")
        .await;
    screenshot(&client, "analysis").await;

    // Stop and Go.
    click(&client, "[data-engine-toggle]").await;
    until(&client, "the engine stopped", "return document.querySelector('[data-engine-toggle]').textContent === 'Go' && ['stopped', 'done'].includes(document.querySelector('[data-engine-status]').textContent)").await;
    click(&client, "[data-engine-toggle]").await;
    let going = until_the_win_is_shown(&client).await;
    assert!(going["search"].as_u64().unwrap() > again["search"].as_u64().unwrap(), "{going}");
    assert_eq!(eval(&client, "return document.querySelector('[data-engine-toggle]').textContent").await, "Stop");

    // The side line made the main line, then the old main line deleted.
    let lines = "return ['main', 'variation'].map((kind) => [...document.querySelectorAll(`[data-line=${kind}] > [data-tree-move]`)].map((e) => e.getAttribute('data-tree-move')).join(','))";
    click(&client, "[data-tree-move=\"F6-F5\"]").await;
    until(&client, "the side line's move", "return window.menagerieAnalysis.current.path().join() === 'F6-F5'").await;
    click(&client, "[data-tree-promote]").await;
    assert_eq!(eval(&client, lines).await, json!(["F6-F5", other]));
    click(&client, &format!("[data-tree-move={other:?}]")).await;
    until(
        &client,
        "the old main line's move",
        &format!("return window.menagerieAnalysis.current.path().join() === {other:?}"),
    )
    .await;
    click(&client, "[data-tree-delete]").await;
    until(&client, "the line deleted", "return window.menagerieAnalysis.current.depth() === 0").await;
    assert_eq!(eval(&client, lines).await, json!(["F6-F5", ""]));
    until_the_win_is_shown(&client).await;

    // A phone: the bar lies flat above the board, all in the window's width.
    set_viewport(&client, 390, 844).await;
    tokio::time::sleep(Duration::from_millis(600)).await;
    let phone = eval(
        &client,
        "const b = document.querySelector('[data-eval-bar]').getBoundingClientRect(); \
         const s = document.querySelector('[data-board] svg').getBoundingClientRect(); \
         return { barBottom: b.bottom, boardTop: s.top, barWidth: b.width, boardWidth: s.width, right: Math.max(s.right, b.right), width: document.documentElement.clientWidth, scroll: document.documentElement.scrollWidth }",
    )
    .await;
    assert!(phone["barBottom"].as_f64().unwrap() <= phone["boardTop"].as_f64().unwrap() + 1.0, "{phone}");
    assert!((phone["barWidth"].as_f64().unwrap() - phone["boardWidth"].as_f64().unwrap()).abs() < 3.0, "{phone}");
    assert!(phone["right"].as_f64().unwrap() <= phone["width"].as_f64().unwrap(), "{phone}");
    assert!(
        phone["scroll"].as_f64().unwrap() <= phone["width"].as_f64().unwrap(),
        "the page scrolls sideways: {phone}"
    );
    eval(&client, "window.scrollTo(0, 0); return true").await;
    screenshot(&client, "analysis-phone").await;

    client.close().await.unwrap();
    server.stop().await;
}

#[tokio::test]
async fn a_game_page_opens_the_analysis_board_at_the_move_viewed() {
    if !browser_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("db.sqlite")).await;
    let (_driver, client) = start_browser(&dir.path().join("profile"), TALL_WITH_SCROLLBARS).await;
    let created = server.create(json!({ "variant": "lma", "opponent": "local" })).await;
    let id = created["id"].as_str().unwrap();
    for (seat, mv) in [("first", "2b1c3"), ("second", "1e7d5"), ("first", "1c3b5")] {
        let (status, answer) = server.play(id, created["secrets"][seat].as_str().unwrap(), mv).await;
        assert_eq!(status, 200, "{answer}");
    }
    let seat = created["secrets"]["first"].as_str().unwrap();
    client.goto(&format!("{}/g/{id}?seat={seat}", server.base)).await.unwrap();
    until(&client, "the game page", "return window.menagerieGame && window.menagerieGame.state && !!document.querySelector('[data-action=analyse]')").await;
    // View the position after the first move, then analyse it.
    click(&client, "[data-moves] [data-ply=\"1\"]").await;
    until(
        &client,
        "the first move viewed",
        "return window.menagerieGame.viewing && window.menagerieGame.viewing.ply === 1",
    )
    .await;
    click(&client, "[data-action=analyse]").await;
    let shown = until(
        &client,
        "the analysis board at move 1",
        &format!("if (location.pathname !== '/analysis') return null; const e = (() => {{ {ENGINE} }})(); return e && e.depth && e.best ? e : null"),
    )
    .await;
    assert_eq!(shown["node"], json!(["2b1c3"]), "{shown}");
    assert_eq!(
        eval(&client, "return [...document.querySelectorAll('[data-line=main] [data-tree-move]')].map((e) => e.getAttribute('data-tree-move'))").await,
        json!(["2b1c3", "1e7d5", "1c3b5"]),
        "the game's moves are the main line"
    );
    assert_eq!(
        eval(&client, "return document.querySelector('.tree-move.current').getAttribute('data-tree-ply')").await,
        "1"
    );
    assert_eq!(
        eval(&client, "return document.querySelector('[data-source-game]').getAttribute('data-source-game')").await,
        id
    );
    // A move of the main line is a click away; a side line never touches the game.
    click(&client, "[data-tree-move=\"1c3b5\"]").await;
    until(&client, "move 3", "const a = window.menagerieAnalysis; return a.current.path().length === 3 && a.current.data && a.parsed && a.parsed.length > 0").await;
    let reply = eval(&client, "return window.menagerieAnalysis.parsed.find((m) => m.tokens.length === 2).text").await;
    let reply = reply.as_str().unwrap().to_owned();
    eval(&client, &format!("window.menagerieAnalysis.play({reply:?}); return true")).await;
    until(
        &client,
        "the line played on",
        "return window.menagerieAnalysis.current.path().length === 4 && !!window.menagerieAnalysis.current.data",
    )
    .await;
    assert_eq!(server.state(id, None).await["ply"], 3, "the game is untouched");
    // The engine's line, clicked at its second move, is played into the tree.
    let line = until(
        &client,
        "a best line of two moves, clicked",
        "const shown = [...document.querySelectorAll('[data-engine-pv] [data-pv-move]')]; if (shown.length < 2) return null; \
         shown[1].click(); return shown.slice(0, 2).map((e) => e.getAttribute('data-pv-move'))",
    )
    .await;
    let played = until(
        &client,
        "the engine's line in the tree",
        "const a = window.menagerieAnalysis; return a.current.path().length === 6 && a.current.data ? a.current.path().slice(4) : null",
    )
    .await;
    assert_eq!(played, line);
    set_viewport(&client, 1280, 900).await;
    screenshot(&client, "analysis-game").await;

    // A record imported "to study": the analysis board at the move chosen.
    client.goto(&format!("{}/", server.base)).await.unwrap();
    until(&client, "the import form", "return !!document.querySelector('details.import summary')").await;
    click(&client, "details.import summary").await;
    eval(
        &client,
        "document.querySelector('[data-import-text]').value = '[Variant \"lma\"]\\n\\n1. 2b1c3 1e7d5 2. 1c3b5 *\\n'; \
         const o = document.querySelector('[data-import-opponent]'); o.value = 'analyse'; o.dispatchEvent(new Event('change')); \
         document.querySelector('[data-import-ply]').value = '2'; return true",
    )
    .await;
    assert_eq!(eval(&client, "return document.querySelector('[data-import-ply]').offsetParent !== null").await, true);
    click(&client, "[data-import-submit]").await;
    let imported = until(
        &client,
        "the imported record on the analysis board",
        "const a = location.pathname === '/analysis' && window.menagerieAnalysis; return a && a.current && a.current.data && document.querySelector('.tree-move.current') ? a.current.path() : null",
    )
    .await;
    assert_eq!(imported, json!(["2b1c3", "1e7d5"]));
    assert_eq!(
        eval(&client, "return [...document.querySelectorAll('[data-line=main] [data-tree-move]')].map((e) => e.getAttribute('data-tree-move'))").await,
        json!(["2b1c3", "1e7d5", "1c3b5"])
    );

    // A spectator of a game with hidden cards that goes on gets no Analyse button.
    let lunch = server.create(json!({ "variant": "lunch", "opponent": "local" })).await;
    let lunch_id = lunch["id"].as_str().unwrap();
    client.goto(&format!("{}/g/{lunch_id}", server.base)).await.unwrap();
    until(
        &client,
        "the Lunch game page",
        "return window.menagerieGame && window.menagerieGame.state && !!document.querySelector('[data-flip]')",
    )
    .await;
    assert_eq!(eval(&client, "return !!document.querySelector('[data-action=analyse]')").await, false);
    // Opened anyway by its address: refused, clearly.
    client.goto(&format!("{}/analysis?game={lunch_id}", server.base)).await.unwrap();
    let refusal = until(
        &client,
        "the refusal",
        "const e = document.querySelector('[data-error]'); return e && !e.hidden ? e.textContent : null",
    )
    .await;
    assert!(refusal.as_str().unwrap().contains("only the seat to act"), "{refusal}");

    client.close().await.unwrap();
    server.stop().await;
}

/// Lunch Chess typed as a position: chance's draws are made at random (with
/// the game's odds) or picked, then the engine weighs the decision of the
/// side to act, whose hand is shown.
#[tokio::test]
async fn lunch_chess_draws_at_random_and_the_engine_weighs_the_decision() {
    if !browser_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("db.sqlite")).await;
    let (_driver, client) = start_browser(&dir.path().join("profile"), TALL_WITH_SCROLLBARS).await;
    set_viewport(&client, 1280, 900).await;
    client.goto(&format!("{}/analysis?variant=lunch", server.base)).await.unwrap();
    let mut draws = 0;
    loop {
        let acts = until(
            &client,
            "the node's position",
            "const a = window.menagerieAnalysis; return a && a.current && a.current.data ? a.current.data.to_act : null",
        )
        .await;
        if acts != "chance" {
            break;
        }
        assert!(draws < 60, "chance never stops drawing");
        let before = eval(&client, "return window.menagerieAnalysis.current.depth()").await;
        click(&client, "[data-chance-random]").await;
        until(&client, "the draw", &format!("return window.menagerieAnalysis.current.depth() > {before}")).await;
        draws += 1;
    }
    assert!(draws > 0);
    let best = until(
        &client,
        "the engine's choice",
        "const a = window.menagerieAnalysis; const b = a.best(); return b && a.engine.info.depth !== undefined ? b : null",
    )
    .await;
    let legal = eval(&client, "return window.menagerieAnalysis.current.data.legal_moves.map((m) => m.text)").await;
    assert!(legal.as_array().unwrap().contains(&best), "{best} not in {legal}");
    assert_eq!(eval(&client, "return !!document.querySelector('[data-hand]')").await, true, "the hand is shown");
    assert_eq!(eval(&client, "return window.menagerieAnalysis.panelError").await, Value::Null);
    assert_eq!(
        eval(&client, "return document.querySelectorAll('[data-line=main] [data-tree-move]').length").await,
        json!(draws)
    );
    screenshot(&client, "analysis-lunch").await;
    client.close().await.unwrap();
    server.stop().await;
}
