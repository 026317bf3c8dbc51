//! The page in a real headless Chromium, driven through WebDriver
//! (chromedriver): for every game, open the home page, start a game against
//! the computer, make a legal move by clicking, see the computer's answer,
//! step back in the move list. Screenshots go to target/screenshots/.
//!
//! Skipped when Chromium or chromedriver is missing, unless
//! MENAGERIE_REQUIRE_BROWSER=1 (as in CI), which makes that a failure.

mod common;

use common::{variants, TestServer};
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn browser_available() -> bool {
    let present = Path::new(CHROMIUM).exists() && Path::new(CHROMEDRIVER).exists();
    if !present && std::env::var("MENAGERIE_REQUIRE_BROWSER").is_ok_and(|v| v == "1") {
        panic!("MENAGERIE_REQUIRE_BROWSER=1 but {CHROMIUM} or {CHROMEDRIVER} is missing (apt-get install chromium chromium-driver)");
    }
    if !present {
        eprintln!("browser tests skipped: {CHROMIUM} or {CHROMEDRIVER} not installed");
    }
    present
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

async fn start_browser(profile: &Path) -> (Driver, Client) {
    let port = free_port();
    let child = Command::new(CHROMEDRIVER)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromedriver starts");
    let driver = Driver(child);
    let mut capabilities = serde_json::Map::new();
    capabilities.insert(
        "goog:chromeOptions".into(),
        json!({
            "binary": CHROMIUM,
            "args": [
                "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic",
                "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--window-size=1280,1400", format!("--user-data-dir={}", profile.display()),
            ]
        }),
    );
    let url = format!("http://127.0.0.1:{port}");
    let started = Instant::now();
    loop {
        let connector = hyper_util::client::legacy::connect::HttpConnector::new();
        match ClientBuilder::new(connector).capabilities(capabilities.clone()).connect(&url).await {
            Ok(client) => return (driver, client),
            Err(error) if started.elapsed() < Duration::from_secs(30) => {
                let _ = error;
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
            Err(error) => panic!("cannot start a WebDriver session: {error}"),
        }
    }
}

fn screenshots() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Evaluates `script` (a function body) in the page.
async fn eval(client: &Client, script: &str) -> Value {
    client.execute(script, vec![]).await.unwrap_or_else(|e| panic!("script {script:?} failed: {e}"))
}

/// Waits until `script` returns a truthy value.
async fn until(client: &Client, what: &str, script: &str) -> Value {
    let started = Instant::now();
    loop {
        let value = eval(client, script).await;
        if !(value.is_null() || value == json!(false) || value == json!(0) || value == json!("")) {
            return value;
        }
        if started.elapsed() > Duration::from_secs(20) {
            let page = eval(client, "return document.body.innerText").await;
            panic!("timed out waiting for {what}; the page says:\n{}", page.as_str().unwrap_or_default());
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn click(client: &Client, css: &str) {
    client
        .find(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("no element {css}: {e}"))
        .click()
        .await
        .unwrap_or_else(|e| panic!("cannot click {css}: {e}"));
}

/// Makes one legal move by clicking squares (or a move button).
async fn click_a_move(client: &Client) -> String {
    let plan =
        until(client, "a legal move to click", "return window.menagerieGame && window.menagerieGame.clickPlan()").await;
    if let Some(squares) = plan["squares"].as_array() {
        for square in squares {
            let name = square.as_str().unwrap();
            click(client, &format!("[data-board] [data-square=\"{name}\"]")).await;
        }
        let text = plan["move"].as_str().unwrap_or_default().to_owned();
        // Other moves share these squares (a promotion, a longer merge): choose.
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

async fn play_against_the_computer(client: &Client, base: &str, variant: &str) {
    client.goto(&format!("{base}/")).await.unwrap();
    until(client, "the home page", &format!("return !!document.querySelector('[data-new-game=\"{variant}\"]')")).await;
    click(client, &format!("[data-new-game=\"{variant}\"]")).await;
    let form = format!("[data-variant=\"{variant}\"] form");
    eval(client, &format!("const f = document.querySelector('{form}'); f.opponent.value = 'computer'; f.colour.value = 'first'; return true")).await;
    click(client, &format!("[data-start=\"{variant}\"]")).await;
    until(
        client,
        "the game page",
        "return location.pathname.startsWith('/g/') && window.menagerieGame && window.menagerieGame.state",
    )
    .await;
    // Our moves until the computer (second) has answered.
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
            let text = click_a_move(client).await;
            until(
                client,
                &format!("the move {text} to be played"),
                &format!("return window.menagerieGame.state.ply > {before}"),
            )
            .await;
        } else {
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
    until(client, "the computer's answer", "return document.querySelectorAll('[data-moves] .move.second').length > 0 || !!window.menagerieGame.state.result").await;
    assert_panel_drawn(client, variant).await;
    if variant.starts_with("lunch") {
        // Your hand as cards, the other only as a count, the piles, the log.
        let panel = eval(client, "const p = document.querySelector('[data-lunch-panel]'); return p && {mine: p.querySelectorAll('[data-hand=\"white\"] .card').length, other: p.querySelector('[data-hand=\"black\"]').textContent, piles: !!p.querySelector('[data-piles]'), log: p.querySelectorAll('[data-battle-log] li').length}").await;
        assert!(panel["mine"].as_u64().unwrap_or(0) > 0, "no cards in White's hand: {panel}");
        assert!(panel["other"].as_str().unwrap_or_default().contains("hidden"), "{panel}");
        assert_eq!(panel["piles"], true, "{panel}");
        assert!(panel["log"].as_u64().unwrap_or(0) > 0, "an empty battle log after moves: {panel}");
    }
    let shot = client.screenshot().await.unwrap();
    let name = variant.replace([':', '/', '='], "_");
    std::fs::write(screenshots().join(format!("{name}.png")), &shot).unwrap();
    // Step back one move: the page shows an earlier position.
    click(client, "[data-nav=\"back\"]").await;
    until(client, "an earlier position", "return window.menagerieGame.viewing !== null").await;
    let status = eval(client, "return document.querySelector('[data-status]').textContent").await;
    assert!(status.as_str().unwrap_or_default().contains("Viewing"), "{status}");
    assert_panel_drawn(client, variant).await;
    std::fs::write(screenshots().join(format!("{name}-back.png")), client.screenshot().await.unwrap()).unwrap();
    // And forward again with the keyboard.
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

/// Lunch Chess: attack by clicking, then answer the attack with a card.
async fn answer_an_attack_with_a_card(client: &Client, server: &TestServer) {
    let created = server
        .create(json!({ "variant": "lunch", "opponent": "local", "colour": "first", "position": LUNCH_ATTACK }))
        .await;
    let id = created["id"].as_str().unwrap();
    let first = created["secrets"]["first"].as_str().unwrap();
    client.goto(&format!("{}/", server.base)).await.unwrap();
    let entry = json!({ "id": id, "variant": "lunch", "name": "Lunch Chess", "mode": "local", "you": "first", "seat": first, "secrets": created["secrets"] });
    eval(client, &format!("localStorage.setItem('menagerie.games', JSON.stringify([{entry}])); return true")).await;
    client.goto(&format!("{}/g/{id}?seat={first}", server.base)).await.unwrap();
    until(
        client,
        "the Lunch game",
        // The state comes before the page is drawn from it: wait for the panel.
        "return window.menagerieGame && window.menagerieGame.state && window.menagerieGame.state.your_turn \
         && !!document.querySelector('[data-discard]')",
    )
    .await;
    // Discards are chosen by picking cards: the button names the exact discard.
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
    click(client, "[data-board] [data-square=\"a4\"]").await;
    click(client, "[data-board] [data-square=\"a5\"]").await;
    until(client, "the choice of attacks", "return !!document.querySelector('[data-choice=\"attack:a4a5:kick\"]')")
        .await;
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
            let ply = eval(client, "return window.menagerieGame.state.ply").await.as_u64().unwrap();
            click(client, &format!("[data-move=\"{text}\"]")).await;
            until(client, "the answer", &format!("return window.menagerieGame.state.ply > {ply}")).await;
            answered = Some(text.to_owned());
            break;
        }
        let ply = eval(client, "return window.menagerieGame.state.ply").await.as_u64().unwrap();
        click(client, "[data-move=\"pass\"]").await;
        until(client, "the pass", &format!("return window.menagerieGame.state.ply > {ply}")).await;
    }
    let answered = answered.expect("Black was offered an answer card");
    assert!(answered.starts_with("answer:"), "{answered}");
    assert_panel_drawn(client, "lunch").await;
    let log = eval(client, "return document.querySelector('[data-battle-log]').textContent").await;
    assert!(log.as_str().unwrap_or_default().contains("Attack a4→a5 with kick"), "{log}");
    std::fs::write(screenshots().join("lunch-answer.png"), client.screenshot().await.unwrap()).unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_game_is_playable_in_chromium() {
    if !browser_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("games.sqlite")).await;
    let (_driver, client) = start_browser(&dir.path().join("profile")).await;
    for variant in variants() {
        play_against_the_computer(&client, &server.base, variant).await;
    }
    if variants().contains(&"lunch") {
        answer_an_attack_with_a_card(&client, &server).await;
    }
    // Both sides on one device: the page moves for whichever side is to act.
    client.goto(&format!("{}/", server.base)).await.unwrap();
    until(
        &client,
        "the home page",
        "return !!document.querySelector('[data-new-game=\"lma\"], [data-new-game=\"nim\"]')",
    )
    .await;
    let variant = if variants().contains(&"lma") { "lma" } else { "nim" };
    click(&client, &format!("[data-new-game=\"{variant}\"]")).await;
    eval(&client, &format!("const f = document.querySelector('[data-variant=\"{variant}\"] form'); f.opponent.value = 'local'; return true")).await;
    click(&client, &format!("[data-start=\"{variant}\"]")).await;
    until(&client, "the local game", "return window.menagerieGame && window.menagerieGame.state").await;
    for ply in 0..4 {
        until(&client, "our turn", "return window.menagerieGame.state.your_turn").await;
        click_a_move(&client).await;
        until(&client, "the move", &format!("return window.menagerieGame.state.ply > {ply}")).await;
    }
    std::fs::write(screenshots().join(format!("{variant}-local.png")), client.screenshot().await.unwrap()).unwrap();

    // The home page lists the games just played.
    client.goto(&format!("{}/", server.base)).await.unwrap();
    until(&client, "your games", "return document.querySelectorAll('.your-games li').length").await;
    std::fs::write(screenshots().join("home.png"), client.screenshot().await.unwrap()).unwrap();
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
    let (_driver, client) = start_browser(&dir.path().join("profile")).await;

    client.goto(&format!("{}/", server.base)).await.unwrap();
    until(&client, "the home page", "return !!document.querySelector('[data-new-game=\"lunch\"]')").await;
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
        "return window.menagerieGame && window.menagerieGame.state && !!document.querySelector('[data-lunch-panel]')",
    )
    .await;
    let seen = eval(&client, "const p = document.querySelector('[data-lunch-panel]'); return {you: window.menagerieGame.state.you, cards: p.querySelectorAll('.card').length, white: p.querySelector('[data-hand=\"white\"]').textContent, black: p.querySelector('[data-hand=\"black\"]').textContent, pieces: window.menagerieGame.state.board.squares.length, board: document.querySelector('[data-board]').textContent}").await;
    assert_eq!(seen["you"], Value::Null, "{seen}");
    assert_eq!(seen["cards"], 0, "a spectator sees no card: {seen}");
    assert!(seen["white"].as_str().unwrap().contains("5 cards (hidden)"), "{seen}");
    assert!(seen["black"].as_str().unwrap().contains("5 cards (hidden)"), "{seen}");
    assert_eq!(seen["pieces"], 32, "{seen}");
    assert!(!seen["board"].as_str().unwrap().contains("hidden"), "{seen}");
    std::fs::write(screenshots().join("lunch-spectator.png"), client.screenshot().await.unwrap()).unwrap();
    client.close().await.unwrap();
    server.stop().await;
}
