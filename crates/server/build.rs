//! Embeds the web page (`web/`) and the rules pages (`docs/`) in the binary:
//! writes a table of `include_bytes!` for every file found.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn files(root: &Path, dir: &Path, out: &mut Vec<(String, PathBuf)>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            files(root, &path, out);
        } else if let Ok(relative) = path.strip_prefix(root) {
            let name = relative.to_string_lossy().replace('\\', "/");
            // A study's games file is not committed (it is rebuilt by the
            // study's command): a local build must not embed what a clean
            // checkout lacks.
            if !name.starts_with('.') && !name.ends_with('~') && !name.ends_with("games.jsonl") {
                out.push((name, path.clone()));
            }
        }
    }
}

fn table(name: &str, root: &Path) -> String {
    println!("cargo:rerun-if-changed={}", root.display());
    let mut found = Vec::new();
    files(root, root, &mut found);
    let mut code = format!("pub static {name}: &[(&str, &[u8])] = &[\n");
    for (relative, path) in found {
        let absolute = path.canonicalize().unwrap_or(path);
        writeln!(code, "    ({relative:?}, include_bytes!({:?})),", absolute.display().to_string()).unwrap();
    }
    code.push_str("];\n");
    code
}

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let repo = manifest.join("../..");
    let mut code = table("WEB", &repo.join("web"));
    code.push_str(&table("DOCS", &repo.join("docs")));
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap()).join("embedded.rs");
    std::fs::write(out, code).unwrap();
}
