//! Game records (docs/records.md): reading any text and replaying what it
//! holds through every variant's rules must never panic; a record that
//! replays writes out again and replays to the same game.
#![no_main]

use libfuzzer_sys::fuzz_target;
use menagerie_core::record::{read_records, replay, write_record, RecordInfo};
use menagerie_games::BuiltinData;

fn make(variant: &str, start: Option<&str>) -> Result<Box<dyn menagerie_core::DynGame>, String> {
    menagerie_games::new_game(variant, start, 0, &BuiltinData).map_err(|e| e.to_string())
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Ok(records) = read_records(&text) else { return };
    for record in &records {
        let Ok(replayed) = replay(record, &make) else { continue };
        let written =
            write_record(replayed.game.as_ref(), replayed.start.as_deref(), &RecordInfo::default(), replayed.ending.as_ref());
        let again = read_records(&written).expect("a written record reads");
        let replayed_again = replay(&again[0], &make).expect("a written record replays");
        assert_eq!(replayed_again.game.history(), replayed.game.history());
    }
});
