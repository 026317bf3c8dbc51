//! A client that goes away while its move is being committed: the move is
//! still committed whole (in memory, in the store, in what viewers see), or
//! not at all; never half. (The fuzz test found the half: the server drops
//! the handler of a closed connection.)

use menagerie_loadtest::WithNim;
use menagerie_server::computer::RandomOnly;
use menagerie_server::store::{GameMeta, GameRecord, Seen, SqliteStore, Store, StoreError, StoredGame, StoredMove};
use menagerie_server::HubConfig;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::AsyncWriteExt;

/// SQLite, with every move taking a while to commit.
struct SlowMoves(SqliteStore);

impl Store for SlowMoves {
    fn create(&self, record: &GameRecord) -> Result<(), StoreError> {
        self.0.create(record)
    }
    fn append_move(&self, game: &str, ply: usize, mv: &StoredMove) -> Result<u64, StoreError> {
        std::thread::sleep(Duration::from_millis(400));
        self.0.append_move(game, ply, mv)
    }
    fn append_moves(&self, game: &str, first_ply: usize, moves: &[StoredMove]) -> Result<u64, StoreError> {
        std::thread::sleep(Duration::from_millis(400));
        self.0.append_moves(game, first_ply, moves)
    }
    fn set_meta(&self, game: &str, seen: Seen<'_>, meta: &GameMeta) -> Result<u64, StoreError> {
        self.0.set_meta(game, seen, meta)
    }
    fn load(&self, game: &str) -> Result<Option<StoredGame>, StoreError> {
        self.0.load(game)
    }
    fn computer_games_in_progress(&self) -> Result<Vec<String>, StoreError> {
        self.0.computer_games_in_progress()
    }
    fn take_back(&self, game: &str, seen: Seen<'_>, keep: usize, meta: &GameMeta) -> Result<u64, StoreError> {
        self.0.take_back(game, seen, keep, meta)
    }
    fn timed_games_in_progress(&self) -> Result<Vec<String>, StoreError> {
        self.0.timed_games_in_progress()
    }
    fn game_ids(&self) -> Result<Vec<String>, StoreError> {
        self.0.game_ids()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_whose_client_leaves_is_committed_whole() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("g.sqlite");
    let store = SlowMoves(SqliteStore::open(&db).unwrap());
    let hub = menagerie_server::new_hub(Arc::new(WithNim), Arc::new(store), Arc::new(RandomOnly), HubConfig::default());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap().to_string();
    let server = menagerie_server::spawn(listener, Arc::clone(&hub));
    let request = menagerie_server::command::NewGame {
        variant: "nim:stones=10".into(),
        position: None,
        opponent: Some("local".into()),
        level: None,
        colour: Some("first".into()),
        seed: None,
        clock: None,
    };
    let created = hub.create(request).await.unwrap();
    let id = created["id"].as_str().unwrap();
    let first = created["secrets"]["first"].as_str().unwrap();

    let body = format!("{{\"seat\":\"{first}\",\"move\":\"2\"}}");
    let mut stream = tokio::net::TcpStream::connect(&address).await.unwrap();
    let head = format!(
        "POST /api/games/{id}/move HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    stream.write_all(format!("{head}{body}").as_bytes()).await.unwrap();
    // Gone while the move is being committed.
    tokio::time::sleep(Duration::from_millis(100)).await;
    drop(stream);
    tokio::time::sleep(Duration::from_millis(1500)).await;

    let state = hub.state(id, Some(first)).await.unwrap().to_value();
    assert_eq!(state["ply"], 1, "{state}");
    assert_eq!(state["board"]["text"], "8 second", "{state}");
    server.abort();
    // The store agrees with what was shown.
    let stored = SqliteStore::open(&db).unwrap().load(id).unwrap().unwrap();
    assert_eq!(stored.moves.len(), 1);
}
