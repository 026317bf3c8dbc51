//! The short forms of moves that move lists show (`Present::move_label`)
//! and whose turn a position belongs to (`Present::on_turn`), by example
//! for every game.

use menagerie_core::{Actor, Player};
use menagerie_games::{new_game, BuiltinData};

fn labels(variant: &str, position: Option<&str>, moves: &[(&str, &str)]) {
    let game = new_game(variant, position, 1, &BuiltinData).unwrap_or_else(|e| panic!("{variant}: {e}"));
    for (text, label) in moves {
        assert_eq!(game.move_label(text).unwrap_or_else(|e| panic!("{text}: {e}")), *label, "{variant} {text}");
    }
}

#[test]
fn lma_labels_name_the_piece_the_capture_and_the_landing_board() {
    labels("lma", None, &[("2b1c3", "C1c3"), ("2a2a3", "1a3"), ("2a2a4", "2a4")]);
    // The Cardinal's leap takes the pawn on 2a3 and lands on 1a3.
    labels(
        "lma",
        Some("3k2/6/6/6/6/6/6|6/6/6/6/p5/6/1C1K2 w - 0 1"),
        &[("2b1a3", "Cx1a3"), ("2d1e2", "K2e2"), ("2d1d2", "K1d2")],
    );
    // The Rook checks the King on its board; promotion to a Queen.
    labels(
        "lma",
        Some("3k2/6/6/6/6/6/R5|6/P5/6/6/6/6/3K2 w - 0 1"),
        &[("1a1a7", "R1a7+"), ("2a6a7q", "1a7=Q+"), ("2a6a7c", "1a7=C")],
    );
}

#[test]
fn fluid_labels_show_the_queen_pairs_captures_and_joins() {
    labels("fluid", None, &[("Pe2e4", "e4")]);
    labels(
        "fluid",
        Some("4k3/8/8/p7/8/8/8/R1B1K3 w - - 0 1"),
        &[("Ra1a5", "Rxa5"), ("Ra1c1", "Rc1"), ("Bc1g5", "Bg5")],
    );
    // A Bishop and Rook on one square move as a Queen, or one of them alone.
    labels("fluid", Some("4k3/8/8/8/8/8/8/3QK3 w - - 0 1"), &[("BRd1d7", "Qd7+"), ("Bd1f3", "Bf3"), ("Bd1h5", "Bh5+")]);
}

#[test]
fn kelasu_labels_show_captures_conversions_and_merges() {
    let position = "S9/10/3BB5/5W4/5b4/10/10/10/b9/9s blue 1 - 0 1";
    labels("kelasu", Some(position), &[("D5-E5", "WD5xE5"), ("C3-D3", "C3-D3"), ("W@C3:C3,C4", "W@C3(2)")]);
}

#[test]
fn lichen_labels_draw_directions_as_arrows() {
    labels("lichen", None, &[("a2ne", "a2↗"), ("a2ne;a2*ne", "a2↗ a2*↗"), ("b1ne;b1>n", "b1↗ b1↑")]);
}

/// White's Rook on a4 can attack Black's Queen on a5 (browser tests use it too).
const LUNCH_ATTACK: &str =
    "4k3/8/8/q7/R7/8/8/4K3 w - jab,kick dodge,block,firstaid - - - - - turn.action 0,0,0 0123456789abcdef - white";

#[test]
fn lunch_labels_name_pieces_and_cards() {
    labels(
        "lunch",
        Some(LUNCH_ATTACK),
        &[
            ("attack:a4a5:kick", "Rxa5 Kick"),
            ("a4b4", "Rb4"),
            ("e1e2", "Ke2"),
            ("discard:jab+kick", "discard Jab, Kick"),
        ],
    );
}

#[test]
fn an_answer_belongs_to_the_attackers_turn() {
    let mut game = new_game("lunch", Some(LUNCH_ATTACK), 1, &BuiltinData).unwrap();
    assert_eq!(game.on_turn(), Some(Player::First));
    game.play("attack:a4a5:kick").unwrap();
    assert_eq!(game.to_act(), Actor::Player(Player::Second), "Black decides about the attack");
    assert_eq!(game.on_turn(), Some(Player::First), "... in White's turn");
    // In the other games the turn is the acting player's.
    let mut lma = new_game("lma", None, 1, &BuiltinData).unwrap();
    assert_eq!(lma.on_turn(), Some(Player::First));
    lma.play("2b1c3").unwrap();
    assert_eq!(lma.on_turn(), Some(Player::Second));
}

/// A pass says what it declines, window by window; a discard names every
/// card it throws, however many (the page names them so too).
#[test]
fn lunch_passes_say_what_they_decline_and_discards_name_their_cards() {
    let mut game = new_game("lunch", Some(LUNCH_ATTACK), 1, &BuiltinData).unwrap();
    let mut said = Vec::new();
    // Black's window on the Kick, Black's answer, White's window on the Dodge.
    for text in ["attack:a4a5:kick", "pass", "answer:dodge"] {
        game.play(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        said.push(game.move_label("pass").unwrap());
    }
    assert_eq!(said, ["no Humiliation", "no answer", "no Humiliation"]);
    let five = "4k3/8/8/q7/R7/8/8/4K3 w - headbutt,uppercut,roundhouse,backfist,humiliation dodge - - - - - turn.action 0,0,0 0123456789abcdef - white";
    labels(
        "lunch",
        Some(five),
        &[(
            "discard:headbutt+uppercut+roundhouse+backfist+humiliation",
            "discard Headbutt, Uppercut, Roundhouse, Spinning Backfist, Humiliation",
        )],
    );
}
