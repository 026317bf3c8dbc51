//! Runs the perft corpora in `tests/perft/`: every entry of every `.perft`
//! file is one test, named `<file>: <entry id>`, checked against the typed
//! perft of the game its variant names. Two more tests keep the corpora
//! honest: every registered variant has an entry, and the folder holds only
//! corpus files (so no count sits where no test reads it).

use libtest_mimic::{Arguments, Failed, Trial};
use menagerie_core::perft::{self, CorpusEntry};
use menagerie_core::{Evaluate, Game, GameVisitor, Present, VariantSpec};
use std::path::PathBuf;

fn corpus_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/perft")
}

/// Every file of the corpus folder, by name.
fn files() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(corpus_dir())
        .expect("tests/perft exists")
        .map(|entry| entry.expect("a readable folder").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

fn load(file: &str) -> Result<Vec<CorpusEntry>, String> {
    let path = corpus_dir().join(file);
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    perft::parse_corpus(&text).map_err(|e| format!("{}: {e}", path.display()))
}

struct RunEntry<'a>(&'a CorpusEntry);

impl GameVisitor for RunEntry<'_> {
    type Output = Vec<String>;

    fn visit<G: Game + Evaluate + Present>(self, variant: G::Variant) -> Vec<String> {
        let entry = self.0;
        let mut game = match &entry.position {
            None => G::start(&variant, 0),
            Some(text) => match G::from_text(&variant, text) {
                Ok(game) => game,
                Err(e) => return vec![format!("position does not parse: {e}")],
            },
        };
        entry
            .counts
            .iter()
            .filter_map(|&(depth, expected)| {
                let found = perft::perft(&mut game, depth);
                (found != expected).then(|| format!("perft {depth} = {found}, expected {expected}"))
            })
            .collect()
    }
}

fn run_entry(entry: &CorpusEntry) -> Result<(), Failed> {
    if entry.counts.is_empty() {
        return Err("no `perft <depth> <nodes>` line".into());
    }
    let spec = VariantSpec::parse(&entry.variant).map_err(|e| e.to_string())?;
    let failures = menagerie_games::visit(&spec, RunEntry(entry)).map_err(|e| e.to_string())?;
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures.join("\n").into())
    }
}

/// Every registered variant id has at least one entry.
fn every_variant_has_an_entry() -> Result<(), Failed> {
    let mut covered = Vec::new();
    for file in files() {
        for entry in load(&file)? {
            covered.push(VariantSpec::parse(&entry.variant).map_err(|e| e.to_string())?.id);
        }
    }
    let missing: Vec<&str> =
        menagerie_games::variants().iter().map(|info| info.id).filter(|id| !covered.iter().any(|c| c == id)).collect();
    if missing.is_empty() {
        Ok(())
    } else {
        Err(format!("no perft corpus entry for {}", missing.join(", ")).into())
    }
}

/// The folder holds `<game>.perft` files only, each named for a registered
/// game and holding entries: anything else would be counts nobody runs.
fn only_corpus_files() -> Result<(), Failed> {
    let games: Vec<&str> = menagerie_games::variants().iter().map(|info| info.game()).collect();
    for file in files() {
        let Some(game) = file.strip_suffix(".perft") else {
            return Err(format!("tests/perft/{file} is not a .perft file: no test reads it").into());
        };
        if !games.contains(&game) {
            return Err(format!("tests/perft/{file} is named for no registered game").into());
        }
        if load(&file)?.is_empty() {
            return Err(format!("tests/perft/{file} has no entries").into());
        }
    }
    Ok(())
}

fn main() {
    let mut trials = vec![
        Trial::test("corpus covers every variant", every_variant_has_an_entry),
        Trial::test("corpus folder holds only corpus files", only_corpus_files),
    ];
    for file in files().into_iter().filter(|f| f.ends_with(".perft")) {
        match load(&file) {
            Ok(entries) => trials.extend(
                entries
                    .into_iter()
                    .map(|entry| Trial::test(format!("{file}: {}", entry.id), move || run_entry(&entry))),
            ),
            Err(e) => trials.push(Trial::test(format!("{file}: parse"), move || Err(e.clone().into()))),
        }
    }
    libtest_mimic::run(&Arguments::from_args(), trials).exit();
}
