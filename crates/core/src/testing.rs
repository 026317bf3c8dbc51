//! Property checks every registered game runs (the registry-driven tests):
//! random play with play/undo, hash and text round trips, and parser
//! robustness against mutated texts. A broken property panics with the
//! position text and move that show it.

use crate::{Actor, Encode, Evaluate, Game, Player};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::HashSet;

pub mod coin;
pub mod nim;

/// How much random play [`random_play`] does.
#[derive(Clone, Copy, Debug)]
pub struct Soak {
    pub games: usize,
    pub max_plies: usize,
    pub seed: u64,
    /// How many legal moves per position get their text parsed back.
    pub texts_per_position: usize,
}

impl Default for Soak {
    fn default() -> Self {
        Soak { games: 40, max_plies: 300, seed: 1, texts_per_position: 24 }
    }
}

impl Soak {
    /// Multiplies the number of games by `MENAGERIE_SOAK` when that is set,
    /// so that a long soak is one environment variable away.
    pub fn scaled_by_env(mut self) -> Self {
        if let Some(factor) = std::env::var("MENAGERIE_SOAK").ok().and_then(|v| v.parse::<usize>().ok()) {
            self.games *= factor.max(1);
        }
        self
    }
}

/// Plays random games from the start position (seeds `soak.seed..`) and
/// checks at every ply:
/// - legal moves are empty exactly when the game is over;
/// - the counted legal moves equal the listed ones;
/// - move texts are distinct and parse back to the same move;
/// - the rules' invariants hold ([`Game::check_invariants`]);
/// - the position text round-trips, and the parsed position has the same
///   hash (so the incremental hash equals the recomputed one);
/// - playing then undoing any legal move restores text and hash;
/// - each player's view survives [`Game::determinize`] unchanged;
/// - the search's views of the moves agree with the list
///   ([`check_search_hooks`]);
/// - where chance acts, every chance move has a positive probability and
///   they sum to 1;
///
/// and at the end undoes the whole game back to the start.
pub fn random_play<G: Evaluate>(variant: &G::Variant, soak: Soak) {
    for game_index in 0..soak.games {
        let seed = soak.seed.wrapping_add(game_index as u64);
        random_game(G::start(variant, seed), variant, soak, seed);
    }
}

/// [`random_play`] from given positions (one game per position and seed).
pub fn random_play_from<G: Evaluate>(variant: &G::Variant, texts: &[&str], soak: Soak) {
    for text in texts {
        let start = G::from_text(variant, text).unwrap_or_else(|e| panic!("{text:?} does not parse: {e}"));
        for game_index in 0..soak.games {
            random_game(start.clone(), variant, soak, soak.seed.wrapping_add(game_index as u64));
        }
    }
}

fn random_game<G: Evaluate>(mut game: G, variant: &G::Variant, soak: Soak, seed: u64) {
    let mut rng = StdRng::seed_from_u64(seed);
    let initial = (game.to_text(), game.hash());
    let mut moves = Vec::new();
    let mut scratch = Vec::new();
    let mut played = 0;
    for _ in 0..soak.max_plies {
        check_position(&game, variant, &mut rng, soak);
        game.legal_moves(&mut moves);
        let text = game.to_text();
        assert_eq!(
            moves.is_empty(),
            game.outcome().is_some(),
            "legal moves must be empty exactly when the game is over, in {text}"
        );
        assert_eq!(game.count_legal_moves(&mut scratch), moves.len() as u64, "count_legal_moves in {text}");
        match game.random_move(&mut rng, &mut scratch) {
            Some(mv) => assert!(moves.contains(&mv), "random_move gave an illegal move {mv:?} in {text}"),
            None => assert!(moves.is_empty(), "random_move found no move in {text}, which has moves"),
        }
        if moves.is_empty() {
            break;
        }
        check_move_texts(&game, &moves, &mut rng, soak.texts_per_position);
        check_search_hooks(&mut game, &moves);

        let probe = moves[rng.random_range(0..moves.len())];
        let probe_text = game.move_text(probe);
        game.play(probe);
        game.check_invariants().unwrap_or_else(|e| panic!("{probe_text} from {text} breaks a rule: {e}"));
        game.undo();
        assert_eq!(game.to_text(), text, "play/undo of {probe_text} changed the position text");
        assert_eq!(
            game.hash(),
            G::from_text(variant, &text).unwrap().hash(),
            "play/undo of {probe_text} from {text} changed the hash"
        );

        let mv = moves[rng.random_range(0..moves.len())];
        game.play(mv);
        played += 1;
    }
    for _ in 0..played {
        game.undo();
    }
    assert_eq!((game.to_text(), game.hash()), initial, "undoing the whole game did not restore the start");
}

fn check_position<G: Game>(game: &G, variant: &G::Variant, rng: &mut StdRng, soak: Soak) {
    let text = game.to_text();
    game.check_invariants().unwrap_or_else(|e| panic!("{text} breaks a rule: {e}"));
    let parsed = G::from_text(variant, &text).unwrap_or_else(|e| panic!("own text {text:?} does not parse: {e}"));
    assert_eq!(parsed.to_text(), text, "position text does not round-trip");
    assert_eq!(parsed.hash(), game.hash(), "incremental hash differs from the hash of the parsed text {text}");
    if game.outcome().is_none() {
        assert_eq!(parsed.to_act(), game.to_act(), "actor differs after a text round trip of {text}");
    }
    if game.outcome().is_none() && game.to_act() == Actor::Chance {
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        let mut total = 0.0;
        for &mv in &moves {
            let p = game.chance_probability(mv);
            assert!(p > 0.0, "chance move {} has probability {p} in {text}", game.move_text(mv));
            total += p;
        }
        assert!((total - 1.0).abs() < 1e-9, "the chance moves' probabilities sum to {total} in {text}");
    }
    if G::has_hidden_information() {
        for viewer in Player::BOTH {
            let view = game.view_text(viewer);
            let sampled = game.determinize(viewer, rng);
            assert_eq!(sampled.view_text(viewer), view, "determinize changed what {viewer:?} sees in {text}");
            sampled.check_invariants().unwrap_or_else(|e| panic!("determinized {text} breaks a rule: {e}"));
        }
    }
    let _ = soak;
}

/// Plays random games from the start (seeds `soak.seed..`) and checks the
/// action space and the observation ([`Encode`]) at every ply:
/// - every legal move's index is below `num_distinct_actions`, and no two
///   legal moves of a position share one;
/// - an index that names a fixed text ([`Encode::action_text`]) names the
///   move's own text;
/// - the game is no longer than `max_game_length`;
/// - the observation has the declared shape, and each player's equals the
///   one of a position sampled from that player's view
///   ([`Game::determinize`]): it depends on nothing that player cannot see.
pub fn check_encoding<G: Encode>(variant: &G::Variant, soak: Soak) {
    let size = G::num_distinct_actions(variant);
    let cells: usize = G::observation_shape(variant).iter().product();
    for game_index in 0..soak.games {
        let seed = soak.seed.wrapping_add(game_index as u64);
        let mut rng = StdRng::seed_from_u64(seed);
        let mut game = G::start(variant, seed);
        let mut moves = Vec::new();
        for ply in 0.. {
            assert!(ply <= G::max_game_length(variant), "a game longer than max_game_length {}", ply);
            let text = game.to_text();
            for viewer in Player::BOTH {
                let mut seen = vec![0.0; cells];
                game.observe(viewer, &mut seen);
                assert!(seen.iter().all(|x| x.is_finite()), "an observation that is not finite in {text}");
                let mut sampled_seen = vec![0.0; cells];
                game.determinize(viewer, &mut rng).observe(viewer, &mut sampled_seen);
                assert!(seen == sampled_seen, "{viewer:?}'s observation depends on what it cannot see in {text}");
            }
            game.legal_moves(&mut moves);
            let mut indices = HashSet::new();
            for &mv in &moves {
                let action = game.action(mv);
                let move_text = game.move_text(mv);
                assert!(action < size, "{move_text} has index {action}, outside 0..{size}, in {text}");
                assert!(indices.insert(action), "two moves share index {action} ({move_text}) in {text}");
                if let Some(fixed) = G::action_text(variant, action) {
                    assert_eq!(fixed, move_text, "index {action} names another text in {text}");
                }
            }
            // The numbered listing: the same moves, each with its index,
            // strictly ascending.
            let (mut numbered, mut actions) = (Vec::new(), Vec::new());
            game.numbered_moves(&mut numbered, &mut actions);
            assert_eq!(numbered.len(), moves.len(), "numbered_moves lists another number of moves in {text}");
            assert!(actions.windows(2).all(|pair| pair[0] < pair[1]), "numbered_moves out of order in {text}");
            for (&mv, &action) in numbered.iter().zip(&actions) {
                assert_eq!(action, game.action(mv), "numbered_moves gives {mv:?} another index in {text}");
            }
            let listed: HashSet<G::Move> = moves.iter().copied().collect();
            assert!(
                numbered.iter().all(|mv| listed.contains(mv)),
                "numbered_moves lists a move legal_moves does not in {text}"
            );
            if moves.is_empty() || ply >= soak.max_plies {
                break;
            }
            let mv = moves[rng.random_range(0..moves.len())];
            game.play(mv);
        }
    }
}

/// Whether `outcome` is a draw by repetition: the one rule that looks at
/// positions before the one a text describes (every game names it so).
fn is_repetition(outcome: Option<crate::Outcome>) -> bool {
    outcome.is_some_and(|o| {
        o.winner().is_none() && (o.reason().contains("repetition") || o.reason().contains("occurrence"))
    })
}

/// The position text holds everything the rules depend on but the earlier
/// positions a repetition looks at: random games (seeds `soak.seed..`) are
/// cut at random plies, the text read back, and the copy played on with the
/// original's moves, to the end or `soak.max_plies`. At every ply the two
/// must agree on the text, the legal moves, chance's probabilities, the
/// outcome, both players' view texts and observations (so also on what a
/// player knows of hidden cards); the one difference allowed is that the
/// original ends by repetition where the copy, which has not seen the
/// positions before the cut, plays on (then the comparison stops).
pub fn check_text_is_whole<G: Encode>(variant: &G::Variant, soak: Soak) {
    let cells: usize = G::observation_shape(variant).iter().product();
    let (mut moves, mut copied_moves) = (Vec::new(), Vec::new());
    for game_index in 0..soak.games {
        let seed = soak.seed.wrapping_add(game_index as u64);
        let mut rng = StdRng::seed_from_u64(seed);
        let mut game = G::start(variant, seed);
        let cut = rng.random_range(0..soak.max_plies.max(1));
        for _ in 0..cut {
            match random_move(&game, &mut moves, &mut rng) {
                Some(mv) => game.play(mv),
                None => break,
            }
        }
        let cut_text = game.to_text();
        let mut copy =
            G::from_text(variant, &cut_text).unwrap_or_else(|e| panic!("own text {cut_text:?} does not parse: {e}"));
        for ply in 0..soak.max_plies {
            let text = game.to_text();
            let context = || format!("{ply} plies after the cut at {cut_text}, in {text}");
            if is_repetition(game.outcome()) && copy.outcome().is_none() {
                break;
            }
            assert_eq!(copy.outcome(), game.outcome(), "the outcome differs {}", context());
            assert_eq!(copy.to_text(), text, "the text differs {}", context());
            game.legal_moves(&mut moves);
            copy.legal_moves(&mut copied_moves);
            assert_eq!(copied_moves, moves, "the legal moves differ {}", context());
            for viewer in Player::BOTH {
                assert_eq!(copy.view_text(viewer), game.view_text(viewer), "{viewer:?}'s view differs {}", context());
                let (mut seen, mut copy_seen) = (vec![0.0; cells], vec![0.0; cells]);
                game.observe(viewer, &mut seen);
                copy.observe(viewer, &mut copy_seen);
                assert!(seen == copy_seen, "{viewer:?}'s observation differs {}", context());
                if G::has_hidden_information() {
                    // What the viewer knows of the hidden cards decides the
                    // samples: equal generators must give equal samples.
                    let sample_seed = rng.random();
                    let sample = game.determinize(viewer, &mut StdRng::seed_from_u64(sample_seed));
                    let copy_sample = copy.determinize(viewer, &mut StdRng::seed_from_u64(sample_seed));
                    assert_eq!(copy_sample.to_text(), sample.to_text(), "{viewer:?}'s samples differ {}", context());
                }
            }
            if moves.is_empty() {
                break;
            }
            if game.to_act() == Actor::Chance {
                for &mv in &moves {
                    assert_eq!(
                        copy.chance_probability(mv),
                        game.chance_probability(mv),
                        "chance differs {}",
                        context()
                    );
                }
            }
            let Some(mv) = random_move(&game, &mut moves, &mut rng) else { break };
            game.play(mv);
            copy.play(mv);
        }
    }
}

/// What the searches ask besides the move list agrees with it: the
/// tactical moves are the listed moves [`Evaluate::is_tactical`] accepts,
/// the two batches of [`Evaluate::first_moves`] are the list, a random
/// move is legal, and a null move (where allowed) hands the move over and
/// undoes cleanly.
pub fn check_search_hooks<G: Evaluate>(game: &mut G, moves: &[G::Move]) {
    let text = game.to_text();
    let listed: HashSet<G::Move> = moves.iter().copied().collect();
    let mut scratch = Vec::new();
    let going_on = game.tactical_moves(&mut scratch);
    assert_eq!(going_on, !moves.is_empty(), "tactical_moves says the game is over wrongly in {text}");
    let tactical: HashSet<G::Move> = scratch.iter().copied().collect();
    let expected: HashSet<G::Move> = moves.iter().copied().filter(|&mv| game.is_tactical(mv)).collect();
    assert_eq!(tactical.len(), scratch.len(), "tactical_moves lists a move twice in {text}");
    assert!(tactical == expected, "tactical_moves differ from the tactical legal moves in {text}");

    let later = game.first_moves(&mut scratch);
    if later {
        game.later_moves(&mut scratch);
    }
    let batches: HashSet<G::Move> = scratch.iter().copied().collect();
    assert_eq!(batches.len(), scratch.len(), "the two batches share a move in {text}");
    assert!(batches == listed, "first_moves + later_moves differ from legal_moves in {text}");

    if game.null_move_allowed() {
        let (actor, hash) = (game.to_act(), game.hash());
        game.play_null();
        assert_ne!(game.to_act(), actor, "a null move in {text} leaves the same actor");
        assert_ne!(game.hash(), hash, "a null move in {text} leaves the hash unchanged");
        game.undo_null();
        assert_eq!((game.to_text(), game.hash()), (text.clone(), hash), "undo_null does not restore {text}");
    }
}

fn check_move_texts<G: Game>(game: &G, moves: &[G::Move], rng: &mut StdRng, samples: usize) {
    let position = game.to_text();
    let mut texts: Vec<String> = moves.iter().map(|&mv| game.move_text(mv)).collect();
    texts.sort_unstable();
    if let Some(pair) = texts.windows(2).find(|w| w[0] == w[1]) {
        panic!("two legal moves share the text {:?} in {position}", pair[0]);
    }
    for _ in 0..samples.min(moves.len()) {
        let mv = moves[rng.random_range(0..moves.len())];
        let text = game.move_text(mv);
        let parsed =
            game.parse_move(&text).unwrap_or_else(|e| panic!("legal move {text:?} does not parse in {position}: {e}"));
        assert_eq!(parsed, mv, "move text {text:?} parses to another move in {position}");
    }
}

/// Feeds mutated versions of valid position texts (and of legal move texts)
/// to the parsers: they must return an error or a position, never panic,
/// and a position they accept must round-trip.
pub fn mutated_texts<G: Game>(variant: &G::Variant, seeds: &[&str], mutations: usize, seed: u64) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut alphabet: Vec<char> = seeds.iter().flat_map(|s| s.chars()).collect();
    alphabet.extend(['0', '9', ' ', '/', '-', '\u{e9}', '\u{0}', 'x', '[', ']', ';']);
    for base in seeds {
        let game = G::from_text(variant, base).unwrap_or_else(|e| panic!("seed text {base:?} does not parse: {e}"));
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        let move_texts: Vec<String> = moves.iter().map(|&m| game.move_text(m)).collect();
        for _ in 0..mutations {
            let mutated = mutate(base, &alphabet, &mut rng);
            if let Ok(position) = G::from_text(variant, &mutated) {
                let text = position.to_text();
                let again = G::from_text(variant, &text)
                    .unwrap_or_else(|e| panic!("{text:?} (from {mutated:?}) does not parse: {e}"));
                assert_eq!(again.to_text(), text, "accepted text {mutated:?} does not round-trip");
            }
            if !move_texts.is_empty() && game.outcome().is_none() {
                let original = &move_texts[rng.random_range(0..move_texts.len())];
                let _ = game.parse_move(&mutate(original, &alphabet, &mut rng));
            }
        }
    }
}

fn mutate(text: &str, alphabet: &[char], rng: &mut StdRng) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for _ in 0..rng.random_range(1..=3) {
        let len = chars.len();
        match rng.random_range(0..6) {
            0 if len > 0 => {
                chars.remove(rng.random_range(0..len));
            }
            1 => chars.insert(rng.random_range(0..=len), alphabet[rng.random_range(0..alphabet.len())]),
            2 if len > 0 => chars[rng.random_range(0..len)] = alphabet[rng.random_range(0..alphabet.len())],
            3 if len > 0 => chars.truncate(rng.random_range(0..len)),
            4 if len > 1 => {
                let (a, b) = (rng.random_range(0..len), rng.random_range(0..len));
                chars.swap(a, b);
            }
            _ => {
                let start = rng.random_range(0..=len);
                let end = rng.random_range(start..=len);
                let copy: Vec<char> = chars[start..end].to_vec();
                let at = rng.random_range(0..=chars.len());
                chars.splice(at..at, copy);
            }
        }
    }
    chars.into_iter().collect()
}

/// Picks a uniformly random legal move, or `None` when the game is over.
pub fn random_move<G: Game, R: Rng>(game: &G, moves: &mut Vec<G::Move>, rng: &mut R) -> Option<G::Move> {
    game.legal_moves(moves);
    if moves.is_empty() {
        return None;
    }
    Some(moves[rng.random_range(0..moves.len())])
}

/// Draws `draws` moves with [`Game::random_move`] in `game` (a player's
/// turn with at least two moves) and checks that each is legal and that
/// their counts fit a uniform distribution over the legal moves: the
/// chi-square statistic must lie far inside its tail (a draw biased to one
/// half of the list fails by thousands).
pub fn assert_random_moves_uniform<G: Game>(game: &G, draws: u32, seed: u64) {
    let text = game.to_text();
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    assert!(moves.len() >= 2, "{text} has fewer than two moves to draw from");
    let mut rng = StdRng::seed_from_u64(seed);
    let mut scratch = Vec::new();
    let mut counts = std::collections::HashMap::new();
    for _ in 0..draws {
        let mv = game.random_move(&mut rng, &mut scratch).expect("a legal move");
        assert!(moves.contains(&mv), "{} drawn in {text}, not legal", game.move_text(mv));
        *counts.entry(mv).or_insert(0u32) += 1;
    }
    let expected = f64::from(draws) / moves.len() as f64;
    let chi_square: f64 =
        moves.iter().map(|mv| (f64::from(counts.get(mv).copied().unwrap_or(0)) - expected).powi(2) / expected).sum();
    let freedom = (moves.len() - 1) as f64;
    assert!(
        chi_square < freedom + 6.0 * (2.0 * freedom).sqrt() + 10.0,
        "chi-square {chi_square:.1} with {freedom} degrees of freedom in {text}"
    );
}

/// The actor is a player in every position of a game without chance; a
/// convenience for tests that drive two-player games.
pub fn expect_player<G: Game>(game: &G) -> Player {
    match game.to_act() {
        Actor::Player(p) => p,
        Actor::Chance => panic!("chance acts in {}", game.to_text()),
    }
}

/// A network of random weights for `G`'s inputs, for checking the
/// accumulators of a game whether or not it has a trained network.
pub fn random_network<G: Evaluate>(hidden: usize, seed: u64) -> crate::nnue::Network {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut weights =
        |count: usize, bound: f32| -> Vec<f32> { (0..count).map(|_| rng.random_range(-bound..bound)).collect() };
    let inputs = G::LEARNED_INPUTS;
    crate::nnue::FloatNetwork {
        inputs,
        hidden,
        input_weights: weights(inputs * hidden, 0.5),
        hidden_biases: weights(hidden, 0.5),
        output_weights: weights(2 * hidden, 2.0),
        output_bias: 0.1,
    }
    .quantize(G::LEARNED_FEATURES, "random, for tests", crate::nnue::Base::Tuned)
    .expect("random weights within range")
}

/// Plays random games from the start (seeds `soak.seed..`) and checks the
/// learned evaluation's inputs and accumulators at every ply:
/// - every input is below [`Evaluate::LEARNED_INPUTS`];
/// - after any legal move, and after its undo, the accumulators brought
///   there by difference ([`crate::nnue::Evaluator`]) equal accumulators
///   summed from scratch, and so does the evaluation;
/// - in a game with hidden information, every input of both perspectives
///   is the same in any position sampled from either player's view: the
///   network sees nothing a player cannot.
///
/// With the game's own network when it has one, else a random one.
pub fn check_learned_inputs<G: Evaluate>(variant: &G::Variant, soak: Soak) {
    use crate::nnue::{sorted_inputs, Evaluator};
    if G::LEARNED_INPUTS == 0 {
        return;
    }
    let random = random_network::<G>(16, soak.seed);
    let network = G::network().unwrap_or(&random);
    assert_eq!(network.inputs(), G::LEARNED_INPUTS, "the network's inputs are not the game's");
    let mut evaluator = Evaluator::new();
    let check = |evaluator: &mut Evaluator, game: &G, what: &str| {
        evaluator.update(network, game);
        for perspective in Player::BOTH {
            let inputs = sorted_inputs(game, perspective);
            if let Some(input) = inputs.iter().find(|&&input| usize::from(input) >= G::LEARNED_INPUTS) {
                panic!("input {input} of {} in {}", G::LEARNED_INPUTS, game.to_text());
            }
            let accumulator = evaluator.accumulator(perspective);
            let mut held = accumulator.inputs().to_vec();
            held.sort_unstable();
            assert_eq!(held, inputs, "{what}: the accumulator's inputs in {}", game.to_text());
            assert_eq!(
                accumulator.units(),
                &network.accumulate(&inputs)[..],
                "{what}: the accumulator differs from one built from scratch in {}",
                game.to_text()
            );
        }
        if game.outcome().is_none() && game.to_act() != Actor::Chance {
            let us = expect_player(game);
            let scratch = network.evaluate(&sorted_inputs(game, us), &sorted_inputs(game, us.other()));
            assert_eq!(evaluator.output(network, game), scratch, "{what}: the evaluation in {}", game.to_text());
        }
    };
    let mut moves = Vec::new();
    for game_index in 0..soak.games {
        let seed = soak.seed.wrapping_add(game_index as u64);
        let mut rng = StdRng::seed_from_u64(seed);
        let mut game = G::start(variant, seed);
        for _ in 0..soak.max_plies {
            check(&mut evaluator, &game, "before a move");
            game.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            if G::has_hidden_information() {
                for viewer in Player::BOTH {
                    let sampled = game.determinize(viewer, &mut rng);
                    for perspective in Player::BOTH {
                        assert_eq!(
                            sorted_inputs(&sampled, perspective),
                            sorted_inputs(&game, perspective),
                            "inputs depend on what {viewer:?} cannot see in {}",
                            game.to_text()
                        );
                    }
                }
            }
            for _ in 0..moves.len().min(8) {
                let mv = moves[rng.random_range(0..moves.len())];
                let text = game.move_text(mv);
                game.play(mv);
                check(&mut evaluator, &game, &format!("after {text}"));
                game.undo();
                check(&mut evaluator, &game, &format!("after {text} and its undo"));
            }
            game.play(moves[rng.random_range(0..moves.len())]);
        }
    }
}
