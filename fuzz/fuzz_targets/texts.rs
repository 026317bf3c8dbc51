//! Position and move texts of every variant: parsing must never panic, and
//! an accepted position must round-trip.
//!
//! Input: one byte choosing the variant, then the position text, then an
//! optional `\n` and a move text played on the start position and on the
//! parsed one.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else { return };
    let variants = menagerie_games::variants();
    if variants.is_empty() {
        return;
    }
    let variant = variants[selector as usize % variants.len()].id;
    let text = String::from_utf8_lossy(rest);
    let (position, move_text) = text.split_once('\n').unwrap_or((&text, ""));
    if let Ok(mut game) = menagerie_games::new_game(variant, Some(position), 1) {
        let written = game.to_text();
        let again = menagerie_games::new_game(variant, Some(&written), 1).expect("own text parses");
        assert_eq!(again.to_text(), written);
        let _ = game.play(move_text);
    }
    if let Ok(mut start) = menagerie_games::new_game(variant, None, 1) {
        let _ = start.play(move_text);
    }
});
