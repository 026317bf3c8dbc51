//! `VectorEnv`: N games of one variant stepped in one call, for
//! reinforcement learning at scale. The observations, action masks and
//! players to act live in numpy arrays over memory this object owns and
//! Rust writes in place: a mask is updated by clearing the indices it set
//! last time and setting the new ones, so even Lunch Chess's 439,019-action
//! masks cost only their legal moves per step, and nothing loops in Python.

use crate::args::{natural_arg, seed_arg, value_error};
use crate::arrays::{array_from_bytes, write_floats};
use crate::game::{game_object, Origin, PyGame};
use crate::search::random_action;
use crate::state::State;
use menagerie_core::{Actor, DynEncoded, Player};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyDict};
use rand::rngs::SmallRng;
use rand::SeedableRng;
use std::sync::Arc;

/// The most memory the masks may take (Lunch Chess: 2,445 games).
const MAX_MASK_BYTES: usize = 1 << 30;

/// One buffer and the numpy array that views it.
struct Buffer {
    bytes: Py<PyByteArray>,
    array: Py<PyAny>,
}

impl Buffer {
    fn new(py: Python<'_>, dtype: &str, shape: &[usize], byte_len: usize) -> PyResult<Buffer> {
        let bytes = PyByteArray::new_with(py, byte_len, |_| Ok(()))?;
        let numpy = py.import("numpy")?;
        let array = numpy.call_method1(intern!(py, "frombuffer"), (&bytes, dtype))?;
        let array = array.call_method1(intern!(py, "reshape"), (shape.to_vec(),))?;
        Ok(Buffer { bytes: bytes.unbind(), array: array.unbind() })
    }

    /// The bytes, to write. Safe while the GIL is held and nothing resizes
    /// the bytearray, which its numpy view forbids (an exported buffer
    /// cannot be resized), and no other reference to the bytes is alive:
    /// each call site writes and lets go at once.
    #[allow(clippy::mut_from_ref)]
    fn bytes_mut<'a>(&'a self, py: Python<'a>) -> &'a mut [u8] {
        unsafe { self.bytes.bind(py).as_bytes_mut() }
    }

    /// The array, or a copy of it.
    fn get<'py>(&self, py: Python<'py>, copy: bool) -> PyResult<Bound<'py, PyAny>> {
        let array = self.array.bind(py).clone();
        if copy {
            array.call_method0(intern!(py, "copy"))
        } else {
            Ok(array)
        }
    }
}

/// N games of one variant stepped together: `VectorEnv("lunch", 64,
/// seed=0)`. Each game's next decision is a player's (chance acts inside,
/// drawn from the environment's own generator, seeded by `seed`); a game
/// that ends is started again at once (its `terminations` entry and its
/// `rewards` row tell of the end). Observations are from the player to
/// act. With `copy=False` the arrays returned are views that the next
/// call overwrites (no copy: the fast way); with `copy=True` (the default)
/// they are the caller's own.
#[pyclass(module = "menagerie._menagerie")]
pub struct VectorEnv {
    origin: Arc<Origin>,
    games: Vec<Box<dyn DynEncoded>>,
    rng: SmallRng,
    copy: bool,
    observations: Buffer,
    masks: Buffer,
    players: Buffer,
    /// The mask indices each game set last, to clear.
    set: Vec<Vec<usize>>,
    observation_size: usize,
    actions: usize,
}

impl VectorEnv {
    /// Lets chance act until a player decides or the game ends.
    fn let_chance_act(game: &mut dyn DynEncoded, rng: &mut SmallRng) {
        while game.outcome().is_none() && game.to_act() == Actor::Chance {
            let action = random_action(game, rng);
            if game.play_action(action).is_err() {
                break;
            }
        }
    }

    fn new_game(&mut self) -> Box<dyn DynEncoded> {
        let mut game = self.origin.start.clone_encoded();
        Self::let_chance_act(&mut *game, &mut self.rng);
        game
    }

    /// Writes game `index`'s observation, mask and player into the buffers.
    fn write(&mut self, py: Python<'_>, index: usize) {
        let game = &mut self.games[index];
        let player = match game.to_act() {
            Actor::Player(player) if game.outcome().is_none() => Some(player),
            _ => None,
        };
        self.players.bytes_mut(py)[index] = player.map_or(-1i8, |p| p.index() as i8) as u8;
        let observation = game.observation(player.unwrap_or(Player::First));
        let size = self.observation_size;
        write_floats(&mut self.observations.bytes_mut(py)[index * size * 4..(index + 1) * size * 4], &observation);
        let masks = self.masks.bytes_mut(py);
        let row = &mut masks[index * self.actions..(index + 1) * self.actions];
        for &at in &self.set[index] {
            row[at] = 0;
        }
        let legal = game.legal_actions();
        for &at in legal {
            row[at] = 1;
        }
        self.set[index].clear();
        self.set[index].extend_from_slice(legal);
    }

    fn observation<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        dict.set_item("observation", self.observations.get(py, self.copy)?)?;
        dict.set_item("action_mask", self.masks.get(py, self.copy)?)?;
        dict.set_item("current_player", self.players.get(py, self.copy)?)?;
        Ok(dict)
    }

    /// The actions given to `step`: any sequence of ints, read through
    /// numpy as one block of int64.
    fn read_actions(&self, py: Python<'_>, actions: &Bound<'_, PyAny>) -> PyResult<Vec<i64>> {
        let numpy = py.import("numpy")?;
        let array = numpy.call_method1(intern!(py, "asarray"), (actions,))?;
        let kind: String = array.getattr("dtype")?.getattr("kind")?.extract()?;
        if !matches!(kind.as_str(), "i" | "u") {
            return Err(value_error(format!("actions must be integers, not of numpy kind {kind:?}")));
        }
        let shape: Vec<usize> = array.getattr("shape")?.extract()?;
        if shape != [self.games.len()] {
            return Err(value_error(format!("actions has shape {shape:?}; expected ({},)", self.games.len())));
        }
        if kind == "u" && array.call_method0("max")?.extract::<u64>().is_ok_and(|max| max > i64::MAX as u64) {
            return Err(value_error("an action is out of range"));
        }
        let block = numpy.call_method1(intern!(py, "ascontiguousarray"), (array, "<i8"))?;
        let bytes = block.call_method0(intern!(py, "tobytes"))?;
        let bytes = bytes.cast::<PyBytes>()?.as_bytes();
        Ok(bytes.chunks_exact(8).map(|chunk| i64::from_le_bytes(chunk.try_into().unwrap_or([0; 8]))).collect())
    }
}

#[pymethods]
impl VectorEnv {
    #[new]
    #[pyo3(signature = (variant, num_envs, seed=None, copy=true))]
    fn new(
        py: Python<'_>,
        variant: &str,
        num_envs: &Bound<'_, PyAny>,
        seed: Option<&Bound<'_, PyAny>>,
        copy: bool,
    ) -> PyResult<VectorEnv> {
        let origin = Origin::new(variant, &[])?;
        let count = natural_arg::<usize>(num_envs, "num_envs")?;
        if count == 0 || count > 1 << 16 {
            return Err(value_error(format!("num_envs {count} must be from 1 to 65536")));
        }
        let shape = origin.start.observation_shape();
        let observation_size: usize = shape.iter().product();
        let actions = origin.start.num_distinct_actions();
        let mask_bytes = count.checked_mul(actions).filter(|&n| n <= MAX_MASK_BYTES);
        let mask_bytes = mask_bytes.ok_or_else(|| {
            value_error(format!("{count} masks of {actions} actions take more than {MAX_MASK_BYTES} bytes"))
        })?;
        let mut observation_shape = vec![count];
        observation_shape.extend(&shape);
        let mut env = VectorEnv {
            observations: Buffer::new(py, "float32", &observation_shape, count * observation_size * 4)?,
            masks: Buffer::new(py, "int8", &[count, actions], mask_bytes)?,
            players: Buffer::new(py, "int8", &[count], count)?,
            origin,
            games: Vec::with_capacity(count),
            rng: SmallRng::seed_from_u64(seed.map(seed_arg).transpose()?.unwrap_or(0)),
            copy,
            set: vec![Vec::new(); count],
            observation_size,
            actions,
        };
        for index in 0..count {
            let game = env.new_game();
            env.games.push(game);
            env.write(py, index);
        }
        Ok(env)
    }

    /// Starts every game again (reseeding the generator when `seed` is
    /// given); returns the observation dict: `observation` (N, *shape)
    /// float32, `action_mask` (N, num_actions) int8, `current_player` (N,)
    /// int8.
    #[pyo3(signature = (seed=None))]
    fn reset<'py>(&mut self, py: Python<'py>, seed: Option<&Bound<'py, PyAny>>) -> PyResult<Bound<'py, PyDict>> {
        if let Some(seed) = seed {
            self.rng = SmallRng::seed_from_u64(seed_arg(seed)?);
        }
        for index in 0..self.games.len() {
            self.games[index] = self.new_game();
            self.write(py, index);
        }
        self.observation(py)
    }

    /// Plays one action in every game (`actions`: N ints, each legal in
    /// its game; otherwise ValueError and no game moves), lets chance act,
    /// and starts finished games again. Returns `(observation dict,
    /// rewards (N, 2) float32 (each player's, at the end of a game),
    /// terminations (N,) bool, truncations (N,) bool (always False: every
    /// game ends by its rules), infos {})`.
    #[allow(clippy::type_complexity)]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<(Bound<'py, PyDict>, Bound<'py, PyAny>, Bound<'py, PyAny>, Bound<'py, PyAny>, Bound<'py, PyDict>)>
    {
        let actions = self.read_actions(py, actions)?;
        for (index, (&action, game)) in actions.iter().zip(&mut self.games).enumerate() {
            let legal = usize::try_from(action).is_ok_and(|action| game.legal_actions().binary_search(&action).is_ok());
            if !legal {
                return Err(value_error(format!("action {action} is not legal in game {index}")));
            }
        }
        let count = self.games.len();
        let mut rewards = vec![0f32; count * 2];
        let mut ended = vec![0u8; count];
        for (index, &action) in actions.iter().enumerate() {
            let game = &mut self.games[index];
            game.play_action(action as usize).map_err(value_error)?;
            Self::let_chance_act(&mut **game, &mut self.rng);
            if let Some(outcome) = game.outcome() {
                for player in Player::BOTH {
                    rewards[index * 2 + player.index()] = outcome.score_for(player) as f32;
                }
                ended[index] = 1;
                self.games[index] = self.new_game();
            }
            self.write(py, index);
        }
        let rewards = array_from_bytes(py, "float32", &[count, 2], count * 8, |bytes| write_floats(bytes, &rewards))?;
        let terminations = array_from_bytes(py, "bool", &[count], count, |bytes| bytes.copy_from_slice(&ended))?;
        let truncations = array_from_bytes(py, "bool", &[count], count, |_| {})?;
        Ok((self.observation(py)?, rewards, terminations, truncations, PyDict::new(py)))
    }

    /// The observation dict of the games as they stand.
    fn observe<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.observation(py)
    }

    /// The legal actions of every game as two int64 arrays: `actions`, all
    /// games' legal indices one game after another, and `offsets` (N + 1),
    /// game i's being `actions[offsets[i]:offsets[i + 1]]`.
    fn legal_actions<'py>(&mut self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        let mut flat: Vec<i64> = Vec::new();
        let mut offsets: Vec<i64> = vec![0];
        for game in &mut self.games {
            flat.extend(game.legal_actions().iter().map(|&a| a as i64));
            offsets.push(flat.len() as i64);
        }
        let as_array = |values: &[i64]| {
            array_from_bytes(py, "int64", &[values.len()], values.len() * 8, |bytes| {
                for (chunk, value) in bytes.chunks_exact_mut(8).zip(values) {
                    chunk.copy_from_slice(&value.to_ne_bytes());
                }
            })
        };
        Ok((as_array(&flat)?, as_array(&offsets)?))
    }

    /// A legal action of each game drawn uniformly from the environment's
    /// generator, as an int64 array (N,): a random player, or a baseline.
    fn sample_actions<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let mut chosen = Vec::with_capacity(self.games.len());
        for game in &mut self.games {
            chosen.push(random_action(&mut **game, &mut self.rng) as i64);
        }
        array_from_bytes(py, "int64", &[chosen.len()], chosen.len() * 8, |bytes| {
            for (chunk, value) in bytes.chunks_exact_mut(8).zip(&chosen) {
                chunk.copy_from_slice(&value.to_ne_bytes());
            }
        })
    }

    /// A copy of game `index` as a `State` (its history starts at that
    /// game's start).
    fn state(&self, index: &Bound<'_, PyAny>) -> PyResult<State> {
        let index = natural_arg::<usize>(index, "index")?;
        let game = self
            .games
            .get(index)
            .ok_or_else(|| value_error(format!("no game {index}: there are {}", self.games.len())))?;
        State::from_game(&self.origin, &**game)
    }

    /// The number of games.
    #[getter]
    fn num_envs(&self) -> usize {
        self.games.len()
    }

    /// The size of the action space.
    #[getter]
    fn num_actions(&self) -> usize {
        self.actions
    }

    /// The shape of one game's observation.
    #[getter]
    fn observation_shape(&self) -> Vec<usize> {
        self.origin.start.observation_shape()
    }

    /// The `Game` of the games.
    #[getter]
    fn game(&self) -> PyGame {
        game_object(&self.origin)
    }

    fn __len__(&self) -> usize {
        self.games.len()
    }

    fn __repr__(&self) -> String {
        format!("VectorEnv({:?}, {})", self.origin.variant, self.games.len())
    }
}
