//! One scenario per card kind and rule paragraph: a stacked full-state text,
//! the decisions played from it, and the position text they lead to.
//! Texts: crates/games/src/lunch/README.md.
//!
//! Cards come from the draw pile by chance (moves `draw:<card>`). A scenario
//! names the order in which chance gives them (`Pos::draw`, first card
//! first, then `Pos::reshuffled` for the cards of a reshuffle), the text
//! holds them as a pile, and [`play`] plays chance's moves in that order
//! whenever chance acts.

use menagerie_core::{Actor, Game, Player, VariantSpec};
use menagerie_games::lunch::{Lunch, LunchVariant};

/// A full-state text with defaults for the fields a scenario leaves alone.
struct Pos {
    board: &'static str,
    side: &'static str,
    castling: &'static str,
    white: &'static str,
    black: &'static str,
    /// The draw pile, in the order chance deals it.
    draw: &'static str,
    /// The order chance deals the cards of a reshuffled discard pile.
    reshuffled: &'static str,
    discard: &'static str,
    holds: &'static str,
    stack: &'static str,
    counters: &'static str,
    actor: &'static str,
}

const DRAW: &str = "dodge,dodge,dodge,dodge,dodge,block,block,block,block,block,slap,slap";

impl Default for Pos {
    fn default() -> Self {
        Pos {
            board: "4k3/8/8/q7/8/8/8/R3K3",
            side: "w",
            castling: "-",
            white: "-",
            black: "-",
            draw: DRAW,
            reshuffled: "",
            discard: "-",
            holds: "-",
            stack: "turn.action",
            counters: "0,0,0",
            actor: "white",
        }
    }
}

impl Pos {
    /// The position text (a pile may list its cards one by one, in any order).
    fn text(&self) -> String {
        format!(
            "{} {} {} {} {} {} {} - {} - {} {} - {}",
            self.board,
            self.side,
            self.castling,
            self.white,
            self.black,
            self.draw,
            self.discard,
            self.holds,
            self.stack,
            self.counters,
            self.actor
        )
    }

    /// The cards chance gives, in order.
    fn deals(&self) -> Vec<&'static str> {
        [self.draw, self.reshuffled]
            .iter()
            .flat_map(|list| list.split(','))
            .filter(|c| !c.is_empty() && *c != "-")
            .collect()
    }
}

fn variant(spec: &str) -> LunchVariant {
    Lunch::parse_variant(&VariantSpec::parse(spec).unwrap()).unwrap()
}

fn play_text(game: &mut Lunch, text: &str) {
    let mv = game.parse_move(text).unwrap_or_else(|e| {
        let mut legal = Vec::new();
        game.legal_moves(&mut legal);
        let texts: Vec<String> = legal.iter().map(|&m| game.move_text(m)).collect();
        panic!("{text}: {e}\nin {}\nlegal: {texts:?}", game.to_text())
    });
    game.play(mv);
}

/// Plays `moves` (texts) from `start`, chance dealing the scenario's cards
/// in their order whenever it acts, and returns the game.
fn play(spec: &str, start: &Pos, moves: &[&str]) -> Lunch {
    let text = start.text();
    let mut game = Lunch::from_text(&variant(spec), &text).unwrap_or_else(|e| panic!("{text}: {e}"));
    let mut deals = start.deals().into_iter();
    let mut chance = |game: &mut Lunch| {
        while game.outcome().is_none() && game.to_act() == Actor::Chance {
            let card = deals.next().unwrap_or_else(|| panic!("the scenario's draws ran out in {}", game.to_text()));
            play_text(game, &format!("draw:{card}"));
        }
    };
    chance(&mut game);
    for text in moves {
        play_text(&mut game, text);
        chance(&mut game);
    }
    game
}

fn legal(game: &Lunch) -> Vec<String> {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let mut texts: Vec<String> = moves.iter().map(|&m| game.move_text(m)).collect();
    texts.sort();
    texts
}

/// Plays the scenario and compares the resulting text.
fn check(spec: &str, start: Pos, moves: &[&str], expected: &str) -> Lunch {
    let game = play(spec, &start, moves);
    assert_eq!(game.to_text(), expected, "\nfrom {}\nafter {moves:?}", start.text());
    game
}

// ----------------------------------------------------------------------
// Hit points, types, rounding, promotion
// ----------------------------------------------------------------------

#[test]
fn a_hit_that_kills_moves_the_attacker_onto_the_square() {
    check(
        "lunch",
        Pos { board: "4k3/8/8/p7/8/8/8/R3K3", white: "kick", black: "dodge", ..Pos::default() },
        &["attack:a1a5:kick", "pass", "pass", "pass"],
        "4k3/8/8/R7/8/8/8/4K3 b - dodge*5 dodge,block*4 slap*2,block kick - - - turn.action 0,1,0 - black",
    );
}

#[test]
fn damage_rounds_down_to_a_type() {
    check(
        "lunch",
        Pos { white: "kick", black: "dodge", ..Pos::default() },
        &["attack:a1a5:kick", "pass", "pass"],
        "4k3/8/8/r7/R7/8/8/4K3 b - dodge*5 dodge,block*4 slap*2,block kick - - - turn.action 0,1,0 - black",
    );
}

#[test]
fn knight_or_bishop_is_chosen_by_the_player_of_the_last_card() {
    let start = Pos { board: "4k3/8/8/r7/8/8/8/R3K3", white: "elbow", black: "dodge", ..Pos::default() };
    let game = play("lunch", &start, &["attack:a1a5:elbow", "pass", "pass"]);
    assert_eq!(legal(&game), ["choose:a5:b", "choose:a5:n"]);
    check(
        "lunch",
        start,
        &["attack:a1a5:elbow", "pass", "pass", "choose:a5:b"],
        "4k3/8/8/b7/R7/8/8/4K3 b - dodge*5 dodge,block*4 slap*2,block elbow - - - turn.action 0,1,0 - black",
    );
}

#[test]
fn a_pawn_entering_its_last_rank_promotes() {
    let start = Pos { board: "4k3/P7/8/8/8/8/8/4K3", ..Pos::default() };
    let game = play("lunch", &start, &["a7a8"]);
    assert_eq!(legal(&game), ["promote:a8:b", "promote:a8:n", "promote:a8:q", "promote:a8:r"]);
    check(
        "lunch",
        start,
        &["a7a8", "promote:a8:q"],
        "Q3k3/8/8/8/8/8/8/4K3 b - dodge*5 block*5 slap*2 - - - - turn.action 1,1,0 - black",
    );
}

#[test]
fn first_aid_raises_a_pawn_to_a_minor_piece_of_the_healers_choice() {
    check(
        "lunch",
        Pos { board: "4k3/8/8/8/8/8/4P3/4K3", white: "firstaid", black: "dodge", ..Pos::default() },
        &["aid:e2:firstaid", "pass", "choose:e2:n"],
        "4k3/8/8/8/8/8/4N3/4K3 b - dodge*5 dodge,block*4 slap*2,block firstaid - - - turn.action 0,1,0 - black",
    );
}

#[test]
fn princess_option_rounds_seven_to_a_princess() {
    check(
        "lunch:princess",
        Pos { white: "firstaid", black: "dodge", ..Pos { board: "4k3/8/8/8/8/8/8/R3K3", ..Pos::default() } },
        &["aid:a1:firstaid", "pass"],
        "4k3/8/8/8/8/8/8/I3K3 b - dodge*5 dodge,block*4 slap*2,block firstaid - - - turn.action 0,1,0 - black",
    );
}

// ----------------------------------------------------------------------
// Movement and threats
// ----------------------------------------------------------------------

#[test]
fn pieces_never_capture_by_moving() {
    let game = play("lunch", &Pos { board: "4k3/8/8/p7/8/8/8/R3K3", ..Pos::default() }, &[]);
    assert_eq!(legal(&game), ["a1a2", "a1a3", "a1a4", "a1b1", "a1c1", "a1d1", "e1d1", "e1d2", "e1e2", "e1f1", "e1f2"]);
}

#[test]
fn castling_ignores_threatened_squares() {
    let start = Pos { board: "4kr2/8/8/8/8/8/8/R3K2R", castling: "KQ", ..Pos::default() };
    let game = play("lunch", &start, &[]);
    assert!(legal(&game).contains(&"e1g1".to_owned()) && legal(&game).contains(&"e1c1".to_owned()));
    check(
        "lunch",
        start,
        &["e1g1"],
        "4kr2/8/8/8/8/8/8/R4RK1 b - dodge*5 block*5 slap*2 - - - - turn.action 1,1,0 - black",
    );
}

// ----------------------------------------------------------------------
// Answers: Dodge, Block and Grab, Disarm, weapons
// ----------------------------------------------------------------------

#[test]
fn dodge_avoids_the_damage() {
    check(
        "lunch",
        Pos { white: "kick,jab", black: "dodge", ..Pos::default() },
        &["attack:a1a5:kick", "pass", "answer:dodge", "pass"],
        "4k3/8/8/q7/R7/8/8/4K3 b - jab,dodge*4 dodge,block*4 slap*2,block kick,dodge - - - turn.action 1,1,0 - black",
    );
}

#[test]
fn after_a_block_a_grab_card_is_answered_only_by_freedom() {
    let start =
        Pos { board: "4k3/8/8/r7/8/8/8/R3K3", white: "kick,grab,jab", black: "block,freedom", ..Pos::default() };
    let moves = ["attack:a1a5:kick", "pass", "answer:block", "pass", "grab:grab+jab", "pass"];
    let game = play("lunch", &start, &moves);
    assert_eq!(legal(&game), ["answer:freedom", "pass"]);
    let mut all = moves.to_vec();
    all.push("answer:freedom");
    check(
        "lunch",
        start,
        &all,
        "4k3/8/8/r7/R7/8/8/4K3 b - dodge*5 block*5 slap*2 jab,kick,grab,block,freedom - - - turn.action 1,1,0 - black",
    );
}

#[test]
fn a_weapon_returns_to_its_players_hand() {
    check(
        "lunch",
        Pos { white: "hammer", black: "dodge", ..Pos::default() },
        &["attack:a1a5:hammer", "pass", "answer:dodge"],
        // Back in view of both: the Hammer is known to be in White's hand.
        "4k3/8/8/q7/R7/8/8/4K3 b - hammer,dodge*4 dodge,block*4 slap*2,block dodge - - - turn.action 1,1,0 - black w.hammer",
    );
}

#[test]
fn disarm_sends_the_weapon_to_the_discard_pile() {
    check(
        "lunch",
        Pos { white: "hammer", black: "disarm", ..Pos::default() },
        &["attack:a1a5:hammer", "pass", "answer:disarm"],
        "4k3/8/8/q7/R7/8/8/4K3 b - dodge*5 block*5 slap*2 hammer,disarm - - - turn.action 1,1,0 - black",
    );
}

// ----------------------------------------------------------------------
// First Aid
// ----------------------------------------------------------------------

#[test]
fn last_chance_first_aid_saves_a_piece() {
    check(
        "lunch",
        Pos { board: "4k3/8/8/p7/8/8/8/R3K3", white: "kick,jab", black: "firstaid,firstaid", ..Pos::default() },
        &["attack:a1a5:kick", "pass", "pass", "aid:a5:firstaid*2", "pass"],
        "4k3/8/8/p7/R7/8/8/4K3 b - jab,dodge*4 dodge,block*4 slap*2,block kick,firstaid*2 - - - turn.action 0,1,0 - black",
    );
}

#[test]
fn humiliated_first_aid_action_takes_a_free_attack_from_no_piece() {
    check(
        "lunch",
        Pos { board: "4k3/8/8/8/8/8/8/R3K3", white: "firstaid", black: "humiliation,elbow", ..Pos::default() },
        &["aid:a1:firstaid", "humiliate:humiliation", "free:a1:elbow", "choose:a1:b"],
        "4k3/8/8/8/8/8/8/B3K3 b - dodge*5 block*5 slap*2 elbow,firstaid,humiliation - - - turn.action 0,1,0 - black",
    );
}

// ----------------------------------------------------------------------
// Humiliation
// ----------------------------------------------------------------------

#[test]
fn humiliation_cancels_and_its_player_gets_a_free_attack() {
    check(
        "lunch",
        Pos { white: "kick,jab", black: "humiliation,slap", ..Pos::default() },
        &["attack:a1a5:kick", "humiliate:humiliation", "pass", "free:a4:slap", "pass", "choose:a4:b"],
        "4k3/8/8/q7/B7/8/8/4K3 b - jab,dodge*4 dodge,block*4 slap*2,block slap,kick,humiliation - - - turn.action 0,1,0 - black",
    );
}

#[test]
fn a_counter_humiliation_lets_the_card_stand() {
    check(
        "lunch",
        Pos { white: "kick,humiliation,jab", black: "humiliation", ..Pos::default() },
        &["attack:a1a5:kick", "humiliate:humiliation", "humiliate:humiliation", "free:a5:jab", "choose:a5:n"],
        "4k3/8/8/n7/R7/8/8/4K3 b - dodge*5 block*5 slap*2 jab,kick,humiliation*2 - - - turn.action 0,1,0 - black",
    );
}

#[test]
fn cards_for_a_king_cannot_be_humiliated() {
    let start = Pos { board: "4k3/8/8/8/8/8/3q4/4K3", white: "jab", black: "humiliation,dodge", ..Pos::default() };
    let game = play("lunch", &start, &["attack:e1d2:jab"]);
    assert_eq!(legal(&game), ["answer:dodge", "pass"]);
}

#[test]
fn humiliate_kings_voids_the_kings_action() {
    let start = Pos { board: "4k3/8/8/8/8/8/3q4/4K3", white: "jab", black: "humiliation,dodge", ..Pos::default() };
    let game = play("lunch:humiliate-kings", &start, &["attack:e1d2:jab"]);
    assert_eq!(legal(&game), ["humiliate:humiliation", "pass"]);
    check(
        "lunch:humiliate-kings",
        start,
        &["attack:e1d2:jab", "humiliate:humiliation"],
        "4k3/8/8/8/8/8/3q4/4K3 b - dodge*5 dodge,block*4 slap*2,block jab,humiliation - - - turn.action 1,1,0 - black",
    );
}

#[test]
fn humiliation_interventions_let_a_third_piece_attack() {
    check(
        "lunch:humiliation-interventions",
        Pos { board: "4k3/8/8/r7/8/2B5/8/R3K3", white: "kick,humiliation,jab", black: "dodge", ..Pos::default() },
        &["attack:a1a5:kick", "pass", "answer:dodge", "humiliate:humiliation:c3", "free:a5:jab"],
        "4k3/8/8/R7/1B6/8/8/4K3 b - dodge*5 block*5 slap*2 jab,kick,dodge,humiliation - - - turn.action 0,1,0 - black",
    );
}

#[test]
fn personal_first_aid_humiliation_needs_a_threatening_piece() {
    let start = Pos {
        board: "4k3/8/8/r7/8/8/8/R3K3",
        side: "b",
        actor: "black",
        white: "humiliation,jab",
        black: "firstaid",
        ..Pos::default()
    };
    let game = play("lunch:personal-first-aid-humiliation", &start, &["aid:a5:firstaid"]);
    assert_eq!(legal(&game), ["humiliate:humiliation:a1", "pass"]);
    check(
        "lunch:personal-first-aid-humiliation",
        start,
        &["aid:a5:firstaid", "humiliate:humiliation:a1", "free:a5:jab", "choose:a5:b"],
        "4k3/8/8/b7/R7/8/8/4K3 w - block*5 dodge*5 slap*2 jab,firstaid,humiliation - - - turn.action 0,1,0 - white",
    );
}

// ----------------------------------------------------------------------
// Special cards
// ----------------------------------------------------------------------

#[test]
fn big_combo_is_stopped_by_two_defences() {
    check(
        "lunch",
        Pos { white: "combo", black: "dodge,block", ..Pos::default() },
        &["attack:a1a5:combo", "pass", "answer:dodge", "answer:block"],
        "4k3/8/8/q7/R7/8/8/4K3 b - dodge*5 block*5 slap*2 combo,dodge,block - - - turn.action 1,1,0 - black",
    );
}

#[test]
fn uppercut2_gives_a_free_attack_after_a_hit() {
    check(
        "lunch",
        Pos { white: "uppercut2,jab", black: "slap", ..Pos::default() },
        &["attack:a1a5:uppercut2", "pass", "pass", "free:a5:jab", "pass", "choose:a5:b"],
        "4k3/8/8/b7/R7/8/8/4K3 b - dodge*5 slap,block*4 slap*2,block jab,uppercut2 - - - turn.action 0,1,0 - black",
    );
}

#[test]
fn poke_stuns_the_target_for_its_next_turn() {
    let game = check(
        "lunch",
        Pos { white: "poke,jab", black: "humiliation,dodge", ..Pos::default() },
        &["attack:a1a5:poke", "pass", "pass", "free:a5:jab"],
        "4k3/8/8/r{s}7/R7/8/8/4K3 b - dodge*5 dodge,block*3,humiliation slap*2,block*2 jab,poke - - - turn.action 0,1,0 - black",
    );
    assert!(legal(&game).iter().all(|m| !m.starts_with("a5") && !m.contains(":a5a") && !m.starts_with("aid:a5")));
}

#[test]
fn stomp_halves_the_next_opening_attack() {
    let start = Pos { white: "stomp", black: "kick", ..Pos::default() };
    check(
        "lunch",
        start,
        &["attack:a1a5:stomp", "pass", "pass", "attack:a5a4:kick", "pass", "pass", "choose:a4:n"],
        "4k3/8/8/r7/N7/8/8/4K3 w - dodge*5 block*5 slap*2 kick,stomp - - - turn.action 0,2,0 - white",
    );
}

#[test]
fn a_dodged_spinning_attack_passes_on_clockwise() {
    check(
        "lunch",
        Pos { board: "4k3/8/8/3pp3/8/8/8/3RK3", white: "roundhouse", black: "dodge", ..Pos::default() },
        &["attack:d1d5:roundhouse:cw", "pass", "answer:dodge"],
        "4k3/8/8/3pR3/8/8/8/4K3 b - dodge*5 block*5 slap*2 roundhouse,dodge - - - turn.action 0,1,0 - black",
    );
}

#[test]
fn no_spinning_option_stops_the_spin() {
    check(
        "lunch:no-spinning",
        Pos { board: "4k3/8/8/3pp3/8/8/8/3RK3", white: "roundhouse", black: "dodge", ..Pos::default() },
        &["attack:d1d5:roundhouse", "pass", "answer:dodge"],
        "4k3/8/8/3pp3/3R4/8/8/4K3 b - dodge*5 block*5 slap*2 roundhouse,dodge - - - turn.action 1,1,0 - black",
    );
}

#[test]
fn choke_holds_and_ticks_at_the_chokers_turn() {
    check(
        "lunch",
        Pos { board: "4k3/8/8/r7/8/8/8/R3K3", white: "choke", black: "dodge", ..Pos::default() },
        &["attack:a1a5:choke", "pass", "pass", "choose:a5:n", "e8d8"],
        "3k4/8/8/p7/R7/8/8/4K3 w - dodge*5 dodge,block*4 slap*2,block choke - choke.a4.a5 - turn.action 1,2,1 - white",
    );
}

#[test]
fn freedom_answers_a_choke() {
    check(
        "lunch",
        Pos { board: "4k3/8/8/r7/8/8/8/R3K3", white: "choke", black: "freedom", ..Pos::default() },
        &["attack:a1a5:choke", "pass", "answer:freedom"],
        "4k3/8/8/r7/R7/8/8/4K3 b - dodge*5 block*5 slap*2 choke,freedom - - - turn.action 1,1,0 - black",
    );
}

#[test]
fn a_choke_is_broken_as_an_action() {
    let start = Pos {
        board: "4k3/8/8/r7/R7/8/8/4K3",
        side: "b",
        actor: "black",
        black: "headbutt",
        holds: "choke.a4.a5",
        ..Pos::default()
    };
    let game = play("lunch", &start, &[]);
    assert!(legal(&game).contains(&"break:a5:headbutt".to_owned()));
    assert!(!legal(&game).iter().any(|m| m.starts_with("a5")), "a choked piece cannot move");
    check(
        "lunch",
        start,
        &["break:a5:headbutt"],
        "4k3/8/8/r7/R7/8/8/4K3 w - block*5 dodge*5 slap*2 headbutt - - - turn.action 1,1,0 - white",
    );
}

#[test]
fn grab_with_headlock_starts_a_hold() {
    check(
        "lunch",
        Pos { board: "4k3/8/8/r7/8/8/8/R3K3", white: "kick,grab,headlock", black: "block", ..Pos::default() },
        &["attack:a1a5:kick", "pass", "answer:block", "pass", "grab:grab+headlock"],
        "4k3/8/8/r7/R7/8/8/4K3 b - dodge*5 block*5 slap*2 kick,headlock,grab,block - headlock.a4.a5 - turn.action 1,1,0 - black",
    );
}

#[test]
fn headlock_free_attacks_at_the_start_of_the_holders_turn() {
    check(
        "lunch",
        Pos {
            board: "4k3/8/8/r7/R7/8/8/4K3",
            white: "jab,uppercut",
            black: "dodge",
            holds: "headlock.a4.a5",
            stack: "turn.start",
            ..Pos::default()
        },
        // Black declines the window on the Jab, then the Freedom answer; White
        // ends the Headlock attacks.
        &["free:a5:jab", "pass", "pass", "pass", "choose:a5:b"],
        "4k3/8/8/b7/R7/8/8/4K3 w - uppercut dodge slap*2,dodge*5,block*5 jab - headlock.a4.a5 - turn.action 0,0,1 - white",
    );
}

#[test]
fn freedom_answers_a_headlock_free_attack_and_ends_the_hold() {
    check(
        "lunch",
        Pos {
            board: "4k3/8/8/r7/R7/8/8/4K3",
            white: "jab,uppercut",
            black: "freedom",
            holds: "headlock.a4.a5",
            stack: "turn.start",
            ..Pos::default()
        },
        // Each card has its window: Black declines on the Uppercut, White on the Freedom.
        &["free:a5:uppercut", "pass", "answer:freedom", "pass"],
        "4k3/8/8/r7/R7/8/8/4K3 w - jab - slap*2,dodge*5,block*5 uppercut,freedom - - - turn.action 0,0,0 - white",
    );
}

// ----------------------------------------------------------------------
// Turns: refills, reshuffles, the end of the game, options
// ----------------------------------------------------------------------

#[test]
fn an_empty_draw_pile_is_refilled_from_the_discard_pile() {
    // White discards its Jab and draws five cards from the discard pile, now
    // the draw pile; Black gets the last two, and the piles are empty.
    let start = Pos {
        white: "jab",
        draw: "-",
        reshuffled: "jab,slap,slap,dodge,block,slap,dodge",
        discard: "dodge,dodge,block,slap,slap,slap",
        ..Pos::default()
    };
    check(
        "lunch",
        start,
        &["discard:jab"],
        "4k3/8/8/q7/8/8/8/R3K3 b - jab,slap*2,dodge,block slap,dodge - - - - - turn.action 1,1,0 - black",
    );
}

#[test]
fn chance_draws_from_a_reshuffle_as_often_as_each_card_lies_there() {
    let start = Pos { white: "jab", draw: "-", discard: "dodge,dodge,block,slap,slap,slap", ..Pos::default() };
    let game = play("lunch", &Pos { reshuffled: "", ..start }, &[]);
    let mut after = game.clone();
    after.play(after.parse_move("discard:jab").unwrap());
    assert_eq!(after.to_act(), Actor::Chance);
    assert_eq!(
        after.to_text(),
        "4k3/8/8/q7/8/8/8/R3K3 w - - - jab,slap*3,dodge*2,block - - - - turn.draw 1,1,0 - chance"
    );
    assert_eq!(legal(&after), ["draw:block", "draw:dodge", "draw:jab", "draw:slap"]);
    for (card, share) in [("jab", 1.0), ("slap", 3.0), ("dodge", 2.0), ("block", 1.0)] {
        let p = after.chance_probability(after.parse_move(&format!("draw:{card}")).unwrap());
        assert!((p - share / 7.0).abs() < 1e-12, "{card}: {p}");
    }
}

#[test]
fn a_side_without_a_king_loses() {
    check(
        "lunch",
        Pos { board: "k7/8/8/8/8/8/8/R3K3", white: "jab", ..Pos::default() },
        &["attack:a1a8:jab"],
        "q7/R7/8/8/8/8/8/4K3 w - - - slap*2,dodge*5,block*5 jab - - - turn.endcheck 0,0,1 white -",
    );
}

#[test]
fn a_hundred_quiet_turns_draw() {
    // The game ends at the end-of-turn check, before anyone draws.
    check(
        "lunch",
        Pos { counters: "99,150,0", ..Pos::default() },
        &["e1e2"],
        "4k3/8/8/q7/8/8/4K3/R7 w - - - slap*2,dodge*5,block*5 - - - - turn.endcheck 100,151,0 quiet -",
    );
}

#[test]
fn no_discard_in_check_forbids_discarding_under_threat() {
    let start = Pos { board: "4k3/8/8/8/8/8/8/r3K3", white: "jab", ..Pos::default() };
    let plain = play("lunch", &start, &[]);
    assert!(legal(&plain).contains(&"discard:jab".to_owned()));
    let strict = play("lunch:no-discard-in-check", &start, &[]);
    assert!(!legal(&strict).iter().any(|m| m.starts_with("discard")));
}

// ----------------------------------------------------------------------
// Hidden information
// ----------------------------------------------------------------------

#[test]
fn a_view_never_shows_the_other_hand_or_the_draw_pile() {
    let variant = variant("lunch");
    for seed in 0..20 {
        // The deal, by chance.
        let mut game = Lunch::start(&variant, 0);
        let mut rng = <rand::rngs::StdRng as rand::SeedableRng>::seed_from_u64(seed);
        while let Some(mv) = menagerie_core::sample_chance(&game, &mut rng) {
            game.play(mv);
        }
        let full = game.to_text();
        let fields: Vec<&str> = full.split(' ').collect();
        for viewer in Player::BOTH {
            let view = game.view_text(viewer);
            let view_fields: Vec<&str> = view.split(' ').collect();
            assert_eq!(view_fields.len(), fields.len());
            let (own, other) = if viewer == Player::First { (3, 4) } else { (4, 3) };
            assert_eq!(view_fields[own], fields[own]);
            assert_eq!(view_fields[other], "#5");
            assert_eq!(view_fields[5], format!("#{}", 102 - 10), "only the size of the draw pile");
            assert!(!view.contains(fields[5]), "the draw pile's cards leak");
            let sampled = game.determinize(viewer, &mut rng);
            assert_eq!(sampled.view_text(viewer), view);
        }
    }
}

// ----------------------------------------------------------------------
// The deck file
// ----------------------------------------------------------------------

/// Serves one deck by name, as the CLI or the server would after reading it.
struct OneDeck(&'static str, &'static str);

impl menagerie_core::Resolver for OneDeck {
    fn resolve(&self, _option: &str, value: &str) -> Result<menagerie_core::Resolved, String> {
        if value == self.0 {
            Ok(menagerie_core::Resolved { name: self.0.to_owned(), text: self.1.into() })
        } else {
            menagerie_core::Resolver::resolve(&menagerie_games::BuiltinData, "deck", value)
        }
    }
}

#[test]
fn a_malformed_deck_file_names_the_file_the_card_and_the_field() {
    let deck = OneDeck(
        "bad.toml",
        "[[card]]\nname = \"Jab\"\ncode = \"jab\"\nkind = \"attack\"\ncount = 4\ndamage = 1\nnumbers = \"confirmed\"\n\n\
         [[card]]\nname = \"Kick\"\ncode = \"kick\"\nkind = \"attack\"\ncount = \"four\"\ndamage = 4\nnumbers = \"reconstructed\"\n",
    );
    let err =
        Lunch::parse_variant_with(&VariantSpec::parse("lunch:deck=bad.toml").unwrap(), &deck).unwrap_err().to_string();
    assert!(err.contains("deck file bad.toml"), "{err}");
    assert!(err.contains("card #2 (\"Kick\")"), "{err}");
    assert!(err.contains("field `count`"), "{err}");
}

#[test]
fn another_deck_is_played_with() {
    let deck = OneDeck(
        "small",
        "[[card]]\nname = \"Jab\"\ncode = \"jab\"\nkind = \"attack\"\ncount = 12\ndamage = 1\nnumbers = \"confirmed\"\n",
    );
    let variant = Lunch::parse_variant_with(&VariantSpec::parse("lunch:deck=small").unwrap(), &deck).unwrap();
    let mut game = Lunch::start(&variant, 1);
    assert!(game.to_text().contains(" - - jab*12 - "), "{}", game.to_text());
    for _ in 0..10 {
        assert_eq!(legal(&game), ["draw:jab"], "one card type: one way to deal");
        game.play(game.parse_move("draw:jab").unwrap());
    }
    assert!(game.to_text().contains(" jab*5 jab*5 jab*2 - "), "{}", game.to_text());
}

#[test]
fn a_deck_name_never_reaches_a_file_without_a_resolver_that_reads_files() {
    for name in ["/etc/passwd", "Cargo.toml", "/dev/zero"] {
        let err = Lunch::parse_variant(&VariantSpec::parse(&format!("lunch:deck={name}")).unwrap()).unwrap_err();
        assert!(err.to_string().contains("offered decks: standard"), "{err}");
    }
    let standard = Lunch::parse_variant(&VariantSpec::parse("lunch:deck=standard").unwrap()).unwrap();
    assert_eq!(standard, variant("lunch"));
}

// ----------------------------------------------------------------------
// Pinned readings of unclear rules
// ----------------------------------------------------------------------

#[test]
fn windows_are_offered_without_a_fitting_card_so_they_reveal_nothing() {
    let start = Pos { board: "4k3/8/8/p7/8/8/8/R3K3", white: "kick", black: "dodge", ..Pos::default() };
    let game = play("lunch", &start, &["attack:a1a5:kick"]);
    assert_eq!(legal(&game), ["pass"], "the Humiliation window is open though Black holds none");
    let game = play("lunch", &start, &["attack:a1a5:kick", "pass", "pass"]);
    assert_eq!(legal(&game), ["pass"], "the last-chance window is open though Black holds no First Aid");
    // Once every Humiliation is in the discard pile, the window is not offered.
    let spent = Pos { discard: "humiliation,humiliation,humiliation,humiliation", ..Pos { ..start } };
    let game = play("lunch", &spent, &["attack:a1a5:kick"]);
    assert_eq!(legal(&game), ["answer:dodge", "pass"]);
}

#[test]
fn choke_cannot_be_played_on_a_piece_in_a_hold() {
    let start = Pos { board: "4k3/8/8/r7/R7/8/8/4K1R1", white: "choke,jab", holds: "headlock.a4.a5", ..Pos::default() };
    let game = play("lunch", &start, &[]);
    let moves = legal(&game);
    assert!(moves.contains(&"attack:a4a5:jab".to_owned()) || moves.iter().all(|m| !m.starts_with("attack:a4")));
    assert!(!moves.iter().any(|m| m.ends_with("a5:choke")), "{moves:?}");
}

#[test]
fn the_healers_counter_humiliation_gives_no_free_attack() {
    check(
        "lunch",
        Pos { board: "4k3/8/8/8/8/8/8/R3K3", white: "firstaid,humiliation,jab", black: "humiliation,elbow", ..Pos::default() },
        &["aid:a1:firstaid", "humiliate:humiliation", "humiliate:humiliation", "pass"],
        "4k3/8/8/8/8/8/8/R3K3 b - jab,dodge*4 elbow,dodge,block*3 slap*2,block*2 firstaid,humiliation*2 - - - turn.action 0,1,0 - black",
    );
}

// ----------------------------------------------------------------------
// More battles
// ----------------------------------------------------------------------

#[test]
fn a_spin_passes_counter_clockwise_to_pieces_of_either_colour() {
    check(
        "lunch",
        Pos { board: "4k3/8/8/2pp4/2P5/8/8/3RK3", white: "roundhouse,block", black: "dodge,dodge", ..Pos::default() },
        &["attack:d1d5:roundhouse:ccw", "pass", "answer:dodge", "pass", "answer:dodge", "pass", "pass"],
        "4k3/8/8/2pp4/2R5/8/8/4K3 b - dodge*4,block dodge,block*4 slap*2,block roundhouse,dodge*2 - - - turn.action 0,1,0 - black",
    );
}

#[test]
fn a_knight_spins_round_its_knight_squares() {
    check(
        "lunch",
        Pos { board: "4k3/8/8/3p4/4p3/2N5/8/4K3", white: "roundhouse", black: "dodge", ..Pos::default() },
        &["attack:c3d5:roundhouse:cw", "pass", "answer:dodge"],
        "4k3/8/8/3p4/4N3/8/8/4K3 b - dodge*5 block*5 slap*2 roundhouse,dodge - - - turn.action 0,1,0 - black",
    );
}

#[test]
fn a_free_attack_that_kills_ends_the_battle() {
    check(
        "lunch",
        Pos { board: "4k3/8/8/q7/1P6/8/8/4K3", white: "kick", black: "humiliation,jab", ..Pos::default() },
        &["attack:b4a5:kick", "humiliate:humiliation", "free:b4:jab"],
        "4k3/8/8/q7/8/8/8/4K3 b - dodge*5 block*5 slap*2 jab,kick,humiliation - - - turn.action 0,1,0 - black",
    );
}

#[test]
fn the_targets_player_grabs_first() {
    let start =
        Pos { board: "4k3/8/8/r7/8/8/8/R3K3", white: "kick,freedom", black: "block,grab,jab", ..Pos::default() };
    let game = play("lunch", &start, &["attack:a1a5:kick", "pass", "answer:block", "pass"]);
    assert_eq!(legal(&game), ["grab:grab+jab", "pass"]);
    check("lunch", start, &["attack:a1a5:kick", "pass", "answer:block", "pass", "grab:grab+jab", "pass", "pass"], "4k3/8/8/r7/N{cxek}7/8/8/4K3 w - freedom - slap*2,dodge*5,block*5 jab,kick,grab,block - - - turn.endcheck/round 0,0,1 - black");
}

#[test]
fn a_stun_wears_off_after_the_victims_next_turn() {
    let start = Pos { white: "poke,jab", black: "dodge", ..Pos::default() };
    let moves = ["attack:a1a5:poke", "pass", "pass", "free:a5:jab", "e8d8", "e1e2"];
    let game = play("lunch", &start, &moves);
    assert!(legal(&game).contains(&"a5a6".to_owned()), "{}", game.to_text());
}

#[test]
fn a_piece_dying_of_a_choke_lets_the_choker_take_its_square() {
    check(
        "lunch",
        Pos { board: "4k3/8/8/p7/R7/8/8/4K3", holds: "choke.a4.a5", stack: "turn.start", ..Pos::default() },
        &[],
        "4k3/8/8/R7/8/8/8/4K3 w - - - slap*2,dodge*5,block*5 - - - - turn.action 0,0,1 - white",
    );
}

#[test]
fn a_held_piece_killed_by_the_holder_lets_it_take_the_square() {
    check(
        "lunch",
        Pos {
            board: "4k3/8/8/p7/R7/8/8/4K3",
            white: "jab",
            holds: "headlock.a4.a5",
            stack: "turn.start",
            ..Pos::default()
        },
        &["free:a5:jab"],
        "4k3/8/8/R7/8/8/8/4K3 w - - - slap*2,dodge*5,block*5 jab - - - turn.action 0,0,1 - white",
    );
}

#[test]
fn a_princess_moves_like_a_queen_up_to_two_squares() {
    let game = play("lunch:princess", &Pos { board: "4k3/8/8/8/8/8/8/I3K3", ..Pos::default() }, &[]);
    let moves: Vec<String> = legal(&game).into_iter().filter(|m| m.starts_with("a1")).collect();
    assert_eq!(moves, ["a1a2", "a1a3", "a1b1", "a1b2", "a1c1", "a1c3"]);
}

#[test]
fn a_player_without_any_action_passes_and_a_choked_king_falls() {
    // White's only piece is its choked King and White holds no card: the turn
    // passes; at Black's turn the Choke drops the King to 14, a Queen.
    check(
        "lunch",
        Pos {
            board: "4k3/8/8/8/8/8/r7/K7",
            black: "jab",
            draw: "-",
            holds: "choke.a2.a1",
            actor: "-",
            ..Pos::default()
        },
        &[],
        "4k3/8/8/8/8/8/r7/Q7 b - - jab - - - choke.a2.a1 - turn.startcheck 1,1,1 black -",
    );
}

#[test]
fn the_thousandth_turn_draws() {
    check(
        "lunch",
        Pos { black: "dodge", draw: "-", counters: "5,999,0", ..Pos::default() },
        &["e1e2"],
        "4k3/8/8/q7/8/8/4K3/R7 w - - dodge - - - - - turn.endcheck 6,1000,0 turnlimit -",
    );
}

// ----------------------------------------------------------------------
// Second review: the clarifications at the end of the rules
// ----------------------------------------------------------------------

const INTERVENTIONS: &str = "lunch:humiliation-interventions";

#[test]
fn an_intervening_pieces_free_attack_has_its_own_window_though_the_attacker_is_a_king() {
    // The White King attacks d2; the Bishop on b4 Humiliates Black's Dodge and
    // makes the free attack from c3: a Bishop's card, so Black may Humiliate it.
    let start = Pos {
        board: "4k3/8/8/8/1B6/8/3r4/4K3",
        white: "jab,slap,humiliation",
        black: "dodge,humiliation",
        ..Pos::default()
    };
    let moves = ["attack:e1d2:jab", "answer:dodge", "humiliate:humiliation:b4", "pass", "free:d2:slap"];
    let game = play(INTERVENTIONS, &start, &moves);
    assert_eq!(legal(&game), ["humiliate:humiliation", "pass"]);
    // Black cancels the Slap; the King's Jab then hits (the Dodge was cancelled).
    let mut all = moves.to_vec();
    all.extend(["humiliate:humiliation", "choose:d2:b"]);
    check(INTERVENTIONS, start, &all, "4k3/8/8/8/8/2B5/3b4/4K3 b - dodge*5 block*5 slap*2 jab,slap,dodge,humiliation*2 - - - turn.action 0,1,0 - black");
}

#[test]
fn an_intervening_kings_free_attack_cannot_be_humiliated() {
    // The Rook on d1 attacks d2; the King on e1 intervenes against the Dodge.
    let start = Pos {
        board: "4k3/8/8/8/8/8/3r4/3RK3",
        white: "kick,jab,humiliation",
        black: "dodge,humiliation",
        ..Pos::default()
    };
    let moves = ["attack:d1d2:kick", "pass", "answer:dodge", "humiliate:humiliation:e1", "free:d2:jab"];
    let game = play(INTERVENTIONS, &start, &moves);
    assert_eq!(legal(&game), ["pass"], "no window on the King's Jab: only the last chance before the Kick");
    let mut all = moves.to_vec();
    all.push("pass");
    check(INTERVENTIONS, start, &all, "4k3/8/8/8/8/8/3R4/4K3 b - dodge*5 block*4,humiliation slap*2,block jab,kick,dodge,humiliation - - - turn.action 0,1,0 - black");
}

#[test]
fn only_pieces_threatening_the_intervening_piece_may_intervene_against_its_free_attack() {
    // The Bishop c3 intervenes and steps to b4. The Knight on b6 threatens the
    // attacking Rook (a4), the Bishop on e7 threatens the intervening Bishop.
    let start = Pos {
        board: "4k3/4b3/1n6/r7/8/2B5/8/R3K3",
        white: "kick,jab,humiliation",
        black: "dodge,elbow,humiliation",
        ..Pos::default()
    };
    let moves = ["attack:a1a5:kick", "pass", "answer:dodge", "humiliate:humiliation:c3", "pass", "free:a5:jab"];
    let game = play(INTERVENTIONS, &start, &moves);
    assert_eq!(legal(&game), ["humiliate:humiliation", "humiliate:humiliation:e7", "pass"]);
    // The Bishop e7 steps to c5 and hits the Bishop on b4 (3 - 2: a Pawn); the
    // Kick still hits a5 (5 - 4: a Pawn), the Dodge having been cancelled.
    let mut all = moves.to_vec();
    all.extend(["humiliate:humiliation:e7", "free:b4:elbow"]);
    check(INTERVENTIONS, start, &all, "4k3/8/1n6/p1b5/RP6/8/8/4K3 b - dodge*5 block*5 slap*2 jab,elbow,kick,dodge,humiliation*2 - - - turn.action 0,1,0 - black");
}

#[test]
fn an_intervening_piece_that_kills_takes_the_square_and_the_attacker_stays() {
    let start =
        Pos { board: "4k3/8/8/p7/8/2B5/8/R3K3", white: "kick,jab,humiliation", black: "dodge", ..Pos::default() };
    check(
        INTERVENTIONS,
        start,
        &["attack:a1a5:kick", "pass", "answer:dodge", "humiliate:humiliation:c3", "free:a5:jab"],
        "4k3/8/8/B7/R7/8/8/4K3 b - dodge*5 block*5 slap*2 jab,kick,dodge,humiliation - - - turn.action 0,1,0 - black",
    );
}

#[test]
fn an_intervening_knight_that_kills_stays_where_it_is() {
    let start =
        Pos { board: "4k3/8/8/p7/8/1N6/8/R3K3", white: "kick,jab,humiliation", black: "dodge", ..Pos::default() };
    check(
        INTERVENTIONS,
        start,
        &["attack:a1a5:kick", "pass", "answer:dodge", "humiliate:humiliation:b3", "free:a5:jab"],
        "4k3/8/8/8/R7/1N6/8/4K3 b - dodge*5 block*5 slap*2 jab,kick,dodge,humiliation - - - turn.action 0,1,0 - black",
    );
}

#[test]
fn an_intervening_piece_that_kills_the_attacker_takes_its_square() {
    // Reading pinned: the rule for an intervening piece that kills holds on
    // both sides. Black's Bishop c2 Humiliates the Pawn's Jab, steps to b3 and
    // kills the Pawn on a4 with its free attack: it takes a4.
    let start = Pos { board: "4k3/8/8/1r6/P7/8/2b5/4K3", white: "jab", black: "humiliation,slap", ..Pos::default() };
    let game = play(INTERVENTIONS, &start, &["attack:a4b5:jab"]);
    assert_eq!(legal(&game), ["humiliate:humiliation", "humiliate:humiliation:c2", "pass"]);
    check(
        INTERVENTIONS,
        start,
        &["attack:a4b5:jab", "humiliate:humiliation:c2", "free:a4:slap"],
        "4k3/8/8/1r6/b7/8/8/4K3 b - dodge*5 block*5 slap*2 jab,slap,humiliation - - - turn.action 0,1,0 - black",
    );
}

#[test]
fn an_intervening_piece_killed_by_a_third_piece_leaves_the_battle_running() {
    // White's Pawn b4 Humiliates Black's Dodge; Black's Bishop e7 Humiliates
    // the Pawn's free attack, steps to c5 and kills it (taking b4). The battle
    // goes on: the Kick hits a5 (5 - 4: a Pawn).
    let start = Pos {
        board: "4k3/4b3/8/r7/1P6/8/8/R3K3",
        white: "kick,jab,humiliation",
        black: "dodge,slap,humiliation",
        ..Pos::default()
    };
    check(
        INTERVENTIONS,
        start,
        &[
            "attack:a1a5:kick",
            "pass",
            "answer:dodge",
            "humiliate:humiliation:b4",
            "pass",
            "free:a5:jab",
            "humiliate:humiliation:e7",
            "free:b4:slap",
        ],
        "4k3/8/8/p7/Rb6/8/8/4K3 b - dodge*5 block*5 slap*2 jab,slap,kick,dodge,humiliation*2 - - - turn.action 0,1,0 - black",
    );
}

#[test]
fn humiliate_kings_gives_the_last_humiliation_of_the_kings_side_its_free_attack() {
    // Black Humiliates the King's Jab, White Humiliates back: the Jab stands
    // and White, who played the last Humiliation, gets the free attack.
    let start = Pos {
        board: "4k3/8/8/8/8/8/3q4/4K3",
        white: "jab,slap,humiliation",
        black: "dodge,humiliation",
        ..Pos::default()
    };
    let moves = ["attack:e1d2:jab", "humiliate:humiliation", "humiliate:humiliation"];
    let game = play("lunch:humiliate-kings", &start, &moves);
    assert_eq!(legal(&game), ["free:d2:slap", "pass"]);
    // The Slap and then the Jab hit the Queen: 9 - 2 = 7, a Rook.
    let mut all = moves.to_vec();
    all.extend(["free:d2:slap", "pass"]);
    check("lunch:humiliate-kings", start, &all, "4k3/8/8/8/8/8/3r4/4K3 b - dodge*5 dodge,block*4 slap*2,block jab,slap,humiliation*2 - - - turn.action 0,1,0 - black");
}

#[test]
fn humiliate_kings_voids_the_action_when_the_chain_cancels_the_kings_card() {
    // The King's own Humiliation cannot be Humiliated, so a longer chain needs
    // an intervention: Black Humiliates the King's Jab, White's Bishop b4
    // Humiliates back, Black again. Three Humiliations cancel the Jab: the
    // action is void, and Black gets no free attack (the Elbow stays in hand).
    let start = Pos {
        board: "4k3/8/8/8/1B6/8/3q4/4K3",
        white: "jab,slap,humiliation",
        black: "elbow,humiliation,humiliation",
        ..Pos::default()
    };
    check(
        "lunch:humiliate-kings,humiliation-interventions",
        start,
        &["attack:e1d2:jab", "humiliate:humiliation", "humiliate:humiliation:b4", "humiliate:humiliation", "pass"],
        "4k3/8/8/8/1B6/8/3q4/4K3 b - slap,dodge*4 elbow,dodge,block*3 slap*2,block*2 jab,humiliation*3 - - - turn.action 1,1,0 - black",
    );
}

#[test]
fn a_humiliated_answer_does_not_use_up_one_of_big_combos_two() {
    let start = Pos { white: "combo,humiliation", black: "dodge,dodge,block", ..Pos::default() };
    let moves = ["attack:a1a5:combo", "pass", "answer:dodge", "humiliate:humiliation", "pass", "answer:block"];
    let game = play("lunch", &start, &moves);
    assert_eq!(legal(&game), ["answer:dodge", "pass"], "the Humiliated Dodge was no answer: one is left");
    // The second answer that stands takes Big Combo's last 3 damage.
    let mut all = moves.to_vec();
    all.push("answer:dodge");
    check("lunch", start, &all, "4k3/8/8/q7/R7/8/8/4K3 b - dodge*5 block*5 slap*2 combo,dodge*2,block,humiliation - - - turn.action 1,1,0 - black");
}

#[test]
fn a_humiliated_answer_to_a_plain_card_leaves_it_unanswered() {
    // Reading pinned: outside Big Combo a Humiliated answer is no answer and
    // the card goes on to hit; no second answer is offered.
    let start = Pos { white: "kick,humiliation", black: "dodge,dodge", ..Pos::default() };
    let game = play("lunch", &start, &["attack:a1a5:kick", "pass", "answer:dodge", "humiliate:humiliation", "pass"]);
    assert!(game.to_text().starts_with("4k3/8/8/r7/R7/8/8/4K3 b "), "{}", game.to_text());
}

#[test]
fn a_headlock_free_attack_has_a_humiliation_window() {
    let start = Pos {
        board: "4k3/8/8/r7/R7/8/8/4K3",
        white: "jab,uppercut",
        black: "dodge,humiliation",
        holds: "headlock.a4.a5",
        stack: "turn.start",
        ..Pos::default()
    };
    let game = play("lunch", &start, &["free:a5:jab"]);
    assert_eq!(legal(&game), ["humiliate:humiliation", "pass"]);
    // White may Humiliate back (holds none: only pass); the Jab is cancelled and
    // neither piece in the hold makes a free attack; White may attack again.
    let game = play("lunch", &start, &["free:a5:jab", "humiliate:humiliation"]);
    assert_eq!(legal(&game), ["pass"]);
    let game = play("lunch", &start, &["free:a5:jab", "humiliate:humiliation", "pass"]);
    assert_eq!(legal(&game), ["free:a5:uppercut", "pass"]);
    check(
        "lunch",
        start,
        &["free:a5:jab", "humiliate:humiliation", "pass", "pass"],
        "4k3/8/8/r7/R7/8/8/4K3 w - uppercut dodge slap*2,dodge*5,block*5 jab,humiliation - headlock.a4.a5 - turn.action 0,0,0 - white",
    );
}

#[test]
fn a_king_humiliating_first_aid_makes_cards_that_cannot_be_humiliated() {
    // Reading pinned: under `personal-first-aid-humiliation` the threatening
    // piece's Humiliation and free attack are its own cards; a King's cannot
    // be Humiliated (Black holds a Humiliation but is never asked).
    let start = Pos {
        board: "4k3/8/8/r7/1K6/8/8/8",
        side: "b",
        actor: "black",
        white: "humiliation,jab",
        black: "firstaid,humiliation",
        ..Pos::default()
    };
    let spec = "lunch:personal-first-aid-humiliation";
    let game = play(spec, &start, &["aid:a5:firstaid", "humiliate:humiliation:b4"]);
    assert_eq!(legal(&game), ["free:a5:jab", "pass"]);
    check(
        spec,
        start,
        &["aid:a5:firstaid", "humiliate:humiliation:b4", "free:a5:jab", "choose:a5:n"],
        "4k3/8/8/n7/1K6/8/8/8 w - dodge,block*4 dodge*4,humiliation slap*2,block jab,firstaid,humiliation - - - turn.action 0,1,0 - white",
    );
}
