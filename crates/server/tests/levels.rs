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

#[test]
fn the_stronger_levels_search_on_several_threads() {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get()) as u32;
    let threads = |level: &str| SearchLevels.player(level).expect("a level").threads();
    assert_eq!(threads("random"), 1);
    assert_eq!(threads("easy"), 1);
    assert_eq!(threads("hard"), 2.min(cores));
    assert_eq!(threads("strongest"), 4.min(cores));
}

/// A player whose every search holds two threads for a while, and which
/// counts how many of its searches run at once.
struct Wide {
    running: Arc<std::sync::atomic::AtomicUsize>,
    most: Arc<std::sync::atomic::AtomicUsize>,
}

impl ComputerPlayer for Wide {
    fn choose(&self, game: &dyn menagerie_core::DynGame) -> Option<String> {
        use std::sync::atomic::Ordering::SeqCst;
        let now = self.running.fetch_add(1, SeqCst) + 1;
        self.most.fetch_max(now, SeqCst);
        std::thread::sleep(std::time::Duration::from_millis(150));
        self.running.fetch_sub(1, SeqCst);
        game.legal_moves().first().cloned()
    }
    fn threads(&self) -> u32 {
        2
    }
}

struct WideOpponents(Arc<Wide>);

impl Opponents for WideOpponents {
    fn levels(&self) -> Vec<menagerie_server::computer::Level> {
        menagerie_server::computer::RandomOnly.levels()
    }
    fn player(&self, _level: &str) -> Option<Arc<dyn ComputerPlayer>> {
        Some(Arc::clone(&self.0) as Arc<dyn ComputerPlayer>)
    }
}

/// The test server allows two search threads at once: two searches of two
/// threads each must take turns.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_search_counts_its_threads_against_the_cap() {
    let dir = tempfile::tempdir().unwrap();
    let wide = Arc::new(Wide { running: Default::default(), most: Default::default() });
    let server = TestServer::start_with(&dir.path().join("w.sqlite"), Arc::new(WideOpponents(Arc::clone(&wide)))).await;
    let mut games = Vec::new();
    for _ in 0..3 {
        let created = server
            .create(
                json!({ "variant": "nim:stones=20", "opponent": "computer", "level": "random", "colour": "second" }),
            )
            .await;
        let id = created["id"].as_str().unwrap().to_owned();
        let seat = created["secrets"]["second"].as_str().unwrap().to_owned();
        games.push((id, seat));
    }
    for (id, seat) in &games {
        wait_for(&server, id, Some(seat), |s| s["ply"] == 1).await;
    }
    assert_eq!(wide.most.load(std::sync::atomic::Ordering::SeqCst), 1);
    server.stop().await;
}
