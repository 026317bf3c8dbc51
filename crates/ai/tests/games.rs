//! The searches on the real games, through the registry: forced wins in
//! hand-built positions. What every game is checked for (legal moves only,
//! node limits, blindness to hidden state) is in `registry.rs`.

use menagerie_ai::{AlphaBeta, AlphaBetaConfig, Limits, Score, StopFlag};
use menagerie_core::{Actor, Evaluate, Game, GameVisitor, Present, VariantSpec};
use std::time::Duration;

/// What alpha-beta says about a position: best move text and score.
fn solve(variant: &str, position: &str, depth: u32) -> (String, Score) {
    struct Solve<'a>(&'a str, u32);
    impl GameVisitor for Solve<'_> {
        type Output = (String, Score);
        fn visit<G: Game + Evaluate + Present>(self, variant: G::Variant) -> Self::Output {
            let game = G::from_text(&variant, self.0).expect("a valid position");
            let mut search = AlphaBeta::<G>::default();
            let result = search.search(&game, &Limits::depth(self.1), &StopFlag::new(), &mut |_| {});
            (game.move_text(result.best.expect("a move")), result.info.score)
        }
    }
    menagerie_games::visit(&VariantSpec::parse(variant).unwrap(), Solve(position, depth)).unwrap()
}

#[test]
fn lichen_winning_colonization() {
    // A placement on c3 ties it 1-1; colonizing from c2 northwards makes it
    // 2-1: White controls Black's kingstone.
    let (best, score) = solve("lichen", "..[----B---k]../..[W-------]../..[W-------K].. w 5 5", 2);
    assert_eq!(score, Score::Win(1));
    assert!(best.starts_with("c3") && best.ends_with(";c2*n"), "{best}");
}

#[test]
fn kelasu_victory_tiles_in_one_turn() {
    // Blue holds E4 and E5; two actions (Energy 2) put Warriors on F4 and
    // F5: four tiles, a win, two actions of one player in a row.
    let (best, score) = solve("kelasu", "S9/10/10/10/4WW4/3W2W3/10/10/10/s8w blue 2 - 0 1", 3);
    assert_eq!(score, Score::Win(2));
    assert!(best == "F3-F4" || best == "F6-F5", "{best}");
    // With one action left it cannot be done this turn.
    let (_, score) = solve("kelasu", "S9/10/10/10/4WW4/3W2W3/10/10/10/s8w blue 1 - 0 1", 1);
    assert!(!matches!(score, Score::Win(_)), "{score:?}");
}

/// Whether the player to act in `position` wins within `plies` moves of the
/// game model against every defence, and the search's move keeps that
/// win: checked by plain minimax over the rules, independently of the search.
fn forced_win(variant: &str, position: &str, plies: u32, first: &str) -> bool {
    struct Forced<'a>(&'a str, u32, &'a str);
    fn wins<G: Game>(g: &mut G, me: menagerie_core::Player, plies: u32) -> bool {
        if let Some(outcome) = g.outcome() {
            return outcome.winner() == Some(me);
        }
        if plies == 0 {
            return false;
        }
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        let mine = g.to_act() == Actor::Player(me);
        let mut verdicts = moves.into_iter().map(|mv| {
            g.play(mv);
            let won = wins(g, me, plies - 1);
            g.undo();
            won
        });
        if mine {
            verdicts.any(|w| w)
        } else {
            verdicts.all(|w| w)
        }
    }
    impl GameVisitor for Forced<'_> {
        type Output = bool;
        fn visit<G: Game + Evaluate + Present>(self, variant: G::Variant) -> bool {
            let mut game = G::from_text(&variant, self.0).expect("a valid position");
            let Actor::Player(me) = game.to_act() else { return false };
            let mv = game.parse_move(self.2).expect("a legal first move");
            game.play(mv);
            wins(&mut game, me, self.1 - 1)
        }
    }
    menagerie_games::visit(&VariantSpec::parse(variant).unwrap(), Forced(position, plies, first)).unwrap()
}

/// The search's verdict, checked by minimax: a win in exactly `plies`.
fn assert_forced_win(variant: &str, position: &str, plies: u32) -> String {
    let (best, score) = solve(variant, position, plies + 2);
    assert_eq!(score, Score::Win(plies), "{variant} {position}");
    assert!(forced_win(variant, position, plies, &best), "{best} does not win in {plies}");
    best
}

#[test]
fn lma_mate_in_one() {
    let best = assert_forced_win("lma", "1Q4/3pk1/q5/pR4/6/6/6|6/2C3/6/P1P2P/R4P/3P2/r1QKC1 w - 1 22", 1);
    assert_eq!(best, "2c6d4");
}

#[test]
fn lma_mate_in_two() {
    assert_forced_win("lma", "2Q2Q/6/6/6/3PP1/6/2R3|4k1/6/4p1/1pP3/5p/2K2P/6 w - 1 24", 3);
}

#[test]
fn fluid_mate_in_one() {
    // Back-rank mate: the rook slides to a8.
    let best = assert_forced_win("fluid", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 1);
    assert_eq!(best, "Ra1a8");
    // Black to move mates the same way: scores are from the actor's view.
    let best = assert_forced_win("fluid", "r5k1/8/8/8/8/8/5PPP/6K1 b - - 0 1", 1);
    assert_eq!(best, "Ra8a1");
}

#[test]
fn fluid_mate_in_two() {
    // Two rooks against a bare king: no mate in one, mate in two.
    assert_forced_win("fluid", "7k/8/8/8/8/8/R7/1R4K1 w - - 0 1", 3);
}

#[test]
fn kelasu_and_lichen_wins_are_forced_too() {
    assert_forced_win("kelasu", "S9/10/10/10/4WW4/3W2W3/10/10/10/s8w blue 2 - 0 1", 2);
    assert_forced_win("lichen", "..[----B---k]../..[W-------]../..[W-------K].. w 5 5", 1);
}

/// A time per turn is shared among a Kelasu turn's actions, most to the
/// first, adding up to the whole; a one-move turn keeps all of it.
#[test]
fn a_kelasu_turn_shares_its_time_among_its_actions() {
    use menagerie_games::kelasu::{Kelasu, KelasuVariant};
    let per_turn = Limits { time: Some(Duration::from_millis(1000)), per_turn: true, ..Limits::default() };
    let mut game = Kelasu::start(&KelasuVariant, 0);
    let mut shares = Vec::new();
    let mover = game.to_act();
    let mut moves = Vec::new();
    while game.to_act() == mover {
        shares.push(per_turn.for_decision(&game).time.unwrap().as_millis());
        game.legal_moves(&mut moves);
        // A step, not a merge: one action's Energy.
        let step = *moves.iter().find(|mv| mv.merged_kind().is_none()).unwrap();
        game.play(step);
    }
    assert_eq!(shares, [400, 300, 200, 100]);
    let per_action = Limits { per_turn: false, ..per_turn.clone() };
    assert_eq!(per_action.for_decision(&game).time, Some(Duration::from_millis(1000)));
    let lma = menagerie_games::lma::Lma::start(&menagerie_games::lma::LmaVariant::Single, 0);
    assert_eq!(per_turn.for_decision(&lma).time, Some(Duration::from_millis(1000)));
}

/// A time limit is for this move alone: the search goes on to it (an
/// iteration cut short still counts) instead of stopping after an
/// iteration that used more than half of it, which wasted up to half the
/// time of every move and most of a second thread's gain.
#[test]
fn a_timed_search_uses_its_whole_time() {
    use menagerie_games::lma::{Lma, LmaVariant};
    let game = Lma::start(&LmaVariant::Single, 0);
    for threads in [1, 2] {
        let mut search = AlphaBeta::<Lma>::new(AlphaBetaConfig { threads, ..AlphaBetaConfig::default() });
        let result = search.search(&game, &Limits::time_ms(300), &StopFlag::new(), &mut |_| {});
        assert!(result.info.time >= Duration::from_millis(300), "{threads} threads stopped at {:?}", result.info.time);
        // Not by finishing the deepest depth: the clock stopped it.
        assert!(result.info.depth < 100, "{:?}", result.info);
        let mut legal = Vec::new();
        game.legal_moves(&mut legal);
        assert!(legal.contains(&result.best.expect("a move")));
    }
}

/// A lazy learned evaluation is the learned one inside the window (and
/// within its margin of it) and the tuned one alone only where the tuned one
/// lies beyond the margin outside the window; without a margin it is the
/// learned one whatever the window. Along a game of Kelasu, whose network
/// moves the score most.
#[test]
fn a_lazy_learned_evaluation_leaves_the_network_out_only_beyond_its_margin() {
    use menagerie_ai::{EvalKind, StaticEval};
    use menagerie_games::kelasu::{Kelasu, KelasuVariant};
    let margin = 60;
    let mut exact = StaticEval::<Kelasu>::new(EvalKind::Learned);
    let mut always = StaticEval::<Kelasu>::with_lazy_margin(EvalKind::Learned, None);
    let mut lazy = StaticEval::<Kelasu>::with_lazy_margin(EvalKind::Learned, Some(margin));
    let mut game = Kelasu::start(&KelasuVariant, 0);
    let mut moves = Vec::new();
    let mut corrected = 0;
    for ply in 0..60 {
        let tuned = game.evaluate();
        let learned = exact.of(&game);
        corrected += usize::from(learned != tuned);
        assert_eq!(always.within(&game, tuned + 500, tuned + 501), learned);
        // Inside the window, and outside it by no more than the margin.
        assert_eq!(lazy.within(&game, tuned - 1, tuned + 1), learned);
        assert_eq!(lazy.within(&game, tuned - margin + 1, tuned - margin + 2), learned);
        assert_eq!(lazy.within(&game, tuned + margin - 2, tuned + margin - 1), learned);
        // Beyond the margin, above the window and below it.
        assert_eq!(lazy.within(&game, tuned - margin - 1, tuned - margin), tuned);
        assert_eq!(lazy.within(&game, tuned + margin, tuned + margin + 1), tuned);
        game.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        game.play(moves[(ply * 7919) % moves.len()]);
    }
    assert!(corrected > 10, "the network changed only {corrected} scores");
}

/// `eval=learned` in a player string takes each game's measured lazy margin
/// (docs/nnue.md, "Lazy"); `lazy=N` and `lazy=off` override it.
#[test]
fn the_learned_evaluation_takes_each_games_lazy_margin_unless_told_otherwise() {
    use menagerie_ai::AgentSpec;
    use menagerie_games::{fluid::Fluid, kelasu::Kelasu, lichen::Lichen, lma::Lma, lunch::Lunch};
    let default = AgentSpec::parse("alphabeta:eval=learned").unwrap();
    assert_eq!(default.lazy_margin::<Kelasu>(), Some(800));
    assert_eq!(default.lazy_margin::<Lma>(), Some(120));
    assert_eq!(default.lazy_margin::<Lichen>(), Some(120));
    assert_eq!(default.lazy_margin::<Fluid>(), Some(60));
    assert_eq!(default.lazy_margin::<Lunch>(), None, "Lunch Chess's player is ismcts: not measured");
    assert_eq!(AgentSpec::parse("alphabeta:eval=learned,lazy=5").unwrap().lazy_margin::<Kelasu>(), Some(5));
    assert_eq!(AgentSpec::parse("alphabeta:eval=learned,lazy=off").unwrap().lazy_margin::<Kelasu>(), None);
}
