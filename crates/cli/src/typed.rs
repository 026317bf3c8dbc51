//! From a variant string and a position text to the typed game, for the
//! commands that search (they run monomorphised, like perft).

use crate::error::CliError;
use crate::files::DataFiles;
use menagerie_core::{Evaluate, Game, GameVisitor, Present, VariantSpec};

/// Where a typed command starts.
pub struct Start {
    /// The variant string (`--deck` included).
    pub variant: String,
    /// A position text; `None` or `startpos` for the start (before any
    /// deal: a game that deals plays it as chance moves).
    pub position: Option<String>,
}

/// A command that runs on the typed game.
pub trait TypedCommand {
    type Output;
    fn run<G: Game + Evaluate + Present>(self, game: G, variant_string: &str) -> Self::Output;
}

/// Runs `command` on the game `start` names.
pub fn run<C: TypedCommand>(start: &Start, command: C) -> Result<C::Output, CliError> {
    struct Visit<'a, C> {
        start: &'a Start,
        variant_string: String,
        command: C,
    }
    impl<C: TypedCommand> GameVisitor for Visit<'_, C> {
        type Output = Result<C::Output, CliError>;
        fn visit<G: Game + Evaluate + Present>(self, variant: G::Variant) -> Self::Output {
            let game = start_position::<G>(&variant, self.start)?;
            Ok(self.command.run(game, &self.variant_string))
        }
    }
    let spec = VariantSpec::parse(&start.variant).map_err(|e| CliError::BadInput(e.to_string()))?;
    let visit = Visit { start, variant_string: spec.to_string(), command };
    menagerie_games::visit_with(&spec, &DataFiles, visit).map_err(|e| CliError::BadInput(e.to_string()))?
}

/// The position `start` names, for a game already chosen.
pub fn start_position<G: Game>(variant: &G::Variant, start: &Start) -> Result<G, CliError> {
    match start.position.as_deref().map(str::trim).filter(|p| *p != "startpos") {
        Some(text) => G::from_text(variant, text).map_err(|e| CliError::BadInput(format!("--position: {e}"))),
        None => Ok(G::start(variant, 0)),
    }
}
