//! The searches on the real games, through the registry: forced wins in
//! hand-built positions, legal moves only, node limits kept, and the
//! information-set search blind to what its player cannot see.

use menagerie_ai::{AgentSpec, AlphaBeta, Limits, Mcts, MctsConfig, Score, StopFlag};
use menagerie_core::{Actor, Evaluate, Game, GameVisitor, VariantSpec};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// What alpha-beta says about a position: best move text and score.
fn solve(variant: &str, position: &str, depth: u32) -> (String, Score) {
    struct Solve<'a>(&'a str, u32);
    impl GameVisitor for Solve<'_> {
        type Output = (String, Score);
        fn visit<G: Game + Evaluate>(self, variant: G::Variant) -> Self::Output {
            let game = G::from_text(&variant, self.0).expect("a valid position");
            let mut search = AlphaBeta::<G>::default();
            let result = search.search(&game, &Limits::depth(self.1), &StopFlag::new(), &mut |_| {});
            (game.move_text(result.best.expect("a move")), result.info.score)
        }
    }
    menagerie_games::visit(&VariantSpec::parse(variant).unwrap(), Solve(position, depth)).unwrap()
}

fn registered() -> Vec<&'static str> {
    menagerie_games::variants().iter().map(|v| v.id).collect()
}

/// Plays random moves, then asks several searchers for a move at each of a
/// few positions along the way; every answer must be legal, and
/// alpha-beta must keep to its node limit.
struct LegalOnly {
    seed: u64,
}

impl GameVisitor for LegalOnly {
    type Output = ();
    fn visit<G: Game + Evaluate>(self, variant: G::Variant) {
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
                for limit in [1, 500] {
                    let mut search = AlphaBeta::<G>::default();
                    let result = search.search(&game, &Limits::nodes(limit), &StopFlag::new(), &mut |_| {});
                    assert!(search.nodes() <= limit, "{} nodes for {limit}", search.nodes());
                    assert!(moves.contains(&result.best.expect("a move")));
                }
            }
            let mv = moves[rng.random_range(0..moves.len())];
            game.play(mv);
        }
    }
}

#[test]
fn searches_play_only_legal_moves_and_keep_node_limits() {
    for id in registered() {
        menagerie_games::visit(&VariantSpec::parse(id).unwrap(), LegalOnly { seed: 1 }).unwrap();
    }
}

/// Samples the hidden part of a position for one player, then checks that
/// information-set MCTS with one seed decides identically in the real
/// position and in the sample: it can only have used what the player sees.
struct BlindToHidden;

impl GameVisitor for BlindToHidden {
    /// Whether some position could be checked exactly.
    type Output = bool;
    fn visit<G: Game + Evaluate>(self, variant: G::Variant) -> bool {
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

#[test]
fn information_set_search_ignores_what_its_player_cannot_see() {
    for id in registered() {
        let exact = menagerie_games::visit(&VariantSpec::parse(id).unwrap(), BlindToHidden).unwrap();
        eprintln!("{id}: exact check of the information-set search: {exact}");
    }
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
