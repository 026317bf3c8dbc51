//! Decks on the server: a variant string from the web never names a file;
//! the server offers the standard deck and the decks of `--decks DIR` by
//! name, and a game keeps its deck in the store, so it outlives the file.

mod common;

use common::TestServer;
use menagerie_core::shown;
use menagerie_server::catalog::Catalog;
use serde_json::{json, Value};
use std::path::Path;
use std::time::Duration;

/// Twelve Jabs: every card in play is a Jab.
const SMALL: &str =
    "[[card]]\nname = \"Jab\"\ncode = \"jab\"\nkind = \"attack\"\ncount = 12\ndamage = 1\nnumbers = \"confirmed\"\n";

fn decks_folder(root: &Path) -> std::path::PathBuf {
    let dir = root.join("decks");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("small.toml"), SMALL).unwrap();
    dir
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deck_is_chosen_by_name_and_never_by_path() {
    let root = tempfile::tempdir().unwrap();
    let decks = decks_folder(root.path());
    // A valid deck at a path the server could open: a path is refused all the same.
    let elsewhere = root.path().join("elsewhere.toml");
    std::fs::write(&elsewhere, SMALL).unwrap();
    let server =
        TestServer::start_with_catalog(&root.path().join("g.sqlite"), Catalog::with_decks(&decks).unwrap()).await;

    let (status, variants) = server.get("/api/variants").await;
    assert_eq!(status, 200);
    let lunch = variants["variants"].as_array().unwrap().iter().find(|v| v["id"] == "lunch").unwrap().clone();
    let deck = lunch["options"].as_array().unwrap().iter().find(|o| o["name"] == "deck").unwrap().clone();
    assert_eq!(deck["choices"], json!(["standard", "small"]), "{deck}");

    let cargo_toml = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../Cargo.toml");
    let probes = [
        "/etc/passwd".to_owned(),
        "/nonexistent".to_owned(),
        "Cargo.toml".to_owned(),
        cargo_toml.display().to_string(),
        "/dev/stdin".to_owned(),
        "/dev/zero".to_owned(),
        elsewhere.display().to_string(),
        decks.join("small.toml").display().to_string(),
        "../decks/small".to_owned(),
    ];
    for probe in &probes {
        let request = json!({ "variant": format!("lunch:deck={probe}"), "opponent": "local" });
        // /dev/stdin would block a server that opened it: time the answer out.
        let (status, answer) = tokio::time::timeout(Duration::from_secs(20), server.post("/api/games", request))
            .await
            .unwrap_or_else(|_| panic!("deck={probe}: no answer"));
        assert_eq!(status, 400, "deck={probe}: {answer}");
        // The same sentence for every name: nothing about files, their
        // existence or their contents.
        let expected =
            format!("variant \"lunch\": option \"deck\" unknown deck {}; offered decks: standard, small", shown(probe));
        assert_eq!(answer["error"], expected);
    }

    for (variant, card) in [("lunch:deck=small", "jab"), ("lunch:deck=standard", ""), ("lunch", "")] {
        let created = server.create(json!({ "variant": variant, "opponent": "local", "colour": "first" })).await;
        let id = created["id"].as_str().unwrap();
        let state = server.state(id, created["secrets"]["first"].as_str()).await;
        assert_eq!(state["variant"], variant);
        let hand: Vec<&str> =
            state["board"]["hands"]["white"].as_array().unwrap().iter().map(|c| c.as_str().unwrap()).collect();
        assert_eq!(hand.len(), 5, "{state}");
        if !card.is_empty() {
            assert!(hand.iter().all(|c| *c == card), "{hand:?}");
        }
    }
    server.stop().await;
}

async fn play_a_legal_move(server: &TestServer, id: &str, secrets: &Value) -> Value {
    let state = server.state(id, None).await;
    let side = state["to_act"].as_str().unwrap().to_owned();
    let seat = secrets[&side].as_str().unwrap();
    let (status, moves) = server.get(&format!("/api/games/{id}/moves?seat={seat}")).await;
    assert_eq!(status, 200, "{moves}");
    let text = moves["moves"][0].as_str().unwrap().to_owned();
    let (status, after) = server.play(id, seat, &text).await;
    assert_eq!(status, 200, "{text}: {after}");
    after
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_keeps_its_deck_when_the_file_changes_or_goes() {
    let root = tempfile::tempdir().unwrap();
    let db = root.path().join("g.sqlite");
    let decks = decks_folder(root.path());
    let server = TestServer::start_with_catalog(&db, Catalog::with_decks(&decks).unwrap()).await;
    let created = server.create(json!({ "variant": "lunch:deck=small", "opponent": "local", "colour": "first" })).await;
    let id = created["id"].as_str().unwrap().to_owned();
    play_a_legal_move(&server, &id, &created["secrets"]).await;
    let mut before = server.state(&id, created["secrets"]["first"].as_str()).await;
    server.stop().await;

    // The operator edits the file, restarts, then deletes it and restarts again.
    std::fs::write(decks.join("small.toml"), SMALL.replace("jab", "poke").replace("Jab", "Poke")).unwrap();
    for catalog in [Catalog::with_decks(&decks).unwrap(), Catalog::builtin()] {
        std::fs::remove_file(decks.join("small.toml")).ok();
        let server = TestServer::start_with_catalog(&db, catalog).await;
        let after = server.state(&id, created["secrets"]["first"].as_str()).await;
        assert_eq!(after["board"], before["board"], "the game reloads as it was");
        let played = play_a_legal_move(&server, &id, &created["secrets"]).await;
        assert!(!played["board"]["hands"].to_string().contains("poke"), "{played}");
        before = server.state(&id, created["secrets"]["first"].as_str()).await;
        server.stop().await;
    }

    // It plays on, and a rematch deals from the same deck though no file offers it.
    let server = TestServer::start_with_catalog(&db, Catalog::builtin()).await;
    let first = created["secrets"]["first"].as_str().unwrap();
    let (status, _) = server.post(&format!("/api/games/{id}/resign"), json!({ "seat": first })).await;
    assert_eq!(status, 200);
    let (status, rematch) = server.post(&format!("/api/games/{id}/rematch"), json!({ "seat": first })).await;
    assert_eq!(status, 200, "{rematch}");
    let next = rematch["id"].as_str().unwrap();
    let state = server.state(next, rematch["secrets"]["second"].as_str()).await;
    assert_eq!(state["variant"], "lunch:deck=small");
    assert!(state["board"]["hands"]["black"].as_array().unwrap().iter().all(|c| c == "jab"), "{state}");
    // A new game cannot ask for the deck any more.
    let (status, answer) = server.post("/api/games", json!({ "variant": "lunch:deck=small" })).await;
    assert_eq!(status, 400, "{answer}");
    server.stop().await;
}
