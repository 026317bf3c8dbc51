//! The page's rough edges, each seen in a real headless Chromium at a
//! desktop (1280×800) and a phone (400×800) size: a friend game shows its
//! invitation until the friend has joined; Lichen's slots are whole-stone
//! targets on a phone; a game of Lunch Chess reads like a story (the card
//! explanation covers no control and a tap elsewhere puts its hint back,
//! forced passes play themselves, passes are folded and said in words, each
//! step stands in its actor's column, a discard is named one way, First Aid
//! is offered plainly and only where it changes something); a mated king is marked; the analysis board writes moves as
//! the game page does; the rules, insights and report pages have an icon,
//! plain titles, real table headers, links to the reports and charts
//! readable on a phone; hint marks leave coordinates and hit points in
//! sight. Screenshots go to target/screenshots/page-*.png.
//!
//! Skipped when Chromium or chromedriver is missing, unless
//! MENAGERIE_REQUIRE_BROWSER=1 (as in CI), which makes that a failure.

use crate::common::browser::*;
use crate::common::{variants, TestServer};
use fantoccini::actions::{InputSource, MouseActions, PointerAction, TouchActions, MOUSE_BUTTON_LEFT};
use fantoccini::Client;
use serde_json::{json, Value};
use std::time::Duration;

/// The window sizes every point is checked at (CSS pixels of the viewport).
const SIZES: [(u32, u32, &str); 2] = [(1280, 800, "desktop"), (400, 800, "phone")];

/// White's Rook on a4 can attack Black's Queen on a5 with a Kick; Black
/// holds Dodge, Block and First Aid, and neither side a Humiliation.
const LUNCH_ATTACK: &str =
    "4k3/8/8/q7/R7/8/8/4K3 w - jab,kick dodge,block,firstaid - - - - - turn.action 0,0,0 0123456789abcdef - white";

/// Opens a game as this browser's (both secrets kept, as the home page
/// keeps them) at the first seat.
async fn open_game(client: &Client, server: &TestServer, body: Value) -> (String, Value) {
    let created = server.create(body.clone()).await;
    let id = created["id"].as_str().unwrap().to_owned();
    let first = created["secrets"]["first"].as_str().unwrap();
    client.goto(&format!("{}/", server.base)).await.unwrap();
    let entry = json!({ "id": id, "variant": body["variant"], "name": body["variant"], "mode": created["mode"], "you": "first", "seat": first, "secrets": created["secrets"] });
    eval(client, &format!("localStorage.setItem('menagerie.games', JSON.stringify([{entry}])); return true")).await;
    client.goto(&format!("{}/g/{id}?seat={first}", server.base)).await.unwrap();
    until(
        client,
        "the game",
        "return window.menagerieGame && window.menagerieGame.state && document.querySelector('[data-board] svg')",
    )
    .await;
    (id, created["secrets"].clone())
}

/// The centre of the first element `css` finds, in viewport pixels, after
/// scrolling it into view.
async fn centre_of(client: &Client, css: &str) -> (f64, f64) {
    let css = serde_json::to_string(css).unwrap();
    let at = until(
        client,
        &format!("the element {css}"),
        &format!(
            "const e = document.querySelector({css}); if (!e) return null; e.scrollIntoView({{block: 'nearest'}}); \
             const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]"
        ),
    )
    .await;
    (at[0].as_f64().unwrap(), at[1].as_f64().unwrap())
}

/// A press and release at a point: a finger's tap, or a mouse click.
async fn tap_at(client: &Client, (x, y): (f64, f64), touch: bool) {
    let steps = [
        PointerAction::MoveTo { duration: None, x: x.round(), y: y.round() },
        PointerAction::Down { button: MOUSE_BUTTON_LEFT },
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
}

async fn tap_cell(client: &Client, cell: &str, touch: bool) {
    let at = centre_of(client, &format!("[data-board] [data-square=\"{cell}\"]")).await;
    tap_at(client, at, touch).await;
}

async fn shot(client: &Client, name: &str, size: &str) {
    eval(client, "window.scrollTo(0, 0); return true").await;
    tokio::time::sleep(Duration::from_millis(100)).await;
    screenshot(client, &format!("page-{name}-{size}")).await;
}

async fn with_browser(name: &str) -> (tempfile::TempDir, TestServer, Driver, Client) {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join(format!("{name}.sqlite"))).await;
    let (driver, client) = start_browser(&dir.path().join("profile"), DESKTOP_WITHOUT_SCROLLBARS).await;
    (dir, server, driver, client)
}

/// The creator of a friend game sees the invitation link until the friend
/// has opened the game, whatever the game did on its own meanwhile (Lunch
/// Chess deals 10 cards first); `seats.second.joined` says so.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_friend_game_shows_its_invitation_until_the_friend_joins() {
    if !browser_available() {
        return;
    }
    let (_dir, server, _driver, client) = with_browser("invite").await;
    for (width, height, size) in SIZES {
        set_viewport(&client, width, height).await;
        for variant in variants() {
            let (id, secrets) =
                open_game(&client, &server, json!({ "variant": variant, "opponent": "friend", "colour": "first" }))
                    .await;
            let friend = secrets["second"].as_str().unwrap();
            let shown = until(
                &client,
                &format!("{variant}: the invitation"),
                "const i = document.querySelector('[data-invite]'); return i && !i.closest('.invite').hidden && i.value",
            )
            .await;
            assert!(shown.as_str().unwrap().ends_with(&format!("/g/{id}?seat={friend}")), "{variant}: {shown}");
            let public = server.state(&id, None).await;
            assert_eq!(public["seats"]["second"]["joined"], false, "{variant}: {}", public["seats"]);
            assert_eq!(public["seats"]["first"]["joined"], true, "{variant}: the creator opened it");
            if variant == "lunch" {
                assert!(public["ply"].as_u64().unwrap() > 2, "the deal is made before anyone moves");
                centre_of(&client, "[data-invite]").await;
                screenshot(&client, &format!("page-invite-lunch-{size}")).await;
            }
            // The friend opens the link: the invitation goes.
            let joined = server.state(&id, Some(friend)).await;
            assert_eq!(joined["seats"]["second"]["joined"], true, "{variant}");
            until(
                &client,
                &format!("{variant}: the invitation gone"),
                "return document.querySelector('.invite').hidden && window.menagerieGame.state.seats.second.joined",
            )
            .await;
        }
    }
    client.close().await.unwrap();
    server.stop().await;
}

/// On a phone a Lichen slot is a few pixels wide: a press anywhere on the
/// stone selects its nearest free slot (7 px off a slot's centre is that
/// slot), with a finger and with a mouse.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lichen_stones_are_the_targets_of_their_slots() {
    if !browser_available() || !variants().contains(&"lichen") {
        return;
    }
    let (_dir, server, _driver, client) = with_browser("lichen").await;
    for (width, height, size) in SIZES {
        set_viewport(&client, width, height).await;
        open_game(&client, &server, json!({ "variant": "lichen", "opponent": "local", "colour": "first" })).await;
        until(&client, "our turn", "return window.menagerieGame.state.your_turn").await;
        // Moves are recorded, not played: every slot is tried from the same position.
        eval(&client, "const g = window.menagerieGame; g.played = []; g.play = (text) => { g.played.push(text); g.path = []; g.choosing = null; g.renderBoard(); }; return true").await;
        let free =
            eval(&client, "return [...new Set(window.menagerieGame.state.legal_moves.map((m) => m.split(';')[0]))]")
                .await;
        let free: Vec<String> = free.as_array().unwrap().iter().map(|v| v.as_str().unwrap().to_owned()).collect();
        let stone = free[0].trim_end_matches(|c: char| c.is_ascii_alphabetic()).to_owned();
        let slots: Vec<&String> =
            free.iter().filter(|s| s.trim_end_matches(|c: char| c.is_ascii_alphabetic()) == stone).collect();
        assert!(slots.len() >= 4, "{size}: the stone {stone} has free slots: {free:?}");
        let cell = eval(&client, &format!("const r = document.querySelector('[data-board] [data-square=\"{stone}\"]').getBoundingClientRect(); return [r.width, r.height]")).await;
        assert!(cell[0].as_f64().unwrap() >= 40.0, "{size}: the stone, the target, is {cell}");
        let selected = "const g = window.menagerieGame; return g.path[0] || g.played[g.played.length - 1] || null";
        for slot in &slots {
            let (x, y) = centre_of(&client, &format!("[data-board] .slot[data-square=\"{slot}\"]")).await;
            // 7 px off the slot's centre, away from the stone's centre.
            let (cx, cy) = centre_of(&client, &format!("[data-board] [data-square=\"{stone}\"]")).await;
            let away = ((x - cx).hypot(y - cy)).max(1.0);
            let at = (x + 7.0 * (x - cx) / away, y + 7.0 * (y - cy) / away);
            tap_at(&client, at, size == "phone").await;
            let got = eval(&client, selected).await;
            assert!(
                got.as_str().is_some_and(|t| t.starts_with(slot.as_str())),
                "{size}: a press 7 px off {slot} selected {got}"
            );
            eval(&client, "const g = window.menagerieGame; g.played = []; g.deselect(); return true").await;
        }
        // The stone's centre: its nearest free slot.
        tap_cell(&client, &stone, size == "phone").await;
        let got = eval(&client, selected).await;
        assert!(
            slots.iter().any(|slot| got.as_str().is_some_and(|t| t.starts_with(slot.as_str()))),
            "{size}: a press on the stone {stone} selected {got}"
        );
        shot(&client, "lichen-slot", size).await;
    }
    client.close().await.unwrap();
    server.stop().await;
}

/// Checks that `[data-now]`'s buttons are what a press at their centre hits.
async fn buttons_uncovered(client: &Client, what: &str) {
    let covered = eval(
        client,
        "return [...document.querySelectorAll('[data-now] button')].filter((b) => b.offsetParent !== null).flatMap((b) => {
           b.scrollIntoView({block: 'nearest'}); const r = b.getBoundingClientRect();
           const e = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
           return e && (e === b || b.contains(e)) ? [] : [`${b.textContent} under ${e ? e.outerHTML.slice(0, 60) : 'nothing'}`]; })",
    )
    .await;
    assert_eq!(covered, json!([]), "{what}: buttons covered");
}

/// Checks that no card explanation on the page overlaps a control (a
/// button, a link, a field, a card, the move list's navigation): a box
/// over one hid Resign, Draw, Flip, Download and Analyse.
async fn explanations_cover_no_control(client: &Client, what: &str) {
    let covered = eval(
        client,
        "const boxes = [...document.querySelectorAll('[data-card-info]')].filter((b) => b.offsetParent !== null);
         const controls = [...document.querySelectorAll('button, a[href], input, select, textarea, summary, [data-card], [data-nav]')]
           .filter((c) => c.offsetParent !== null && !boxes.some((b) => b.contains(c)));
         const over = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;
         return boxes.length ? boxes.flatMap((b) => { const r = b.getBoundingClientRect();
           return controls.filter((c) => over(r, c.getBoundingClientRect())).map((c) => c.outerHTML.slice(0, 80)); }) : null",
    )
    .await;
    assert_eq!(covered, json!([]), "{what}: a card's explanation covers controls (or shows nowhere)");
}

/// Checks that each move of the list stands in its actor's column (a
/// chance move in its turn's).
async fn moves_in_their_actors_columns(client: &Client, what: &str) {
    let misplaced = eval(
        client,
        "const byPly = new Map(window.menagerieGame.state.moves.map((m) => [m.ply, m]));
         return [...document.querySelectorAll('[data-moves] .move')].flatMap((e) => {
           const m = byPly.get(Number(e.dataset.ply));
           const column = e.closest('.cell').classList.contains('first') ? 'first' : 'second';
           return m && m.actor !== 'chance' && m.actor !== column ? [`${e.textContent} (${m.actor}) under ${column}`] : []; })",
    )
    .await;
    assert_eq!(misplaced, json!([]), "{what}: moves in the other side's column");
}

/// White holds First Aid and a Jab: a Pawn on a2 and a King at full strength.
const LUNCH_FIRST_AID: &str =
    "4k3/8/8/8/8/8/P7/4K3 w - firstaid,jab dodge - - - - - turn.action 0,0,0 0123456789abcdef - white";

/// A game of Lunch Chess as its players read it: an attack, the windows
/// nobody can use played by themselves, an answer chosen with the card's
/// explanation open (it covers no choice, and a tap on the board closes
/// it), then the move list and the battle log in words.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_of_lunch_chess_reads_like_a_story() {
    if !browser_available() || !variants().contains(&"lunch") {
        return;
    }
    let (_dir, server, _driver, client) = with_browser("lunch").await;
    for (width, height, size) in SIZES {
        let touch = size == "phone";
        set_viewport(&client, width, height).await;
        let (id, secrets) = open_game(
            &client,
            &server,
            json!({ "variant": "lunch", "opponent": "local", "colour": "first", "position": LUNCH_ATTACK }),
        )
        .await;
        until(&client, "the attack", "return window.menagerieGame.state.legal_moves.includes('attack:a4a5:kick')")
            .await;
        let (status, _) = server.play(&id, secrets["first"].as_str().unwrap(), "attack:a4a5:kick").await;
        assert_eq!(status, 200);
        // Black holds no Humiliation: that window is no decision, and goes
        // by without a click; then Black may answer.
        let answer = until(
            &client,
            "Black's answer",
            "return document.querySelector('[data-move=\"answer:dodge\"]') && window.menagerieGame.state.moves.length",
        )
        .await;
        let pending = eval(&client, "return document.querySelector('[data-pending]').textContent").await;
        assert!(
            pending.as_str().unwrap().contains("may answer Kick on a5") && !pending.as_str().unwrap().contains("chain"),
            "{size}: {pending}"
        );
        let pass = eval(&client, "return document.querySelector('[data-move=\"pass\"]').textContent").await;
        assert_eq!(pass, "No answer", "{size}");
        // The explanation of a card in the hand, tapped: it covers no choice.
        tap_at(
            &client,
            centre_of(&client, "[data-lunch-panel] [data-hand=\"black\"] [data-card=\"dodge\"]").await,
            touch,
        )
        .await;
        let info =
            "return document.querySelector('[data-lunch-panel] [data-card-info]').hasAttribute('data-card-shown')";
        assert_eq!(eval(&client, info).await, true, "{size}: the explanation is shown");
        buttons_uncovered(&client, size).await;
        explanations_cover_no_control(&client, size).await;
        shot(&client, "lunch-card-explained", size).await;
        // A tap on the board puts the hint back.
        tap_cell(&client, "h1", touch).await;
        assert_eq!(eval(&client, info).await, false, "{size}: the explanation stays");
        // A card of the lower panel (the battle's), explained there: no control covered either.
        tap_at(&client, centre_of(&client, "[data-battle-line] [data-card]").await, touch).await;
        let below = "return document.querySelector('.lunch-info [data-card-info]').hasAttribute('data-card-shown')";
        assert_eq!(eval(&client, below).await, true, "{size}: the battle's card is explained");
        explanations_cover_no_control(&client, size).await;
        shot(&client, "lunch-card-explained-below", size).await;
        tap_cell(&client, "h1", touch).await;
        let before = answer.as_u64().unwrap();
        click(&client, "[data-move=\"answer:dodge\"]").await;
        until(&client, "the answer", &format!("return window.menagerieGame.state.moves.length > {before}")).await;
        // Black's Dodge, made in White's turn, stands under Black.
        let dodge = until(
            &client,
            "the Dodge listed",
            "const e = [...document.querySelectorAll('[data-moves] .move')].find((e) => e.dataset.text === 'answer:dodge');
             return e && { column: e.closest('.cell').classList.contains('second') ? 'second' : 'first', answer: e.classList.contains('answer') }",
        )
        .await;
        assert_eq!(dodge, json!({ "column": "second", "answer": true }), "{size}: the Dodge's place in the list");
        // White's window on the Dodge goes by too; then Black's turn.
        until(
            &client,
            "Black's turn",
            "return window.menagerieGame.state.board.on_turn === 'black' && window.menagerieGame.state.your_turn",
        )
        .await;
        // Black discards two cards: named the same way in the list and the log.
        let discard = eval(
            &client,
            "return window.menagerieGame.state.legal_moves.find((m) => m.startsWith('discard:') && m.split('+').length === 2)",
        )
        .await;
        let discard = discard.as_str().unwrap().to_owned();
        let (status, _) = server.play(&id, secrets["second"].as_str().unwrap(), &discard).await;
        assert_eq!(status, 200);
        until(
            &client,
            "the discard",
            &format!("return window.menagerieGame.state.moves.some((m) => m.text === '{discard}')"),
        )
        .await;
        let story = until(
            &client,
            "the story",
            &format!(
                "const s = window.menagerieGame.state; const d = s.moves.find((m) => m.text === '{discard}');
                 const listed = [...document.querySelectorAll('[data-moves] .move')];
                 const log = [...document.querySelectorAll('[data-battle-log] li')].map((li) => li.textContent);
                 return d && log.length && {{ listed: listed.map((e) => e.textContent), passes: listed.filter((e) => e.classList.contains('pass')).map((e) => e.textContent),
                   discard: listed.find((e) => e.dataset.text === '{discard}').textContent, log }}"
            ),
        )
        .await;
        moves_in_their_actors_columns(&client, size).await;
        let listed: Vec<&str> = story["listed"].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
        assert!(!listed.contains(&"pass"), "{size}: a bare pass in the list: {listed:?}");
        let passes = story["passes"].as_array().unwrap();
        assert!(!passes.is_empty(), "{size}: {story}");
        assert!(passes.iter().all(|p| p.as_str().unwrap().starts_with("no ")), "{size}: {story}");
        // Passes in a row are one entry.
        let moves =
            eval(&client, "return window.menagerieGame.state.moves.filter((m) => m.text === 'pass').length").await;
        let entries = eval(&client, "return [...document.querySelectorAll('[data-moves] .move.pass')].reduce((n, e) => n + Number(e.dataset.passes || 1), 0)").await;
        assert_eq!(entries, moves, "{size}: every pass is in the list");
        let discarded = story["discard"].as_str().unwrap().to_lowercase();
        assert!(discarded.starts_with("discard ") && !discarded.contains("cards"), "{size}: {story}");
        let log: Vec<String> =
            story["log"].as_array().unwrap().iter().map(|v| v.as_str().unwrap().to_lowercase()).collect();
        assert!(
            log.iter().any(|line| line.ends_with(&discarded)),
            "{size}: the log names the discard otherwise: {log:?} / {discarded}"
        );
        assert!(log.iter().all(|line| !line.ends_with(": pass")), "{size}: {log:?}");
        shot(&client, "lunch-story", size).await;

        // First Aid, offered in words where it changes something: a Pawn
        // healed becomes a Knight or a Bishop; a King at 15 gains nothing.
        open_game(
            &client,
            &server,
            json!({ "variant": "lunch", "opponent": "local", "colour": "first", "position": LUNCH_FIRST_AID }),
        )
        .await;
        until(&client, "our turn", "return window.menagerieGame.state.your_turn").await;
        tap_cell(&client, "a2", touch).await;
        let chooser = until(
            &client,
            "the choice",
            "const c = document.querySelector('[data-chooser]'); return !c.hidden && c.textContent",
        )
        .await;
        let chooser = chooser.as_str().unwrap();
        assert!(!chooser.contains("stop here"), "{size}: {chooser}");
        assert!(chooser.contains("becomes a Knight or Bishop"), "{size}: {chooser}");
        buttons_uncovered(&client, size).await;
        shot(&client, "lunch-first-aid", size).await;
        eval(&client, "window.menagerieGame.deselect(); return true").await;
        tap_cell(&client, "e1", touch).await;
        let offered =
            eval(&client, "return [...document.querySelectorAll('[data-choice]')].map((b) => b.dataset.choice)").await;
        assert!(
            offered.as_array().unwrap().iter().all(|c| !c.as_str().unwrap().starts_with("aid:")),
            "{size}: First Aid on a King at full strength offered: {offered}"
        );
        let listed = eval(&client, "return !!document.querySelector('[data-any-move=\"aid:e1:firstaid\"]')").await;
        assert_eq!(listed, true, "{size}: every legal move stays in the list");
    }
    client.close().await.unwrap();
    server.stop().await;
}

/// White mates at once with Ra1a8 (the King on g6 guards g7 and h7).
const FLUID_MATE_IN_ONE: &str = "7k/8/6K1/8/8/8/8/R7 w - - 0 1";

/// A mated king is marked as a checked one is (lichess's red glow), on
/// the board after the end.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_mated_king_is_marked() {
    if !browser_available() || !variants().contains(&"fluid") {
        return;
    }
    let (_dir, server, _driver, client) = with_browser("mate").await;
    for (width, height, size) in SIZES {
        set_viewport(&client, width, height).await;
        let (id, secrets) = open_game(
            &client,
            &server,
            json!({ "variant": "fluid", "opponent": "local", "colour": "first", "position": FLUID_MATE_IN_ONE }),
        )
        .await;
        let (status, played) = server.play(&id, secrets["first"].as_str().unwrap(), "Ra1a8").await;
        assert_eq!(status, 200, "{played}");
        assert_eq!(played["result"]["reason"], "checkmate", "{played}");
        until(
            &client,
            "the end",
            "return !!window.menagerieGame.state.result && !!document.querySelector('[data-result]')",
        )
        .await;
        let marked = until(
            &client,
            "the mated king marked",
            "const m = document.querySelector('[data-board] .mark-check'); if (!m) return null;
             const k = document.querySelector('[data-board] [data-square=\"h8\"]').getBoundingClientRect(); const r = m.getBoundingClientRect();
             const x = r.x + r.width / 2, y = r.y + r.height / 2; return x > k.left && x < k.right && y > k.top && y < k.bottom",
        )
        .await;
        assert_eq!(marked, true, "{size}: the mark is not on the king's square");
        shot(&client, "mate", size).await;
    }
    client.close().await.unwrap();
    server.stop().await;
}

/// The analysis board numbers the moves of a game and of its best line by
/// turns, as the game page does (`1.` before White's move, Black's on the
/// same number), and writes them with the game page's short labels.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_analysis_board_writes_moves_as_the_game_page_does() {
    if !browser_available() || !variants().contains(&"lma") {
        return;
    }
    let (_dir, server, _driver, client) = with_browser("analysis").await;
    let created = server.create(json!({ "variant": "lma", "opponent": "local", "colour": "first" })).await;
    let id = created["id"].as_str().unwrap().to_owned();
    for (ply, side) in ["first", "second", "first", "second"].iter().enumerate() {
        let secret = created["secrets"][side].as_str().unwrap();
        let state = server.state(&id, Some(secret)).await;
        let text = state["legal_moves"][ply % 3].as_str().unwrap().to_owned();
        let (status, _) = server.play(&id, secret, &text).await;
        assert_eq!(status, 200);
    }
    for (width, height, size) in SIZES {
        set_viewport(&client, width, height).await;
        client.goto(&format!("{}/g/{id}", server.base)).await.unwrap();
        let listed = until(
            &client,
            "the game's move list",
            "const l = [...document.querySelectorAll('[data-moves] .move')].map((e) => e.textContent); return l.length === 4 && l",
        )
        .await;
        let numbers =
            eval(&client, "return [...document.querySelectorAll('[data-moves] .num')].map((e) => e.textContent)").await;
        client.goto(&format!("{}/analysis?game={id}&ply=4", server.base)).await.unwrap();
        let tree = until(
            &client,
            "the tree",
            "const items = [...document.querySelectorAll('[data-line=main] [data-tree-move]')]; return items.length === 4 && items.map((e) => {
               const n = e.querySelector('.tree-num'); return { number: n ? n.textContent : null, text: e.textContent.slice(n ? n.textContent.length : 0) }; })",
        )
        .await;
        let texts: Vec<Value> = tree.as_array().unwrap().iter().map(|m| m["text"].clone()).collect();
        assert_eq!(json!(texts), listed, "{size}: the tree's moves read otherwise than the game's");
        let tree_numbers: Vec<Value> =
            tree.as_array().unwrap().iter().filter_map(|m| m["number"].as_str().map(|n| json!(n))).collect();
        assert_eq!(json!(tree_numbers), numbers, "{size}: the tree is numbered otherwise than the game");
        let line = until(
            &client,
            "a best line of two moves or more",
            "const items = [...document.querySelectorAll('[data-engine-pv] [data-pv-move]')]; return items.length >= 2 && items.map((e) => {
               const n = e.querySelector('.tree-num'); return { move: e.dataset.pvMove, number: n ? n.textContent : null, text: e.textContent.slice(n ? n.textContent.length : 0) }; })",
        )
        .await;
        let line = line.as_array().unwrap();
        assert_eq!(line[0]["number"], "3.", "{size}: {line:?}");
        for item in line {
            assert_ne!(item["text"], item["move"], "{size}: a raw move text in the best line: {line:?}");
        }
        shot(&client, "analysis-notation", size).await;
    }
    client.close().await.unwrap();
    server.stop().await;
}

/// The rules, insights and report pages: an icon (and `/favicon.ico`),
/// titles without Markdown, tables with real headers, a game's page links
/// its reports, and a report's chart has labels a phone can read.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_reading_pages_are_finished() {
    if !browser_available() || !variants().contains(&"lichen") {
        return;
    }
    let (_dir, server, _driver, client) = with_browser("pages").await;
    let icon = "const l = document.querySelector('link[rel=icon]'); if (!l) return 'no icon'; \
        const a = await fetch(l.href); const b = await fetch('/favicon.ico'); return a.ok && b.ok && (b.headers.get('content-type') || '').startsWith('image/') ? 'ok' : `${a.status} ${b.status}`";
    let pages = ["/rules/lichen", "/insights/lichen", "/insights/lichen/a2ne/nodes-20000/report.md"];
    for (width, height, size) in SIZES {
        set_viewport(&client, width, height).await;
        for page in pages {
            client.goto(&format!("{}{page}", server.base)).await.unwrap();
            until(&client, page, "return document.querySelector('article')").await;
            let answer = eval_async(
                &client,
                &format!("const done = arguments[0]; (async () => {{ {icon} }})().then(done, (e) => done(String(e)))"),
            )
            .await;
            assert_eq!(answer, "ok", "{page}: the icon");
            let title = eval(&client, "return document.title").await;
            assert!(!title.as_str().unwrap().contains('`'), "{page}: {title}");
            let empty = eval(&client, "return [...document.querySelectorAll('article thead tr')].filter((tr) => !tr.textContent.trim()).length").await;
            assert_eq!(empty, 0, "{page}: a table with an empty header row");
        }
        client.goto(&format!("{}/insights/lichen", server.base)).await.unwrap();
        let reports = eval_async(
            &client,
            "const done = arguments[0]; const links = [...document.querySelectorAll('article a[href$=\"/report.md\"]')].map((a) => a.getAttribute('href'));
             Promise.all(links.map((href) => fetch(href).then((r) => r.ok))).then((ok) => done({ links, ok }));",
        )
        .await;
        let links = reports["links"].as_array().unwrap();
        assert!(links.iter().any(|l| l == "/insights/lichen/a2ne/nodes-20000/report.md"), "{size}: {reports}");
        assert!(reports["ok"].as_array().unwrap().iter().all(|ok| ok == true), "{size}: {reports}");
        shot(&client, "insights-reports", size).await;
        // Every game's rules page draws its diagrams as boards that fit the
        // page (no position text left as code, no inline style refused).
        for game in ["lma", "fluid", "lichen", "kelasu", "lunch"] {
            if !variants().contains(&game) {
                continue;
            }
            client.goto(&format!("{}/rules/{game}", server.base)).await.unwrap();
            until(&client, game, "return document.querySelector('article')").await;
            let drawn = eval(
                &client,
                "const page = document.querySelector('article').getBoundingClientRect();
                 const boards = [...document.querySelectorAll('article figure.diagram svg')].map((s) => s.getBoundingClientRect());
                 return { count: boards.length, code: document.querySelectorAll('article code.language-diagram').length,
                   fit: boards.every((b) => b.width >= 150 && b.height >= 60 && b.left >= page.left - 1 && b.right <= page.right + 1) };",
            )
            .await;
            assert!(drawn["count"].as_u64().unwrap() >= 4, "{game} {size}: {drawn}");
            assert_eq!((&drawn["code"], &drawn["fit"]), (&json!(0), &json!(true)), "{game} {size}: {drawn}");
        }
        for game in ["kelasu", "lma", "lunch"] {
            client.goto(&format!("{}/rules/{game}", server.base)).await.unwrap();
            until(&client, game, "return document.querySelector('article figure.diagram')").await;
            eval(&client, "document.querySelectorAll('article figure.diagram')[1].scrollIntoView(); return true").await;
            tokio::time::sleep(Duration::from_millis(100)).await;
            screenshot(&client, &format!("page-rules-diagram-{game}-{size}")).await;
        }
        client.goto(&format!("{}/insights/lichen/a2ne/nodes-20000/report.md", server.base)).await.unwrap();
        // The chart's smallest label as drawn, in CSS pixels.
        let smallest = eval_async(
            &client,
            "const done = arguments[0]; const img = document.querySelector('article img[src$=\".svg\"]');
             const wait = () => img.complete && img.naturalWidth ? Promise.resolve() : new Promise((r) => setTimeout(r, 50)).then(wait);
             wait().then(() => fetch(img.src)).then((r) => r.text()).then((text) => {
               const svg = new DOMParser().parseFromString(text, 'image/svg+xml').documentElement;
               const width = svg.viewBox.baseVal.width || Number(svg.getAttribute('width'));
               const sizes = [...svg.querySelectorAll('text')].map((t) => Number(t.getAttribute('font-size'))).filter((n) => n > 0);
               done(Math.min(...sizes) * img.getBoundingClientRect().width / width); });",
        )
        .await;
        assert!(smallest.as_f64().unwrap() >= 10.0, "{size}: chart labels {smallest} px high");
        shot(&client, "report", size).await;
    }
    client.close().await.unwrap();
    server.stop().await;
}

/// A target holding a piece is marked in its corners: the marks leave the
/// square's coordinates and the piece's hit points in sight (painted under
/// them), and the whole square still takes the click.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hint_marks_hide_no_coordinate_and_no_hit_points() {
    if !browser_available() || !variants().contains(&"lunch") {
        return;
    }
    let (_dir, server, _driver, client) = with_browser("hints").await;
    for (width, height, size) in SIZES {
        set_viewport(&client, width, height).await;
        open_game(
            &client,
            &server,
            json!({ "variant": "lunch", "opponent": "local", "colour": "first", "position": LUNCH_ATTACK }),
        )
        .await;
        until(&client, "our turn", "return window.menagerieGame.state.your_turn").await;
        tap_cell(&client, "a4", false).await;
        let hidden = until(
            &client,
            "the hint on a5",
            "const board = document.querySelector('[data-board]'); if (!board.querySelector('[data-hint-for=\"a5\"]')) return null;
             const overlap = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
             const marks = [...board.querySelectorAll('.hint-mark')];
             const seen = [...board.querySelectorAll('[data-coord], .hp-badge')];
             const hidden = seen.filter((e) => marks.some((m) => overlap(m.getBoundingClientRect(), e.getBoundingClientRect())
               && (e.compareDocumentPosition(m) & Node.DOCUMENT_POSITION_FOLLOWING))).map((e) => e.getAttribute('data-coord') || 'hit points');
             return { marks: marks.length, hidden };",
        )
        .await;
        assert!(hidden["marks"].as_u64().unwrap() > 0, "{size}: no hint marks: {hidden}");
        assert_eq!(hidden["hidden"], json!([]), "{size}: painted over by a hint");
        let target = eval(&client, "const r = document.querySelector('[data-board] [data-square=\"a5\"]').getBoundingClientRect(); const e = document.elementFromPoint(r.x + 3, r.y + 3); return e && e.closest('[data-hint-for]') ? e.closest('[data-hint-for]').getAttribute('data-hint-for') : null").await;
        assert_eq!(target, "a5", "{size}: the corner of the target takes the click");
        shot(&client, "hints", size).await;
    }
    client.close().await.unwrap();
    server.stop().await;
}
