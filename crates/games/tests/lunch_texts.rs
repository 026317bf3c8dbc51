//! Position texts in the middle of battles and holds: random play from them
//! keeps every property, and mutated texts never make the parser or the
//! rules panic.

use menagerie_core::testing::{self, Soak};
use menagerie_core::{Game, Present, VariantSpec};
use menagerie_games::lunch::Lunch;

const MIDDLE: [&str; 4] = [
    // Black may Humiliate White's Kick (the Rook stepped from a1 to a4).
    "4k3/8/8/q7/R{e}7/8/8/4K3 w - jab,humiliation dodge,block,firstaid,humiliation - kick - - w.a4.a5.a1.kick.-.0.0 turn.endround/battle.after/strike.open.w.kick.a4.a5.4.afterwindow.0.0.-.-.0.-.0.0.0/window.w.0.- 0,0,0 0123456789abcdef - black",
    // A Choke: Black to move.
    "4k3/8/8/r7/R7/8/8/4K3 b - jab,kick freedom,stomp,humiliation,headbutt,slap dodge,block - - choke.a4.a5 - turn.action 0,0,0 0123456789abcdef - black",
    // A Headlock at the start of the holder's turn.
    "4k3/8/8/r7/R7/8/8/4K3 w - jab,uppercut,stomp,humiliation freedom,dodge,humiliation dodge,block,slap,jab,elbow,kick - - headlock.a4.a5 - turn.start 0,0,0 0123456789abcdef - white",
    // Spinning attacks in a crowd.
    "4k3/8/8/2ppp3/8/8/8/3RK3 w - roundhouse,backfist,jab,firstaid dodge,dodge,block,firstaid dodge,block,slap,jab,elbow,kick - - - - turn.action 0,0,0 0123456789abcdef - white",
];

#[test]
fn middle_positions_keep_the_properties() {
    for spec in ["lunch", "lunch:princess,humiliate-kings,humiliation-interventions,personal-first-aid-humiliation"] {
        let variant = Lunch::parse_variant(&VariantSpec::parse(spec).unwrap()).unwrap();
        testing::random_play_from::<Lunch>(&variant, &MIDDLE, Soak { games: 12, ..Soak::default() }.scaled_by_env());
    }
}

#[test]
fn mutated_texts_never_panic() {
    let variant = Lunch::parse_variant(&VariantSpec::parse("lunch").unwrap()).unwrap();
    testing::mutated_texts::<Lunch>(&variant, &MIDDLE, 3000, 5);
}

#[test]
fn position_errors_say_where() {
    let variant = Lunch::parse_variant(&VariantSpec::parse("lunch").unwrap()).unwrap();
    let bad_card = MIDDLE[1].replace("freedom,stomp", "freedom,stamp");
    let err = Lunch::from_text(&variant, &bad_card).unwrap_err().to_string();
    assert!(err.contains("field 5 (black hand)") && err.contains("\"stamp\""), "{err}");
    let bad_rank = MIDDLE[1].replace("4k3/", "4k4/");
    let err = Lunch::from_text(&variant, &bad_rank).unwrap_err().to_string();
    assert!(err.contains("rank 8"), "{err}");
    let wrong_actor = MIDDLE[1].replace(" black", " white");
    let err = Lunch::from_text(&variant, &wrong_actor).unwrap_err().to_string();
    assert!(err.contains("field 15"), "{err}");
    let game = Lunch::from_text(&variant, MIDDLE[1]).unwrap();
    let err = game.parse_move("break:a5:frееdom").unwrap_err().to_string();
    assert!(err.contains("unknown card"), "{err}");
    let err = game.parse_move("a5a6").unwrap_err().to_string();
    assert!(err.contains("illegal"), "{err}");
}

#[test]
fn the_readme_examples_parse_and_round_trip() {
    let readme = include_str!("../src/lunch/README.md");
    let variant = Lunch::parse_variant(&VariantSpec::parse("lunch").unwrap()).unwrap();
    let mut checked = 0;
    for block in readme.split("```").skip(1).step_by(2) {
        // A `toml` block is a deck file example: it must load.
        if let Some(deck) = block.strip_prefix("toml\n") {
            menagerie_games::lunch::deck::Deck::parse(deck, "README.md").unwrap_or_else(|e| panic!("{e}"));
            continue;
        }
        let text = block.trim();
        if text.contains("...") {
            continue;
        }
        let game = Lunch::from_text(&variant, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(game.to_text(), text);
        checked += 1;
    }
    assert!(checked >= 2);
}

#[test]
fn the_json_view_hides_the_other_hand() {
    let variant = Lunch::parse_variant(&VariantSpec::parse("lunch").unwrap()).unwrap();
    let game = Lunch::start(&variant, 3);
    let json = game.view_json(Some(menagerie_core::Player::First));
    assert!(json["hands"]["white"].is_array());
    assert_eq!(json["hands"]["black"], 5);
    assert_eq!(json["draw_pile"], 92);
    assert_eq!(json["squares"].as_array().unwrap().len(), 32);
    assert_eq!(json["squares"][0]["square"], "a1");
    assert_eq!(json["to_act"], "white");
}

#[test]
fn the_json_view_lists_the_deck_so_cards_can_be_explained() {
    let variant = Lunch::parse_variant(&VariantSpec::parse("lunch").unwrap()).unwrap();
    let game = Lunch::start(&variant, 3);
    let json = game.view_json(Some(menagerie_core::Player::First));
    let deck = json["deck"].as_array().unwrap();
    assert_eq!(deck.len(), 24, "the standard deck has 24 card types");
    let card = |code: &str| deck.iter().find(|c| c["code"] == code).unwrap_or_else(|| panic!("no {code} in {deck:?}"));
    assert_eq!(card("kick")["name"], "Kick");
    assert_eq!(card("kick")["kind"], "attack");
    assert_eq!(card("kick")["damage"], 4);
    assert_eq!(card("kick")["heal"], serde_json::Value::Null);
    assert_eq!(card("firstaid")["kind"], "first_aid");
    assert_eq!(card("firstaid")["heal"], 2);
    assert_eq!(card("firstaid")["damage"], serde_json::Value::Null);
    assert_eq!(card("roundhouse")["spinning"], true);
    assert_eq!(card("headbutt")["breaks_choke"], true);
    assert_eq!(card("dodge")["damage"], serde_json::Value::Null);
    // Every code the view shows (the hand) is explained by the deck.
    for code in json["hands"]["white"].as_array().unwrap() {
        card(code.as_str().unwrap());
    }
}

#[test]
fn a_princess_needs_the_princess_option() {
    let text = "4k3/8/8/8/8/8/8/I3K3 w - - - - - - - - turn.action 0,0,0 0123456789abcdef - white";
    let plain = Lunch::parse_variant(&VariantSpec::parse("lunch").unwrap()).unwrap();
    let err = match Lunch::from_text(&plain, text) {
        Ok(_) => panic!("a Princess was read without the princess option"),
        Err(e) => e.to_string(),
    };
    assert!(err.contains("field 1 (board), rank 1") && err.contains("princess"), "{err}");
    let princess = Lunch::parse_variant(&VariantSpec::parse("lunch:princess").unwrap()).unwrap();
    assert!(Lunch::from_text(&princess, text).is_ok());
}
