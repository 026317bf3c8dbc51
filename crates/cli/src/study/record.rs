//! What a study keeps on disk: its settings (`study.json`) and one line of
//! JSON per finished game (`games.jsonl`), appended as games finish, so that
//! an interrupted study continues where it stopped and slices played
//! elsewhere (`--shard I/N`) merge by concatenation.

use crate::error::CliError;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

pub const SETTINGS_FILE: &str = "study.json";
pub const GAMES_FILE: &str = "games.jsonl";

/// Everything that decides which games a study plays. Two runs with equal
/// settings play the same games (with node or depth limits, move for move).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    pub variant: String,
    pub player: String,
    pub time_ms: Option<u64>,
    pub nodes: Option<u64>,
    pub seed: u64,
    /// Moves played first in every game (move texts).
    pub opening: Vec<String>,
    /// Uniformly random moves after `opening`, before the players search.
    pub random_plies: u32,
    pub max_plies: u32,
    /// The game's material kinds, in the order of [`GameRecord::material`].
    pub material_kinds: Vec<String>,
    /// The player's temperature in centi-units of the evaluation: 0 plays
    /// the best move; above, a move among the near-best (see `play`).
    /// Left out of the file at 0, so studies made before it keep their
    /// settings.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub temperature: u32,
}

fn is_zero(value: &u32) -> bool {
    *value == 0
}

/// One finished game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The game's number in the study (it decides the game's seeds).
    pub index: u64,
    /// The first player's result: 1 win, 0 draw, -1 loss.
    pub first_score: i8,
    pub reason: String,
    /// Moves of the players (chance's moves, such as card draws, not counted).
    pub plies: u32,
    /// The number of legal moves before each player move.
    pub legal: Vec<u32>,
    /// The first player moves' texts, up to [`OPENING_TEXTS`].
    pub opening: Vec<String>,
    /// Position hashes after 2, 4, 8 and 16 player moves (when reached).
    pub hashes: BTreeMap<u32, u64>,
    /// Material samples: `(player move, first minus second by kind)`.
    pub material: Vec<(u32, Vec<f64>)>,
    /// The game's own mechanics (see the game's `study.rs`).
    pub mechanics: BTreeMap<String, u64>,
    pub millis: u64,
    /// The game's fingerprint (see `provenance::Digest`); empty in games
    /// recorded before digests existed.
    #[serde(default)]
    pub digest: String,
}

/// How many move texts of each game's start are kept.
pub const OPENING_TEXTS: usize = 8;
/// The plies at which the opening diversity is measured.
pub const DIVERSITY_PLIES: [u32; 4] = [2, 4, 8, 16];

/// Writes the settings of a new study, or checks that `dir` holds a study
/// with the same settings (a rerun continues it).
pub fn prepare(dir: &Path, settings: &Settings) -> Result<(), CliError> {
    std::fs::create_dir_all(dir).map_err(|e| failed(dir, e))?;
    let path = dir.join(SETTINGS_FILE);
    if path.exists() {
        let found = read_settings(dir)?;
        if &found != settings {
            return Err(CliError::BadInput(format!(
                "{} holds a study with other settings ({}); choose another --out folder",
                dir.display(),
                serde_json::to_string(&found).unwrap_or_default()
            )));
        }
        return Ok(());
    }
    let text = serde_json::to_string_pretty(settings).expect("settings are plain data");
    std::fs::write(&path, text + "\n").map_err(|e| failed(&path, e))
}

pub fn read_settings(dir: &Path) -> Result<Settings, CliError> {
    let path = dir.join(SETTINGS_FILE);
    let text = std::fs::read_to_string(&path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => {
            CliError::BadInput(format!("{} holds no study (no {SETTINGS_FILE})", dir.display()))
        }
        _ => failed(&path, e),
    })?;
    serde_json::from_str(&text).map_err(|e| CliError::BadInput(format!("{}: {e}", path.display())))
}

/// The games already played in `dir`. A last line cut short (the study was
/// killed while writing it) is dropped; that game is played again.
pub fn read_games(dir: &Path) -> Result<Vec<GameRecord>, CliError> {
    let path = dir.join(GAMES_FILE);
    let file = match File::open(&path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(failed(&path, e)),
    };
    let lines: Vec<String> = BufReader::new(file).lines().collect::<Result<_, _>>().map_err(|e| failed(&path, e))?;
    let mut games = Vec::new();
    for (number, line) in lines.iter().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<GameRecord>(line) {
            Ok(game) => games.push(game),
            Err(_) if number + 1 == lines.len() => {}
            Err(e) => return Err(CliError::BadInput(format!("{} line {}: {e}", path.display(), number + 1))),
        }
    }
    Ok(games)
}

/// Appends finished games to `dir`'s games file, one flushed line each.
pub struct Appender {
    file: File,
    path: PathBuf,
}

impl Appender {
    pub fn open(dir: &Path) -> Result<Appender, CliError> {
        let path = dir.join(GAMES_FILE);
        let mut file =
            OpenOptions::new().create(true).append(true).read(true).open(&path).map_err(|e| failed(&path, e))?;
        // A line cut short by a killed run must not swallow the next one.
        let length = file.metadata().map_err(|e| failed(&path, e))?.len();
        if length > 0 {
            use std::io::{Read, Seek, SeekFrom};
            let mut last = [0u8];
            file.seek(SeekFrom::Start(length - 1))
                .and_then(|_| file.read_exact(&mut last))
                .map_err(|e| failed(&path, e))?;
            if last[0] != b'\n' {
                file.write_all(b"\n").map_err(|e| failed(&path, e))?;
            }
        }
        Ok(Appender { file, path })
    }

    pub fn append(&mut self, game: &GameRecord) -> Result<(), CliError> {
        let line = serde_json::to_string(game).expect("a record is plain data") + "\n";
        self.file.write_all(line.as_bytes()).and_then(|_| self.file.flush()).map_err(|e| failed(&self.path, e))
    }
}

pub fn failed(path: &Path, error: std::io::Error) -> CliError {
    CliError::Failed(format!("{}: {error}", path.display()))
}
