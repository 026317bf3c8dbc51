//! The computer's players: levels as data, and a player per level that picks
//! a move from the position it is shown (for hidden-information games, the
//! server shows it only the seat's view through the game's own rules: the
//! searcher must not peek, which [`ComputerPlayer`] implementations promise).

use crate::names::capitalised;
use menagerie_ai::{AgentSpec, StopFlag, HIDDEN_INFORMATION_LEVELS, LEVELS};
use menagerie_core::{DynGame, Erased, Evaluate, Game, GameVisitor, VariantSpec};
use rand::seq::IndexedRandom;
use rand::Rng;
use std::sync::Arc;
use std::time::Duration;

/// A level the page offers.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Level {
    pub id: String,
    pub name: String,
    pub summary: String,
    /// The level a new game gets when none is chosen (the page preselects it).
    pub default: bool,
}

/// Chooses the computer's move. Runs on a blocking thread, may take a while.
pub trait ComputerPlayer: Send + Sync {
    /// A legal move text of `game` for the actor to move, or `None` if there
    /// is none (the game is over).
    fn choose(&self, game: &dyn DynGame) -> Option<String>;
}

/// The set of levels and a player for each.
pub trait Opponents: Send + Sync + 'static {
    fn levels(&self) -> Vec<Level>;
    /// The player for `level`, or `None` if there is no such level.
    fn player(&self, level: &str) -> Option<Arc<dyn ComputerPlayer>>;
}

/// Plays a uniformly random legal move.
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomPlayer;

impl ComputerPlayer for RandomPlayer {
    fn choose(&self, game: &dyn DynGame) -> Option<String> {
        game.legal_moves().choose(&mut rand::rng()).cloned()
    }
}

/// Only the random player: the opponent used until a search is plugged in,
/// and in tests that need fast computer moves.
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomOnly;

impl Opponents for RandomOnly {
    fn levels(&self) -> Vec<Level> {
        vec![Level {
            id: "random".into(),
            name: "Random".into(),
            summary: "plays any legal move".into(),
            default: true,
        }]
    }
    fn player(&self, level: &str) -> Option<Arc<dyn ComputerPlayer>> {
        (level == "random").then(|| Arc::new(RandomPlayer) as Arc<dyn ComputerPlayer>)
    }
}

/// The searches of `menagerie_ai` at its named levels (alpha-beta in games
/// of perfect information, information-set MCTS where cards are hidden),
/// after the random player. A new game plays `medium` unless told.
#[derive(Clone, Copy, Debug, Default)]
pub struct SearchLevels;

/// The level a computer game gets when the request names none.
pub const DEFAULT_LEVEL: &str = "medium";

impl Opponents for SearchLevels {
    fn levels(&self) -> Vec<Level> {
        let mut levels = RandomOnly.levels();
        levels[0].default = false;
        for (open, hidden) in LEVELS.iter().zip(HIDDEN_INFORMATION_LEVELS) {
            debug_assert_eq!(open.name, hidden.name);
            levels.push(Level {
                id: open.name.to_owned(),
                name: capitalised(open.name),
                summary: format!("{}; where cards are hidden, {}", open.summary, hidden.summary),
                default: open.name == DEFAULT_LEVEL,
            });
        }
        levels
    }
    fn player(&self, level: &str) -> Option<Arc<dyn ComputerPlayer>> {
        if level == "random" {
            return Some(Arc::new(RandomPlayer));
        }
        LEVELS.iter().any(|l| l.name == level).then(|| Arc::new(LevelPlayer::new(level)) as Arc<dyn ComputerPlayer>)
    }
}

/// No search the server runs takes longer than this, whatever its level
/// says (a level bounded by depth alone could take long in a crafted
/// position).
pub const MAX_SEARCH_TIME: Duration = Duration::from_secs(10);

/// Searches at one of `menagerie_ai`'s levels. It gets the typed game back
/// from the text-level one (with its history, so repetitions count), and
/// plays at random in a game the registry does not know (the test games).
pub struct LevelPlayer {
    spec: AgentSpec,
}

impl LevelPlayer {
    pub fn new(level: &str) -> LevelPlayer {
        LevelPlayer { spec: AgentSpec::Level(level.to_owned()) }
    }
}

impl ComputerPlayer for LevelPlayer {
    fn choose(&self, game: &dyn DynGame) -> Option<String> {
        // The id alone picks the game type: the typed game inside carries its
        // own variant, and its options (a deck's name) need no second reading.
        let searched = VariantSpec::parse(game.variant())
            .ok()
            .and_then(|variant| {
                menagerie_games::visit(&VariantSpec::plain(&variant.id), Search { game, spec: &self.spec }).ok()
            })
            .flatten();
        searched.or_else(|| RandomPlayer.choose(game))
    }
}

struct Search<'a> {
    game: &'a dyn DynGame,
    spec: &'a AgentSpec,
}

impl GameVisitor for Search<'_> {
    type Output = Option<String>;
    fn visit<G: Game + Evaluate>(self, _variant: G::Variant) -> Option<String> {
        let typed = self.game.as_any().downcast_ref::<Erased<G>>()?.game().clone();
        let mut agent = self.spec.build::<G>(rand::rng().random());
        let mut limits = self.spec.limits::<G>(None);
        limits.time = Some(limits.time.map_or(MAX_SEARCH_TIME, |time| time.min(MAX_SEARCH_TIME)));
        let decision = agent.decide(&typed, &limits, &StopFlag::new(), &mut |_| {});
        decision.best.map(|mv| typed.move_text(mv))
    }
}
