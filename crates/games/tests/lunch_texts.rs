//! Position texts in the middle of battles and holds: random play from them
//! keeps every property, and mutated texts never make the parser or the
//! rules panic. The start before the deal, chance's moves, piles as counts,
//! and texts of the first version (with the draw pile's order).

use menagerie_core::testing::{self, Soak};
use menagerie_core::{sample_chance, Actor, Game, Player, Present, VariantSpec};
use menagerie_games::lunch::{Lunch, LunchVariant};
use rand::rngs::StdRng;
use rand::SeedableRng;

fn variant(spec: &str) -> LunchVariant {
    Lunch::parse_variant(&VariantSpec::parse(spec).unwrap()).unwrap()
}

/// The start after the deal, chance drawing from `seed`.
fn dealt(seed: u64) -> Lunch {
    let mut game = Lunch::start(&variant("lunch"), 0);
    let mut rng = StdRng::seed_from_u64(seed);
    while let Some(mv) = sample_chance(&game, &mut rng) {
        game.play(mv);
    }
    game
}

const MIDDLE: [&str; 4] = [
    // Black may Humiliate White's Kick (the Rook stepped from a1 to a4).
    "4k3/8/8/q7/R{e}7/8/8/4K3 w - jab,humiliation dodge,block,firstaid,humiliation - kick - - w.a4.a5.a1.kick.-.0.0 turn.endround/battle.after/strike.open.w.kick.a4.a5.4.afterwindow.0.0.-.-.0.-.0.0.0/window.w.0.- 0,0,0 - black",
    // A Choke: Black to move.
    "4k3/8/8/r7/R7/8/8/4K3 b - jab,kick slap,headbutt,stomp,freedom,humiliation dodge,block - - choke.a4.a5 - turn.action 0,0,0 - black",
    // A Headlock at the start of the holder's turn.
    "4k3/8/8/r7/R7/8/8/4K3 w - jab,uppercut,stomp,humiliation dodge,freedom,humiliation jab,slap,elbow,kick,dodge,block - - headlock.a4.a5 - turn.start 0,0,0 - white",
    // Spinning attacks in a crowd.
    "4k3/8/8/2ppp3/8/8/8/3RK3 w - jab,roundhouse,backfist,firstaid dodge*2,block,firstaid jab,slap,elbow,kick,dodge,block - - - - turn.action 0,0,0 - white",
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
    let bad_card = MIDDLE[1].replace("stomp,freedom", "stamp,freedom");
    let err = Lunch::from_text(&variant, &bad_card).unwrap_err().to_string();
    assert!(err.contains("field 5 (black hand)") && err.contains("\"stamp\""), "{err}");
    let bad_rank = MIDDLE[1].replace("4k3/", "4k4/");
    let err = Lunch::from_text(&variant, &bad_rank).unwrap_err().to_string();
    assert!(err.contains("rank 8"), "{err}");
    let wrong_actor = MIDDLE[1].replace(" black", " white");
    let err = Lunch::from_text(&variant, &wrong_actor).unwrap_err().to_string();
    assert!(err.contains("field 14 (to act)"), "{err}");
    let game = Lunch::from_text(&variant, MIDDLE[1]).unwrap();
    let err = game.parse_move("break:a5:frееdom").unwrap_err().to_string();
    assert!(err.contains("unknown card"), "{err}");
    let err = game.parse_move("a5a6").unwrap_err().to_string();
    assert!(err.contains("illegal"), "{err}");
}

#[test]
fn the_readme_examples_parse_and_round_trip() {
    let readme = include_str!("../src/lunch/README.md");
    let variant = variant("lunch");
    let mut checked = 0;
    let mut last: Option<Lunch> = None;
    for block in readme.split("```").skip(1).step_by(2) {
        // A `toml` block is a deck file example: it must load.
        if let Some(deck) = block.strip_prefix("toml\n") {
            menagerie_games::lunch::deck::Deck::parse(deck, "README.md").unwrap_or_else(|e| panic!("{e}"));
            continue;
        }
        // A `text` block is Black's view of the position before it.
        if let Some(view) = block.strip_prefix("text\n") {
            let position = last.as_ref().expect("a view follows a position");
            assert_eq!(position.view_text(Player::Second), view.trim());
            continue;
        }
        let text = block.trim();
        if text.contains("...") {
            continue;
        }
        let game = Lunch::from_text(&variant, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(game.to_text(), text);
        last = Some(game);
        checked += 1;
    }
    assert!(checked >= 4);
}

#[test]
fn the_json_view_hides_the_other_hand_and_the_draw_piles_cards() {
    let game = dealt(3);
    let json = game.view_json(Some(Player::First));
    assert!(json["hands"]["white"].is_array());
    assert_eq!(json["hands"]["black"], 5);
    assert_eq!(json["draw_pile"], 92);
    assert_eq!(json["squares"].as_array().unwrap().len(), 32);
    assert_eq!(json["squares"][0]["square"], "a1");
    assert_eq!(json["to_act"], "white");
}

#[test]
fn the_json_view_lists_the_deck_so_cards_can_be_explained() {
    let game = dealt(3);
    let json = game.view_json(Some(Player::First));
    let hand = json["hands"]["white"].as_array().unwrap();
    assert_eq!(hand.len(), 5, "{json}");
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
    for code in hand {
        card(code.as_str().unwrap());
    }
}

#[test]
fn the_start_is_before_the_deal_and_chance_deals_white_first() {
    let mut game = Lunch::start(&variant("lunch"), 9);
    assert_eq!(game.to_text(), Lunch::start(&variant("lunch"), 1).to_text(), "the seed does not matter");
    assert_eq!(game.to_act(), Actor::Chance);
    assert!(game.to_text().ends_with(" - - jab*4,slap*4,elbow*4,headbutt*4,kick*4,uppercut*4,roundhouse*4,backfist*4,hammer,chain,knife,combo*4,poke*4,stomp*4,uppercut2,choke,headlock*2,grab*8,dodge*10,block*13,disarm*4,freedom*4,firstaid*8,humiliation*4 - - - - turn.deal 0,0,0 - chance"), "{}", game.to_text());
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    assert_eq!(moves.len(), 24, "one move per card type");
    let block = game.parse_move("draw:block").unwrap();
    assert!((game.chance_probability(block) - 13.0 / 102.0).abs() < 1e-12);
    assert_eq!(game.chance_probability(game.parse_move("draw:knife").unwrap()), 1.0 / 102.0);
    // A view shows only the size of the draw pile.
    assert_eq!(game.view_text(Player::Second).split(' ').nth(5), Some("#102"));
    game.play(block);
    assert!(game.to_text().contains(" block - jab*4,"), "the Block went to White: {}", game.to_text());
    assert!(game.to_text().contains(",block*12,"), "{}", game.to_text());
    for card in ["knife", "block", "block", "block"] {
        game.play(game.parse_move(&format!("draw:{card}")).unwrap());
    }
    assert!(game.parse_move("draw:knife").is_err(), "the only Knife was dealt");
    // White has five cards: Black is dealt next, then White acts.
    for card in ["jab", "jab", "jab", "jab", "slap"] {
        assert_eq!(game.to_act(), Actor::Chance);
        game.play(game.parse_move(&format!("draw:{card}")).unwrap());
    }
    assert!(game.parse_move("draw:jab").is_err(), "the deal is over");
    assert_eq!(game.to_act(), Actor::Player(Player::First));
    assert!(game.to_text().contains(" knife,block*4 jab*4,slap slap*3,elbow*4,"), "{}", game.to_text());
}

#[test]
fn piles_are_counts_written_in_deck_order() {
    let v = variant("lunch");
    let base = "4k3/8/8/8/8/8/8/4K3 w - block,dodge,dodge - dodge*3,jab,jab - - - - turn.action 0,0,0 - white";
    let game = Lunch::from_text(&v, base).unwrap();
    assert_eq!(
        game.to_text(),
        "4k3/8/8/8/8/8/8/4K3 w - dodge*2,block - jab*2,dodge*3 - - - - turn.action 0,0,0 - white"
    );
    for bad in ["dodge*0", "dodge*x", "dodge*-1", "dodge*", "*2", "dodge*300"] {
        let text = base.replace("dodge*3", bad);
        let err = Lunch::from_text(&v, &text).map(|_| ()).unwrap_err().to_string();
        assert!(err.contains("field 6 (draw pile)"), "{bad}: {err}");
    }
    let err = Lunch::from_text(&v, &base.replace("dodge*3", "dodge*9")).map(|_| ()).unwrap_err().to_string();
    assert!(err.contains("the deck has 10"), "{err}");
}

#[test]
fn a_first_version_text_is_read_without_its_order_and_generator() {
    let v = variant("lunch");
    // The first version: the draw pile top card first, and a random state.
    let old = "4k3/8/8/q7/8/8/8/R3K3 w - jab,kick slap dodge,block,dodge humiliation - - - turn.action 0,0,0 0123456789abcdef - white";
    let game = Lunch::from_text(&v, old).unwrap();
    assert_eq!(
        game.to_text(),
        "4k3/8/8/q7/8/8/8/R3K3 w - jab,kick slap dodge*2,block humiliation - - - turn.action 0,0,0 - white"
    );
    let err = Lunch::from_text(&v, &old.replace("0123456789abcdef", "xyz")).map(|_| ()).unwrap_err().to_string();
    assert!(err.contains("field 13 (random state)"), "{err}");
    let err = Lunch::from_text(&v, &old.replace(" white", " black")).map(|_| ()).unwrap_err().to_string();
    assert!(err.contains("field 15 (to act)"), "a first-version text's fields keep their numbers: {err}");
    let err = Lunch::from_text(&v, "4k3/8/8/8/8/8/8/4K3 w -").map(|_| ()).unwrap_err().to_string();
    assert!(err.contains("expected 14 space-separated fields"), "{err}");
}

/// A weapon back in its owner's hand is known to both players until a card
/// of its type leaves that hand: field 15 carries it, so a game read back
/// from its text samples the other hand as the game itself does.
#[test]
fn the_known_cards_field_carries_what_both_players_know_of_a_hand() {
    let v = variant("lunch");
    let base = "4k3/8/8/q7/8/8/8/R3K3 w - jab,kick,hammer slap,dodge jab*3,kick*2,block*6 humiliation - - - turn.action 0,0,0 - white";
    let known = format!("{base} w.hammer");
    let game = Lunch::from_text(&v, &known).unwrap();
    assert_eq!(game.to_text(), known, "the field round-trips");
    assert_eq!(Lunch::from_text(&v, base).unwrap().to_text(), base, "nothing known: no field, as before");
    // Both views show it (it is public); Black's hides the rest of the hand.
    let black_view = game.view_text(Player::Second);
    assert!(
        black_view.ends_with(" #3 slap,dodge #11 humiliation - - - turn.action 0,0,0 - white w.hammer"),
        "{black_view}"
    );
    // Every sample of White's hand for Black keeps the Hammer; without the
    // field, samples drawn from the 14 unseen cards mostly lose it.
    let with_hammer = |game: &Lunch| {
        (0..40)
            .filter(|&seed| {
                let sample = game.determinize(Player::Second, &mut StdRng::seed_from_u64(seed)).to_text();
                sample.split(' ').nth(3).unwrap().split(',').any(|card| card == "hammer")
            })
            .count()
    };
    assert_eq!(with_hammer(&game), 40);
    assert!(with_hammer(&Lunch::from_text(&v, base).unwrap()) < 30);
    // A sample keeps the knowledge, so a sample of a sample does too.
    let sample = game.determinize(Player::Second, &mut StdRng::seed_from_u64(1));
    assert!(sample.to_text().ends_with(" w.hammer"), "{}", sample.to_text());
    // Counts, several cards, either player, any order.
    let two = format!("{base} b.dodge,w.jab,w.hammer");
    assert_eq!(Lunch::from_text(&v, &two).unwrap().to_text(), format!("{base} w.jab,w.hammer,b.dodge"));
    let err = |text: &str| Lunch::from_text(&v, text).map(|_| ()).unwrap_err().to_string();
    let more = err(&format!("{base} w.jab*2"));
    assert!(more.contains("field 15 (known cards)") && more.contains("holds fewer"), "{more}");
    assert!(err(&format!("{base} x.jab")).contains("field 15 (known cards)"));
    assert!(err(&format!("{base} w.sword")).contains("unknown card"));
    let wrong_actor = err(&format!("{} w.hammer", base.replace(" white", " black")));
    assert!(wrong_actor.contains("field 14 (to act)"), "{wrong_actor}");
}

#[test]
fn determinize_deals_the_unseen_cards_anew_from_the_view_alone() {
    let game = dealt(5);
    let me = Player::First;
    let unseen = |g: &Lunch| {
        // The other hand and the draw pile together, from the full text.
        let text = g.to_text();
        let fields: Vec<&str> = text.split(' ').collect();
        let mut cards: Vec<String> = Vec::new();
        for field in [fields[4], fields[5]] {
            for item in field.split(',') {
                let (code, n) = item.split_once('*').map_or((item, 1), |(c, n)| (c, n.parse().unwrap()));
                cards.extend(std::iter::repeat_n(code.to_owned(), n));
            }
        }
        cards.sort();
        cards
    };
    let mut others = std::collections::HashSet::new();
    for seed in 0..20 {
        let sample = game.determinize(me, &mut StdRng::seed_from_u64(seed));
        assert_eq!(sample.view_text(me), game.view_text(me));
        assert_eq!(unseen(&sample), unseen(&game), "the same unseen cards, dealt anew");
        others.insert(sample.to_text().split(' ').nth(4).unwrap().to_owned());
    }
    assert!(others.len() > 10, "the other hand is sampled: {others:?}");
    // Two positions with the same view give the same sample.
    let twin = game.determinize(me, &mut StdRng::seed_from_u64(99));
    let a = game.determinize(me, &mut StdRng::seed_from_u64(7)).to_text();
    let b = twin.determinize(me, &mut StdRng::seed_from_u64(7)).to_text();
    assert_eq!(a, b);
}

#[test]
fn the_public_view_shows_the_board_and_no_card_of_either_hand() {
    let game = dealt(3);
    let json = game.view_json(None);
    assert_eq!(json["hands"]["white"], 5);
    assert_eq!(json["hands"]["black"], 5);
    assert_eq!(json["draw_pile"], 92);
    assert_eq!(json["squares"].as_array().unwrap().len(), 32);
    assert_eq!(json["text"], serde_json::Value::Null, "the full text carries the hands and the draw pile");
}

#[test]
fn a_princess_needs_the_princess_option() {
    let text = "4k3/8/8/8/8/8/8/I3K3 w - - - - - - - - turn.action 0,0,0 - white";
    let plain = Lunch::parse_variant(&VariantSpec::parse("lunch").unwrap()).unwrap();
    let err = match Lunch::from_text(&plain, text) {
        Ok(_) => panic!("a Princess was read without the princess option"),
        Err(e) => e.to_string(),
    };
    assert!(err.contains("field 1 (board), rank 1") && err.contains("princess"), "{err}");
    let princess = Lunch::parse_variant(&VariantSpec::parse("lunch:princess").unwrap()).unwrap();
    assert!(Lunch::from_text(&princess, text).is_ok());
}

/// Who saw each move, for a perfect-recall information state: a card of
/// chance is seen by its drawer alone (White's five at the deal, then
/// Black's), a player's move by both.
#[test]
fn each_card_of_chance_is_seen_by_its_drawer_alone() {
    use menagerie_core::{DynGame, Erased};
    let mut game = Erased::new(Lunch::start(&variant("lunch"), 0), "lunch");
    let mut rng = StdRng::seed_from_u64(3);
    while let Some(card) = game.sample_chance(&mut rng) {
        game.play(&card).unwrap();
    }
    assert_eq!(game.history().len(), 10);
    for ply in 0..10 {
        let white = ply < 5;
        assert_eq!(
            (game.move_seen(ply, Player::First), game.move_seen(ply, Player::Second)),
            (white, !white),
            "ply {ply}"
        );
    }
    let first = game.legal_moves()[0].clone();
    game.play(&first).unwrap();
    assert!(game.move_seen(10, Player::First) && game.move_seen(10, Player::Second));
    game.undo();
    game.undo();
    assert_eq!(game.history().len(), 9);
    assert!(game.move_seen(9, Player::First), "past the history, nothing is hidden");
}
