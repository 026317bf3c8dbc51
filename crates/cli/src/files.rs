//! What option values that name data mean on the command line: a built-in
//! name (`deck=standard`), or else a file path (`deck=my-deck.toml`). Only
//! the CLI reads such files; the server offers names it loaded at start.

use menagerie_core::{Resolved, Resolver};
use menagerie_games::lunch::deck::MAX_DECK_BYTES;
use menagerie_games::BuiltinData;
use menagerie_server::catalog::read_small_file;
use std::path::Path;

/// Built-in data first, then files.
#[derive(Clone, Copy, Debug, Default)]
pub struct DataFiles;

impl Resolver for DataFiles {
    fn resolve(&self, option: &str, value: &str) -> Result<Resolved, String> {
        if let Ok(builtin) = BuiltinData.resolve(option, value) {
            return Ok(builtin);
        }
        if BuiltinData::names(option).is_empty() {
            return Err(format!("option {option:?} names no data"));
        }
        let text = read_small_file(Path::new(value), MAX_DECK_BYTES).map_err(|e| format!("file {value}: {e}"))?;
        Ok(Resolved { name: value.to_owned(), text: text.into() })
    }
}
