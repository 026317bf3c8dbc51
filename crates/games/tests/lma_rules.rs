//! LMA Chess rules pinned by examples: texts, rejected positions, move
//! errors, draws, check display, rendering and the JSON view.

use menagerie_core::{perft, Game, MoveError, Outcome, Player, PositionError, Present, VariantSpec};
use menagerie_games::lma::{Lma, LmaVariant};

const START: &str = "rcqkcr/pppppp/6/6/6/6/6|6/6/6/6/6/PPPPPP/RCQKCR w KQkq 0 1";
const KINGS: &str = "k5/6/6/6/6/6/6|6/6/6/6/6/6/5K w - 0 1";

fn variant(id: &str) -> LmaVariant {
    Lma::parse_variant(&VariantSpec::parse(id).unwrap()).unwrap()
}

fn lma(text: &str) -> Lma {
    Lma::from_text(&variant("lma"), text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn moves(game: &Lma) -> Vec<String> {
    let mut list = Vec::new();
    game.legal_moves(&mut list);
    let mut texts: Vec<String> = list.into_iter().map(|m| game.move_text(m)).collect();
    texts.sort();
    texts
}

fn play(game: &mut Lma, texts: &[&str]) {
    for text in texts {
        let mv = game.parse_move(text).unwrap_or_else(|e| panic!("{text} in {}: {e}", game.to_text()));
        game.play(mv);
    }
}

#[test]
fn start_positions_and_first_moves() {
    let game = Lma::start(&variant("lma"), 0);
    assert_eq!(game.to_text(), START);
    let double = Lma::start(&variant("lma-double"), 0);
    assert_eq!(double.to_text(), "rcqkcr/pppppp/6/6/6/PPPPPP/RCQ1CR|rcq1cr/pppppp/6/6/6/PPPPPP/RCQKCR w KQkq 0 1");
    // Each pawn: one step (to board 1) or two (board 2); the cardinals'
    // leaps to a3/c3/d3/f3 land on board 1.
    assert_eq!(
        moves(&game),
        [
            "2a2a3", "2a2a4", "2b1a3", "2b1c3", "2b2b3", "2b2b4", "2c2c3", "2c2c4", "2d2d3", "2d2d4", "2e1d3", "2e1f3",
            "2e2e3", "2e2e4", "2f2f3", "2f2f4"
        ]
    );
}

#[test]
fn moves_land_on_the_board_the_colour_rule_says() {
    let mut game = Lma::start(&variant("lma"), 0);
    play(&mut game, &["2b1c3"]);
    assert_eq!(game.to_text(), "rcqkcr/pppppp/6/6/2C3/6/6|6/6/6/6/6/PPPPPP/R1QKCR b KQkq 1 1");
    play(&mut game, &["1a6a4"]);
    assert!(game.to_text().starts_with("rcqkcr/1ppppp/6/p5/2C3/6/6|"), "{}", game.to_text());
    play(&mut game, &["2a2a3"]);
    assert!(game.to_text().ends_with("|6/6/6/6/6/1PPPPP/R1QKCR b KQkq 0 2"), "{}", game.to_text());
    assert!(game.to_text().contains("6/p5/P1C3/6/6|"), "{}", game.to_text());
}

#[test]
fn castling_moves_the_rook_by_the_move_rule() {
    let mut game = lma("r2k1r/6/6/6/6/6/6|6/6/6/6/6/6/R2K1R w KQkq 0 1");
    play(&mut game, &["2d1f1"]);
    assert_eq!(game.to_text(), "r2k1r/6/6/6/6/6/4R1|6/6/6/6/6/6/R4K b kq 1 1");
    // The rook on 1e1 now attacks 1e7, which Black's king would cross.
    assert!(!moves(&game).contains(&"1d7f7".to_owned()));
    play(&mut game, &["1d7b7"]);
    assert_eq!(game.to_text(), "1kr2r/6/6/6/6/6/4R1|6/6/6/6/6/6/R4K w - 2 2");
    let mut black = lma("r2k1r/6/6/6/6/6/6|6/6/6/6/6/6/R2K1R b KQkq 0 1");
    play(&mut black, &["1d7f7"]);
    assert_eq!(black.to_text(), "r4k/6/6/6/6/6/6|4r1/6/6/6/6/6/R2K1R w KQ 1 2");
}

#[test]
fn castling_rights_without_their_pieces_are_dropped() {
    let game = lma("3k2/6/6/6/6/6/6|6/6/6/6/6/6/3K1R w KQkq 0 1");
    assert_eq!(game.to_text(), "3k2/6/6/6/6/6/6|6/6/6/6/6/6/3K1R w K 0 1");
    assert!(moves(&game).contains(&"2d1f1".to_owned()));
}

#[test]
fn losing_castling_rights() {
    // A rook move gives up its side; the rook landing back does not restore it.
    let mut game = lma("r2k1r/6/6/6/6/6/6|6/6/6/6/6/6/R2K1R w KQkq 0 1");
    play(&mut game, &["2a1a3"]);
    assert!(game.to_text().ends_with(" b Kkq 1 1"), "{}", game.to_text());
    // Capturing the rook on its home square takes the right away too.
    let mut game = lma("r2k1r/6/6/6/6/6/6|5r/6/6/6/6/6/R2K1R b KQkq 0 1");
    play(&mut game, &["2f7f1"]);
    assert!(game.to_text().ends_with(" w Qkq 0 2"), "{}", game.to_text());
}

#[test]
fn off_colour_captures_are_locust_captures() {
    // The rook takes the pawn on 2a2 and lands on 1a2; the cardinal on 2b1
    // is shielded by the pawn on its twin 1b1.
    let mut game = lma("k5/6/6/6/6/6/1P4|6/6/6/6/6/p5/Rc3K w - 0 1");
    assert!(!moves(&game).contains(&"2a1b1".to_owned()));
    play(&mut game, &["2a1a2"]);
    assert_eq!(game.to_text(), "k5/6/6/6/6/R5/1P4|6/6/6/6/6/6/1c3K b - 0 1");
}

#[test]
fn promotions() {
    let game = lma("3k2/6/6/6/6/6/6|1r4/P5/6/6/6/6/5K w - 0 1");
    let list = moves(&game);
    for text in ["2a6a7q", "2a6a7r", "2a6a7c", "2a6b7q", "2a6b7r", "2a6b7c"] {
        assert!(list.contains(&text.to_owned()), "{text} missing from {list:?}");
    }
    let mut promoted = game.clone();
    play(&mut promoted, &["2a6a7c"]);
    // The off-colour step lands on board 1.
    assert_eq!(promoted.to_text(), "C2k2/6/6/6/6/6/6|1r4/6/6/6/6/6/5K b - 0 1");
    match game.parse_move("2a6a7") {
        Err(MoveError::Illegal { reason, .. }) => assert!(reason.contains("must promote"), "{reason}"),
        other => panic!("{other:?}"),
    }
    match game.parse_move("2f1e1q") {
        Err(MoveError::Illegal { reason, .. }) => assert!(reason.contains("not a promotion"), "{reason}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn falling_through_an_attacked_square_is_refused() {
    let game = lma("k5/6/6/6/6/6/6|6/6/6/5r/2K3/6/6 w - 0 1");
    assert_eq!(moves(&game), ["2c3b2", "2c3b3", "2c3c2", "2c3d2", "2c3d3"]);
}

#[test]
fn a_piece_on_the_twin_square_blocks_an_off_colour_check() {
    // The black rook on 2d4 attacks 2d1 from three squares away (other
    // colour), which needs 1d1 empty: with a White pawn there, no check.
    let shielded = lma("k5/6/6/6/6/6/3R2|6/6/6/3r2/6/6/3K2 w - 0 1");
    assert!(!shielded.in_check());
    // The shielding rook may leave only to 2d2, between the rook and the
    // king (every other move uncovers the check).
    let rook_moves: Vec<String> = moves(&shielded).into_iter().filter(|m| m.starts_with("1d1")).collect();
    assert_eq!(rook_moves, ["1d1d2"]);
    let open = lma("3k2/6/6/6/6/6/6|6/6/6/3r2/6/6/3K2 w - 0 1");
    assert!(open.in_check());
    // Moving a piece onto 1d1 is an answer to the check: the cardinal on
    // 1e2 steps there diagonally (same colour, same board).
    let answer = lma("3k2/6/6/6/6/4C1/6|6/6/6/3r2/6/6/3K2 w - 0 1");
    assert!(answer.in_check());
    let cardinal: Vec<String> = moves(&answer).into_iter().filter(|m| m.starts_with("1e2")).collect();
    assert_eq!(cardinal, ["1e2d1"]);
}

#[test]
fn checkmate_stalemate_and_their_outcomes() {
    let mate = lma("k5/1Q4/2K3/6/6/6/6|6/6/6/6/6/6/6 b - 0 1");
    assert!(mate.in_check());
    assert_eq!(mate.outcome(), Some(Outcome::Win { winner: Player::First, reason: "checkmate" }));
    assert!(moves(&mate).is_empty());
    let stalemate = lma("k5/2Q3/6/6/6/6/5K|6/6/6/6/6/6/6 b - 0 1");
    assert!(!stalemate.in_check());
    assert_eq!(stalemate.outcome(), Some(Outcome::Draw { reason: "stalemate" }));
    // A mate on the hundredth quiet ply is still a mate.
    let late_mate = lma("k5/1Q4/2K3/6/6/6/6|6/6/6/6/6/6/6 b - 100 80");
    assert_eq!(late_mate.outcome().unwrap().reason(), "checkmate");
}

#[test]
fn fifty_move_rule() {
    let mut game = lma("3k2/6/6/6/6/6/6|6/6/6/6/6/P5/R4K w - 99 60");
    assert_eq!(game.outcome(), None);
    play(&mut game, &["2f1f2"]);
    assert_eq!(game.outcome(), Some(Outcome::Draw { reason: "fifty-move rule" }));
    assert!(moves(&game).is_empty());
    assert_eq!(game.parse_move("1d7d6"), Err(MoveError::GameOver));
    game.undo();
    play(&mut game, &["2a2a3"]);
    assert_eq!(game.outcome(), None);
    assert!(game.to_text().ends_with(" b - 0 60"), "{}", game.to_text());
}

#[test]
fn threefold_repetition_counts_from_the_given_position() {
    let mut game = lma(KINGS);
    let shuffle = ["2f1e2", "1a7b6", "2e2f1", "1b6a7"];
    play(&mut game, &shuffle);
    assert_eq!(game.outcome(), None, "two occurrences are not a draw");
    play(&mut game, &shuffle[..3]);
    assert_eq!(game.outcome(), None);
    play(&mut game, &shuffle[3..]);
    assert_eq!(game.outcome(), Some(Outcome::Draw { reason: "threefold repetition" }));
    assert!(moves(&game).is_empty());
}

/// Walks every line to `depth` and checks, with its own bookkeeping, that a
/// position is over by repetition exactly when it occurred three times.
fn check_repetitions(game: &mut Lma, path: &mut Vec<String>, depth: u32) {
    let text = game.to_text();
    let key: String = text.split(' ').take(3).collect::<Vec<_>>().join(" ");
    let seen = path.iter().filter(|k| **k == key).count() + 1;
    let list = {
        let mut l = Vec::new();
        game.legal_moves(&mut l);
        l
    };
    if seen >= 3 {
        assert!(list.is_empty(), "{text} occurred three times but has moves");
        let reason = game.outcome().unwrap().reason();
        assert!(["threefold repetition", "checkmate", "stalemate"].contains(&reason), "{text}: {reason}");
        return;
    }
    if list.is_empty() {
        let reason = game.outcome().unwrap().reason();
        assert!(["checkmate", "stalemate"].contains(&reason), "{text} is over ({reason}) after {seen} occurrences");
        return;
    }
    if depth == 0 {
        return;
    }
    path.push(key);
    for mv in list {
        game.play(mv);
        check_repetitions(game, path, depth - 1);
        game.undo();
    }
    path.pop();
}

#[test]
fn repetition_is_found_on_every_line() {
    let mut kings = lma(KINGS);
    check_repetitions(&mut kings, &mut Vec::new(), 8);
    assert_eq!(perft::perft(&mut kings, 9), 2785661);
}

#[test]
fn positions_are_rejected_with_reasons() {
    let v = variant("lma");
    let err = |text: &str| Lma::from_text(&v, text).unwrap_err();
    assert!(
        matches!(err("3k2/6/6/6/6/6/6|6/6/6/6/6/6/3K1K w - 0 1"), PositionError::Invalid(r) if r.contains("White must have exactly one king"))
    );
    assert!(matches!(err("6/6/6/6/6/6/6|6/6/6/6/6/6/3K2 w - 0 1"), PositionError::Invalid(r) if r.contains("Black")));
    // Black to move would be fine; White to move means Black stands in check.
    assert!(Lma::from_text(&v, "k5/1Q4/2K3/6/6/6/6|6/6/6/6/6/6/6 b - 0 1").is_ok());
    assert!(
        matches!(err("k5/1Q4/2K3/6/6/6/6|6/6/6/6/6/6/6 w - 0 1"), PositionError::Invalid(r) if r.contains("in check"))
    );
    let syntax = |text: &str| match err(text) {
        PositionError::Syntax { location, problem } => format!("{location}: {problem}"),
        other => panic!("{other:?}"),
    };
    assert!(syntax("k5/6/6/6/6/6/6|6/6/6/6/6/6/5K w - 0").starts_with("whole text"));
    assert!(syntax("k5/6/6/6/6/6/6 w - 0 1").starts_with("field 1"));
    assert!(syntax("k5/6/6/6/6/6|6/6/6/6/6/6/6/5K w - 0 1").starts_with("board 1"));
    assert!(syntax("k5/6/6/6/6/6/6|6/6/6/6/6/7/5K w - 0 1").starts_with("board 2, rank 2"));
    assert!(syntax("k5/6/6/6/6/6/6|6/6/6/6/6/5/5K w - 0 1").starts_with("board 2, rank 2"));
    assert!(syntax("k5/6/6/6/6/6/6|6/6/6/6/6/N5/5K w - 0 1").contains("unknown piece 'N'"));
    assert!(syntax("k5/6/6/6/6/6/6|6/6/6/6/6/6/5K x - 0 1").starts_with("field 2"));
    assert!(syntax("k5/6/6/6/6/6/6|6/6/6/6/6/6/5K w KK 0 1").starts_with("field 3"));
    assert!(syntax("k5/6/6/6/6/6/6|6/6/6/6/6/6/5K w - x 1").starts_with("field 4"));
    assert!(syntax("k5/6/6/6/6/6/6|6/6/6/6/6/6/5K w - 0 -1").starts_with("field 5"));
}

#[test]
fn oddities_are_accepted() {
    // Pawns on their own back rank or on the promotion rank.
    let game = lma("k4P/6/6/6/6/6/6|6/6/6/6/6/6/P4K w - 0 1");
    assert_eq!(game.to_text(), "k4P/6/6/6/6/6/6|6/6/6/6/6/6/P4K w - 0 1");
    assert!(moves(&game).contains(&"2a1a2".to_owned()));
}

#[test]
fn move_texts_get_precise_errors() {
    let game = Lma::start(&variant("lma"), 0);
    for (text, expect) in [
        ("2b1", "found 3 characters"),
        ("3b1c3", "character 1"),
        ("2z1c3", "characters 2-3"),
        ("2b1c9", "characters 4-5"),
        ("2b1c3x", "character 6"),
    ] {
        match game.parse_move(text) {
            Err(MoveError::Syntax { problem, .. }) => assert!(problem.contains(expect), "{text}: {problem}"),
            other => panic!("{text}: {other:?}"),
        }
    }
    for (text, expect) in [("2c3c4", "no piece"), ("1a6a5", "Black's"), ("2a1a2", "cannot move")] {
        match game.parse_move(text) {
            Err(MoveError::Illegal { reason, .. }) => {
                assert!(reason.to_lowercase().contains(&expect.to_lowercase()), "{text}: {reason}")
            }
            other => panic!("{text}: {other:?}"),
        }
    }
}

#[test]
fn render_shows_both_boards_and_colours() {
    let game = Lma::start(&variant("lma"), 0);
    let text = game.render(None);
    assert!(text.contains("board 1") && text.contains("board 2"), "{text}");
    // 1a7 is dark (":r:"), 1b7 light (" c "); 2a1 light, 2b1 dark.
    assert!(text.contains("7 :r: c :q: k :c: r  7"), "{text}");
    assert!(text.contains("1  R :C: Q :K: C :R: 1"), "{text}");
    assert!(text.contains("White to move"), "{text}");
}

#[test]
fn json_view_has_the_documented_shape() {
    let game = Lma::start(&variant("lma"), 0);
    let view = game.view_json(None);
    assert_eq!(view["to_act"], "white");
    assert_eq!(view["check"], false);
    assert_eq!(view["castling"], "KQkq");
    assert_eq!(view["result"], serde_json::Value::Null);
    assert_eq!(view["counters"], serde_json::json!({"turn": 1, "halfmove_clock": 0, "quiet_turns": null}));
    assert_eq!(view["text"], START);
    let boards = view["boards"].as_array().unwrap();
    assert_eq!(boards.len(), 2);
    assert_eq!(boards[0]["board"], 1);
    let squares = boards[0]["squares"].as_array().unwrap();
    assert_eq!(squares.len(), 42);
    assert_eq!(squares[0], serde_json::json!({"square": "1a7", "piece": "r", "dark": true}));
    assert_eq!(squares[41], serde_json::json!({"square": "1f1", "piece": null, "dark": false}));
    let second = boards[1]["squares"].as_array().unwrap();
    assert_eq!(second[38], serde_json::json!({"square": "2c1", "piece": "Q", "dark": false}));
    let mate = lma("k5/1Q4/2K3/6/6/6/6|6/6/6/6/6/6/6 b - 0 1").view_json(None);
    assert_eq!(mate["check"], true);
    assert_eq!(mate["result"], serde_json::json!({"winner": "white", "reason": "checkmate"}));
    assert_eq!(mate["to_act"], serde_json::Value::Null);
}

/// Random playouts draw a move without the list (pseudo-legal groups,
/// only the drawn move tested): the draws are legal and uniform over the
/// legal moves in middle games, in check, with promotions to choose, with
/// few moves (most draws rejected), in LMA and Double LMA: positions found by seeded random play.
#[test]
fn random_moves_are_uniform_among_the_legal_moves() {
    use rand::{rngs::StdRng, Rng, SeedableRng};
    type Wanted = fn(&Lma, &[String]) -> bool;
    let kinds: [(&str, Wanted); 4] = [
        ("a middle game", |game, _| game.fullmove() >= 10),
        ("in check", |game, _| game.in_check()),
        ("a promotion", |_, moves| moves.iter().any(|text| text.len() == 6)),
        ("few moves, not in check", |game, moves| {
            moves.len() <= 6 && !game.in_check() && moves.iter().all(|text| text.len() == 5)
        }),
    ];
    for id in ["lma", "lma-double"] {
        for (kind, wanted) in kinds {
            let mut rng = StdRng::seed_from_u64(7);
            let found = (0..200).find_map(|_| {
                let mut game = Lma::start(&variant(id), 0);
                let mut list = Vec::new();
                loop {
                    let texts = moves(&game);
                    if texts.len() >= 2 && wanted(&game, &texts) {
                        return Some(game);
                    }
                    game.legal_moves(&mut list);
                    if list.is_empty() {
                        return None;
                    }
                    game.play(list[rng.random_range(0..list.len())]);
                }
            });
            let game = found.unwrap_or_else(|| panic!("no position with {kind} in 200 random games of {id}"));
            menagerie_core::testing::assert_random_moves_uniform(&game, 20_000, 3);
        }
    }
}
