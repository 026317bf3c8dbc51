//! Move-path enumeration: the number of move sequences of a given length.
//! A finished game has no moves, so perft(0) = 1 and perft(d > 0) = 0 there.

use crate::Game;
use std::sync::atomic::{AtomicBool, Ordering};

/// The number of move sequences of length `depth` from `game`, counting the
/// last ply in bulk. `game` is returned unchanged.
pub fn perft<G: Game>(game: &mut G, depth: u32) -> u64 {
    let mut buffers: Vec<Vec<G::Move>> = (0..=depth).map(|_| Vec::with_capacity(256)).collect();
    perft_with(game, depth, &mut buffers)
}

fn perft_with<G: Game>(game: &mut G, depth: u32, buffers: &mut [Vec<G::Move>]) -> u64 {
    if depth == 0 {
        return 1;
    }
    let (moves, rest) = buffers.split_first_mut().expect("one buffer per ply");
    if depth == 1 {
        return game.count_legal_moves(moves);
    }
    game.legal_moves(moves);
    let mut nodes = 0;
    for &mv in moves.iter() {
        game.play(mv);
        nodes += perft_with(game, depth - 1, rest);
        game.undo();
    }
    nodes
}

/// [`perft`] that gives up, returning `None`, once `stop` is set (a caller
/// interrupted): it is looked at before each move of every ply but the
/// last two, so it stops within a few thousand nodes. `game` is returned
/// unchanged either way.
pub fn perft_until<G: Game>(game: &mut G, depth: u32, stop: &AtomicBool) -> Option<u64> {
    let mut buffers: Vec<Vec<G::Move>> = (0..=depth).map(|_| Vec::with_capacity(256)).collect();
    perft_until_with(game, depth, &mut buffers, stop)
}

fn perft_until_with<G: Game>(game: &mut G, depth: u32, buffers: &mut [Vec<G::Move>], stop: &AtomicBool) -> Option<u64> {
    if depth <= 2 {
        return Some(perft_with(game, depth, buffers));
    }
    let (moves, rest) = buffers.split_first_mut().expect("one buffer per ply");
    game.legal_moves(moves);
    let mut nodes = 0;
    for &mv in moves.iter() {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        game.play(mv);
        let counted = perft_until_with(game, depth - 1, rest, stop);
        game.undo();
        nodes += counted?;
    }
    Some(nodes)
}

/// perft split by the first move: `(move text, count)` sorted by byte order
/// of the text.
pub fn divide<G: Game>(game: &mut G, depth: u32) -> Vec<(String, u64)> {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let mut out: Vec<(String, u64)> = moves
        .into_iter()
        .map(|mv| {
            let text = game.move_text(mv);
            game.play(mv);
            let count = perft(game, depth.saturating_sub(1));
            game.undo();
            (text, count)
        })
        .collect();
    out.sort_unstable_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    out
}

/// One entry of a perft corpus file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CorpusEntry {
    pub id: String,
    pub variant: String,
    /// `None` for `startpos`.
    pub position: Option<String>,
    /// `(depth, nodes)` pairs in file order.
    pub counts: Vec<(u32, u64)>,
    /// Line number of the entry's first line (for error messages).
    pub line: usize,
}

/// Reads a perft corpus: blank-line-separated entries of `id <name>`,
/// `variant <id>`, `position <text or startpos>` and `perft <depth> <nodes>`
/// lines; `#` starts a comment line. (No seed: a game's chance is moves of
/// the game, so every count is determined by the position.)
pub fn parse_corpus(text: &str) -> Result<Vec<CorpusEntry>, String> {
    let mut entries = Vec::new();
    let mut current: Option<CorpusEntry> = None;
    for (index, raw) in text.lines().enumerate() {
        let line_no = index + 1;
        let line = raw.trim();
        if line.starts_with('#') {
            continue;
        }
        if line.is_empty() {
            if let Some(entry) = current.take() {
                entries.push(finish(entry)?);
            }
            continue;
        }
        let entry = current.get_or_insert_with(|| CorpusEntry {
            id: String::new(),
            variant: String::new(),
            position: None,
            counts: Vec::new(),
            line: line_no,
        });
        let (key, value) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let value = value.trim();
        match key {
            "id" => entry.id = value.to_owned(),
            "variant" => entry.variant = value.to_owned(),
            "position" => entry.position = (value != "startpos").then(|| value.to_owned()),
            "perft" => {
                let mut parts = value.split_whitespace();
                let parse = |s: Option<&str>| s.and_then(|s| s.parse::<u64>().ok());
                match (parse(parts.next()), parse(parts.next()), parts.next()) {
                    (Some(depth), Some(nodes), None) if depth <= 64 => entry.counts.push((depth as u32, nodes)),
                    _ => return Err(format!("line {line_no}: expected `perft <depth> <nodes>`, found {line:?}")),
                }
            }
            _ => return Err(format!("line {line_no}: unknown key {key:?}")),
        }
    }
    if let Some(entry) = current {
        entries.push(finish(entry)?);
    }
    Ok(entries)
}

fn finish(entry: CorpusEntry) -> Result<CorpusEntry, String> {
    if entry.id.is_empty() || entry.variant.is_empty() || entry.counts.is_empty() {
        return Err(format!("entry at line {}: needs `id`, `variant` and at least one `perft` line", entry.line));
    }
    Ok(entry)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perft_until_counts_as_perft_and_stops_when_told() {
        use crate::testing::nim::{Nim, NimVariant};
        let mut nim = Nim::start(&NimVariant { stones: 12 }, 0);
        let go_on = AtomicBool::new(false);
        for depth in 0..7 {
            assert_eq!(perft_until(&mut nim, depth, &go_on), Some(perft(&mut nim, depth)), "depth {depth}");
        }
        let text = nim.to_text();
        assert_eq!(perft_until(&mut nim, 6, &AtomicBool::new(true)), None);
        assert_eq!(nim.to_text(), text, "a stopped perft leaves the game as it was");
    }

    #[test]
    fn corpus_parses_entries() {
        let text = "# comment\nid a\nvariant lma\nposition startpos\nperft 1 16\nperft 2 256\n\nid b\nvariant lichen\nposition x y z\nperft 1 3\n";
        let entries = parse_corpus(text).unwrap();
        assert_eq!(entries.len(), 2);
        assert_eq!(entries[0].counts, vec![(1, 16), (2, 256)]);
        assert_eq!(entries[0].position, None);
        assert_eq!(entries[1].position.as_deref(), Some("x y z"));
    }

    #[test]
    fn corpus_rejects_bad_lines() {
        assert!(parse_corpus("id a\nvariant x\nperft one 2\n").unwrap_err().contains("line 3"));
        assert!(parse_corpus("id a\nperft 1 2\n").is_err());
        assert!(parse_corpus("id a\nvariant x\nperft 1 2\nfoo\n").is_err());
        let seeded = parse_corpus("id a\nvariant x\nseed 3\nperft 1 2\n").unwrap_err();
        assert!(seeded.contains("unknown key \"seed\""), "{seeded}");
    }
}
