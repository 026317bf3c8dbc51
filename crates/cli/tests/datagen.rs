//! `menagerie datagen` (docs/datagen.md): every game's positions rebuild
//! through its rules with the right side's result; the same command makes
//! the same bytes, whatever the jobs; a stopped run resumes with no game
//! twice; ranges of games from several processes are the games of one run;
//! a file of other settings is refused; `--eval learned` plays with the
//! network and its header says so.

use menagerie_ai::datagen::{DataReader, GameData, Header};
use menagerie_core::{Actor, Player};
use menagerie_games::BuiltinData;
use std::path::Path;
use std::process::{Command, Output};

fn menagerie(args: &[&str], folder: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_menagerie")).args(args).current_dir(folder).output().expect("the binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Runs datagen with `args` into `file` in `folder`, which must succeed.
fn datagen(folder: &Path, file: &str, args: &[&str]) -> Vec<u8> {
    let mut all = vec!["datagen"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--out", file]);
    let ran = menagerie(&all, folder);
    assert!(ran.status.success(), "{all:?}: {}", text(&ran.stderr));
    std::fs::read(folder.join(file)).unwrap()
}

fn read(bytes: &[u8]) -> (Header, Vec<GameData>) {
    let reader = DataReader::new(bytes).unwrap();
    let header = reader.header().clone();
    (header, reader.map(Result::unwrap).collect())
}

#[test]
fn every_game_records_positions_its_rules_read_back() {
    let folder = tempfile::tempdir().unwrap();
    for variant in ["lma", "fluid", "lichen", "kelasu", "lunch"] {
        let bytes =
            datagen(folder.path(), "game.data", &[variant, "--games", "2", "--nodes", "200", "--max-plies", "60"]);
        std::fs::remove_file(folder.path().join("game.data")).unwrap();
        let (header, games) = read(&bytes);
        assert_eq!((header.variant.as_str(), header.nodes, header.games, header.first_game), (variant, 200, 2, 0));
        assert_eq!(games.iter().map(|g| g.index).collect::<Vec<_>>(), [0, 1]);
        let mut positions = 0;
        for game in &games {
            assert_eq!(game.adjudicated, game.plies >= 60, "{variant} game {}", game.index);
            let mut last_ply = None;
            for record in &game.records {
                let position = menagerie_games::new_game(variant, Some(&record.position), 0, &BuiltinData)
                    .unwrap_or_else(|e| panic!("{variant}: {e}: {}", record.position));
                assert_eq!(position.to_text(), record.position, "{variant}: the text reads back");
                assert!(position.outcome().is_none(), "{variant}: a finished position recorded");
                let Actor::Player(actor) = position.to_act() else { panic!("{variant}: chance's position recorded") };
                let expected = if actor == Player::First { game.first_result } else { -game.first_result };
                assert_eq!(record.result, expected, "{variant}: the result is the side to act's");
                assert!(last_ply.is_none_or(|last| record.ply > last), "{variant}: plies go up");
                assert!(u32::from(record.ply) < game.plies);
                last_ply = Some(record.ply);
                positions += 1;
            }
        }
        assert!(positions > 4, "{variant}: only {positions} positions");
    }
}

#[test]
fn the_same_command_writes_the_same_bytes_whatever_the_jobs() {
    let folder = tempfile::tempdir().unwrap();
    let args = ["fluid", "--games", "3", "--nodes", "200", "--max-plies", "80", "--seed", "5"];
    let once = datagen(folder.path(), "a.data", &args);
    let again = datagen(folder.path(), "b.data", &args);
    assert!(once == again, "two runs of one command differ");
    let mut parallel = args.to_vec();
    parallel.extend_from_slice(&["--jobs", "3"]);
    assert!(datagen(folder.path(), "c.data", &parallel) == once, "--jobs 3 wrote other bytes");
    let mut other_seed = args.to_vec();
    other_seed[8] = "6";
    assert!(read(&datagen(folder.path(), "d.data", &other_seed)).1 != read(&once).1, "another seed, the same games");
}

#[test]
fn a_stopped_run_resumes_after_its_last_whole_game() {
    let folder = tempfile::tempdir().unwrap();
    let args = ["lichen", "--games", "4", "--nodes", "200", "--max-plies", "80"];
    let full = datagen(folder.path(), "full.data", &args);
    let (_, games) = read(&full);
    // Where each game ends, after the header.
    let header_length = full.len() - games.iter().map(|g| g.encode().unwrap().len()).sum::<usize>();
    let cuts = [header_length, header_length + 5, header_length + games[0].encode().unwrap().len() + 1, full.len() - 1];
    for cut in cuts {
        std::fs::write(folder.path().join("cut.data"), &full[..cut]).unwrap();
        let resumed = datagen(folder.path(), "cut.data", &args);
        assert!(resumed == full, "resumed after a cut at byte {cut} of {}: other bytes", full.len());
    }
    // Run once more: nothing to do, nothing changed.
    assert!(datagen(folder.path(), "cut.data", &args) == full);
}

#[test]
fn ranges_of_games_are_the_games_of_one_run() {
    let folder = tempfile::tempdir().unwrap();
    let common = ["lma", "--nodes", "200", "--max-plies", "60", "--seed", "3"];
    let with = |extra: &[&'static str]| {
        let mut args = common.to_vec();
        args.extend_from_slice(extra);
        args
    };
    let (_, whole) = read(&datagen(folder.path(), "all.data", &with(&["--games", "4"])));
    let (first_header, first) = read(&datagen(folder.path(), "1.data", &with(&["--games", "2"])));
    let (second_header, second) =
        read(&datagen(folder.path(), "2.data", &with(&["--first-game", "2", "--games", "2"])));
    assert_eq!((first_header.first_game, second_header.first_game), (0, 2));
    let joined: Vec<GameData> = first.into_iter().chain(second).collect();
    assert_eq!(joined, whole);
}

#[test]
fn a_file_of_other_settings_or_not_data_is_refused() {
    let folder = tempfile::tempdir().unwrap();
    let made = datagen(folder.path(), "made.data", &["fluid", "--games", "1", "--nodes", "100", "--max-plies", "30"]);
    let other = menagerie(
        &["datagen", "fluid", "--games", "1", "--nodes", "101", "--max-plies", "30", "--out", "made.data"],
        folder.path(),
    );
    assert_eq!(other.status.code(), Some(2), "{}", text(&other.stderr));
    assert!(text(&other.stderr).contains("--nodes: the file's 100, this run's 101"), "{}", text(&other.stderr));
    assert!(std::fs::read(folder.path().join("made.data")).unwrap() == made, "a refused run changed the file");
    std::fs::write(folder.path().join("notes.txt"), "some notes\n").unwrap();
    let foreign = menagerie(&["datagen", "fluid", "--out", "notes.txt"], folder.path());
    assert_eq!(foreign.status.code(), Some(2));
    assert!(text(&foreign.stderr).contains("not a menagerie data file"), "{}", text(&foreign.stderr));
    assert_eq!(std::fs::read_to_string(folder.path().join("notes.txt")).unwrap(), "some notes\n");
    let variant = menagerie(&["datagen", "chess", "--out", "x.data"], folder.path());
    assert_eq!(variant.status.code(), Some(2));
    assert!(!folder.path().join("x.data").exists());
}

#[test]
fn the_learned_evaluation_plays_other_games_and_says_so() {
    let folder = tempfile::tempdir().unwrap();
    let args = ["fluid", "--games", "2", "--nodes", "300", "--max-plies", "60", "--seed", "7"];
    let (tuned_header, tuned) = read(&datagen(folder.path(), "tuned.data", &args));
    let mut learned_args = args.to_vec();
    learned_args.extend_from_slice(&["--eval", "learned"]);
    let learned_bytes = datagen(folder.path(), "learned.data", &learned_args);
    let (learned_header, learned) = read(&learned_bytes);
    assert!(!tuned_header.build.contains("eval="), "{}", tuned_header.build);
    assert_eq!(learned_header.build, format!("{}, eval=learned", tuned_header.build));
    // The same openings (they follow from the seed), judged otherwise.
    assert_eq!(learned.len(), 2);
    let scores = |games: &[GameData]| games.iter().flat_map(|g| g.records.iter().map(|r| r.score)).collect::<Vec<_>>();
    assert_ne!(scores(&learned), scores(&tuned), "the network changed no score");
    assert_eq!(datagen(folder.path(), "learned.data", &learned_args), learned_bytes, "continued: nothing to do");
    // A file of one evaluation is not continued with the other.
    let mut mixed_args = vec!["datagen"];
    mixed_args.extend_from_slice(&args);
    mixed_args.extend_from_slice(&["--out", "learned.data"]);
    let mixed = menagerie(&mixed_args, folder.path());
    assert_eq!(mixed.status.code(), Some(2), "{}", text(&mixed.stderr));
    assert!(text(&mixed.stderr).contains("build: the file's"), "{}", text(&mixed.stderr));
    let unknown = menagerie(&["datagen", "fluid", "--eval", "neural", "--out", "x.data"], folder.path());
    assert_eq!(unknown.status.code(), Some(2));
    assert!(!folder.path().join("x.data").exists());
}
