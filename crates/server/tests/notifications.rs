//! Notifications (docs/api.md, "Notifications"): a correspondence move
//! tells the account to move, in the site's list, on the bell's socket and
//! by e-mail through a real SMTP server (a local sink); a move in a game
//! with a live clock tells nobody; a password reset mails a link that
//! works once; the answers tell a stranger nothing about who has an address.

mod common;

use common::session::Browser;
use common::smtp::SmtpSink;
use common::TestServer;
use futures_util::StreamExt;
use menagerie_server::notify::{MailSettings, Mailer, Notifier};
use menagerie_server::sql_params;
use menagerie_server::store::{sql, Database};
use menagerie_server::HubConfig;
use serde_json::{json, Value};
use std::sync::Arc;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

const SITE: &str = "http://menagerie.test";

async fn start(sink: &SmtpSink) -> (tempfile::TempDir, TestServer) {
    let dir = tempfile::tempdir().unwrap();
    let settings =
        MailSettings { smtp_url: sink.url.clone(), from: "Menagerie <games@menagerie.test>".into(), site: SITE.into() };
    let notifier = Arc::new(Notifier::new(Some(Mailer::new(&settings).unwrap())));
    let config = HubConfig { max_searches: 1, notifier, ..HubConfig::default() };
    let server = TestServer::start_with_config(&dir.path().join("g.sqlite"), config).await;
    (dir, server)
}

async fn account(server: &TestServer, username: &str, email: Option<&str>) -> Browser {
    let mut browser = Browser::new(server);
    let (status, body) =
        browser.post("/api/register", json!({ "username": username, "password": "correct horse" })).await;
    assert_eq!(status, 201, "{body}");
    if let Some(email) = email {
        let (status, body) =
            browser.post("/api/account/email", json!({ "email": email, "password": "correct horse" })).await;
        assert_eq!((status, &body["email"]), (200, &json!(email)), "{body}");
    }
    browser
}

/// A friend game between `first` and `second` (each holding a seat), with `clock`.
async fn game(first: &mut Browser, second: &mut Browser, clock: Value) -> (String, String, String) {
    let (status, created) = first
        .post("/api/games", json!({ "variant": "lma", "opponent": "friend", "colour": "first", "clock": clock }))
        .await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_owned();
    let (a, b) = (created["secrets"]["first"].as_str().unwrap(), created["secrets"]["second"].as_str().unwrap());
    // The friend opens the link: the seat becomes their account's.
    let (status, _) = second.get(&format!("/api/games/{id}?seat={b}")).await;
    assert_eq!(status, 200);
    (id, a.to_owned(), b.to_owned())
}

async fn play_any(player: &mut Browser, id: &str, seat: &str) {
    let (status, state) = player.get(&format!("/api/games/{id}?seat={seat}")).await;
    assert_eq!(status, 200);
    let mv = state["legal_moves"][0].as_str().unwrap().to_owned();
    let (status, body) = player.post(&format!("/api/games/{id}/move"), json!({ "seat": seat, "move": mv })).await;
    assert_eq!(status, 200, "{body}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_correspondence_move_tells_the_player_to_move_in_the_site_on_the_bell_and_by_mail() {
    let Some(sink) = SmtpSink::start() else { return };
    let (_dir, server) = start(&sink).await;
    let mut ada = account(&server, "Ada", None).await;
    let mut bob = account(&server, "Bob", Some("bob@example.org")).await;
    let (status, none) = bob.get("/api/notifications").await;
    assert_eq!((status, &none), (200, &json!({ "unread": 0, "notifications": [] })));

    // Bob's bell, open before the move.
    let ws = server.base.replace("http://", "ws://") + "/api/notifications/ws";
    let mut request = ws.as_str().into_client_request().unwrap();
    request.headers_mut().insert("cookie", bob.cookie_header().parse().unwrap());
    let (mut bell, _) = tokio_tungstenite::connect_async(request).await.unwrap();
    let first = next_json(&mut bell).await;
    assert_eq!((first["type"].as_str(), first["unread"].as_u64()), (Some("notifications"), Some(0)));

    let (id, a, b) = game(&mut ada, &mut bob, json!({ "days": 3 })).await;
    play_any(&mut ada, &id, &a).await;

    let told = next_json(&mut bell).await;
    assert_eq!(told["unread"], 1, "{told}");
    let (_, listed) = bob.get("/api/notifications").await;
    assert_eq!(listed["unread"], 1);
    let notice = &listed["notifications"][0];
    assert_eq!(notice["kind"], "yourMove");
    assert_eq!(notice["game"], json!(id));
    assert_eq!(notice["link"], json!(format!("/g/{id}")));
    assert_eq!(notice["read"], false);
    assert!(notice["text"].as_str().unwrap().contains("Lilliputian"), "{notice}");
    assert_eq!(told["notifications"][0], *notice, "the bell shows the same notice");

    let mails = sink.wait_for(1).await;
    let mail = &mails[0];
    assert_eq!(mail.header("To").as_deref(), Some("bob@example.org"));
    assert!(mail.header("Subject").unwrap().contains("your move"), "{mail:?}");
    assert!(mail.text.contains(&format!("{SITE}/g/{id}")), "the mail links the game: {mail:?}");

    // Ada has no address: told in the site only.
    play_any(&mut bob, &id, &b).await;
    let (_, ada_listed) = ada.get("/api/notifications").await;
    assert_eq!(ada_listed["unread"], 1);
    // Reading clears the count (and the bell hears it).
    let (status, read) = bob.post("/api/notifications/read", json!({})).await;
    assert_eq!((status, &read), (200, &json!({ "unread": 0 })));
    let cleared = next_json(&mut bell).await;
    assert_eq!(cleared["unread"], 0);
    assert_eq!(cleared["notifications"][0]["read"], true);

    // A game with a live clock tells nobody.
    let (live, a2, _) = game(&mut ada, &mut bob, json!({ "initial": 300, "increment": 2 })).await;
    play_any(&mut ada, &live, &a2).await;
    let (_, after) = bob.get("/api/notifications").await;
    assert_eq!(after["unread"], 0, "{after}");
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert_eq!(sink.mails().len(), 1, "one mail in all");
    // Logged out, there is no list.
    let (status, _) = Browser::new(&server).get("/api/notifications").await;
    assert_eq!(status, 401);
}

async fn next_json(
    socket: &mut tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>,
) -> Value {
    loop {
        let message = tokio::time::timeout(std::time::Duration::from_secs(20), socket.next())
            .await
            .expect("a message within 20 s")
            .expect("the socket is open")
            .unwrap();
        if let tokio_tungstenite::tungstenite::Message::Text(text) = message {
            return serde_json::from_str(&text).unwrap();
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_password_reset_mails_a_link_that_works_once() {
    let Some(sink) = SmtpSink::start() else { return };
    let (_dir, server) = start(&sink).await;
    let bob = account(&server, "Bob", Some("bob@example.org")).await;
    let _ada = account(&server, "Ada", None).await;
    let mut stranger = Browser::new(&server);

    // The same answer for an account with an address, one without, and nobody.
    let mut answers = Vec::new();
    for username in ["bob", "Ada", "nobody"] {
        answers.push(stranger.post("/api/password-reset", json!({ "username": username })).await);
    }
    assert!(answers.iter().all(|answer| *answer == answers[0]), "{answers:?}");
    assert_eq!(answers[0].0, 202);
    let mails = sink.wait_for(1).await;
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert_eq!(sink.mails().len(), 1, "only Bob has an address");
    let mail = &mails[0];
    assert_eq!(mail.header("To").as_deref(), Some("bob@example.org"));
    let at = mail.text.find("/account?reset=").expect("a reset link");
    let token: String =
        mail.text[at + "/account?reset=".len()..].chars().take_while(|c| c.is_ascii_alphanumeric()).collect();
    assert!(mail.text.contains(&format!("{SITE}/account?reset={token}")));

    let (status, body) =
        stranger.post("/api/password-reset/finish", json!({ "token": token, "password": "short" })).await;
    assert_eq!(status, 400, "a new password is checked as at sign-up: {body}");
    let (status, _) =
        stranger.post("/api/password-reset/finish", json!({ "token": token, "password": "battery staple" })).await;
    assert_eq!(status, 204);
    let (status, body) =
        stranger.post("/api/password-reset/finish", json!({ "token": token, "password": "another one" })).await;
    assert_eq!(status, 400, "used once: {body}");
    assert!(body["error"].as_str().unwrap().contains("not valid"));

    // Bob's old session ended; the new password logs in, the old does not.
    let mut bob = bob;
    let (status, _) = bob.get("/api/account").await;
    assert_eq!(status, 401, "a reset ends every session");
    let (status, _) = bob.post("/api/login", json!({ "username": "bob", "password": "correct horse" })).await;
    assert_eq!(status, 401);
    let (status, _) = bob.post("/api/login", json!({ "username": "bob", "password": "battery staple" })).await;
    assert_eq!(status, 200);
    let (status, body) =
        bob.post("/api/password-reset/finish", json!({ "token": "x".repeat(22), "password": "battery staple" })).await;
    assert_eq!(status, 400, "{body}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_smtp_there_is_no_reset_and_addresses_are_checked() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("g.sqlite")).await;
    let mut ada = Browser::new(&server);
    let (status, _) = ada.post("/api/register", json!({ "username": "Ada", "password": "correct horse" })).await;
    assert_eq!(status, 201);
    let (status, body) = ada.get("/api/account/email").await;
    assert_eq!((status, body), (200, json!({ "email": null, "mail": false })));
    for bad in ["not an address", "a@", "@b.org", &format!("{}@example.org", "x".repeat(300))] {
        let (status, body) = ada.post("/api/account/email", json!({ "email": bad, "password": "correct horse" })).await;
        assert_eq!(status, 400, "{bad}: {body}");
    }
    let (status, _) =
        ada.post("/api/account/email", json!({ "email": "ada@example.org", "password": "wrong password" })).await;
    assert_eq!(status, 401);
    let (status, _) =
        ada.post("/api/account/email", json!({ "email": "ada@example.org", "password": "correct horse" })).await;
    assert_eq!(status, 200);
    let (_, body) = ada.get("/api/account/email").await;
    assert_eq!(body["email"], "ada@example.org");
    let (status, _) = ada.post("/api/account/email", json!({ "email": null, "password": "correct horse" })).await;
    assert_eq!(status, 200);
    let (_, body) = ada.get("/api/account/email").await;
    assert_eq!(body["email"], Value::Null);
    let (status, body) = Browser::new(&server).post("/api/password-reset", json!({ "username": "Ada" })).await;
    assert_eq!(status, 404, "{body}");
    assert_eq!(body["error"], "password reset is off: this server sends no mail (ask its operator)");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_whose_correspondence_time_runs_low_is_told_once() {
    let Some(sink) = SmtpSink::start() else { return };
    let (dir, server) = start(&sink).await;
    let mut ada = account(&server, "Ada", Some("ada@example.org")).await;
    let mut bob = account(&server, "Bob", None).await;
    let (id, a, b) = game(&mut ada, &mut bob, json!({ "days": 1 })).await;
    play_any(&mut ada, &id, &a).await;
    play_any(&mut bob, &id, &b).await;
    assert_eq!(sink.wait_for(1).await.len(), 1, "Ada is told it is her move");
    server.stop().await;
    // Twenty hours pass (the moves were made that long ago): of Ada's day,
    // four hours are left, less than a quarter.
    let db = dir.path().join("g.sqlite");
    let store = Database::Sqlite(db.clone()).open().unwrap();
    sql::transact(&*store, |sql| sql.execute("UPDATE moves SET at = at - 72000000 WHERE game = $1", sql_params![&id]))
        .unwrap();
    drop(store);
    let settings =
        MailSettings { smtp_url: sink.url.clone(), from: "Menagerie <games@menagerie.test>".into(), site: SITE.into() };
    let notifier = Arc::new(Notifier::new(Some(Mailer::new(&settings).unwrap())));
    let config = HubConfig { max_searches: 1, notifier, ..HubConfig::default() };
    let server = TestServer::start_with_config(&db, config).await;
    let mails = sink.wait_for(2).await;
    assert!(mails[1].header("Subject").unwrap().contains("running low"), "{:?}", mails[1]);
    assert!(mails[1].text.contains(&format!("{SITE}/g/{id}")));
    let mut ada = Browser { base: server.base.clone(), ..ada };
    let (_, listed) = ada.get("/api/notifications").await;
    let kinds: Vec<&str> =
        listed["notifications"].as_array().unwrap().iter().map(|n| n["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["timeLow", "yourMove"]);
    let (_, bobs) = Browser { base: server.base.clone(), ..bob }.get("/api/notifications").await;
    assert_eq!(bobs["unread"], 1, "Bob was told of his move only: {bobs}");
    // The game is still on (four hours left), and nothing more is told.
    let (_, state) = ada.get(&format!("/api/games/{id}?seat={a}")).await;
    assert_eq!(state["result"], Value::Null);
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    assert_eq!(sink.mails().len(), 2);
}
