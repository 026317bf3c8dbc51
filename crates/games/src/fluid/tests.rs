//! Rule tests on hand-checked positions, and cross-checks of the fast move
//! generator against slow references during random play.

use super::movegen::{self, Counter, Mode};
use super::*;
use menagerie_core::Player;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

const IDS: [&str; 3] = ["fluid", "fluid-single-promo", "fluid-double-promo"];

fn variant(id: &str) -> FluidVariant {
    Fluid::parse_variant(&VariantSpec::plain(id)).unwrap()
}

fn game(id: &str, text: &str) -> Fluid {
    Fluid::from_text(&variant(id), text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn move_texts(game: &Fluid) -> Vec<String> {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let mut texts: Vec<String> = moves.iter().map(|&m| game.move_text(m)).collect();
    texts.sort();
    texts
}

fn play(game: &mut Fluid, text: &str) {
    let mv = game.parse_move(text).unwrap_or_else(|e| panic!("{text} in {}: {e}", game.to_text()));
    game.play(mv);
}

fn texts_of(state: &State, rules: &Rules, mode: Mode) -> Vec<String> {
    let mut moves = Vec::new();
    movegen::generate_in(state, rules, &mut moves, mode);
    let mut texts: Vec<String> = moves.iter().map(|m| m.text()).collect();
    texts.sort();
    texts
}

/// At every position: the fast generator equals "test every move on a
/// copy"; counting equals listing; and `attacked` agrees with "some
/// pseudo-legal enemy move ends on the king's square", for both kings.
fn cross_check(game: &Fluid) {
    let state = game.state();
    let rules = &game.rules;
    let text = game.to_text();
    let fast = texts_of(state, rules, Mode::Legal);
    let slow = texts_of(state, rules, Mode::TestEverything);
    assert_eq!(fast, slow, "fast and tested-everything generators differ in {text}");
    let mut counter = Counter(0);
    movegen::generate(state, rules, &mut counter);
    assert_eq!(counter.0, fast.len() as u64, "count differs from list in {text}");
    // Random playouts draw from the pseudo-legal moves and test the drawn.
    let attacked = state.board.attacked(state.board.king(state.side).unwrap(), state.side.other(), rules.single_promotions);
    assert_eq!(state.in_check, attacked, "the check flag is out of step in {text}");
    let safety = movegen::KingSafety::of(state).unwrap();
    let mut pseudo = Vec::new();
    movegen::generate_in(state, rules, &mut pseudo, Mode::PseudoLegal);
    let mut kept: Vec<String> = pseudo
        .iter()
        .filter(|&&mv| movegen::pseudo_legal_is_legal(state, rules, &safety, mv))
        .map(|mv| mv.text())
        .collect();
    kept.sort();
    assert_eq!(kept, fast, "the pseudo-legal moves that pass the playouts' test differ from the legal ones in {text}");
    for mover in [state.side, state.side.other()] {
        let mut view = *state;
        view.side = mover;
        view.en_passant = None;
        let target = state.board.king(mover.other()).unwrap();
        let mut pseudo = Vec::new();
        movegen::generate_in(&view, rules, &mut pseudo, Mode::PseudoLegal);
        let reaches = pseudo.iter().any(|m| m.to() == target);
        assert_eq!(
            reaches,
            state.board.attacked(target, mover, rules.single_promotions),
            "attacked({target}) by {} disagrees with its pseudo-legal moves in {text}",
            mover.name()
        );
    }
}

fn random_games(id: &str, starts: &[&str], games: u64, plies: usize) {
    let mut moves = Vec::new();
    for start in starts {
        for seed in 0..games {
            let mut rng = StdRng::seed_from_u64(seed);
            let mut g = game(id, start);
            for _ in 0..plies {
                cross_check(&g);
                g.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                // Prefer captures and stacking moves now and then, to reach
                // mixed squares and pairs more often.
                let mv = moves[rng.random_range(0..moves.len())];
                g.play(mv);
            }
        }
    }
}

const STARTS: [&str; 4] =
    [START, BENCH_MIDDLE_GAME, BENCH_STACKS, "r3k2r/1P3pp1/2(bN)1q2n/3(Pn)4/1p2(Kp)3/5Q2/P3(NR)1PP/R3B3 w kq - 0 1"];

#[test]
fn fast_generator_agrees_with_references_in_random_play() {
    // `FLUID_CROSS_GAMES=<n>` plays more games per start (default 6).
    let games = std::env::var("FLUID_CROSS_GAMES").ok().and_then(|v| v.parse().ok()).unwrap_or(6);
    for id in IDS {
        random_games(id, &STARTS, games, 160);
    }
}

#[test]
fn start_counts() {
    for id in IDS {
        let mut g = Fluid::start(&variant(id), 0);
        assert_eq!(menagerie_core::perft::perft(&mut g, 1), 29);
        assert_eq!(menagerie_core::perft::perft(&mut g, 2), 841);
        assert_eq!(menagerie_core::perft::perft(&mut g, 3), 26421);
    }
}

#[test]
fn start_moves_include_joins_and_queen_splits() {
    let texts = move_texts(&Fluid::start(&variant("fluid"), 0));
    for expected in ["Rd1c1", "Rd1a1", "Rd1e1", "Rd1h1", "Ra1b1", "Ra1c1", "Rh1e1", "Ke1f1"] {
        assert!(texts.contains(&expected.to_string()), "{expected} missing from {texts:?}");
    }
    // Knights are lame behind their pawns; the queen (a pair) cannot join.
    assert!(!texts.iter().any(|t| t.starts_with('N') || t.starts_with("BR")));
    assert!(!texts.contains(&"Ra1d1".to_string()));
}

#[test]
fn queen_splits_and_moves_as_either_piece() {
    let g = game("fluid", "4k3/8/8/8/8/8/8/3QK3 w - - 0 1");
    let texts = move_texts(&g);
    assert_eq!(texts.len(), 45);
    // The pair passes its own king (one friendly non-pawn piece).
    assert!(texts.contains(&"BRd1h1".to_string()));
    assert!(texts.contains(&"BRd1h5".to_string()));
    assert!(texts.contains(&"Bd1h5".to_string()));
    assert!(texts.contains(&"Rd1e1".to_string()), "a split rook joins the king");
    assert!(!texts.contains(&"BRd1e1".to_string()), "a pair cannot join (three pieces)");
    let mut g = g;
    play(&mut g, "Bd1h5");
    assert_eq!(g.to_text(), "4k3/8/8/7B/8/8/8/3RK3 b - - 1 1");
}

#[test]
fn single_captures_one_of_two_and_chooses() {
    let g = game("fluid", "4k3/8/4(nr)3/3P4/3N4/8/8/K7 w - - 0 1");
    let texts = move_texts(&g);
    for t in ["Nd4e6xN", "Nd4e6xR", "Pd5e6xN", "Pd5e6xR"] {
        assert!(texts.contains(&t.to_string()), "{t}");
    }
    let mut g = g;
    play(&mut g, "Nd4e6xR");
    assert_eq!(g.to_text(), "4k3/8/4(Nn)3/3P4/8/8/8/K7 b - - 0 1");
    // The lone king beside an unprotected queen may take either half.
    let g = game("fluid", "7k/6Q1/8/8/8/8/8/6K1 b - - 0 1");
    assert_eq!(move_texts(&g), ["Kh8g7xB", "Kh8g7xR"]);
}

#[test]
fn a_pair_captures_everything_and_two_like_pieces_give_one_choice() {
    let g = game("fluid", "4k3/8/8/8/8/8/(rr)7/Q3K3 w - - 0 1");
    let texts = move_texts(&g);
    assert!(texts.contains(&"BRa1a2".to_string()));
    assert!(texts.contains(&"Ra1a2".to_string()));
    assert!(!texts.iter().any(|t| t.contains("a2x")), "two rooks: no choice to name");
    let mut g = g;
    play(&mut g, "BRa1a2");
    assert_eq!(g.to_text(), "4k3/8/8/8/8/8/Q7/4K3 b - - 0 1");
}

#[test]
fn mixed_squares_move_apart_and_can_be_joined_by_capture() {
    let g = game("fluid", "7k/8/8/8/3(bN)4/8/K7/3R4 w - - 0 1");
    let texts = move_texts(&g);
    assert!(texts.contains(&"Rd1d4".to_string()), "the rook captures the bishop and joins the knight");
    assert!(!texts.contains(&"Ka2b2".to_string()), "the bishop on the mixed square still attacks");
    let mut g = g;
    play(&mut g, "Rd1d4");
    assert_eq!(g.to_text(), "7k/8/8/8/3(NR)4/8/K7/8 b - - 0 1");
}

#[test]
fn a_king_beside_an_enemy_pawn_on_its_square_cannot_be_attacked() {
    let g = game("fluid", "4r2k/8/8/8/4(Kp)3/8/8/8 w - - 0 1");
    assert!(!g.in_check());
    assert_eq!(move_texts(&g), ["Ke4d4", "Ke4d5", "Ke4e3", "Ke4f4", "Ke4f5"]);
}

#[test]
fn lame_knights_are_blocked_and_can_be_unblocked() {
    let g = game("fluid", "4k3/8/8/8/8/3n4/3PP3/4K3 w - - 0 1");
    assert!(!g.in_check());
    assert_eq!(move_texts(&g), ["Ke1d1", "Ke1f1", "Pe2d3"]);
}

#[test]
fn check_by_a_pair() {
    let g = game("fluid", "4k3/8/8/8/8/3(bn)4/8/4K3 w - - 0 1");
    assert!(g.in_check());
    assert_eq!(move_texts(&g), ["Ke1d1", "Ke1d2"]);
}

#[test]
fn checkmate_and_stalemate() {
    let mate = game("fluid", "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1");
    assert_eq!(mate.outcome(), Some(Outcome::Win { winner: Player::First, reason: "checkmate" }));
    let stalemate = game("fluid", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    assert_eq!(stalemate.outcome(), Some(Outcome::Draw { reason: "stalemate" }));
    // Mate takes precedence over the fifty-move rule.
    let late = game("fluid", "7k/6Q1/6K1/8/8/8/8/8 b - - 100 90");
    assert_eq!(late.outcome().unwrap().reason(), "checkmate");
}

#[test]
fn castling_through_pieces_from_a_shared_square_in_either_order() {
    let g = game("fluid", "r3k2r/8/8/8/8/8/8/R2B(BK)1NR w KQkq - 0 1");
    let texts = move_texts(&g);
    assert!(texts.contains(&"Ke1g1".to_string()) && texts.contains(&"Ke1c1".to_string()));
    let mut king_side = g.clone();
    play(&mut king_side, "Ke1g1");
    assert_eq!(king_side.to_text(), "r3k2r/8/8/8/8/8/8/R2BBR(KN)1 b kq - 1 1");
    let mut queen_side = g;
    play(&mut queen_side, "Ke1c1");
    assert_eq!(queen_side.to_text(), "r3k2r/8/8/8/8/8/8/2KQB1NR b kq - 1 1");
    // A queen (two pieces) on d1 blocks queen-side castling.
    let g = game("fluid", "r3k2r/8/8/8/8/8/8/R2QK2R w KQkq - 0 1");
    let texts = move_texts(&g);
    assert!(!texts.contains(&"Ke1c1".to_string()) && texts.contains(&"Ke1g1".to_string()));
    // Both f1 and g1 occupied: neither slider can go first.
    let g = game("fluid", "4k3/8/8/8/8/8/8/4KBNR w K - 0 1");
    assert!(!move_texts(&g).contains(&"Ke1g1".to_string()));
    // An attacked crossing square forbids castling.
    let g = game("fluid", "4kr2/8/8/8/8/8/8/4K2R w K - 0 1");
    assert!(!move_texts(&g).contains(&"Ke1g1".to_string()));
}

#[test]
fn castling_rights_are_lost_as_the_rules_say() {
    let mut g = game("fluid", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    play(&mut g, "Ra1a8");
    assert_eq!(g.to_text(), "R3k2r/8/8/8/8/8/8/4K2R b Kk - 0 1");
    let mut g = game("fluid", "4k3/8/8/8/8/8/8/4K2(RR) w K - 0 1");
    play(&mut g, "Rh1h2");
    assert_eq!(g.to_text(), "4k3/8/8/8/8/8/7R/4K2R b - - 1 1");
    // The king's companion leaving keeps the right; parsing drops rights
    // without their pieces.
    let mut g = game("fluid", "4k3/8/8/8/8/8/8/4(BK)2R w Kq - 0 1");
    assert_eq!(g.to_text(), "4k3/8/8/8/8/8/8/4(BK)2R w K - 0 1");
    play(&mut g, "Be1d2");
    assert!(g.to_text().contains(" b K "));
}

#[test]
fn promotion_follows_the_variant() {
    let text = "(nr)1b4(bR)/1P4P1/4k3/8/8/8/8/4K3 w - - 0 1";
    let counts: Vec<usize> = IDS.iter().map(|id| move_texts(&game(id, text)).len()).collect();
    assert_eq!(counts, [38, 35, 26]);
    let fluid = move_texts(&game("fluid", text));
    assert!(fluid.contains(&"Pb7b8=BR".to_string()));
    assert!(fluid.contains(&"Pg7h8=N".to_string()), "a single promotion may join its own rook");
    assert!(!fluid.contains(&"Pg7h8=BR".to_string()));
    assert!(!fluid.contains(&"Pb7a8xN=BR".to_string()), "a pair cannot stay with an enemy piece");
    let double = move_texts(&game("fluid-double-promo", text));
    assert!(double.contains(&"Pb7c8=BN".to_string()) && double.contains(&"Pb7c8=NR".to_string()));
    let mut g = game("fluid-double-promo", text);
    play(&mut g, "Pb7c8=NR");
    assert!(g.to_text().starts_with("(nr)1(NR)4(bR)/6P1/"));
}

#[test]
fn en_passant_and_its_pin() {
    let g = game("fluid", "4k3/8/8/3Pp3/8/8/8/4K3 w - e6 0 1");
    assert!(move_texts(&g).contains(&"Pd5e6".to_string()));
    let mut after = g.clone();
    play(&mut after, "Pd5e6");
    assert_eq!(after.to_text(), "4k3/8/4P3/8/8/8/8/4K3 b - - 0 1");
    let pinned = game("fluid", "8/8/8/K2Pp2r/8/8/8/4k3 w - e6 0 1");
    assert!(!move_texts(&pinned).contains(&"Pd5e6".to_string()));
}

#[test]
fn repetition_counts_en_passant_only_when_it_can_be_taken() {
    let mut g = game("fluid", "4k3/4p3/8/8/8/8/8/4K3 b - - 0 1");
    play(&mut g, "Pe7e5");
    assert!(g.to_text().contains(" e6 "));
    let plain = game("fluid", "4k3/8/8/4p3/8/8/8/4K3 w - - 0 1");
    assert_ne!(g.hash(), plain.hash(), "the hash follows the text");
    assert_eq!(g.state().repetition_key, plain.state().repetition_key);
    let mut g = game("fluid", "4k3/4p3/8/3P4/8/8/8/4K3 b - - 0 1");
    play(&mut g, "Pe7e5");
    let plain = game("fluid", "4k3/8/8/3Pp3/8/8/8/4K3 w - - 0 1");
    assert_ne!(g.state().repetition_key, plain.state().repetition_key);
}

#[test]
fn threefold_repetition_and_fifty_moves_end_the_game() {
    let mut g = game("fluid", "4k3/8/8/8/8/8/8/4K2R w - - 0 1");
    for _ in 0..2 {
        for mv in ["Ke1d1", "Ke8d8", "Kd1e1", "Kd8e8"] {
            assert!(g.outcome().is_none());
            play(&mut g, mv);
        }
    }
    assert_eq!(g.outcome(), Some(Outcome::Draw { reason: "threefold repetition" }));
    assert!(move_texts(&g).is_empty());
    let mut g = game("fluid", "4k3/8/8/8/8/8/8/4K2R w - - 99 80");
    play(&mut g, "Rh1h2");
    assert_eq!(g.outcome(), Some(Outcome::Draw { reason: "fifty-move rule" }));
    assert_eq!(menagerie_core::perft::perft(&mut g, 2), 0);
}

#[test]
fn position_texts_round_trip_and_order_pairs() {
    for (input, output) in [
        ("4k3/8/8/3(nN)4/8/8/8/4K3 w - - 0 1", "4k3/8/8/3(Nn)4/8/8/8/4K3 w - - 0 1"),
        ("4k3/8/8/3(Nb)4/8/8/8/4K3 w - - 0 1", "4k3/8/8/3(bN)4/8/8/8/4K3 w - - 0 1"),
        ("4k3/8/8/3(RB)4/8/8/8/4K3 w - - 0 1", "4k3/8/8/3Q4/8/8/8/4K3 w - - 0 1"),
        ("4k3/8/8/3(pK)4/8/8/8/8 b - -", "4k3/8/8/3(Kp)4/8/8/8/8 b - - 0 1"),
    ] {
        assert_eq!(game("fluid", input).to_text(), output);
    }
}

#[test]
fn bad_position_texts_say_why() {
    let v = variant("fluid");
    let err = |text: &str| Fluid::from_text(&v, text).unwrap_err().to_string();
    assert!(err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1").contains("rank 1"));
    assert!(err("4k3/8/8/3(PN)4/8/8/8/4K3 w - - 0 1").contains("pawn may not share"));
    assert!(err("4k3/8/8/3(PNB)3/8/8/8/4K3 w - - 0 1").contains("rank 5"));
    assert!(err("8/8/8/8/8/8/8/4K3 w - - 0 1").contains("black has 0 kings"));
    assert!(err("4k2R/8/8/8/8/8/8/4K3 w - - 0 1").contains("not to move but stands in check"));
    assert!(err("4k3/8/8/8/8/8/8/4K3 w - e3 0 1").contains("en passant"));
    assert!(err("4k3/8/8/8/8/8/8/4K3 x - - 0 1").contains("field 2"));
    assert!(err("4k3/8/8/8/8/8/8/4K3 w - - z 1").contains("field 5"));
}

#[test]
fn move_texts_get_precise_errors() {
    let g = Fluid::start(&variant("fluid"), 0);
    for (text, fragment) in [
        ("e2e4", "piece letters"),
        ("RBd1h5", "alphabetical"),
        ("Pe2e9", "to square"),
        ("Pe2e4=Q", "'='"),
        ("Pe2e4 ", "unexpected"),
        ("BPd1h5", "pawn"),
    ] {
        match g.parse_move(text) {
            Err(MoveError::Syntax { problem, .. }) => assert!(problem.contains(fragment), "{text}: {problem}"),
            other => panic!("{text}: {other:?}"),
        }
    }
    assert!(matches!(g.parse_move("Pe2e5"), Err(MoveError::Illegal { .. })));
    assert!(g.parse_move("Pe2e4").is_ok());
}

#[test]
fn the_view_lists_every_square() {
    use menagerie_core::Present;
    let g = Fluid::start(&variant("fluid-double-promo"), 0);
    let view = serde_json::to_value(menagerie_core::view::view(&g, None, None)).unwrap();
    let squares = view["squares"].as_object().unwrap();
    assert_eq!(squares.len(), 64);
    assert_eq!(squares["d1"].as_array().unwrap().len(), 2);
    assert_eq!(squares["e4"].as_array().unwrap().len(), 0);
    assert_eq!(view["labels"]["d1"], "Q");
    assert_eq!(view["to_act"], "white");
    assert_eq!(view["counters"], serde_json::json!({"turn": 1, "halfmove_clock": 0, "quiet_turns": null}));
    assert_eq!(view["promotions"][1], "BN");
    assert!(g.render(None).contains("Q"));
}

#[test]
fn generic_properties_from_stacked_positions() {
    for id in IDS {
        menagerie_core::testing::random_play_from::<Fluid>(
            &variant(id),
            &STARTS[1..],
            menagerie_core::testing::Soak { games: 8, ..Default::default() },
        );
    }
}

/// A random playout's move is uniform among the legal moves, also where
/// most pseudo-legal moves are illegal (in check).
#[test]
fn random_moves_are_uniform_among_the_legal_moves() {
    for text in [BENCH_MIDDLE_GAME, "4k3/8/8/8/8/8/3q4/R3K2R w KQ - 0 1", "r3k2r/1P3pp1/2(bN)1q2n/3(Pn)4/1p2(Kp)3/5Q2/P3(NR)1PP/R3B3 w kq - 0 1"] {
        menagerie_core::testing::assert_random_moves_uniform(&game("fluid", text), 20_000, 3);
    }
    // Every slot group of the draw: pushes and double steps (the start),
    // pawn and piece captures with a choice of victim, en passant, pairs,
    // promotions (listed) in each rule, castling on both sides, Black's
    // pawns, and check by a slider and by a knight (evasions).
    let texts = [
        (START, "fluid"),
        ("4k3/8/4(nr)3/3P1(br)2/3N2P1/8/8/K6Q w - - 0 1", "fluid"),
        ("4k3/8/8/2pPp3/8/8/8/4K3 w - c6 0 1", "fluid"),
        ("r1n1k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "fluid-double-promo"),
        ("r1n1k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "fluid-single-promo"),
        ("r3k2r/pppq1ppp/8/8/8/8/PPP2(nr)PP/R3K2R b KQkq - 0 1", "fluid"),
        ("4k3/8/8/8/8/3n4/8/R3K2R w KQ - 0 1", "fluid"),
        ("4k3/8/8/8/8/8/8/r2QK1NR w K - 0 1", "fluid"),
    ];
    for (text, id) in texts {
        menagerie_core::testing::assert_random_moves_uniform(&game(id, text), 20_000, 5);
    }
}
