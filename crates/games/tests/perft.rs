//! Runs the perft corpora in `tests/perft/`: one file per game, each entry
//! checked against the typed perft of the game its variant names.

use menagerie_core::perft::{self, CorpusEntry};
use menagerie_core::{Evaluate, Game, GameVisitor, VariantSpec};
use std::path::PathBuf;

fn corpus_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/perft")
}

fn load(file: &str) -> Vec<CorpusEntry> {
    let path = corpus_dir().join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    perft::parse_corpus(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

struct RunEntry<'a>(&'a CorpusEntry);

impl GameVisitor for RunEntry<'_> {
    type Output = Vec<String>;

    fn visit<G: Game + Evaluate>(self, variant: G::Variant) -> Vec<String> {
        let entry = self.0;
        let mut game = match &entry.position {
            None => G::start(&variant, entry.seed),
            Some(text) => match G::from_text(&variant, text) {
                Ok(game) => game,
                Err(e) => return vec![format!("{}: position does not parse: {e}", entry.id)],
            },
        };
        let mut failures = Vec::new();
        for &(depth, expected) in &entry.counts {
            let found = perft::perft(&mut game, depth);
            if found != expected {
                failures.push(format!("{}: perft {depth} = {found}, expected {expected}", entry.id));
            }
        }
        failures
    }
}

#[allow(dead_code)]
/// Checks every entry of one corpus file and reports all mismatches at once.
pub fn run_corpus(file: &str) {
    let entries = load(file);
    assert!(!entries.is_empty(), "{file} has no entries");
    let mut failures = Vec::new();
    for entry in &entries {
        let spec = VariantSpec::parse(&entry.variant).unwrap_or_else(|e| panic!("{}: {e}", entry.id));
        match menagerie_games::visit(&spec, RunEntry(entry)) {
            Ok(mut f) => failures.append(&mut f),
            Err(e) => failures.push(format!("{}: {e}", entry.id)),
        }
    }
    assert!(failures.is_empty(), "{file}:\n{}", failures.join("\n"));
}

#[test]
fn every_variant_has_a_corpus_entry() {
    let mut covered = Vec::new();
    for file in std::fs::read_dir(corpus_dir()).unwrap() {
        let path = file.unwrap().path();
        if path.extension().is_some_and(|e| e == "perft") {
            for entry in load(path.file_name().unwrap().to_str().unwrap()) {
                covered.push(VariantSpec::parse(&entry.variant).unwrap().id);
            }
        }
    }
    for info in menagerie_games::variants() {
        assert!(covered.iter().any(|id| id == info.id), "no perft corpus entry for {}", info.id);
    }
}

#[test]
fn kelasu_corpus() {
    run_corpus("kelasu.perft")
}

#[test]
fn lichen_corpus() {
    run_corpus("lichen.perft")
}

#[test]
fn lma_corpus() {
    run_corpus("lma.perft")
}

#[test]
fn fluid_corpus() {
    run_corpus("fluid.perft")
}

#[test]
fn lunch_corpus() {
    run_corpus("lunch.perft")
}
