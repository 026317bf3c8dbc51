//! The page in a real headless Chromium, driven through WebDriver
//! (chromedriver). For every variant of the registry: start a game against
//! the computer, make a move by dragging a piece, see the computer's answer,
//! check the coordinates and the layout at three window sizes (screenshots
//! go to target/screenshots/), step back through the move list; then, from a
//! position of that game, see that the hints of captures, attacks, joins,
//! merges or stone choices are painted above the pieces, and make such a
//! move by drag; start a 3-second game from the home page's form, see the
//! running clock count down and the server's flag end the game for the
//! right side (screenshots of the end at the three sizes); take a turn back.
//!
//! Skipped when Chromium or chromedriver is missing, unless
//! MENAGERIE_REQUIRE_BROWSER=1 (as in CI), which makes that a failure.

use crate::common::browser::*;
use crate::common::{variants, TestServer};
use fantoccini::actions::{InputSource, MouseActions, PointerAction, TouchActions, MOUSE_BUTTON_LEFT};
use fantoccini::{Client, Locator};
use serde_json::{json, Value};
use std::time::Duration;

/// The window sizes the layout must work at (CSS pixels of the viewport).
const SIZES: [(u32, u32); 3] = [(1400, 1000), (1280, 720), (400, 800)];

fn move_to(at: (f64, f64), duration: u64) -> PointerAction {
    PointerAction::MoveTo { duration: Some(Duration::from_millis(duration)), x: at.0.round(), y: at.1.round() }
}

/// Drags the piece of cell `from` to cell `to` (mouse, or a finger), and
/// checks that a lifted copy of the piece followed the pointer on the way.
async fn drag(client: &Client, from: &str, to: &str, touch: bool) {
    let a = cell_centre(client, from).await;
    let b = cell_centre(client, to).await;
    let halfway = ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0 + 7.0);
    eval(client, "window.menagerieGame.lastDrag = null; return true").await;
    let steps = [
        move_to(a, 0),
        PointerAction::Down { button: MOUSE_BUTTON_LEFT },
        move_to(halfway, 120),
        move_to(b, 120),
        PointerAction::Up { button: MOUSE_BUTTON_LEFT },
    ];
    if touch {
        let actions = steps.into_iter().fold(TouchActions::new("finger".into()), |acc, step| acc.then(step));
        client.perform_actions(actions).await.unwrap();
    } else {
        let actions = steps.into_iter().fold(MouseActions::new("mouse".into()), |acc, step| acc.then(step));
        client.perform_actions(actions).await.unwrap();
    }
    client.release_actions().await.unwrap();
    let drag = eval(client, "return window.menagerieGame.lastDrag").await;
    assert_eq!(drag["cell"], json!(from), "dragging {from} to {to}: no piece was lifted: {drag}");
    assert_eq!(drag["pointer"], json!(if touch { "touch" } else { "mouse" }), "{drag}");
    // Every point of the way, the lifted piece was centred on the pointer.
    let trail = drag["trail"].as_array().cloned().unwrap_or_default();
    assert!(!trail.is_empty(), "{drag}");
    for point in &trail {
        let p: Vec<f64> = point.as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect();
        assert!((p[0] - p[2]).abs() < 2.0 && (p[1] - p[3]).abs() < 2.0, "the piece is not under the pointer: {point}");
    }
    let left = eval(client, "return document.querySelectorAll('[data-drag-ghost]').length").await;
    assert_eq!(left, 0, "the dragged copy stays after the drop");
}

/// Makes one legal move: a move of two cells or more by dragging its last
/// step (the cells before are tapped), else a move button or a discard.
async fn make_a_move(client: &Client, touch: bool) -> String {
    let plan =
        until(client, "a legal move to make", "return window.menagerieGame && window.menagerieGame.clickPlan()").await;
    if let Some(squares) = plan["squares"].as_array() {
        let names: Vec<&str> = squares.iter().map(|s| s.as_str().unwrap()).collect();
        let text = plan["move"].as_str().unwrap_or_default().to_owned();
        if names.len() >= 2 {
            for cell in &names[..names.len() - 2] {
                tap(client, cell).await;
            }
            drag(client, names[names.len() - 2], names[names.len() - 1], touch).await;
        } else {
            tap(client, names[0]).await;
        }
        // Other moves share these cells (a promotion, which unit, a longer merge): choose.
        let choice = format!("[data-choice=\"{text}\"]");
        if eval(client, &format!("return !!document.querySelector('{choice}')")).await == json!(true) {
            click(client, &choice).await;
        }
        text
    } else if let Some(text) = plan["panel"].as_str() {
        // A discard: pick its cards in the hand, then discard.
        for card in text.trim_start_matches("discard:").split('+') {
            click(client, &format!("[data-discard-card=\"{card}\"]:not(.picked)")).await;
        }
        click(client, "[data-discard]").await;
        text.to_owned()
    } else {
        let text = plan["button"].as_str().unwrap().to_owned();
        click(client, &format!("[data-move=\"{text}\"]")).await;
        text
    }
}

/// Every cell of the board has its file and its rank written in its
/// column and its row (both LMA boards, Lichen's grids, Kelasu's letters).
async fn assert_coordinates(client: &Client, variant: &str) {
    let missing = eval(
        client,
        r#"const board = document.querySelector('[data-board]');
        const coords = [...board.querySelectorAll('[data-coord]')].map((e) => { const r = e.getBoundingClientRect(); return { text: e.getAttribute('data-coord'), x: r.x + r.width / 2, y: r.y + r.height / 2 }; });
        const missing = [];
        for (const cell of board.querySelectorAll('[data-square].square')) {
          const name = cell.getAttribute('data-square');
          const runs = name.match(/[A-Za-z]+|[0-9]+/g);
          const r = cell.getBoundingClientRect();
          // The two last runs are file and rank (in either order); LMA's first is its board.
          for (const run of runs.slice(-2)) {
            const inColumn = coords.some((c) => c.text === run && c.x >= r.left - 1 && c.x <= r.right + 1);
            const inRow = coords.some((c) => c.text === run && c.y >= r.top - 1 && c.y <= r.bottom + 1);
            if (!inColumn && !inRow) missing.push(`${name}:${run}`);
          }
        }
        return { cells: board.querySelectorAll('[data-square].square').length, missing };"#,
    )
    .await;
    let cells = missing["cells"].as_u64().unwrap_or(0);
    if variant == "nim" {
        assert_eq!(cells, 0);
        return;
    }
    assert!(cells > 0, "{variant}: no board cells");
    assert_eq!(missing["missing"], json!([]), "{variant}: cells without their coordinates");
    if variant.starts_with("lma") {
        let boards = eval(
            client,
            "return [...document.querySelectorAll('[data-board] [data-coord^=\"board \"]')].map(e => e.textContent)",
        )
        .await;
        assert_eq!(boards, json!(["board 1", "board 2"]), "{variant}");
    }
}

/// What of the game page is not inside the viewport (without scrolling),
/// and whether the result covers the board.
const LAYOUT_OUTSIDE_THE_VIEW: &str = r#"const out = [];
            const check = (what, e) => { if (!e || e.offsetParent === null) return; const r = e.getBoundingClientRect();
              if (r.top < -1 || r.left < -1 || r.bottom > innerHeight + 1 || r.right > innerWidth + 1) out.push(`${what} at ${Math.round(r.left)},${Math.round(r.top)}-${Math.round(r.right)},${Math.round(r.bottom)}`); };
            check('board', document.querySelector('[data-board] svg, [data-board] pre, [data-board] p'));
            check('top player', document.querySelector('.g-top'));
            check('bottom player', document.querySelector('.g-bottom'));
            for (const b of document.querySelectorAll('[data-now] button')) check(`button ${b.textContent}`, b);
            const result = document.querySelector('.result-panel:not([hidden])');
            const board = document.querySelector('[data-board]').getBoundingClientRect();
            if (result) { const r = result.getBoundingClientRect(); if (r.left < board.right && r.right > board.left && r.top < board.bottom && r.bottom > board.top) out.push('the result covers the board'); }
            return out;"#;

/// At every size the board, both player bars (with the clocks) and every
/// control that asks for a decision now are inside the viewport, without
/// scrolling; a screenshot of each.
async fn assert_layout(client: &Client, name: &str) {
    for (width, height) in SIZES {
        set_viewport(client, width, height).await;
        eval(client, "window.scrollTo(0, 0); return true").await;
        // The page lays itself out again after a resize (the decisions fit
        // on `resize`), later on a loaded machine: asked again until it
        // fits or two seconds have passed, then what is still outside fails.
        let deadline = std::time::Instant::now() + Duration::from_secs(2);
        let outside = loop {
            tokio::time::sleep(Duration::from_millis(150)).await;
            let outside = eval(client, LAYOUT_OUTSIDE_THE_VIEW).await;
            if outside == json!([]) || std::time::Instant::now() > deadline {
                break outside;
            }
        };
        assert_eq!(outside, json!([]), "{name} at {width}x{height}: out of view");
        screenshot(client, &format!("{name}-{width}x{height}")).await;
    }
    set_viewport(client, 1400, 1000).await;
}

async fn play_against_the_computer(client: &Client, base: &str, variant: &str, touch: bool) {
    client.goto(&format!("{base}/")).await.unwrap();
    home_page_drawn(client, &format!("[data-new-game=\"{variant}\"]")).await;
    click(client, &format!("[data-new-game=\"{variant}\"]")).await;
    let form = format!("[data-variant=\"{variant}\"] form");
    eval(client, &format!("const f = document.querySelector('{form}'); f.opponent.value = 'computer'; f.colour.value = 'first'; return true")).await;
    click(client, &format!("[data-start=\"{variant}\"]")).await;
    until(
        client,
        "the game page",
        "return location.pathname.startsWith('/g/') && window.menagerieGame && window.menagerieGame.state && document.querySelector('[data-board] svg')",
    )
    .await;
    assert_coordinates(client, variant).await;
    // The rules and the help are on the page.
    let rules = eval(client, "return document.querySelector('[data-rules]').getAttribute('href')").await;
    assert_eq!(rules, json!(format!("/rules/{}", variant)), "{variant}");
    let help = eval(client, "return document.querySelector('[data-help]').textContent.length").await;
    assert!(help.as_u64().unwrap_or(0) > 60, "{variant}: no help on moving");
    // Our moves until the computer (second) has answered; the first by drag.
    let mut dragged = false;
    for _ in 0..30 {
        let answered = eval(client, "return document.querySelectorAll('[data-moves] .move.second').length").await;
        if answered.as_u64().unwrap_or(0) > 0 {
            break;
        }
        let state =
            eval(client, "const s = window.menagerieGame.state; return {your: s.your_turn, over: !!s.result}").await;
        if state["over"] == true {
            break;
        }
        if state["your"] == true {
            let before = eval(client, "return window.menagerieGame.state.ply").await.as_u64().unwrap();
            let plan = eval(client, "return window.menagerieGame.clickPlan()").await;
            dragged |= plan["squares"].as_array().is_some_and(|s| s.len() >= 2);
            let text = make_a_move(client, touch).await;
            until(
                client,
                &format!("the move {text} to be played"),
                &format!("return window.menagerieGame.state.ply > {before}"),
            )
            .await;
            let sound = eval(client, "return window.menagerieGame.sound.last").await;
            assert!(
                ["move", "capture", "check", "end"].contains(&sound.as_str().unwrap_or_default()),
                "{variant}: no sound after {text}: {sound}"
            );
        } else {
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
    assert!(dragged || variant == "nim", "{variant}: no move was made by drag");
    until(client, "the computer's answer", "return document.querySelectorAll('[data-moves] .move.second').length > 0 || !!window.menagerieGame.state.result").await;
    assert_panel_drawn(client, variant).await;
    if variant.starts_with("lunch") {
        // Your hand as cards, the other only as a count, the piles, the log; cards explained.
        let panel = eval(client, "const p = document.querySelector('[data-lunch-panel]'); return p && {mine: p.querySelectorAll('[data-hand=\"white\"] [data-card]').length, other: document.querySelector('[data-hand=\"black\"]').textContent, piles: !!document.querySelector('[data-piles]'), log: document.querySelectorAll('[data-battle-log] li').length, explained: [...p.querySelectorAll('[data-card]')].every(c => c.title.length > 20)}").await;
        assert!(panel["mine"].as_u64().unwrap_or(0) > 0, "no cards in White's hand: {panel}");
        assert!(panel["other"].as_str().unwrap_or_default().contains("hidden"), "{panel}");
        assert_eq!(panel["piles"], true, "{panel}");
        assert_eq!(panel["explained"], true, "a card without its explanation: {panel}");
        assert!(panel["log"].as_u64().unwrap_or(0) > 0, "an empty battle log after moves: {panel}");
        // Tapping a card explains it where you look.
        click(client, "[data-lunch-panel] [data-card]").await;
        let info = eval(client, "return document.querySelector('[data-card-info]').textContent").await;
        assert!(info.as_str().unwrap_or_default().contains(':'), "no explanation after tapping a card: {info}");
    }
    assert_layout(client, variant).await;
    // Step back one move: the page shows an earlier position and says where.
    let ply = eval(client, "return window.menagerieGame.state.ply").await.as_u64().unwrap();
    click(client, "[data-nav=\"back\"]").await;
    until(client, "an earlier position", "return window.menagerieGame.viewing !== null").await;
    let status = eval(client, "return document.querySelector('[data-status]').textContent").await;
    assert!(status.as_str().unwrap_or_default().contains("Viewing"), "{status}");
    let label = eval(client, "return document.querySelector('[data-position-label]').textContent").await;
    assert_eq!(label, json!(format!("move {} of {ply}", ply - 1)), "{variant}");
    assert_panel_drawn(client, variant).await;
    screenshot(client, &format!("{variant}-back")).await;
    // Home goes to the start, and the right arrow key forward again.
    client.find(Locator::Css("body")).await.unwrap().send_keys("\u{E011}").await.unwrap();
    until(client, "the start", "return window.menagerieGame.viewing && window.menagerieGame.viewing.ply === 0").await;
    client.find(Locator::Css("body")).await.unwrap().send_keys("\u{E014}").await.unwrap();
    until(client, "move 1", "return window.menagerieGame.viewing && window.menagerieGame.viewing.ply === 1").await;
    client.find(Locator::Css("body")).await.unwrap().send_keys("\u{E010}").await.unwrap();
    until(client, "the live position", "return window.menagerieGame.viewing === null").await;
}

/// The game's own renderer drew the board and its panel (hands, energy,
/// battles) without an error.
async fn assert_panel_drawn(client: &Client, variant: &str) {
    let error = eval(client, "return window.menagerieGame.drawError || null").await;
    assert!(error.is_null(), "{variant}: the board was not drawn by its renderer: {error}");
    let error = eval(client, "return window.menagerieGame.panelError || null").await;
    assert!(error.is_null(), "{variant}: the panel failed: {error}");
}

/// White's Rook on a4 can attack Black's Queen on a5 with a Kick; Black
/// holds Dodge and Block. Both sides are played on this page.
const LUNCH_ATTACK: &str =
    "4k3/8/8/q7/R7/8/8/4K3 w - jab,kick dodge,block,firstaid - - - - - turn.action 0,0,0 0123456789abcdef - white";

/// A position of each game where the first player can take, attack, join,
/// merge or choose a stone: the cells tapped first, the cells that must
/// then be hinted (above their pieces), and a move made by drag.
struct Scene {
    game: &'static str,
    position: Option<&'static str>,
    taps: &'static [&'static str],
    hinted: &'static [&'static str],
    drag: (&'static str, &'static str),
    choice: Option<&'static str>,
    played: &'static str,
}

const SCENES: &[Scene] = &[
    // The Cardinal's leap b1-a3 changes colour: it takes the pawn on 2a3 and lands on 1a3.
    Scene {
        game: "lma",
        position: Some("3k2/6/6/6/6/6/6|6/6/6/6/p5/6/1C1K2 w - 0 1"),
        taps: &["2b1"],
        hinted: &["2a3", "1a3"],
        drag: ("2b1", "2a3"),
        choice: None,
        played: "2b1a3",
    },
    // The Rook takes the pawn on a5 or joins the Bishop on c1.
    Scene {
        game: "fluid",
        position: Some("4k3/8/8/p7/8/8/8/R1B1K3 w - - 0 1"),
        taps: &["a1"],
        hinted: &["a5", "c1"],
        drag: ("a1", "a5"),
        choice: None,
        played: "Ra1a5",
    },
    // After placing on b1's north-east slot, White's stones may act.
    Scene {
        game: "lichen",
        position: None,
        taps: &["b1ne"],
        hinted: &["b1", "c1"],
        drag: ("b1", "b2"),
        choice: None,
        played: "b1ne;b1>n",
    },
    // C3 and C4 may merge into a Warrior; the Warrior on D5 takes E5.
    Scene {
        game: "kelasu",
        position: Some("S9/10/3BB5/5W4/5b4/10/10/10/b9/9s blue 1 - 0 1"),
        taps: &["C3"],
        hinted: &["C4"],
        drag: ("D5", "E5"),
        choice: None,
        played: "D5-E5",
    },
    // The Rook attacks the Queen: the card is chosen after the drop.
    Scene {
        game: "lunch",
        position: Some(LUNCH_ATTACK),
        taps: &["a4"],
        hinted: &["a5"],
        drag: ("a4", "a5"),
        choice: Some("attack:a4a5:kick"),
        played: "attack:a4a5:kick",
    },
];

/// Opens a local game (both sides on this page) of `variant` from `position`.
async fn open_local_game(client: &Client, server: &TestServer, variant: &str, position: Option<&str>) -> String {
    let created = server
        .create(json!({ "variant": variant, "opponent": "local", "colour": "first", "position": position }))
        .await;
    let id = created["id"].as_str().unwrap().to_owned();
    let first = created["secrets"]["first"].as_str().unwrap();
    client.goto(&format!("{}/", server.base)).await.unwrap();
    let entry = json!({ "id": id, "variant": variant, "name": variant, "mode": "local", "you": "first", "seat": first, "secrets": created["secrets"] });
    eval(client, &format!("localStorage.setItem('menagerie.games', JSON.stringify([{entry}])); return true")).await;
    client.goto(&format!("{}/g/{id}?seat={first}", server.base)).await.unwrap();
    until(
        client,
        "the game",
        "return window.menagerieGame && window.menagerieGame.state && window.menagerieGame.state.your_turn && document.querySelector('[data-board] svg')",
    )
    .await;
    id
}

/// The hints of moves onto occupied cells are drawn above the pieces: with
/// the pieces made hit-testable, the topmost element at the cell's centre
/// is still the hint.
async fn hints_are_above_the_pieces(client: &Client, server: &TestServer, variant: &str) {
    let game = variant.split('-').next().unwrap();
    let scene = SCENES
        .iter()
        .find(|s| s.game == game)
        .unwrap_or_else(|| panic!("no capture scene for {variant}: add one to SCENES"));
    open_local_game(client, server, variant, scene.position).await;
    for cell in scene.taps {
        tap(client, cell).await;
    }
    for cell in scene.hinted {
        let (x, y) = cell_centre(client, cell).await;
        let hit = eval(
            client,
            &format!(
                "const board = document.querySelector('[data-board]');
                 for (const e of board.querySelectorAll('.layer-pieces, .layer-pieces *')) e.style.pointerEvents = 'auto';
                 const piece = !!board.querySelector('[data-piece-at=\"{cell}\"]');
                 const e = document.elementFromPoint({x}, {y});
                 const hint = e && e.closest('[data-hint-for]');
                 const answer = {{ piece, hint: hint ? hint.getAttribute('data-hint-for') : null, kind: hint ? hint.getAttribute('class') : (e ? e.outerHTML.slice(0, 80) : null) }};
                 for (const e of board.querySelectorAll('.layer-pieces, .layer-pieces *')) e.style.pointerEvents = '';
                 return answer;"
            ),
        )
        .await;
        assert_eq!(hit["hint"], json!(cell), "{variant}: no hint painted at {cell}: {hit}");
        let kind = hit["kind"].as_str().unwrap_or_default();
        if hit["piece"] == true {
            assert!(kind.contains("hint-occupied"), "{variant}: {cell} holds a piece but its hint is {kind}");
        } else {
            assert!(kind.contains("hint-empty"), "{variant}: {cell} is empty but its hint is {kind}");
        }
    }
    assert!(
        eval(
            client,
            &format!("return !!document.querySelector('[data-board] [data-piece-at=\"{}\"]')", scene.hinted[0])
        )
        .await
            == json!(true),
        "{variant}: the first hinted cell of the scene should hold a piece"
    );
    screenshot(client, &format!("{variant}-hints")).await;
    drag(client, scene.drag.0, scene.drag.1, false).await;
    if let Some(choice) = scene.choice {
        until(client, "the choice", &format!("return !!document.querySelector('[data-choice=\"{choice}\"]')")).await;
        click(client, &format!("[data-choice=\"{choice}\"]")).await;
    }
    until(
        client,
        &format!("{} to be played", scene.played),
        &format!("return window.menagerieGame.state.moves.some(m => m.text === '{}')", scene.played),
    )
    .await;
}

/// Lunch Chess: attack by clicking, then answer the attack with a card;
/// the answer buttons and the pass are in view at every size.
async fn answer_an_attack_with_a_card(client: &Client, server: &TestServer) {
    open_local_game(client, server, "lunch", Some(LUNCH_ATTACK)).await;
    // Discards are chosen by picking cards: the button names the exact discard.
    // (The state arrives before the panel is drawn: wait for the panel.)
    until(client, "the discard chooser", "return !!document.querySelector('[data-discard]')").await;
    let discard = "return document.querySelector('[data-discard]').dataset.move";
    assert_eq!(eval(client, discard).await, "");
    click(client, "[data-discard-card=\"jab\"]").await;
    assert_eq!(eval(client, discard).await, "discard:jab");
    click(client, "[data-discard-card=\"kick\"]").await;
    let both = eval(client, discard).await;
    assert!(both == "discard:jab+kick" || both == "discard:kick+jab", "{both}");
    click(client, "[data-discard-card=\"jab\"]").await;
    assert_eq!(eval(client, discard).await, "discard:kick");
    click(client, "[data-discard-card=\"kick\"]").await;
    tap(client, "a4").await;
    tap(client, "a5").await;
    until(client, "the choice of attacks", "return !!document.querySelector('[data-choice=\"attack:a4a5:kick\"]')")
        .await;
    let title = eval(client, "return document.querySelector('[data-choice=\"attack:a4a5:kick\"]').title").await;
    assert!(title.as_str().unwrap_or_default().contains("4 damage"), "the card is not explained: {title}");
    click(client, "[data-choice=\"attack:a4a5:kick\"]").await;
    until(client, "the attack", "return window.menagerieGame.state.moves.some(m => m.text === 'attack:a4a5:kick')")
        .await;
    // Black: pass any window before the answer, then answer with a card.
    let mut answered = None;
    for _ in 0..6 {
        until(
            client,
            "a decision",
            "return window.menagerieGame.state.your_turn || !!window.menagerieGame.state.result",
        )
        .await;
        let answer = eval(client, "const b = document.querySelector('[data-move^=\"answer:\"]'); return b ? b.getAttribute('data-move') : null").await;
        if let Some(text) = answer.as_str() {
            assert_layout(client, "lunch-answer").await;
            let ply = eval(client, "return window.menagerieGame.state.ply").await.as_u64().unwrap();
            click(client, &format!("[data-move=\"{text}\"]")).await;
            until(client, "the answer", &format!("return window.menagerieGame.state.ply > {ply}")).await;
            answered = Some(text.to_owned());
            break;
        }
        // A window Black can only pass (no Humiliation in hand) goes by by itself.
        let ply = eval(client, "return window.menagerieGame.state.ply").await.as_u64().unwrap();
        if eval(client, "return !!document.querySelector('[data-move=\"pass\"]')").await == json!(true) {
            click(client, "[data-move=\"pass\"]").await;
        }
        until(client, "the pass", &format!("return window.menagerieGame.state.ply > {ply}")).await;
    }
    let answered = answered.expect("Black was offered an answer card");
    assert!(answered.starts_with("answer:"), "{answered}");
    assert_panel_drawn(client, "lunch").await;
    let log = eval(client, "return document.querySelector('[data-battle-log]').textContent").await;
    assert!(log.as_str().unwrap_or_default().contains("Attack a4→a5 with Kick"), "{log}");
}

/// After resigning, the result is in its panel beside the board, no "to
/// move" is left anywhere, and no empty box of legal moves.
async fn the_end_is_said_once(client: &Client, server: &TestServer) {
    let variant = if variants().contains(&"lichen") { "lichen" } else { "nim" };
    open_local_game(client, server, variant, None).await;
    eval(client, "window.confirm = () => true; return true").await;
    click(client, "[data-action=\"resign\"]").await;
    until(
        client,
        "the result",
        "return !!window.menagerieGame.state.result && !!document.querySelector('[data-result]')",
    )
    .await;
    let page = eval(client, "return [...document.querySelectorAll('.g-top, .g-bottom, [data-now], .g-below')].map(e => e.innerText).join('\\n')").await;
    let text = page.as_str().unwrap_or_default().to_lowercase();
    assert!(
        !text.contains("to move") && !text.contains("your move") && !text.contains("to act"),
        "stale turn text after the end:\n{text}"
    );
    assert!(text.contains("wins"), "no result:\n{text}");
    let details = eval(client, "return [...document.querySelectorAll('details')].filter(d => d.offsetParent !== null && !d.querySelector('summary')).length").await;
    assert_eq!(details, 0, "an empty details box");
    let all_moves = eval(client, "return document.querySelector('.all-moves').hidden").await;
    assert_eq!(all_moves, true, "the legal moves list is shown with no legal moves");
    assert_layout(client, &format!("{variant}-over")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_game_is_playable_in_chromium() {
    if !browser_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("games.sqlite")).await;
    let (_driver, client) = start_browser(&dir.path().join("profile"), DESKTOP_WITHOUT_SCROLLBARS).await;
    set_viewport(&client, 1400, 1000).await;
    for (i, variant) in variants().into_iter().enumerate() {
        // Every other game drags with a finger rather than the mouse.
        play_against_the_computer(&client, &server.base, variant, i % 2 == 1).await;
        if variant != "nim" {
            hints_are_above_the_pieces(&client, &server, variant).await;
        }
    }
    if variants().contains(&"lunch") {
        answer_an_attack_with_a_card(&client, &server).await;
    }
    the_end_is_said_once(&client, &server).await;
    // Both sides on one device: the page moves for whichever side is to act.
    let variant = if variants().contains(&"lma") { "lma" } else { "nim" };
    open_local_game(&client, &server, variant, None).await;
    for ply in 0..4 {
        until(&client, "our turn", "return window.menagerieGame.state.your_turn").await;
        make_a_move(&client, false).await;
        until(&client, "the move", &format!("return window.menagerieGame.state.ply > {ply}")).await;
    }
    screenshot(&client, &format!("{variant}-local")).await;

    // The home page lists the games just played.
    client.goto(&format!("{}/", server.base)).await.unwrap();
    until(&client, "your games", "return document.querySelectorAll('.your-games li').length").await;
    screenshot(&client, "home").await;
    if variants().contains(&"lichen") {
        read_the_insights(&client, &server.base).await;
    }
    client.close().await.unwrap();
    server.stop().await;
}

/// From a game's card to its Insights page and on to a study's report with
/// its chart, readable on a desktop and on a phone.
async fn read_the_insights(client: &Client, base: &str) {
    let link = eval(
        client,
        "return document.querySelector('[data-variant=\"lichen\"] a[href^=\"/insights\"]').getAttribute('href')",
    )
    .await;
    assert_eq!(link, json!("/insights/lichen"));
    client.goto(&format!("{base}/insights/lichen")).await.unwrap();
    until(client, "the findings", "return document.querySelectorAll('article table').length").await;
    screenshot(client, "insights-lichen").await;
    set_viewport(client, 390, 844).await;
    let overflow = eval(client, "return document.documentElement.scrollWidth - innerWidth").await;
    assert!(overflow.as_i64().unwrap() <= 0, "the page scrolls sideways on a phone: {overflow}");
    screenshot(client, "insights-lichen-phone").await;
    client.goto(&format!("{base}/insights/lichen/a2ne/nodes-20000/report.md")).await.unwrap();
    let chart = until(
        client,
        "the chart",
        "const img = document.querySelector('article img'); return img && img.complete && img.naturalWidth",
    )
    .await;
    assert!(chart.as_u64().unwrap() > 0, "the chart is drawn");
    let overflow = eval(client, "return document.documentElement.scrollWidth - innerWidth").await;
    assert!(overflow.as_i64().unwrap() <= 0, "the report scrolls sideways on a phone: {overflow}");
    screenshot(client, "insights-report-phone").await;
    set_viewport(client, 1400, 1000).await;
}

/// Starts a local game of `variant` from the home page's form with a clock
/// of `minutes` and no increment.
async fn start_timed_local_game(client: &Client, base: &str, variant: &str, minutes: &str) {
    client.goto(&format!("{base}/")).await.unwrap();
    home_page_drawn(client, &format!("[data-new-game=\"{variant}\"]")).await;
    click(client, &format!("[data-new-game=\"{variant}\"]")).await;
    let form = format!("document.querySelector('[data-variant=\"{variant}\"] form')");
    eval(
        client,
        &format!(
            "const f = {form}; f.opponent.value = 'local'; f.colour.value = 'first';
             f.clock.value = 'fischer'; f.clock.dispatchEvent(new Event('change'));
             f.minutes.value = '{minutes}'; f.increment.value = '0'; return true"
        ),
    )
    .await;
    click(client, &format!("[data-start=\"{variant}\"]")).await;
    until(
        client,
        "the game page",
        "return location.pathname.startsWith('/g/') && window.menagerieGame && window.menagerieGame.state && document.querySelector('[data-board] svg, [data-board] pre')",
    )
    .await;
}

/// In a short game (0.05 minutes, 3 s, no increment) both sides move once;
/// then the clock of whoever must decide counts down on the page, nobody
/// moves, and the server ends the game on time: that side loses (from the
/// start every side can still win). Screenshots of the end at every size.
async fn a_flag_falls(client: &Client, base: &str, variant: &str) {
    start_timed_local_game(client, base, variant, "0.05").await;
    let described = eval(client, "return document.querySelector('[data-clock=\"first\"]').title").await;
    assert_eq!(described, "3 s+0", "{variant}: the time control in words");
    // Both sides move (the page plays whichever side is to act).
    for _ in 0..20 {
        let state = eval(client, "const s = window.menagerieGame.state; return {running: s.clock.running, your: s.your_turn, over: !!s.result, ply: s.ply}").await;
        if !state["running"].is_null() || state["over"] == true {
            break;
        }
        if state["your"] == true {
            make_a_move(client, false).await;
            until(
                client,
                "the move",
                &format!(
                    "return window.menagerieGame.state.ply > {} || !!window.menagerieGame.state.result",
                    state["ply"]
                ),
            )
            .await;
        } else {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    let running = eval(client, "return window.menagerieGame.state.clock.running").await;
    let running = running.as_str().unwrap_or_else(|| panic!("{variant}: no clock runs after both moved")).to_owned();
    let read = format!("return document.querySelector('[data-clock=\"{running}\"]').textContent");
    let first_reading = eval(client, &read).await;
    let running_class = eval(
        client,
        &format!("return document.querySelector('[data-clock=\"{running}\"]').classList.contains('running')"),
    )
    .await;
    tokio::time::sleep(Duration::from_millis(400)).await;
    let second_reading = eval(client, &read).await;
    assert_ne!(first_reading, second_reading, "{variant}: the running clock does not count down");
    assert_eq!(running_class, true, "{variant}: the running clock is not marked");
    until(
        client,
        "the flag",
        "return !!window.menagerieGame.state.result && !!document.querySelector('[data-result]')",
    )
    .await;
    let result = eval(client, "return window.menagerieGame.state.result").await;
    let winner = if running == "first" { "second" } else { "first" };
    assert_eq!(result["winner"], winner, "{variant}: {result}");
    assert!(result["reason"].as_str().unwrap_or_default().contains("ran out of time"), "{variant}: {result}");
    let shown = eval(client, "return document.querySelector('[data-result]').textContent").await;
    assert!(shown.as_str().unwrap_or_default().contains("ran out of time"), "{variant}: {shown}");
    // The loser's clock shows nothing left and runs no more.
    let (reading, still_running) = {
        let value = eval(client, &format!("const c = document.querySelector('[data-clock=\"{running}\"]'); return [c.textContent, c.classList.contains('running')]")).await;
        (value[0].as_str().unwrap_or_default().to_owned(), value[1].clone())
    };
    assert_eq!(reading, "0:00.0", "{variant}");
    assert_eq!(still_running, false, "{variant}");
    assert_layout(client, &format!("{variant}-flag")).await;
}

/// Both sides on this page, no clock: the first side's whole turn goes
/// back with the Take back button (asked by the side that moved, granted
/// by the other), and the board is as before it.
async fn a_move_goes_back(client: &Client, server: &TestServer, variant: &str) {
    open_local_game(client, server, variant, None).await;
    let start =
        eval(client, "const s = window.menagerieGame.state; return {ply: s.ply, board: JSON.stringify(s.board)}").await;
    let ply = start["ply"].as_u64().unwrap();
    until(client, "our turn", "return window.menagerieGame.state.your_turn").await;
    make_a_move(client, false).await;
    until(client, "the move", &format!("return window.menagerieGame.state.ply > {ply}")).await;
    // The rest of the first side's turn (Kelasu actions, Lunch windows).
    for _ in 0..10 {
        let to_act = eval(client, "return window.menagerieGame.state.to_act").await;
        if to_act != "first" {
            break;
        }
        let now = eval(client, "return window.menagerieGame.state.ply").await;
        make_a_move(client, false).await;
        until(client, "the move", &format!("return window.menagerieGame.state.ply > {now}")).await;
    }
    click(client, "[data-action=\"takeback\"]").await;
    until(client, "the takeback", &format!("return window.menagerieGame.state.ply === {ply}")).await;
    let after = eval(client, "const s = window.menagerieGame.state; return {ply: s.ply, to_act: s.to_act, board: JSON.stringify(s.board), listed: document.querySelectorAll('[data-moves] .move.first').length}").await;
    assert_eq!(after["to_act"], "first", "{variant}: {after}");
    assert_eq!(after["listed"], 0, "{variant}: the move list still shows the move taken back");
    if variant != "lunch" {
        // (In Lunch Chess the view names the cards of the last decision's battle log.)
        assert_eq!(after["board"], start["board"], "{variant}: the board is not as before");
    }
    screenshot(client, &format!("{variant}-takeback")).await;
}

/// The page asks for the acting seat's state after each move (a local
/// game): an answer that comes back after a takeback was granted is older
/// than the takeback, and must not bring the move back. The page's first
/// such request is held for 1.5 s to make that order certain.
async fn a_late_answer_does_not_undo_a_takeback(client: &Client, server: &TestServer, variant: &str) {
    open_local_game(client, server, variant, None).await;
    eval(
        client,
        r"const real = window.fetch.bind(window);
          let held = false;
          window.fetch = async (url, init) => {
            const response = await real(url, init);
            const state = /^\/api\/games\/[^/?]+(\?|$)/.test(String(url)) && (!init || init.method === 'GET');
            if (state && !held) { held = true; await new Promise((r) => setTimeout(r, 1500)); }
            return response;
          };
          return true",
    )
    .await;
    make_a_move(client, false).await;
    until(
        client,
        "the move",
        "return window.menagerieGame.state.ply === 1 && window.menagerieGame.state.to_act === 'second'",
    )
    .await;
    click(client, "[data-action=\"takeback\"]").await;
    until(client, "the takeback", "return window.menagerieGame.state.ply === 0").await;
    tokio::time::sleep(Duration::from_millis(2000)).await;
    let after = eval(client, "const s = window.menagerieGame.state; return {ply: s.ply, to_act: s.to_act, listed: document.querySelectorAll('[data-moves] .move.first').length}").await;
    assert_eq!(after, json!({"ply": 0, "to_act": "first", "listed": 0}), "{variant}: a late answer undid the takeback");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clocks_count_down_flags_fall_and_moves_go_back_in_every_game() {
    if !browser_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("games.sqlite")).await;
    let (_driver, client) = start_browser(&dir.path().join("profile"), DESKTOP_WITHOUT_SCROLLBARS).await;
    set_viewport(&client, 1400, 1000).await;
    for variant in variants() {
        a_flag_falls(&client, &server.base, variant).await;
        a_move_goes_back(&client, &server, variant).await;
    }
    a_late_answer_does_not_undo_a_takeback(&client, &server, "fluid").await;
    client.close().await.unwrap();
    server.stop().await;
}

/// The operator's decks on the home page, and a spectator watching a Lunch
/// Chess game: the board with its pieces and hit points, both hands as counts.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_home_page_offers_the_decks_and_spectators_watch_the_board() {
    if !browser_available() || !variants().contains(&"lunch") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let decks = dir.path().join("decks");
    std::fs::create_dir(&decks).unwrap();
    let small = "[[card]]\nname = \"Jab\"\ncode = \"jab\"\nkind = \"attack\"\ncount = 12\ndamage = 1\nnumbers = \"confirmed\"\n";
    std::fs::write(decks.join("small.toml"), small).unwrap();
    let catalog = menagerie_server::catalog::Catalog::with_decks(&decks).unwrap();
    let server = TestServer::start_with_catalog(&dir.path().join("games.sqlite"), catalog).await;
    let (_driver, client) = start_browser(&dir.path().join("profile"), DESKTOP_WITHOUT_SCROLLBARS).await;

    client.goto(&format!("{}/", server.base)).await.unwrap();
    home_page_drawn(&client, "[data-new-game=\"lunch\"]").await;
    click(&client, "[data-new-game=\"lunch\"]").await;
    let form = "document.querySelector('[data-variant=\"lunch\"] form')";
    let choices = eval(
        &client,
        &format!("return [...{form}.querySelectorAll('select[name=\"opt-deck\"] option')].map(o => o.value)"),
    )
    .await;
    assert_eq!(choices, json!(["standard", "small"]));
    eval(&client, &format!("const f = {form}; f.querySelector('select[name=\"opt-deck\"]').value = 'small'; f.opponent.value = 'local'; return true")).await;
    click(&client, "[data-start=\"lunch\"]").await;
    // Drawn, so that the page has saved the game in this browser's list
    // before the list is cleared below.
    let variant = until(
        &client,
        "the game page",
        "return window.menagerieGame && window.menagerieGame.state && !!document.querySelector('[data-lunch-panel]') \
         && window.menagerieGame.state.variant",
    )
    .await;
    assert_eq!(variant, "lunch:deck=small");
    let id = eval(&client, "return window.menagerieGame.state.id").await;

    // The spectator's page of the same game (a browser that holds no seat of it).
    eval(&client, "localStorage.clear(); return true").await;
    client.goto(&format!("{}/g/{}", server.base, id.as_str().unwrap())).await.unwrap();
    until(
        &client,
        "the spectator's page",
        "return window.menagerieGame && window.menagerieGame.state && !!document.querySelector('[data-hand=\"black\"]')",
    )
    .await;
    let seen = eval(&client, "return {you: window.menagerieGame.state.you, cards: document.querySelectorAll('[data-hand] .card').length, white: document.querySelector('[data-hand=\"white\"]').textContent, black: document.querySelector('[data-hand=\"black\"]').textContent, pieces: window.menagerieGame.state.board.squares.length, board: document.querySelector('[data-board]').textContent}").await;
    assert_eq!(seen["you"], Value::Null, "{seen}");
    assert_eq!(seen["cards"], 0, "a spectator sees no card of a hand: {seen}");
    assert!(seen["white"].as_str().unwrap().contains("5 cards (hidden)"), "{seen}");
    assert!(seen["black"].as_str().unwrap().contains("5 cards (hidden)"), "{seen}");
    assert_eq!(seen["pieces"], 32, "{seen}");
    assert!(!seen["board"].as_str().unwrap().contains("hidden"), "{seen}");
    std::fs::write(screenshots().join("lunch-spectator.png"), client.screenshot().await.unwrap()).unwrap();
    client.close().await.unwrap();
    server.stop().await;
}
