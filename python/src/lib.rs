//! `menagerie._menagerie`: Menagerie's games for Python, a thin layer over
//! the core's object-safe game ([`DynEncoded`]: the server's `DynGame` with
//! its moves numbered). Moves cross as the indices of each game's fixed
//! action space ([`menagerie_core::Encode`], documented on its rules page)
//! or as move texts; every error is a `ValueError`
//! carrying Menagerie's own message. The OpenSpiel and PettingZoo adapters
//! are Python, in the `menagerie` package beside this module.

use menagerie_ai::{AgentSpec, Limits, Score, StopFlag};
use menagerie_core::{Actor, DynEncoded, Erased, Evaluate, Game, GameVisitor, Outcome, Player, VariantSpec};
use menagerie_games::BuiltinData;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBytes, PyDict, PyInt, PyList};
use std::time::Duration;

/// OpenSpiel's player ids for chance and for a finished game.
const CHANCE_PLAYER: i64 = -1;
const TERMINAL_PLAYER: i64 = -4;

fn value_error(error: impl ToString) -> PyErr {
    PyValueError::new_err(error.to_string())
}

fn new_game(variant: &str, position: Option<&str>) -> PyResult<Box<dyn DynEncoded>> {
    menagerie_games::new_encoded_game(variant, position, 0, &BuiltinData).map_err(value_error)
}

fn player_of(player: i64) -> PyResult<Player> {
    match player {
        0 => Ok(Player::First),
        1 => Ok(Player::Second),
        _ => Err(value_error(format!("player {player} is not a player: 0 (first) or 1 (second)"))),
    }
}

/// A float32 numpy array of `values` in `shape`.
fn numpy_array<'py>(py: Python<'py>, values: &[f32], shape: &[usize]) -> PyResult<Bound<'py, PyAny>> {
    let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_ne_bytes()).collect();
    let numpy = py.import("numpy")?;
    let array = numpy.call_method1("frombuffer", (PyBytes::new(py, &bytes), "float32"))?;
    array.call_method1("reshape", (shape.to_vec(),))?.call_method0("copy")
}

/// Python ints for action indices, made once and then shared (ints are
/// immutable): a Lichen Chess turn has hundreds of legal actions, nearly
/// all above the small ints Python keeps, and making a fresh int for each
/// cost a Python playout more than listing the moves did. Made a block of
/// [`INT_BLOCK`] consecutive indices at a time, when one of them is first
/// listed, so that the ints of nearby actions lie near in memory.
static ACTION_INTS: [PyOnceLock<Box<[Py<PyInt>]>>; INT_BLOCKS] = [const { PyOnceLock::new() }; INT_BLOCKS];
const INT_BLOCK: usize = 1024;
/// Blocks for the first 65,536 indices (2 MB of ints, which stay in the
/// processor's caches): every index of Lichen Chess, LMA and Kelasu. An
/// index beyond them gets a fresh int, made in memory Python has just
/// freed: Lunch Chess's actions are spread over 439,019 indices, and
/// shared ints for all of them (14 MB) missed the caches on every listing.
const INT_BLOCKS: usize = 64;

/// The Python int for `action`, from [`ACTION_INTS`].
fn action_int(py: Python<'_>, action: usize) -> Bound<'_, PyInt> {
    let int = |action: usize| {
        let Ok(int) = action.into_pyobject(py);
        int
    };
    match ACTION_INTS.get(action / INT_BLOCK) {
        Some(block) => {
            let start = action - action % INT_BLOCK;
            let ints = block.get_or_init(py, || (start..start + INT_BLOCK).map(|i| int(i).unbind()).collect());
            ints[action % INT_BLOCK].bind(py).clone()
        }
        None => int(action),
    }
}

/// `actions` as a Python list of ints.
fn action_list<'py>(py: Python<'py>, actions: &[usize]) -> PyResult<Bound<'py, PyList>> {
    PyList::new(py, actions.iter().map(|&action| action_int(py, action)))
}

/// Menagerie's variant ids, in registry order.
#[pyfunction]
fn variants() -> Vec<&'static str> {
    menagerie_games::variants().iter().map(|info| info.id).collect()
}

/// One variant of one game: `Game("lunch:princess")`. Raises ValueError
/// for an unknown id or option.
#[pyclass(name = "Game", module = "menagerie._menagerie", frozen)]
struct PyGame {
    start: Box<dyn DynEncoded>,
}

#[pymethods]
impl PyGame {
    #[new]
    fn new(variant: &str) -> PyResult<Self> {
        Ok(PyGame { start: new_game(variant, None)? })
    }

    /// The variant string, options included (`lunch:princess`).
    fn variant(&self) -> String {
        self.start.variant().to_owned()
    }

    /// The options the variant id takes after a colon, as (name, takes a
    /// value): `[("princess", False), ..., ("deck", True)]`.
    fn options(&self) -> PyResult<Vec<(&'static str, bool)>> {
        let spec = VariantSpec::parse(self.start.variant()).map_err(value_error)?;
        let info = menagerie_games::variants().into_iter().find(|info| info.id == spec.id);
        Ok(info.map(|info| info.options.iter().map(|o| (o.name, o.value.is_some())).collect()).unwrap_or_default())
    }

    fn new_initial_state(&self) -> State {
        State { game: self.start.clone_encoded() }
    }

    /// The state a position text describes (Game.deserialize_state(state.serialize())).
    fn deserialize_state(&self, text: &str) -> PyResult<State> {
        Ok(State { game: new_game(self.start.variant(), Some(text))? })
    }

    fn num_distinct_actions(&self) -> usize {
        self.start.num_distinct_actions()
    }

    /// Chance's moves share the action space with the players'.
    fn max_chance_outcomes(&self) -> usize {
        if self.start.has_chance() {
            self.start.num_distinct_actions()
        } else {
            0
        }
    }

    fn max_game_length(&self) -> usize {
        self.start.max_game_length()
    }

    fn observation_tensor_shape(&self) -> Vec<usize> {
        self.start.observation_shape()
    }

    fn observation_tensor_size(&self) -> usize {
        self.start.observation_shape().iter().product()
    }

    fn num_players(&self) -> usize {
        2
    }

    /// Whether chance acts (a deal, a draw).
    fn has_chance(&self) -> bool {
        self.start.has_chance()
    }

    /// Whether some of the state is hidden from a player.
    fn has_hidden_information(&self) -> bool {
        self.start.has_hidden_information()
    }

    /// The game's type, as OpenSpiel describes one: sequential, two players,
    /// zero-sum, rewards at the end only.
    fn game_type<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let info = PyDict::new(py);
        info.set_item("dynamics", "sequential")?;
        info.set_item("chance_mode", if self.start.has_chance() { "explicit_stochastic" } else { "deterministic" })?;
        let information = if self.start.has_hidden_information() { "imperfect" } else { "perfect" };
        info.set_item("information", information)?;
        info.set_item("utility", "zero_sum")?;
        info.set_item("reward_model", "terminal")?;
        info.set_item("num_players", 2)?;
        info.set_item("min_utility", -1.0)?;
        info.set_item("max_utility", 1.0)?;
        Ok(info)
    }

    /// A player's name in this game (`white`, `blue`).
    fn player_name(&self, player: i64) -> PyResult<&'static str> {
        Ok(self.start.player_name(player_of(player)?))
    }

    fn __repr__(&self) -> String {
        format!("Game({:?})", self.start.variant())
    }
}

/// A position with the moves played on it through this value.
#[pyclass(module = "menagerie._menagerie")]
struct State {
    game: Box<dyn DynEncoded>,
}

#[pymethods]
impl State {
    fn variant(&self) -> String {
        self.game.variant().to_owned()
    }

    /// 0 or 1 for a player, -1 when chance acts, -4 once the game is over.
    fn current_player(&self) -> i64 {
        if self.game.outcome().is_some() {
            return TERMINAL_PLAYER;
        }
        match self.game.to_act() {
            Actor::Player(player) => player.index() as i64,
            Actor::Chance => CHANCE_PLAYER,
        }
    }

    fn is_terminal(&self) -> bool {
        self.game.outcome().is_some()
    }

    fn is_chance_node(&self) -> bool {
        self.game.outcome().is_none() && self.game.to_act() == Actor::Chance
    }

    /// The indices of the legal moves, ascending (chance's at a chance
    /// node); empty once the game is over. With `player`, empty unless that
    /// player acts.
    #[pyo3(signature = (player=None))]
    fn legal_actions<'py>(&mut self, py: Python<'py>, player: Option<i64>) -> PyResult<Bound<'py, PyList>> {
        action_list(py, self.actions_of(player))
    }

    /// An int8 numpy array over the whole action space: 1 for each legal
    /// index, 0 elsewhere.
    #[pyo3(signature = (player=None))]
    fn legal_actions_mask<'py>(&mut self, py: Python<'py>, player: Option<i64>) -> PyResult<Bound<'py, PyAny>> {
        let mut mask = vec![0u8; self.game.num_distinct_actions()];
        for &action in self.actions_of(player) {
            mask[action] = 1;
        }
        let numpy = py.import("numpy")?;
        numpy.call_method1("frombuffer", (PyBytes::new(py, &mask), "int8"))?.call_method0("copy")
    }

    /// Chance's moves and their probabilities; empty unless chance acts.
    fn chance_outcomes<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let outcomes = self.game.chance_outcomes();
        PyList::new(py, outcomes.into_iter().map(|(action, probability)| (action_int(py, action), probability)))
    }

    /// Plays the legal move of that index; ValueError if none has it.
    fn apply_action(&mut self, action: i64) -> PyResult<()> {
        let action = usize::try_from(action).map_err(|_| value_error(format!("action {action} is negative")))?;
        self.game.play_action(action).map_err(value_error)
    }

    /// Plays a move given as text; ValueError with Menagerie's message if
    /// it is malformed or illegal.
    fn apply_move(&mut self, text: &str) -> PyResult<()> {
        self.game.play(text).map_err(value_error)
    }

    /// Takes back the last move (OpenSpiel's `undo_action(player, action)`:
    /// both are optional and only checked against that move).
    #[pyo3(signature = (player=None, action=None))]
    fn undo_action(&mut self, player: Option<i64>, action: Option<i64>) -> PyResult<()> {
        let Some(last) = self.game.history().last().cloned() else {
            return Err(value_error("no move to undo"));
        };
        let mut before = self.game.clone_encoded();
        before.undo();
        if let Some(action) = action {
            let played = before.text_action(&last).map_err(value_error)?;
            if played as i64 != action {
                return Err(value_error(format!("the last move was {last} (action {played}), not action {action}")));
            }
        }
        if let Some(player) = player {
            let actor = State { game: before.clone_encoded() }.current_player();
            if actor != player {
                return Err(value_error(format!("the last move {last} was made by {actor}, not {player}")));
            }
        }
        self.game = before;
        Ok(())
    }

    /// The move text of an index: `action_to_string(action)` or OpenSpiel's
    /// `action_to_string(player, action)`.
    #[pyo3(signature = (player_or_action, action=None))]
    fn action_to_string(&self, player_or_action: i64, action: Option<i64>) -> PyResult<String> {
        let action = action.unwrap_or(player_or_action);
        usize::try_from(action)
            .ok()
            .and_then(|action| self.game.action_text(action))
            .ok_or_else(|| value_error(format!("action {action} names no move here")))
    }

    /// The index of a legal move given as text: `string_to_action(text)` or
    /// OpenSpiel's `string_to_action(player, text)`.
    #[pyo3(signature = (player_or_text, text=None))]
    fn string_to_action(&self, player_or_text: &Bound<'_, PyAny>, text: Option<String>) -> PyResult<usize> {
        let text = match text {
            Some(text) => text,
            None => player_or_text.extract::<String>()?,
        };
        self.game.text_action(&text).map_err(value_error)
    }

    /// The legal move texts, sorted by byte order.
    fn legal_moves(&self) -> Vec<String> {
        self.game.legal_moves()
    }

    /// The moves played through this value, as texts, oldest first.
    fn history_texts(&self) -> Vec<String> {
        self.game.history().to_vec()
    }

    /// +1 for the winner and -1 for the loser once the game is over; 0 otherwise.
    fn returns(&self) -> Vec<f64> {
        match self.game.outcome() {
            Some(outcome) => Player::BOTH.iter().map(|&p| f64::from(outcome.score_for(p))).collect(),
            None => vec![0.0, 0.0],
        }
    }

    /// The rewards of the last move: the returns at the end, 0 before.
    fn rewards(&self) -> Vec<f64> {
        self.returns()
    }

    #[pyo3(signature = (player))]
    fn player_return(&self, player: i64) -> PyResult<f64> {
        Ok(self.returns()[player_of(player)?.index()])
    }

    /// How the game ended (`first player wins (checkmate)`), or None.
    fn outcome(&self) -> Option<String> {
        self.game.outcome().map(|outcome: Outcome| outcome.to_string())
    }

    /// What `player` may see, as text (the whole position text in games of
    /// perfect information; Lunch Chess hides the other hand and the pile).
    fn information_state_string(&self, player: i64) -> PyResult<String> {
        Ok(self.game.view_text(player_of(player)?))
    }

    /// The same as `information_state_string`: what `player` sees now.
    fn observation_string(&self, player: i64) -> PyResult<String> {
        Ok(self.game.view_text(player_of(player)?))
    }

    /// What `player` sees, as numbers: a float32 numpy array of the game's
    /// `observation_tensor_shape()` (the layout is on the rules page).
    fn observation_tensor<'py>(&self, py: Python<'py>, player: i64) -> PyResult<Bound<'py, PyAny>> {
        let values = self.game.observation(player_of(player)?);
        numpy_array(py, &values, &self.game.observation_shape())
    }

    /// The position text (hidden state included): `Game.deserialize_state`
    /// reads it back.
    fn serialize(&self) -> String {
        self.game.to_text()
    }

    /// A state `player` cannot tell from this one, the hidden parts (Lunch
    /// Chess: the other hand, the draw pile) dealt at random from `seed`;
    /// a copy in games of perfect information.
    #[pyo3(signature = (player, seed=0))]
    fn resample(&self, player: i64, seed: u64) -> PyResult<State> {
        use rand::SeedableRng;
        let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
        Ok(State { game: self.game.determinize(player_of(player)?, &mut rng) })
    }

    fn clone(&self) -> State {
        State { game: self.game.clone_encoded() }
    }

    fn __copy__(&self) -> State {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> State {
        self.clone()
    }

    /// The terminal drawing of the whole position, who acts and the result.
    fn __str__(&self) -> String {
        let mut text = self.game.render(None);
        match self.game.outcome() {
            Some(outcome) => text.push_str(&format!("{outcome}\n")),
            None => match self.game.to_act() {
                Actor::Player(player) => text.push_str(&format!("{} to act\n", self.game.player_name(player))),
                Actor::Chance => text.push_str("chance acts\n"),
            },
        }
        text
    }

    fn __repr__(&self) -> String {
        format!("State({:?}, {:?})", self.game.variant(), self.game.to_text())
    }
}

impl State {
    /// The legal actions, or none when `player` is given and does not act.
    fn actions_of(&mut self, player: Option<i64>) -> &[usize] {
        match player {
            Some(player) if player != self.current_player() => &[],
            _ => self.game.legal_actions(),
        }
    }
}

/// The searcher's answer, typed before it becomes a dict.
struct Found {
    best: Option<(usize, String)>,
    score: Option<Score>,
    line: Vec<String>,
    depth: u32,
    nodes: u64,
}

struct Search<'a> {
    game: &'a dyn DynEncoded,
    spec: AgentSpec,
    limits: Limits,
    seed: u64,
}

impl GameVisitor for Search<'_> {
    type Output = Option<Found>;
    fn visit<G: Game + Evaluate>(self, _variant: G::Variant) -> Option<Found> {
        let typed = self.game.as_any().downcast_ref::<Erased<G>>()?.game().clone();
        let mut agent = self.spec.build::<G>(self.seed);
        let decision = agent.decide(&typed, &self.limits, &StopFlag::new(), &mut |_| {});
        let best = decision.best.map(|mv| typed.move_text(mv));
        let best = best.and_then(|text| self.game.text_action(&text).ok().map(|action| (action, text)));
        let info = decision.info;
        Some(Found {
            best,
            score: info.as_ref().map(|info| info.score),
            line: info.as_ref().map(|info| info.pv.clone()).unwrap_or_default(),
            depth: info.as_ref().map_or(0, |info| info.depth),
            nodes: info.as_ref().map_or(0, |info| info.nodes),
        })
    }
}

/// Searches the state with one of Menagerie's players (`alphabeta`,
/// `mcts`, `ismcts`, `ai:hard`, ... as on the command line) within `nodes`
/// (nodes or playouts), `time` (seconds) or `depth`; returns a dict with
/// `action`, `move`, `score` (`cp 35`, `win 3`, `loss 4`), `line`, `depth`
/// and `nodes`. Raises ValueError when nobody may decide (chance acts, the
/// game is over) or the player string is wrong.
#[pyfunction]
#[pyo3(signature = (state, nodes=None, time=None, depth=None, player="alphabeta", seed=0))]
fn search<'py>(
    py: Python<'py>,
    state: &State,
    nodes: Option<u64>,
    time: Option<f64>,
    depth: Option<u32>,
    player: &str,
    seed: u64,
) -> PyResult<Bound<'py, PyDict>> {
    if state.is_terminal() {
        return Err(value_error("the game is over: nothing to search"));
    }
    if state.is_chance_node() {
        return Err(value_error("chance acts next: nothing to decide"));
    }
    let spec = AgentSpec::parse(player).map_err(value_error)?;
    let time = match time {
        Some(t) if !(t.is_finite() && t > 0.0) => {
            return Err(value_error(format!("time {t} must be positive seconds")))
        }
        Some(t) => Some(Duration::from_secs_f64(t)),
        None => None,
    };
    if nodes.is_none() && time.is_none() && depth.is_none() {
        return Err(value_error("give nodes=, time= or depth="));
    }
    let limits = Limits { time, depth, nodes, ..Limits::default() };
    let variant = VariantSpec::parse(state.game.variant()).map_err(value_error)?;
    let game: &dyn DynEncoded = &*state.game;
    let found = py.detach(|| {
        menagerie_games::visit(&VariantSpec::plain(&variant.id), Search { game, spec, limits, seed }).ok().flatten()
    });
    let found = found.ok_or_else(|| value_error("the search found no move"))?;
    let result = PyDict::new(py);
    result.set_item("action", found.best.as_ref().map(|(action, _)| *action))?;
    result.set_item("move", found.best.map(|(_, text)| text))?;
    result.set_item("score", found.score.map(|score| score.to_string()))?;
    result.set_item("line", found.line)?;
    result.set_item("depth", found.depth)?;
    result.set_item("nodes", found.nodes)?;
    Ok(result)
}

/// The number of move paths of `depth` plies from the start or `position`
/// (what `menagerie perft` prints).
#[pyfunction]
#[pyo3(signature = (variant, depth, position=None))]
fn perft(py: Python<'_>, variant: &str, depth: u32, position: Option<&str>) -> PyResult<u64> {
    let mut game = new_game(variant, position)?;
    Ok(py.detach(move || game.perft(depth)))
}

/// Plays `games` random games inside Rust from the start (players
/// uniformly, chance with its probabilities) and returns the plies played:
/// the Python boundary's cost is what a Python loop takes beyond it.
#[pyfunction]
#[pyo3(signature = (variant, games, seed=0))]
fn random_playouts(py: Python<'_>, variant: &str, games: u64, seed: u64) -> PyResult<u64> {
    let start = new_game(variant, None)?;
    Ok(py.detach(move || {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
        let mut plies = 0;
        for _ in 0..games {
            let mut game = start.clone_encoded();
            while game.outcome().is_none() {
                let action = match game.to_act() {
                    Actor::Chance => {
                        let outcomes = game.chance_outcomes();
                        let mut x: f64 = rng.random();
                        let mut chosen = outcomes[outcomes.len() - 1].0;
                        for (action, p) in outcomes {
                            x -= p;
                            if x < 0.0 {
                                chosen = action;
                                break;
                            }
                        }
                        chosen
                    }
                    Actor::Player(_) => {
                        let actions = game.legal_actions();
                        actions[rng.random_range(0..actions.len())]
                    }
                };
                game.play_action(action).expect("a legal action plays");
                plies += 1;
            }
        }
        plies
    }))
}

#[pymodule]
fn _menagerie(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(variants, m)?)?;
    m.add_function(wrap_pyfunction!(search, m)?)?;
    m.add_function(wrap_pyfunction!(perft, m)?)?;
    m.add_function(wrap_pyfunction!(random_playouts, m)?)?;
    m.add_class::<PyGame>()?;
    m.add_class::<State>()?;
    m.add("CHANCE_PLAYER", CHANCE_PLAYER)?;
    m.add("TERMINAL_PLAYER", TERMINAL_PLAYER)?;
    Ok(())
}
