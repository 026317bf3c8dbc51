//! The variant registry: adding a game is its folder and one line in the
//! `games!` call of `lib.rs`, which declares the folder's module and
//! registers its game type.

use crate::{variants, visit_with};
use menagerie_core::{
    DynEncoded, DynGame, Encode, Erased, Evaluate, Game, GameVisitor, PositionError, Present, Resolved, Resolver,
    VariantError, VariantSpec,
};
use thiserror::Error;

/// `games!(folder::GameType, ...)`: the game modules, [`variants`] and
/// [`visit_with`], in registry order.
macro_rules! games {
    ($($module:ident :: $game:ident),* $(,)?) => {
        $( pub mod $module; )*

        /// Every variant of every game, in registry order.
        #[allow(unused_mut)]
        pub fn variants() -> Vec<&'static menagerie_core::VariantInfo> {
            let mut all: Vec<&'static menagerie_core::VariantInfo> = Vec::new();
            $( all.extend(<$module::$game as menagerie_core::Game>::VARIANTS.iter()); )*
            all
        }

        /// Calls `visitor` with the game type and variant data that `spec`
        /// names, option values that name data (`deck=NAME`) meaning what
        /// `resolver` says: the typed entry point for perft, bench and search.
        #[allow(unused_variables)]
        pub fn visit_with<V: menagerie_core::GameVisitor>(
            spec: &menagerie_core::VariantSpec,
            resolver: &dyn menagerie_core::Resolver,
            visitor: V,
        ) -> Result<V::Output, menagerie_core::VariantError> {
            $(
                if <$module::$game as menagerie_core::Game>::VARIANTS.iter().any(|info| info.id == spec.id) {
                    let variant = <$module::$game as menagerie_core::Game>::parse_variant_with(spec, resolver)?;
                    return Ok(visitor.visit::<$module::$game>(variant));
                }
            )*
            Err(menagerie_core::VariantError::UnknownId { id: spec.id.clone(), valid: $crate::registry::valid_ids() })
        }
    };
}

/// [`visit_with`] with only the data built into the program ([`BuiltinData`]).
pub fn visit<V: GameVisitor>(spec: &VariantSpec, visitor: V) -> Result<V::Output, VariantError> {
    visit_with(spec, &BuiltinData, visitor)
}

/// The data built into the program that option values may name
/// (`deck=standard`): what every resolver offers first.
#[derive(Clone, Copy, Debug, Default)]
pub struct BuiltinData;

impl BuiltinData {
    /// The built-in names `option` may take (empty when it names no data).
    pub fn names(option: &str) -> &'static [&'static str] {
        match option {
            crate::lunch::deck::DECK_OPTION => &[crate::lunch::deck::STANDARD_NAME],
            _ => &[],
        }
    }
}

impl Resolver for BuiltinData {
    fn resolve(&self, option: &str, value: &str) -> Result<Resolved, String> {
        crate::lunch::deck::BuiltinDecks.resolve(option, value)
    }
}

pub(crate) fn valid_ids() -> String {
    variants().iter().map(|info| info.id).collect::<Vec<_>>().join(", ")
}

#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum NewGameError {
    #[error(transparent)]
    Variant(#[from] VariantError),
    #[error(transparent)]
    Position(#[from] PositionError),
}

/// A game behind texts: `variant` is a variant string (`lichen-3x3`,
/// `lunch:princess`), `position` a position text or `None`/`startpos` for
/// the start, `seed` the chance seed for games that deal or shuffle, and
/// `resolver` says what option values that name data (`deck=NAME`) mean.
pub fn new_game(
    variant: &str,
    position: Option<&str>,
    seed: u64,
    resolver: &dyn Resolver,
) -> Result<Box<dyn DynGame>, NewGameError> {
    struct MakeDyn<'a>(Setup<'a>);
    impl GameVisitor for MakeDyn<'_> {
        type Output = Result<Box<dyn DynGame>, PositionError>;
        fn visit<G: Game + Evaluate + Present>(self, variant: G::Variant) -> Self::Output {
            let game: G = self.0.position_of(&variant)?;
            Ok(Box::new(Erased::new(game, self.0.variant_string)))
        }
    }
    let (spec, setup) = Setup::new(variant, position, seed)?;
    Ok(visit_with(&spec, resolver, MakeDyn(setup))??)
}

/// [`new_game`] with its moves and observations numbered ([`DynEncoded`]):
/// what the Python package drives.
pub fn new_encoded_game(
    variant: &str,
    position: Option<&str>,
    seed: u64,
    resolver: &dyn Resolver,
) -> Result<Box<dyn DynEncoded>, NewGameError> {
    struct MakeEncoded<'a>(Setup<'a>);
    impl GameVisitor for MakeEncoded<'_> {
        type Output = Result<Box<dyn DynEncoded>, PositionError>;
        fn visit<G: Game + Evaluate + Present + Encode>(self, variant: G::Variant) -> Self::Output {
            let game: G = self.0.position_of(&variant)?;
            Ok(Box::new(Erased::new(game, self.0.variant_string)))
        }
    }
    let (spec, setup) = Setup::new(variant, position, seed)?;
    Ok(visit_with(&spec, resolver, MakeEncoded(setup))??)
}

/// What [`new_game`] and [`new_encoded_game`] start from.
struct Setup<'a> {
    variant_string: String,
    position: Option<&'a str>,
    seed: u64,
}

impl<'a> Setup<'a> {
    fn new(variant: &str, position: Option<&'a str>, seed: u64) -> Result<(VariantSpec, Setup<'a>), NewGameError> {
        let spec = VariantSpec::parse(variant)?;
        let position = position.map(str::trim).filter(|p| *p != "startpos");
        let setup = Setup { variant_string: spec.to_string(), position, seed };
        Ok((spec, setup))
    }

    fn position_of<G: Game>(&self, variant: &G::Variant) -> Result<G, PositionError> {
        match self.position {
            None => Ok(G::start(variant, self.seed)),
            Some(text) => G::from_text(variant, text),
        }
    }
}
