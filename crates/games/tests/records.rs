//! Game records (docs/records.md) for every registered variant: a random
//! game written, read and replayed is the same game; Kelasu numbers a
//! turn's actions together; Lunch Chess keeps chance's draws out of an
//! unfinished game's record.

use menagerie_core::record::{read_records, replay, write_record, Ending, RecordInfo, RecordResult};
use menagerie_core::{Actor, DynGame, Player};
use menagerie_games::{new_game, variants, BuiltinData};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

fn make(variant: &str, start: Option<&str>) -> Result<Box<dyn DynGame>, String> {
    new_game(variant, start, 0, &BuiltinData).map_err(|e| e.to_string())
}

/// Random legal moves (chance with its probabilities) until the end or `cap` moves.
fn random_game(variant: &str, seed: u64, cap: usize) -> Box<dyn DynGame> {
    let mut game = make(variant, None).unwrap();
    let mut rng = StdRng::seed_from_u64(seed);
    for _ in 0..cap {
        if game.outcome().is_some() {
            break;
        }
        let mv = match game.sample_chance(&mut rng) {
            Some(mv) => mv,
            None => {
                let moves = game.legal_moves();
                moves[rng.random_range(0..moves.len())].clone()
            }
        };
        game.play(&mv).unwrap();
    }
    game
}

fn variant_strings() -> Vec<String> {
    variants().iter().flat_map(|info| info.test_strings()).collect()
}

#[test]
fn every_variant_round_trips_finished_and_unfinished_games() {
    for variant in variant_strings() {
        for seed in 0..3 {
            let game = random_game(&variant, seed, 400);
            // A game the cap stopped ends by resignation, so that every
            // game is finished and so complete.
            let resigned = Ending { winner: Some(Player::Second), reason: "resignation".into() };
            let ending = game.outcome().is_none().then_some(&resigned);
            let text = write_record(game.as_ref(), None, &RecordInfo::default(), ending);
            let records = read_records(&text).unwrap_or_else(|e| panic!("{variant}: {e}\n{text}"));
            let replayed = replay(&records[0], &make).unwrap_or_else(|e| panic!("{variant}: {e}\n{text}"));
            assert_eq!(replayed.game.history(), game.history(), "{variant}");
            assert_eq!(replayed.game.to_text(), game.to_text(), "{variant}");
            assert_eq!(replayed.game.variant(), game.variant());
            let expected = match ending {
                Some(ending) => ending.clone(),
                None => {
                    let outcome = game.outcome().unwrap();
                    Ending { winner: outcome.winner(), reason: outcome.reason().to_owned() }
                }
            };
            assert_eq!(replayed.ending, Some(expected), "{variant}");
            // Written again, the record is the same text.
            assert_eq!(write_record(replayed.game.as_ref(), None, &RecordInfo::default(), ending), text, "{variant}");
            if !game.has_hidden_information() {
                // Unfinished, a game of perfect information is whole too.
                let mut unfinished = game.box_clone();
                let half = unfinished.history().len() / 2;
                while unfinished.history().len() > half {
                    unfinished.undo();
                }
                let text = write_record(unfinished.as_ref(), None, &RecordInfo::default(), None);
                let replayed = replay(&read_records(&text).unwrap()[0], &make).unwrap();
                assert_eq!(replayed.result, RecordResult::Unfinished);
                assert_eq!(replayed.game.to_text(), unfinished.to_text(), "{variant}");
            }
        }
    }
}

#[test]
fn a_game_from_a_position_text_round_trips() {
    for variant in variant_strings() {
        let mut game = random_game(&variant, 7, 30);
        if game.outcome().is_some() {
            game.undo();
        }
        let start = game.to_text();
        let mut from_there = make(&variant, Some(&start)).unwrap();
        let mut rng = StdRng::seed_from_u64(1);
        for _ in 0..6 {
            if from_there.outcome().is_some() {
                break;
            }
            let mv = from_there.sample_chance(&mut rng).unwrap_or_else(|| from_there.legal_moves()[0].clone());
            from_there.play(&mv).unwrap();
        }
        let ending = Ending { winner: None, reason: "agreed draw".into() };
        let ending = from_there.outcome().is_none().then_some(&ending);
        let text = write_record(from_there.as_ref(), Some(&start), &RecordInfo::default(), ending);
        assert!(text.contains("[SetUp \"1\"]"), "{variant}: {text}");
        let replayed = replay(&read_records(&text).unwrap()[0], &make).unwrap_or_else(|e| panic!("{variant}: {e}"));
        assert_eq!(replayed.start.as_deref(), Some(start.as_str()), "{variant}");
        assert_eq!(replayed.game.to_text(), from_there.to_text(), "{variant}");
    }
}

#[test]
fn a_kelasu_turn_writes_its_actions_together() {
    let game = random_game("kelasu", 3, 40);
    let text = write_record(game.as_ref(), None, &RecordInfo::default(), None);
    let movetext: Vec<&str> = text.split("\n\n").nth(1).unwrap().split_whitespace().collect();
    // Blue's 4 Stones give 4 actions a turn at the start: four moves after `1.`.
    assert_eq!(movetext[0], "1.");
    assert!(!movetext[1..5].iter().any(|t| t.ends_with('.')), "{text}");
    assert_eq!(movetext[5], "1...", "{text}");
    assert!(movetext.contains(&"2."), "{text}");
}

#[test]
fn lunch_records_hide_chance_until_the_end() {
    let mut game = random_game("lunch", 5, 120);
    assert!(game.outcome().is_none(), "120 decisions do not end a game");
    let public = write_record(game.as_ref(), None, &RecordInfo::default(), None);
    assert!(!public.contains("draw:"), "{public}");
    assert!(public.contains("[Result \"*\"]"), "{public}");
    // The public part cannot be replayed: chance's moves are missing.
    let error = replay(&read_records(&public).unwrap()[0], &make).unwrap_err();
    assert!(error.to_string().contains("holds only its public part"), "{error}");
    // From a position text (with hands), the start is hidden too.
    let start = game.to_text();
    let later = make("lunch", Some(&start)).unwrap();
    let hidden_start = write_record(later.as_ref(), Some(&start), &RecordInfo::default(), None);
    assert!(hidden_start.contains("[FEN \"?\"]"), "{hidden_start}");
    // Finished, the record is complete: the deal opens White's first turn,
    // and the draws back to 5 stay in the turn of the action.
    let resigned = Ending { winner: Some(Player::First), reason: "resignation".into() };
    let complete = write_record(game.as_ref(), None, &RecordInfo::default(), Some(&resigned));
    let movetext: Vec<&str> = complete.split("\n\n").nth(1).unwrap().split_whitespace().collect();
    assert_eq!(movetext[0], "1.");
    assert!(movetext[1..11].iter().all(|t| t.starts_with("draw:")), "the deal: {complete}");
    let second_turn = movetext.iter().position(|t| *t == "1...").unwrap();
    let first_turn = &movetext[11..second_turn];
    assert!(!first_turn[0].starts_with("draw:"), "{complete}");
    assert!(first_turn.last().unwrap().starts_with("draw:"), "White draws back to 5 in its turn: {complete}");
    // Each turn's first decision is the player's own.
    let mut replay_game = make("lunch", None).unwrap();
    let mut turn_starts = 0;
    for (index, token) in movetext.iter().enumerate() {
        if token.ends_with('.') {
            continue;
        }
        let starts_turn = index > 0 && movetext[index - 1].ends_with('.');
        if starts_turn && index > 1 {
            turn_starts += 1;
            assert_eq!(replay_game.to_act(), Actor::Player(replay_game.turn_player()), "{token}: {complete}");
        }
        if *token == "*" || token.contains('-') && token.len() <= 7 && !token.contains(':') {
            break;
        }
        replay_game.play(token).unwrap();
    }
    assert!(turn_starts > 3);
    game.undo();
}
