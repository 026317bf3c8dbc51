//! Hidden information through the API: a tiny card game (each player is
//! dealt a secret card by chance, then first bets or folds, second calls or
//! folds; the higher card wins a called bet). A seat never receives the
//! other card, chance moves are listed without text until the end, and a
//! spectator sees no board while the game runs.

mod common;

use common::TestServer;
use menagerie_core::{
    Actor, Erased, Game, MoveError, Outcome, Player, PositionError, VariantError, VariantInfo, VariantSpec,
};
use menagerie_server::computer::RandomOnly;
use menagerie_server::source::GameSource;
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
            (None, Some(cards)) => json!({ "first": cards[0], "second": cards[1] }),
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
    for seed in 0..6u64 {
        let created = server
            .create(json!({ "variant": "highcard", "opponent": "friend", "colour": "first", "seed": seed }))
            .await;
        let id = created["id"].as_str().unwrap();
        let seats = [created["secrets"]["first"].as_str().unwrap(), created["secrets"]["second"].as_str().unwrap()];
        // The deal was played by chance; its text is hidden from everyone.
        let spectator = server.state(id, None).await;
        assert_eq!(spectator["ply"], 1);
        assert_eq!(spectator["moves"][0], json!({ "ply": 1, "text": null, "actor": "chance" }));
        assert_eq!(spectator["board"], Value::Null, "spectators see no board while it runs");
        assert_eq!(spectator["legal_moves"], Value::Null);
        let (status, moves) = server.get(&format!("/api/games/{id}/moves")).await;
        assert_eq!((status, moves["moves"].clone()), (200, json!([])));
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
        let (_, second_moves) = server.get(&format!("/api/games/{id}/moves?seat={}", seats[1])).await;
        assert_eq!(second_moves["moves"], json!([]), "{second_moves}");
        let (_, first_moves) = server.get(&format!("/api/games/{id}/moves?seat={}", seats[0])).await;
        assert_eq!(first_moves["moves"], json!(["bet", "fold"]));
        assert_eq!(server.play(id, seats[0], "bet").await.0, 200);
        let (status, end) = server.play(id, seats[1], "call").await;
        assert_eq!(status, 200, "{end}");
        // Once over, everything may be shown.
        let spectator = server.state(id, None).await;
        assert!(spectator["moves"][0]["text"].as_str().unwrap().starts_with("deal "), "{spectator}");
        assert!(spectator["board"]["first"].is_number());
    }
    server.stop().await;
}
