//! The searches on toy games: they find forced wins, follow the actor
//! through several moves in a row, never play an illegal move, respect
//! their limits, and decide hidden-information games from the view alone.

mod common;

use common::{wins_by_minimax, DoubleNim, HiLo, KEEP, SWAP};
use menagerie_ai::{AgentKind, AgentSpec, AlphaBeta, EvalKind, Lazy, Limits, Mcts, MctsConfig, Score, StopFlag};
use menagerie_core::testing::nim::{Nim, NimVariant};
use menagerie_core::{Evaluate, Game, Player};

fn nim(text: &str) -> Nim {
    Nim::from_text(&NimVariant { stones: 21 }, text).unwrap()
}

fn no_info(_: &menagerie_ai::Info) {}

#[test]
fn alphabeta_finds_the_winning_take_in_nim() {
    let mut search = AlphaBeta::<Nim>::default();
    for stones in 1..=30u32 {
        if stones % 4 == 0 {
            continue;
        }
        let game = nim(&format!("{stones} first"));
        let result = search.search(&game, &Limits::depth(40), &StopFlag::new(), &mut no_info);
        assert_eq!(result.best, Some((stones % 4) as u8), "{stones} stones");
        assert!(matches!(result.info.score, Score::Win(_)), "{stones} stones: {:?}", result.info.score);
    }
}

#[test]
fn win_distance_counts_plies() {
    let mut search = AlphaBeta::<Nim>::default();
    let stop = StopFlag::new();
    // 3 stones: take them all, a win in one ply.
    let result = search.search(&nim("3 first"), &Limits::depth(5), &stop, &mut no_info);
    assert_eq!(result.info.score, Score::Win(1));
    assert_eq!(result.info.pv, vec!["3"]);
    // 7 stones: take 3, the opponent takes 1-3, we take the rest: 3 plies.
    let result = search.search(&nim("7 second"), &Limits::depth(8), &stop, &mut no_info);
    assert_eq!(result.info.score, Score::Win(3));
    // 8 stones: lost; the longest resistance is 4 plies.
    let result = search.search(&nim("8 first"), &Limits::depth(10), &stop, &mut no_info);
    assert_eq!(result.info.score, Score::Loss(4));
}

#[test]
fn several_actions_in_a_row_are_not_negated() {
    let mut search = AlphaBeta::<DoubleNim>::default();
    for stones in 1..=22u32 {
        for actions in [1u8, 2] {
            let mut game = DoubleNim::new(stones, Player::Second, actions);
            let expected = wins_by_minimax(&mut game);
            let result = search.search(&game, &Limits::depth(30), &StopFlag::new(), &mut no_info);
            let found = matches!(result.info.score, Score::Win(_));
            assert_eq!(found, expected, "{stones} stones, {actions} actions left: {:?}", result.info.score);
            if expected {
                // The chosen action keeps the win.
                game.play(result.best.unwrap());
                let still = match game.to_act() {
                    menagerie_core::Actor::Player(p) if game.outcome().is_none() && p == Player::Second => {
                        wins_by_minimax(&mut game)
                    }
                    _ if game.outcome().is_some() => true,
                    _ => !wins_by_minimax(&mut game),
                };
                assert!(still, "{stones} stones, {actions} actions: the move throws the win away");
            }
        }
    }
}

#[test]
fn node_limits_are_respected() {
    let mut search = AlphaBeta::<Nim>::default();
    for limit in [1u64, 5, 50, 500] {
        let result = search.search(&nim("200 first"), &Limits::nodes(limit), &StopFlag::new(), &mut no_info);
        assert!(search.nodes() <= limit, "{} nodes for a limit of {limit}", search.nodes());
        assert!(result.best.is_some());
    }
    let mut mcts = Mcts::<Nim>::new(MctsConfig::default());
    let result = mcts.search(&nim("40 first"), &Limits::nodes(300), &StopFlag::new(), &mut no_info);
    assert_eq!(result.info.nodes, 300);
    assert_eq!(result.root_visits.iter().map(|&(_, v)| u64::from(v)).sum::<u64>(), 300);
}

#[test]
fn a_raised_stop_flag_ends_the_search_with_a_move() {
    let stop = StopFlag::new();
    stop.stop();
    let mut search = AlphaBeta::<Nim>::default();
    let result = search.search(&nim("1000 first"), &Limits::default(), &stop, &mut no_info);
    assert!(result.best.is_some());
}

#[test]
fn mcts_finds_the_winning_take_in_nim() {
    for (stones, take) in [(5u32, 1u8), (6, 2), (7, 3), (9, 1), (11, 3)] {
        let mut mcts = Mcts::<Nim>::new(MctsConfig { seed: u64::from(stones), ..MctsConfig::default() });
        let result =
            mcts.search(&nim(&format!("{stones} first")), &Limits::nodes(3000), &StopFlag::new(), &mut no_info);
        assert_eq!(result.best, Some(take), "{stones} stones: {:?}", result.root_visits);
    }
}

#[test]
fn every_agent_plays_only_legal_moves_to_the_end() {
    let specs = [
        "random",
        "greedy",
        "alphabeta:3",
        "alphabeta:3,threads=2",
        "mcts:50",
        "mcts:50,threads=2",
        "ismcts:50",
        "ai:easy",
        "ai:medium",
    ];
    for text in specs {
        let spec = AgentSpec::parse(text).unwrap();
        for start in [7u32, 13, 21] {
            let mut game = DoubleNim::new(start, Player::First, 2);
            let mut agents = [spec.build::<DoubleNim>(1), spec.build::<DoubleNim>(2)];
            let limits = spec.limits::<DoubleNim>(Some(std::time::Duration::from_millis(20)));
            let mut legal = Vec::new();
            while game.outcome().is_none() {
                let p = game.to_act().player().unwrap();
                let decision = agents[p.index()].decide(&game, &limits, &StopFlag::new(), &mut no_info);
                game.legal_moves(&mut legal);
                let mv = decision.best.expect("a move while the game goes on");
                assert!(legal.contains(&mv), "{text} chose {mv} in {}", game.to_text());
                game.play(mv);
            }
            let mut agent = spec.build::<DoubleNim>(3);
            assert_eq!(agent.decide(&game, &limits, &StopFlag::new(), &mut no_info).best, None);
        }
    }
}

#[test]
fn agent_specs_parse_and_print_back() {
    for text in [
        "random",
        "greedy",
        "alphabeta",
        "alphabeta:4",
        "mcts",
        "mcts:1000",
        "ismcts:20",
        "ai:hard",
        "alphabeta:eval=handwritten",
        "alphabeta:6,eval=handwritten,threads=2",
        "ai:strongest,threads=1",
        "greedy:eval=handwritten",
        "mcts:threads=3",
        "alphabeta:nodes=20000,null=off",
        "alphabeta:4,aspiration=off,checks=off",
        "alphabeta:threads=2,defer=off",
        "ismcts:200,memory=off",
        "ismcts:cutoff=8",
        "ai:hard,cutoff=0,memory=off",
        "ismcts:cutoff=60,memory=off,calibrate=off",
    ] {
        assert_eq!(AgentSpec::parse(text).unwrap().to_string(), text);
    }
    assert_eq!(AgentSpec::parse("ai").unwrap(), AgentSpec::level("hard"));
    assert_eq!(AgentSpec::parse("ab:3").unwrap(), AgentKind::AlphaBeta { depth: Some(3) }.into());
    let spec = AgentSpec::parse("ab:threads=2,eval=handwritten").unwrap();
    assert_eq!(
        spec,
        AgentSpec {
            eval: Some(EvalKind::Handwritten),
            threads: Some(2),
            ..AgentKind::AlphaBeta { depth: None }.into()
        }
    );
    let spec = AgentSpec::parse("alphabeta:eval=learned,lazy=150").unwrap();
    assert_eq!(spec.lazy, Lazy::Margin(150));
    assert_eq!(spec.to_string(), "alphabeta:eval=learned,lazy=150");
    assert_eq!(spec.lazy_margin::<Nim>(), Some(150));
    // Without lazy=N, the game's own margin; lazy=off, none; the last word counts.
    let default = AgentSpec::parse("alphabeta:eval=learned").unwrap();
    assert_eq!(default.lazy_margin::<Nim>(), Nim::LEARNED_LAZY_MARGIN);
    let off = AgentSpec::parse("alphabeta:eval=learned,lazy=off").unwrap();
    assert_eq!(off.lazy_margin::<Nim>(), None);
    assert_eq!(off.to_string(), "alphabeta:eval=learned,lazy=off");
    assert_eq!(AgentSpec::parse("alphabeta:eval=learned,lazy=off,lazy=40").unwrap().lazy_margin::<Nim>(), Some(40));
    assert_eq!(AgentSpec::parse("alphabeta:eval=learned,lazy=40,lazy=off").unwrap().lazy_margin::<Nim>(), None);
    for (bad, says) in [
        ("ismcts:lazy=100", "lazy is an option of the alpha-beta player"),
        ("ai:hard,lazy=100", "lazy is an option of the alpha-beta player"),
        ("ismcts:lazy=off", "lazy is an option of the alpha-beta player"),
        ("alphabeta:lazy=100", "it needs eval=learned"),
        ("alphabeta:lazy=off", "it needs eval=learned"),
        ("alphabeta:eval=tuned,lazy=100", "it needs eval=learned"),
        ("alphabeta:lazy=-1", "lazy must be off or 0 to 10000"),
        ("alphabeta:lazy=20000", "lazy must be off or 0 to 10000"),
        ("alphabeta:eval=learned,lazy=on", "lazy must be off or 0 to 10000"),
    ] {
        let error = AgentSpec::parse(bad).unwrap_err().to_string();
        assert!(error.contains(says), "{bad}: {error}");
    }
    let spec = AgentSpec::parse("alphabeta:nodes=500,null=off,null=on,checks=off").unwrap();
    assert_eq!(spec.nodes, Some(500));
    assert!(!spec.off.null_move && spec.off.check_extension && !spec.off.aspiration);
    assert_eq!(spec.limits::<Nim>(Some(std::time::Duration::from_millis(5))), Limits::nodes(500));
    for bad in [
        "",
        "alpha",
        "mcts:0",
        "mcts:x",
        "ai:superhuman",
        "random:3",
        "random:threads=2",
        "alphabeta:eval=clever",
        "alphabeta:threads=0",
        "alphabeta:threads=x",
        "alphabeta:4,5",
        "alphabeta:depth=4",
        "alphabeta:nodes=0",
        "alphabeta:null=maybe",
        "ismcts:memory=never",
        "alphabeta:memory=off",
        "alphabeta:cutoff=8",
        "greedy:calibrate=off",
        "mcts:cutoff=-1",
        "random:nodes=5",
    ] {
        assert!(AgentSpec::parse(bad).is_err(), "{bad:?}");
    }
}

fn hi_lo_visits(game: &HiLo, seed: u64) -> Vec<(bool, u32)> {
    let config = MctsConfig { information_set: true, seed, ..MctsConfig::default() };
    let mut mcts = Mcts::<HiLo>::new(config);
    let mut visits = mcts.search(game, &Limits::nodes(2000), &StopFlag::new(), &mut no_info).root_visits;
    visits.sort();
    visits
}

#[test]
fn information_set_mcts_decides_from_the_view_only() {
    // First holds a 1 in both games; what Second holds and the pile's order
    // differ, and must not change First's decision or its statistics.
    let a = HiLo::new([1, 6], vec![0, 2, 3, 4, 5]);
    let b = HiLo::new([1, 0], vec![5, 4, 3, 2, 6]);
    assert_eq!(a.view_text(Player::First), b.view_text(Player::First));
    for seed in [1, 2, 3] {
        assert_eq!(hi_lo_visits(&a, seed), hi_lo_visits(&b, seed), "seed {seed}");
    }
}

#[test]
fn information_set_mcts_plays_hi_lo_sensibly() {
    let mut agent = AgentSpec::from(AgentKind::InformationSetMcts { playouts: Some(3000) }).build::<HiLo>(7);
    let limits = Limits::nodes(3000);
    // A low card is worth swapping, a high one worth keeping, whatever Second holds.
    let low = HiLo::new([0, 6], vec![1, 2, 3, 4, 5]);
    assert_eq!(agent.decide(&low, &limits, &StopFlag::new(), &mut no_info).best, Some(SWAP));
    let high = HiLo::new([6, 0], vec![1, 2, 3, 4, 5]);
    assert_eq!(agent.decide(&high, &limits, &StopFlag::new(), &mut no_info).best, Some(KEEP));
}

#[test]
fn near_best_scores_the_root_moves_within_the_margin() {
    let stop = StopFlag::new();
    let mut search = AlphaBeta::<Nim>::default();
    for stones in [5u32, 6, 7, 9, 10, 11] {
        let game = nim(&format!("{stones} first"));
        let winning = (stones % 4) as u8;
        // Without a margin, nothing but the best move.
        let plain = search.search(&game, &Limits::depth(20), &stop, &mut no_info);
        assert!(plain.near_best.is_empty());
        // A small margin: the one winning take (the others lose).
        let narrow = Limits { near_best: Some(10), ..Limits::depth(20) };
        let result = search.search(&game, &narrow, &stop, &mut no_info);
        let moves: Vec<u8> = result.near_best.iter().map(|&(mv, _)| mv).collect();
        assert_eq!(moves, vec![winning], "{stones} stones");
        assert_eq!(result.best, Some(winning));
        // A margin wider than a won game: every take, the win first, each
        // scored as what it is (a win, or a loss).
        let wide = Limits { near_best: Some(3 * Nim::WIN), ..Limits::depth(20) };
        let result = search.search(&game, &wide, &stop, &mut no_info);
        assert_eq!(result.near_best.len(), 3, "{stones} stones: {:?}", result.near_best);
        assert_eq!(result.near_best[0].0, winning);
        assert_eq!(result.near_best[0].1, result.value);
        for &(mv, score) in &result.near_best[1..] {
            assert!(score < -(Nim::WIN - 100), "{stones} stones, take {mv}: {score} should be a loss");
        }
    }
}
