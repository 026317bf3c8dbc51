//! Names the build in the binary, for the studies that record which program
//! made them: the git commit (`unknown` outside a git checkout, "+changes"
//! when tracked files differ from it) and a hash of the data that changes
//! how the games are played (`data/eval/`, `data/lunch/`, the networks in
//! `data/nnue/`, and `data/ratings.toml`, which names each game's levels'
//! evaluation).

use std::path::{Path, PathBuf};
use std::process::Command;

/// Runs git at the workspace's root: a build script runs in its package's
/// folder, where the paths below (`crates`, `data`) would name nothing.
fn git(root: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git").current_dir(root).args(args).output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_owned())
}

/// FNV-1a, 64 bits: stable across Rust versions, unlike `DefaultHasher`.
fn fnv(hash: u64, bytes: &[u8]) -> u64 {
    bytes.iter().fold(hash, |h, &b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3))
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for path in entries.flatten().map(|e| e.path()) {
        if path.is_dir() {
            files(&path, out);
        } else {
            out.push(path);
        }
    }
}

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut data = Vec::new();
    for dir in ["data/eval", "data/lunch", "data/nnue"] {
        println!("cargo:rerun-if-changed={}", root.join(dir).display());
        files(&root.join(dir), &mut data);
    }
    println!("cargo:rerun-if-changed={}", root.join("data/ratings.toml").display());
    data.push(root.join("data/ratings.toml"));
    data.sort();
    let mut hash = 0xcbf2_9ce4_8422_2325;
    for path in &data {
        let name = path.strip_prefix(&root).unwrap_or(path).to_string_lossy().replace('\\', "/");
        hash = fnv(hash, name.as_bytes());
        hash = fnv(hash, &std::fs::read(path).unwrap_or_default());
    }
    println!("cargo:rustc-env=MENAGERIE_DATA_HASH={hash:016x}");

    // The commit, rebuilt when HEAD moves or the sources change.
    let commit = git(&root, &["rev-parse", "HEAD"]);
    if let (Some(git_dir), Some(common)) =
        (git(&root, &["rev-parse", "--git-dir"]), git(&root, &["rev-parse", "--git-common-dir"]))
    {
        let (git_dir, common) = (root.join(git_dir), root.join(common));
        println!("cargo:rerun-if-changed={}", git_dir.join("HEAD").display());
        println!("cargo:rerun-if-changed={}", common.join("packed-refs").display());
        if let Some(head) = std::fs::read_to_string(git_dir.join("HEAD"))
            .ok()
            .and_then(|h| h.trim().strip_prefix("ref: ").map(str::to_owned))
        {
            println!("cargo:rerun-if-changed={}", common.join(head).display());
        }
        for dir in ["crates", "data", "Cargo.lock"] {
            println!("cargo:rerun-if-changed={}", root.join(dir).display());
        }
    }
    let changed = git(&root, &["status", "--porcelain", "--untracked-files=no", "--", "crates", "data", "Cargo.lock"])
        .is_some_and(|s| !s.is_empty());
    let commit = match commit {
        Some(c) if changed => format!("{c}+changes"),
        Some(c) => c,
        None => "unknown".to_owned(),
    };
    println!("cargo:rustc-env=MENAGERIE_COMMIT={commit}");
}
