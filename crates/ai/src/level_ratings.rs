//! The measured strength of the levels, per variant: the Elo ratings that
//! `menagerie ladder --save` writes to `data/ratings.toml`, built into the
//! binary so that the web page can show them.

use crate::eval_kind::EvalKind;
use crate::rating::Rating;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// The file's text, as built into this binary.
const BUILT_IN: &str = include_str!("../../../data/ratings.toml");

/// The first lines of the file: what it is and where it comes from.
pub const HEADER: &str = "\
# Elo ratings of the computer levels, per variant, anchored at random = 0,
# with 95% intervals: written by `menagerie ladder <variant> --save
# data/ratings.toml` (each variant's entry names the command that measured
# it). The web page shows them beside the levels. A variant without an
# entry has not been measured yet. [evaluation]: the evaluation each
# game's levels use, the one measured stronger (README, Computer players);
# an entry's measured_with: the one they played when it was measured.
";

/// The whole file: one entry per variant string.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RatingsFile {
    /// The evaluation the levels of each game use (`tuned` or `learned`),
    /// by game (`lma`, for `lma` and `lma-double`): the one that won the
    /// match of the two (README, "Computer players"). A game not named
    /// uses the tuned one.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub evaluation: BTreeMap<String, String>,
    #[serde(flatten)]
    pub variants: BTreeMap<String, VariantRatings>,
}

/// One variant's ladder: how it was measured and each level's rating.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct VariantRatings {
    /// The command that measured it.
    pub command: String,
    /// Games per pairing of players.
    pub games_per_pairing: u32,
    /// The evaluation the levels played when they were measured (`tuned`
    /// or `learned`): a game whose levels changed evaluation since keeps
    /// its old ratings, so named, until its ladder is played again.
    #[serde(default = "tuned")]
    pub measured_with: String,
    /// Elo by level name (`random` is 0).
    pub levels: BTreeMap<String, StoredRating>,
}

fn tuned() -> String {
    EvalKind::Tuned.to_string()
}

/// A rating as stored: whole Elo points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredRating {
    pub elo: i64,
    pub low: i64,
    pub high: i64,
}

impl From<Rating> for StoredRating {
    fn from(r: Rating) -> StoredRating {
        StoredRating { elo: r.elo.round() as i64, low: r.low.round() as i64, high: r.high.round() as i64 }
    }
}

impl RatingsFile {
    pub fn parse(text: &str) -> Result<RatingsFile, String> {
        let file: RatingsFile = toml::from_str(text).map_err(|e| e.to_string())?;
        // Levels play one of these two; `handwritten` is a yardstick only.
        let a_level_evaluation =
            |name: &str| matches!(EvalKind::parse(name), Some(EvalKind::Tuned | EvalKind::Learned));
        if let Some((game, name)) = file.evaluation.iter().find(|(_, name)| !a_level_evaluation(name)) {
            return Err(format!("the levels of {game} use evaluation {name:?}; expected tuned or learned"));
        }
        if let Some((variant, entry)) =
            file.variants.iter().find(|(_, entry)| !a_level_evaluation(&entry.measured_with))
        {
            let name = &entry.measured_with;
            return Err(format!(
                "the levels of {variant} were measured with evaluation {name:?}; expected tuned or learned"
            ));
        }
        Ok(file)
    }

    /// The evaluation the levels of `game` use.
    pub fn level_evaluation(&self, game: &str) -> EvalKind {
        self.evaluation.get(game).and_then(|name| EvalKind::parse(name)).unwrap_or(EvalKind::Tuned)
    }

    /// The file's text: the header, then the entries in variant order.
    pub fn to_text(&self) -> String {
        let body = toml::to_string(self).unwrap_or_default();
        format!("{HEADER}\n{body}")
    }

    /// The ratings built into this binary.
    pub fn built_in() -> &'static RatingsFile {
        static FILE: OnceLock<RatingsFile> = OnceLock::new();
        // A test checks that the file in the repository parses.
        FILE.get_or_init(|| RatingsFile::parse(BUILT_IN).unwrap_or_default())
    }

    /// The rating of `level` in `variant` (a variant string, as the ladder
    /// was run with), if measured.
    pub fn level(&self, variant: &str, level: &str) -> Option<StoredRating> {
        self.variants.get(variant)?.levels.get(level).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_file_parses() {
        RatingsFile::parse(BUILT_IN).expect("data/ratings.toml parses");
    }

    #[test]
    fn entries_round_trip_through_the_text() {
        let mut file = RatingsFile::default();
        let mut levels = BTreeMap::new();
        levels.insert("random".to_owned(), StoredRating { elo: 0, low: 0, high: 0 });
        levels.insert("easy".to_owned(), StoredRating { elo: 412, low: 330, high: 495 });
        let entry = VariantRatings {
            command: "menagerie ladder lma --games 4".into(),
            games_per_pairing: 4,
            measured_with: "learned".into(),
            levels,
        };
        file.variants.insert("lma".into(), entry);
        let text = file.to_text();
        assert!(text.starts_with(HEADER));
        let again = RatingsFile::parse(&text).unwrap();
        assert_eq!(again, file);
        assert_eq!(again.level("lma", "easy"), Some(StoredRating { elo: 412, low: 330, high: 495 }));
        assert_eq!(again.level("lma", "hard"), None);
        assert_eq!(again.level("kelasu", "easy"), None);
    }

    #[test]
    fn the_levels_evaluation_is_read_per_game_and_checked() {
        let mut file = RatingsFile::default();
        file.evaluation.insert("kelasu".into(), "learned".into());
        let again = RatingsFile::parse(&file.to_text()).unwrap();
        assert_eq!(again.level_evaluation("kelasu"), EvalKind::Learned);
        assert_eq!(again.level_evaluation("lma"), EvalKind::Tuned);
        let error = RatingsFile::parse("[evaluation]\nlma = \"handwritten\"\n").unwrap_err();
        assert!(error.contains("lma") && error.contains("handwritten"), "{error}");
    }

    #[test]
    fn an_entry_names_the_evaluation_it_was_measured_with_tuned_unless_it_says() {
        let old = "[lma]\ncommand = \"menagerie ladder lma\"\ngames_per_pairing = 2\n[lma.levels.easy]\nelo = 400\nlow = 300\nhigh = 500\n";
        let file = RatingsFile::parse(old).unwrap();
        assert_eq!(file.variants["lma"].measured_with, "tuned");
        let learned = old.replace("games_per_pairing = 2", "games_per_pairing = 2\nmeasured_with = \"learned\"");
        assert_eq!(RatingsFile::parse(&learned).unwrap().variants["lma"].measured_with, "learned");
        let error = RatingsFile::parse(
            &old.replace("games_per_pairing = 2", "games_per_pairing = 2\nmeasured_with = \"handwritten\""),
        )
        .unwrap_err();
        assert!(error.contains("lma") && error.contains("handwritten"), "{error}");
    }

    #[test]
    fn every_game_states_its_levels_evaluation() {
        let file = RatingsFile::parse(BUILT_IN).unwrap();
        for game in ["fluid", "kelasu", "lichen", "lma", "lunch"] {
            assert!(file.evaluation.contains_key(game), "data/ratings.toml names no evaluation for {game}");
        }
    }
}
