//! The views of every registered variant (one test each, named by it): the
//! common part has its keys and types for every game (docs/api.md), the
//! game's board part is a JSON object that reuses none of them, what a
//! viewer is shown of a game with hidden information is its view text, the
//! public view of such a game shows nothing a player could not see (it stays
//! the same whatever the hidden state), the terminal drawing is not empty,
//! and every legal move has a short label. Checked along random games.

use libtest_mimic::{Arguments, Failed, Trial};
use menagerie_core::view::{self, COMMON_KEYS};
use menagerie_core::{Actor, Evaluate, Game, GameVisitor, Player, Present, VariantSpec};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::Value;

struct Views;

impl GameVisitor for Views {
    type Output = Result<(), String>;

    fn visit<G: Game + Evaluate + Present>(self, variant: G::Variant) -> Result<(), String> {
        let mut moves = Vec::new();
        for seed in 1..=3 {
            let mut rng = StdRng::seed_from_u64(seed);
            let mut game = G::start(&variant, seed);
            let mut last: Option<(String, Actor)> = None;
            for ply in 0..120 {
                if ply % 7 == 0 || game.outcome().is_some() {
                    check_views(&game, last.clone(), &mut rng).map_err(|e| format!("{e}\nin {}", game.to_text()))?;
                }
                game.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                let mv = moves[rng.random_range(0..moves.len())];
                last = Some((game.move_text(mv), game.to_act()));
                game.play(mv);
            }
        }
        Ok(())
    }
}

fn check_views<G: Present>(game: &G, last: Option<(String, Actor)>, rng: &mut StdRng) -> Result<(), String> {
    let viewers =
        if G::has_hidden_information() { vec![None, Some(Player::First), Some(Player::Second)] } else { vec![None] };
    for viewer in viewers {
        let json = serde_json::to_value(view::view(game, viewer, last.clone())).map_err(|e| e.to_string())?;
        let object = json.as_object().ok_or("the view is not a JSON object")?;
        for key in COMMON_KEYS {
            if !object.contains_key(key) {
                return Err(format!("the view has no {key:?}"));
            }
        }
        let board = serde_json::to_value(game.board(viewer)).map_err(|e| e.to_string())?;
        let board = board.as_object().ok_or("the board part is not a JSON object")?;
        if let Some(key) = board.keys().find(|k| COMMON_KEYS.contains(&k.as_str())) {
            return Err(format!("the board part reuses the common key {key:?}"));
        }
        let over = game.outcome().is_some();
        let expected_actor = match game.to_act() {
            _ if over => Value::Null,
            Actor::Player(p) => Value::from(G::player_name(p)),
            Actor::Chance => Value::from("chance"),
        };
        if json["to_act"] != expected_actor {
            return Err(format!("to_act is {}, expected {expected_actor}", json["to_act"]));
        }
        if json["result"].is_null() == over {
            return Err(format!("result {} while over = {over}", json["result"]));
        }
        if json["check"] != game.in_check() {
            return Err(format!("check {} but in_check() = {}", json["check"], game.in_check()));
        }
        let text = match viewer {
            Some(p) => Some(game.view_text(p)),
            None if G::has_hidden_information() => None,
            None => Some(game.to_text()),
        };
        if json["text"] != serde_json::to_value(&text).map_err(|e| e.to_string())? {
            return Err(format!("text {} is not the viewer's text {text:?}", json["text"]));
        }
        if G::has_hidden_information() && viewer.is_none() {
            // Each player's sample of what they cannot see redraws the
            // other's hidden state; a public view that showed any of it
            // would change with it.
            for observer in Player::BOTH {
                let sampled = game.determinize(observer, rng);
                let public =
                    serde_json::to_value(view::view(&sampled, None, last.clone())).map_err(|e| e.to_string())?;
                if public != json {
                    return Err(format!(
                        "the public view shows hidden state: {json}\nbut after {observer:?}'s sample {public}"
                    ));
                }
            }
        }
        let counters = json["counters"].as_object().ok_or("counters is not an object")?;
        for key in ["turn", "halfmove_clock", "quiet_turns"] {
            if !(counters.get(key).is_some_and(|v| v.is_null() || v.is_u64())) {
                return Err(format!("counters.{key} is missing or not a number or null"));
            }
        }
        match (&last, &json["last_move"]) {
            (None, Value::Null) => {}
            (Some((text, actor)), shown) => {
                let hidden = view::move_text_hidden(*actor, G::has_hidden_information(), over);
                let expected_text = if hidden { Value::Null } else { Value::from(text.as_str()) };
                if shown["text"] != expected_text || shown["actor"] != view::actor_name::<G>(*actor) {
                    return Err(format!("last_move {shown} for {text:?} by {actor:?}"));
                }
            }
            (None, shown) => return Err(format!("last_move {shown} at the start")),
        }
        if game.render(viewer).trim().is_empty() {
            return Err("the terminal drawing is empty".into());
        }
    }
    check_labels(game)
}

/// The longest a move's short form may be: one line of a move list. A Lunch
/// Chess discard names each of its up to five cards (a count alone told the
/// other player nothing and the player too little), so a label may be a
/// little longer than a chess move's.
const LONGEST_LABEL: usize = 80;

/// Every legal move has a short form for move lists, and a position in
/// which a player acts belongs to somebody's turn.
fn check_labels<G: Present>(game: &G) -> Result<(), String> {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    for mv in moves {
        let label = game.move_label(mv);
        if label.trim().is_empty() || label.chars().count() > LONGEST_LABEL || label.contains('\n') {
            return Err(format!("the label {label:?} of {} is not a short line", game.move_text(mv)));
        }
    }
    match (game.to_act(), game.on_turn(), game.outcome()) {
        (Actor::Player(_), None, None) => Err("a player acts in nobody's turn".into()),
        _ => Ok(()),
    }
}

fn check(variant: &str) -> Result<(), Failed> {
    let spec = VariantSpec::parse(variant).map_err(|e| e.to_string())?;
    menagerie_games::visit(&spec, Views).map_err(|e| e.to_string())??;
    Ok(())
}

fn main() {
    let trials = menagerie_games::variants()
        .iter()
        .flat_map(|info| info.test_strings())
        .map(|variant| Trial::test(format!("views {variant}"), move || check(&variant)))
        .collect();
    libtest_mimic::run(&Arguments::from_args(), trials).exit();
}
