//! berserk, lichess's own Python client (from PyPI), drives the Bot and
//! Board API through whole games in LMA, Kelasu (several actions a turn)
//! and Lunch Chess (hidden cards, answers out of turn): one account as a
//! bot, the other as a board player (tests/berserk/play.py). Without
//! berserk the test says so and passes, unless MENAGERIE_REQUIRE_BERSERK=1
//! (CI), where a missing berserk is a failure.

mod common;

use common::lichess::account_with_token;
use common::TestServer;
use std::process::Command;

fn berserk_installed() -> bool {
    Command::new("python3").args(["-c", "import berserk"]).output().is_ok_and(|o| o.status.success())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn berserk_plays_whole_games_as_a_bot_and_as_a_board_player() {
    if !berserk_installed() {
        assert!(
            std::env::var("MENAGERIE_REQUIRE_BERSERK").as_deref() != Ok("1"),
            "berserk is not installed (python3 -m pip install berserk) and MENAGERIE_REQUIRE_BERSERK=1"
        );
        eprintln!("skipped: berserk is not installed (python3 -m pip install berserk)");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("g.sqlite")).await;
    let (_, bot) = account_with_token(&server, "Robot", &["bot:play"]).await;
    let (_, board) = account_with_token(&server, "Person", &["board:play", "challenge:read", "challenge:write"]).await;
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/berserk/play.py");
    let args =
        [script, &server.base, &bot.token, "Robot", &board.token, "Person", "lma", "kelasu", "lunch"].map(String::from);
    let output =
        tokio::task::spawn_blocking(move || Command::new("python3").args(args).output().unwrap()).await.unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
    let games: Vec<Vec<&str>> = stdout.lines().map(|l| l.split(' ').collect()).collect();
    assert_eq!(games.iter().map(|g| g[0]).collect::<Vec<_>>(), ["lma", "kelasu", "lunch"], "{stdout}");
    for game in &games {
        // Each game was played to its end by the rules (nobody resigned).
        assert!(["mate", "draw", "stalemate", "variantEnd"].contains(&game[2]), "{stdout}");
        let (_, state) = bot.get(&format!("/api/games/{}", game[1])).await;
        assert!(state["result"].is_object(), "{state}");
    }
    eprintln!("{stdout}");
}

/// berserk joins a private arena with a `tournament:write` token (the
/// password in the query string, as it sends it), withdraws, and blocks a
/// player with `follow:write` (tests/berserk/tournament.py).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn berserk_joins_and_leaves_a_tournament_and_blocks_with_its_token() {
    if !berserk_installed() {
        assert!(std::env::var("MENAGERIE_REQUIRE_BERSERK").as_deref() != Ok("1"), "berserk is not installed");
        eprintln!("skipped: berserk is not installed (python3 -m pip install berserk)");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("g.sqlite")).await;
    let (mut organiser, _) = account_with_token(&server, "Organiser", &[]).await;
    let (_, player) = account_with_token(&server, "Player", &["board:play", "tournament:write", "follow:write"]).await;
    let body = serde_json::json!({ "name": "Club", "variant": "nim", "clockTime": 1, "clockIncrement": 0,
                                   "minutes": 10, "waitMinutes": 30, "password": "club secret" });
    let (status, created) = organiser.post("/api/tournament", body).await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_owned();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/berserk/tournament.py");
    let args = [script, &server.base, &player.token, &id, "club secret", "Organiser"].map(String::from);
    let output =
        tokio::task::spawn_blocking(move || Command::new("python3").args(args).output().unwrap()).await.unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines, ["refused 403", "joined", "withdrew", "blocked 200 {'ok': True}"], "{stdout}");
    let (_, t) = organiser.get(&format!("/api/tournament/{id}")).await;
    let line = t["standing"]["players"].as_array().unwrap().iter().find(|p| p["name"] == "Player").cloned();
    assert_eq!(line.map(|l| l["withdraw"].clone()), Some(serde_json::json!(true)), "{t}");
    let (status, refused) = organiser.post("/api/challenge/Player", serde_json::json!({ "variant": "nim" })).await;
    assert_eq!((status, &refused["error"]), (400, &serde_json::json!("You cannot challenge Player.")));
}
