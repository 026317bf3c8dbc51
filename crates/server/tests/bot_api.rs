//! lichess's Bot and Board API for playing (docs/bots.md): the event
//! stream tells of challenges and games (open ones first, then as they
//! come), a game's stream gives `gameFull` then a `gameState` per change,
//! each seat seeing only what it may, and a token plays, resigns, aborts
//! and answers draws for the seat its account holds, through the bot API
//! for a bot and the board API for a person.

mod common;

use common::lichess::{account_with_token, Api, Lines};
use common::TestServer;
use serde_json::{json, Value};

/// A challenge from `from` to `to` (by username), accepted: the game's id.
async fn challenge_accepted(from: &Api, to: &Api, username: &str, variant: &str) -> String {
    let (status, challenge) =
        from.post_form(&format!("/api/challenge/{username}"), &[("variant", variant), ("color", "white")]).await;
    assert_eq!(status, 200, "{challenge}");
    let id = challenge["id"].as_str().unwrap();
    let (status, accepted) = to.post_form(&format!("/api/challenge/{id}/accept"), &[]).await;
    assert_eq!(status, 200, "{accepted}");
    accepted["id"].as_str().unwrap().to_owned()
}

/// Plays the first legal move for whichever side's turn the stream says,
/// until `plies` moves were made or the game ends; answers the last state.
async fn play_from_streams(game: &str, seats: [(&Api, &str, &mut Lines); 2], plies: usize) -> Value {
    let [(white, white_api, white_lines), (black, black_api, black_lines)] = seats;
    let mut state = white_lines.next_of("gameFull").await["state"].clone();
    black_lines.next_of("gameFull").await;
    for _ in 0..plies {
        if state["status"] != "started" {
            break;
        }
        let (api, kind, lines) = match state["toMove"].as_str() {
            Some("white") => (white, white_api, &mut *white_lines),
            Some("black") => (black, black_api, &mut *black_lines),
            other => panic!("nobody to move: {other:?} in {state}"),
        };
        let mv = state["legalMoves"][0].as_str().unwrap_or_else(|| panic!("no legal moves in {state}")).to_owned();
        let path = format!("/api/{kind}/game/{game}/move/{}", urlencode(&mv));
        let (status, answer) = api.post_form(&path, &[]).await;
        assert_eq!(status, 200, "{mv}: {answer}");
        // The mover's stream shows the move; the next mover's tells it its moves.
        loop {
            let next = lines.next_of("gameState").await;
            if next["moves"] != state["moves"] {
                state = next;
                break;
            }
        }
        if state["status"] == "started" && state["toMove"] != state_side(kind, white_api) {
            // The other stream needs its own view (its legal moves).
            let other = if std::ptr::eq(lines, &*white_lines) { &mut *black_lines } else { &mut *white_lines };
            loop {
                let next = other.next_of("gameState").await;
                if next["moves"] == state["moves"] {
                    state = next;
                    break;
                }
            }
        }
    }
    state
}

fn state_side(kind: &str, white_kind: &str) -> Value {
    json!(if kind == white_kind { "white" } else { "black" })
}

fn urlencode(text: &str) -> String {
    text.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_and_a_board_player_meet_through_their_streams_and_play() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("g.sqlite")).await;
    let (_, person) = account_with_token(&server, "Person", &["board:play", "challenge:write"]).await;
    let (_, robot) = account_with_token(&server, "Robot", &["bot:play"]).await;
    assert_eq!(robot.post_form("/api/bot/account/upgrade", &[]).await.0, 200);

    // The bot listens; a challenge comes; it accepts; both learn the game.
    let mut robot_events = Lines::new(robot.stream("/api/stream/event").await);
    let (status, challenge) = person.post_form("/api/challenge/robot", &[("variant", "lma"), ("color", "white")]).await;
    assert_eq!(status, 200, "{challenge}");
    let event = robot_events.next_of("challenge").await;
    assert_eq!(event["challenge"]["id"], challenge["id"]);
    assert_eq!(event["challenge"]["challenger"]["name"], "Person");
    let mut person_events = Lines::new(person.stream("/api/stream/event").await);
    let open = person_events.next_of("challenge").await;
    assert_eq!(open["challenge"]["direction"], "out", "open challenges come first");
    let id = challenge["id"].as_str().unwrap();
    assert_eq!(robot.post_form(&format!("/api/challenge/{id}/accept"), &[]).await.0, 200);
    let started = robot_events.next_of("gameStart").await;
    let game = started["game"]["gameId"].as_str().unwrap().to_owned();
    assert_eq!(started["game"]["color"], "black");
    assert_eq!(started["game"]["isMyTurn"], false);
    assert_eq!(started["game"]["opponent"]["username"], "Person");
    assert_eq!(started["game"]["variant"]["key"], "lma");
    let started = person_events.next_of("gameStart").await;
    assert_eq!(started["game"]["gameId"], game.as_str());
    assert_eq!(started["game"]["isMyTurn"], true);

    // Each streams the game through its API.
    let (status, refused) = robot.post_form(&format!("/api/board/game/{game}/resign"), &[]).await;
    assert_eq!(status, 403, "{refused}");
    let mut person_game = Lines::new(person.stream(&format!("/api/board/game/stream/{game}")).await);
    let mut robot_game = Lines::new(robot.stream(&format!("/api/bot/game/stream/{game}")).await);
    let full = {
        let mut peek = Lines::new(person.stream(&format!("/api/board/game/stream/{game}")).await);
        peek.next_of("gameFull").await
    };
    assert_eq!(full["id"], game.as_str());
    assert_eq!(full["white"]["name"], "Person");
    assert_eq!(full["black"]["title"], "BOT");
    assert_eq!(full["initialFen"], "startpos");
    assert_eq!(full["state"]["moves"], "");
    assert_eq!(full["state"]["toMove"], "white");
    let (status, early) = robot.post_form(&format!("/api/bot/game/{game}/move/2a2a3"), &[]).await;
    assert_eq!(status, 409, "not the bot's turn: {early}");

    let state =
        play_from_streams(&game, [(&person, "board", &mut person_game), (&robot, "bot", &mut robot_game)], 12).await;
    assert_eq!(state["moves"].as_str().unwrap().split(' ').count(), 12, "{state}");
    let (status, late) = person.post_form(&format!("/api/board/game/{game}/abort"), &[]).await;
    assert_eq!(status, 400, "both have moved: {late}");

    // A draw offered and declined, then the person resigns: both streams end on it.
    assert_eq!(person.post_form(&format!("/api/board/game/{game}/draw/yes"), &[]).await.0, 200);
    let offered = robot_game.next_of("gameState").await;
    assert_eq!(offered["wdraw"], true);
    assert_eq!(robot.post_form(&format!("/api/bot/game/{game}/draw/no"), &[]).await.0, 200);
    assert_eq!(robot_game.next_of("gameState").await["wdraw"], false);
    assert_eq!(person.post_form(&format!("/api/board/game/{game}/resign"), &[]).await.0, 200);
    loop {
        let state = robot_game.next_of("gameState").await;
        if state["status"] != "started" {
            assert_eq!(state["status"], "resign");
            assert_eq!(state["winner"], "black");
            break;
        }
    }
    assert!(robot_game.next().await.is_none(), "the stream ends with the game");
    let finished = robot_events.next_of("gameFinish").await;
    assert_eq!(finished["game"]["gameId"], game.as_str());
    assert_eq!(finished["game"]["winner"], "black");

    // Abort before both have moved.
    let game = challenge_accepted(&person, &robot, "robot", "lma").await;
    let mut robot_game = Lines::new(robot.stream(&format!("/api/bot/game/stream/{game}")).await);
    robot_game.next_of("gameFull").await;
    assert_eq!(robot.post_form(&format!("/api/bot/game/{game}/abort"), &[]).await.0, 200);
    assert_eq!(robot_game.next_of("gameState").await["status"], "aborted");

    // Someone else's game is none of the token's business.
    let (_, stranger) = account_with_token(&server, "Stranger", &["board:play"]).await;
    let (status, _) = stranger.post_form(&format!("/api/board/game/{game}/resign"), &[]).await;
    assert_eq!(status, 404);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lunch_chess_stream_shows_each_seat_only_its_own_cards() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("g.sqlite")).await;
    let (_, ann) = account_with_token(&server, "Ann", &["board:play", "challenge:write"]).await;
    let (_, ben) = account_with_token(&server, "Ben", &["board:play"]).await;
    let game = challenge_accepted(&ann, &ben, "ben", "lunch").await;
    let mut ann_game = Lines::new(ann.stream(&format!("/api/board/game/stream/{game}")).await);
    let mut ben_game = Lines::new(ben.stream(&format!("/api/board/game/stream/{game}")).await);
    let ann_full = ann_game.next_of("gameFull").await;
    let ben_full = ben_game.next_of("gameFull").await;
    let (ann_state, ben_state) = (&ann_full["state"], &ben_full["state"]);
    // The deal is chance's: hidden from both until the end.
    assert!(!ann_state["moves"].as_str().unwrap().is_empty());
    assert!(ann_state["moves"].as_str().unwrap().split(' ').all(|m| m == "?"), "{ann_state}");
    assert_eq!(ann_state["moves"], ben_state["moves"]);
    // Each sees its own hand, never the other's: the views differ, and
    // neither equals the whole position.
    assert_ne!(ann_state["fen"], ben_state["fen"]);
    for fen in [&ann_state["fen"], &ben_state["fen"]] {
        // The other hand and the pile are counts (`#5 #92`), never cards.
        let fields: Vec<&str> = fen.as_str().unwrap().split(' ').collect();
        assert_eq!(fields.iter().filter(|f| f.starts_with('#')).count(), 2, "{fen}");
    }
    let (_, whole) = ann.get(&format!("/api/games/{game}")).await;
    assert!(!whole.to_string().contains("draw:"), "{whole}");
    let ann_moves = ann_state["legalMoves"].clone();
    let ben_moves = ben_state["legalMoves"].clone();
    assert!(ann_moves.is_array() != ben_moves.is_array() || ann_state["toMove"].is_null(), "{ann_state} {ben_state}");
}

/// A challenge made and declined before the challenger's stream looks (a
/// quick bot declines within a millisecond) is still told, `challenge`
/// then `challengeDeclined`: the stream reports what happened since it
/// opened, not only what it saw open. CI once waited a minute for a
/// decline that came between two looks.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_declined_at_once_is_still_told_to_the_challenger() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("g.sqlite")).await;
    let (_, person) = account_with_token(&server, "Person", &["challenge:write"]).await;
    let (_, robot) = account_with_token(&server, "Robot", &["bot:play"]).await;
    assert_eq!(robot.post_form("/api/bot/account/upgrade", &[]).await.0, 200);
    let mut events = Lines::new(person.stream("/api/stream/event").await);
    let mut declined = Vec::new();
    for _ in 0..20 {
        let (status, challenge) = person.post_form("/api/challenge/robot", &[("variant", "lunch")]).await;
        assert_eq!(status, 200, "{challenge}");
        let id = challenge["id"].as_str().unwrap().to_owned();
        let (status, answer) = robot.post_form(&format!("/api/challenge/{id}/decline"), &[("reason", "variant")]).await;
        assert_eq!(status, 200, "{answer}");
        declined.push(id);
    }
    for id in &declined {
        let told = events.next_of("challenge").await;
        assert_eq!(told["challenge"]["id"], id.as_str(), "in the order they were made");
        let answered = events.next_of("challengeDeclined").await;
        assert_eq!(answered["challenge"]["id"], id.as_str());
        assert_eq!(answered["challenge"]["declineReasonKey"], "variant", "{answered}");
    }
}
