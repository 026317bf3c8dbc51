//! The server's real computer opponent: the levels of `menagerie_ai`, in
//! every game of the registry.

mod common;

use common::{wait_for, TestServer};
use menagerie_core::NoData;
use menagerie_loadtest::WithNim;
use menagerie_server::computer::{ComputerPlayer, LevelPlayer, Opponents, SearchLevels};
use menagerie_server::source::{GameSource, Registry};
use serde_json::{json, Value};
use std::sync::Arc;

#[test]
fn the_levels_are_listed_weakest_first_with_medium_preselected() {
    let levels = SearchLevels.levels();
    let ids: Vec<&str> = levels.iter().map(|l| l.id.as_str()).collect();
    assert_eq!(ids, ["random", "easy", "medium", "hard", "strongest"]);
    let defaults: Vec<&str> = levels.iter().filter(|l| l.default).map(|l| l.id.as_str()).collect();
    assert_eq!(defaults, ["medium"]);
    for level in &ids {
        assert!(SearchLevels.player(level).is_some(), "no player for {level}");
    }
    assert!(SearchLevels.player("grandmaster").is_none());
}

#[test]
fn easy_finds_a_mate_in_one() {
    let game = Registry.new_game("fluid", Some("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"), 0, &NoData).unwrap();
    for _ in 0..5 {
        assert_eq!(LevelPlayer::new("easy").choose(game.as_ref()).as_deref(), Some("Ra1a8"));
    }
}

#[test]
fn a_game_the_registry_does_not_know_gets_random_legal_moves() {
    let game = WithNim.new_game("nim:stones=10", None, 0, &NoData).unwrap();
    let choice = LevelPlayer::new("easy").choose(game.as_ref()).expect("a move");
    assert!(game.legal_moves().contains(&choice), "{choice}");
}

#[test]
fn a_finished_game_has_no_move() {
    let game = Registry.new_game("fluid", Some("R5k1/5ppp/8/8/8/8/8/6K1 b - - 1 1"), 0, &NoData).unwrap();
    assert!(game.outcome().is_some());
    assert_eq!(LevelPlayer::new("easy").choose(game.as_ref()), None);
}

/// In every game, the computer at level easy moves first, and its move
/// shows up for the human.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_computer_plays_every_game_at_a_level() {
    let dir = tempfile::tempdir().unwrap();
    let server =
        TestServer::start_full(&dir.path().join("games.sqlite"), Arc::new(SearchLevels), Arc::new(Registry)).await;
    let (status, listed) = server.get("/api/variants").await;
    assert_eq!(status, 200);
    assert_eq!(listed["levels"].as_array().unwrap().len(), 5, "{listed}");
    for info in Registry.variants() {
        let created = server
            .create(
                json!({ "variant": info.id, "opponent": "computer", "level": "easy", "colour": "second", "seed": 3 }),
            )
            .await;
        let id = created["id"].as_str().unwrap();
        let seat = created["secrets"]["second"].as_str().unwrap();
        let state = wait_for(&server, id, Some(seat), |s: &Value| {
            s["your_turn"] == true && s["moves"].as_array().unwrap().iter().any(|m| m["actor"] == "first")
        })
        .await;
        assert_eq!(state["seats"]["first"]["level"], "easy", "{}: {state}", info.id);
        assert!(!state["legal_moves"].as_array().unwrap().is_empty(), "{}: {state}", info.id);
    }
    // Without a level the game gets the preselected one.
    let created = server.create(json!({ "variant": "lma", "opponent": "computer", "colour": "first" })).await;
    let state = server.state(created["id"].as_str().unwrap(), None).await;
    assert_eq!(state["seats"]["second"]["level"], "medium");
    server.stop().await;
}
