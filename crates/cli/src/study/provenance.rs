//! Which program made a study (`build.json`) and each game's fingerprint
//! (`digests.txt`), so that `study verify` can play the games again with
//! today's program and say whether they are still the same games.

use super::record::{failed, GameRecord, Settings};
use crate::error::CliError;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::Path;

pub const BUILD_FILE: &str = "build.json";
pub const DIGESTS_FILE: &str = "digests.txt";

/// The program that plays a study's games: what `build.rs` embedded.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Build {
    pub version: String,
    /// The git commit it was built from (`unknown` outside a checkout;
    /// `+changes` when its tracked files differed from the commit).
    pub commit: String,
    /// FNV-1a of the data that changes play (`data/eval/`, `data/lunch/`,
    /// `data/nnue/`, `data/ratings.toml`).
    pub data_hash: String,
}

impl Build {
    pub fn this_program() -> Build {
        Build {
            version: env!("CARGO_PKG_VERSION").to_owned(),
            commit: env!("MENAGERIE_COMMIT").to_owned(),
            data_hash: env!("MENAGERIE_DATA_HASH").to_owned(),
        }
    }
}

impl fmt::Display for Build {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let short = self.commit.get(..12).map_or(self.commit.clone(), |c| {
            format!("{c}{}", if self.commit.ends_with("+changes") { "+changes" } else { "" })
        });
        write!(f, "menagerie {} (commit {short}, data {})", self.version, self.data_hash)
    }
}

/// What `build.json` holds: the build, a hash of the settings (every
/// setting that changes a game) and the commands that made the study.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Provenance {
    pub build: Build,
    pub settings_hash: String,
    pub commands: Vec<String>,
}

/// FNV-1a, 64 bits: stable across Rust versions and machines.
pub fn fnv(hash: u64, bytes: &[u8]) -> u64 {
    bytes.iter().fold(hash, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3))
}

pub const FNV_START: u64 = 0xcbf2_9ce4_8422_2325;

pub fn settings_hash(settings: &Settings) -> String {
    let text = serde_json::to_string(settings).expect("settings are plain data");
    format!("{:016x}", fnv(FNV_START, text.as_bytes()))
}

pub fn read(dir: &Path) -> Result<Option<Provenance>, CliError> {
    let path = dir.join(BUILD_FILE);
    match std::fs::read_to_string(&path) {
        Ok(text) => {
            serde_json::from_str(&text).map(Some).map_err(|e| CliError::BadInput(format!("{}: {e}", path.display())))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(failed(&path, e)),
    }
}

pub fn write(dir: &Path, provenance: &Provenance) -> Result<(), CliError> {
    let path = dir.join(BUILD_FILE);
    let text = serde_json::to_string_pretty(provenance).expect("plain data") + "\n";
    std::fs::write(&path, text).map_err(|e| failed(&path, e))
}

/// Records that this program, run as `command`, adds games to the study in
/// `dir`. Games of two builds do not mix: a study made by another build is
/// refused (its games may differ from what this program plays).
pub fn claim(dir: &Path, settings: &Settings, command: &str) -> Result<(), CliError> {
    let this = Build::this_program();
    let mut provenance = match read(dir)? {
        Some(found) if found.build != this => {
            return Err(CliError::BadInput(format!(
                "{} was made by {}, and this program is {}: games of two builds do not mix; \
                 check it with `menagerie study verify {}` or choose another --out folder",
                dir.display(),
                found.build,
                this,
                dir.display()
            )))
        }
        Some(found) => found,
        None => Provenance { build: this, settings_hash: settings_hash(settings), commands: Vec::new() },
    };
    if !provenance.commands.iter().any(|c| c == command) {
        provenance.commands.push(command.to_owned());
    }
    write(dir, &provenance)
}

/// The fingerprint of a game: every position it passed through (their
/// hashes, chance's draws included) and its result.
pub struct Digest(u64);

impl Digest {
    pub fn new() -> Digest {
        Digest(FNV_START)
    }

    pub fn position(&mut self, hash: u64) {
        self.0 = fnv(self.0, &hash.to_le_bytes());
    }

    pub fn finish(self, first_score: i8, plies: u32) -> String {
        let hash = fnv(fnv(self.0, &[first_score as u8]), &plies.to_le_bytes());
        format!("{hash:016x}")
    }
}

/// Writes `digests.txt`: `index digest` a line, in game order.
pub fn write_digests(dir: &Path, games: &[GameRecord]) -> Result<(), CliError> {
    let mut text = String::new();
    for game in games {
        text.push_str(&format!("{} {}\n", game.index, game.digest));
    }
    let path = dir.join(DIGESTS_FILE);
    std::fs::write(&path, text).map_err(|e| failed(&path, e))
}

/// The digests of a study folder, in game order.
pub fn read_digests(dir: &Path) -> Result<Vec<(u64, String)>, CliError> {
    let path = dir.join(DIGESTS_FILE);
    let text = std::fs::read_to_string(&path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => CliError::BadInput(format!(
            "{}: no game digests (a study made before `study verify` existed cannot be checked)",
            dir.display()
        )),
        _ => failed(&path, e),
    })?;
    let mut digests = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let bad = || CliError::BadInput(format!("{} line {}: expected `index digest`", path.display(), number + 1));
        let (index, digest) = line.split_once(' ').ok_or_else(bad)?;
        digests.push((index.parse().map_err(|_| bad())?, digest.to_owned()));
    }
    digests.sort();
    Ok(digests)
}

#[cfg(test)]
mod tests {
    use super::Build;
    use std::path::Path;
    use std::process::Command;

    fn git(args: &[&str]) -> Option<String> {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let out = Command::new("git").current_dir(root).args(args).output().ok()?;
        out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_owned())
    }

    /// The build names the checkout it was built from, and says so when its
    /// tracked sources or data differ from that commit (a network being
    /// tried before it is committed must not pass for the commit's).
    #[test]
    fn the_build_names_its_commit_and_its_changes() {
        let Some(head) = git(&["rev-parse", "HEAD"]) else {
            assert_eq!(Build::this_program().commit, "unknown");
            return;
        };
        let changed = git(&["status", "--porcelain", "--untracked-files=no", "--", "crates", "data", "Cargo.lock"])
            .is_some_and(|s| !s.is_empty());
        let expected = if changed { format!("{head}+changes") } else { head };
        assert_eq!(Build::this_program().commit, expected);
    }
}
