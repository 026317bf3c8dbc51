//! Kelasu rules pinned on small hand-built positions: each piece's moves for
//! both colours, Recall, Conversion, merges, Energy and turn passing, and
//! the end of the game. The expected lists were worked out by hand from the
//! rules (docs/kelasu.md).

use menagerie_core::{Actor, Game, MoveError, Outcome, Player, Present};
use menagerie_games::kelasu::{Kelasu, KelasuVariant};

/// A position text from `"E4:W F5:b"` (upper case Blue, lower case Red)
/// and the rest of the text (`"blue 4 - 0 1"`).
fn build(pieces: &str, rest: &str) -> String {
    let mut grid = [[None::<char>; 10]; 10];
    for item in pieces.split_whitespace() {
        let (sq, piece) = item.split_once(':').unwrap();
        let b = sq.as_bytes();
        grid[(b[0] - b'A') as usize][(b[1] - b'0') as usize] = piece.chars().next();
    }
    let ranks: Vec<String> = grid
        .iter()
        .map(|row| {
            let mut s = String::new();
            let mut empty = 0;
            for cell in row {
                match cell {
                    None => empty += 1,
                    Some(c) => {
                        if empty > 0 {
                            s += &empty.to_string();
                            empty = 0;
                        }
                        s.push(*c);
                    }
                }
            }
            if empty > 0 {
                s += &empty.to_string();
            }
            s
        })
        .collect();
    format!("{} {rest}", ranks.join("/"))
}

fn game(text: &str) -> Kelasu {
    Kelasu::from_text(&KelasuVariant, text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn moves(g: &Kelasu) -> Vec<String> {
    let mut list = Vec::new();
    g.legal_moves(&mut list);
    let mut texts: Vec<String> = list.iter().map(|&m| g.move_text(m)).collect();
    texts.sort();
    texts
}

/// The legal actions starting with `prefix` (a square, or a merge letter).
fn moves_from(text: &str, prefix: &str) -> Vec<String> {
    moves(&game(text)).into_iter().filter(|m| m.starts_with(prefix)).collect()
}

fn play(g: &mut Kelasu, text: &str) {
    let mv = g.parse_move(text).unwrap_or_else(|e| panic!("{text} in {}: {e}", g.to_text()));
    g.play(mv);
}

fn list(s: &str) -> Vec<String> {
    s.split_whitespace().map(str::to_owned).collect()
}

#[test]
fn start_position() {
    let g = Kelasu::start(&KelasuVariant, 0);
    assert_eq!(g.to_text(), "BBBBBBBBBB/BBBBBBBBBB/S1S4S1S/10/10/10/10/s1s4s1s/bbbbbbbbbb/bbbbbbbbbb blue 4 - 0 1");
    assert_eq!(moves(&g), list("B1-C1 B3-C3 B4-C4 B5-C5 B6-C6 B8-C8"));
    assert_eq!(Kelasu::player_name(Player::First), "blue");
    assert_eq!(Kelasu::player_name(Player::Second), "red");
}

#[test]
fn blanks_step_forward_and_sideways_only() {
    let blue = build("A0:S J9:s E4:B D4:r", "blue 1 - 0 1");
    assert_eq!(moves_from(&blue, "E4"), list("E4-E3 E4-E5 E4-F4"));
    let red = build("A0:S J9:s E4:b F4:R E3:B", "red 1 - 0 1");
    assert_eq!(moves_from(&red, "E4"), list("E4-D4 E4-E5"));
}

#[test]
fn warrior_moves_and_captures() {
    // Blue: forward is towards J. Forward and sideways move or capture;
    // forward diagonals capture only; friends block.
    let blue = build("A0:S J9:s E4:W F4:b F5:b E5:B", "blue 1 - 0 1");
    assert_eq!(moves_from(&blue, "E4"), list("E4-E3 E4-F4 E4-F5"));
    // Red mirrored: forward is towards A.
    let red = build("A0:S J9:s F4:w E4:B E3:B", "red 1 - 0 1");
    assert_eq!(moves_from(&red, "F4"), list("F4-E3 F4-E4 F4-F3 F4-F5"));
}

#[test]
fn recall_jumps_home_capturing_an_enemy_blocked_by_a_friend() {
    let blue = build("A0:S J9:s J3:W A3:b J6:W A6:B J1:W G1:b", "blue 1 - 0 1");
    assert_eq!(moves_from(&blue, "J3"), list("J3-A3 J3-J2 J3-J4"), "Recall with capture");
    assert_eq!(moves_from(&blue, "J6"), list("J6-J5 J6-J7"), "a friend blocks the landing square");
    assert_eq!(moves_from(&blue, "J1"), list("J1-A1 J1-J0 J1-J2"), "Recall over pieces in between");
    let red = build("A0:S J9:s A5:w J5:B J6:b A6:w", "red 1 - 0 1");
    assert_eq!(moves_from(&red, "A5"), list("A5-A4 A5-J5"));
    assert_eq!(moves_from(&red, "A6"), list("A6-A7"));
    // Off the far rank there is no Recall.
    let not_far = build("A0:S J9:s I3:W J0:b", "blue 1 - 0 1");
    assert_eq!(moves_from(&not_far, "I3"), list("I3-I2 I3-I4 I3-J3"));
    let mut g = game(&blue);
    play(&mut g, "J3-A3");
    assert_eq!(g.to_text(), build("A0:S A3:W J9:s A6:B J1:W G1:b J6:W", "red 1 - 1 2"));
}

#[test]
fn runner_cannot_take_an_adjacent_piece() {
    let blue = build("A0:S J9:s E4:R F5:b C2:b B7:b F3:B", "blue 1 - 0 1");
    assert_eq!(moves_from(&blue, "E4"), list("E4-B7 E4-C2 E4-C6 E4-D3 E4-D5"));
    let red = build("A0:S J9:s E4:r D3:B G6:B", "red 1 - 0 1");
    assert_eq!(moves_from(&red, "E4"), list("E4-A8 E4-B7 E4-C6 E4-D5 E4-F3 E4-F5 E4-G2 E4-G6 E4-H1 E4-I0"));
}

#[test]
fn diplomat_moves_three_and_converts_diagonally() {
    let blue = build("A0:S J9:s E4:D F5:b D3:s G4:b E2:B D5:B", "blue 1 - 0 1");
    assert_eq!(moves_from(&blue, "E4"), list("E4-B4 E4-C4 E4-D3 E4-D4 E4-E3 E4-E5 E4-E6 E4-E7 E4-F4 E4-F5"));
    // Converting: the Diplomat goes, the target changes colour, fresh.
    let mut g = game(&build("A0:S A1:S J9:s H8:s J0:b G7:D C0:B", "blue 2 - 0 1"));
    play(&mut g, "G7-H8");
    assert_eq!(g.to_text(), build("A0:S A1:S J9:s H8:S J0:b C0:B", "blue 1 - 0 1"));
    // The converted Stone does not add Energy this turn; next turn it does.
    play(&mut g, "C0-D0");
    assert_eq!(g.to_act(), Actor::Player(Player::Second));
    assert_eq!(g.energy(), 1, "Red lost a Stone: 1 Energy");
    play(&mut g, "J0-I0");
    assert_eq!(g.to_act(), Actor::Player(Player::First));
    assert_eq!(g.energy(), 3, "Blue owns 3 Stones now");
    // A converted piece may act in the same turn.
    let mut g = game(&build("A0:S A1:S J9:s F5:w J0:b E4:D", "blue 2 - 0 1"));
    play(&mut g, "E4-F5");
    assert_eq!(moves(&g), list("F5-F4 F5-F6 F5-G5"));
}

#[test]
fn champion_is_asymmetric() {
    // Blue: forward ray and forward diagonals move/capture, sideways up to
    // 3 move/capture, backward ray move only.
    let blue = build("A0:S J9:s E4:C H4:b F5:B E3:b B4:b", "blue 1 - 0 1");
    assert_eq!(moves_from(&blue, "E4"), list("E4-C4 E4-D4 E4-E3 E4-E5 E4-E6 E4-E7 E4-F3 E4-F4 E4-G4 E4-H4"));
    let red = build("A0:S J9:s F4:c C4:B E5:b F3:B I4:B", "red 1 - 0 1");
    assert_eq!(moves_from(&red, "F4"), list("F4-C4 F4-D4 F4-E3 F4-E4 F4-F3 F4-F5 F4-F6 F4-F7 F4-G4 F4-H4"));
}

#[test]
fn general_is_a_queen() {
    let from_b2 = build("A0:S J9:s B2:G A2:B A1:b C2:b C1:B B3:B B1:B A3:B C3:B", "blue 1 - 0 1");
    assert_eq!(moves_from(&from_b2, "B2"), list("B2-A1 B2-C2"));
    // From E0: north 3 (A0 is a friend), south 5, east 9, north-east 2
    // (taking C2), south-east 5.
    let open = build("A0:S J9:s C2:b E0:G", "blue 1 - 0 1");
    assert_eq!(moves_from(&open, "E0").len(), 3 + 5 + 9 + 2 + 5);
}

#[test]
fn merges_use_connected_unspent_blanks_off_the_home_ranks() {
    // An S-tetromino: three pairs and one set of four; B3 is on a home rank.
    let s_shape = build("A0:S J9:s C3:B C4:B D4:B D5:B B3:B J5:w", "blue 1 - 0 1");
    let merges: Vec<String> = moves(&game(&s_shape)).into_iter().filter(|m| m.contains('@')).collect();
    assert_eq!(
        merges,
        list(
            "D@C3:C3,C4,D4,D5 D@C4:C3,C4,D4,D5 D@D4:C3,C4,D4,D5 D@D5:C3,C4,D4,D5 \
             R@C3:C3,C4,D4,D5 R@C4:C3,C4,D4,D5 R@D4:C3,C4,D4,D5 R@D5:C3,C4,D4,D5 \
             W@C3:C3,C4 W@C4:C3,C4 W@C4:C4,D4 W@D4:C4,D4 W@D4:D4,D5 W@D5:D4,D5"
        )
    );
    // A U of five: the four-sets must be connected by themselves, so only
    // the two that drop an end qualify.
    let u_shape = build("A0:S J9:s C3:B C4:B C5:B D3:B D5:B J5:w", "blue 4 - 0 1");
    assert_eq!(moves_from(&u_shape, "R@").len(), 2 * 4);
    assert_eq!(moves_from(&u_shape, "C@").len(), 5);
    let g = game(&u_shape);
    assert!(matches!(g.parse_move("R@C3:C3,C5,D3,D5"), Err(MoveError::Illegal { .. })));
    assert!(matches!(g.parse_move("W@C3:C3,C4,C5"), Err(MoveError::Illegal { .. })));
    assert!(matches!(g.parse_move("W@C5:C3,C4"), Err(MoveError::Illegal { .. })));
    assert!(matches!(g.parse_move("w@C3:C3,C4"), Err(MoveError::Syntax { .. })));
    assert!(matches!(g.parse_move("W@C4:C4,C3"), Err(MoveError::Syntax { .. })));
    assert!(matches!(g.parse_move("B@C3:C3"), Err(MoveError::Syntax { .. })));
    // Red's home ranks are I and J.
    let red = build("A0:S J9:s A5:W I3:b H3:b G3:b I4:b", "red 1 - 0 1");
    assert_eq!(moves_from(&red, "W@"), list("W@G3:G3,H3 W@H3:G3,H3"));
    // A spent Blank cannot merge.
    let mut g = game(&build("A0:S A1:S J9:s C3:B C4:B C6:B J5:w", "blue 2 - 0 1"));
    play(&mut g, "C6-C5");
    assert_eq!(moves(&g).iter().filter(|m| m.contains('@')).count(), 2, "only C3+C4 may merge");
    // The new piece is fresh: it may move in the same turn.
    play(&mut g, "W@C4:C3,C4");
    assert_eq!(g.to_text(), build("A0:S A1:S J9:s C4:W C5:B J5:w", "red 1 - 1 2"));
}

#[test]
fn a_merge_may_cost_more_than_the_energy_left() {
    let text = build("A0:S A1:S A2:S A3:S J9:s C3:B C4:B C5:B D3:B D5:B J5:w", "blue 4 - 0 1");
    let mid_turn = build("A0:S A1:S A2:S A3:S J9:s C3:B C4:B C5:B D3:B D5:B J5:w", "blue 3 - 0 1");
    let mut g = game(&mid_turn);
    play(&mut g, "R@C3:C3,C4,C5,D3");
    assert_eq!(g.to_text(), build("A0:S A1:S A2:S A3:S J9:s C3:R D5:B J5:w", "red 1 - 1 2"));
    let mut g = game(&text);
    play(&mut g, "C@C3:C3,C4,C5,D3,D5");
    assert_eq!(g.to_act(), Actor::Player(Player::Second), "Energy 0: the turn passes");
    assert_eq!(g.to_text(), build("A0:S A1:S A2:S A3:S J9:s C3:C J5:w", "red 1 - 1 2"));
}

#[test]
fn each_piece_acts_once_and_energy_runs_out() {
    let mut g = game(&build("A0:S A1:S J9:s E4:W E7:W J5:w", "blue 2 - 0 1"));
    play(&mut g, "E4-F4");
    assert_eq!(g.to_text(), build("A0:S A1:S J9:s F4:W E7:W J5:w", "blue 1 F4 0 1"));
    assert!(moves(&g).iter().all(|m| m.starts_with("E7")), "the spent Warrior cannot act again");
    play(&mut g, "E7-E8");
    assert_eq!(g.to_text(), build("A0:S A1:S J9:s F4:W E8:W J5:w", "red 1 - 1 2"));
}

#[test]
fn the_turn_passes_with_energy_left_when_no_action_remains() {
    let mut g = game(&build("A0:S A1:S A2:S A3:S J9:s E4:W J5:w", "blue 4 - 5 7"));
    play(&mut g, "E4-E5");
    assert_eq!(g.to_act(), Actor::Player(Player::Second));
    assert_eq!(g.to_text(), build("A0:S A1:S A2:S A3:S J9:s E5:W J5:w", "red 1 - 6 8"));
    g.undo();
    assert_eq!(g.to_text(), build("A0:S A1:S A2:S A3:S J9:s E4:W J5:w", "blue 4 - 5 7"));
}

#[test]
fn victory_tiles_win_mid_turn() {
    let mut g = game(&build("A0:S A1:S A2:S J9:s E4:B E5:B F4:W F6:B J5:w", "blue 3 - 0 1"));
    play(&mut g, "F6-F5");
    assert_eq!(g.outcome(), Some(Outcome::Win { winner: Player::First, reason: "holds all four Victory Tiles" }));
    assert_eq!(g.to_text(), build("A0:S A1:S A2:S J9:s E4:B E5:B F4:W F5:B J5:w", "blue 2 F5 0 1"));
    assert!(moves(&g).is_empty());
    // The final text parses back to a finished game.
    assert!(game(&g.to_text()).outcome().is_some());
    // Any piece of the mover counts, and only the mover's.
    let red_holds = build("A0:S J9:s E4:b E5:b F4:b F5:b J5:w A5:W", "blue 1 - 0 1");
    assert_eq!(game(&red_holds).outcome(), None);
}

#[test]
fn taking_the_last_stone_or_last_moving_piece_wins() {
    let mut g = game(&build("A0:S J9:s I9:W J5:w", "blue 1 - 0 1"));
    play(&mut g, "I9-J9");
    assert_eq!(g.outcome().and_then(|o| o.winner()), Some(Player::First));
    let mut g = game(&build("A0:S J9:s I5:W J5:w", "blue 1 - 0 1"));
    play(&mut g, "I5-J5");
    assert_eq!(g.outcome().and_then(|o| o.winner()), Some(Player::First));
    // Converting the opponent's last Stone with the mover's last moving
    // piece: both sides are left without something; the mover wins (rule 2
    // comes before rule 3).
    let mut g = game(&build("A0:S J9:s I8:D J5:w", "blue 1 - 0 1"));
    play(&mut g, "I8-J9");
    assert_eq!(g.outcome(), Some(Outcome::Win { winner: Player::First, reason: "the opponent has no Stones left" }));
}

#[test]
fn stalemate_at_the_start_of_a_turn_is_a_draw() {
    // Red's only Blank is walled in by its own Stones.
    let mut g = game(&build("A0:S J9:s I8:s J7:s J8:b E4:W", "blue 1 - 0 1"));
    play(&mut g, "E4-E5");
    assert_eq!(g.outcome(), Some(Outcome::Draw { reason: "stalemate: no legal action" }));
    assert!(moves(&g).is_empty());
    g.undo();
    assert_eq!(g.outcome(), None);
}

#[test]
fn the_quiet_counter_draws_at_128() {
    let mut g = game(&build("A0:S J9:s E4:W F8:w H0:b", "blue 1 - 127 300"));
    play(&mut g, "E4-E5");
    assert_eq!(g.outcome(), Some(Outcome::Draw { reason: "quiet counter reached 128" }));
    assert!(g.to_text().ends_with("red 1 - 128 301"));
    // A capture (or a Blank move, merge, conversion) resets it.
    let mut g = game(&build("A0:S J9:s E4:W F4:w F8:w", "blue 1 - 127 300"));
    play(&mut g, "E4-F4");
    assert_eq!(g.outcome(), None);
    assert!(g.to_text().ends_with("red 1 - 1 301"));
    // A text at 128 is already drawn.
    assert!(game(&build("A0:S J9:s E4:W F4:w", "blue 1 - 128 1")).outcome().is_some());
}

#[test]
fn fourfold_repetition_of_a_turn_start_draws() {
    let start = build("A0:S J9:s C4:W H4:w", "blue 1 - 0 1");
    let mut g = game(&start);
    let cycle = ["C4-C5", "H4-H5", "C5-C4", "H5-H4"];
    for round in 0..3 {
        for mv in cycle {
            assert_eq!(g.outcome(), None, "round {round}, before {mv}");
            play(&mut g, mv);
        }
    }
    // The start position has now stood at the start of a turn 4 times.
    assert_eq!(g.outcome(), Some(Outcome::Draw { reason: "fourfold repetition" }));
    g.undo();
    assert_eq!(g.outcome(), None);
}

#[test]
fn texts_round_trip_and_errors_say_where() {
    let text = build("A0:S J9:s C4:W H4:w C5:B", "blue 1 C4 3 17");
    assert_eq!(game(&text).to_text(), text);
    let bad = [
        ("", "whole text"),
        ("S9/10/10/10/10/10/10/10/10/9s green 1 - 0 1", "field 2"),
        ("S9/10/10/10/10/10/10/10/10/9s blue x - 0 1", "field 3"),
        ("S9/10/10/10/10/10/10/10/10/9s blue 1 A0 0 1", "field 4"),
        ("S9/10/10/10/10/10/10/10/10/9s blue 1 - 0 0", "field 6"),
        ("S9/10/10/10/10/10/10/10/9s blue 1 - 0 1", "field 1"),
        ("S9/10/10/10/10/10/10/10/10/8s blue 1 - 0 1", "rank J"),
        ("S9/10/10/10/4X5/10/10/10/10/9s blue 1 - 0 1", "rank E"),
        ("S9/10/10/10/11/10/10/10/10/9s blue 1 - 0 1", "rank E"),
    ];
    for (text, location) in bad {
        match Kelasu::from_text(&KelasuVariant, text) {
            Ok(_) => panic!("{text:?} should not parse"),
            Err(e) => assert!(e.to_string().contains(location), "{text:?}: {e}"),
        }
    }
    let g = game(&build("A0:S J9:s C4:W H4:w", "blue 1 - 0 1"));
    for malformed in ["", "C4", "C4-", "C4-K4", "C4-C44", "X@C4:C4", "W@C4", "W@C4:C4,,C5", "W@Z1:C4"] {
        assert!(matches!(g.parse_move(malformed), Err(MoveError::Syntax { .. })), "{malformed:?}");
    }
    for illegal in ["C4-C6", "H4-H3", "A0-A1", "C5-C6"] {
        assert!(matches!(g.parse_move(illegal), Err(MoveError::Illegal { .. })), "{illegal:?}");
    }
}

#[test]
fn view_json_names_squares_as_move_texts() {
    let g = game(&build("A0:S J9:s C4:W H4:w", "blue 1 C4 0 1"));
    let view = g.view_json(None);
    // Blue's one movable piece has acted: no action left, the game is drawn.
    assert_eq!(view["to_act"], serde_json::Value::Null);
    assert_eq!(view["result"], serde_json::json!({"winner": null, "reason": "stalemate: no legal action"}));
    assert_eq!(view["counters"], serde_json::json!({"turn": 1, "halfmove_clock": null, "quiet_turns": 0}));
    assert_eq!(view["energy"], 1);
    assert_eq!(view["spent"][0], "C4");
    assert_eq!(view["victory_tiles"].as_array().unwrap().len(), 4);
    let c4 = view["squares"].as_array().unwrap().iter().find(|s| s["square"] == "C4").unwrap();
    assert_eq!(c4["piece"], "W");
    assert_eq!(c4["colour"], "blue");
    assert_eq!(c4["spent"], true);
    let drawing = g.render(None);
    assert!(drawing.contains("W*") && drawing.contains("[. ]"), "{drawing}");
}
