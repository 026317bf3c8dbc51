//! Accounts through the API (docs/api.md, "Accounts"): sign-up, login and
//! logout with the session cookie, the same answer for an unknown player
//! and a wrong password, the login limits (strangers locked out, never the
//! owner's browser: OWASP's device cookie), the anonymous browser's
//! games becoming the account's, seats acting with the session alone, the
//! games in progress, closing an account and downloading its data.

mod common;

use common::session::Browser;
use common::TestServer;
use menagerie_server::limits;
use serde_json::{json, Value};

fn credentials(username: &str, password: &str) -> Value {
    json!({ "username": username, "password": password })
}

async fn start() -> (tempfile::TempDir, TestServer) {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("g.sqlite")).await;
    (dir, server)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_signs_up_logs_in_and_out_and_a_name_is_taken_once() {
    let (_dir, server) = start().await;
    let mut ada = Browser::new(&server);
    assert_eq!(ada.get("/api/account").await.0, 401);
    let (status, body) = ada.post("/api/register", credentials("Ada_L", "correct horse")).await;
    assert_eq!((status, &body), (201, &json!({ "username": "Ada_L" })));
    let cookie = ada.set.iter().find(|c| c.starts_with("menagerie_session=")).expect("a session cookie").clone();
    assert!(cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"), "{cookie}");
    assert!(!cookie.contains("Secure"), "plain HTTP: {cookie}");
    let (status, account) = ada.get("/api/account").await;
    assert_eq!(status, 200, "{account}");
    assert_eq!((account["id"].as_str(), account["username"].as_str()), (Some("ada_l"), Some("Ada_L")));
    assert!(account["createdAt"].as_i64().unwrap() > 1_700_000_000_000, "{account}");
    assert!(!account.to_string().contains("correct horse"));

    // The name is taken whatever its case; bad names and passwords say why
    // (never echoing the password).
    let mut bob = Browser::new(&server);
    assert_eq!(bob.post("/api/register", credentials("ada_l", "another password")).await.0, 409);
    for (username, password) in [("a", "long enough"), ("ada lovelace", "long enough"), ("bobby", "short7!")] {
        let (status, error) = bob.post("/api/register", credentials(username, password)).await;
        assert_eq!(status, 400, "{username} {password}: {error}");
        assert!(error["error"].is_string() && !error.to_string().contains(password), "{error}");
    }
    assert!(bob.session().is_none());

    // Logging in from another browser: a second session; logging out ends
    // only this one, unless everywhere.
    let mut phone = Browser::new(&server);
    let (status, body) = phone.post("/api/login", credentials("ADA_L", "correct horse")).await;
    assert_eq!((status, &body), (200, &json!({ "username": "Ada_L" })));
    assert_ne!(phone.session(), ada.session());
    let kept = ada.cookies.clone();
    assert_eq!(ada.post("/api/logout", json!({})).await.0, 204);
    assert!(ada.session().is_none(), "the cookie is removed");
    ada.cookies = kept;
    assert_eq!(ada.get("/api/account").await.0, 401, "the session ended in the store");
    assert_eq!(phone.get("/api/account").await.0, 200, "the other session goes on");
    let mut laptop = Browser::new(&server);
    assert_eq!(laptop.post("/api/login", credentials("ada_l", "correct horse")).await.0, 200);
    assert_eq!(laptop.post("/api/logout", json!({ "everywhere": true })).await.0, 204);
    assert_eq!(phone.get("/api/account").await.0, 401, "everywhere");
    server.stop().await;
}

/// `n` failed logins to `name` from `browser`, each answered 401.
async fn fail_logins(browser: &mut Browser, name: &str, n: usize) {
    for guess in 0..n {
        let (status, answer) = browser.post("/api/login", credentials(name, &format!("guess {guess}"))).await;
        assert_eq!(status, 401, "guess {guess}: {answer}");
    }
}

/// Ten failed logins to a name from browsers it does not trust lock every
/// such browser out of it (429 with `Retry-After`), the right password
/// too; the owner's browser, which logged in to it before (its device
/// cookie), is not locked out by strangers. Other names are not limited.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn strangers_failures_lock_out_strangers_and_never_the_owners_browser() {
    let (dir, server) = start().await;
    let mut ada = Browser::new(&server);
    assert_eq!(ada.post("/api/register", credentials("ada", "correct horse")).await.0, 201);
    assert!(ada.cookies.iter().any(|(name, _)| name == "menagerie_device"), "{:?}", ada.set);
    assert_eq!(ada.post("/api/logout", json!({})).await.0, 204);
    let mut mallory = Browser::from(&server, "127.0.0.7");
    let wrong = mallory.post("/api/login", credentials("ada", "wrong password")).await;
    let unknown = mallory.post("/api/login", credentials("nobody", "wrong password")).await;
    assert_eq!(wrong.0, 401);
    assert_eq!(wrong, unknown, "the same answer");
    fail_logins(&mut mallory, "ada", 9).await;
    let (status, answer) = mallory.post("/api/login", credentials("ada", "guess")).await;
    assert_eq!((status, &answer["error"]), (429, &json!(limits::LOGIN_FAILURES_PER_NAME.says)), "{answer}");
    let mut elsewhere = Browser::from(&server, "127.0.0.8");
    assert_eq!(
        elsewhere.post("/api/login", credentials("ada", "correct horse")).await.0,
        429,
        "strangers are locked out"
    );
    // The owner's browser logs in all the same.
    assert_eq!(ada.post("/api/login", credentials("ada", "correct horse")).await.0, 200, "the owner is not");
    // A device cookie of another account (Mallory's own) trusts nothing here.
    assert_eq!(mallory.post("/api/register", credentials("mallory", "mallory's password")).await.0, 201);
    assert_eq!(mallory.post("/api/login", credentials("ada", "correct horse")).await.0, 429);
    // Other names are not limited.
    let mut bob = Browser::from(&server, "127.0.0.9");
    assert_eq!(bob.post("/api/register", credentials("bob", "bob's password")).await.0, 201);
    let mut bob_again = Browser::from(&server, "127.0.0.9");
    assert_eq!(bob_again.post("/api/login", credentials("bob", "bob's password")).await.0, 200, "bob is not");
    // An address's attempts are counted too (every one, right or wrong):
    // with its count full, even bob's right password from it is refused.
    let store = menagerie_server::store::AsyncStore::new(std::sync::Arc::new(
        menagerie_server::store::SqliteStore::open(&dir.path().join("g.sqlite")).unwrap(),
    ));
    let limit = &limits::LOGINS_PER_ADDRESS;
    let full = (0..limit.count).map(|_| limits::Charge::new(limit, "127.0.0.7")).collect::<Vec<_>>();
    for charge in full {
        if limits::count(&store, vec![charge]).await.is_err() {
            break;
        }
    }
    assert_eq!(mallory.post("/api/login", credentials("bob", "bob's password")).await.0, 429, "mallory's address is");
    assert_eq!(bob_again.post("/api/login", credentials("bob", "bob's password")).await.0, 200);
    server.stop().await;
}

/// The owner's browser's own failures count against it alone: ten wrong
/// passwords lock that browser out, not the owner's other browsers, nor
/// strangers (the name's count is untouched).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_trusted_browsers_failures_count_against_it_alone() {
    let (_dir, server) = start().await;
    let mut laptop = Browser::new(&server);
    assert_eq!(laptop.post("/api/register", credentials("ada", "correct horse")).await.0, 201);
    let mut phone = Browser::from(&server, "127.0.0.5");
    assert_eq!(phone.post("/api/login", credentials("ada", "correct horse")).await.0, 200, "the phone is trusted now");
    for browser in [&mut laptop, &mut phone] {
        assert_eq!(browser.post("/api/logout", json!({})).await.0, 204);
    }
    fail_logins(&mut laptop, "ada", 10).await;
    let (status, answer) = laptop.post("/api/login", credentials("ada", "correct horse")).await;
    assert_eq!((status, &answer["error"]), (429, &json!(limits::LOGIN_FAILURES_PER_DEVICE.says)), "{answer}");
    assert_eq!(phone.post("/api/login", credentials("ada", "correct horse")).await.0, 200, "another trusted browser");
    let mut stranger = Browser::from(&server, "127.0.0.6");
    assert_eq!(
        stranger.post("/api/login", credentials("ada", "correct horse")).await.0,
        200,
        "the name's count is untouched"
    );
    // A success takes its attempt back: after nine failures and a success,
    // one more failure is still judged; the next attempt is refused.
    fail_logins(&mut phone, "ada", 9).await;
    assert_eq!(phone.post("/api/login", credentials("ada", "correct horse")).await.0, 200);
    fail_logins(&mut phone, "ada", 1).await;
    assert_eq!(phone.post("/api/login", credentials("ada", "correct horse")).await.0, 429);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_anonymous_browsers_games_become_its_accounts_and_its_seat_acts_with_the_session() {
    let (_dir, server) = start().await;
    let mut ada = Browser::new(&server);
    assert_eq!(ada.get("/api/me").await.0, 200, "an anonymous identity");
    let (status, earlier) = ada.post("/api/games", json!({ "variant": "nim", "opponent": "friend" })).await;
    assert_eq!(status, 201, "{earlier}");
    let earlier_id = earlier["id"].as_str().unwrap().to_owned();
    let you = earlier["you"].as_str().unwrap().to_owned();
    assert_eq!(ada.post("/api/register", credentials("ada", "correct horse")).await.0, 201);
    let (status, playing) = ada.get("/api/account/playing").await;
    assert_eq!(status, 200, "{playing}");
    let games = playing["nowPlaying"].as_array().unwrap();
    assert_eq!(games.len(), 1, "{playing}");
    assert_eq!(
        (games[0]["gameId"].as_str(), games[0]["color"].as_str()),
        (Some(earlier_id.as_str()), Some(you.as_str()))
    );
    assert_eq!(games[0]["variant"], "nim");

    // A game made while logged in is the account's too; on any device the
    // session alone moves for its seat.
    let (status, game) = ada.post("/api/games", json!({ "variant": "nim", "opponent": "local" })).await;
    assert_eq!(status, 201, "{game}");
    let mut phone = Browser::new(&server);
    assert_eq!(phone.post("/api/login", credentials("ada", "correct horse")).await.0, 200);
    let path = format!("/api/games/{earlier_id}");
    let (status, state) = phone.get(&path).await;
    assert_eq!((status, state["you"].as_str()), (200, Some(you.as_str())), "{state}");
    let first = earlier["secrets"]["first"].as_str().unwrap();
    if you == "first" {
        let (status, moved) = phone.post(&format!("{path}/move"), json!({ "move": "1" })).await;
        assert_eq!(status, 200, "{moved}");
    } else {
        assert_eq!(server.play(&earlier_id, first, "1").await.0, 200);
    }
    // A stranger without the seat moves nothing; its seat is nobody's.
    let mut stranger = Browser::new(&server);
    let (status, _) = stranger.post(&format!("{path}/resign"), json!({})).await;
    assert!(status == 403 || status == 400, "{status}");
    // The friend who opens the offered link holds the other seat.
    let other = if you == "first" { "second" } else { "first" };
    let mut friend = Browser::new(&server);
    assert_eq!(friend.get("/api/me").await.0, 200);
    let secret = earlier["secrets"][other].as_str().unwrap();
    assert_eq!(friend.get(&format!("{path}?seat={secret}")).await.0, 200);
    assert_eq!(friend.post("/api/register", credentials("friend", "friend's password")).await.0, 201);
    let (_, playing) = friend.get("/api/account/playing").await;
    assert_eq!(playing["nowPlaying"][0]["color"], json!(other), "{playing}");
    let (_, state) = friend.get(&path).await;
    assert_eq!(state["you"], json!(other), "{state}");
    // The local game's two seats are the account's; the list shows both
    // games, and which wait for the account.
    let (_, playing) = ada.get("/api/account/playing").await;
    assert_eq!(playing["nowPlaying"].as_array().unwrap().len(), 3, "{playing}");
    assert!(playing["nowPlaying"].as_array().unwrap().iter().all(|g| g["isMyTurn"].is_boolean()), "{playing}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_closed_account_logs_in_no_more_and_its_data_is_downloaded_first() {
    let (_dir, server) = start().await;
    let mut ada = Browser::new(&server);
    assert_eq!(ada.post("/api/register", credentials("ada", "correct horse")).await.0, 201);
    let (_, game) = ada.post("/api/games", json!({ "variant": "nim", "opponent": "friend" })).await;
    let (status, data) = ada.get("/api/account/export").await;
    assert_eq!(status, 200, "{data}");
    assert_eq!(data["account"]["username"], "ada");
    assert_eq!(data["games"][0]["gameId"], game["id"], "{data}");
    assert_eq!(data["sessions"].as_array().unwrap().len(), 1, "{data}");
    let text = data.to_string();
    assert!(!text.contains("correct horse") && !text.contains("argon2") && !text.contains(ada.session().unwrap()));
    let players = format!("/api/games/{}/players", game["id"].as_str().unwrap());
    let you = game["you"].as_str().unwrap();
    let (status, names) = server.get(&players).await;
    assert_eq!(status, 200, "{names}");
    assert_eq!(names[you], "ada", "{names}");
    assert_eq!(names.as_object().unwrap().values().filter(|n| n.is_null()).count(), 1, "nobody holds the other seat");
    let mut phone = Browser::new(&server);
    assert_eq!(phone.post("/api/login", credentials("ada", "correct horse")).await.0, 200);
    assert_eq!(ada.post("/api/account/close", json!({ "password": "wrong password" })).await.0, 401);
    assert_eq!(ada.post("/api/account/close", json!({ "password": "correct horse" })).await.0, 204);
    assert_eq!(phone.get("/api/account").await.0, 401, "every session ended");
    assert_eq!(phone.post("/api/login", credentials("ada", "correct horse")).await.0, 401);
    assert_eq!(phone.post("/api/register", credentials("ADA", "correct horse")).await.0, 409, "the name stays taken");
    // The game stays, under a neutral name.
    let (status, _) = server.get(&format!("/api/games/{}", game["id"].as_str().unwrap())).await;
    assert_eq!(status, 200);
    assert_eq!(server.get(&players).await.1[you], "closed account");
    assert_eq!(server.get("/api/games/nosuchgame/players").await.0, 404);
    server.stop().await;
}
