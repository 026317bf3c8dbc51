//! The server lets chance act with the game's probabilities: a coin that
//! always lands heads (`coin:heads=100`) never shows tails, which a fair
//! toss would show in every other game.

mod common;

use common::TestServer;
use menagerie_core::testing::coin::Coin;
use menagerie_core::{Erased, Game, VariantInfo, VariantSpec};
use menagerie_server::computer::RandomOnly;
use menagerie_server::source::GameSource;
use menagerie_server::sql_params;
use menagerie_server::store::{sql, Database};
use serde_json::json;
use std::sync::Arc;

struct CoinSource;

impl GameSource for CoinSource {
    fn variants(&self) -> Vec<&'static VariantInfo> {
        Coin::VARIANTS.iter().collect()
    }
    fn new_game(
        &self,
        variant: &str,
        position: Option<&str>,
        seed: u64,
        _resolver: &dyn menagerie_core::Resolver,
    ) -> Result<Box<dyn menagerie_core::DynGame>, String> {
        let spec = VariantSpec::parse(variant).map_err(|e| e.to_string())?;
        let parsed = Coin::parse_variant(&spec).map_err(|e| e.to_string())?;
        let game = match position {
            Some(text) => Coin::from_text(&parsed, text).map_err(|e| e.to_string())?,
            None => Coin::start(&parsed, seed),
        };
        Ok(Box::new(Erased::new(game, variant)))
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chance_acts_with_the_games_probabilities() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start_full(&dir.path().join("g.sqlite"), Arc::new(RandomOnly), Arc::new(CoinSource)).await;
    for call in ["heads", "tails", "tails", "heads", "tails", "tails", "tails", "heads", "tails", "tails"] {
        let created =
            server.create(json!({ "variant": "coin:heads=100", "opponent": "local", "colour": "first" })).await;
        let id = created["id"].as_str().unwrap();
        let first = created["secrets"]["first"].as_str().unwrap();
        let (status, _) = server.play(id, first, call).await;
        assert_eq!(status, 200);
        let state = server.state(id, None).await;
        assert_eq!(
            state["moves"][1],
            json!({ "ply": 2, "text": "heads", "actor": "chance", "label": "heads", "side": null }),
            "{state}"
        );
    }
    server.stop().await;
}

/// A server stopped between a move and its chance moves (here: the deal's
/// last card never stored) deals them when it starts again, and the game
/// goes on: the player moves, the computer answers.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chance_owed_when_the_server_stopped_is_played_when_it_starts_again() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("g.sqlite");
    let server = TestServer::start(&db).await;
    let created = server
        .create(json!({ "variant": "lunch", "opponent": "computer", "level": "random", "colour": "first" }))
        .await;
    let id = created["id"].as_str().unwrap().to_owned();
    let seat = created["secrets"]["first"].as_str().unwrap().to_owned();
    let dealt = server.state(&id, Some(&seat)).await;
    let plies = dealt["moves"].as_array().unwrap().len();
    assert_eq!(dealt["moves"][plies - 1]["actor"], "chance", "{dealt}");
    server.stop().await;
    let store = Database::Sqlite(db.clone()).open().unwrap();
    sql::transact(&*store, |sql| {
        sql.execute(
            "DELETE FROM moves WHERE game = $1 AND ply = (SELECT max(ply) FROM moves WHERE game = $1)",
            sql_params![&id],
        )?;
        sql.execute("UPDATE games SET plies = plies - 1 WHERE id = $1", sql_params![&id])
    })
    .unwrap();
    drop(store);

    let server = TestServer::start(&db).await;
    let state = server.state(&id, Some(&seat)).await;
    assert_eq!(state["to_act"], "first", "the card owed was dealt: {state}");
    assert_eq!(state["moves"].as_array().unwrap().len(), plies);
    let (status, moves) = server.get(&format!("/api/games/{id}/moves?seat={seat}")).await;
    assert_eq!(status, 200, "{moves}");
    let (status, answer) = server.play(&id, &seat, moves["moves"][0].as_str().unwrap()).await;
    assert_eq!(status, 200, "{answer}");
    common::wait_for(&server, &id, Some(&seat), |s| {
        s["moves"].as_array().unwrap().iter().skip(plies).any(|m| m["actor"] == "second")
    })
    .await;
    server.stop().await;
}
