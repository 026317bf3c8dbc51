//! Where games come from: the registry in production, anything (the Nim
//! test game) in tests.

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

/// The registry plus the Nim test game (`nim`, `nim:stones=N`): lets the
/// server be exercised before, or besides, the real games.
#[derive(Clone, Copy, Debug, Default)]
pub struct WithNim;

impl GameSource for WithNim {
    fn variants(&self) -> Vec<&'static VariantInfo> {
        let mut all = menagerie_games::variants();
        all.extend(<menagerie_core::testing::nim::Nim as menagerie_core::Game>::VARIANTS.iter());
        all
    }
    fn new_game(
        &self,
        variant: &str,
        position: Option<&str>,
        seed: u64,
        resolver: &dyn Resolver,
    ) -> Result<Box<dyn DynGame>, String> {
        use menagerie_core::testing::nim::Nim;
        use menagerie_core::{Erased, Game, VariantSpec};
        let spec = VariantSpec::parse(variant).map_err(|e| e.to_string())?;
        if spec.id != "nim" {
            return Registry.new_game(variant, position, seed, resolver);
        }
        let parsed = Nim::parse_variant(&spec).map_err(|e| e.to_string())?;
        let game = match position.map(str::trim).filter(|p| *p != "startpos") {
            None => Nim::start(&parsed, seed),
            Some(text) => Nim::from_text(&parsed, text).map_err(|e| e.to_string())?,
        };
        Ok(Box::new(Erased::new(game, spec.to_string())))
    }
}
