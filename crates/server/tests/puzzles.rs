//! Puzzles and lessons through the API (docs/api.md, "Learning"): the
//! shipped puzzles served at lichess's paths, replayable by the rules; the
//! next puzzle never one the account played; the first round of an account
//! on a puzzle rated, for both, and only the first; a batch all or none;
//! tokens need `puzzle:write`; Lunch Chess has none, and says why.

mod common;

use common::lichess::account_with_token;
use common::session::Browser;
use common::TestServer;
use serde_json::{json, Value};

/// The puzzle's solution plays by the rules from its position.
fn replays(puzzle: &Value) {
    let variant = puzzle["variant"].as_str().unwrap();
    let position = puzzle["position"].as_str();
    let mut game = menagerie_games::new_game(variant, position, 0, &menagerie_core::NoData).unwrap();
    for mv in puzzle["solution"].as_array().unwrap() {
        let mv = mv.as_str().unwrap();
        assert!(game.legal_moves().iter().any(|m| m == mv), "{mv} is legal in {puzzle}");
        game.play(mv).unwrap();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn puzzles_are_served_and_rated_by_the_first_round() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("g.sqlite")).await;
    let mut anonymous = Browser::new(&server);

    // Anyone gets a puzzle of the variant asked, whole, which plays by the rules.
    let (status, next) = anonymous.get("/api/puzzle/next?variant=lma").await;
    assert_eq!(status, 200, "{next}");
    let puzzle = &next["puzzle"];
    assert_eq!(puzzle["variant"], "lma");
    assert_eq!(puzzle["plays"], 0);
    assert!(puzzle["rating"].as_i64().unwrap() >= 1300, "{next}");
    assert!(!puzzle["themes"].as_array().unwrap().is_empty(), "{next}");
    replays(puzzle);
    let id = puzzle["id"].as_str().unwrap().to_owned();
    let (status, same) = anonymous.get(&format!("/api/puzzle/{id}")).await;
    assert_eq!((status, &same), (200, &next));
    for variant in ["fluid", "lichen", "kelasu"] {
        let (status, next) = anonymous.get(&format!("/api/puzzle/next?variant={variant}")).await;
        assert_eq!((status, next["puzzle"]["variant"].as_str()), (200, Some(variant)), "{next}");
        replays(&next["puzzle"]);
    }
    let (status, any) = anonymous.get("/api/puzzle/next").await;
    assert_eq!(status, 200, "{any}");

    // What has no puzzle says so.
    let (status, none) = anonymous.get("/api/puzzle/next?variant=lunch").await;
    assert_eq!(status, 404);
    assert!(none["error"].as_str().unwrap().contains("every hand"), "{none}");
    let (status, unknown) = anonymous.get("/api/puzzle/next?variant=chess").await;
    assert_eq!((status, unknown["error"].as_str()), (400, Some("unknown variant \"chess\"")));
    let (status, _) = anonymous.get("/api/puzzle/nosuch").await;
    assert_eq!(status, 404);

    // Rounds need an account.
    let solutions = json!({ "solutions": [{ "id": id, "win": true }] });
    let (status, _) = anonymous.post("/api/puzzle/batch/lma", solutions.clone()).await;
    assert_eq!(status, 401);

    // Ada solves it: her rating rises, the puzzle's falls and counts a play.
    let (mut ada, ada_api) = account_with_token(&server, "Ada", &["puzzle:write"]).await;
    let (status, played) = ada.post("/api/puzzle/batch/lma", solutions.clone()).await;
    assert_eq!(status, 200, "{played}");
    let round = &played["rounds"][0];
    assert_eq!(
        (round["id"].as_str(), round["win"].as_bool(), round["rated"].as_bool()),
        (Some(&*id), Some(true), Some(true))
    );
    let gained = round["ratingDiff"].as_i64().unwrap();
    assert!(gained > 0, "{played}");
    assert_eq!(played["glicko"]["rating"].as_i64().unwrap(), 1500 + gained, "{played}");
    assert_eq!(played["glicko"]["provisional"], true);
    let (_, after) = ada.get(&format!("/api/puzzle/{id}")).await;
    assert_eq!(after["puzzle"]["plays"], 1);
    assert!(after["puzzle"]["rating"].as_i64() < puzzle["rating"].as_i64(), "{after}");

    // Again: not rated, nothing moves; and never offered to her again.
    let (_, again) = ada.post("/api/puzzle/batch/lma", json!({ "solutions": [{ "id": id, "win": false }] })).await;
    assert_eq!(
        (again["rounds"][0]["rated"].as_bool(), again["rounds"][0]["ratingDiff"].as_i64()),
        (Some(false), Some(0))
    );
    assert_eq!(again["glicko"]["rating"], played["glicko"]["rating"]);
    for _ in 0..30 {
        let (_, next) = ada.get("/api/puzzle/next?variant=lma").await;
        assert_ne!(next["puzzle"]["id"].as_str(), Some(&*id), "a played puzzle is not offered again");
    }

    // By token with puzzle:write; a lost round lowers the rating.
    let (_, next) = ada_api.get("/api/puzzle/next?variant=lma").await;
    let other = next["puzzle"]["id"].as_str().unwrap().to_owned();
    let (status, lost) =
        ada_api.post_json("/api/puzzle/batch/lma", json!({ "solutions": [{ "id": other, "win": false }] })).await;
    assert_eq!(status, 200, "{lost}");
    assert!(lost["rounds"][0]["ratingDiff"].as_i64().unwrap() < 0, "{lost}");
    let (_, bob_api) = account_with_token(&server, "Bob", &["board:play"]).await;
    let (_, exported) = ada.get("/api/account/export").await;
    let rounds: Vec<(&str, bool)> = exported["puzzles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["id"].as_str().unwrap(), r["win"].as_bool().unwrap()))
        .collect();
    assert_eq!(rounds, [(&*other, false), (&*id, true)], "her data holds her rounds, newest first: {exported}");
    let (status, refused) = bob_api.post_json("/api/puzzle/batch/lma", solutions.clone()).await;
    assert_eq!((status, refused["error"].as_str()), (403, Some("Missing scope: puzzle:write")));

    // A batch is all or none: a puzzle of another variant refuses it whole.
    let (_, fluid) = ada.get("/api/puzzle/next?variant=fluid").await;
    let fluid_id = fluid["puzzle"]["id"].as_str().unwrap().to_owned();
    let (_, lichen) = ada.get("/api/puzzle/next?variant=lichen").await;
    let lichen_id = lichen["puzzle"]["id"].as_str().unwrap().to_owned();
    let mixed = json!({ "solutions": [{ "id": fluid_id, "win": true }, { "id": lichen_id, "win": true }] });
    let (status, error) = ada.post("/api/puzzle/batch/fluid", mixed).await;
    assert_eq!(status, 400, "{error}");
    assert!(error["error"].as_str().unwrap().starts_with("no Fluid Chess puzzle"), "{error}");
    let (_, untouched) = ada.get(&format!("/api/puzzle/{fluid_id}")).await;
    assert_eq!(untouched["puzzle"]["plays"], 0, "nothing of a refused batch is kept");
    let too_many = json!({ "solutions": vec![json!({ "id": fluid_id, "win": true }); 51] });
    let (status, _) = ada.post("/api/puzzle/batch/fluid", too_many).await;
    assert_eq!(status, 400);

    // A flood of batches from one account is refused, not another's.
    let mut refused = None;
    for sent in 0..200 {
        let (status, answer) = ada.post("/api/puzzle/batch/fluid", json!({ "solutions": [] })).await;
        if status == 429 {
            refused = Some((sent, answer));
            break;
        }
        assert_eq!(status, 200, "{answer}");
    }
    let (sent, answer) = refused.expect("a flood of batches is refused");
    assert!(sent < 120, "{sent} batches passed");
    assert_eq!(answer["error"], "You have sent too many puzzle rounds: wait a few minutes.");
    let (mut grace, _) = account_with_token(&server, "Grace", &[]).await;
    let (status, _) = grace.post("/api/puzzle/batch/fluid", json!({ "solutions": [] })).await;
    assert_eq!(status, 200);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_game_has_lessons() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("g.sqlite")).await;
    let (status, list) = Browser::new(&server).get("/api/learn").await;
    assert_eq!(status, 200, "{list}");
    let lessons = list["lessons"].as_array().unwrap();
    for game in ["lma", "fluid", "lichen", "kelasu", "lunch"] {
        let of_game: Vec<&Value> =
            lessons.iter().filter(|l| l["variant"].as_str().unwrap().split(':').next() == Some(game)).collect();
        assert!(of_game.len() >= 3, "{game}: {list}");
        assert!(of_game.iter().all(|l| l["steps"].as_u64().unwrap() >= 1 && l["title"].is_string()), "{list}");
    }
    server.stop().await;
}

/// A lesson step by step: each step's position and goal; a move that meets
/// the goal is done, a legal one that does not is wrong with the goal's
/// reason, an illegal one with the rules' reason; a signed-in player's
/// progress is kept in the account (and only grows), a browser's progress
/// taken into it; bad requests are refused clearly.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lessons_are_checked_step_by_step_and_progress_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("g.sqlite")).await;
    let mut anonymous = Browser::new(&server);
    let (_, list) = anonymous.get("/api/learn").await;
    let first = list["lessons"][0]["id"].as_str().unwrap().to_owned();
    let (status, lesson) = anonymous.get(&format!("/api/learn/{first}")).await;
    assert_eq!(status, 200, "{lesson}");
    let steps = lesson["lesson"]["steps"].as_array().unwrap().clone();
    assert_eq!(steps.len() as u64, list["lessons"][0]["steps"].as_u64().unwrap());
    assert_eq!(lesson["next"], list["lessons"][1]["id"], "the next lesson of the same game");

    // Every step of every lesson: its example is done, as the page sends it.
    for summary in list["lessons"].as_array().unwrap() {
        let id = summary["id"].as_str().unwrap();
        let (_, lesson) = anonymous.get(&format!("/api/learn/{id}")).await;
        let steps = lesson["lesson"]["steps"].as_array().unwrap();
        for (i, step) in steps.iter().enumerate() {
            assert!(step["goal"].is_string() && step["position"].is_string(), "{step}");
            let example = step["example"].as_str().unwrap();
            let (status, verdict) =
                anonymous.post(&format!("/api/learn/{id}/{}", i + 1), json!({ "move": example })).await;
            assert_eq!(status, 200, "{id} step {}: {verdict}", i + 1);
            assert_eq!(verdict["verdict"], "done", "{id} step {}: {verdict}", i + 1);
            assert_eq!(verdict["last"], i + 1 == steps.len());
        }
    }

    // A legal move that does not meet the goal, and an illegal one, say why.
    let position = steps[0]["position"].as_str().unwrap();
    let variant = lesson["lesson"]["variant"].as_str().unwrap();
    let game = menagerie_games::new_game(variant, Some(position).filter(|p| *p != "start"), 0, &menagerie_core::NoData)
        .unwrap();
    let example = steps[0]["example"].as_str().unwrap();
    let other = game.legal_moves().into_iter().find(|m| m != example).unwrap();
    let (status, verdict) = anonymous.post(&format!("/api/learn/{first}/1"), json!({ "move": other })).await;
    assert_eq!(status, 200);
    if verdict["verdict"] == "wrong" {
        assert!(verdict["why"].as_str().unwrap().len() > 10, "{verdict}");
    }
    let (status, verdict) = anonymous.post(&format!("/api/learn/{first}/1"), json!({ "move": "Zz9-Zz10" })).await;
    assert_eq!(status, 200);
    assert_eq!(verdict["verdict"], "wrong");
    assert!(verdict["why"].as_str().unwrap().starts_with("That is not a legal move here"), "{verdict}");

    // Refusals: no such lesson or step, a bad body, a move text too long.
    assert_eq!(anonymous.get("/api/learn/nosuch").await.0, 404);
    assert_eq!(anonymous.post("/api/learn/nosuch/1", json!({ "move": "a" })).await.0, 404);
    assert_eq!(anonymous.post(&format!("/api/learn/{first}/0"), json!({ "move": example })).await.0, 404);
    assert_eq!(anonymous.post(&format!("/api/learn/{first}/99"), json!({ "move": example })).await.0, 404);
    assert_eq!(anonymous.post(&format!("/api/learn/{first}/1"), json!({ "mv": example })).await.0, 400);
    let long = "a".repeat(300);
    assert_eq!(anonymous.post(&format!("/api/learn/{first}/1"), json!({ "move": long })).await.0, 400);

    // Without an account: nothing kept on the server, and nothing to take.
    let (status, none) = anonymous.get("/api/learn/progress").await;
    assert_eq!((status, none), (200, json!({ "progress": {} })));
    assert_eq!(anonymous.post("/api/learn/progress", json!({ "progress": { first.clone(): 1 } })).await.0, 401);

    // Signed in: steps done are kept, and a browser's progress taken in.
    let (mut ada, _) = account_with_token(&server, "Ada", &[]).await;
    let (_, verdict) = ada.post(&format!("/api/learn/{first}/1"), json!({ "move": example })).await;
    assert_eq!(verdict["verdict"], "done");
    let (_, kept) = ada.get("/api/learn/progress").await;
    assert_eq!(kept, json!({ "progress": { first.clone(): 1 } }));
    let second = list["lessons"][1]["id"].as_str().unwrap().to_owned();
    let (status, merged) = ada
        .post("/api/learn/progress", json!({ "progress": { first.clone(): 0, second.clone(): 999, "nosuch": 3 } }))
        .await;
    assert_eq!(status, 200, "{merged}");
    let second_steps = list["lessons"][1]["steps"].clone();
    assert_eq!(
        merged,
        json!({ "progress": { first.clone(): 1, second.clone(): second_steps } }),
        "counts held within the lesson"
    );
    let (status, _) = ada.post("/api/learn/progress", json!({ "progress": [1, 2] })).await;
    assert_eq!(status, 400);
    let (_, exported) = ada.get("/api/account/export").await;
    let mut lessons = vec![
        json!({ "id": first.clone(), "stepsDone": 1 }),
        json!({ "id": second.clone(), "stepsDone": second_steps }),
    ];
    lessons.sort_by_key(|l| l["id"].as_str().unwrap().to_owned());
    assert_eq!(exported["lessons"], json!(lessons), "the account's data includes its lessons, by id");
    server.stop().await;
}
