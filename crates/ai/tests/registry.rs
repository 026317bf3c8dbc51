//! What every registered game is checked for with the searches, one test
//! per variant string named by it (from the registry: a new game needs no
//! line here): the searches play legal moves only and keep their node
//! limits, and information-set MCTS is blind to what its player cannot see.

use libtest_mimic::{Arguments, Failed, Trial};
use menagerie_ai::{AgentSpec, AlphaBeta, AlphaBetaConfig, Limits, Mcts, MctsConfig, StopFlag};
use menagerie_core::{Actor, Evaluate, Game, GameVisitor, Present, VariantSpec};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::time::{Duration, Instant};

/// Plays random moves, then asks several searchers for a move at each of a
/// few positions along the way; every answer must be legal, and
/// alpha-beta must keep to its node limit.
struct LegalOnly {
    seed: u64,
}

impl GameVisitor for LegalOnly {
    type Output = ();
    fn visit<G: Game + Evaluate + Present>(self, variant: G::Variant) {
        let mut rng = SmallRng::seed_from_u64(self.seed);
        let mut game = G::start(&variant, self.seed);
        let mut moves = Vec::new();
        let specs = ["greedy", "mcts:20", "alphabeta:2"].map(|s| AgentSpec::parse(s).unwrap());
        for step in 0..30 {
            game.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            if step % 10 == 0 && game.to_act() != Actor::Chance {
                for spec in &specs {
                    let mut agent = spec.build::<G>(self.seed);
                    let limits = Limits { nodes: Some(2000), ..spec.limits::<G>(None) };
                    let best = agent.decide(&game, &limits, &StopFlag::new(), &mut |_| {}).best.expect("a move");
                    assert!(moves.contains(&best), "{spec} chose an illegal move in {}", game.to_text());
                }
                for threads in [1, 2] {
                    let config = AlphaBetaConfig { threads, ..AlphaBetaConfig::default() };
                    let mut search = AlphaBeta::<G>::new(config);
                    for limit in [1, 500, 5000] {
                        let result = search.search(&game, &Limits::nodes(limit), &StopFlag::new(), &mut |_| {});
                        assert!(search.nodes() <= limit, "{} nodes for {limit} on {threads} threads", search.nodes());
                        assert!(moves.contains(&result.best.expect("a move")));
                    }
                    let result = search.search(&game, &Limits::depth(2), &StopFlag::new(), &mut |_| {});
                    assert!(result.info.depth <= 2, "depth {} for a limit of 2", result.info.depth);
                    assert!(moves.contains(&result.best.expect("a move")));
                }
            }
            let mv = moves[rng.random_range(0..moves.len())];
            game.play(mv);
        }
    }
}

/// Two threads on a time limit: a legal move, in about the time given
/// (the bound is loose: the test machine may be busy, but a search that
/// ignored its clock would run to depth 100). A game that starts with
/// chance (a deal) is dealt first.
struct TwoThreadsOnTime;

impl GameVisitor for TwoThreadsOnTime {
    type Output = ();
    fn visit<G: Game + Evaluate + Present>(self, variant: G::Variant) {
        let mut game = G::start(&variant, 3);
        let mut rng = SmallRng::seed_from_u64(3);
        while let Some(mv) = menagerie_core::sample_chance(&game, &mut rng) {
            game.play(mv);
        }
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        let mut search = AlphaBeta::<G>::new(AlphaBetaConfig { threads: 2, ..AlphaBetaConfig::default() });
        let started = Instant::now();
        let result = search.search(&game, &Limits::time_ms(100), &StopFlag::new(), &mut |_| {});
        let elapsed = started.elapsed();
        assert!(moves.contains(&result.best.expect("a move")), "{}", game.to_text());
        assert!(elapsed < Duration::from_secs(3), "100 ms asked, {elapsed:?} taken in {}", game.to_text());
        assert!(result.info.nodes > 0);
    }
}

/// Samples the hidden part of a position for one player, then checks that
/// information-set MCTS with one seed decides identically in the real
/// position and in the sample: it can only have used what the player sees.
struct BlindToHidden;

impl GameVisitor for BlindToHidden {
    /// Whether some position could be checked exactly.
    type Output = bool;
    fn visit<G: Game + Evaluate + Present>(self, variant: G::Variant) -> bool {
        if !G::has_hidden_information() {
            return false;
        }
        let mut rng = SmallRng::seed_from_u64(9);
        let mut checked = 0;
        for seed in 1..=6u64 {
            let mut game = G::start(&variant, seed);
            let mut moves = Vec::new();
            for _ in 0..(seed * 3) {
                game.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                game.play(moves[rng.random_range(0..moves.len())]);
            }
            let Actor::Player(me) = game.to_act() else { continue };
            if game.outcome().is_some() {
                continue;
            }
            let other = game.determinize(me, &mut rng);
            assert_eq!(game.view_text(me), other.view_text(me), "a sample keeps the view");
            // The search reads the position only through `determinize`. When
            // the game samples from the view alone (the same random numbers
            // give the same sample whatever the hidden truth), the decisions
            // must then be identical.
            let sample = |position: &G| position.determinize(me, &mut SmallRng::seed_from_u64(5)).to_text();
            if sample(&game) != sample(&other) {
                continue;
            }
            let decide = |position: &G| {
                let config =
                    MctsConfig { information_set: true, playout_cutoff: Some(30), seed: 4, ..MctsConfig::default() };
                let mut mcts = Mcts::<G>::new(config);
                let result = mcts.search(position, &Limits::nodes(200), &StopFlag::new(), &mut |_| {});
                let mut visits: Vec<(String, u32)> =
                    result.root_visits.iter().map(|&(mv, n)| (position.move_text(mv), n)).collect();
                visits.sort();
                visits
            };
            assert_eq!(decide(&game), decide(&other), "seed {seed}: the decision saw hidden state");
            checked += 1;
        }
        // `checked` stays 0 when the game's samples depend on the hidden
        // order of the cards it shuffles (still a uniform sample).
        checked > 0
    }
}

fn legal_only(variant: &str) -> Result<(), Failed> {
    let spec = VariantSpec::parse(variant).map_err(|e| e.to_string())?;
    menagerie_games::visit(&spec, LegalOnly { seed: 1 }).map_err(|e| e.to_string())?;
    Ok(())
}

fn two_threads_on_time(variant: &str) -> Result<(), Failed> {
    let spec = VariantSpec::parse(variant).map_err(|e| e.to_string())?;
    menagerie_games::visit(&spec, TwoThreadsOnTime).map_err(|e| e.to_string())?;
    Ok(())
}

fn blind_to_hidden(variant: &str) -> Result<(), Failed> {
    let spec = VariantSpec::parse(variant).map_err(|e| e.to_string())?;
    let exact = menagerie_games::visit(&spec, BlindToHidden).map_err(|e| e.to_string())?;
    eprintln!("{variant}: exact check of the information-set search: {exact}");
    Ok(())
}

fn main() {
    let mut trials = Vec::new();
    for info in menagerie_games::variants() {
        let id = info.id;
        trials
            .push(Trial::test(format!("searches play legal moves and keep node limits: {id}"), move || legal_only(id)));
        trials.push(Trial::test(format!("two threads keep a time limit: {id}"), move || two_threads_on_time(id)));
        trials
            .push(Trial::test(format!("information-set search ignores what its player cannot see: {id}"), move || {
                blind_to_hidden(id)
            }));
    }
    libtest_mimic::run(&Arguments::from_args(), trials).exit();
}
