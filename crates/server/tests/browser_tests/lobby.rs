//! The lobby in a real headless Chromium (docs/api.md, "Lobby"): the home
//! page lists the seeks and the games being played live; the browser
//! accepts a seek another player made over HTTP and lands on the game at
//! its seat, and a seek the browser made, once accepted elsewhere, takes it
//! to its seat through the lobby socket; the game page calls the opponent
//! by its lobby name. Screenshots of the lobby at a desktop and a phone size
//! go to target/screenshots/lobby.png and lobby-phone.png, and of the game the
//! browser accepted to lobby-accepted-desktop.png and -phone.png.
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
use tokio_tungstenite::tungstenite::Message;

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A player over HTTP: its cookies go with every request, and its lobby
/// socket stays open (a seek lasts while its creator is in the lobby).
struct Player {
    base: String,
    cookie: String,
    socket: Socket,
}

impl Player {
    async fn new(server: &TestServer, name: &str) -> Player {
        let response =
            server.client.post(format!("{}/api/me", server.base)).json(&json!({ "name": name })).send().await.unwrap();
        assert_eq!(response.status().as_u16(), 200);
        let cookie = response
            .headers()
            .get_all("set-cookie")
            .iter()
            .map(|v| v.to_str().unwrap().split(';').next().unwrap().to_owned())
            .collect::<Vec<_>>()
            .join("; ");
        let mut request = format!("ws://{}/api/lobby/ws", server.address()).into_client_request().unwrap();
        request.headers_mut().insert("cookie", cookie.parse().unwrap());
        let socket = tokio_tungstenite::connect_async(request).await.unwrap().0;
        Player { base: server.base.clone(), cookie, socket }
    }

    async fn post(&self, path: &str, body: Value) -> Value {
        let response = reqwest::Client::new()
            .post(format!("{}{path}", self.base))
            .header("cookie", &self.cookie)
            .json(&body)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status().as_u16(), 201, "{path}");
        response.json().await.unwrap()
    }

    /// The game the lobby socket says started for this player.
    async fn started(&mut self) -> Value {
        loop {
            let message =
                tokio::time::timeout(Duration::from_secs(20), self.socket.next()).await.unwrap().unwrap().unwrap();
            if let Message::Text(text) = message {
                let message: Value = serde_json::from_str(&text).unwrap();
                if message["type"] == "started" {
                    return message["game"].clone();
                }
            }
        }
    }
}

/// Waits for the game page at a seat; answers the game's id and the seat's secret.
async fn at_a_seat(client: &Client) -> (String, String) {
    until(client, "the game page at a seat", "return location.pathname.startsWith('/g/') && window.menagerieGame && window.menagerieGame.state && window.menagerieGame.state.you").await;
    let place =
        eval(client, "return [location.pathname.slice(3), new URLSearchParams(location.search).get('seat')]").await;
    (place[0].as_str().unwrap().to_owned(), place[1].as_str().unwrap().to_owned())
}

#[tokio::test]
async fn a_seek_is_accepted_in_the_browser_and_each_player_gets_its_seat() {
    if !browser_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("games.sqlite")).await;
    // Two players over HTTP: a game between Carl and Dora is being played,
    // and Ada waits for an opponent.
    let carl = Player::new(&server, "Carl").await;
    let dora = Player::new(&server, "Dora").await;
    let carls =
        carl.post("/api/seeks", json!({ "variant": "kelasu", "clock": { "initial": 600, "increment": 5 } })).await;
    let accepted = dora.post(&format!("/api/seeks/{}/accept", carls["id"].as_str().unwrap()), json!({})).await;
    let mut ada = Player::new(&server, "Ada").await;
    let adas = ada.post("/api/seeks", json!({ "variant": "lma", "colour": "first", "clock": { "days": 2 } })).await;

    let (_driver, client) = start_browser(&dir.path().join("profile"), DESKTOP_WITHOUT_SCROLLBARS).await;
    set_viewport(&client, 1400, 1000).await;
    client.goto(&format!("{}/", server.base)).await.unwrap();
    let accept = format!("[data-accept-seek='{}']", adas["id"].as_str().unwrap());
    until(&client, "Ada's seek", &format!("return document.querySelector(\"{accept}\")")).await;
    let watch = format!("[data-live-game='{}'] a", accepted["id"].as_str().unwrap());
    let href = until(
        &client,
        "the game being played",
        &format!("return document.querySelector(\"{watch}\").getAttribute('href')"),
    )
    .await;
    assert_eq!(href, json!(format!("/g/{}", accepted["id"].as_str().unwrap())), "a spectator link, no secret");
    // The browser names itself and opens a seek of its own.
    eval(&client, "document.querySelector('[name=lobby-name]').value = 'Bea'").await;
    click(&client, ".lobby-name button").await;
    until(&client, "the name saved", "return !document.querySelector('.lobby-name .muted').hidden").await;
    click(&client, ".lobby-create summary").await;
    eval(&client, "const s = document.querySelector('[name=seek-variant]'); s.value = 'lichen'; s.dispatchEvent(new Event('change'))").await;
    click(&client, "[data-create-seek]").await;
    until(&client, "the browser's own seek", "return document.querySelector('[data-cancel-seek]')").await;
    let seeks = server.get("/api/seeks").await.1;
    let names: Vec<&str> = seeks["seeks"].as_array().unwrap().iter().map(|s| s["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["Ada", "Bea"]);
    screenshot(&client, "lobby").await;
    set_viewport(&client, 400, 800).await;
    screenshot(&client, "lobby-phone").await;
    let overflow = eval(&client, "return document.documentElement.scrollWidth - innerWidth").await;
    assert_eq!(overflow, json!(0), "the lobby fits a phone's width");
    set_viewport(&client, 1400, 1000).await;

    // Accepting Ada's seek: the browser lands at its seat (black), Ada
    // gets hers (white) over her socket, and the browser's seek is gone.
    click(&client, &accept).await;
    let (game, secret) = at_a_seat(&client).await;
    let state = server.state(&game, Some(&secret)).await;
    assert_eq!(state["you"], "second");
    // The game calls the opponent by the name of the lobby, at every size.
    for (width, height, size) in [(1280, 800, "desktop"), (400, 800, "phone")] {
        set_viewport(&client, width, height).await;
        let named =
            until(&client, "the opponent's name", "return document.querySelector('.g-top .player-name').textContent")
                .await;
        assert_eq!(named, "white Ada", "{size}");
        screenshot(&client, &format!("lobby-accepted-{size}")).await;
    }
    set_viewport(&client, 1400, 1000).await;
    let adas_game = ada.started().await;
    assert_eq!((adas_game["id"].as_str().unwrap(), &adas_game["you"]), (game.as_str(), &json!("first")));
    assert_ne!(adas_game["secrets"]["first"].as_str().unwrap(), secret);
    let seeks = server.get("/api/seeks").await.1;
    assert_eq!(seeks["seeks"], json!([]), "accepting withdrew the browser's own seek");

    // Back in the lobby the browser seeks again; Carl accepts, and the
    // lobby socket takes the browser to its seat.
    client.goto(&format!("{}/", server.base)).await.unwrap();
    // The lobby is drawn once the page knows the variants and its player.
    until(&client, "the seek form", "return document.querySelector('.lobby-create summary')").await;
    click(&client, ".lobby-create summary").await;
    click(&client, "[data-create-seek]").await;
    let cancel =
        until(&client, "the browser's seek", "return document.querySelector('[data-cancel-seek]').dataset.cancelSeek")
            .await;
    let carls_game = carl.post(&format!("/api/seeks/{}/accept", cancel.as_str().unwrap()), json!({})).await;
    let (game, secret) = at_a_seat(&client).await;
    assert_eq!(game, carls_game["id"].as_str().unwrap());
    let state = server.state(&game, Some(&secret)).await;
    assert_ne!(state["you"], carls_game["you"], "the browser sits opposite Carl");
    let named =
        until(&client, "the opponent's name", "return document.querySelector('.g-top .player-name').textContent").await;
    assert!(named.as_str().unwrap().ends_with("Carl"), "{named}");
    assert!(!state["you"].is_null());
    client.close().await.unwrap();
    server.stop().await;
}
