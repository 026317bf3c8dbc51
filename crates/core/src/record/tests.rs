use super::*;
use crate::testing::coin::Coin;
use crate::testing::nim::Nim;
use crate::{DynGame, Erased, Game, Player, VariantSpec};
use proptest::prelude::*;

/// Nim and the coin, as the registry would make them.
fn make(variant: &str, start: Option<&str>) -> Result<Box<dyn DynGame>, String> {
    let spec = VariantSpec::parse(variant).map_err(|e| e.to_string())?;
    match spec.id.as_str() {
        "nim" => {
            let v = Nim::parse_variant(&spec).map_err(|e| e.to_string())?;
            let game = match start {
                Some(text) => Nim::from_text(&v, text).map_err(|e| e.to_string())?,
                None => Nim::start(&v, 0),
            };
            Ok(Box::new(Erased::new(game, spec.to_string())))
        }
        "coin" => {
            let v = Coin::parse_variant(&spec).map_err(|e| e.to_string())?;
            let game = match start {
                Some(text) => Coin::from_text(&v, text).map_err(|e| e.to_string())?,
                None => Coin::start(&v, 0),
            };
            Ok(Box::new(Erased::new(game, spec.to_string())))
        }
        other => Err(format!("unknown variant {other:?}")),
    }
}

fn played(variant: &str, start: Option<&str>, moves: &[&str]) -> Box<dyn DynGame> {
    let mut game = make(variant, start).unwrap();
    for mv in moves {
        game.play(mv).unwrap();
    }
    game
}

fn read_one(text: &str) -> Record {
    let mut records = read_records(text).unwrap();
    assert_eq!(records.len(), 1, "{text}");
    records.remove(0)
}

fn replay_text(text: &str) -> Result<Replayed, RecordError> {
    let records = read_records(text)?;
    replay(&records[0], &make)
}

#[test]
fn a_finished_game_is_written_in_pgn_form_and_replays_to_the_same_game() {
    let game = played("nim:stones=7", None, &["3", "1", "2", "1"]);
    let info = RecordInfo { event: Some("Test \"cup\"".into()), white: Some("Ann".into()), ..RecordInfo::default() };
    let text = write_record(game.as_ref(), None, &info, None);
    assert_eq!(
        text,
        "[Event \"Test \\\"cup\\\"\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"Ann\"]\n\
         [Black \"?\"]\n[Result \"0-1\"]\n[Variant \"nim:stones=7\"]\n[TimeControl \"?\"]\n\
         [Termination \"took the last stone\"]\n\n1. 3 1 2. 2 1 0-1\n\n"
    );
    let record = read_one(&text);
    assert_eq!(record.tag("Event"), Some("Test \"cup\""));
    let replayed = replay(&record, &make).unwrap();
    assert_eq!(replayed.game.history(), game.history());
    assert_eq!(replayed.result, RecordResult::SecondWins);
    assert_eq!(replayed.ending, Some(Ending { winner: Some(Player::Second), reason: "took the last stone".into() }));
    assert_eq!(replayed.start, None);
}

#[test]
fn a_game_from_a_position_carries_it_and_numbers_from_the_second_player() {
    let game = played("nim", Some("5 second"), &["1", "2"]);
    let text = write_record(game.as_ref(), Some("5 second"), &RecordInfo::default(), None);
    assert!(text.contains("[SetUp \"1\"]\n[FEN \"5 second\"]\n"), "{text}");
    assert!(text.contains("\n1... 1 2. 2 *\n"), "{text}");
    let replayed = replay_text(&text).unwrap();
    assert_eq!(replayed.start.as_deref(), Some("5 second"));
    assert_eq!(replayed.game.to_text(), "2 second");
    assert_eq!(replayed.ending, None);
}

#[test]
fn an_ending_outside_the_rules_is_the_result_and_termination() {
    let game = played("nim", None, &["1"]);
    let resigned = Ending { winner: Some(Player::First), reason: "resignation".into() };
    let text = write_record(game.as_ref(), None, &RecordInfo::default(), Some(&resigned));
    assert!(text.contains("[Result \"1-0\"]") && text.contains("[Termination \"resignation\"]"), "{text}");
    assert_eq!(replay_text(&text).unwrap().ending, Some(resigned));
    let unnamed = replay_text("[Variant \"nim\"] 1. 1 1/2-1/2").unwrap();
    assert_eq!(unnamed.ending, Some(Ending { winner: None, reason: replay::UNNAMED_ENDING.into() }));
}

#[test]
fn chance_moves_of_a_game_without_hidden_information_are_always_written() {
    let game = played("coin:heads=50", None, &["heads", "tails"]);
    let text = write_record(game.as_ref(), None, &RecordInfo::default(), None);
    assert!(text.contains("\n1. heads tails 0-1\n"), "{text}");
    assert_eq!(replay_text(&text).unwrap().game.history(), ["heads", "tails"]);
}

#[test]
fn long_games_wrap_their_lines() {
    let moves = vec!["1"; 120];
    let game = played("nim:stones=200", None, &moves);
    let text = write_record(game.as_ref(), None, &RecordInfo::default(), None);
    assert!(text.lines().all(|line| line.len() < 80), "{text}");
    assert_eq!(replay_text(&text).unwrap().game.history().len(), 120);
}

#[test]
fn pgn_extras_are_read_comments_numbers_annotations_escapes() {
    let text = "% an escaped line\n[Variant \"nim\"]\n[Note \"a \\\\ b\"]\n\n\
                {opening} 1.3 $1 1... 3 ; a comment to the end of the line 7\n2. 3 {x\ny} 3 *\n\n\
                [Variant \"nim:stones=2\"] 1. 2 1-0";
    let records = read_records(text).unwrap();
    assert_eq!(records.len(), 2);
    assert_eq!(records[0].tag("Note"), Some("a \\ b"));
    let texts: Vec<&str> = records[0].moves.iter().map(|m| m.text.as_str()).collect();
    assert_eq!(texts, ["3", "3", "3", "3"]);
    assert_eq!(records[0].moves[3].line, 7, "after a comment over two lines");
    assert_eq!((records[1].index, records[1].line), (2, 9));
    assert_eq!(replay(&records[1], &make).unwrap().result, RecordResult::FirstWins);
    assert!(read_records("").unwrap().is_empty());
    assert!(read_records("  \n{just a comment}\n").unwrap().is_empty());
}

#[test]
fn an_illegal_or_malformed_move_names_its_number_and_text() {
    let error = replay_text("[Variant \"nim\"]\n1. 3 3 2. 3 4 *").unwrap_err();
    assert_eq!(error.to_string(), "game 1, move 2... \"4\" (ply 4): illegal: 12 stones left", "4 is no move of Nim");
    let error = replay_text("[Variant \"nim\"]\n1. 3 x *").unwrap_err();
    assert_eq!(error.to_string(), "game 1, move 1... \"x\" (ply 2): malformed: expected 1, 2 or 3");
    let error = replay_text("[Variant \"nim:stones=2\"] 1. 2 1 1-0").unwrap_err();
    assert_eq!(error.to_string(), "game 1, move 1... \"1\" (ply 2): the game is already over");
}

#[test]
fn a_result_must_agree_with_the_rules_and_the_tag() {
    let error = replay_text("[Variant \"nim:stones=2\"] 1. 2 0-1").unwrap_err();
    assert_eq!(
        error.to_string(),
        "game 1: the moves end the game (1-0, took the last stone) but the record's result is 0-1"
    );
    let error = replay_text("[Variant \"nim:stones=2\"] 1. 2 *").unwrap_err();
    assert!(matches!(error, RecordError::Result { .. }), "{error}");
    let error = replay_text("[Variant \"nim\"] [Result \"1-0\"] 1. 2 *").unwrap_err();
    assert_eq!(error.to_string(), "game 1: the Result tag says 1-0 but the moves end with *");
    let error = replay_text("[Variant \"nim\"] [Result \"won\"] *").unwrap_err();
    assert!(error.to_string().contains("expected 1-0, 0-1, 1/2-1/2 or *"), "{error}");
}

#[test]
fn headers_that_name_no_game_are_errors() {
    let cases = [
        ("1. 1 *", "no Variant tag"),
        ("[Variant \"chess\"] *", "unknown variant"),
        ("[Variant \"nim\"] [FEN \"?\"] *", "holds only its public part"),
        ("[Variant \"nim\"] [FEN \"x second\"] *", "field 1 (stones)"),
        ("[Variant \"nim\"] [SetUp \"1\"] *", "needs a FEN"),
        ("[Variant \"nim\"] [SetUp \"0\"] [FEN \"3 first\"] *", "SetUp \"0\""),
    ];
    for (text, expected) in cases {
        let error = replay_text(text).unwrap_err();
        assert!(matches!(error, RecordError::Header { game: 1, .. }), "{text}: {error}");
        assert!(error.to_string().contains(expected), "{text}: {error}");
    }
}

#[test]
fn syntax_errors_name_the_game_and_line() {
    let cases = [
        ("[Variant \"nim\"] 1. 1", 1, 1, "ends without a result"),
        ("[Variant \"nim\"] 1. 1 *\n[Variant \"nim\"]\n1. 1\n[Event \"x\"] *", 2, 4, "without a result"),
        ("[Variant \"nim] *", 1, 1, "never closed"),
        ("[Variant nim] *", 1, 1, "double quotes"),
        ("[ \"nim\"] *", 1, 1, "tag name"),
        ("[Variant \"nim\" x] *", 1, 1, "expected `]`"),
        ("[Variant \"nim\"]\n[Variant \"nim\"] *", 1, 2, "given twice"),
        ("[Variant \"nim\"]\n\n{ 1. 1 *", 1, 3, "never closed"),
        ("[Variant \"nim\"] 1. 1 (1... 2) *", 1, 1, "variations"),
        ("[Variant \"nim\"] 1. 1 } *", 1, 1, "unexpected"),
        ("[Variant \"nim\"] 1. 1 $x *", 1, 1, "annotation"),
    ];
    for (text, game, line, expected) in cases {
        match read_records(text) {
            Err(RecordError::Syntax { game: g, line: l, problem }) => {
                assert_eq!((g, l), (game, line), "{text}: {problem}");
                assert!(problem.contains(expected), "{text}: {problem}");
            }
            other => panic!("{text}: {other:?}"),
        }
    }
}

fn sample_record() -> String {
    let game = played("nim:stones=30", None, &["1", "2", "3", "1", "2", "3", "1", "2"]);
    let mut text = write_record(game.as_ref(), None, &RecordInfo::default(), None);
    text.push_str(&write_record(
        played("coin", None, &["tails", "heads"]).as_ref(),
        None,
        &RecordInfo::default(),
        None,
    ));
    text
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Mangled records (bytes cut, doubled, replaced) never panic the reader
    /// or the replay: each is a whole game or an error.
    #[test]
    fn mangled_records_are_read_or_refused_never_a_panic(
        edits in proptest::collection::vec((0usize..1000, 0u8..4, any::<char>()), 1..8)
    ) {
        let mut chars: Vec<char> = sample_record().chars().collect();
        for (at, kind, c) in edits {
            let at = at % (chars.len() + 1);
            match kind {
                0 => chars.insert(at, c),
                1 if at < chars.len() => { chars.remove(at); }
                2 if at < chars.len() => chars[at] = c,
                3 => chars.truncate(at),
                _ => {}
            }
        }
        let text: String = chars.into_iter().collect();
        if let Ok(records) = read_records(&text) {
            for record in &records {
                if let Ok(replayed) = replay(record, &make) {
                    prop_assert_eq!(replayed.game.history().len(), record.moves.len());
                }
            }
        }
    }

    /// Any text at all, PGN-looking or not.
    #[test]
    fn arbitrary_text_never_panics(text in "[\\[\\]{}()\"\\\\;%$ .*0-9a-z\n-]{0,200}") {
        if let Ok(records) = read_records(&text) {
            for record in &records {
                let _ = replay(record, &make);
            }
        }
    }
}

#[test]
fn dates_are_written_as_pgn_asks() {
    assert_eq!(pgn_date(0), "1970.01.01");
    assert_eq!(pgn_date(951_782_400), "2000.02.29");
    assert_eq!(pgn_date(1_795_478_400), "2026.11.24");
    assert_eq!(pgn_date(-86_400), "1969.12.31");
}

#[test]
fn tags_past_the_limits_are_refused_where_they_stand() {
    let tags = |count: usize| (0..count).map(|n| format!("[T{n} \"x\"]\n")).collect::<String>();
    let error = read_records(&format!("{}*", tags(5_000))).unwrap_err();
    assert_eq!(
        error.to_string(),
        format!("game 1, line {}: too many tags: a record has at most {MAX_TAGS}", MAX_TAGS + 1)
    );
    // The limit is a record's: a file may hold many records, each at it,
    // and a name given twice is found among them all.
    let file = (0..50).map(|_| format!("{}*\n", tags(MAX_TAGS))).collect::<String>();
    let records = read_records(&file).unwrap();
    assert_eq!(records.len(), 50);
    assert!(records.iter().all(|r| r.tags.len() == MAX_TAGS && r.tag("T99") == Some("x")));
    let twice = format!("{}[T3 \"y\"]\n*", tags(MAX_TAGS - 1));
    assert_eq!(
        read_records(&twice).unwrap_err().to_string(),
        format!("game 1, line {MAX_TAGS}: tag T3 is given twice")
    );
    let value = format!("[FEN \"{}\"] *", "x".repeat(MAX_TAG_VALUE));
    assert_eq!(read_one(&value).tag("FEN").map(str::len), Some(MAX_TAG_VALUE));
    let value = format!("[FEN \"{}\"] *", "x".repeat(MAX_TAG_VALUE + 1));
    let error = read_records(&value).unwrap_err().to_string();
    assert_eq!(error, format!("game 1, line 1: tag FEN: the value is longer than {MAX_TAG_VALUE} bytes"));
    let name = format!("[{} \"x\"] *", "N".repeat(MAX_TAG_NAME + 1));
    let error = read_records(&name).unwrap_err().to_string();
    assert_eq!(error, format!("game 1, line 1: a tag name is longer than {MAX_TAG_NAME} bytes"));
}
