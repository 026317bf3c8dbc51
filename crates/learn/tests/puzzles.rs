//! Mining finds puzzles whose solutions replay by the rules, the same ones
//! every run, from self-played games and from records alike.

use menagerie_core::{Game, NoData};
use menagerie_learn::puzzle::mine::MineConfig;
use menagerie_learn::puzzle::selfplay::{play_game, SelfplayConfig};
use menagerie_learn::puzzle::{mine_variant, MineError, MineJob, Puzzle, RecordedGame, Source};

fn config() -> MineConfig {
    MineConfig { scan_nodes: 1_000, solve_nodes: 20_000, hash_megabytes: 8, ..MineConfig::default() }
}

fn mine(records: &[RecordedGame], games: usize) -> Vec<Puzzle> {
    let job = MineJob {
        variant: "lichen",
        records,
        selfplay_games: games,
        seed: 7,
        mine: config(),
        selfplay: SelfplayConfig::default(),
        enough: None,
    };
    let mut found = Vec::new();
    mine_variant(&job, &mut |p| found.push(p), &mut |_, _| {}).unwrap();
    found
}

#[test]
fn mined_puzzles_replay_and_are_reproducible() {
    let puzzles = mine(&[], 4);
    assert!(!puzzles.is_empty());
    assert_eq!(puzzles, mine(&[], 4), "the same seed mines the same puzzles");
    for puzzle in &puzzles {
        let mut game = menagerie_games::new_game(&puzzle.variant, Some(&puzzle.position), 0, &NoData).unwrap();
        let solver = game.to_act();
        for text in &puzzle.solution {
            game.play(text).unwrap_or_else(|e| panic!("{}: {text}: {e}", puzzle.id));
        }
        if puzzle.themes.iter().any(|t| t == "win") {
            assert_eq!(game.outcome().and_then(|o| o.winner()).map(menagerie_core::Actor::Player), Some(solver));
        }
        assert!(puzzle.rating >= 1300 && !puzzle.themes.is_empty());
        assert!(matches!(puzzle.source, Source::Selfplay { seed: 7, .. }));
    }
}

#[test]
fn records_are_mined_and_their_faults_named() {
    // A self-played game written out as a record finds the same puzzles.
    let start = menagerie_games::lichen::Lichen::start(&menagerie_games::lichen::LichenVariant::WIDE, 0);
    let played = play_game(&start, 7, 1, &SelfplayConfig::default());
    let mut position = start.clone();
    let mut texts = Vec::new();
    for &mv in &played.moves {
        texts.push(position.move_text(mv));
        position.play(mv);
    }
    let record = RecordedGame { file: "games.pgn".into(), game: 3, start: None, moves: texts.clone() };
    let from_record = mine(std::slice::from_ref(&record), 0);
    assert!(!from_record.is_empty());
    assert!(matches!(from_record[0].source, Source::Record { game: 3, .. }));
    let mut broken = record;
    broken.moves.insert(1, "z9".into());
    let job = MineJob {
        variant: "lichen",
        records: std::slice::from_ref(&broken),
        selfplay_games: 0,
        seed: 7,
        mine: config(),
        selfplay: SelfplayConfig::default(),
        enough: None,
    };
    let error = mine_variant(&job, &mut |_| {}, &mut |_, _| {}).unwrap_err();
    assert!(matches!(error, MineError::Record { game: 3, .. }), "{error}");
    let lunch = MineJob { variant: "lunch", ..job };
    assert!(matches!(mine_variant(&lunch, &mut |_| {}, &mut |_, _| {}), Err(MineError::HiddenInformation(_))));
}

/// Every puzzle shipped in `data/puzzles/` is well formed and its solution
/// replays by the rules from its position; a `win` puzzle ends won by the
/// solver; ids are unique and are what `puzzle_id` makes of the puzzle.
#[test]
fn the_shipped_puzzles_replay() {
    let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/puzzles");
    let mut games = 0;
    for game in ["lma", "fluid", "lichen", "kelasu"] {
        let text = std::fs::read_to_string(folder.join(format!("{game}.jsonl"))).unwrap();
        let mut ids = std::collections::HashSet::new();
        for (line, json) in text.lines().enumerate() {
            let puzzle: Puzzle =
                serde_json::from_str(json).unwrap_or_else(|e| panic!("{game}.jsonl:{}: {e}", line + 1));
            assert!(ids.insert(puzzle.id.clone()), "{game}: id {} twice", puzzle.id);
            assert!(puzzle.variant.starts_with(game), "{}: {} in {game}.jsonl", puzzle.id, puzzle.variant);
            let mut position = menagerie_games::new_game(&puzzle.variant, Some(&puzzle.position), 0, &NoData)
                .unwrap_or_else(|e| panic!("{}: {e}", puzzle.id));
            let solver = position.to_act();
            assert!(!puzzle.solution.is_empty() && !puzzle.themes.is_empty(), "{}", puzzle.id);
            for text in &puzzle.solution {
                position.play(text).unwrap_or_else(|e| panic!("{}: {text}: {e}", puzzle.id));
            }
            if puzzle.themes.iter().any(|t| t == "win") {
                assert_eq!(
                    position.outcome().and_then(|o| o.winner()).map(menagerie_core::Actor::Player),
                    Some(solver),
                    "{}",
                    puzzle.id
                );
            }
        }
        assert!(ids.len() >= 60, "{game}: {} puzzles", ids.len());
        games += 1;
    }
    assert_eq!(games, 4);
}
