//! What option values that name data (`lunch:deck=NAME`) may mean on this
//! server: the data built into the program plus the decks its operator
//! offers (`menagerie serve --decks DIR`), read once at start and looked up
//! by name afterwards. A request never names a file: a name that is not
//! offered is refused with the list of offered names and nothing else.
//!
//! A game keeps the data it was made with ([`GameData`], stored with it), so
//! it reloads the same whatever happens to the files later ([`Kept`]).

use crate::store::GameData;
use menagerie_core::{shown, Resolved, Resolver};
use menagerie_games::lunch::deck::{Deck, DECK_OPTION, MAX_DECK_BYTES};
use menagerie_games::BuiltinData;
use std::collections::BTreeMap;
use std::io::Read;
use std::path::Path;
use std::sync::{Arc, Mutex};

/// At most this many decks are read from `--decks DIR`.
pub const MAX_DECKS: usize = 100;

/// The data a server offers, by option and name.
#[derive(Clone, Debug, Default)]
pub struct Catalog {
    /// Option (`deck`) -> name -> text; the built-in data is not in it.
    offered: Arc<BTreeMap<String, BTreeMap<String, Arc<str>>>>,
}

impl Catalog {
    /// Only the data built into the program (`deck=standard`).
    pub fn builtin() -> Catalog {
        Catalog::default()
    }

    /// The built-in data plus every `NAME.toml` deck of `dir`. Each must be
    /// a regular file of at most [`MAX_DECK_BYTES`] that is a valid deck, and
    /// its name (letters, digits, `-`, `_`) must not be a built-in one: a
    /// bad file stops the start with a message naming it, for the operator.
    pub fn with_decks(dir: &Path) -> Result<Catalog, String> {
        let entries = std::fs::read_dir(dir).map_err(|e| format!("--decks {}: {e}", dir.display()))?;
        let mut decks = BTreeMap::new();
        for entry in entries {
            let path = entry.map_err(|e| format!("--decks {}: {e}", dir.display()))?.path();
            if path.extension().and_then(|e| e.to_str()) != Some("toml") {
                continue;
            }
            let name = path.file_stem().and_then(|s| s.to_str()).unwrap_or_default().to_owned();
            let problem = |what: String| format!("deck {}: {what}", path.display());
            if !valid_name(&name) {
                return Err(problem(
                    "a deck's file name must be letters, digits, `-` or `_` (at most 40) before .toml".into(),
                ));
            }
            if BuiltinData::names(DECK_OPTION).contains(&name.as_str()) {
                return Err(problem(format!("{name:?} is the built-in deck's name")));
            }
            let text = read_small_file(&path, MAX_DECK_BYTES).map_err(problem)?;
            Deck::parse(&text, &name).map_err(|e| problem(e.to_string()))?;
            decks.insert(name, Arc::from(text));
            if decks.len() > MAX_DECKS {
                return Err(format!("--decks {}: more than {MAX_DECKS} decks", dir.display()));
            }
        }
        let mut offered = BTreeMap::new();
        offered.insert(DECK_OPTION.to_owned(), decks);
        Ok(Catalog { offered: Arc::new(offered) })
    }

    /// The names `option` may take here, built-in first; empty when the
    /// option names no data.
    pub fn names(&self, option: &str) -> Vec<String> {
        let builtin = BuiltinData::names(option).iter().map(|n| (*n).to_owned());
        builtin.chain(self.offered.get(option).into_iter().flat_map(|decks| decks.keys().cloned())).collect()
    }
}

impl Resolver for Catalog {
    fn resolve(&self, option: &str, value: &str) -> Result<Resolved, String> {
        if let Ok(builtin) = BuiltinData.resolve(option, value) {
            return Ok(builtin);
        }
        if let Some(text) = self.offered.get(option).and_then(|decks| decks.get(value)) {
            return Ok(Resolved { name: value.to_owned(), text: Arc::clone(text) });
        }
        let names = self.names(option);
        if names.is_empty() {
            return Err(format!("option {option:?} names no data"));
        }
        Err(format!("unknown {option} {}; offered {option}s: {}", shown(value), names.join(", ")))
    }
}

fn valid_name(name: &str) -> bool {
    !name.is_empty() && name.len() <= 40 && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// Reads a regular file of at most `limit` bytes (never a device or a pipe,
/// which could block or never end).
pub fn read_small_file(path: &Path, limit: u64) -> Result<String, String> {
    let metadata = std::fs::metadata(path).map_err(|e| format!("cannot be read: {e}"))?;
    if !metadata.is_file() {
        return Err("is not a regular file".into());
    }
    if metadata.len() > limit {
        return Err(format!("is larger than {limit} bytes"));
    }
    let file = std::fs::File::open(path).map_err(|e| format!("cannot be read: {e}"))?;
    let mut text = String::new();
    // The file may have grown since: read one byte past the limit to notice.
    file.take(limit + 1).read_to_string(&mut text).map_err(|e| format!("cannot be read: {e}"))?;
    if text.len() as u64 > limit {
        return Err(format!("is larger than {limit} bytes"));
    }
    Ok(text)
}

/// The data a stored game was made with, then `fallback` (the catalog) for
/// what it does not hold: games stored before games kept their data.
pub struct Kept<'a> {
    pub data: &'a [GameData],
    pub fallback: &'a dyn Resolver,
}

impl Resolver for Kept<'_> {
    fn resolve(&self, option: &str, value: &str) -> Result<Resolved, String> {
        match self.data.iter().find(|d| d.option == option && d.name == value) {
            Some(kept) => Ok(Resolved { name: kept.name.clone(), text: Arc::clone(&kept.text) }),
            None => self.fallback.resolve(option, value),
        }
    }
}

/// Passes every question to `inner` and remembers the answers: the data a
/// new game is made with, to be stored with it.
pub struct Recording<'a> {
    inner: &'a dyn Resolver,
    taken: Mutex<Vec<GameData>>,
}

impl<'a> Recording<'a> {
    pub fn new(inner: &'a dyn Resolver) -> Recording<'a> {
        Recording { inner, taken: Mutex::new(Vec::new()) }
    }

    pub fn into_taken(self) -> Vec<GameData> {
        self.taken.into_inner().unwrap_or_else(|p| p.into_inner())
    }
}

impl Resolver for Recording<'_> {
    fn resolve(&self, option: &str, value: &str) -> Result<Resolved, String> {
        let resolved = self.inner.resolve(option, value)?;
        let mut taken = self.taken.lock().unwrap_or_else(|p| p.into_inner());
        if !taken.iter().any(|d| d.option == option && d.name == resolved.name) {
            taken.push(GameData {
                option: option.to_owned(),
                name: resolved.name.clone(),
                text: Arc::clone(&resolved.text),
            });
        }
        Ok(resolved)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: &str = "[[card]]\nname = \"Jab\"\ncode = \"jab\"\nkind = \"attack\"\ncount = 12\ndamage = 1\nnumbers = \"confirmed\"\n";

    #[test]
    fn offers_the_decks_of_a_folder_by_name_and_nothing_else() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("small.toml"), SMALL).unwrap();
        std::fs::write(dir.path().join("notes.txt"), "not a deck").unwrap();
        let catalog = Catalog::with_decks(dir.path()).unwrap();
        assert_eq!(catalog.names("deck"), ["standard", "small"]);
        assert_eq!(catalog.resolve("deck", "small").unwrap().text.as_ref(), SMALL);
        assert_eq!(catalog.resolve("deck", "standard").unwrap().name, "standard");
        let path = dir.path().join("small.toml");
        for probe in [path.to_str().unwrap(), "small.toml", "../small", "/etc/passwd", "notes"] {
            // The answer is the same sentence whatever the name: it tells nothing of the files.
            let error = catalog.resolve("deck", probe).unwrap_err();
            assert_eq!(error, format!("unknown deck {}; offered decks: standard, small", shown(probe)));
        }
    }

    #[test]
    fn a_bad_deck_file_stops_the_start_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("broken.toml"), "[[card]]\nname = 3\n").unwrap();
        let error = Catalog::with_decks(dir.path()).unwrap_err();
        assert!(error.contains("broken.toml") && error.contains("name"), "{error}");
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("standard.toml"), SMALL).unwrap();
        assert!(Catalog::with_decks(dir.path()).unwrap_err().contains("built-in"));
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("big.toml"), "#".repeat(MAX_DECK_BYTES as usize + 1)).unwrap();
        assert!(Catalog::with_decks(dir.path()).unwrap_err().contains("larger than"));
    }

    #[test]
    fn kept_data_comes_before_the_catalog_and_recording_remembers_what_was_used() {
        let kept = [GameData { option: "deck".into(), name: "gone".into(), text: SMALL.into() }];
        let catalog = Catalog::builtin();
        let resolver = Kept { data: &kept, fallback: &catalog };
        assert_eq!(resolver.resolve("deck", "gone").unwrap().text.as_ref(), SMALL);
        assert_eq!(resolver.resolve("deck", "standard").unwrap().name, "standard");
        let recording = Recording::new(&resolver);
        recording.resolve("deck", "gone").unwrap();
        recording.resolve("deck", "gone").unwrap();
        assert!(recording.resolve("deck", "other").is_err());
        assert_eq!(recording.into_taken(), kept);
    }
}
