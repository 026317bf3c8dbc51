//! `State`: a position with the moves played on it since its root (the
//! start, or the position it was read from), so that it is whole: its
//! serialized text is the root's position text and those moves, and a
//! state read back from it is the same state (repetitions, undo, what
//! each player saw included).

use crate::args::{int_arg, natural_arg, player_arg, player_of, seed_arg, value_error, CHANCE_PLAYER, TERMINAL_PLAYER};
use crate::arrays::{action_int, action_list, float32_array, mask_array};
use crate::game::{game_object, Origin, PyGame, Reduced};
use menagerie_core::{Actor, DynEncoded, Outcome, Player};
use pyo3::prelude::*;
use pyo3::types::PyList;
use std::sync::Arc;

/// Where a state's history starts, and what each player had seen by then.
pub struct Root {
    /// The position text the history starts from.
    text: String,
    /// What each player had seen at the root: its view of the root, or in
    /// a state sampled for a player ([`State::resample`]) that player's
    /// whole information state in the state it was sampled from.
    seen: [String; 2],
    /// Whether `seen` is not the two views of `text` (a sampled state's),
    /// so that serializing must write it.
    sampled: bool,
}

impl Root {
    /// The root of a game with no history yet.
    pub fn of(game: &dyn DynEncoded) -> Root {
        Root { text: game.to_text(), seen: Player::BOTH.map(|p| game.view_text(p)), sampled: false }
    }
}

/// The first line of a sampled state's serialized text: what each player
/// had seen at its root, as JSON (a position text never starts with `{`).
#[derive(serde::Serialize, serde::Deserialize)]
struct SampledHeader {
    seen: [String; 2],
}

/// A position of a game with the moves played on it since its root (the
/// start, or the position a text gave). Moves go in as action indices
/// (`apply_action`) or texts (`apply_move`); every mistake is a ValueError
/// with Menagerie's message.
#[pyclass(module = "menagerie._menagerie")]
pub struct State {
    game: Box<dyn DynEncoded>,
    origin: Arc<Origin>,
    root: Arc<Root>,
    /// The action index of each move since the root.
    actions: Vec<usize>,
    /// Who made each of them (OpenSpiel's ids: -1 for chance).
    actors: Vec<i8>,
}

impl State {
    pub fn new(origin: Arc<Origin>, game: Box<dyn DynEncoded>, root: Arc<Root>) -> State {
        State { game, origin, root, actions: Vec::new(), actors: Vec::new() }
    }

    /// Reads what [`State::serialize`] wrote, or a position text alone.
    pub fn deserialize(origin: &Arc<Origin>, text: &str) -> PyResult<State> {
        let mut lines = text.strip_suffix('\n').unwrap_or(text).split('\n');
        let mut first = lines.next().unwrap_or("");
        let header = if first.starts_with('{') {
            let header: SampledHeader = serde_json::from_str(first)
                .map_err(|e| value_error(format!("line 1: not the header of a sampled state: {e}")))?;
            first = lines.next().ok_or_else(|| value_error("line 2: a position text is missing"))?;
            Some(header)
        } else {
            None
        };
        let line_of_root = if header.is_some() { 2 } else { 1 };
        let game = origin.game_at(first).map_err(|e| value_error(format!("line {line_of_root}: {e}")))?;
        let mut root = Root::of(&*game);
        if let Some(header) = header {
            root.seen = header.seen;
            root.sampled = true;
        }
        let mut state = State::new(Arc::clone(origin), game, Arc::new(root));
        for (index, line) in lines.enumerate() {
            let number = line_of_root + 1 + index;
            let action = state.game.text_action(line).map_err(|e| value_error(format!("line {number}: {e}")))?;
            state.play(action).map_err(|e| value_error(format!("line {number}: {e}")))?;
        }
        Ok(state)
    }

    /// A state of `origin`'s game from its start, `game` after the moves
    /// it played (read back from its moves, to know their indices).
    pub fn from_game(origin: &Arc<Origin>, game: &dyn DynEncoded) -> PyResult<State> {
        let mut text = origin.start_root.text.clone();
        for move_text in game.history() {
            text.push('\n');
            text.push_str(move_text);
        }
        State::deserialize(origin, &text)
    }

    /// Plays the legal move of index `action`.
    fn play(&mut self, action: usize) -> PyResult<()> {
        let actor = self.current();
        self.game.play_action(action).map_err(value_error)?;
        self.actions.push(action);
        self.actors.push(actor as i8);
        Ok(())
    }

    pub fn game(&self) -> &dyn DynEncoded {
        &*self.game
    }

    fn copy(&self) -> State {
        State {
            game: self.game.clone_encoded(),
            origin: Arc::clone(&self.origin),
            root: Arc::clone(&self.root),
            actions: self.actions.clone(),
            actors: self.actors.clone(),
        }
    }

    pub fn current(&self) -> i64 {
        if self.game.outcome().is_some() {
            return TERMINAL_PLAYER;
        }
        match self.game.to_act() {
            Actor::Player(player) => player.index() as i64,
            Actor::Chance => CHANCE_PLAYER,
        }
    }

    /// The legal actions, or none when `player` is given and does not act.
    fn actions_of(&mut self, player: Option<&Bound<'_, PyAny>>) -> PyResult<&[usize]> {
        if let Some(player) = player {
            let player = int_arg(player, "player")?;
            if player != CHANCE_PLAYER {
                player_of(player)?;
            }
            if player != self.current() {
                return Ok(&[]);
            }
        }
        Ok(self.game.legal_actions())
    }

    fn info_state(&self, viewer: Player) -> String {
        let history = self.game.history();
        let mut text = String::with_capacity(self.root.seen[viewer.index()].len() + history.len() * 12);
        text.push_str(&self.root.seen[viewer.index()]);
        for (ply, move_text) in history.iter().enumerate() {
            text.push('\n');
            text.push_str(if self.game.move_seen(ply, viewer) { move_text } else { "?" });
        }
        text
    }
}

#[pymethods]
impl State {
    /// The variant string of its game.
    fn variant(&self) -> String {
        self.game.variant().to_owned()
    }

    /// The `Game` this state belongs to.
    fn get_game(&self) -> PyGame {
        game_object(&self.origin)
    }

    /// 0 or 1 for a player, -1 when chance acts, -4 once the game is over.
    fn current_player(&self) -> i64 {
        self.current()
    }

    /// Whether the game is over.
    fn is_terminal(&self) -> bool {
        self.game.outcome().is_some()
    }

    /// Whether chance acts next.
    fn is_chance_node(&self) -> bool {
        self.game.outcome().is_none() && self.game.to_act() == Actor::Chance
    }

    /// Whether a player acts next.
    fn is_player_node(&self) -> bool {
        self.game.outcome().is_none() && self.game.to_act() != Actor::Chance
    }

    /// The indices of the legal moves, ascending (chance's at a chance
    /// node); empty once the game is over. With `player` (0, 1, or -1 for
    /// chance), empty unless that player acts; any other number raises
    /// ValueError.
    #[pyo3(signature = (player=None))]
    fn legal_actions<'py>(
        &mut self,
        py: Python<'py>,
        player: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyList>> {
        action_list(py, self.actions_of(player)?)
    }

    /// An int8 numpy array over the whole action space: 1 for each legal
    /// index, 0 elsewhere (made in place, without a Python loop).
    #[pyo3(signature = (player=None))]
    fn legal_actions_mask<'py>(
        &mut self,
        py: Python<'py>,
        player: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let size = self.game.num_distinct_actions();
        mask_array(py, size, self.actions_of(player)?)
    }

    /// Chance's moves and their probabilities; empty unless chance acts.
    fn chance_outcomes<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let outcomes = self.game.chance_outcomes();
        PyList::new(py, outcomes.into_iter().map(|(action, probability)| (action_int(py, action), probability)))
    }

    /// Plays the legal move of that index; ValueError if none has it.
    fn apply_action(&mut self, action: &Bound<'_, PyAny>) -> PyResult<()> {
        let action = natural_arg::<usize>(action, "action")?;
        self.play(action)
    }

    /// Plays a move given as text; ValueError with Menagerie's message if
    /// it is malformed or illegal.
    fn apply_move(&mut self, text: &str) -> PyResult<()> {
        if self.game.outcome().is_some() {
            return Err(value_error(menagerie_core::MoveError::GameOver));
        }
        let action = self.game.text_action(text).map_err(value_error)?;
        self.play(action)
    }

    /// Takes back the last move (OpenSpiel's `undo_action(player, action)`:
    /// both are optional and only checked against that move). Raises
    /// ValueError when no move since the root is left to take back.
    #[pyo3(signature = (player=None, action=None))]
    fn undo_action(&mut self, player: Option<&Bound<'_, PyAny>>, action: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        let (Some(&last), Some(&actor)) = (self.actions.last(), self.actors.last()) else {
            return Err(value_error("no move to undo"));
        };
        let text = self.game.history().last().cloned().unwrap_or_default();
        if let Some(action) = action {
            let action = int_arg(action, "action")?;
            if action != last as i64 {
                return Err(value_error(format!("the last move was {text} (action {last}), not action {action}")));
            }
        }
        if let Some(player) = player {
            let player = int_arg(player, "player")?;
            if player != i64::from(actor) {
                return Err(value_error(format!("the last move {text} was made by {actor}, not {player}")));
            }
        }
        self.game.undo();
        self.actions.pop();
        self.actors.pop();
        Ok(())
    }

    /// The move text of an index: `action_to_string(action)` or OpenSpiel's
    /// `action_to_string(player, action)`.
    #[pyo3(signature = (player_or_action, action=None))]
    fn action_to_string(
        &self,
        player_or_action: &Bound<'_, PyAny>,
        action: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<String> {
        let action = int_arg(action.unwrap_or(player_or_action), "action")?;
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

    /// The action indices of the moves played since the root, oldest first
    /// (OpenSpiel's `history`).
    fn history<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        action_list(py, &self.actions)
    }

    /// Who made each move since the root and its action index, as
    /// `(player, action)` pairs, oldest first (player -1: chance).
    fn full_history(&self) -> Vec<(i64, usize)> {
        self.actors.iter().map(|&actor| i64::from(actor)).zip(self.actions.iter().copied()).collect()
    }

    /// The moves played since the root, as texts, oldest first.
    fn history_texts(&self) -> Vec<String> {
        self.game.history().to_vec()
    }

    /// The number of moves played since the root.
    fn move_number(&self) -> usize {
        self.actions.len()
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

    /// `returns()[player]`.
    fn player_return(&self, player: &Bound<'_, PyAny>) -> PyResult<f64> {
        Ok(self.returns()[player_arg(player)?.index()])
    }

    /// How the game ended (`first player wins (checkmate)`), or None.
    fn outcome(&self) -> Option<String> {
        self.game.outcome().map(|outcome: Outcome| outcome.to_string())
    }

    /// What `player` has seen of the game, with perfect recall: its view
    /// of the root position, then each move since, one a line, an outcome
    /// of chance it did not see (a card drawn into the other hand) as `?`.
    /// Two states give one player the same string exactly when it cannot
    /// tell them apart.
    fn information_state_string(&self, player: &Bound<'_, PyAny>) -> PyResult<String> {
        Ok(self.info_state(player_arg(player)?))
    }

    /// What `player` sees now, as text: the position text, Lunch Chess's
    /// other hand and draw pile as their sizes.
    fn observation_string(&self, player: &Bound<'_, PyAny>) -> PyResult<String> {
        Ok(self.game.view_text(player_arg(player)?))
    }

    /// What `player` sees now, as numbers: a float32 numpy array of the
    /// game's `observation_tensor_shape()` (the layout is on the rules page).
    fn observation_tensor<'py>(&self, py: Python<'py>, player: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let values = self.game.observation(player_arg(player)?);
        float32_array(py, &values, &self.game.observation_shape())
    }

    /// The whole state as text: the root's position text (hidden cards
    /// included), then the moves played since, one a line; a sampled
    /// state (`resample`) starts with a line saying what each player had
    /// seen. `Game.deserialize_state` reads it back into the same state.
    fn serialize(&self) -> PyResult<String> {
        let history = self.game.history();
        let mut text = String::with_capacity(self.root.text.len() + history.len() * 12);
        if self.root.sampled {
            let header = SampledHeader { seen: self.root.seen.clone() };
            text.push_str(&serde_json::to_string(&header).map_err(value_error)?);
            text.push('\n');
        }
        text.push_str(&self.root.text);
        for move_text in history {
            text.push('\n');
            text.push_str(move_text);
        }
        Ok(text)
    }

    /// The position text of the current position, hidden cards included
    /// (`Game.deserialize_state` reads it: a state without the history).
    fn position_text(&self) -> String {
        self.game.to_text()
    }

    /// A state `player` cannot tell from this one, the hidden parts (Lunch
    /// Chess: the other hand, the draw pile) dealt at random from `seed`,
    /// with the same information state for `player`; a copy in games of
    /// perfect information. Its history starts at the sample.
    #[pyo3(signature = (player, seed=None))]
    fn resample(&self, player: &Bound<'_, PyAny>, seed: Option<&Bound<'_, PyAny>>) -> PyResult<State> {
        use rand::SeedableRng;
        let player = player_arg(player)?;
        let seed = seed.map(seed_arg).transpose()?.unwrap_or(0);
        if !self.game.has_hidden_information() {
            return Ok(self.copy());
        }
        let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
        let game = self.game.determinize(player, &mut rng);
        let mut root = Root::of(&*game);
        root.seen[player.index()] = self.info_state(player);
        root.sampled = true;
        Ok(State::new(Arc::clone(&self.origin), game, Arc::new(root)))
    }

    /// An independent copy.
    fn clone(&self) -> State {
        self.copy()
    }

    fn __copy__(&self) -> State {
        self.copy()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> State {
        self.copy()
    }

    /// Pickles as its game and its serialized text.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Reduced<'py, (PyGame, String)>> {
        let restore = py.import("menagerie._menagerie")?.getattr("_restore_state")?;
        Ok((restore, (game_object(&self.origin), self.serialize()?)))
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

/// Unpickles a `State`: its game and its serialized text.
#[pyfunction]
pub fn _restore_state(game: &PyGame, text: &str) -> PyResult<State> {
    State::deserialize(&game.origin, text)
}
