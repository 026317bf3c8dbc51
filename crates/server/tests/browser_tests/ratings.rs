//! Rated games, profiles and leaderboards in a real headless Chromium
//! (docs/players.md; the API in docs/api.md, "Players"): a browser logged
//! in as Ada makes a rated seek in the lobby, Bob (over HTTP) accepts it,
//! Ada plays her moves on the board by clicks, Bob resigns, and the game
//! page shows both ratings' change; Ada's profile shows the rating with its
//! chart and the game, its filters and its download; an unknown player's
//! profile is a 404 that says so; the leaderboard lists the players whose
//! rating is established, best first, each linking to its profile.
//! Screenshots (desktop 1280x800 and phone 400x800) go to
//! target/screenshots/ratings-{lobby,game,profile,leaderboard,leaderboards}-{desktop,phone}.png.
//!
//! Skipped when Chromium or chromedriver is missing, unless
//! MENAGERIE_REQUIRE_BROWSER=1 (as in CI), which makes that a failure.

use crate::common::browser::*;
use crate::common::TestServer;
use fantoccini::Client;
use futures_util::StreamExt;
use serde_json::{json, Value};
use std::time::Duration;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

/// An account over HTTP: its session cookie goes with every request, and
/// its lobby socket stays open (a seek lasts while its creator is there).
struct Account {
    base: String,
    cookie: String,
    _lobby: Option<crate::common::WebSocket>,
}

impl Account {
    /// Signs up over HTTP, as one browser: its anonymous identity first (a
    /// seek's creator is its identity), then the account's session.
    async fn register(server: &TestServer, username: &str) -> Account {
        let cookies = |response: &reqwest::Response| -> Vec<String> {
            response
                .headers()
                .get_all("set-cookie")
                .iter()
                .map(|v| v.to_str().unwrap().split(';').next().unwrap().to_owned())
                .collect()
        };
        let me = reqwest::get(format!("{}/api/me", server.base)).await.unwrap();
        let mut jar = cookies(&me);
        let response = reqwest::Client::new()
            .post(format!("{}/api/register", server.base))
            .header("cookie", jar.join("; "))
            .json(&json!({ "username": username, "password": "a long password" }))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status().as_u16(), 201, "registering {username}");
        jar.extend(cookies(&response));
        Account { base: server.base.clone(), cookie: jar.join("; "), _lobby: None }
    }

    async fn open_lobby(&mut self, server: &TestServer) {
        let mut request = format!("ws://{}/api/lobby/ws", server.address()).into_client_request().unwrap();
        request.headers_mut().insert("cookie", self.cookie.parse().unwrap());
        let mut socket = tokio_tungstenite::connect_async(request).await.unwrap().0;
        // The first message: the lobby as it is.
        tokio::time::timeout(Duration::from_secs(10), socket.next()).await.unwrap();
        self._lobby = Some(socket);
    }

    async fn send(&self, method: reqwest::Method, path: &str, body: Option<Value>) -> (u16, Value) {
        let mut request =
            reqwest::Client::new().request(method, format!("{}{path}", self.base)).header("cookie", &self.cookie);
        if let Some(body) = body {
            request = request.json(&body);
        }
        let response = request.send().await.unwrap();
        let status = response.status().as_u16();
        (status, response.json().await.unwrap_or(Value::Null))
    }

    async fn post(&self, path: &str, body: Value) -> Value {
        let (status, answer) = self.send(reqwest::Method::POST, path, Some(body)).await;
        assert!(status == 200 || status == 201, "{path}: {status} {answer}");
        answer
    }

    async fn get(&self, path: &str) -> Value {
        let (status, answer) = self.send(reqwest::Method::GET, path, None).await;
        assert_eq!(status, 200, "{path}: {answer}");
        answer
    }

    /// Plays the first legal move of game `id` at its seat `seat`.
    async fn play_first_move(&self, id: &str, seat: &str) {
        let state = self.get(&format!("/api/games/{id}?seat={seat}")).await;
        let text = state["legal_moves"][0].as_str().unwrap_or_else(|| panic!("no legal move: {state}")).to_owned();
        self.post(&format!("/api/games/{id}/move"), json!({ "seat": seat, "move": text, "ply": state["ply"] })).await;
    }
}

/// Makes a legal move on the board by clicking its cells, and waits until
/// the game has it.
async fn move_by_clicks(client: &Client) {
    let before = eval(client, "return window.menagerieGame.state.ply").await.as_u64().unwrap();
    let plan =
        until(client, "a legal move to make", "return window.menagerieGame && window.menagerieGame.clickPlan()").await;
    let cells: Vec<String> = plan["squares"]
        .as_array()
        .unwrap_or_else(|| panic!("a move on the board: {plan}"))
        .iter()
        .map(|c| c.as_str().unwrap().to_owned())
        .collect();
    for cell in &cells {
        tap(client, cell).await;
    }
    let choice = format!("[data-choice=\"{}\"]", plan["move"].as_str().unwrap());
    if eval(client, &format!("return !!document.querySelector('{choice}')")).await == json!(true) {
        click(client, &choice).await;
    }
    until(client, "the move played", &format!("return window.menagerieGame.state.ply > {before}")).await;
}

async fn shots(client: &Client, name: &str) {
    for (size, width, height) in [("desktop", 1280, 800), ("phone", 400, 800)] {
        set_viewport(client, width, height).await;
        tokio::time::sleep(Duration::from_millis(150)).await;
        let overflow =
            eval(client, "return document.documentElement.scrollWidth - document.documentElement.clientWidth").await;
        assert_eq!(overflow, json!(0), "{name} fits the {size}'s width");
        screenshot(client, &format!("ratings-{name}-{size}")).await;
    }
    set_viewport(client, 1280, 800).await;
}

/// Signs the browser up as `username` (from the page's own origin, as the
/// account page does).
async fn sign_up_in_browser(client: &Client, base: &str, username: &str) {
    client.goto(&format!("{base}/account")).await.unwrap();
    until(client, "the sign-up form", "return document.querySelector('[data-form=signup]')").await;
    let answer = register_from_page(client, username, "a long password").await;
    assert_eq!(answer, json!(201));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_game_in_the_browser_changes_the_ratings_shown_on_the_game_and_the_profile() {
    if !browser_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("g.sqlite")).await;
    let (_driver, client) = start_browser(&dir.path().join("profile"), TALL_WITH_SCROLLBARS).await;
    set_viewport(&client, 1280, 800).await;
    let mut bob = Account::register(&server, "Bob").await;
    bob.open_lobby(&server).await;
    // Bob's own rated seek, listed beside Ada's (and withdrawn when he accepts hers).
    bob.post("/api/seeks", json!({ "variant": "kelasu", "rated": true, "clock": { "days": 3 } })).await;

    // Logged out, the lobby's rated box is disabled.
    client.goto(&format!("{}/", server.base)).await.unwrap();
    home_page_drawn(&client, ".variants").await;
    until(&client, "the seek form", "return document.querySelector('[data-seek-rated]')").await;
    assert_eq!(eval(&client, "return document.querySelector('[data-seek-rated]').disabled").await, json!(true));

    sign_up_in_browser(&client, &server.base, "Ada").await;
    client.goto(&format!("{}/", server.base)).await.unwrap();
    home_page_drawn(&client, ".variants").await;
    // Bob's seek: his name, linking to his profile, his rating, rated.
    let bobs = until(&client, "Bob's seek", "return document.querySelector('[data-lobby-player=Bob]')").await;
    assert!(bobs.is_object());
    let row = eval(
        &client,
        "const r = document.querySelector('[data-lobby-player=Bob]').closest('tr');
         return { text: r.textContent, rated: r.dataset.rated, href: r.querySelector('a').getAttribute('href') }",
    )
    .await;
    assert_eq!(row["rated"], "true", "{row}");
    assert_eq!(row["href"], "/@/Bob", "{row}");
    assert!(row["text"].as_str().unwrap().contains("1500?"), "Bob's provisional rating: {row}");
    // Ada seeks a rated game of LMA.
    click(&client, ".lobby-create summary").await;
    eval(&client, "const s = document.querySelector('[name=seek-variant]'); s.value = 'lma'; s.dispatchEvent(new Event('change'))").await;
    assert_eq!(eval(&client, "return document.querySelector('[data-seek-rated]').disabled").await, json!(false));
    click(&client, "[data-seek-rated]").await;
    click(&client, "[data-create-seek]").await;
    let seek = until(
        &client,
        "Ada's rated seek",
        "const b = document.querySelector('[data-cancel-seek]'); return b && b.closest('tr').dataset.rated === 'true' && b.dataset.cancelSeek",
    )
    .await;
    shots(&client, "lobby").await;

    // Bob accepts; the lobby socket takes Ada to her seat.
    let accepted = bob.post(&format!("/api/seeks/{}/accept", seek.as_str().unwrap()), json!({})).await;
    let game = accepted["id"].as_str().unwrap().to_owned();
    let bobs_seat = accepted["secrets"][accepted["you"].as_str().unwrap()].as_str().unwrap().to_owned();
    until(
        &client,
        "the game page at Ada's seat",
        "return window.menagerieGame && window.menagerieGame.state && window.menagerieGame.state.you",
    )
    .await;
    // Each side's name links to its profile, with its rating.
    let names = until(
        &client,
        "both players' names and ratings",
        "const links = [...document.querySelectorAll('.g-player [data-player-username]')];
         const ratings = [...document.querySelectorAll('.g-player [data-player-rating]')];
         return links.length === 2 && ratings.length === 2 && links.map((a) => a.getAttribute('href')).sort().join(' ')",
    )
    .await;
    assert_eq!(names, "/@/Ada /@/Bob");

    // Two moves each (a game counts from there), Ada's by clicks on the board.
    let mut moves = 0;
    while moves < 4 {
        let state = server.state(&game, Some(&bobs_seat)).await;
        if state["your_turn"] == true {
            bob.play_first_move(&game, &bobs_seat).await;
        } else {
            until(&client, "Ada's turn", "return window.menagerieGame.state.your_turn").await;
            move_by_clicks(&client).await;
        }
        moves += 1;
    }
    bob.post(&format!("/api/games/{game}/resign"), json!({ "seat": bobs_seat })).await;
    let changes = until(
        &client,
        "both ratings' change",
        "const d = [...document.querySelectorAll('.g-player [data-rating-diff]')]; return d.length === 2 && Object.fromEntries(d.map((e) => [e.closest('.g-player').querySelector('[data-player-username]').dataset.playerUsername, +e.dataset.ratingDiff]))",
    )
    .await;
    assert!(changes["Ada"].as_i64().unwrap() > 0, "the winner gains: {changes}");
    assert!(changes["Bob"].as_i64().unwrap() < 0, "the loser loses: {changes}");
    shots(&client, "game").await;

    // The account page links to the profile.
    client.goto(&format!("{}/account", server.base)).await.unwrap();
    let link =
        until(&client, "the profile link", "return document.querySelector('[data-profile-link]').getAttribute('href')")
            .await;
    assert_eq!(link, "/@/Ada");

    // Ada's profile: the rating (provisional), its chart, the game.
    client.goto(&format!("{}/@/Ada", server.base)).await.unwrap();
    let rating =
        until(&client, "Ada's LMA rating", "return document.querySelector('[data-rating=lma]').textContent").await;
    let user = bob.get("/api/user/Ada").await;
    assert_eq!(rating, json!(format!("{}?", user["perfs"]["lma"]["rating"])), "{user}");
    assert!(user["perfs"]["lma"]["rating"].as_i64().unwrap() > 1500);
    let joined = eval(&client, "return document.querySelector('[data-profile-joined]').textContent").await;
    assert!(joined.as_str().unwrap().starts_with("Joined "), "{joined}");
    let points =
        until(&client, "the chart", "const c = document.querySelector('[data-chart=lma]'); return c.querySelector('svg circle') && c.dataset.chartPoints").await;
    assert_eq!(points, "1", "one day of rated games");
    // The game is listed with its result for Ada and links its page (the
    // records name the accounts, the game and the ratings).
    let result =
        until(&client, "the game listed", "return document.querySelector('[data-game-row]').dataset.result").await;
    assert_eq!(result, "win", "Bob resigned");
    let link =
        eval(&client, "return document.querySelector('[data-game-row] [data-game-link]').dataset.gameLink").await;
    assert_eq!(link, json!(game));
    shots(&client, "profile").await;

    // The filters: each picks the games the API picks, and the download follows them.
    for (filter, value, listed) in [
        ("result", "loss", 0),
        ("result", "win", 1),
        ("rated", "false", 0),
        ("rated", "true", 1),
        ("variant", "kelasu", 0),
    ] {
        eval(&client, &format!("const s = document.querySelector('[data-filter={filter}]'); s.value = '{value}'; s.dispatchEvent(new Event('change', {{ bubbles: true }}))")).await;
        let shown = until(
            &client,
            &format!("the games with {filter}={value}"),
            &format!(
                "const href = document.querySelector('[data-download-games]').getAttribute('href');
                 if (!href.includes('{filter}={value}')) return null;
                 const rows = document.querySelectorAll('[data-game-row]').length;
                 return (rows === {listed} && ({listed} > 0 || document.querySelector('[data-no-games]'))) && href"
            ),
        )
        .await;
        let download = reqwest::get(format!("{}{}", server.base, shown.as_str().unwrap())).await.unwrap();
        assert_eq!(download.status().as_u16(), 200);
        let records = download.text().await.unwrap();
        assert_eq!(records.matches("[Variant ").count(), listed, "{filter}={value}: {records}");
        eval(&client, &format!("const s = document.querySelector('[data-filter={filter}]'); s.value = ''; s.dispatchEvent(new Event('change', {{ bubbles: true }}))")).await;
    }
    let all = eval(&client, "return document.querySelector('[data-download-games]').getAttribute('href')").await;
    assert_eq!(all, "/api/games/user/Ada", "with no filter, the download has every game");

    // No such player: the page says so, with a 404.
    let status = reqwest::get(format!("{}/@/Nobody", server.base)).await.unwrap().status().as_u16();
    assert_eq!(status, 404);
    client.goto(&format!("{}/@/Nobody", server.base)).await.unwrap();
    until(&client, "no such player", "return document.querySelector('[data-no-such-player]')").await;
    assert_eq!(reqwest::get(format!("{}/@/Ada", server.base)).await.unwrap().status().as_u16(), 200);
    client.close().await.unwrap();
    server.stop().await;
}

/// A rated friend game of LMA between `first` (who makes it) and `second`
/// (who opens its link), played over HTTP: two moves each, then the
/// loser resigns.
async fn rated_game(first: &Account, second: &Account, loser_is_first: bool) {
    let created = first
        .post("/api/games", json!({ "variant": "lma", "opponent": "friend", "colour": "first", "rated": true }))
        .await;
    let id = created["id"].as_str().unwrap().to_owned();
    let seats: Vec<(String, &Account)> = ["first", "second"]
        .iter()
        .zip([first, second])
        .map(|(side, account)| (created["secrets"][side].as_str().unwrap().to_owned(), account))
        .collect();
    // The friend's link: the seat becomes the second account's.
    second.get(&format!("/api/games/{id}?seat={}", seats[1].0)).await;
    for ply in 0..4 {
        let (seat, account) = &seats[ply % 2];
        account.play_first_move(&id, seat).await;
    }
    let (seat, account) = &seats[if loser_is_first { 0 } else { 1 }];
    account.post(&format!("/api/games/{id}/resign"), json!({ "seat": seat })).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_leaderboard_lists_the_established_players_best_first_each_linking_to_the_profile() {
    if !browser_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("g.sqlite")).await;
    let ada = Account::register(&server, "Ada").await;
    let bob = Account::register(&server, "Bob").await;
    let cyd = Account::register(&server, "Cyd").await;
    // Each pair wins one game each a round, and Ada beats Cyd once more:
    // mixed results settle ratings (their RD falls) sooner than one-sided
    // ones, and the three end in the order Ada, Bob, Cyd.
    let mut rounds = 0;
    loop {
        for (a, b) in [(&ada, &bob), (&bob, &cyd), (&cyd, &ada)] {
            rated_game(a, b, false).await;
            rated_game(a, b, true).await;
        }
        rated_game(&ada, &cyd, false).await;
        rounds += 1;
        let top = ada.get("/api/player/top/50/lma").await;
        if top["users"].as_array().unwrap().len() == 3 {
            break;
        }
        assert!(rounds < 10, "after {rounds} rounds the leaderboard is {top}");
    }
    let top = ada.get("/api/player/top/50/lma").await;
    let names: Vec<&str> = top["users"].as_array().unwrap().iter().map(|u| u["username"].as_str().unwrap()).collect();
    assert_eq!(names, ["Ada", "Bob", "Cyd"], "{top}");

    let (_driver, client) = start_browser(&dir.path().join("profile"), TALL_WITH_SCROLLBARS).await;
    set_viewport(&client, 1280, 800).await;
    client.goto(&format!("{}/leaderboard/lma", server.base)).await.unwrap();
    let rows = until(
        &client,
        "the leaderboard",
        "const rows = [...document.querySelectorAll('[data-leaderboard-row]')];
         return rows.length === 3 && rows.map((r) => ({ rank: r.querySelector('.rank').textContent, href: r.querySelector('a').getAttribute('href'), rating: +r.querySelector('[data-rating]').dataset.rating }))",
    )
    .await;
    for (index, user) in top["users"].as_array().unwrap().iter().enumerate() {
        let row = &rows[index];
        assert_eq!(row["rank"], json!((index + 1).to_string()));
        assert_eq!(row["href"], json!(format!("/@/{}", user["username"].as_str().unwrap())));
        assert_eq!(row["rating"], user["perfs"]["lma"]["rating"]);
    }
    let who = eval(&client, "return document.querySelector('[data-leaderboard-who]').textContent").await;
    assert!(who.as_str().unwrap().contains("below 150"), "the page states the threshold: {who}");
    shots(&client, "leaderboard").await;
    // A name leads to the profile.
    click(&client, "[data-leaderboard-row=Bob] a").await;
    until(&client, "Bob's profile", "return document.querySelector('[data-profile-username=Bob]')").await;
    // Every variant's leaderboard on one page, LMA's filled.
    client.goto(&format!("{}/leaderboard", server.base)).await.unwrap();
    let listed = until(
        &client,
        "the leaderboards",
        "const rows = document.querySelectorAll('[data-leaderboard-variant=lma] [data-leaderboard-row]'); return rows.length === 3 && document.querySelectorAll('[data-leaderboard-variant]').length",
    )
    .await;
    assert!(listed.as_u64().unwrap() >= 9, "every variant: {listed}");
    until(
        &client,
        "the empty ones",
        "return document.querySelector('[data-leaderboard-variant=kelasu] [data-leaderboard-empty]')",
    )
    .await;
    shots(&client, "leaderboards").await;
    // A variant that is not one: a 404 that says so.
    assert_eq!(reqwest::get(format!("{}/leaderboard/chess", server.base)).await.unwrap().status().as_u16(), 404);
    client.goto(&format!("{}/leaderboard/chess", server.base)).await.unwrap();
    until(&client, "no such variant", "return document.querySelector('[data-no-such-variant]')").await;
    client.close().await.unwrap();
    server.stop().await;
}
