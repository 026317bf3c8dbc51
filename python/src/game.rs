//! `Game`: one variant, with the data its options name (a Lunch Chess deck
//! read from a file is kept, so that a pickled game needs no file).

use crate::args::value_error;
use crate::state::{Root, State};
use menagerie_core::{DynEncoded, Resolved, Resolver, VariantSpec};
use menagerie_games::lunch::deck::MAX_DECK_BYTES;
use menagerie_games::BuiltinData;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::io::Read;
use std::sync::{Arc, Mutex};

/// Data an option value named when the game was made (`deck=my.toml`
/// and the deck's text).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kept {
    pub option: String,
    pub name: String,
    pub text: Arc<str>,
}

/// What option values that name data mean here: what was kept first (a
/// game unpickled elsewhere), then the data built in, then a file (the
/// caller is the researcher on their own machine), remembering what it
/// read.
struct LocalData<'a> {
    kept: &'a [Kept],
    read: Mutex<Vec<Kept>>,
}

impl Resolver for LocalData<'_> {
    fn resolve(&self, option: &str, value: &str) -> Result<Resolved, String> {
        if let Some(kept) = self.kept.iter().find(|k| k.option == option && k.name == value) {
            return Ok(Resolved { name: kept.name.clone(), text: Arc::clone(&kept.text) });
        }
        if let Ok(builtin) = BuiltinData.resolve(option, value) {
            return Ok(builtin);
        }
        if BuiltinData::names(option).is_empty() {
            return Err(format!("option {option:?} names no data"));
        }
        let text: Arc<str> = read_small_file(value, MAX_DECK_BYTES).map_err(|e| format!("file {value}: {e}"))?.into();
        let mut read = self.read.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        read.push(Kept { option: option.to_owned(), name: value.to_owned(), text: Arc::clone(&text) });
        Ok(Resolved { name: value.to_owned(), text })
    }
}

/// A regular file of at most `limit` bytes, as text.
fn read_small_file(path: &str, limit: u64) -> Result<String, String> {
    let metadata = std::fs::metadata(path).map_err(|e| format!("cannot be read: {e}"))?;
    if !metadata.is_file() {
        return Err("is not a regular file".into());
    }
    let file = std::fs::File::open(path).map_err(|e| format!("cannot be read: {e}"))?;
    let mut text = String::new();
    file.take(limit + 1).read_to_string(&mut text).map_err(|e| format!("cannot be read: {e}"))?;
    if text.len() as u64 > limit {
        return Err(format!("is larger than {limit} bytes"));
    }
    Ok(text)
}

/// One variant as made once: its string, the data its options named, and
/// its start, shared by the `Game` and every state made from it.
pub struct Origin {
    pub variant: String,
    pub kept: Vec<Kept>,
    pub start: Box<dyn DynEncoded>,
    pub start_root: Arc<Root>,
}

impl Origin {
    pub fn new(variant: &str, kept: &[Kept]) -> PyResult<Arc<Origin>> {
        if variant.trim() != variant {
            return Err(value_error(format!("variant {variant:?} has spaces around it")));
        }
        let data = LocalData { kept, read: Mutex::new(Vec::new()) };
        let start = menagerie_games::new_encoded_game(variant, None, 0, &data).map_err(value_error)?;
        let mut kept = kept.to_vec();
        kept.extend(data.read.into_inner().unwrap_or_else(|poisoned| poisoned.into_inner()));
        let start_root = Arc::new(Root::of(&*start));
        Ok(Arc::new(Origin { variant: start.variant().to_owned(), kept, start, start_root }))
    }

    /// A game of this variant from a position text (the data kept).
    pub fn game_at(&self, position: &str) -> PyResult<Box<dyn DynEncoded>> {
        let data = LocalData { kept: &self.kept, read: Mutex::new(Vec::new()) };
        menagerie_games::new_encoded_game(&self.variant, Some(position), 0, &data).map_err(value_error)
    }
}

/// One variant of one game: `Game("lunch:princess")`, or with a deck read
/// from a file, `Game("lunch:deck=my-deck.toml")` (the deck is kept with
/// the game, so it pickles without the file). Raises ValueError for an
/// unknown id or option, a bad deck, or spaces around the string.
#[pyclass(name = "Game", module = "menagerie._menagerie", frozen)]
pub struct PyGame {
    pub origin: Arc<Origin>,
}

#[pymethods]
impl PyGame {
    #[new]
    fn new(variant: &str) -> PyResult<Self> {
        Ok(PyGame { origin: Origin::new(variant, &[])? })
    }

    /// The variant string, options included (`lunch:princess`).
    fn variant(&self) -> String {
        self.origin.variant.clone()
    }

    /// The options the variant id takes after a colon, as (name, takes a
    /// value): `[("princess", False), ..., ("deck", True)]`.
    fn options(&self) -> PyResult<Vec<(&'static str, bool)>> {
        let spec = VariantSpec::parse(&self.origin.variant).map_err(value_error)?;
        let info = menagerie_games::variants().into_iter().find(|info| info.id == spec.id);
        Ok(info.map(|info| info.options.iter().map(|o| (o.name, o.value.is_some())).collect()).unwrap_or_default())
    }

    /// The state before the first move (Lunch Chess: before chance deals).
    fn new_initial_state(&self) -> State {
        State::new(Arc::clone(&self.origin), self.origin.start.clone_encoded(), Arc::clone(&self.origin.start_root))
    }

    /// The state `text` describes: what `State.serialize()` wrote (a
    /// position text and the moves played since, one a line), or a
    /// position text alone, or `startpos`. Raises ValueError naming the
    /// line that is wrong.
    fn deserialize_state(&self, text: &str) -> PyResult<State> {
        State::deserialize(&self.origin, text)
    }

    /// The number of indices of the action space (chance's moves included).
    fn num_distinct_actions(&self) -> usize {
        self.origin.start.num_distinct_actions()
    }

    /// Chance's moves share the action space with the players'.
    fn max_chance_outcomes(&self) -> usize {
        if self.origin.start.has_chance() {
            self.origin.start.num_distinct_actions()
        } else {
            0
        }
    }

    /// An upper bound on the moves of a game (chance's included).
    fn max_game_length(&self) -> usize {
        self.origin.start.max_game_length()
    }

    /// The shape of `State.observation_tensor()`.
    fn observation_tensor_shape(&self) -> Vec<usize> {
        self.origin.start.observation_shape()
    }

    /// The number of elements of `State.observation_tensor()`.
    fn observation_tensor_size(&self) -> usize {
        self.origin.start.observation_shape().iter().product()
    }

    /// Always 2.
    fn num_players(&self) -> usize {
        2
    }

    /// Whether chance acts (a deal, a draw).
    fn has_chance(&self) -> bool {
        self.origin.start.has_chance()
    }

    /// Whether some of the state is hidden from a player.
    fn has_hidden_information(&self) -> bool {
        self.origin.start.has_hidden_information()
    }

    /// The game's type, as OpenSpiel describes one: sequential, two players,
    /// zero-sum, rewards at the end only; an information state string
    /// with perfect recall, no information state tensor.
    fn game_type<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let start = &self.origin.start;
        let info = PyDict::new(py);
        info.set_item("dynamics", "sequential")?;
        info.set_item("chance_mode", if start.has_chance() { "explicit_stochastic" } else { "deterministic" })?;
        info.set_item("information", if start.has_hidden_information() { "imperfect" } else { "perfect" })?;
        info.set_item("utility", "zero_sum")?;
        info.set_item("reward_model", "terminal")?;
        info.set_item("num_players", 2)?;
        info.set_item("min_utility", -1.0)?;
        info.set_item("max_utility", 1.0)?;
        info.set_item("provides_information_state_string", true)?;
        info.set_item("provides_information_state_tensor", false)?;
        info.set_item("provides_observation_string", true)?;
        info.set_item("provides_observation_tensor", true)?;
        Ok(info)
    }

    /// A player's name in this game (`white`, `blue`).
    fn player_name(&self, player: &Bound<'_, PyAny>) -> PyResult<&'static str> {
        Ok(self.origin.start.player_name(crate::args::player_arg(player)?))
    }

    fn __repr__(&self) -> String {
        format!("Game({:?})", self.origin.variant)
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<PyGame>().is_ok_and(|other| {
            let other = &other.get().origin;
            other.variant == self.origin.variant && other.kept == self.origin.kept
        })
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        self.origin.variant.hash(&mut hasher);
        hasher.finish()
    }

    /// Pickles as the variant string and the data it named (a deck's text).
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Reduced<'py, (String, Vec<KeptTuple>)>> {
        let restore = py.import("menagerie._menagerie")?.getattr("_restore_game")?;
        Ok((restore, (self.origin.variant.clone(), kept_tuples(&self.origin.kept))))
    }
}

/// What `__reduce__` gives pickle: the function that makes the object
/// again, and its arguments.
pub type Reduced<'py, Args> = (Bound<'py, PyAny>, Args);

/// A [`Kept`] as Python sees it: (option, name, text).
type KeptTuple = (String, String, String);

fn kept_tuples(kept: &[Kept]) -> Vec<KeptTuple> {
    kept.iter().map(|k| (k.option.clone(), k.name.clone(), k.text.to_string())).collect()
}

/// Unpickles a `Game`: the variant string and the data it named.
#[pyfunction]
pub fn _restore_game(variant: &str, kept: Vec<KeptTuple>) -> PyResult<PyGame> {
    let kept: Vec<Kept> =
        kept.into_iter().map(|(option, name, text)| Kept { option, name, text: text.into() }).collect();
    Ok(PyGame { origin: Origin::new(variant, &kept)? })
}

/// The `Game` a state belongs to, as a Python object.
pub fn game_object(origin: &Arc<Origin>) -> PyGame {
    PyGame { origin: Arc::clone(origin) }
}
