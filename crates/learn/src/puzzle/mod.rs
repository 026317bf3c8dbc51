//! Puzzles mined from played games, as lichess-puzzler mines chess's.
//!
//! - [`mine`]: the search for positions where one move wins and the others
//!   do not, and the solution that follows from them.
//! - [`themes`]: what a solution can be called (a win, material, a Lichen
//!   harvest, a Kelasu conversion...).
//! - [`selfplay`]: games the miner plays itself, seeded, to mine from.
//!
//! A puzzle is plain data ([`Puzzle`]), one JSON object a line in
//! `data/puzzles/<game>.jsonl`; the server loads them into its store.

pub mod mine;
pub mod selfplay;
pub mod themes;

use serde::{Deserialize, Serialize};

/// Where a puzzle was found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Source {
    /// A game the miner played itself: its seed and number reproduce it.
    Selfplay { seed: u64, game: usize, ply: usize },
    /// A record of a records file (docs/records.md): the file's name, the
    /// record's place in it (from 1) and the ply the puzzle starts after.
    Record { file: String, game: usize, ply: usize },
}

/// One puzzle: the position before the solver's first move, and the
/// solution, the solver's moves and the other side's best replies in
/// turn, starting with the solver's first move.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Puzzle {
    /// Stable: a hash of the variant, the position and the solution.
    pub id: String,
    pub variant: String,
    pub position: String,
    pub solution: Vec<String>,
    pub themes: Vec<String>,
    pub source: Source,
    /// A first guess at the puzzle's Glicko-2 rating, which play corrects
    /// (longer and quieter solutions start higher).
    pub rating: u32,
    /// Winning chances (-1 .. 1) of the solver after the solution, by the
    /// searches that made it.
    pub win_chances: f64,
}

/// The id of a puzzle: 8 letters and digits from a 64-bit FNV-1a hash of
/// what makes it that puzzle (the same puzzle mined twice has one id).
pub fn puzzle_id(variant: &str, position: &str, solution: &[String]) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for part in [variant, position].into_iter().chain(solution.iter().map(String::as_str)) {
        for byte in part.bytes().chain(std::iter::once(0)) {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    const ALPHABET: &[u8] = b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    (0..8)
        .map(|_| {
            let c = ALPHABET[(hash % ALPHABET.len() as u64) as usize] as char;
            hash /= ALPHABET.len() as u64;
            c
        })
        .collect()
}

/// The starting rating: 1300, plus 150 for each solver's move after the
/// first, plus 100 when the first move takes nothing (a quiet first move
/// is harder to see). lichess starts every puzzle at 1500 and lets play
/// decide; a guess from the solution's length makes the first players'
/// puzzles closer to their level.
pub fn starting_rating(solver_moves: usize, quiet_first: bool) -> u32 {
    1300 + 150 * solver_moves.saturating_sub(1) as u32 + if quiet_first { 100 } else { 0 }
}

/// The puzzles built in, one file a game (`menagerie puzzles` mined them;
/// Lunch Chess has none: docs/learn.md says why).
pub const FILES: [(&str, &str); 4] = [
    ("lma", include_str!("../../../../data/puzzles/lma.jsonl")),
    ("fluid", include_str!("../../../../data/puzzles/fluid.jsonl")),
    ("lichen", include_str!("../../../../data/puzzles/lichen.jsonl")),
    ("kelasu", include_str!("../../../../data/puzzles/kelasu.jsonl")),
];

/// Every built-in puzzle, in the order of [`FILES`].
pub fn builtin() -> Result<Vec<Puzzle>, String> {
    let mut all = Vec::new();
    for (game, text) in FILES {
        all.extend(read_puzzles(text).map_err(|e| format!("data/puzzles/{game}.jsonl: {e}"))?);
    }
    Ok(all)
}

/// Reads a puzzles file (JSON lines); a bad line is an error naming it.
pub fn read_puzzles(text: &str) -> Result<Vec<Puzzle>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(i, line)| serde_json::from_str(line).map_err(|e| format!("line {}: {e}", i + 1)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_stable_and_tell_puzzles_apart() {
        let a = puzzle_id("lma", "x", &["m1".into()]);
        assert_eq!(a, puzzle_id("lma", "x", &["m1".into()]));
        assert_eq!(a.len(), 8);
        assert_ne!(a, puzzle_id("lma", "x", &["m2".into()]));
        // The parts are separated: moving a letter from one to the next changes the id.
        assert_ne!(puzzle_id("lm", "ax", &[]), puzzle_id("lma", "x", &[]));
    }

    #[test]
    fn puzzles_read_back_and_bad_lines_are_named() {
        let puzzle = Puzzle {
            id: "abc".into(),
            variant: "lma".into(),
            position: "p".into(),
            solution: vec!["a".into()],
            themes: vec!["mate".into()],
            source: Source::Selfplay { seed: 1, game: 2, ply: 3 },
            rating: starting_rating(2, true),
            win_chances: 1.0,
        };
        let line = serde_json::to_string(&puzzle).unwrap();
        assert!(line.contains("\"kind\":\"selfplay\""), "{line}");
        assert_eq!(read_puzzles(&format!("{line}\n\n{line}\n")).unwrap(), vec![puzzle.clone(), puzzle]);
        assert!(read_puzzles("{}\n").unwrap_err().starts_with("line 1:"));
        assert_eq!(starting_rating(2, true), 1550);
    }

    #[test]
    fn the_built_in_puzzles_read() {
        let all = builtin().unwrap();
        for (game, _) in FILES {
            assert!(all.iter().filter(|p| p.variant == game).count() >= 60, "{game}");
        }
    }
}

/// A recorded game to mine: where it comes from, its start (`None`: the
/// variant's) and its move texts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedGame {
    pub file: String,
    pub game: usize,
    pub start: Option<String>,
    pub moves: Vec<String>,
}

/// What to mine for one variant.
pub struct MineJob<'a> {
    /// A variant string of a game of perfect information.
    pub variant: &'a str,
    pub records: &'a [RecordedGame],
    /// Self-played games: how many, and their seed.
    pub selfplay_games: usize,
    pub seed: u64,
    pub mine: mine::MineConfig,
    pub selfplay: selfplay::SelfplayConfig,
    /// Stop once this many puzzles are found (after the game that found them).
    pub enough: Option<usize>,
}

/// Why a job cannot run, or a record that does not replay.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum MineError {
    #[error("{0}")]
    Variant(String),
    #[error("{0} has hidden information: its puzzles would have to hold for every hand the solver cannot see, which these searches do not check")]
    HiddenInformation(String),
    #[error("{file}, game {game}: {problem}")]
    Record { file: String, game: usize, problem: String },
}

/// Mines the job's games: the records first, then the self-played games.
/// `found` gets each puzzle as it is found; `progress` gets (games done,
/// games in all) after each game. Returns what the miner saw.
pub fn mine_variant(
    job: &MineJob<'_>,
    found: &mut dyn FnMut(Puzzle),
    progress: &mut dyn FnMut(usize, usize),
) -> Result<mine::MineStats, MineError> {
    struct Visit<'a, 'b> {
        job: &'a MineJob<'a>,
        found: &'b mut dyn FnMut(Puzzle),
        progress: &'b mut dyn FnMut(usize, usize),
        variant: String,
    }
    impl menagerie_core::GameVisitor for Visit<'_, '_> {
        type Output = Result<mine::MineStats, MineError>;
        fn visit<
            G: menagerie_core::Game
                + menagerie_core::Evaluate
                + menagerie_core::Present
                + menagerie_core::Study
                + menagerie_core::Encode,
        >(
            self,
            variant: G::Variant,
        ) -> Self::Output {
            if G::has_hidden_information() {
                return Err(MineError::HiddenInformation(self.variant));
            }
            let job = self.job;
            let mut miner: mine::Miner<G> = mine::Miner::new(job.mine.clone());
            let total = job.records.len() + job.selfplay_games;
            let mut seen = std::collections::HashSet::new();
            fn keep(seen: &mut std::collections::HashSet<String>, puzzles: Vec<Puzzle>, found: &mut dyn FnMut(Puzzle)) {
                for puzzle in puzzles {
                    if seen.insert(puzzle.position.clone()) {
                        found(puzzle);
                    }
                }
            }
            for (done, record) in job.records.iter().enumerate() {
                let problem =
                    |problem: String| MineError::Record { file: record.file.clone(), game: record.game, problem };
                let start = match record.start.as_deref() {
                    Some(text) => G::from_text(&variant, text).map_err(|e| problem(e.to_string()))?,
                    None => G::start(&variant, 0),
                };
                let mut position = start.clone();
                let mut moves = Vec::with_capacity(record.moves.len());
                for (i, text) in record.moves.iter().enumerate() {
                    let mv = position.parse_move(text).map_err(|e| problem(format!("move {}: {e}", i + 1)))?;
                    position.play(mv);
                    moves.push(mv);
                }
                let game = mine::PlayedGame {
                    start,
                    moves,
                    source: Source::Record { file: record.file.clone(), game: record.game, ply: 0 },
                };
                keep(&mut seen, miner.mine(&game, &self.variant), self.found);
                (self.progress)(done + 1, total);
            }
            let start = G::start(&variant, 0);
            for index in 0..job.selfplay_games {
                let game = selfplay::play_game(&start, job.seed, index, &job.selfplay);
                keep(&mut seen, miner.mine(&game, &self.variant), self.found);
                (self.progress)(job.records.len() + index + 1, total);
                if job.enough.is_some_and(|enough| seen.len() >= enough) {
                    break;
                }
            }
            Ok(miner.stats.clone())
        }
    }
    let spec = menagerie_core::VariantSpec::parse(job.variant).map_err(|e| MineError::Variant(e.to_string()))?;
    let visit = Visit { job, found, progress, variant: spec.to_string() };
    menagerie_games::visit(&spec, visit).map_err(|e| MineError::Variant(e.to_string()))?
}
