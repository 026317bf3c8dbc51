//! Where games come from: the registry in production; tests and the load
//! test add their own games (Nim) with another source.

use menagerie_core::{DynGame, Resolver, VariantInfo};

/// Makes games from variant strings. The server knows games only through
/// this and [`DynGame`].
pub trait GameSource: Send + Sync + 'static {
    /// Every variant, in the order the home page lists them.
    fn variants(&self) -> Vec<&'static VariantInfo>;
    /// A game of `variant` from `position` (`None`: the start), with the
    /// chance seed `seed`; option values that name data (`deck=NAME`) mean
    /// what `resolver` says. `Err` is a one-line reason for people.
    fn new_game(
        &self,
        variant: &str,
        position: Option<&str>,
        seed: u64,
        resolver: &dyn Resolver,
    ) -> Result<Box<dyn DynGame>, String>;
}

/// The games of `menagerie_games`' registry.
#[derive(Clone, Copy, Debug, Default)]
pub struct Registry;

impl GameSource for Registry {
    fn variants(&self) -> Vec<&'static VariantInfo> {
        menagerie_games::variants()
    }
    fn new_game(
        &self,
        variant: &str,
        position: Option<&str>,
        seed: u64,
        resolver: &dyn Resolver,
    ) -> Result<Box<dyn DynGame>, String> {
        menagerie_games::new_game(variant, position, seed, resolver).map_err(|e| e.to_string())
    }
}
