//! Idle games leave memory and come back from the store unchanged; games
//! someone watches, or where the computer is to move, stay.

use menagerie_loadtest::WithNim;
use menagerie_server::command::NewGame;
use menagerie_server::computer::RandomOnly;
use menagerie_server::store::SqliteStore;
use menagerie_server::HubConfig;
use std::sync::Arc;
use std::time::Duration;

fn new_game(variant: &str, opponent: &str) -> NewGame {
    NewGame {
        variant: variant.into(),
        position: None,
        opponent: Some(opponent.into()),
        level: None,
        colour: Some("first".into()),
        seed: Some(1),
        clock: None,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_games_leave_memory_and_load_again_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let store = SqliteStore::open(&dir.path().join("games.sqlite")).unwrap();
    let config = HubConfig { max_searches: 1, idle_after: Some(Duration::from_millis(200)), ..HubConfig::default() };
    let hub = menagerie_server::new_hub(Arc::new(WithNim), Arc::new(store), Arc::new(RandomOnly), config);

    let created = hub.create(new_game("lma", "local")).await.unwrap();
    let id = created["id"].as_str().unwrap();
    let seat = created["secrets"]["first"].as_str().unwrap();
    let first = hub.state(id, Some(seat)).await.unwrap().to_value();
    let mv = first["legal_moves"][0].as_str().unwrap().to_owned();
    let played = hub.play(id, Some(seat), &mv, None).await.unwrap().to_value();
    let watched = hub.create(new_game("fluid", "local")).await.unwrap();
    let watched_slot = hub.slot(watched["id"].as_str().unwrap()).await.unwrap();
    let _socket = watched_slot.subscribe();
    assert_eq!(hub.loaded_games(), 2);

    // Recently used: nothing leaves.
    assert_eq!(hub.evict_idle(), 0);
    tokio::time::sleep(Duration::from_millis(300)).await;
    // Only the unwatched game leaves; the held one stays. (The hub's own
    // sweep may have got there first.)
    hub.evict_idle();
    assert_eq!(hub.loaded_games(), 1);

    let again = hub.state(id, Some(seat)).await.unwrap().to_value();
    assert_eq!(hub.loaded_games(), 2);
    // The same game, at the same version: the version is stored, so a
    // reload is no change to a page.
    assert_eq!(again, played);
    // And the game goes on.
    let reply = &again["moves"];
    assert_eq!(reply.as_array().unwrap().len(), 1);
    let second = created["secrets"]["second"].as_str().unwrap();
    let next = hub.state(id, Some(second)).await.unwrap().to_value();
    let answer = next["legal_moves"][0].as_str().unwrap().to_owned();
    assert_eq!(hub.play(id, Some(second), &answer, Some(1)).await.unwrap().to_value()["ply"], 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nothing_leaves_without_an_idle_limit() {
    let dir = tempfile::tempdir().unwrap();
    let store = SqliteStore::open(&dir.path().join("games.sqlite")).unwrap();
    let config = HubConfig { max_searches: 1, idle_after: None, ..HubConfig::default() };
    let hub = menagerie_server::new_hub(Arc::new(WithNim), Arc::new(store), Arc::new(RandomOnly), config);
    hub.create(new_game("nim", "local")).await.unwrap();
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert_eq!(hub.evict_idle(), 0);
    assert_eq!(hub.loaded_games(), 1);
}
