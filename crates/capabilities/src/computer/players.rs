//! The computer's players: levels as data, and a player per level that picks
//! a move from the position it is shown (for hidden-information games, the
//! server shows it only the seat's view through the game's own rules: the
//! searcher must not peek, which [`ComputerPlayer`] implementations promise).

use crate::names::capitalised;
use menagerie_ai::level_ratings::{RatingsFile, StoredRating};
use menagerie_ai::{Agent, AgentSpec, ClockLeft, StopFlag, HIDDEN_INFORMATION_LEVELS, LEVELS};
use menagerie_core::{DynGame, Erased, Evaluate, Game, GameVisitor, VariantSpec};
use menagerie_play::opponents::{ComputerPlayer, Level, Opponents};
use rand::seq::IndexedRandom;
use rand::Rng;
use std::any::Any;
use std::collections::{BTreeMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::Duration;

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
            ratings: BTreeMap::new(),
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
        levels[0].ratings = measured("random");
        for (open, hidden) in LEVELS.iter().zip(HIDDEN_INFORMATION_LEVELS) {
            debug_assert_eq!(open.name, hidden.name);
            levels.push(Level {
                id: open.name.to_owned(),
                name: capitalised(open.name),
                summary: format!("{}; where cards are hidden, {}", open.summary, hidden.summary),
                default: open.name == DEFAULT_LEVEL,
                ratings: measured(open.name),
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

/// The ratings of `level` in every variant where it was measured.
fn measured(level: &str) -> BTreeMap<String, StoredRating> {
    let file = RatingsFile::built_in();
    file.variants.keys().filter_map(|variant| Some((variant.clone(), file.level(variant, level)?))).collect()
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
    /// Searchers in the middle of a turn (Kelasu), by the hash of the
    /// position they expect to be asked about next: the next action of the
    /// turn reuses the searcher and its transposition table.
    midturn: Mutex<VecDeque<(u64, Box<dyn Any + Send>)>>,
}

/// Searchers kept between the actions of a turn, at most (each holds a
/// transposition table).
const MIDTURN_KEPT: usize = 4;

impl LevelPlayer {
    /// The player of a level, searching on the level's threads (as many as
    /// this machine has).
    pub fn new(level: &str) -> LevelPlayer {
        let threads = LEVELS.iter().find(|l| l.name == level).map_or(1, |l| l.threads_here());
        LevelPlayer { spec: AgentSpec { threads: Some(threads), ..AgentSpec::level(level) }, midturn: Mutex::default() }
    }

    /// The searcher left waiting for this position, if any.
    fn take_midturn(&self, key: u64) -> Option<Box<dyn Any + Send>> {
        let mut kept = self.midturn.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let at = kept.iter().position(|(k, _)| *k == key)?;
        kept.remove(at).map(|(_, agent)| agent)
    }

    fn keep_midturn(&self, key: u64, agent: Box<dyn Any + Send>) {
        let mut kept = self.midturn.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if kept.len() == MIDTURN_KEPT {
            kept.pop_front();
        }
        kept.push_back((key, agent));
    }
}

impl ComputerPlayer for LevelPlayer {
    fn threads(&self) -> u32 {
        self.spec.threads.unwrap_or(1) as u32
    }

    fn choose(&self, game: &dyn DynGame) -> Option<String> {
        self.choose_on_clock(game, None)
    }

    fn choose_on_clock(&self, game: &dyn DynGame, clock: Option<ClockLeft>) -> Option<String> {
        // The id alone picks the game type: the typed game inside carries its
        // own variant, and its options (a deck's name) need no second reading.
        let searched = VariantSpec::parse(game.variant())
            .ok()
            .and_then(|variant| {
                menagerie_games::visit(&VariantSpec::plain(&variant.id), Search { game, player: self, clock }).ok()
            })
            .flatten();
        searched.or_else(|| RandomPlayer.choose(game))
    }
}

struct Search<'a> {
    game: &'a dyn DynGame,
    player: &'a LevelPlayer,
    /// The player's clock, when it runs.
    clock: Option<ClockLeft>,
}

impl GameVisitor for Search<'_> {
    type Output = Option<String>;
    fn visit<G: Game + Evaluate>(self, _variant: G::Variant) -> Option<String> {
        let typed = self.game.as_any().downcast_ref::<Erased<G>>()?.game().clone();
        let spec = &self.player.spec;
        let kept = self.player.take_midturn(typed.hash()).and_then(|any| any.downcast::<Box<dyn Agent<G>>>().ok());
        let mut agent = kept.map_or_else(|| spec.build::<G>(rand::rng().random()), |agent| *agent);
        let mut limits = spec.limits::<G>(None);
        if let Some(clock) = self.clock {
            limits = limits.on_clock(clock);
        }
        limits.time = Some(limits.time.map_or(MAX_SEARCH_TIME, |time| time.min(MAX_SEARCH_TIME)));
        let decision = agent.decide(&typed, &limits, &StopFlag::new(), &mut |_| {});
        let best = decision.best?;
        // The same player acts again: keep the searcher for the next action.
        let mut after = typed.clone();
        after.play(best);
        if after.outcome().is_none() && after.to_act() == typed.to_act() {
            self.player.keep_midturn(after.hash(), Box::new(agent));
        }
        Some(typed.move_text(best))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::{GameSource, Registry};

    fn waiting(player: &LevelPlayer) -> usize {
        player.midturn.lock().unwrap().len()
    }

    /// A Kelasu turn is several actions: the searcher waits between them,
    /// and is taken up again by the next action (and not by another game).
    #[test]
    fn a_searcher_is_kept_between_the_actions_of_a_turn() {
        let player = LevelPlayer::new("easy");
        let mut game = Registry.new_game("kelasu", None, 0, &menagerie_games::BuiltinData).unwrap();
        let first = player.choose(game.as_ref()).expect("an action");
        assert_eq!(waiting(&player), 1);
        game.play(&first).unwrap();
        let second = player.choose(game.as_ref()).expect("an action");
        assert!(game.legal_moves().contains(&second));
        // Taken up, and put back for the third action.
        assert_eq!(waiting(&player), 1);
        // A game of one move per turn leaves nothing waiting.
        let lma = LevelPlayer::new("easy");
        lma.choose(Registry.new_game("lma", None, 0, &menagerie_games::BuiltinData).unwrap().as_ref()).expect("a move");
        assert_eq!(waiting(&lma), 0);
    }
}
