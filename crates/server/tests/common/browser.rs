//! Driving headless Chromium through chromedriver for the browser tests:
//! a session, scripts, clicks, window sizes and screenshots (written to
//! target/screenshots/).

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub const CHROMIUM: &str = "/usr/bin/chromium";
pub const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// A chromedriver: its process and its URL (for commands fantoccini does
/// not have, such as WebAuthn's virtual authenticators).
///
/// chromedriver runs in a process group of its own, with the Chromium it
/// starts; dropping the driver kills the whole group, so no browser outlives
/// its test, whether the test closed its session, forgot to, or failed
/// half-way (a leftover renderer kept a core busy through the rest of CI).
pub struct Driver(Child, pub String);

impl Drop for Driver {
    fn drop(&mut self) {
        let group = format!("-{}", self.0.id());
        let _ = Command::new("kill").args(["-KILL", "--", &group]).stderr(Stdio::null()).status();
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

pub fn browser_available() -> bool {
    let present = Path::new(CHROMIUM).exists() && Path::new(CHROMEDRIVER).exists();
    if !present && std::env::var("MENAGERIE_REQUIRE_BROWSER").is_ok_and(|v| v == "1") {
        panic!("MENAGERIE_REQUIRE_BROWSER=1 but {CHROMIUM} or {CHROMEDRIVER} is missing (apt-get install chromium chromium-driver)");
    }
    if !present {
        eprintln!("browser tests skipped: {CHROMIUM} or {CHROMEDRIVER} not installed");
    }
    present
}

pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// Chromium's window: 1400×1000 without scrollbars (the game pages'
/// layout tests), or tall with scrollbars (pages that scroll).
pub const DESKTOP_WITHOUT_SCROLLBARS: &[&str] = &["--hide-scrollbars", "--window-size=1400,1000"];
pub const TALL_WITH_SCROLLBARS: &[&str] = &["--window-size=1280,1400"];

/// A chromedriver of its own and a headless Chromium session with `window`.
pub async fn start_browser(profile: &Path, window: &[&str]) -> (Driver, Client) {
    let port = free_port();
    let child = Command::new(CHROMEDRIVER)
        .arg(format!("--port={port}"))
        .process_group(0)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromedriver starts");
    let driver = Driver(child, format!("http://127.0.0.1:{port}"));
    let mut args: Vec<String> = [
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
    ]
    .iter()
    .chain(window)
    .map(|arg| arg.to_string())
    .collect();
    args.push(format!("--user-data-dir={}", profile.display()));
    let mut capabilities = serde_json::Map::new();
    capabilities.insert("goog:chromeOptions".into(), json!({ "binary": CHROMIUM, "args": args }));
    // The console is kept for [`console_errors`].
    capabilities.insert("goog:loggingPrefs".into(), json!({ "browser": "ALL" }));
    let url = format!("http://127.0.0.1:{port}");
    let started = Instant::now();
    loop {
        let connector = hyper_util::client::legacy::connect::HttpConnector::new();
        match ClientBuilder::new(connector).capabilities(capabilities.clone()).connect(&url).await {
            Ok(client) => return (driver, client),
            Err(_) if started.elapsed() < Duration::from_secs(30) => {
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
            Err(error) => panic!("cannot start a WebDriver session: {error}"),
        }
    }
}

pub fn screenshots() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Screenshots the page to target/screenshots/`name`.png, after checking
/// that its console logged no error since the last look: every page a test
/// looks at is checked so (a script or style the Content-Security-Policy
/// blocked, a request answered with an error, an exception).
pub async fn screenshot(client: &Client, name: &str) {
    assert_no_console_errors(client, &format!("the page of the screenshot {name}"), &[]).await;
    let shot = client.screenshot().await.unwrap();
    std::fs::write(screenshots().join(format!("{}.png", name.replace([':', '/', '='], "_"))), shot).unwrap();
}

/// Evaluates `script` (a function body) in the page.
pub async fn eval(client: &Client, script: &str) -> Value {
    client.execute(script, vec![]).await.unwrap_or_else(|e| panic!("script {script:?} failed: {e}"))
}

/// Waits until `script` returns a truthy value. A script that reads an
/// element the page has not drawn yet throws a TypeError (null has no
/// properties): that counts as "not yet", like a null answer.
pub async fn until(client: &Client, what: &str, script: &str) -> Value {
    let started = Instant::now();
    let guarded = format!("try {{ {script} }} catch (e) {{ if (e instanceof TypeError) return null; throw e; }}");
    loop {
        let value = eval(client, &guarded).await;
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

/// Waits until the home page has drawn the element `css` (found by a CSS
/// selector), its lobby's seeks and games and its games' cards: the lobby
/// fills in when its socket connects and moves everything below it down,
/// so a click aimed before that shift lands on something else; the cards
/// come after the boards' renderers have loaded, later on a loaded machine.
pub async fn home_page_drawn(client: &Client, css: &str) {
    let css = serde_json::to_string(css).unwrap();
    until(
        client,
        "the home page",
        &format!(
            "return !!document.querySelector({css}) && !!document.querySelector('.lobby-seeks > *') && !!document.querySelector('.lobby-games > *') && !!document.querySelector('[data-learn-game]')"
        ),
    )
    .await;
}

/// Evaluates `script` (a function body taking a callback) in the page.
pub async fn eval_async(client: &Client, script: &str) -> Value {
    client.execute_async(script, vec![]).await.unwrap_or_else(|e| panic!("script {script:?} failed: {e}"))
}

/// Signs the browser up as `username` with `password` through the page
/// it shows (a fetch from the page's own origin, as the account page makes
/// it, so the session cookie lands in the browser); answers the status.
pub async fn register_from_page(client: &Client, username: &str, password: &str) -> Value {
    let body = serde_json::to_string(&serde_json::json!({ "username": username, "password": password })).unwrap();
    eval_async(
        client,
        &format!(
            "const done = arguments[0];
             fetch('/api/register', {{ method: 'POST', headers: {{ 'Content-Type': 'application/json' }}, body: {body:?} }})
               .then((r) => done(r.status));"
        ),
    )
    .await
}

/// Signs the browser up as `username` with `password` through the account
/// page's form, as a person does, and waits for the account it shows.
pub async fn sign_up_on_page(client: &Client, base: &str, username: &str, password: &str) {
    client.goto(&format!("{base}/account")).await.unwrap();
    until(client, "the sign-up form", "return document.querySelector('[data-form=signup]')").await;
    fill(client, "[data-form=signup] input[name=username]", username).await;
    fill(client, "[data-form=signup] input[name=password]", password).await;
    click(client, "[data-form=signup] button[type=submit]").await;
    let account = format!("return document.querySelector('h2[data-username={username}]')");
    until(client, "the account", &account).await;
}

/// Clicks a page element (a button) the WebDriver way. A page that
/// redraws between the find and the click (a live analysis does, several
/// times a second) leaves a stale element: it is found again. An element
/// not drawn yet (its state arrived, its panel not: a busy machine) is
/// waited for, up to five seconds.
pub async fn click(client: &Client, css: &str) {
    let started = Instant::now();
    for attempt in 1.. {
        let element = match client.find(Locator::Css(css)).await {
            Ok(element) => element,
            Err(e) if started.elapsed() < Duration::from_secs(5) && e.to_string().contains("no such element") => {
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
            Err(e) => panic!("no element {css}: {e}"),
        };
        match element.click().await {
            Ok(()) => return,
            Err(e) if attempt < 10 && e.to_string().contains("stale element") => {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            Err(e) => panic!("cannot click {css}: {e}"),
        }
    }
}

/// Sizes the window so that the viewport is `width` × `height` CSS pixels.
pub async fn set_viewport(client: &Client, width: u32, height: u32) {
    let (mut w, mut h) = (width, height);
    let mut seen = Vec::new();
    for _ in 0..6 {
        client.set_window_size(w, h).await.unwrap();
        tokio::time::sleep(Duration::from_millis(50)).await;
        let inner = eval(client, "return [innerWidth, innerHeight]").await;
        seen.push((w, h, inner.clone()));
        let (iw, ih) = (inner[0].as_u64().unwrap() as i64, inner[1].as_u64().unwrap() as i64);
        if (iw, ih) == (width as i64, height as i64) {
            return;
        }
        w = (w as i64 + width as i64 - iw) as u32;
        h = (h as i64 + height as i64 - ih) as u32;
    }
    panic!("cannot size the viewport to {width}x{height}: {seen:?}");
}

/// The centre of a board cell in viewport pixels (scrolled into view).
pub async fn cell_centre(client: &Client, cell: &str) -> (f64, f64) {
    let rect = eval(
        client,
        &format!(
            "const e = document.querySelector('[data-board] [data-square=\"{cell}\"]'); if (!e) return null; \
             e.scrollIntoView({{block: 'nearest'}}); const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]"
        ),
    )
    .await;
    assert!(rect.is_array(), "no cell {cell} on the board");
    (rect[0].as_f64().unwrap(), rect[1].as_f64().unwrap())
}

/// Presses and releases the mouse on a board cell, at its centre (a click
/// the way a person makes it: at a point, whatever is drawn there).
pub async fn tap(client: &Client, cell: &str) {
    use fantoccini::actions::{InputSource, MouseActions, PointerAction, MOUSE_BUTTON_LEFT};
    let (x, y) = cell_centre(client, cell).await;
    let mouse = MouseActions::new("mouse".into())
        .then(PointerAction::MoveTo { duration: None, x: x.round(), y: y.round() })
        .then(PointerAction::Down { button: MOUSE_BUTTON_LEFT })
        .then(PointerAction::Up { button: MOUSE_BUTTON_LEFT });
    client.perform_actions(mouse).await.unwrap();
    client.release_actions().await.unwrap();
}

/// Types `text` into the input `css` finds, after clearing it.
pub async fn fill(client: &Client, css: &str, text: &str) {
    let input = client.find(Locator::Css(css)).await.unwrap_or_else(|e| panic!("no input {css}: {e}"));
    input.clear().await.unwrap();
    input.send_keys(text).await.unwrap();
}

/// Screenshots `name-desktop` (1280x800) and `name-phone` (400x800), then
/// back to the desktop size.
pub async fn shots_at_both_sizes(client: &Client, name: &str) {
    for (size, width, height) in [("desktop", 1280, 800), ("phone", 400, 800)] {
        set_viewport(client, width, height).await;
        screenshot(client, &format!("{name}-{size}")).await;
    }
    set_viewport(client, 1280, 800).await;
}

/// chromedriver's log of the browser's console (`goog:loggingPrefs`),
/// which fantoccini has no command for.
#[derive(Debug)]
struct BrowserLog;

impl fantoccini::wd::WebDriverCompatibleCommand for BrowserLog {
    fn endpoint(&self, base: &url::Url, session: Option<&str>) -> Result<url::Url, url::ParseError> {
        base.join(&format!("session/{}/se/log", session.unwrap_or_default()))
    }

    fn method_and_body(&self, _: &url::Url) -> (axum::http::Method, Option<String>) {
        (axum::http::Method::POST, Some(json!({ "type": "browser" }).to_string()))
    }
}

/// The errors the page's console logged since the last look: exceptions,
/// `console.error`, requests answered with an error, and what the
/// Content-Security-Policy blocked.
pub async fn console_errors(client: &Client) -> Vec<String> {
    let log = client.issue_cmd(BrowserLog).await.expect("the browser's console log");
    log.as_array()
        .map(|entries| {
            entries
                .iter()
                .filter(|e| e["level"] == "SEVERE")
                .map(|e| e["message"].as_str().unwrap_or_default().to_owned())
                .collect()
        })
        .unwrap_or_default()
}

/// Fails if the console logged an error since the last look, other than
/// one naming any of `expected` (a request the test makes fail on purpose).
pub async fn assert_no_console_errors(client: &Client, what: &str, expected: &[&str]) {
    let errors: Vec<String> =
        console_errors(client).await.into_iter().filter(|e| !expected.iter().any(|x| e.contains(x))).collect();
    assert!(errors.is_empty(), "{what}: the console logged errors:\n{}", errors.join("\n"));
}
