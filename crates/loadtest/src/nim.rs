//! The registry plus Nim (`nim`, `nim:stones=N`), core's tiny test game: a
//! server with it can be exercised with games of any length, and before or
//! besides the real games. The load test and the server's tests use it; the
//! production server does not offer it.

use menagerie_core::testing::nim::Nim;
use menagerie_core::{DynGame, Erased, Game, Resolver, VariantInfo, VariantSpec};
use menagerie_server::source::{GameSource, Registry};

#[derive(Clone, Copy, Debug, Default)]
pub struct WithNim;

impl GameSource for WithNim {
    fn variants(&self) -> Vec<&'static VariantInfo> {
        let mut all = Registry.variants();
        all.extend(Nim::VARIANTS.iter());
        all
    }

    fn new_game(
        &self,
        variant: &str,
        position: Option<&str>,
        seed: u64,
        resolver: &dyn Resolver,
    ) -> Result<Box<dyn DynGame>, String> {
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
