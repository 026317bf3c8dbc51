//! Hidden information through the API: a tiny card game (each player is
//! dealt a secret card by chance, then first bets or folds, second calls or
//! folds; the higher card wins a called bet). A seat never receives the
//! other card, chance moves are listed without text until the end, a
//! spectator sees the public board (no card), and in a friend game the
//! server deals: nobody chooses the seed or the position.

mod common;

use common::TestServer;
use menagerie_core::{
    Actor, Erased, Game, MoveError, Outcome, Player, PositionError, VariantError, VariantInfo, VariantSpec,
};
use menagerie_server::computer::RandomOnly;
use menagerie_server::source::GameSource;
use menagerie_server::sql_params;
use menagerie_server::store::{sql, Database};
use serde_json::{json, Value};
use std::sync::Arc;

#[derive(Clone, Debug)]
struct HighCard {
    cards: Option<[u8; 2]>,
    history: Vec<Step>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Step {
    Deal(u8, u8),
    Bet,
    Call,
    Fold,
}

const INFO: VariantInfo =
    VariantInfo { id: "highcard", name: "High card", summary: "a secret card each", options: &[] };

impl Game for HighCard {
    type Move = Step;
    type Variant = ();
    const VARIANTS: &'static [VariantInfo] = &[INFO];

    fn parse_variant(spec: &VariantSpec) -> Result<(), VariantError> {
        spec.check_options(&INFO)
    }
    fn start(_: &(), _: u64) -> Self {
        HighCard { cards: None, history: Vec::new() }
    }
    fn from_text(_: &(), text: &str) -> Result<Self, PositionError> {
        match text {
            "start" => Ok(Self::start(&(), 0)),
            _ => Err(PositionError::syntax("text", "only `start`")),
        }
    }
    fn to_text(&self) -> String {
        match self.cards {
            Some([a, b]) => format!("cards {a} {b} after {}", self.history.len()),
            None => "start".into(),
        }
    }
    fn variant(&self) -> &() {
        &()
    }
    fn to_act(&self) -> Actor {
        match self.history.len() {
            0 => Actor::Chance,
            1 => Actor::Player(Player::First),
            _ => Actor::Player(Player::Second),
        }
    }
    fn outcome(&self) -> Option<Outcome> {
        let [a, b] = self.cards?;
        match self.history.last()? {
            Step::Fold if self.history.len() == 2 => Some(Outcome::Win { winner: Player::Second, reason: "fold" }),
            Step::Fold => Some(Outcome::Win { winner: Player::First, reason: "fold" }),
            Step::Call if a > b => Some(Outcome::Win { winner: Player::First, reason: "higher card" }),
            Step::Call if a < b => Some(Outcome::Win { winner: Player::Second, reason: "higher card" }),
            Step::Call => Some(Outcome::Draw { reason: "equal cards" }),
            _ => None,
        }
    }
    fn legal_moves(&self, moves: &mut Vec<Step>) {
        moves.clear();
        if self.outcome().is_some() {
            return;
        }
        match self.history.len() {
            0 => moves.extend((0..10).flat_map(|a| (0..10).map(move |b| Step::Deal(a, b)))),
            1 => moves.extend([Step::Bet, Step::Fold]),
            _ => moves.extend([Step::Call, Step::Fold]),
        }
    }
    fn play(&mut self, mv: Step) {
        if let Step::Deal(a, b) = mv {
            self.cards = Some([a, b]);
        }
        self.history.push(mv);
    }
    fn undo(&mut self) {
        if let Some(Step::Deal(..)) = self.history.pop() {
            self.cards = None;
        }
    }
    fn hash(&self) -> u64 {
        self.history.len() as u64
    }
    fn move_text(&self, mv: Step) -> String {
        match mv {
            Step::Deal(a, b) => format!("deal {a} {b}"),
            Step::Bet => "bet".into(),
            Step::Call => "call".into(),
            Step::Fold => "fold".into(),
        }
    }
    fn parse_move(&self, text: &str) -> Result<Step, MoveError> {
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        moves.into_iter().find(|&m| self.move_text(m) == text).ok_or_else(|| MoveError::illegal(text, "not now"))
    }
    fn has_hidden_information() -> bool {
        true
    }
    fn view_text(&self, viewer: Player) -> String {
        match self.cards {
            Some(cards) => format!("my card {}", cards[viewer.index()]),
            None => "no cards yet".into(),
        }
    }
}

impl menagerie_core::Present for HighCard {
    type Board = Value;
    fn board(&self, viewer: Option<Player>) -> Value {
        match (viewer, self.cards) {
            (Some(p), Some(cards)) => json!({ "mine": cards[p.index()], "other": "hidden" }),
            (None, Some(_)) => json!({ "dealt": true }),
            (_, None) => json!({ "dealt": false }),
        }
    }
    fn render(&self, _: Option<Player>) -> String {
        self.to_text()
    }
}

impl menagerie_core::Evaluate for HighCard {}

struct HighCardSource;

impl GameSource for HighCardSource {
    fn variants(&self) -> Vec<&'static VariantInfo> {
        HighCard::VARIANTS.iter().collect()
    }
    fn new_game(
        &self,
        variant: &str,
        position: Option<&str>,
        seed: u64,
        _: &dyn menagerie_core::Resolver,
    ) -> Result<Box<dyn menagerie_core::DynGame>, String> {
        if variant != "highcard" {
            return Err(format!("unknown variant {variant:?}"));
        }
        let game = match position {
            Some(text) => HighCard::from_text(&(), text).map_err(|e| e.to_string())?,
            None => HighCard::start(&(), seed),
        };
        Ok(Box::new(Erased::new(game, "highcard")))
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seats_never_see_the_other_card() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("g.sqlite");
    let server = TestServer::start_full(&db, Arc::new(RandomOnly), Arc::new(HighCardSource)).await;
    for _ in 0..6 {
        let created = server.create(json!({ "variant": "highcard", "opponent": "friend", "colour": "first" })).await;
        let id = created["id"].as_str().unwrap();
        let seats = [created["secrets"]["first"].as_str().unwrap(), created["secrets"]["second"].as_str().unwrap()];
        // The deal was played by chance; its text is hidden from everyone.
        let spectator = server.state(id, None).await;
        assert_eq!(spectator["ply"], 1);
        assert_eq!(
            spectator["moves"][0],
            json!({ "ply": 1, "text": null, "actor": "chance", "label": null, "side": null })
        );
        let public = |board: &Value| (board["dealt"].clone(), board["mine"].clone(), board["text"].clone());
        assert_eq!(
            public(&spectator["board"]),
            (json!(true), Value::Null, Value::Null),
            "the public board: {spectator}"
        );
        assert_eq!(spectator["legal_moves"], Value::Null);
        let (status, moves) = server.get(&format!("/api/games/{id}/moves")).await;
        assert_eq!(status, 403, "{moves}");
        assert!(moves["error"].as_str().unwrap().contains("seat to act"), "{moves}");
        for (index, seat) in seats.iter().enumerate() {
            let state = server.state(id, Some(seat)).await;
            assert_eq!(state["board"]["other"], "hidden", "{state}");
            let text = state.to_string();
            assert!(!text.contains("deal "), "the deal leaked to seat {index}: {text}");
            // The past position at ply 1 is the seat's own view too.
            let (_, past) = server.get(&format!("/api/games/{id}/position/1?seat={seat}")).await;
            assert_eq!(past["board"]["other"], "hidden");
            assert_eq!(past["last_move"]["text"], Value::Null);
        }
        // Only the seat to act may list the moves.
        let (status, second_moves) = server.get(&format!("/api/games/{id}/moves?seat={}", seats[1])).await;
        assert_eq!(status, 403, "{second_moves}");
        let (_, first_moves) = server.get(&format!("/api/games/{id}/moves?seat={}", seats[0])).await;
        assert_eq!(first_moves["moves"], json!(["bet", "fold"]));
        assert_eq!(server.play(id, seats[0], "bet").await.0, 200);
        let (status, end) = server.play(id, seats[1], "call").await;
        assert_eq!(status, 200, "{end}");
        // Once over, the deal is shown in the move list; the board stays the public one.
        let spectator = server.state(id, None).await;
        assert!(spectator["moves"][0]["text"].as_str().unwrap().starts_with("deal "), "{spectator}");
        assert_eq!(public(&spectator["board"]), (json!(true), Value::Null, Value::Null), "{spectator}");
        let (status, moves) = server.get(&format!("/api/games/{id}/moves")).await;
        assert_eq!((status, moves["moves"].clone()), (200, json!([])), "nothing is hidden in no moves");
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_a_friend_game_the_server_deals() {
    let dir = tempfile::tempdir().unwrap();
    let server =
        TestServer::start_full(&dir.path().join("g.sqlite"), Arc::new(RandomOnly), Arc::new(HighCardSource)).await;
    for chosen in [json!({ "seed": 3 }), json!({ "position": "start" }), json!({ "seed": 0, "position": "start" })] {
        let mut request = json!({ "variant": "highcard", "opponent": "friend" });
        request.as_object_mut().unwrap().extend(chosen.as_object().unwrap().clone());
        let (status, answer) = server.post("/api/games", request.clone()).await;
        assert_eq!(status, 400, "{request}: {answer}");
        assert!(answer["error"].as_str().unwrap().contains("dealt by the server"), "{answer}");
    }
    // `startpos` chooses nothing; a local or computer game fools no one.
    server.create(json!({ "variant": "highcard", "opponent": "friend", "position": "startpos" })).await;
    server.create(json!({ "variant": "highcard", "opponent": "local", "seed": 3 })).await;
    server.create(json!({ "variant": "highcard", "opponent": "computer", "seed": 3, "position": "start" })).await;
    server.stop().await;
}

/// Every answer one page of the game gets: its state, a past position, the
/// legal moves where allowed, and the socket's first message.
async fn everything_sent(server: &TestServer, id: &str, seat: Option<&str>) -> Vec<Value> {
    let query = seat.map(|s| format!("?seat={s}")).unwrap_or_default();
    let mut sent = vec![server.state(id, seat).await];
    for path in [format!("/api/games/{id}/position/0{query}"), format!("/api/games/{id}/moves{query}")] {
        let (status, answer) = server.get(&path).await;
        assert!(status == 200 || status == 403, "{path}: {status} {answer}");
        sent.push(answer);
    }
    let url = format!("ws://{}/api/games/{id}/ws{query}", server.address());
    let (mut socket, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
    use futures_util::StreamExt;
    let message = socket.next().await.unwrap().unwrap();
    sent.push(serde_json::from_str(message.to_text().unwrap()).unwrap());
    sent
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_friend_lunch_game_never_shows_its_deal_to_anyone() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("g.sqlite");
    let server = TestServer::start(&db).await;
    let (status, answer) =
        server.post("/api/games", json!({ "variant": "lunch", "opponent": "friend", "seed": 3 })).await;
    assert_eq!(status, 400, "the creator of a friend game would know the other hand: {answer}");
    let created = server.create(json!({ "variant": "lunch", "opponent": "friend", "colour": "first" })).await;
    let id = created["id"].as_str().unwrap();
    let seats = [created["secrets"]["first"].as_str().unwrap(), created["secrets"]["second"].as_str().unwrap()];
    let store = Database::Sqlite(db.clone()).open().unwrap();
    let seed: i64 = sql::read(&*store, |sql| {
        sql.query_opt("SELECT seed FROM games WHERE id = $1", sql_params![id])?.expect("the game is stored").int(0)
    })
    .unwrap();
    for round in 0..3 {
        // The deal and the draws are chance's moves (`draw:<card>`): only the
        // store knows them, and no answer may name one before the end.
        let draws: Vec<String> = sql::read(&*store, |sql| {
            let rows =
                sql.query("SELECT text FROM moves WHERE game = $1 AND actor = 'chance' ORDER BY ply", sql_params![id])?;
            rows.iter().map(|row| row.text(0)).collect()
        })
        .unwrap();
        assert!(draws.len() >= 10 && draws.iter().all(|d| d.starts_with("draw:")), "{draws:?}");
        for (viewer, other) in [(None, None), (Some(seats[0]), Some("black")), (Some(seats[1]), Some("white"))] {
            for answer in everything_sent(&server, id, viewer).await {
                let text = answer.to_string();
                // (`draws Jab` is a draw's short form in the move list.)
                for secret in ["draw:", "draws ", &(seed as u64).to_string()] {
                    assert!(!text.contains(secret), "round {round}, {viewer:?}: {secret} leaked in {text}");
                }
                // The other hand (both, for a spectator) is a count.
                let hands = &answer["board"]["hands"];
                if !hands.is_null() {
                    for colour in other.map_or(vec!["white", "black"], |o| vec![o]) {
                        assert!(hands[colour].is_number(), "round {round}, {viewer:?}: {colour}'s hand shown: {hands}");
                    }
                }
                assert!(!text.contains("draw:"), "round {round}, {viewer:?}: a chance move's text in {text}");
            }
            let board = &server.state(id, viewer).await["board"];
            for (seat, colour) in [(0, "white"), (1, "black")] {
                let own = viewer == Some(seats[seat]);
                assert_eq!(board["hands"][colour].is_array(), own, "{viewer:?} sees {colour}'s hand: {board}");
            }
        }
        // A spectator sees the public board: pieces with hit points, hand
        // sizes, the piles as counts.
        let spectator = server.state(id, None).await;
        let board = &spectator["board"];
        assert_eq!(board["squares"].as_array().unwrap().len(), 32, "{board}");
        assert!(board["squares"][0]["hp"].is_number());
        assert!(board["hands"]["white"].is_number() && board["hands"]["black"].is_number(), "{board}");
        assert!(board["draw_pile"].is_number());
        assert!(board["discard"].is_array());
        // The side to act plays its first legal move; the local copy follows.
        let to_act = if spectator["to_act"] == "first" { 0 } else { 1 };
        let (_, moves) = server.get(&format!("/api/games/{id}/moves?seat={}", seats[to_act])).await;
        let text = moves["moves"][0].as_str().unwrap();
        assert_eq!(server.play(id, seats[to_act], text).await.0, 200);
    }
    server.stop().await;
}
