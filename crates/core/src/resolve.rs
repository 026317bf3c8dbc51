//! Option values that name data (`lunch:deck=NAME`): what such a name means is
//! decided by whoever builds the game, never by the variant string. The CLI
//! reads files, the server looks names up among what its operator offers,
//! and a stored game gets back the copy it was made with.

use std::sync::Arc;

/// The data an option value names: its name (for messages and for the
/// variant string) and its text (a deck's TOML, say).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resolved {
    pub name: String,
    pub text: Arc<str>,
}

/// Turns `option=value` into data. `Err` is a one-line reason for people;
/// a resolver serving untrusted callers says nothing in it about where its
/// data lives.
pub trait Resolver: Send + Sync {
    fn resolve(&self, option: &str, value: &str) -> Result<Resolved, String>;
}

/// Knows no data at all: for games whose options name none.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoData;

impl Resolver for NoData {
    fn resolve(&self, option: &str, value: &str) -> Result<Resolved, String> {
        Err(format!("{option}={}: no data is offered here", shown(value)))
    }
}

/// A value as quoted in a message: a request may carry kilobytes of it.
pub fn shown(value: &str) -> String {
    const MAX_CHARS: usize = 60;
    if value.chars().count() <= MAX_CHARS {
        format!("{value:?}")
    } else {
        let head: String = value.chars().take(MAX_CHARS).collect();
        format!("{head:?}...")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_values_are_cut_in_messages() {
        assert_eq!(shown("small"), "\"small\"");
        let long = "x".repeat(10_000);
        let message = NoData.resolve("deck", &long).unwrap_err();
        assert!(message.len() < 120, "{message}");
        assert!(message.starts_with("deck=\"xxx"), "{message}");
    }
}
