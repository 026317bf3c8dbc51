//! Arguments from Python, checked: every wrong value is a `ValueError`
//! carrying a message for people (a negative or huge number included,
//! which PyO3's own conversions would make an `OverflowError`); a value of
//! the wrong type stays Python's `TypeError`.

use menagerie_core::Player;
use pyo3::exceptions::{PyOverflowError, PyValueError};
use pyo3::prelude::*;

/// OpenSpiel's player ids for chance and for a finished game.
pub const CHANCE_PLAYER: i64 = -1;
pub const TERMINAL_PLAYER: i64 = -4;

pub fn value_error(error: impl ToString) -> PyErr {
    PyValueError::new_err(error.to_string())
}

/// An int argument: a `ValueError` naming `what` when it does not fit in
/// 64 bits.
pub fn int_arg(value: &Bound<'_, PyAny>, what: &str) -> PyResult<i64> {
    value.extract::<i64>().map_err(|error| {
        if error.is_instance_of::<PyOverflowError>(value.py()) {
            value_error(format!("{what} is out of range (a 64-bit integer)"))
        } else {
            error
        }
    })
}

/// A count or index argument: an int from 0 up to `T`'s largest value.
pub fn natural_arg<T: TryFrom<i64>>(value: &Bound<'_, PyAny>, what: &str) -> PyResult<T> {
    let number = int_arg(value, what)?;
    T::try_from(number).map_err(|_| {
        if number < 0 {
            value_error(format!("{what} {number} is negative"))
        } else {
            value_error(format!("{what} {number} is too large"))
        }
    })
}

/// [`natural_arg`] for an optional argument.
pub fn optional_natural<T: TryFrom<i64>>(value: Option<&Bound<'_, PyAny>>, what: &str) -> PyResult<Option<T>> {
    value.map(|value| natural_arg(value, what)).transpose()
}

/// A seed: any int from 0 to 2^64 - 1.
pub fn seed_arg(value: &Bound<'_, PyAny>) -> PyResult<u64> {
    value.extract::<u64>().map_err(|error| {
        if error.is_instance_of::<PyOverflowError>(value.py()) {
            value_error("seed must be an int from 0 to 2**64 - 1")
        } else {
            error
        }
    })
}

/// A player argument: 0 (first) or 1 (second).
pub fn player_arg(value: &Bound<'_, PyAny>) -> PyResult<Player> {
    player_of(int_arg(value, "player")?)
}

pub fn player_of(player: i64) -> PyResult<Player> {
    match player {
        0 => Ok(Player::First),
        1 => Ok(Player::Second),
        _ => Err(value_error(format!("player {player} is not a player: 0 (first) or 1 (second)"))),
    }
}
