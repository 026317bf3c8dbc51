//! The Bot and Board API on two servers sharing one PostgreSQL database: a
//! challenge made through one node reaches the bot's event stream on the
//! other, its acceptance there starts the game that the challenger's
//! stream on the first node announces, and each move made through one
//! node reaches the other seat's game stream on the other. Needs
//! MENAGERIE_TEST_POSTGRES (skipped without it, a failure under
//! MENAGERIE_REQUIRE_POSTGRES=1).

mod common;

use common::lichess::{account_with_token, Api, Lines};
use common::TestServer;
use menagerie_loadtest::postgres::TestDatabase;
use menagerie_server::computer::RandomOnly;
use menagerie_server::store::PgStore;
use menagerie_server::{HubConfig, RequestLimits};
use std::sync::Arc;

async fn node(url: &str) -> TestServer {
    let store = PgStore::open(url).expect("the database opens");
    let config = HubConfig { max_searches: 2, ..HubConfig::default() };
    let hub = menagerie_server::new_hub(
        Arc::new(menagerie_server::source::Registry),
        Arc::new(store),
        Arc::new(RandomOnly),
        config,
    );
    hub.resume().await.expect("games resume");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let task = menagerie_server::spawn_with(listener, hub, RequestLimits::default());
    TestServer::from_parts(base, task)
}

/// The same token, sent to another node.
fn on(api: &Api, node: &TestServer) -> Api {
    Api { http: api.http.clone(), base: node.base.clone(), token: api.token.clone() }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn challenges_events_and_moves_cross_nodes() {
    let Some(database) = TestDatabase::create("bot_nodes") else { return };
    let (a, b) = (node(database.url()).await, node(database.url()).await);
    let (_, person_a) = account_with_token(&a, "Person", &["board:play", "challenge:write"]).await;
    let (_, robot_a) = account_with_token(&a, "Robot", &["bot:play"]).await;
    assert_eq!(robot_a.post_form("/api/bot/account/upgrade", &[]).await.0, 200);
    let robot_b = on(&robot_a, &b);

    let mut robot_events = Lines::new(robot_b.stream("/api/stream/event").await);
    let mut person_events = Lines::new(person_a.stream("/api/stream/event").await);
    let (status, challenge) =
        person_a.post_form("/api/challenge/robot", &[("variant", "lma"), ("color", "white")]).await;
    assert_eq!(status, 200, "{challenge}");
    let heard = robot_events.next_of("challenge").await;
    assert_eq!(heard["challenge"]["id"], challenge["id"]);
    let id = challenge["id"].as_str().unwrap();
    let (status, accepted) = robot_b.post_form(&format!("/api/challenge/{id}/accept"), &[]).await;
    assert_eq!(status, 200, "{accepted}");
    let game = person_events.next_of("gameStart").await["game"]["gameId"].as_str().unwrap().to_owned();
    assert_eq!(robot_events.next_of("gameStart").await["game"]["gameId"], game.as_str());

    let mut robot_game = Lines::new(robot_b.stream(&format!("/api/bot/game/stream/{game}")).await);
    let mut person_game = Lines::new(person_a.stream(&format!("/api/board/game/stream/{game}")).await);
    let mut state = person_game.next_of("gameFull").await["state"].clone();
    robot_game.next_of("gameFull").await;
    for ply in 0..4 {
        let (mover, watcher, kind) =
            if ply % 2 == 0 { (&person_a, &mut robot_game, "board") } else { (&robot_b, &mut person_game, "bot") };
        // The mover's own stream (the other's watcher last time) lists its moves.
        let mv = state["legalMoves"][0].as_str().unwrap_or_else(|| panic!("{state}")).to_owned();
        let (status, answer) = mover.post_form(&format!("/api/{kind}/game/{game}/move/{mv}"), &[]).await;
        assert_eq!(status, 200, "{answer}");
        // The other seat's stream, on the other node, shows the move (and,
        // for the one who moves next, its moves).
        loop {
            state = watcher.next_of("gameState").await;
            if state["moves"].as_str().unwrap().split(' ').count() == ply + 1 {
                break;
            }
        }
        assert!(state["moves"].as_str().unwrap().ends_with(&mv), "{state}");
    }
}
