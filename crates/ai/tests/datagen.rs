//! The data file of `menagerie datagen` (docs/datagen.md): what is written
//! is read back equal, and a short or damaged file is an error, never a panic.

use menagerie_ai::datagen::{
    flags, stored_score, DataError, DataReader, GameData, Header, Record, DECIDED_SCORE, MAX_CP,
};
use menagerie_ai::Score;

fn header() -> Header {
    Header {
        variant: "lunch:princess".into(),
        build: "menagerie 0.1.0 (commit 0123456789abcdef, data 42)".into(),
        seed: 7,
        nodes: 5000,
        opening_plies: 8,
        max_plies: 600,
        first_game: 1000,
        games: 3,
    }
}

/// Three games of varied records: scores at the caps, every flag, results
/// of both signs, positions of several lengths (one not ASCII, one empty).
fn games() -> Vec<GameData> {
    let texts = ["", "rcqkcr/pppppp/6/6/6/6/6|6/6/6/6/6/PPPPPP/RCQKCR w KQkq 0 1", "♔ é ✓", &"x".repeat(3000)];
    (0..3u64)
        .map(|g| {
            let records = (0..(g as usize * 17 + 1))
                .map(|i| {
                    let flags = (i % 8) as u8;
                    let score = if flags & flags::DECIDED != 0 {
                        if i % 2 == 0 {
                            DECIDED_SCORE
                        } else {
                            -DECIDED_SCORE
                        }
                    } else {
                        [MAX_CP, -MAX_CP, 0, 37, -1234][i % 5]
                    };
                    Record {
                        ply: (i * 3) as u16,
                        score,
                        result: [1, 0, -1][i % 3],
                        flags,
                        position: texts[i % texts.len()].to_owned(),
                    }
                })
                .collect();
            GameData {
                index: 1000 + g,
                plies: 40 + g as u32,
                first_result: [1, -1, 0][g as usize],
                adjudicated: g == 2,
                records,
            }
        })
        .collect()
}

fn file() -> Vec<u8> {
    let mut bytes = Vec::new();
    header().write(&mut bytes).unwrap();
    for game in games() {
        bytes.extend(game.encode().unwrap());
    }
    bytes
}

#[test]
fn what_is_written_is_read_back_equal() {
    let bytes = file();
    let mut reader = DataReader::new(&bytes[..]).unwrap();
    assert_eq!(reader.header(), &header());
    let mut read = Vec::new();
    while let Some(game) = reader.next_game().unwrap() {
        read.push(game);
    }
    assert_eq!(read, games());
    assert_eq!(reader.complete_bytes(), bytes.len() as u64);
    // The iterator reads the same.
    let again: Vec<GameData> = DataReader::new(&bytes[..]).unwrap().map(Result::unwrap).collect();
    assert_eq!(again, games());
}

#[test]
fn a_file_cut_anywhere_is_an_error_or_its_whole_games() {
    let bytes = file();
    let mut ends = vec![];
    let header_length = {
        let mut b = Vec::new();
        header().write(&mut b).unwrap();
        b.len()
    };
    let mut end = header_length;
    for game in games() {
        end += game.encode().unwrap().len();
        ends.push(end);
    }
    for cut in 0..bytes.len() {
        let prefix = &bytes[..cut];
        let mut reader = match DataReader::new(prefix) {
            Ok(reader) => reader,
            Err(DataError::NotData | DataError::Truncated(_)) => {
                assert!(cut < header_length, "the whole header did not read at {cut}");
                continue;
            }
            Err(other) => panic!("cut at {cut}: {other}"),
        };
        let mut whole = 0;
        let outcome = loop {
            match reader.next_game() {
                Ok(Some(_)) => whole += 1,
                Ok(None) => break Ok(()),
                Err(e) => break Err(e),
            }
        };
        let at_boundary = cut == header_length || ends.contains(&cut);
        match outcome {
            Ok(()) => assert!(at_boundary, "a cut at {cut} inside a game was read as a clean end"),
            Err(DataError::Truncated(_)) => assert!(!at_boundary, "a clean end at {cut} read as truncated"),
            Err(other) => panic!("cut at {cut}: {other}"),
        }
        // The whole games before the cut are all kept, and where they end
        // is where a resumed run goes on.
        let expected_whole = ends.iter().filter(|&&e| e <= cut).count();
        assert_eq!(whole, expected_whole, "cut at {cut}");
        let complete = if expected_whole == 0 { header_length } else { ends[expected_whole - 1] };
        assert_eq!(reader.complete_bytes(), complete as u64, "cut at {cut}");
    }
}

#[test]
fn a_damaged_file_is_an_error_not_a_panic() {
    let good = file();
    assert!(matches!(DataReader::new(&b"PK\x03\x04 a zip file"[..]), Err(DataError::NotData)));
    let mut version = good.clone();
    version[8] = 9;
    assert!(matches!(DataReader::new(&version[..]), Err(DataError::Version(9))));
    // Every single byte changed to every value: an error or a read, never a panic.
    for at in 0..good.len().min(400) {
        for value in [0u8, 1, 0x7f, 0x80, 0xfe, 0xff] {
            let mut bytes = good.clone();
            bytes[at] = value;
            if let Ok(reader) = DataReader::new(&bytes[..]) {
                for game in reader {
                    if game.is_err() {
                        break;
                    }
                }
            }
        }
    }
}

#[test]
fn scores_are_clamped_and_results_capped() {
    assert_eq!(stored_score(Score::Cp(35)), (35, false));
    assert_eq!(stored_score(Score::Cp(-1_000_000)), (-MAX_CP, false));
    assert_eq!(stored_score(Score::Cp(31_000)), (MAX_CP, false));
    assert_eq!(stored_score(Score::Win(3)), (DECIDED_SCORE, true));
    assert_eq!(stored_score(Score::Loss(0)), (-DECIDED_SCORE, true));
}
