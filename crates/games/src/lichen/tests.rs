//! Unit tests that need the inside of the position: a plain reference move
//! generator checked against the fast one and the bulk count, and the
//! quiet-turn counter (which no real game can run up to 200, see below).

use super::*;
use menagerie_core::{testing, Encode, Player};
use rand::rngs::StdRng;
use rand::SeedableRng;
use std::collections::HashSet;

/// The rules read literally: every placement on a copy of the board, then
/// every act judged on that copy.
fn reference_moves(board: &Board) -> HashSet<Move> {
    let g = board.geometry;
    let mover = board.to_move;
    let mut moves = HashSet::new();
    for square in g.all_squares().filter(|&s| board.has_stone(s)) {
        for slot in Direction::all().filter(|d| board.empty_slots(square) & d.bit() != 0) {
            let mut placed = *board;
            placed.place(square, slot);
            assert!(moves.insert(Move { square, slot, act: Act::Pass }));
            if placed.controls_enemy_kingstone(mover) {
                continue;
            }
            for from in g.all_squares().filter(|&s| placed.has_stone(s) && placed.controls(mover, s)) {
                for dir in Direction::all().filter(|d| placed.slots(mover, from) & d.bit() != 0) {
                    let Some(target) = g.step(from, dir) else { continue };
                    let act = if !placed.has_stone(target) {
                        Act::Step { from, dir }
                    } else if placed.hand[mover.index()] >= 1 && placed.slots(mover, target) & dir.bit() == 0 {
                        Act::Colonize { from, dir }
                    } else {
                        continue;
                    };
                    assert!(moves.insert(Move { square, slot, act }));
                }
            }
        }
    }
    moves
}

fn check_against_reference(game: &Lichen) {
    if game.outcome().is_some() {
        return;
    }
    let board = game.harvested();
    let mut moves = Vec::new();
    movegen::generate(&board, &mut moves);
    let listed: HashSet<Move> = moves.iter().copied().collect();
    assert_eq!(listed.len(), moves.len(), "duplicate moves in {}", game.to_text());
    let expected = reference_moves(&board);
    assert_eq!(listed, expected, "move lists differ in {}", game.to_text());
    // The listing the Python package numbers: the same moves, in action order.
    let mut by_action = Vec::new();
    movegen::generate_by_action(&board, &mut by_action);
    assert_eq!(by_action.len(), moves.len(), "generate_by_action lists another number of moves in {}", game.to_text());
    assert_eq!(by_action.iter().copied().collect::<HashSet<Move>>(), expected, "in {}", game.to_text());
    let actions: Vec<usize> = by_action.iter().map(|&mv| game.action(mv)).collect();
    assert!(actions.is_sorted(), "generate_by_action lists out of action order in {}", game.to_text());
    assert_eq!(movegen::count(&board), expected.len() as u64, "count differs in {}", game.to_text());
    // Random playouts draw an index into the groups of moves and draw again
    // on a blocked pair: uniform when each legal move has exactly one index.
    let indexed: Vec<Move> = movegen::indexed(&board).into_iter().flatten().collect();
    assert_eq!(indexed.len(), expected.len(), "a move with two indices in {}", game.to_text());
    assert_eq!(indexed.into_iter().collect::<HashSet<Move>>(), expected, "indexed moves differ in {}", game.to_text());
    let mut scratch = Vec::new();
    let mut rng = StdRng::seed_from_u64(moves.len() as u64);
    let drawn = movegen::random(&board, &mut rng, &mut scratch).expect("a move to draw");
    assert!(expected.contains(&drawn), "{drawn:?} drawn in {}", game.to_text());
    // The fallback draws the move at an index drawn uniformly below the count.
    let seed = moves.len() as u64;
    let expected = moves[StdRng::seed_from_u64(seed).random_range(0..moves.len())];
    let drawn = movegen::random_listed(&board, &mut StdRng::seed_from_u64(seed), &mut scratch);
    assert_eq!(drawn, Some(expected), "in {}", game.to_text());
}

#[test]
fn fast_generation_and_count_match_the_reference_in_random_games() {
    for variant in [LichenVariant::WIDE, LichenVariant::SQUARE] {
        let mut rng = StdRng::seed_from_u64(5);
        let mut moves = Vec::new();
        for _ in 0..60 {
            let mut game = Lichen::start(&variant, 0);
            while let Some(mv) = testing::random_move(&game, &mut moves, &mut rng) {
                check_against_reference(&game);
                game.play(mv);
            }
        }
    }
}

#[test]
fn fast_generation_matches_the_reference_in_crafted_positions() {
    let texts = [
        // Black's kingstone one token from White's control; a full stone for White to harvest.
        ".[BWWW-BB-k].[WWWWWBWW]./[--W-----].[W-------]../..[W---W---K].[--------] w 5 3",
        // White holds a single token: placing it leaves none to colonize with.
        "[-B--B---][B---B---k][----B---]/[-W------].[W-------]/[W-------][WW------K][W-------] w 1 9",
        // Black to move, tied stones everywhere.
        "[W---B---][WB------k][-----BW-]/[B-W-----][--------][-W-B----]/[W-B-----][B---W---K][-W-B----] b 4 4",
        // Colonizations of empty slots (blocked by a placement there), an empty enemy kingstone.
        "..[--------k]../.[-WWW----][--------]../..[--------K].. w 9 9",
    ];
    let variants = [LichenVariant::WIDE, LichenVariant::SQUARE, LichenVariant::SQUARE, LichenVariant::WIDE];
    for (text, variant) in texts.iter().zip(variants) {
        let game = Lichen::from_text(&variant, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        check_against_reference(&game);
    }
}

/// Every quiet turn puts at least one token on the board and none leaves
/// it, and a 5x3 board holds at most 15 x 8 = 120 tokens, so the 200-turn
/// draw cannot come from play: a game stalls (and the player who cannot
/// place loses) first. The counter itself is checked here by setting it in
/// the position text.
#[test]
fn the_two_hundredth_quiet_turn_draws_but_a_win_on_it_stands() {
    let variant = LichenVariant::WIDE;
    let quiet = "[--------].[--------k]../...../..[--------K].. w 20 20";
    let mut game = Lichen::from_text(&variant, &format!("{quiet} {}", QUIET_TURN_LIMIT - 2)).unwrap();
    game.play(game.parse_move("a3n").unwrap());
    assert_eq!(game.quiet_turns(), QUIET_TURN_LIMIT - 1);
    assert_eq!(game.outcome(), None);
    game.play(game.parse_move("a3s").unwrap());
    assert_eq!(game.quiet_turns(), QUIET_TURN_LIMIT);
    assert_eq!(game.outcome().map(|o| o.winner()), Some(None), "the 200th quiet turn draws");
    // The text carries the counter, so the game read back from it is over too.
    let text = game.to_text();
    assert!(text.ends_with(&format!(" {QUIET_TURN_LIMIT}")), "{text}");
    assert_eq!(Lichen::from_text(&variant, &text).unwrap().outcome(), game.outcome());
    game.undo();
    assert_eq!(game.outcome(), None);

    // White's placement on Black's empty kingstone wins on the 200th turn.
    let mut game = Lichen::from_text(&variant, &format!("{quiet} {}", QUIET_TURN_LIMIT - 1)).unwrap();
    game.play(game.parse_move("c3n").unwrap());
    assert_eq!(game.outcome().and_then(|o| o.winner()), Some(Player::First));
}

#[test]
fn a_harvest_or_a_capture_resets_the_quiet_counter() {
    let variant = LichenVariant::WIDE;
    // White harvests b2 (full, 7 to 1) at the start of the turn.
    let mut game =
        Lichen::from_text(&variant, "[--------].[--------k]../.[WWWWWWWB].../..[--------K].. w 3 20 50").unwrap();
    assert_eq!(game.quiet_turns(), 50);
    game.play(game.parse_move("a3n").unwrap());
    assert_eq!(game.quiet_turns(), 0);
    assert!(game.to_text().starts_with("[W-------].[--------k]../.[--------]..."), "{}", game.to_text());
    assert!(game.to_text().ends_with(" b 9 20"), "a count of 0 is not written: {}", game.to_text());
    // A colonization capturing a token.
    let mut game =
        Lichen::from_text(&variant, "[--------].[--------k]../.[W-W-----][--B-----]../..[--------K].. w 5 20 50")
            .unwrap();
    game.play(game.parse_move("a3n;b2*e").unwrap());
    assert_eq!(game.quiet_turns(), 0);
    assert!(game.to_text().contains("[W-W-----][--W-----]"), "{}", game.to_text());
    game.undo();
    assert_eq!(game.quiet_turns(), 50);
    game.play(game.parse_move("a3n").unwrap());
    assert_eq!(game.quiet_turns(), 51);
    assert!(game.to_text().ends_with(" b 4 20 51"), "{}", game.to_text());
}

/// The fifth field is optional (a four-field text means 0 quiet turns),
/// canonical and at most the limit.
#[test]
fn the_quiet_turns_field_is_optional_and_bounded() {
    let variant = LichenVariant::WIDE;
    let board = "[--------].[--------k]../...../..[--------K].. w 20 20";
    assert_eq!(Lichen::from_text(&variant, board).unwrap().quiet_turns(), 0);
    let zero = Lichen::from_text(&variant, &format!("{board} 0")).unwrap();
    assert_eq!((zero.quiet_turns(), zero.to_text()), (0, board.to_owned()));
    assert_eq!(Lichen::from_text(&variant, &format!("{board} 17")).unwrap().to_text(), format!("{board} 17"));
    for bad in ["017", "-1", "x", "201", "99999999999"] {
        let error = Lichen::from_text(&variant, &format!("{board} {bad}")).unwrap_err().to_string();
        assert!(error.contains("field 5 (quiet turns)"), "{bad}: {error}");
    }
    assert!(Lichen::from_text(&variant, &format!("{board} 1 2")).is_err());
}

/// Every turn copies an undo record: at 128 bytes the copy is inline
/// instead of a call to `memcpy` (and a board takes no padding).
#[test]
fn an_undo_record_takes_128_bytes() {
    assert_eq!(std::mem::size_of::<Earlier>(), 128);
}
