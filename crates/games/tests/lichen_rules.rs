//! Lichen Chess rules through the public interface: whole turns played from
//! texts, outcomes, texts after each turn, and the errors for bad input.

use menagerie_core::{Game, MoveError, Outcome, Player, PositionError, Present};
use menagerie_games::lichen::{Lichen, LichenVariant};

const WIDE: LichenVariant = LichenVariant::WIDE;

fn at(text: &str) -> Lichen {
    Lichen::from_text(&WIDE, text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn play(game: &mut Lichen, moves: &[&str]) {
    for text in moves {
        let mv = game.parse_move(text).unwrap_or_else(|e| panic!("{text} in {}: {e}", game.to_text()));
        game.play(mv);
    }
}

fn illegal_reason(game: &Lichen, text: &str) -> String {
    match game.parse_move(text) {
        Err(MoveError::Illegal { reason, .. }) => reason,
        other => panic!("{text}: expected an illegal move, got {other:?}"),
    }
}

fn winner(game: &Lichen) -> Option<Player> {
    game.outcome().and_then(|o| o.winner())
}

#[test]
fn start_positions_are_the_rules_texts() {
    let wide = Lichen::start(&WIDE, 0);
    assert_eq!(
        wide.to_text(),
        ".[----B---][----B---k][----B---]./[--------]...[--------]/.[W-------][W-------K][W-------]. w 20 20"
    );
    let square = Lichen::start(&LichenVariant::SQUARE, 0);
    assert_eq!(square.to_text(), "[----B---][----B---k][----B---]/.../[W-------][W-------K][W-------] w 20 20");
}

#[test]
fn the_inventors_opening_colonizes_b3() {
    let mut game = Lichen::start(&WIDE, 0);
    play(&mut game, &["a2ne;a2*ne"]);
    assert_eq!(
        game.to_text(),
        ".[-W--B---][----B---k][----B---]./[-W------]...[--------]/.[W-------][W-------K][W-------]. b 18 20 1"
    );
}

#[test]
fn a_stone_move_carries_its_tokens_and_kingstone_mark() {
    let mut game = Lichen::start(&WIDE, 0);
    play(&mut game, &["c1e;c1>n"]);
    assert_eq!(
        game.to_text(),
        ".[----B---][----B---k][----B---]./[--------].[W-W-----K].[--------]/.[W-------].[W-------]. b 19 20 1"
    );
}

#[test]
fn a_winning_placement_is_the_whole_move_and_the_loser_is_to_move() {
    let mut game = at("..[W-W-B-B-k]../...../..[--------K].. w 3 3");
    let reason = illegal_reason(&game, "c3ne;c1>n");
    assert!(reason.contains("wins by itself"), "{reason}");
    play(&mut game, &["c3ne"]);
    assert_eq!(game.to_text(), "..[WWW-B-B-k]../...../..[--------K].. b 2 3 1");
    assert_eq!(game.outcome(), Some(Outcome::Win { winner: Player::First, reason: "controls the enemy kingstone" }));
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    assert!(moves.is_empty());
    assert_eq!(game.parse_move("c1n"), Err(MoveError::GameOver));
    game.undo();
    assert_eq!(game.outcome(), None);
}

#[test]
fn a_colonization_captures_and_can_win() {
    let mut game = at("..[-BW-B---k]../.[-W------].../..[--------K].. w 5 5");
    play(&mut game, &["c1n;b2*ne"]);
    // Black's ne token on c3 left the game; White's hand paid two tokens.
    assert_eq!(game.to_text(), "..[-WW-B---k]../.[-W------].../..[W-------K].. b 3 5");
    assert_eq!(winner(&game), Some(Player::First));
    assert_eq!(game.to_text().matches('B').count(), 1);
}

#[test]
fn colonizing_needs_a_token_left_after_the_placement() {
    let game = at("..[----B---k]../.[WW------][B-------]../..[W-------K].. w 1 5");
    assert!(illegal_reason(&game, "b2e;c1*n").contains("no token left in hand"));
    let with_two = at("..[----B---k]../.[WW------][B-------]../..[W-------K].. w 2 5");
    let mut game = with_two.clone();
    play(&mut game, &["b2e;c1*n"]);
    assert!(game.to_text().ends_with(" b 0 5"), "{}", game.to_text());
    // A slot already holding one's own token cannot be colonized.
    let own = at("..[----B---k]../.[WW------][W-------]../..[W-------K].. w 5 5");
    assert!(illegal_reason(&own, "b2e;c1*n").contains("already holds your token"));
}

#[test]
fn an_empty_hand_loses_unless_the_harvest_refills_it() {
    let mut game = at("..[----B---k]../.[WW------][B-------]../..[W-------K].. w 1 5");
    play(&mut game, &["b2e", "c2e"]);
    assert_eq!(game.outcome(), Some(Outcome::Win { winner: Player::Second, reason: "no token in hand to place" }));
    let refilled = at("[--------].[----B---k]../.[WWWWWWBB].../..[--------K].. w 0 5");
    assert_eq!(refilled.outcome(), None);
}

#[test]
fn the_harvest_empties_controlled_full_stones_own_kingstone_included() {
    let mut game = at("[--------].[----B---k]../...../..[WWWWWBBBK].. w 0 3");
    play(&mut game, &["a3n"]);
    // 5 White tokens came back (one was placed), Black's 3 left the game.
    assert_eq!(game.to_text(), "[W-------].[----B---k]../...../..[--------K].. b 4 3");
    // Now one Black token on the empty kingstone wins.
    play(&mut game, &["c1se"]);
    assert_eq!(winner(&game), Some(Player::Second));
    // Only the mover harvests: Black's full stone waits for Black's turn.
    let mut game = at("[--------].[BBBBBBBBk]../...../..[--------K].. w 4 0");
    play(&mut game, &["a3n"]);
    assert!(game.to_text().starts_with("[W-------].[BBBBBBBBk]"), "{}", game.to_text());
    play(&mut game, &["c1n"]);
    assert!(game.to_text().ends_with(" w 3 7"), "{}", game.to_text());
}

#[test]
fn slots_pointing_off_the_board_count_but_allow_no_act() {
    let game = at("..[----B---k]../...../[----WWW-].[--------K].. w 4 4");
    assert!(illegal_reason(&game, "c1n;a1>w").contains("points off the board"));
    assert!(illegal_reason(&game, "c1n;a1*s").contains("points off the board"));
    // a1 is White's through those slots: a Black placement there only ties it.
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let texts: Vec<String> = moves.iter().map(|&m| game.move_text(m)).collect();
    assert!(texts.contains(&"a1n;a1>n".to_string()));
    assert!(!texts.iter().any(|t| t.contains(";a1>s") || t.contains(";a1>w") || t.contains(";a1*sw")));
}

#[test]
fn control_for_the_act_is_judged_after_the_placement() {
    let game = Lichen::start(&WIDE, 0);
    // a2 is empty before the placement, White's after it.
    assert!(game.parse_move("a2n;a2>n").is_ok());
    assert!(illegal_reason(&game, "a2e;a2>n").contains("no token of yours in slot n"));
    // A placement on Black's b3 only ties it.
    assert!(illegal_reason(&game, "b3n;b3>n").contains("do not control"));
}

/// Each side fills its own kingstone in 8 turns and harvests it on the 9th:
/// the position after the first round comes back every 16 turns, and its
/// third occurrence is a draw.
#[test]
fn the_third_occurrence_of_a_position_is_a_draw() {
    let mut game = at("[--------k]..../...../....[--------K] w 8 8");
    let slots = ["n", "ne", "e", "se", "s", "sw", "w", "nw"];
    let mut turns = Vec::new();
    for _ in 0..3 {
        for slot in slots {
            turns.push(format!("e1{slot}"));
            turns.push(format!("a3{slot}"));
        }
    }
    // The same stones, tokens, hands and player to move: the count of
    // quiet turns (the text's fifth field) is not part of the position.
    let repeated = "[B-------k]..../...../....[W-------K] w 7 7";
    let mut seen = 0;
    for (ply, text) in turns.iter().enumerate() {
        play(&mut game, &[text.as_str()]);
        let text_now = game.to_text();
        let position: Vec<&str> = text_now.split(' ').take(4).collect();
        if position.join(" ") == repeated {
            seen += 1;
        }
        if seen == 3 {
            assert_eq!(ply + 1, 34);
            assert_eq!(game.outcome(), Some(Outcome::Draw { reason: "third occurrence of the same position" }));
            game.undo();
            game.play(game.parse_move(text).unwrap());
            assert!(game.outcome().is_some());
            return;
        }
        assert_eq!(game.outcome(), None, "after {text} (ply {})", ply + 1);
    }
    panic!("the position came back only {seen} times");
}

#[test]
fn bad_position_texts_say_what_is_wrong() {
    let err = |text: &str| Lichen::from_text(&WIDE, text).unwrap_err().to_string();
    assert!(err("..[----B---]../...../..[--------K].. w 3 3").contains("exactly one `k`"));
    assert!(matches!(
        Lichen::from_text(&WIDE, "..[----B---k]../...../..[--------K].[--------K] w 3 3"),
        Err(PositionError::Invalid(_))
    ));
    assert!(err("..[----B---k]../..../..[--------K].. w 3 3").contains("rank 2"));
    assert!(err("..[----X---k]../...../..[--------K].. w 3 3").contains("rank 3, file c"));
    assert!(err("..[----B---k]../...../..[--------K].. x 3 3").contains("to move"));
    assert!(err("..[----B---k]../...../..[--------K].. w 03 3").contains("White's hand"));
    assert!(err("..[----B---k]../...../..[--------K].. w 3 3 0 0").contains("4 or 5 fields"));
    assert!(err("..[----B---k]../...../..[--------K]..  w 3 3").contains("to move"), "a double space is no field");
    assert!(err("..[----B---k]../...../..[--------Kk].. w 3 3").contains("rank 1, file c"));
    assert!(Lichen::from_text(&LichenVariant::SQUARE, "..[----B---k]../...../..[--------K].. w 3 3").is_err());
}

#[test]
fn bad_move_texts_say_what_is_wrong() {
    let game = Lichen::start(&WIDE, 0);
    let syntax = |text: &str| match game.parse_move(text) {
        Err(MoveError::Syntax { problem, .. }) => problem,
        other => panic!("{text}: expected a syntax error, got {other:?}"),
    };
    assert!(syntax("f1n").contains("square"));
    assert!(syntax("a2up").contains("slot"));
    assert!(syntax("a2n;a2n").contains("stone move"));
    assert!(syntax("a2n;a2>x").contains("direction"));
    assert!(syntax("").contains("square"));
    assert!(illegal_reason(&game, "a1n").contains("no stone on a1"));
    assert!(illegal_reason(&game, "c1n").contains("not empty"));
    assert!(illegal_reason(&game, "a2n;b2>n").contains("no stone on b2"));
    assert!(illegal_reason(&game, "a2n;c1*n").contains("no stone on c2"));
}

#[test]
fn render_and_json_show_stones_hands_and_turn() {
    let game = Lichen::start(&WIDE, 0);
    let drawing = game.render(None);
    assert!(drawing.contains(" . K . "), "{drawing}");
    assert!(drawing.contains("hands: white 20, black 20"));
    assert!(drawing.contains("white to move"));
    let view = game.view_json(None);
    assert_eq!(view["to_act"], "white");
    assert_eq!(view["counters"]["quiet_turns"], 0);
    assert_eq!(view["hands"]["black"], 20);
    assert_eq!(view["squares"].as_array().unwrap().len(), 15);
    let stones = view["stones"].as_array().unwrap();
    assert_eq!(stones.len(), 8);
    let c1 = stones.iter().find(|s| s["square"] == "c1").unwrap();
    assert_eq!(c1["kingstone"], "white");
    assert_eq!(c1["controller"], "white");
    assert_eq!(c1["slots"]["n"], "white");
    assert!(c1["slots"]["s"].is_null());
    let a2 = stones.iter().find(|s| s["square"] == "a2").unwrap();
    assert!(a2["controller"].is_null());
}

/// Positions for the draw checks: every fourth turn of a few seeded random
/// games (most stones contested by then), while the game goes on.
fn positions_from_random_play(variant: LichenVariant, seed: u64) -> Vec<Lichen> {
    use rand::{rngs::StdRng, SeedableRng};
    let mut rng = StdRng::seed_from_u64(seed);
    let mut found = Vec::new();
    for _ in 0..2 {
        let mut game = Lichen::start(&variant, 0);
        let mut scratch = Vec::new();
        for turn in 0.. {
            if turn % 4 == 0 && game.outcome().is_none() {
                found.push(game.clone());
            }
            let Some(mv) = game.random_move(&mut rng, &mut scratch) else { break };
            game.play(mv);
        }
    }
    found
}

#[test]
fn random_moves_are_legal_and_uniform_in_played_positions() {
    for (variant, seed) in [(WIDE, 11), (LichenVariant::SQUARE, 12)] {
        for (i, game) in positions_from_random_play(variant, seed).iter().enumerate() {
            let moves = game.count_legal_moves(&mut Vec::new()) as u32;
            // About 20 draws a move keeps the chi-square test sharp.
            menagerie_core::testing::assert_random_moves_uniform(game, 20 * moves, seed + i as u64);
        }
    }
}

#[test]
fn random_moves_are_uniform_with_wins_ties_and_without_colonizations() {
    let texts = [
        // Black's kingstone one token from White's control: its placements win outright.
        (WIDE, ".[BWWW-BB-k].[WWWWWBWW]./[--W-----].[W-------]../..[W---W---K].[--------] w 5 3"),
        // White holds a single token: placing it leaves none to colonize with.
        (
            LichenVariant::SQUARE,
            "[-B--B---][B---B---k][----B---]/[-W------].[W-------]/[W-------][WW------K][W-------] w 1 9",
        ),
        // Black to move, tied stones everywhere.
        (
            LichenVariant::SQUARE,
            "[W---B---][WB------k][-----BW-]/[B-W-----][--------][-W-B----]/[W-B-----][B---W---K][-W-B----] b 4 4",
        ),
        // A colonization that captures, and steps.
        (WIDE, "..[----B---k]../.[W-W-----][--B-----][WW------]./..[W-------K].. w 9 9"),
        // Colonizations of empty slots, which a placement there blocks (a
        // blocked pair drawn must not stand for another move), and empty
        // stones that one placement brings under control.
        (WIDE, "..[--------k]../.[-WWW----][--------]../..[--------K].. w 9 9"),
    ];
    for (i, (variant, text)) in texts.into_iter().enumerate() {
        let game = Lichen::from_text(&variant, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        let moves = game.count_legal_moves(&mut Vec::new()) as u32;
        // Few moves: many draws each, so that one move drawn twice as often shows.
        menagerie_core::testing::assert_random_moves_uniform(&game, 200 * moves, 100 + i as u64);
    }
}
