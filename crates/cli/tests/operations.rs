//! Running a site with the real binary: `serve --check-config` (settings
//! from a file, the environment and flags, the password masked), `backup`
//! of a store under load (every game reloads from the copy), and a SIGTERM
//! under load (no acknowledged move lost, every socket told and reconnected).

use futures_util::StreamExt;
use menagerie_loadtest::WithNim;
use menagerie_server::computer::RandomOnly;
use menagerie_server::store::{SqliteStore, Store};
use menagerie_server::{Hub, HubConfig};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

fn menagerie() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_menagerie"));
    // The test's own environment must not change the settings shown.
    for (name, _) in std::env::vars() {
        if name.starts_with("MENAGERIE_") {
            command.env_remove(name);
        }
    }
    command
}

#[test]
fn check_config_prints_the_settings_from_file_environment_and_flags_with_the_password_masked() {
    let folder = tempfile::tempdir().unwrap();
    let config = folder.path().join("menagerie.toml");
    std::fs::write(&config, "addr = \"127.0.0.1:9000\"\nmax-connections = 100\ntrusted-proxy = [\"127.0.0.1\"]\n")
        .unwrap();
    let output = menagerie()
        .args(["serve", "--config", config.to_str().unwrap(), "--check-config", "--max-connections", "50"])
        .env("MENAGERIE_DB", "postgres://menagerie:hunter2@db.example:5432/games")
        .env("MENAGERIE_METRICS_ADDR", "127.0.0.1:9108")
        .output()
        .unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    for line in [
        "addr = \"127.0.0.1:9000\"",
        "db = \"postgres://menagerie:****@db.example:5432/games\"",
        "max-connections = 50",
        "metrics-addr = \"127.0.0.1:9108\"",
        "trusted-proxy = [\"127.0.0.1\"]",
        "log-format = \"text\"",
    ] {
        assert!(stdout.lines().any(|l| l == line), "no `{line}` in:\n{stdout}");
    }
    assert!(!stdout.contains("hunter2"), "{stdout}");
    // What it prints is itself a config file that says the same.
    let again = folder.path().join("again.toml");
    std::fs::write(&again, stdout.replace("****", "hunter2")).unwrap();
    let output = menagerie().args(["serve", "--config", again.to_str().unwrap(), "--check-config"]).output().unwrap();
    assert_eq!(String::from_utf8(output.stdout).unwrap(), stdout);

    let output = menagerie().args(["serve", "--check-config"]).env("MENAGERIE_LOG_FORMAT", "yaml").output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("expected text or json"));
}

/// A hub over a SQLite file, with Nim and the random player.
fn hub(db: &Path) -> Arc<Hub> {
    let config = HubConfig { max_searches: 2, ..HubConfig::default() };
    menagerie_server::new_hub(Arc::new(WithNim), Arc::new(SqliteStore::open(db).unwrap()), Arc::new(RandomOnly), config)
}

/// Local games played as fast as the server answers (each side plays its
/// first legal move), each move's acknowledgement counted, until `stop` or
/// the game's end.
async fn play_until(
    base: String,
    games: Vec<(String, [String; 2])>,
    acknowledged: Arc<Mutex<HashMap<String, usize>>>,
    stop: Arc<AtomicBool>,
) {
    let client = reqwest::Client::new();
    let mut tasks = Vec::new();
    for (id, secrets) in games {
        let (client, base, acknowledged, stop) =
            (client.clone(), base.clone(), Arc::clone(&acknowledged), Arc::clone(&stop));
        tasks.push(tokio::spawn(async move {
            while !stop.load(Ordering::SeqCst) {
                let ply = acknowledged.lock().unwrap()[&id];
                // The sides alternate (no chance in these games): the first moves at even plies.
                let seat = &secrets[ply % 2];
                let state = match client.get(format!("{base}/api/games/{id}?seat={seat}")).send().await {
                    Ok(response) => response.json::<Value>().await.unwrap(),
                    // The server is stopped: wait for it.
                    Err(_) => {
                        tokio::time::sleep(Duration::from_millis(20)).await;
                        continue;
                    }
                };
                if !state["result"].is_null() {
                    return;
                }
                assert_eq!(state["ply"], ply, "game {id} holds every acknowledged move, once: {state}");
                let choice = state["legal_moves"][0].as_str().expect("the seat to act has moves").to_owned();
                let body = json!({ "seat": seat, "move": choice, "ply": ply });
                match client.post(format!("{base}/api/games/{id}/move")).json(&body).send().await {
                    Ok(response) if response.status() == 200 => {
                        *acknowledged.lock().unwrap().get_mut(&id).unwrap() += 1;
                    }
                    Ok(response) => panic!("a move was refused: {}", response.text().await.unwrap()),
                    // The server stopped: this move was never acknowledged.
                    Err(_) => tokio::time::sleep(Duration::from_millis(20)).await,
                }
            }
        }));
    }
    for task in tasks {
        task.await.unwrap();
    }
}

/// Starts `count` local games of `variant`; answers each id and both seats' secrets.
async fn start_games(base: &str, count: usize, variant: &str) -> Vec<(String, [String; 2])> {
    let client = reqwest::Client::new();
    let mut games = Vec::new();
    for _ in 0..count {
        let body = json!({ "variant": variant, "opponent": "local", "colour": "first" });
        let created: Value =
            client.post(format!("{base}/api/games")).json(&body).send().await.unwrap().json().await.unwrap();
        let secrets = ["first", "second"].map(|side| created["secrets"][side].as_str().unwrap().to_owned());
        games.push((created["id"].as_str().unwrap().to_owned(), secrets));
    }
    games
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backup_under_load_holds_every_acknowledged_move_and_every_game_reloads_from_it() {
    let folder = tempfile::tempdir().unwrap();
    let db = folder.path().join("menagerie.sqlite");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let server = menagerie_server::spawn(listener, hub(&db));
    let games = start_games(&base, 8, "nim:stones=1000").await;
    let acknowledged: Arc<Mutex<HashMap<String, usize>>> =
        Arc::new(Mutex::new(games.iter().map(|(id, _)| (id.clone(), 0)).collect()));
    let stop = Arc::new(AtomicBool::new(false));
    let load = tokio::spawn(play_until(base.clone(), games.clone(), Arc::clone(&acknowledged), Arc::clone(&stop)));

    for round in 0..3 {
        tokio::time::sleep(Duration::from_millis(300)).await;
        let before = acknowledged.lock().unwrap().clone();
        let copy = folder.path().join(format!("backup-{round}.sqlite"));
        let output = tokio::task::spawn_blocking({
            let (db, copy) = (db.clone(), copy.clone());
            move || menagerie().args(["backup", "--db"]).arg(&db).arg("--to").arg(&copy).output().unwrap()
        })
        .await
        .unwrap();
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        let said = String::from_utf8(output.stdout).unwrap();
        assert!(said.starts_with(&format!("{} games backed up to ", games.len())), "{said}");

        // Restoring is serving the copy: every game loads and replays.
        let restored = hub(&copy);
        let ids = SqliteStore::open(&copy).unwrap().game_ids().unwrap();
        assert_eq!(ids.len(), games.len());
        for (id, _) in &games {
            let slot = restored.slot(id).await.unwrap_or_else(|e| panic!("game {id} does not reload: {e:?}"));
            let plies = slot.live.lock().await.moves.len();
            assert!(plies >= before[id], "game {id}: {plies} moves in the copy, {} acknowledged before it", before[id]);
        }
    }
    stop.store(true, Ordering::SeqCst);
    load.await.unwrap();
    let played: usize = acknowledged.lock().unwrap().values().sum();
    assert!(played > 0);
    server.abort();
}

/// A `menagerie serve` process on `port` over `db`.
fn serve(port: u16, db: &Path, log: &Path) -> std::process::Child {
    menagerie()
        .args(["serve", "--addr", &format!("127.0.0.1:{port}"), "--log-format", "json"])
        .arg("--db")
        .arg(db)
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(log).unwrap())
        .spawn()
        .unwrap()
}

async fn wait_ready(base: &str) {
    let client = reqwest::Client::new();
    for _ in 0..600 {
        if let Ok(response) = client.get(format!("{base}/readyz")).send().await {
            if response.status() == 200 {
                return;
            }
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the server at {base} never became ready");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_under_load_loses_no_acknowledged_move_and_every_socket_reconnects() {
    let folder = tempfile::tempdir().unwrap();
    let db = folder.path().join("menagerie.sqlite");
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let base = format!("http://127.0.0.1:{port}");
    let mut first = serve(port, &db, &folder.path().join("first.log"));
    wait_ready(&base).await;

    let games = start_games(&base, 8, "lma").await;
    // A watcher per game, each noting how its socket was closed.
    let mut watchers = Vec::new();
    for (id, secrets) in &games {
        let url = format!("ws://127.0.0.1:{port}/api/games/{id}/ws?seat={}", secrets[0]);
        let (mut socket, _) = tokio_tungstenite::connect_async(url).await.unwrap();
        watchers.push(tokio::spawn(async move {
            while let Some(message) = socket.next().await {
                if let Ok(tokio_tungstenite::tungstenite::Message::Close(frame)) = message {
                    return frame.map(|f| (u16::from(f.code), f.reason.as_str().to_owned()));
                }
                if message.is_err() {
                    return None;
                }
            }
            None
        }));
    }
    let acknowledged: Arc<Mutex<HashMap<String, usize>>> =
        Arc::new(Mutex::new(games.iter().map(|(id, _)| (id.clone(), 0)).collect()));
    let stop = Arc::new(AtomicBool::new(false));
    let load = tokio::spawn(play_until(base.clone(), games.clone(), Arc::clone(&acknowledged), Arc::clone(&stop)));
    tokio::time::sleep(Duration::from_millis(500)).await;

    // SAFETY: kill sends a signal to our own child; no memory is involved.
    assert_eq!(unsafe { libc::kill(first.id() as i32, libc::SIGTERM) }, 0);
    let status = tokio::task::spawn_blocking(move || first.wait().unwrap()).await.unwrap();
    assert_eq!(status.code(), Some(0), "the server exits 0 on SIGTERM");
    let log = std::fs::read_to_string(folder.path().join("first.log")).unwrap();
    assert!(log.contains("stopping") && log.contains("stopped"), "{log}");
    for watcher in watchers {
        let closed = watcher.await.unwrap();
        assert_eq!(closed, Some((1012, "the server is restarting".to_owned())), "every socket is told");
    }

    // systemd starts it again: the players' moves go on, nothing lost.
    let mut second = serve(port, &db, &folder.path().join("second.log"));
    wait_ready(&base).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    stop.store(true, Ordering::SeqCst);
    load.await.unwrap();
    let acknowledged = acknowledged.lock().unwrap().clone();
    for (id, secrets) in &games {
        let url = format!("ws://127.0.0.1:{port}/api/games/{id}/ws?seat={}", secrets[0]);
        let (mut socket, _) = tokio_tungstenite::connect_async(url).await.expect("the socket reconnects");
        let state: Value = serde_json::from_str(socket.next().await.unwrap().unwrap().to_text().unwrap()).unwrap();
        assert_eq!(
            state["ply"].as_u64().unwrap() as usize,
            acknowledged[id],
            "game {id}: every acknowledged move, once"
        );
    }
    assert!(acknowledged.values().sum::<usize>() > games.len(), "{acknowledged:?}");
    // SAFETY: as above.
    unsafe { libc::kill(second.id() as i32, libc::SIGTERM) };
    assert_eq!(second.wait().unwrap().code(), Some(0));
}
